// Imported first by each webview entry point. zod compiles object schemas with `new Function`
// when it can; the webviews' CSP forbids eval, so it is told not to try (no CSP violations).
import { config } from 'zod/mini';

config({ jitless: true });
