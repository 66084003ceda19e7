"""The suite's Python: a virtual environment of this machine's interpreter holding pytest and
what pytest requires, and nothing else.

A machine's Python may carry pytest plugins that load into every pytest run (this kind of
machine has hypothesis's and pytest-benchmark's: about one CPU-second per start, and a
`git describe` in the code folder). The suite's local pytest runs should neither pay for them
nor depend on them, so the test runners put this environment's bin first on PATH
(test/harness/test-python.ts). Idempotent: a marker names the interpreter and the versions
copied; a different one rebuilds the environment.

The copied modules are compiled to bytecode here, once. Nothing else would write it: this kind
of machine sets PYTHONDONTWRITEBYTECODE, and the sandboxed pytest runs may not write below /opt.
Without it every pytest start compiled _pytest and pygments again (`import pytest` took 0.57 s
of CPU against 0.22 s with the bytecode, on a 2-core machine of this kind).

    python3 scripts/test-python.py /opt/sweci-test-python
"""

import importlib.metadata as metadata
import compileall
import json
import os
import shutil
import subprocess
import sys

from packaging.requirements import Requirement


def closure(root):
    """pytest and the distributions it requires on this interpreter (markers evaluated)."""
    seen = {}
    todo = [root]
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        dist = metadata.distribution(name)
        seen[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def main(target):
    dists = closure("pytest")
    want = {
        "interpreter": os.path.realpath(sys.executable),
        "distributions": sorted(f"{d.metadata['Name']}=={d.version}" for d in dists.values()),
        # An environment made before its modules were compiled is made again.
        "bytecode": "compiled",
    }
    marker = os.path.join(target, ".sweci-test-python.json")
    try:
        with open(marker, encoding="utf-8") as f:
            if json.load(f) == want:
                print(f"already there: {', '.join(want['distributions'])}")
                return
    except (OSError, ValueError):
        pass
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--clear", target], check=True)
    purelib = subprocess.run(
        [os.path.join(target, "bin", "python3"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    for dist in dists.values():
        for file in dist.files or []:
            if "__pycache__" in file.parts or file.parts[0] == "..":
                continue
            source = dist.locate_file(file)
            if not os.path.isfile(source):
                continue
            dest = os.path.join(purelib, *file.parts)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(source, dest)
    # compileall writes whatever PYTHONDONTWRITEBYTECODE says; quiet=1 prints only errors.
    if not compileall.compile_dir(purelib, quiet=1):
        sys.exit(f"could not compile the modules copied to {purelib}")
    with open(marker, "w", encoding="utf-8") as f:
        json.dump(want, f)
    print(f"made with {want['interpreter']}: {', '.join(want['distributions'])}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 scripts/test-python.py <folder>")
    main(sys.argv[1])
