import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetadataCsv } from '../../../src/core/task/csv-metadata';
import { UserError } from '../../../src/core/util/errors';

const F = 'metadata/default.csv';

function rejects(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseMetadataCsv(text, F),
    (err: unknown) => {
      assert.ok(err instanceof UserError, `expected UserError, got ${String(err)}`);
      assert.match(err.message, pattern);
      assert.ok(err.message.includes(F), 'names the file');
      return true;
    },
  );
}

describe('parseMetadataCsv', () => {
  test('BOM, quoting with embedded newlines and quotes, unknown columns, CRLF', () => {
    const text =
      '\uFEFFtask_id,current_sha,target_sha,test_gap,note\r\n' +
      'a__b-1,ABCDEF1,1234567890abcdef1234567890abcdef12345678,12,"multi\r\nline ""quoted"", comma"\r\n' +
      '\r\n' +
      'c__d-2,abcdef0,0abcdef,,plain\r\n';
    const rows = parseMetadataCsv(text, F);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].taskId, 'a__b-1');
    assert.equal(rows[0].currentSha, 'abcdef1', 'lower-cased');
    assert.equal(rows[0].testGap, 12);
    assert.equal(rows[0].row.note, 'multi\r\nline "quoted", comma');
    assert.equal(rows[0].line, 2);
    assert.equal(rows[1].line, 5, 'counts the embedded line break and the empty line');
    assert.equal(rows[1].testGap, undefined);
    assert.equal(rows[1].row.note, 'plain');
    assert.ok(!('\uFEFFtask_id' in rows[0].row));
  });

  test('last row without trailing newline keeps its line number', () => {
    const rows = parseMetadataCsv('task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb\ny,ccccccc,ddddddd', F);
    assert.deepEqual(
      rows.map((r) => r.line),
      [2, 3],
    );
  });

  test('missing required column names the row line', () => {
    rejects('task_id,current_sha\nx,aaaaaaa\n', /line 2: column "target_sha" is missing/);
  });

  test('bad sha names the row line, even after a multi-line row', () => {
    rejects('task_id,current_sha,target_sha,note\nx,aaaaaaa,bbbbbbb,"a\nb"\ny,zzzzzzz,bbbbbbb,n\n', /line 4: current_sha "zzzzzzz" is not a commit sha/);
    rejects('task_id,current_sha,target_sha\nx,abc,bbbbbbb\n', /line 2: current_sha "abc"/);
    rejects('task_id,current_sha,target_sha\nx,aaaaaaa,' + 'b'.repeat(41) + '\n', /line 2: target_sha/);
  });

  test('non-integer test_gap names the line', () => {
    rejects('task_id,current_sha,target_sha,test_gap\nx,aaaaaaa,bbbbbbb,1.5\n', /line 2: test_gap "1\.5" is not a non-negative integer/);
    rejects('task_id,current_sha,target_sha,test_gap\nx,aaaaaaa,bbbbbbb,-3\n', /line 2: test_gap/);
  });

  test('malformed CSV reports the line from csv-parse', () => {
    rejects('task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb,extra\n', /line 2: the CSV is malformed/);
    rejects('task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb\ny,"aaaaaaa,bbbbbbb\n', /line 3: the CSV is malformed \(Quote Not Closed/);
    // CRLF inside a quoted field and a skipped empty line before the bad row.
    rejects('task_id,current_sha,target_sha\r\nx,"a\r\nb",bbbbbbb\r\n\r\ny,aaaaaaa,bbbbbbb,zz\r\n', /line 5: the CSV is malformed/);
  });

  test('empty values, empty file and duplicate header columns', () => {
    rejects('task_id,current_sha,target_sha\n,aaaaaaa,bbbbbbb\n', /line 2: "task_id" is empty/);
    rejects('', /is empty/);
    rejects('task_id,task_id,current_sha,target_sha\nx,y,aaaaaaa,bbbbbbb\n', /line 1: the header names column "task_id" twice/);
  });
});
