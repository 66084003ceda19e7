// Tree differences between revisions in one repository and across two, checked against git's own
// `diff --name-status`; and file contents read back byte for byte.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { diffRevisions, readFileAt } from '../../../src/core/inspect/tree-diff';
import type { Revision } from '../../../src/core/inspect/revisions';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string | Buffer>): {
  dir: string;
  gitDir: string;
  commit(files: Record<string, string | Buffer | null>): string;
  head: string;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-tree-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  const write = (fs_: Record<string, string | Buffer | null>) => {
    for (const [p, c] of Object.entries(fs_)) {
      const abs = path.join(dir, p);
      if (c === null) fs.rmSync(abs);
      else {
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, c);
      }
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'x');
    return git(dir, 'rev-parse', 'HEAD');
  };
  const head = write(files);
  return { dir, gitDir: path.join(dir, '.git'), commit: write, head };
}

const rev = (gitDir: string, commit: string, store: Revision['store'] = 'history'): Revision => ({ gitDir, commit, store, label: 'x', run: 'r', iteration: 0 });

test('diffRevisions in one repository lists what git diff --name-status lists, sorted', async () => {
  const r = repo({ 'a.py': 'a\n', 'pkg/b.py': 'b\n', 'pkg/c.py': 'c\n', 'bin.dat': Buffer.from([0, 1, 2, 255]) });
  const before = r.head;
  const after = r.commit({ 'a.py': 'a2\n', 'pkg/c.py': null, 'pkg/new.py': 'n\n', 'sp ace/ü.py': 'u\n' });
  const got = await diffRevisions(rev(r.gitDir, before), rev(r.gitDir, after));
  const status: Record<string, string> = { A: 'added', D: 'deleted', M: 'modified' };
  const expected = git(r.dir, '-c', 'core.quotepath=false', 'diff', '--name-status', '--no-renames', before, after)
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([s, p]) => ({ path: p, status: status[s] }))
    .sort((x, y) => (x.path < y.path ? -1 : 1));
  assert.deepEqual(got, expected);
  assert.equal(got.length, 4);
});

test('a mode change counts as modified; identical trees differ in nothing', async () => {
  const r = repo({ 'run.sh': 'echo\n' });
  fs.chmodSync(path.join(r.dir, 'run.sh'), 0o755);
  const after = r.commit({});
  assert.deepEqual(await diffRevisions(rev(r.gitDir, r.head), rev(r.gitDir, after)), [{ path: 'run.sh', status: 'modified' }]);
  assert.deepEqual(await diffRevisions(rev(r.gitDir, after), rev(r.gitDir, after)), []);
});

test('across two repositories, equal contents are equal (blob ids), and a replay side leaves tests/ and .git* out of both', async () => {
  // The agent side keeps the base's .git* files (here the same as upstream's, and one upstream lacks).
  const agent = repo({
    'src/m.py': 'same\n',
    'src/k.py': 'agent\n',
    'tests/test_m.py': 'target tests\n',
    '.github/ci.yml': 'ci\n',
    '.gitignore': '*.pyc\n',
    '.gitattributes': '* text=auto\n',
  });
  const upstream = repo({
    'src/m.py': 'same\n',
    'src/k.py': 'developers\n',
    'tests/test_m.py': 'old tests\n',
    'test/x.py': 'x\n',
    '.github/ci.yml': 'ci\n',
    '.gitignore': '*.pyc\n',
  });
  const got = await diffRevisions(rev(upstream.gitDir, upstream.head, 'upstream'), rev(agent.gitDir, agent.head, 'history'));
  assert.deepEqual(got, [{ path: 'src/k.py', status: 'modified' }]);
  // Two history revisions keep tests/: an agent's changes there are shown.
  const later = agent.commit({ 'tests/test_m.py': 'tampered\n' });
  assert.deepEqual(await diffRevisions(rev(agent.gitDir, agent.head), rev(agent.gitDir, later)), [{ path: 'tests/test_m.py', status: 'modified' }]);
  // The replay side second: the same files are left out of both sides.
  assert.deepEqual(await diffRevisions(rev(agent.gitDir, agent.head, 'history'), rev(upstream.gitDir, upstream.head, 'upstream')), [
    { path: 'src/k.py', status: 'modified' },
  ]);
  // Two agent revisions show a change to .git* files.
  const ci = agent.commit({ '.github/ci.yml': 'ci 2\n', '.gitattributes': null });
  assert.deepEqual(await diffRevisions(rev(agent.gitDir, later), rev(agent.gitDir, ci)), [
    { path: '.gitattributes', status: 'deleted' },
    { path: '.github/ci.yml', status: 'modified' },
  ]);
});

test('readFileAt returns the exact bytes, and undefined for a path the commit lacks', async () => {
  const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
  const r = repo({ 'bin.dat': bytes, 'pkg/a.py': 'héllo\n' });
  assert.deepEqual(await readFileAt(r.gitDir, r.head, 'bin.dat'), bytes);
  assert.equal((await readFileAt(r.gitDir, r.head, 'pkg/a.py'))?.toString('utf8'), 'héllo\n');
  assert.equal(await readFileAt(r.gitDir, r.head, 'pkg/missing.py'), undefined);
  assert.equal(await readFileAt(r.gitDir, r.head, '../outside'), undefined);
});

test('added, deleted, modified by blob id; paths with spaces, unicode and newlines read unquoted', async () => {
  const r = repo({ a: '1', b: '2', c: '3' });
  const after = r.commit({ b: '9', c: null, d: '4', 'a b/ü.py': '1\n', 'new\nline.py': '2\n' });
  assert.deepEqual(await diffRevisions(rev(r.gitDir, r.head), rev(r.gitDir, after)), [
    { path: 'a b/ü.py', status: 'added' },
    { path: 'b', status: 'modified' },
    { path: 'c', status: 'deleted' },
    { path: 'd', status: 'added' },
    { path: 'new\nline.py', status: 'added' },
  ]);
});
