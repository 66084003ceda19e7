// Our report plugin against the real pytest-json-report, on the awkward project (cache fixture,
// --lf in addopts, sys.dont_write_bytecode, xpass and strict xpass, astral and bracketed names,
// dotted and bracketed folders with inherited tests, log records with odd numbers, metadata,
// user properties, warnings, a deselected test). The reference reports in
// test/fixtures/report-parity were written by the real plugin (see generate.ts there); here
// runPytest runs the same project with `builtin`, with PYTEST_ADDOPTS set in this process, on
// this machine and in the task image. Reports, counts, the non-passed set and the detail files'
// bytes must be the same, apart from values that change on every run (times, thread and
// process ids), which must still be written the way Python writes them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeNonPassed } from '../../../src/core/gap/write-non-passed';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { passedIds, type TestReport } from '../../../src/core/pytest/test-report';
import { pythonFloatRepr } from '../../../src/core/util/python-float';
import { writeAwkwardProject, type Side } from '../../fixtures/report-parity/awkward-project';
import { ENVIRONMENTS, PARITY_DIR, ROOT_TOKEN, versionsOf } from '../../fixtures/report-parity/generate';

const SIDES: Side[] = ['base', 'target'];
const FLOAT_KEYS = ['duration', 'created', 'msecs', 'relativeCreated'];
const INT_KEYS = ['thread', 'process'];
const VOLATILE = new Set([...FLOAT_KEYS, ...INT_KEYS]);

/** Parsed JSON with the volatile values replaced, key order kept (compared as text). */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE.has(k) && typeof v === 'number' ? '<varies>' : masked(v)]));
  }
  return value;
}

/** Detail-file text with the volatile numbers replaced, after checking each is written as Python writes it. */
function maskedDetail(text: string, file: string): string {
  const keys = [...FLOAT_KEYS, ...INT_KEYS].join('|');
  return text.replace(new RegExp(`"(${keys})": (-?[0-9][0-9.eE+-]*)`, 'g'), (_m, key: string, num: string) => {
    if (INT_KEYS.includes(key)) assert.match(num, /^\d+$/, `${file}: ${key} ${num}`);
    else assert.equal(num, pythonFloatRepr(Number(num)), `${file}: ${key} is not written as Python writes ${num}`);
    return `"${key}": <varies>`;
  });
}

async function nonPassedFiles(dir: string, current: TestReport, target: TestReport): Promise<Map<string, string>> {
  await writeNonPassed(dir, current, target, { shownDir: '/app/non-passed' });
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(dir).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    files.set(name, name === 'summary.jsonl' ? text : maskedDetail(text, name));
  }
  return files;
}

describe('our report plugin writes what pytest-json-report writes', () => {
  for (const env of ENVIRONMENTS) {
    test(`on ${env.name === 'host' ? "this machine's interpreter" : 'the task image (Docker)'}`, async () => {
      const meta = JSON.parse(fs.readFileSync(path.join(PARITY_DIR, env.name, 'meta.json'), 'utf8')) as Record<string, unknown>;
      const runtime = await env.open();
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-parity-'));
      try {
        assert.equal(
          await versionsOf(runtime, env.python),
          meta.interpreter,
          'The reference reports were made with another pytest: regenerate them (test/fixtures/report-parity/README.md).',
        );
        const ours = {} as Record<Side, { text: string; report: TestReport }>;
        const reference = {} as Record<Side, { text: string; report: TestReport }>;
        for (const side of SIDES) {
          const code = path.join(tmp, side, 'code');
          writeAwkwardProject(code, side);
          // Variables of the user's shell that would change the run if they leaked into it.
          const hostVars = { PYTEST_ADDOPTS: '-k plain', PYTHONDONTWRITEBYTECODE: '1', PYTEST_PLUGINS: 'no_such_plugin' };
          Object.assign(process.env, hostVars);
          let run;
          try {
            run = await runPytest(runtime, {
              python: env.python,
              codeDir: code,
              reportFile: path.join(tmp, side, 'out', 'raw-report'),
              format: 'builtin',
              timeoutMs: 300_000,
            });
          } finally {
            for (const k of Object.keys(hostVars)) delete process.env[k];
          }
          assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? `${run.reason}\n${run.output}` : '');
          assert.equal(run.exitCode, meta[`${side}_exit_code`], run.output);
          assert.match(run.command, / -p sweci_pytest_report --sweci-stream$/);
          const text = fs.readFileSync(run.reportFile, 'utf8').split(run.invocation.cwd).join(ROOT_TOKEN);
          ours[side] = { text, report: parseJsonReport(text) };
          const refText = fs.readFileSync(path.join(PARITY_DIR, env.name, `${side}.report.json`), 'utf8');
          reference[side] = { text: refText, report: parseJsonReport(refText) };

          // The whole report, key order included.
          assert.equal(JSON.stringify(masked(JSON.parse(text)), null, 1), JSON.stringify(masked(JSON.parse(refText)), null, 1), `${side} report`);
          // The counts the scores are made of, and the passed set.
          assert.equal(JSON.stringify(ours[side].report.summary), JSON.stringify(reference[side].report.summary));
          assert.deepEqual([...passedIds(ours[side].report)].sort(), [...passedIds(reference[side].report)].sort());
        }
        // The awkward cases are really in it (so the comparison above compared something).
        const base = reference.base.report;
        const outcome = (id: string) => base.tests.find((t) => t.nodeid === id)?.outcome;
        assert.equal(outcome('tests/test_reference_env.py::test_cache_fixture'), 'passed');
        assert.equal(outcome('tests/test_reference_env.py::test_bytecode_is_written'), 'passed');
        assert.equal(reference.target.report.tests.find((t) => t.nodeid.endsWith('::test_xpass_in_target'))?.outcome, 'xpassed');
        assert.equal(reference.target.report.tests.find((t) => t.nodeid.endsWith('::test_strict_xpass'))?.outcome, 'failed');
        assert.equal(base.summary.deselected, 1);
        for (const id of [
          'tests/test_names.py::test_\u{10428}',
          'tests/test_names.py::test_param[\\U0001d518nicode]',
          'tests/test_names.py::TestGroup::test_in_class[one[1]]',
          'tests/v1.2/test_dotted.py::TestDotted::test_inherited',
          'tests/case[1]/test_bracket_dir.py::test_in_bracket_dir',
        ]) {
          assert.ok(outcome(id), `${id} is in the report`);
        }
        assert.match(reference.base.text, /"msecs": \d+\.\d+,/);
        assert.match(reference.base.text, /"tiny": 1e-07, "small": 8\.7e-05, "big": 1e\+16, "neg": -0\.0, "day": "2020-01-02"/);

        // The non-passed folder an agent reads: same lines, same detail files, same bytes.
        const mine = await nonPassedFiles(path.join(tmp, 'np-ours'), ours.base.report, ours.target.report);
        const theirs = await nonPassedFiles(path.join(tmp, 'np-reference'), reference.base.report, reference.target.report);
        assert.deepEqual([...mine.keys()], [...theirs.keys()]);
        assert.ok(mine.size > 10, `non-passed has ${mine.size - 1} tests`);
        for (const [name, text] of theirs) assert.equal(mine.get(name), text, name);
      } finally {
        await runtime.dispose();
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});
