import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { testLocation } from '../../../src/core/inspect/test-location';

const SOURCE = [
  'import pytest',
  '',
  'def test_top():',
  '    pass',
  '',
  'class TestA:',
  '    def test_x(self):',
  '        pass',
  '',
  'class TestB:',
  '    async def test_x(self):',
  '        pass',
  '',
  '@pytest.mark.parametrize("v", [1, 2])',
  'def test_param(v):',
  '    pass',
].join('\n');

test('testLocation strips parameters and refuses ids that leave the code folder', async (t) => {
  // The code folder inside one of the test's own: the file beside it is not written into /tmp.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-loc-'));
  t.after(() => fs.rmSync(parent, { recursive: true, force: true }));
  const code = path.join(parent, 'code');
  fs.mkdirSync(path.join(code, 'tests'), { recursive: true });
  fs.writeFileSync(path.join(code, 'tests', 'test_m.py'), SOURCE);
  fs.writeFileSync(path.join(parent, 'secret.py'), 'def test_x(): pass\n');
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::test_param[1-::x]'), { file: 'tests/test_m.py', line: 14 });
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::TestB::test_x'), { file: 'tests/test_m.py', line: 10 });
  assert.deepEqual(await testLocation(code, 'tests/test_m.py'), { file: 'tests/test_m.py', line: 0 });
  // A file that is there, one folder up: refused all the same.
  assert.equal(await testLocation(code, '../secret.py::test_x'), undefined);
  assert.equal(await testLocation(code, '/etc/passwd::x'), undefined);
  // A method inside its own class, not the first of that name; a missing one points at its class.
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::TestA::test_x'), { file: 'tests/test_m.py', line: 6 });
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::TestB::test_gone'), { file: 'tests/test_m.py', line: 9 });
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::NoClass::test_x'), { file: 'tests/test_m.py', line: 0 });
  assert.deepEqual(await testLocation(code, 'tests/test_m.py::test_to'), { file: 'tests/test_m.py', line: 0 }, 'a prefix is not a match');
  assert.equal(await testLocation(code, 'tests/missing.py::test_x'), undefined);
});
