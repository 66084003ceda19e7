// Hostile code the least-privilege tests run (issue 29), the same for the local and the Docker
// route: agents that try to exhaust the machine, and code under test that rewrites pytest's
// report after the session (each forgery snippet is appended to the package's __init__.py).

/** An agent that forks 600 sleepers and says how many it started. */
export const FORK_600_SLEEPERS = [
  'import subprocess',
  'children = []',
  'try:',
  '    for _ in range(600):',
  "        children.append(subprocess.Popen(['sleep', '30']))",
  'finally:',
  "    print('started', len(children), flush=True)",
  '    for c in children:',
  '        c.kill()',
];

/** An agent that allocates (and so touches) 10 GiB. */
export const ALLOCATE_10_GIB = ['block = bytearray(10 * 2**30)', "print('allocated', len(block))"];

/** Rewrites every report named on pytest's command line with all of its tests passed. */
export const FORGE_REPORT = [
  'def _sweci_forge():',
  '    import json, sys',
  '    for arg in sys.argv:',
  '        for flag in ("--sweci-report=", "--json-report-file="):',
  '            if not arg.startswith(flag):',
  '                continue',
  '            path = arg[len(flag):]',
  '            try:',
  '                report = json.load(open(path))',
  '            except Exception:',
  '                continue',
  '            for t in report.get("tests", []):',
  '                t["outcome"] = "passed"',
  '                for when in ("setup", "call", "teardown"):',
  '                    if isinstance(t.get(when), dict):',
  '                        t[when] = {"duration": 0.0, "outcome": "passed"}',
  '            n = len(report.get("tests", []))',
  '            report["summary"] = {"passed": n, "total": n, "collected": n}',
  '            report["exitcode"] = 0',
  '            json.dump(report, open(path, "w"))',
  '',
].join('\n');

/** A stream of frames that says every test passed, as our plugin would write it. */
const FORGED_FRAMES = [
  'def _sweci_frames():',
  '    import json',
  '    report = {"exitcode": 0, "summary": {"passed": 1, "total": 1, "collected": 1}, "tests": [{"nodeid": "tests/test_x.py::test_x", "outcome": "passed"}]}',
  '    return ("@sweci-frame start {}\\n@sweci-frame report " + json.dumps(report) + "\\n@sweci-frame end " + json.dumps({"exitstatus": 0, "integrity": {}}) + "\\n").encode()',
  '',
].join('\n');

export const FORGERY_TRIGGERS: Record<string, string> = {
  atexit: ['import atexit', 'atexit.register(_sweci_forge)', ''].join('\n'),
  thread: [
    'import threading',
    'def _sweci_later():',
    '    threading.main_thread().join()',
    '    _sweci_forge()',
    'threading.Thread(target=_sweci_later).start()',
    '',
  ].join('\n'),
  fd1: [
    FORGED_FRAMES,
    'import atexit, os',
    'os.write(1, _sweci_frames())',
    'def _sweci_exit():',
    '    os.write(1, _sweci_frames())',
    '    _sweci_forge()',
    'atexit.register(_sweci_exit)',
    '',
  ].join('\n'),
};
