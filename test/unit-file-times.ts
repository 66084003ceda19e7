// A node:test reporter for the unit runner: one JSON line per top-level test with its file and
// duration, so the runner can name the slowest files. (Loaded with --test-reporter=<this file>.)
interface TestEvent {
  type: string;
  data: { nesting?: number; file?: string; details?: { duration_ms?: number } };
}

export = async function* fileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting === 0 && file) yield JSON.stringify({ file, ms: details?.duration_ms ?? 0 }) + '\n';
  }
};
