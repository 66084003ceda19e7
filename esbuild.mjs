// Bundles every entry point. `node esbuild.mjs` builds once; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

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
  // dist/cli.js is `sweci`: a small launcher that runs the CLI's bundle, dist/cli-main.js, through V8's code cache.
  { in: 'src/cli/launch.ts', out: 'cli', external: [] },
  { in: 'src/cli/main.ts', out: 'cli-main', external: [] },
].filter((e) => existsSync(e.in));

// dockerode loads modules at start-up for features we never use: ssh2 (with a native add-on) for
// ssh:// engines, gRPC and protobuf for BuildKit sessions. We reach engines over a unix socket,
// a named pipe or tcp, and never build with BuildKit; a .vsix ships no node_modules. Each is
// replaced by a module that says so if it is ever used (and the bundles lose 1 MB).
const unused = {
  ssh2: 'SWE-CI does not reach Docker over ssh://: use a unix socket, or a tcp:// DOCKER_HOST (e.g. through an ssh tunnel).',
  '@grpc/grpc-js': 'SWE-CI does not use BuildKit sessions.',
  '@grpc/proto-loader': 'SWE-CI does not use BuildKit sessions.',
  protobufjs: 'SWE-CI does not use BuildKit sessions.',
};
const stubUnused = {
  name: 'stub-unused',
  setup(build) {
    const filter = new RegExp(
      `^(${Object.keys(unused)
        .map((m) => m.replace(/[/.]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'stub-unused' }));
    build.onLoad({ filter: /.*/, namespace: 'stub-unused' }, (args) => ({
      contents: `const fail = () => { throw new Error(${JSON.stringify(unused[args.path])}); };\nmodule.exports = new Proxy({}, { get: (_t, key) => (key === '__esModule' ? false : fail) });\n`,
      loader: 'js',
    }));
  },
};

const builds = nodeEntries.map((e) => ({
  ...common,
  entryPoints: { [e.out]: e.in },
  outdir: 'dist',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: e.external,
  plugins: [stubUnused],
  ...(e.out === 'cli' ? { banner: { js: '#!/usr/bin/env node' } } : {}),
  // The launcher compiles cli-main.js with node:vm, where import() needs an experimental flag: as require().
  ...(e.out === 'cli-main' ? { supported: { 'dynamic-import': false } } : {}),
}));

// Browser bundles, one per panel: the chart, the iteration view, the Transcript panel and the Leaderboard.
for (const [out, entry] of [
  ['webview', 'webview-ui/main.ts'],
  ['iteration-view', 'webview-ui/iteration-view.ts'],
  ['transcript', 'webview-ui/transcript-view.ts'],
  ['leaderboard', 'webview-ui/leaderboard-view.ts'],
]) {
  if (!existsSync(entry)) continue;
  builds.push({
    ...common,
    entryPoints: { [out]: entry },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  });
}

// The test bundles (not with --production; never packaged): the extension with the API the
// integration tests drive it through (test/extension/extension.ts), and the chart and Transcript
// webviews with a report of what they drew (test/webview/). test/harness/test-extension.ts makes
// an extension folder of the product with these in place of its own; dist/ holds none of it.
if (!production) {
  builds.push({
    ...common,
    entryPoints: { extension: 'test/extension/extension.ts' },
    outdir: 'dist-test',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [stubUnused],
  });
  for (const [out, entry] of [
    ['webview', 'test/webview/chart.ts'],
    ['transcript', 'test/webview/transcript.ts'],
  ]) {
    builds.push({ ...common, entryPoints: { [out]: entry }, outdir: 'dist-test', platform: 'browser', format: 'iife', target: 'es2022' });
  }
}

// Our pytest report plugin is Python, loaded by pytest from a folder next to the bundles.
const reportPlugin = 'src/core/pytest/report-plugin/sweci_pytest_report.py';
mkdirSync('dist/report-plugin', { recursive: true });
copyFileSync(reportPlugin, 'dist/report-plugin/sweci_pytest_report.py');

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
