// Bundles every entry point. `node esbuild.mjs` builds once; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

// Node-side bundles: the extension host (vscode is provided by the host), the
// requirement.xml language server and the headless CLI.
const nodeEntries = [
  { in: 'src/extension/extension.ts', out: 'extension', external: ['vscode'] },
  { in: 'src/server/server.ts', out: 'server', external: [] },
  { in: 'src/cli/main.ts', out: 'cli', external: [] },
].filter((e) => existsSync(e.in));

// Optional native add-ons of dockerode's ssh transport: never used (we talk to a unix socket).
const nativeOptional = ['cpu-features', 'ssh2'];

const builds = nodeEntries.map((e) => ({
  ...common,
  entryPoints: { [e.out]: e.in },
  outdir: 'dist',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: [...e.external, ...nativeOptional],
  ...(e.out === 'cli' ? { banner: { js: '#!/usr/bin/env node' } } : {}),
}));

// Browser bundle for the chart webview.
if (existsSync('webview-ui/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { webview: 'webview-ui/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  });
}

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
