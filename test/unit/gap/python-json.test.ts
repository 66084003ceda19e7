// JSON written as Python's json module writes it, checked against the real interpreter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { detailContent } from '../../../src/core/gap/detail-content';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { ReportLimitError } from '../../../src/core/pytest/report-error';
import { MAX_REPORT_DEPTH } from '../../../src/core/pytest/report-shape';
import { arrayElementTexts, dumpsLikePython, parseKeepingNumbers } from '../../../src/core/util/python-json';
import { pythonFloatRepr } from '../../../src/core/util/python-float';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
const python = (code: string, input: string): string => execFileSync(PYTHON, ['-c', code], { input, encoding: 'utf8', maxBuffer: 1 << 26 });

test("floats: repr of 3,000 random doubles and the edge cases equals Python's", () => {
  const buf = new DataView(new ArrayBuffer(8));
  const xs: number[] = [4, 0.1, 1e-7, 8.7e-5, 1e-4, 1e-5, 1e16, 1e15, 123456789012345680, 1.5, -2.5e-300, 5e-324, 1.7976931348623157e308, 100, 0.5, 1 / 3];
  for (let i = 0; i < 3000; i++) {
    // Random bits give every exponent; small random decimals give the common cases.
    buf.setUint32(0, (Math.random() * 2 ** 32) >>> 0);
    buf.setUint32(4, (Math.random() * 2 ** 32) >>> 0);
    const v = buf.getFloat64(0);
    xs.push(Number.isFinite(v) ? v : i, Math.round(Math.random() * 1e6) / 10 ** Math.floor(Math.random() * 10));
  }
  const theirs = python('import sys\nfor l in sys.stdin: print(repr(float.fromhex(l.strip())))', xs.map(toHex).join('\n') + '\n')
    .trim()
    .split('\n');
  const ours = xs.map(pythonFloatRepr);
  for (let i = 0; i < xs.length; i++) assert.equal(ours[i], theirs[i], `repr of ${xs[i]}`);
});

test('dumps with indent 4 and ensure_ascii off equals json.dumps on awkward input', () => {
  const source = JSON.stringify({
    nodeid: 'tests/test_ü.py::test_x[\u{10428}-a\\"b]',
    ints: [0, -3, Number('12345678901234567890')], // more digits than a double holds, on purpose
    floats: [4.0, 1e-7, 8.7e-5, 2.5],
    '10': 'a digit key keeps its place',
    b: { '2': [], '1': {} },
    ctl: '\u0000\u0001\b\f\n\r\t\u001f\u007f \u2028 /',
    nothing: null,
    yes: true,
  })
    // Python-written text: 4.0 stays 4.0, the big int stays exact.
    .replace('"floats":[4,', '"floats":[4.0,')
    .replace('12345678901234567000', '12345678901234567890');
  const theirs = python('import json,sys\nsys.stdout.write(json.dumps(json.loads(sys.stdin.read()), ensure_ascii=False, indent=4))', source);
  assert.equal(dumpsLikePython(parseKeepingNumbers(source), 4), theirs);
});

test('the elements of the "tests" array are found without building them, the last "tests" key winning', () => {
  const text = '{"a": "x\\\\\\"]}", "tests": [1], "b": {"tests": [9]}, "tests": [ {"n": "}]\\""}, [2, {}],"s" ], "z": 1}';
  assert.deepEqual(arrayElementTexts(text, 'tests'), ['{"n": "}]\\""}', '[2, {}]', '"s"']);
  assert.equal(arrayElementTexts('[1]', 'tests'), undefined);
  assert.deepEqual(arrayElementTexts('{"tests": []}', 'tests'), []);
});

function toHex(x: number): string {
  // float.fromhex reads exact bits, so Python sees the very same double.
  if (x === 0) return Object.is(x, -0) ? '-0x0p+0' : '0x0p+0';
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const sign = hi >>> 31 ? '-' : '';
  const exp = (hi >>> 20) & 0x7ff;
  const mant = ((BigInt(hi & 0xfffff) << 32n) | BigInt(lo)).toString(16).padStart(13, '0');
  return exp === 0 ? `${sign}0x0.${mant}p-1022` : `${sign}0x1.${mant}p${exp - 1023}`;
}

test('deep metadata still gives a detail file (built from what was read); a report nested deeper than the stack is refused, naming the limit, never a crash', () => {
  const report = (levels: number) =>
    `{"tests": [{"nodeid": "t.py::x", "outcome": "failed", "lineno": 3, "metadata": ${'['.repeat(levels) + ']'.repeat(levels)}, "call": {"outcome": "failed", "longrepr": "E   boom"}}]}`;
  const levels = MAX_REPORT_DEPTH - 4;
  const nested = (n: number): unknown[] => (n === 1 ? [] : [nested(n - 1)]);
  const detail = detailContent(parseJsonReport(report(levels)).tests[0]);
  assert.deepEqual(JSON.parse(detail), {
    nodeid: 't.py::x',
    lineno: 3,
    outcome: 'failed',
    metadata: nested(levels),
    call: { outcome: 'failed', longrepr: 'E   boom' },
  });
  // Issue 29: a report's shape is measured before it is parsed, so the harness's memory is bounded.
  assert.throws(
    () => parseJsonReport(report(200_000)),
    (err: Error) => err instanceof ReportLimitError && /nests deeper than 128 levels/.test(err.message),
  );
});
