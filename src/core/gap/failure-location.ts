// Where a failed test failed, read from pytest's long representation: the deepest traceback
// frame inside the code under test. Test Explorer points its failure message there.
import * as path from 'node:path';
import type { TestCase, TestPhase } from '../pytest/test-report';
import { CONTAINER_CODE_DIR } from '../pytest/run-pytest';
import { firstLongrepr } from './longrepr';

/** One `path:line` of a traceback; `line` is 1-based, as pytest prints it. */
export interface TracebackFrame {
  /** As printed: relative to the rootdir, or absolute. */
  path: string;
  line: number;
  /** The function, when the line says `in <name>`. */
  func?: string;
}

export interface FailureLocation {
  phase: TestPhase;
  /** Relative to the code folder, posix separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** The frames inside the code, outermost first (the last one is `file:line`). */
  frames: { file: string; line: number; func?: string }[];
}

// `tests/test_x.py:12: in test_x` (--tb=short) or `tests/test_x.py:12: AssertionError` (--tb=long),
// and the bare `path:12` that ends a fixture-lookup error. Source lines are indented; `E`/`>`
// lines are pytest's own markers.
const FRAME = /^((?:[A-Za-z]:)?[^\s:>][^:\n]*?):(\d+)(?::\s*(?:in\s+(\S+))?.*)?$/;
// A fixture-lookup error names the test as `file /abs/tests/test_x.py, line 5`.
const FILE_LINE = /^file (.+), line (\d+)$/;

function tracebackFrames(longrepr: string): TracebackFrame[] {
  const frames: TracebackFrame[] = [];
  for (const raw of longrepr.split('\n')) {
    const text = raw.trimEnd();
    if (/^E\s/.test(text) || text === 'E') continue;
    const m = FRAME.exec(text) ?? FILE_LINE.exec(text);
    if (!m) continue;
    const line = Number(m[2]);
    if (!Number.isSafeInteger(line) || line < 1) continue;
    frames.push({ path: m[1], line, ...(m[3] ? { func: m[3] } : {}) });
  }
  return frames;
}

/**
 * The frame's file relative to the code folder, or undefined when it lies outside it (the
 * standard library, site-packages). Absolute paths count when under `codeDir` or the
 * container's /app/code, where the reference runs.
 */
function codeRelative(file: string, codeDir?: string): string | undefined {
  const posix = file.replace(/\\/g, '/');
  let rel: string | undefined;
  if (path.posix.isAbsolute(posix) || /^[A-Za-z]:\//.test(posix)) {
    for (const root of [codeDir?.replace(/\\/g, '/'), CONTAINER_CODE_DIR]) {
      if (root && posix.startsWith(`${root.replace(/\/$/, '')}/`)) rel = posix.slice(root.replace(/\/$/, '').length + 1);
    }
  } else {
    rel = path.posix.normalize(posix);
  }
  if (!rel || rel.startsWith('../') || rel === '..') return undefined;
  // A virtual environment inside the code folder is still not the code under test.
  if (/(^|\/)(site-packages|dist-packages)\//.test(rel)) return undefined;
  return rel;
}

/**
 * Where the test's first failing phase failed: the deepest frame inside the code folder. For a
 * setup or teardown error that is the fixture (pytest's traceback of those phases starts in the
 * fixture, not in the test). Falls back to the crash location when it is inside the code.
 * undefined when the test has no failure report or nothing points inside the code.
 */
export function failureLocation(test: TestCase, codeDir?: string): FailureLocation | undefined {
  const failure = firstLongrepr(test);
  if (!failure) return undefined;
  const frames: FailureLocation['frames'] = [];
  for (const f of tracebackFrames(failure.longrepr)) {
    const file = codeRelative(f.path, codeDir);
    if (file) frames.push({ file, line: f.line, ...(f.func ? { func: f.func } : {}) });
  }
  const deepest = frames[frames.length - 1];
  if (deepest) return { phase: failure.phase, file: deepest.file, line: deepest.line, frames };
  const crash = test.phases[failure.phase]?.crash;
  const crashFile = crash?.path !== undefined ? codeRelative(crash.path, codeDir) : undefined;
  if (crashFile && crash?.lineno && crash.lineno > 0) {
    return { phase: failure.phase, file: crashFile, line: crash.lineno, frames: [{ file: crashFile, line: crash.lineno }] };
  }
  return undefined;
}
