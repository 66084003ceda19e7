// `sweci curate` as a user runs it: a real process on a repository built by code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CurationStatus } from '../../../src/core/curate/funnel';
import { History, lines } from './history-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
let tmp: string;
let repo: string;
let sha: Map<number, string>;

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('sweci curate', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-cli-')));
    const h = new History();
    const deps = (d: string) => ({ 'pyproject.toml': `[project]\nname = "demo"\ndependencies = ["${d}"]\n` });
    h.commit('main', { ...deps('a'), 'tests/test_x.py': 'def test_x():\n    pass\n' }); // 1
    h.commit('main', { 'src/m.py': lines(30, 'a') }); // 2: span 1-2, 30 lines
    h.commit('main', deps('b')); // 3
    h.commit('main', { 'src/m.py': lines(5, 'b') }); // 4
    h.commit('main', { 'src/n.py': lines(100, 'n') }); // 5: span 3-5, 30+5+100 = 135 lines
    repo = path.join(tmp, 'repo');
    sha = await h.write(repo);
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('curate writes one line per candidate; --status prints the funnel, --format json every span with full shas', async () => {
    const out = path.join(tmp, 'out');
    const r = sweci('curate', repo, '--out', out, '--stage', 'mine', '--min-changed-lines', '100', '--min-source-lines', '50');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /first-parent commits\s+5/);
    assert.match(r.out, /spans \(longer than one commit\)\s+2/);
    assert.match(r.out, /pairs over the line thresholds\s+1\s+dropped: min-changed-lines 1/);
    assert.match(r.out, /environment built\s+\(not run\)/);
    const lines = (await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8')).trimEnd().split('\n');
    assert.equal(lines.length, 2);
    const status = sweci('curate', '--status', out);
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, /pairs over the line thresholds\s+1\s+dropped: min-changed-lines 1/);
    const json = sweci('curate', '--status', out, '--format', 'json');
    assert.equal(json.code, 0, json.err);
    const doc = JSON.parse(json.out) as CurationStatus;
    assert.deepEqual(doc.candidates, [
      {
        base: sha.get(1),
        oracle: sha.get(2),
        commits: 2,
        days: 1,
        changedLines: 30,
        sourceLines: 30,
        stage: 'mine',
        outcome: 'dropped',
        reason: '30 changed lines, fewer than --min-changed-lines 100',
        image: null,
        gap: null,
      },
      {
        base: sha.get(3),
        oracle: sha.get(5),
        commits: 3,
        days: 2,
        changedLines: 135,
        sourceLines: 135,
        stage: 'mine',
        outcome: 'pending',
        reason: null,
        image: null,
        gap: null,
      },
    ]);
    assert.equal(doc.funnel.commits, 5);
    assert.equal(doc.funnel.overLineThresholds, 1);
    assert.equal(doc.funnel.environmentBuilt, null);
    assert.deepEqual(doc.funnel.drops, { mine: { 'min-changed-lines': 1 } });

    // Running again continues the same curation: same candidates, the folder is ours.
    const again = sweci('curate', repo, '--out', out, '--stage', 'mine', '--min-changed-lines', '100', '--min-source-lines', '50', '--format', 'json');
    assert.equal(again.code, 0, again.err);
    assert.deepEqual((JSON.parse(again.out) as CurationStatus).candidates, doc.candidates);
  });

  test('--dry-run mines and prints, and writes nothing', () => {
    const out = path.join(tmp, 'dry');
    const r = sweci('curate', repo, '--out', out, '--dry-run');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Dry run: nothing written/);
    assert.match(r.out, /No candidate passed mining/);
    assert.equal(existsSync(out), false);
  });

  test('bad input: an --out holding a dataset or another curation, a later stage before mining, no --out, not a repository', async () => {
    const dataset = path.join(tmp, 'dataset');
    await fs.mkdir(path.join(dataset, 'metadata'), { recursive: true });
    let r = sweci('curate', repo, '--out', dataset);
    assert.equal(r.code, 1);
    assert.match(r.err, /already holds a SWE-CI dataset \(metadata\) and no curation of ours/);

    const other = path.join(tmp, 'other-repo');
    await fs.cp(repo, other, { recursive: true });
    const out = path.join(tmp, 'theirs');
    assert.equal(sweci('curate', other, '--out', out, '--stage', 'mine').code, 0);
    r = sweci('curate', repo, '--out', out);
    assert.equal(r.code, 1);
    assert.match(r.err, /holds the curation of .*other-repo, not of .*repo/);

    r = sweci('curate', repo, '--out', path.join(tmp, 'x'), '--stage', 'env');
    assert.equal(r.code, 1);
    assert.match(r.err, /holds no mined curation yet: run the mine stage first/);
    r = sweci('curate', repo);
    assert.match(r.err, /Give --out <folder>/);
    r = sweci('curate', tmp, '--dry-run');
    assert.match(r.err, /is not a git repository/);
    r = sweci('curate', '--status', path.join(tmp, 'dataset'));
    assert.match(r.err, /holds no curation/);
    // A records file something else damaged is named, line and field, not read as a curation.
    await fs.appendFile(path.join(out, 'curation.jsonl'), '{"id": "x"}\n');
    r = sweci('curate', '--status', out);
    assert.equal(r.code, 1);
    assert.match(r.err, /curation\.jsonl line 3 is corrupt \("base" is missing\)/);
  });
});
