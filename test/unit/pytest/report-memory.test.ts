// Bounded parsing (issue 29): whatever shape a report has, the harness reads it in under 512 MiB.
// The code under test can write a report file (its path was on pytest's command line) and can
// reach the report channel by scanning its own descriptors. Each case runs the harness's reading
// in a child node process and reads that process's peak memory. The child's heap is capped at
// 1 GiB: a harness that would need more dies, and the test fails without taking the machine.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CALC_SRC, PYTHON, makeProject, removeProject } from './python-project';

const LIMIT = 512 * 2 ** 20;
const CHILD = path.join(__dirname, 'report-memory-child.js');
const made: string[] = [];
after(() => made.forEach(removeProject));

function harness(scenario: string, arg: string): { outcome: string; hwm: number } {
  const r = spawnSync(process.execPath, ['--max-old-space-size=1024', CHILD, scenario, arg, PYTHON], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  assert.equal(r.status, 0, `the harness process died (${r.signal ?? r.status}):\n${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { outcome: string; hwm: number };
}

function mib(n: number): string {
  return `${Math.round(n / 2 ** 20)} MiB`;
}

/** `n` MB of nested arrays: [[[[…]]]]. */
function nested(bytes: number, open = '[', close = ']'): string {
  const depth = Math.floor(bytes / (open.length + close.length));
  return open.repeat(depth) + close.repeat(depth);
}

test('a 120 MB nested-array json report file is refused before parsing, the harness under 512 MiB', () => {
  const dir = makeProject({});
  made.push(dir);
  const file = path.join(dir, 'report.json');
  fs.writeFileSync(file, `{"tests": ${nested(120e6)}}`);
  const { outcome, hwm } = harness('json-file', file);
  assert.ok(hwm < LIMIT, `peak ${mib(hwm)}`);
  assert.match(outcome, /^not read: too-large$/);
});

test('a 60 MB nested-array json report (under the size cap) is refused for its depth, the harness under 512 MiB', () => {
  const dir = makeProject({});
  made.push(dir);
  const file = path.join(dir, 'report.json');
  fs.writeFileSync(file, `{"tests": ${nested(60e6)}}`);
  const { outcome, hwm } = harness('json-file', file);
  assert.ok(hwm < LIMIT, `peak ${mib(hwm)}`);
  assert.match(outcome, /^refused: The pytest-json-report file is not parsed: it nests deeper than 128 levels\.$/);
});

/** A package whose import (during collection) runs `body` inside pytest. */
function hostileProject(body: string): string {
  const root = makeProject({
    ...CALC_SRC,
    'src/calc/__init__.py': `from .ops import add, sub\n${body}`,
    'tests/test_ops.py': 'from calc import add, sub\n\ndef test_add():\n    assert add(1, 1) == 2\n\ndef test_sub():\n    assert sub(3, 1) == 2\n',
  });
  made.push(root, `${root}-out`);
  return root;
}

test('a 60 MB nested JUnit XML written over the report at exit is refused for its depth, the harness under 512 MiB', () => {
  const root = hostileProject(
    [
      'import atexit, sys',
      'def _forge():',
      '    for arg in sys.argv:',
      '        if arg.startswith("--junitxml="):',
      '            with open(arg[len("--junitxml="):], "w") as out:',
      '                out.write("<testsuites>" + "<a>" * 7500000 + "</a>" * 7500000 + "</testsuites>")',
      'atexit.register(_forge)',
      '',
    ].join('\n'),
  );
  const { outcome, hwm } = harness('junit-run', root);
  assert.ok(hwm < LIMIT, `peak ${mib(hwm)}`);
  assert.match(outcome, /^did not run: .*The JUnit XML report is not parsed: it nests deeper than 128 levels\.$/);
});

test("120 MB of nested arrays written into the report channel (found among the process's descriptors) is not read past its limit, the harness under 512 MiB", () => {
  const root = hostileProject(
    [
      'import os, stat',
      'def _channel():',
      '    # The plugin keeps the original stdout (a pipe or, from node, a socket) on a descriptor of',
      '    # its own, taken first: the lowest one past 0-2 of that kind.',
      '    for name in sorted(os.listdir("/proc/self/fd"), key=int):',
      '        fd = int(name)',
      '        try:',
      '            mode = os.fstat(fd).st_mode',
      '        except OSError:',
      '            continue',
      '        if fd > 2 and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):',
      '            return fd',
      '    return 1',
      '_fd = _channel()',
      'os.write(_fd, b"@sweci-frame report ")',
      '_chunk = b"[" * (1 << 20)',
      'for _ in range(60):',
      '    os.write(_fd, _chunk)',
      'for _ in range(60):',
      '    os.write(_fd, b"]" * (1 << 20))',
      'os.write(_fd, b"\\n")',
      '',
    ].join('\n'),
  );
  const { outcome, hwm } = harness('builtin-run', root);
  assert.ok(hwm < LIMIT, `peak ${mib(hwm)}`);
  assert.match(outcome, /^did not run: The report stream was not read: the streamed report is over 64 MiB\.$/);
});

test('the stream limits hold for a report that is only large: an honest 5,000-test run is read whole', () => {
  // Spread over 50 modules of 100: for each failing test pytest parses its whole module again to
  // cut the traceback's source, so one module of 5,000 made pytest's own work quadratic (~98 CPU-s
  // against ~6 here). The report is the same size: the same 5,000 tests and 715 failures.
  const files: Record<string, string> = {};
  for (let m = 0; m < 50; m++) {
    const tests = Array.from({ length: 100 }, (_, j) => m * 100 + j).map((i) => `def test_${i}():\n    assert ${i % 7 !== 0 ? 'True' : 'False'}\n`);
    files[`tests/test_many_${String(m).padStart(2, '0')}.py`] = tests.join('\n');
  }
  const root = makeProject(files);
  made.push(root, `${root}-out`);
  const { outcome, hwm } = harness('builtin-run', root);
  assert.ok(hwm < LIMIT, `peak ${mib(hwm)}`);
  assert.equal(outcome, 'ran 5000 tests');
});
