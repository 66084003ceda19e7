// Rebuilds a pytest node id from a JUnit testcase.
//
// pytest derives the JUnit names from the node id: the part before the first '[' is split
// on '::'; its first element (the file) gets '/' → '.' and loses '.py'; all but the last
// element joined with '.' become `classname`, the last (plus the '[...]' parameters) is
// `name`. So `name` is taken verbatim (it may hold '::', '/', spaces, brackets), and
// `classname` = module path + optional class chain.

/** Dotted module path pytest derives from a file path: `tests/unit/test_a.py` → `tests.unit.test_a`. */
export function modulePathOf(file: string): string {
  return file.replace(/\\/g, '/').replace(/\//g, '.').replace(/\.py$/, '');
}

export interface NodeIdInput {
  classname: string;
  name: string;
  /** xunit1's `file` attribute (relative to the rootdir). */
  file?: string;
}

export interface NodeIdResolution {
  nodeid: string;
  /** The node id's file part (posix separators). */
  file: string;
  /** False when the file had to be guessed from `classname` (xunit2, or a `file` that does not match). */
  exact: boolean;
}

/**
 * @param isTestFile tells whether a relative posix path is a test module, to resolve the
 *   module/class boundary in `classname` when `file` cannot; without an answer, classes are
 *   assumed to start at the first segment beginning with an upper-case letter.
 */
export function junitNodeId(tc: NodeIdInput, isTestFile?: (relPath: string) => boolean): NodeIdResolution {
  if (tc.file) {
    const file = tc.file.replace(/\\/g, '/');
    const mod = modulePathOf(file);
    if (tc.classname === mod || tc.classname.startsWith(mod + '.')) {
      const classes = tc.classname.slice(mod.length + 1);
      return { nodeid: joinNodeId(file, classes, tc.name), file, exact: true };
    }
    // A collection error: no classname, name = the module path, node id = the file.
    if (tc.classname === '' && tc.name === mod) return { nodeid: file, file, exact: true };
    // Otherwise `file` is where the function is defined (an inherited test method), not
    // the module it was collected from; fall through to the classname.
  }
  const segments = tc.classname.split('.').filter((s) => s !== '');
  if (segments.length === 0) return { nodeid: tc.name, file: tc.name, exact: false };
  let cut = -1;
  if (isTestFile) {
    for (let k = segments.length; k >= 1 && cut < 0; k--) {
      if (isTestFile(segments.slice(0, k).join('/') + '.py')) cut = k;
    }
  }
  if (cut < 0) {
    cut = segments.findIndex((s, i) => i > 0 && /^[A-Z]/.test(s));
    if (cut < 0) cut = segments.length;
  }
  const file = segments.slice(0, cut).join('/') + '.py';
  return { nodeid: joinNodeId(file, segments.slice(cut).join('.'), tc.name), file, exact: false };
}

function joinNodeId(file: string, dottedClasses: string, name: string): string {
  const parts = [file];
  if (dottedClasses) parts.push(...dottedClasses.split('.'));
  parts.push(name);
  return parts.join('::');
}
