import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parseMetadataCsv } from '../../../src/core/task/csv-metadata';
import { UserError } from '../../../src/core/util/errors';

const F = 'metadata/default.csv';
const PYTHON = process.env.SWECI_PYTHON ?? 'python3';

/** The rows Python's csv module reads from `text` (as the reference harness opens the file: newline=''). */
function pythonRows(text: string): Record<string, string>[] {
  const script = 'import csv, io, json, sys\nprint(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read(), newline="")))))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: text, encoding: 'utf8' })) as Record<string, string>[];
}

/** The lines of a metadata CSV of `n` tasks: a header, then one row per task. */
function metadataLines(n: number): string[] {
  const sha = (i: number, c: string) => `${c.repeat(6)}${i.toString(16)}`;
  const rows = Array.from({ length: n }, (_, i) => `owner__repo-${i},${sha(i, 'a')},${sha(i, 'b')},${i},"note ${i}, quoted"`);
  return ['task_id,current_sha,target_sha,test_gap,note', ...rows];
}

/** The file: line `i` ended by `ending(i)`. */
function csvText(lines: string[], ending: (i: number) => string): string {
  return lines.map((l, i) => l + ending(i)).join('');
}

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
    rejects('task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb,extra\n', /line 2: the row has 4 values but the header has 3 columns/);
    rejects('task_id,current_sha,target_sha\nx,aaaaaaa,bbbbbbb\ny,"aaaaaaa,bbbbbbb\n', /line 3: the CSV is malformed \(Quote Not Closed/);
    // CRLF inside a quoted field and a skipped empty line before the bad row.
    rejects('task_id,current_sha,target_sha\r\nx,"a\r\nb",bbbbbbb\r\n\r\ny,aaaaaaa,bbbbbbb,zz\r\n', /line 5: the row has 4 values/);
  });

  test('empty values, empty file and duplicate header columns', () => {
    rejects('task_id,current_sha,target_sha\n,aaaaaaa,bbbbbbb\n', /line 2: "task_id" is empty/);
    rejects('', /is empty/);
    rejects('task_id,task_id,current_sha,target_sha\nx,y,aaaaaaa,bbbbbbb\n', /line 1: the header names column "task_id" twice/);
  });

  test('mixed line endings (rows appended with LF to a CRLF file, a lone CR) read the same rows as a clean file, and as Python reads them', () => {
    const lines = metadataLines(6);
    const mixed = csvText(lines, (i) => (i < 3 ? '\r\n' : i === 5 ? '\r' : '\n'));
    const rows = parseMetadataCsv(mixed, F);
    assert.deepEqual(
      rows,
      parseMetadataCsv(
        csvText(lines, () => '\n'),
        F,
      ),
    );
    assert.deepEqual(
      rows.map((r) => r.line),
      [2, 3, 4, 5, 6, 7],
    );
    assert.deepEqual(
      rows.map((r) => r.row),
      pythonRows(mixed),
    );
  });

  test("a short or long row is named by its line, with what to fix, wherever the file's line endings change", () => {
    const lines = metadataLines(5);
    lines[4] = lines[4].replace(/,"note 3, quoted"$/, ''); // line 5: four values
    for (const ending of [() => '\n', () => '\r\n', (i: number) => (i < 3 ? '\r\n' : '\n'), (i: number) => (i === 2 ? '\r' : '\n')]) {
      rejects(
        csvText(lines, ending),
        /line 5: the row has 4 values but the header has 5 columns\. Give the row one value per column \(quote a value that holds a comma/,
      );
    }
    rejects(
      'task_id,current_sha,target_sha\r\nx,aaaaaaa,bbbbbbb\r\ny,aaaaaaa,bbbbbbb\nz,aaaaaaa,bbbbbbb,extra\n',
      /line 4: the row has 4 values but the header has 3 columns/,
    );
  });
});
