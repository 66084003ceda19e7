// Every record file's type is inferred from its schema, so a field cannot be added to the type
// without the schema that checks it: the type *is* the schema. This test fails when a record
// type goes back to a hand-written interface (or the schema stops being the one the file uses).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '../../../..');

/** Record type → the module that declares it (and reads and writes its file). */
const RECORDS: Record<string, string> = {
  TaskRecord: 'src/core/workspace/task-record-schema.ts',
  TaskSpec: 'src/core/task/task-spec.ts',
  SweBenchInstance: 'src/core/task/swe-bench-instance-schema.ts',
  EnvironmentRecord: 'src/core/workspace/environment-record.ts',
  LockInfo: 'src/core/records/process-lock.ts',
  TestReport: 'src/core/pytest/test-report.ts',
  TestCase: 'src/core/pytest/test-report.ts',
  LastRunRecord: 'src/core/checkout/report-store.ts',
  RunInfo: 'src/core/loop/run-store.ts',
  RoleInfo: 'src/core/loop/run-store.ts',
  IterationRecord: 'src/core/loop/iteration-record.ts',
  RoleStepRecord: 'src/core/loop/iteration-record.ts',
  Journal: 'src/core/loop/journal.ts',
  ExperimentRecord: 'src/core/batch/experiment.ts',
  TaskStatus: 'src/core/records/task-status-file.ts',
  ClResults: 'src/core/sequence/cl-results.ts',
  GatewayCall: 'src/core/records/gateway-call.ts',
  RunSummaryCache: 'src/core/scoring/run-summary-cache-schema.ts',
  ExperimentSummaryCache: 'src/core/scoring/experiment-summary-cache.ts',
  CurationManifest: 'src/core/curate/curation-store.ts',
  CandidateRecord: 'src/core/curate/curation-store.ts',
};

for (const [type, file] of Object.entries(RECORDS)) {
  test(`${type} (${file}) is inferred from its schema`, () => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const decl = new RegExp(`export type ${type} = z\\.infer<typeof (\\w+)>;`).exec(text);
    assert.ok(decl, `${file} should declare "export type ${type} = z.infer<typeof …Schema>"`);
    assert.match(text, new RegExp(`const ${decl[1]} = z`), `${decl[1]} should be a zod schema declared in ${file}`);
    assert.doesNotMatch(text, new RegExp(`interface ${type}\\b`), `${type} must not also be a hand-written interface`);
  });
}

test('every record module reads and writes through core/records (no JSON.parse of its own)', () => {
  const owners = new Set(Object.values(RECORDS));
  for (const file of owners) {
    const text = readFileSync(path.join(root, file), 'utf8');
    assert.doesNotMatch(text, /JSON\.parse\(/, `${file} parses JSON itself; use jsonRecordFile or parseJsonLines`);
  }
});
