// A task folder for the language-server tests, built by code: app/code with a package and its
// tests, and app/non-passed/summary.jsonl written by the core's own summary writer.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSummaryLines } from '../../../src/core/gap/summary';
import type { TestReport } from '../../../src/core/pytest/test-report';

export const CALC_SOURCE = [
  'class Calc:',
  '    """Arithmetic."""',
  '',
  '    def add(self, a, b):',
  '        return a + b',
  '',
  '',
  'def helper():',
  '    return 1',
  '',
].join('\n');

const TESTS_SOURCE = [
  'from pkg.calc import Calc',
  '',
  'def test_add():',
  '    assert Calc().add(1, 2) == 4',
  '',
  'def test_passing():',
  '    assert True',
  '',
  'class TestCalc:',
  '    def test_sub(self, db):',
  '        pass',
  '',
].join('\n');

/** The reason pytest gives for test_add; it holds backticks, as hostile code under test could. */
export const ADD_REASON = 'E   AssertionError: assert 3 == 4 ``` [click](command:workbench.action.quit)';

export async function makeRequirementTask(): Promise<{ root: string; codeDir: string; requirementFile: string; dispose(): Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-lsp-'));
  const codeDir = path.join(root, 'app', 'code');
  await fs.mkdir(path.join(codeDir, 'pkg'), { recursive: true });
  await fs.mkdir(path.join(codeDir, 'tests'), { recursive: true });
  await fs.writeFile(path.join(codeDir, 'pkg', '__init__.py'), '');
  await fs.writeFile(path.join(codeDir, 'pkg', 'calc.py'), CALC_SOURCE);
  await fs.writeFile(path.join(codeDir, 'tests', 'test_calc.py'), TESTS_SOURCE);
  const target: TestReport = {
    format: 'json-report',
    summary: {},
    tests: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_passing', 'tests/test_calc.py::TestCalc::test_sub', 'tests/test_calc.py::test_gone'].map(
      (nodeid) => ({ nodeid, outcome: 'passed', phases: {} }),
    ),
  };
  const current: TestReport = {
    format: 'json-report',
    summary: {},
    tests: [
      {
        nodeid: 'tests/test_calc.py::test_add',
        outcome: 'failed',
        phases: { setup: { outcome: 'passed' }, call: { outcome: 'failed', longrepr: `  tb\n${ADD_REASON}\n` } },
      },
      { nodeid: 'tests/test_calc.py::test_passing', outcome: 'passed', phases: {} },
      {
        nodeid: 'tests/test_calc.py::TestCalc::test_sub',
        outcome: 'error',
        phases: { setup: { outcome: 'failed', longrepr: "E   fixture 'db' not found\n" } },
      },
    ],
  };
  const nonPassed = path.join(root, 'app', 'non-passed');
  await fs.mkdir(nonPassed, { recursive: true });
  await fs.writeFile(
    path.join(nonPassed, 'summary.jsonl'),
    buildSummaryLines(current, target, { detailDir: nonPassed })
      .map((l) => `${l}\n`)
      .join(''),
  );
  return { root, codeDir, requirementFile: path.join(root, 'app', 'requirement.xml'), dispose: () => fs.rm(root, { recursive: true, force: true }) };
}

/** One requirement; fields given override the defaults (null leaves the field out). */
export function requirement(fields: Partial<Record<'location' | 'description' | 'contract' | 'acceptance', string | null>> = {}, tag = 'requirement'): string {
  const all = {
    location: 'pkg/calc.py::Calc.add',
    description: 'Fix add',
    contract: 'add(a, b) returns a + b',
    acceptance: 'tests/test_calc.py::test_add',
    ...fields,
  };
  const body = Object.entries(all)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `    <${k}>${v}</${k}>\n`)
    .join('');
  return `  <${tag}>\n${body}  </${tag}>\n`;
}

export function doc(...items: string[]): string {
  return `<requirements>\n${items.join('')}</requirements>\n`;
}
