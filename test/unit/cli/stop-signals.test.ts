// A stop asked for twice. scancel signals every process of a Slurm job and the batch script's trap
// passes the stop on again, so sweci gets SIGTERM twice; the second must not cut short the
// cleanup the first started (containers left in the store were the symptom). A real process
// registers the CLI's handler and "cleans up" until the test lets it finish; each step is awaited
// as a line it prints, never a delay.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';

const module_ = path.resolve(__dirname, '../../../src/cli/stop-signals.js');
let tmp: string;

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-stop-signals-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A process with the CLI's handler: on abort it says so, then waits for `release` to appear before saying it cleaned up. */
function stoppable(name: string) {
  const release = path.join(tmp, `${name}.release`);
  const script = `
    const { stopOnSignals } = require(${JSON.stringify(module_)});
    const fs = require('node:fs');
    const abort = new AbortController();
    stopOnSignals(abort);
    abort.signal.addEventListener('abort', () => {
      console.log('aborted');
      const poll = setInterval(() => {
        if (fs.existsSync(${JSON.stringify(release)})) { clearInterval(poll); console.log('cleaned up'); process.exit(0); }
      }, 20);
    });
    console.log('ready');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { text: string; stream: 'out' | 'err'; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if ((w.stream === 'out' ? out : err).includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((err += d), check()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const said = (text: string, stream: 'out' | 'err' = 'out') =>
    Promise.race([
      new Promise<void>((resolve) => {
        waiters.push({ text, stream, resolve });
        check();
      }),
      exited.then((e) => {
        throw new Error(`exited (${e.signal ?? e.code}) before printing "${text}"\nstdout: ${out}\nstderr: ${err}`);
      }),
    ]);
  return { child: child as ChildProcess, said, exited, release: () => fs.writeFile(release, ''), output: () => ({ out, err }) };
}

for (const [first, second] of [
  ['SIGTERM', 'SIGTERM'],
  ['SIGHUP', 'SIGTERM'],
  ['SIGINT', 'SIGTERM'],
] as const) {
  test(`${first} then ${second}: the second is noted, the cleanup the first started finishes`, async () => {
    const p = stoppable(`${first}-${second}`);
    await p.said('ready');
    p.child.kill(first);
    await p.said('aborted');
    p.child.kill(second);
    await p.said(`${second}: already stopping`, 'err');
    await p.release();
    const end = await p.exited;
    assert.deepEqual(end, { code: 0, signal: null }, JSON.stringify(p.output()));
    assert.match(p.output().out, /cleaned up/);
    assert.equal(p.output().err.match(/: stopping \(/g)?.length, 1, 'one stop announced');
  });
}

test('SIGINT twice (Ctrl-C again): exits at once with 130, saying what it may leave', async () => {
  const p = stoppable('int-int');
  await p.said('ready');
  p.child.kill('SIGINT');
  await p.said('aborted');
  p.child.kill('SIGINT');
  const end = await p.exited;
  assert.deepEqual(end, { code: 130, signal: null });
  assert.doesNotMatch(p.output().out, /cleaned up/);
  assert.match(p.output().err, /SIGINT again: exiting now\. Containers of this run may be left; the next run on this machine removes them\./);
});
