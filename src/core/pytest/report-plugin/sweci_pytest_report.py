"""SWE-CI's own pytest report plugin.

Writes a report in the format of pytest-json-report (the fields the SWE-CI reference
harness reads, in the same order and with the same values), for interpreters that do not
have that plugin installed. SWE-CI loads it with ``-p sweci_pytest_report --sweci-stream``:
the report then never touches a file. When this module is imported (``-p`` imports it before
any conftest or test module) it keeps the process's standard output for itself and points
file descriptor 1 at standard error, so everything else pytest or the code under test prints
goes there. It streams one frame per line: ``start``, each phase of each test as pytest
reports it, collection errors and skips, and at session finish the whole report and an
``end`` frame; then it closes its descriptor, before any exit handler of the code under test
runs. ``--sweci-report=<file>`` writes the report to a file instead (for use by hand).
Without either option the module does nothing.

Compatible with pytest 7 and later on Python 3.6 and later. Written for SWE-CI; it shares
no code with pytest-json-report, only the report format.
"""
import json
import logging
import os
import sys
import time

import pytest

MIN_PYTEST = (7, 0)

# pytest's own functions and classes whose replacement changes what a report says. Their
# identities are noted when this module is imported (``-p`` imports it before any conftest or
# test module) and compared when the session ends: code under test that replaced one, or that
# registered a plugin of its own, is named in the integrity file beside the report.
WATCHED_MODULES = ("_pytest.runner", "_pytest.reports", "_pytest.python", "_pytest.main", "_pytest.skipping", "_pytest.outcomes", "_pytest.terminal")


def _is_code(value):
    return callable(value) or isinstance(value, (staticmethod, classmethod, property))


def _watched_items():
    # Functions and classes only: module data (caches, counters) may change as pytest runs.
    for name in WATCHED_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        for attr, value in list(vars(module).items()):
            if attr.startswith("__") or not _is_code(value):
                continue
            yield "%s.%s" % (name, attr), value
            if isinstance(value, type) and value.__module__ == name:
                for member, inner in list(vars(value).items()):
                    if _is_code(inner) and (not member.startswith("__") or member in ("__init__", "__call__", "__repr__")):
                        yield "%s.%s.%s" % (name, attr, member), inner


def _snapshot():
    try:
        import _pytest.main, _pytest.outcomes, _pytest.python, _pytest.reports, _pytest.runner, _pytest.skipping, _pytest.terminal  # noqa: F401,E401
    except ImportError:
        pass
    return {key: id(value) for key, value in _watched_items()}


_PRISTINE = _snapshot()

STREAM_FLAG = "--sweci-stream"
FRAME_PREFIX = "@sweci-frame "


class Channel:
    """The report's way out: the process's original standard output, held on a private
    descriptor (not inherited by subprocesses). Only this process writes to it (a forked child
    inherits the descriptor but not the right to use it)."""

    def __init__(self):
        self.pid = os.getpid()
        try:
            sys.stdout.flush()
        except (AttributeError, OSError, ValueError):
            pass
        self.fd = os.dup(1)
        os.dup2(2, 1)

    def write(self, kind, payload):
        if self.fd is None or os.getpid() != self.pid:
            return
        data = (FRAME_PREFIX + kind + " " + payload + "\n").encode("ascii")
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def frame(self, kind, fields):
        self.write(kind, json.dumps(fields, default=str))

    def close(self):
        if self.fd is not None and os.getpid() == self.pid:
            fd, self.fd = self.fd, None
            os.close(fd)


# Taken at import, before any code under test runs: what it imports later cannot have kept a
# copy of the original standard output.
_CHANNEL = Channel() if STREAM_FLAG in sys.argv[1:] else None


def pytest_addoption(parser):
    group = parser.getgroup("sweci", "SWE-CI report")
    group.addoption(
        "--sweci-report",
        dest="sweci_report",
        default=None,
        metavar="PATH",
        help="write a report in pytest-json-report's format to PATH",
    )
    group.addoption(
        STREAM_FLAG,
        dest="sweci_stream",
        action="store_true",
        default=False,
        help="stream the report to the original standard output (everything else goes to standard error)",
    )


def _json_report_active():
    # pytest-json-report writes its own file in this run: its hooks are its own to declare and call.
    return any(arg == "--json-report" or arg.startswith("--json-report-file") for arg in sys.argv[1:])


def pytest_addhooks(pluginmanager):
    # A project's conftest may implement pytest-json-report's hooks; without their
    # specifications pytest would refuse to run it ("unknown hook").
    if _json_report_active():
        return
    try:
        pluginmanager.add_hookspecs(JsonReportHookSpecs)
    except ValueError:
        pass  # pytest-json-report itself is active and has declared them


class JsonReportHookSpecs:
    def pytest_json_modifyreport(self, json_report):
        """Called with the whole report just before it is written."""

    @pytest.hookspec(firstresult=True)
    def pytest_json_runtest_stage(self, report):
        """Returns the JSON form of one phase (setup, call or teardown) of a test."""

    def pytest_json_runtest_metadata(self, item, call):
        """Returns a dict merged into the test's metadata."""


def pytest_configure(config):
    path = config.getoption("sweci_report")
    stream = _CHANNEL if config.getoption("sweci_stream") else None
    if not path and stream is None:
        return
    found = _version_tuple(pytest.__version__)
    if found < MIN_PYTEST:
        raise pytest.UsageError(
            "SWE-CI's report plugin needs pytest 7 or later; this interpreter has pytest %s. "
            "Install pytest-json-report, or set sweci.pytest.reportFormat to junit." % pytest.__version__
        )
    # On a pytest-xdist worker the plugin only gathers each test's extras; the controller
    # receives them with the reports and writes the file.
    writes = not hasattr(config, "workerinput")
    if stream is not None and writes:
        stream.frame("start", {"version": 1})
    config.pluginmanager.register(ReportWriter(config, path, writes, stream if writes else None), "sweci-report-writer")


def _version_tuple(text):
    parts = []
    for piece in text.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit()) or "0"
        parts.append(int(digits))
    return tuple(parts)


@pytest.fixture
def json_metadata(request):
    """A dict whose content becomes the test's ``metadata`` in the report."""
    extras = getattr(request.node, "_sweci_extras", None)
    if extras is None:
        return {}
    return extras.setdefault("metadata", {})


class RecordCollector(logging.Handler):
    """Keeps every log record that reaches the root logger during one test phase."""

    def __init__(self):
        logging.Handler.__init__(self)
        self.records = []

    def emit(self, record):
        fields = dict(record.__dict__)
        fields["msg"] = record.getMessage()
        fields["args"] = None
        fields["exc_info"] = None
        fields.pop("message", None)
        self.records.append(fields)


def _json_safe(value):
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError, OverflowError):
        return False


def _location(loc):
    return {"path": loc.path, "lineno": loc.lineno, "message": loc.message}


class ReportWriter:
    def __init__(self, config, path, writes, stream=None):
        self.config = config
        self.path = path
        self.writes = writes
        self.stream = stream
        # With pytest-json-report in the same run, its hooks are called by it alone.
        self.own_hooks = not _json_report_active()
        self.root_logger = logging.getLogger()
        self.started = time.time()
        self.entries = {}
        self.collectors = []
        self.collected_items = {}
        self.deselected = 0
        self.warnings = []
        self.saved = None

    # Extras of one test (streams, log records, metadata), gathered while it runs.

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        item._sweci_extras = {}
        yield
        del item._sweci_extras

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._phase(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._phase(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        yield from self._phase(item, "teardown")

    def _phase(self, item, when):
        item._sweci_extras[when] = {}
        collector = RecordCollector()
        self.root_logger.addHandler(collector)
        try:
            yield
        finally:
            self.root_logger.removeHandler(collector)
        item._sweci_extras[when]["log"] = collector.records

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        extras = getattr(item, "_sweci_extras", None)
        if extras is None:
            extras = item._sweci_extras = {}
        for when, key, text in item._report_sections:
            if when == report.when and key in ("stdout", "stderr"):
                extras.setdefault(call.when, {})[key] = text
        for added in self.config.hook.pytest_json_runtest_metadata(item=item, call=call) if self.own_hooks else ():
            if added:
                extras.setdefault("metadata", {}).update(added)
        if "metadata" in extras and not _json_safe(extras["metadata"]):
            del extras["metadata"]
        report._sweci_extras = extras

    # The report itself (on the controller only).

    def pytest_collectreport(self, report):
        if not self.writes:
            return
        result = []
        for node in report.result:
            entry = {"nodeid": node.nodeid, "type": type(node).__name__}
            try:
                entry["lineno"] = node.location[1]
            except AttributeError:
                pass
            self.collected_items[id(node)] = entry
            result.append(entry)
        collector = {"nodeid": report.nodeid, "outcome": report.outcome, "result": result}
        if report.longrepr:
            collector["longrepr"] = str(report.longrepr)
        self.collectors.append(collector)
        if self.stream is not None and report.outcome != "passed":
            # pytest's summary line counts these (a failed collection as an error).
            self.stream.frame("collect", {"nodeid": report.nodeid, "outcome": report.outcome})

    def pytest_deselected(self, items):
        self.deselected += len(items)
        for item in items:
            entry = self.collected_items.get(id(item))
            if entry is not None:
                entry["deselected"] = True

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection_modifyitems(self, items):
        yield
        # Ids of nodes are only meaningful while the nodes live.
        self.collected_items = {}

    def pytest_runtest_logreport(self, report):
        if not self.writes:
            return
        extras = getattr(report, "_sweci_extras", None) or {}
        entry = self.entries.get(report.nodeid)
        if entry is None:
            entry = {"nodeid": report.nodeid, "lineno": report.location[1], "outcome": "passed"}
            keywords = list(report.keywords)
            if keywords:
                entry["keywords"] = keywords
            self.entries[report.nodeid] = entry
        if extras.get("metadata"):
            entry["metadata"] = extras["metadata"]
        if report.when == "teardown" and getattr(report, "user_properties", None):
            properties = [{str(name): value} for name, value in report.user_properties]
            if _json_safe(properties):
                entry["user_properties"] = properties
        category = self.config.hook.pytest_report_teststatus(report=report, config=self.config)[0]
        if category not in ("passed", ""):
            entry["outcome"] = category
        if self.stream is not None:
            counted = getattr(report, "count_towards_summary", True)
            self.stream.frame("phase", {"nodeid": report.nodeid, "when": report.when, "category": category, "counted": bool(counted)})
        entry[report.when] = self.config.hook.pytest_json_runtest_stage(report=report)

    @pytest.hookimpl(trylast=True)
    def pytest_json_runtest_stage(self, report):
        extras = (getattr(report, "_sweci_extras", None) or {}).get(report.when, {})
        stage = {"duration": report.duration, "outcome": report.outcome}
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            stage["crash"] = _location(crash)
            # Like pytest-json-report, --tb=no leaves tracebacks out.
            if self.config.option.tbstyle != "no":
                try:
                    stage["traceback"] = [_location(e.reprfileloc) for e in report.longrepr.reprtraceback.reprentries]
                except AttributeError:
                    # A native traceback has no per-entry locations; longrepr still holds its text.
                    pass
        for key in ("stdout", "stderr", "log"):
            if extras.get(key):
                stage[key] = extras[key]
        text = report.longreprtext
        if text:
            stage["longrepr"] = text
        return stage

    def pytest_warning_recorded(self, warning_message, when, nodeid, location):
        if not self.writes:
            return
        self.warnings.append(
            {
                "message": str(warning_message.message),
                "category": warning_message.category.__name__,
                "when": when,
                "filename": warning_message.filename,
                "lineno": warning_message.lineno,
            }
        )

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session):
        if not self.writes:
            return
        counts = {}
        for entry in self.entries.values():
            counts[entry["outcome"]] = counts.get(entry["outcome"], 0) + 1
        counts["total"] = sum(counts.values())
        # pytest leaves deselected tests out of testscollected.
        counts["collected"] = counts.get("collected", 0) + session.testscollected + self.deselected
        if self.deselected:
            counts["deselected"] = counts.get("deselected", 0) + self.deselected
        finished = time.time()
        report = {
            "created": finished,
            "duration": finished - self.started,
            "exitcode": session.exitstatus,
            "root": str(getattr(session, "path", None) or session.fspath),
            "environment": getattr(self.config, "_metadata", {}),
            "summary": counts,
        }
        if self.collectors:
            report["collectors"] = self.collectors
        report["tests"] = list(self.entries.values())
        if self.warnings:
            report["warnings"] = self.warnings
        if self.own_hooks:
            self.config.hook.pytest_json_modifyreport(json_report=report)
        if self.stream is not None:
            self._send(report, session.exitstatus)
            self.saved = "report saved to: SWE-CI's private stream (no file)"
            return
        self._save_integrity()
        try:
            self._save(report)
            self.saved = "report saved to: %s" % self.path
        except OSError as err:
            self.saved = "could not save report: %s" % err

    def _send(self, report, exitstatus):
        # The report as json.dump would write it to a file (one line: json.dumps escapes every
        # newline), then the end frame. The channel closes before pytest returns.
        try:
            integrity = self._integrity()
        except Exception:  # noqa: BLE001 - the report still goes out; the harness checks it
            integrity = {}
        try:
            self.stream.write("report", json.dumps(report, default=str))
            self.stream.frame("end", {"exitstatus": int(exitstatus), "integrity": integrity})
        finally:
            self.stream.close()

    def _integrity(self):
        """Files of the code under test that changed how pytest reports: replaced pytest's own
        functions, or registered a plugin (conftest files are judged from the code instead)."""
        root = str(getattr(self.config, "rootpath", None) or self.config.rootdir)
        found = {}

        def note(filename, what):
            if not filename:
                return
            full = os.path.realpath(filename)
            if os.path.commonpath([full, os.path.realpath(root)]) != os.path.realpath(root):
                return
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.basename(rel) == "conftest.py":
                return
            found.setdefault(rel, set()).add(what)

        for key, value in _watched_items():
            if key in _PRISTINE and _PRISTINE[key] != id(value):
                note(_source_file(value), "replaced " + key)
        for _name, plugin in self.config.pluginmanager.list_name_plugin():
            if plugin is None or plugin is self:
                continue
            note(_source_file(plugin), "registered a pytest plugin")
        return {rel: sorted(whats) for rel, whats in sorted(found.items())}

    def _save_integrity(self):
        try:
            with open(self.path + ".integrity.json", "w", encoding="utf-8") as out:
                json.dump({"harness_tampering": self._integrity()}, out)
        except (OSError, ValueError, TypeError):
            pass

    def _save(self, report):
        folder = os.path.dirname(self.path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        # Written whole, then renamed: a reader never sees half a report.
        partial = self.path + ".partial"
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(report, out, default=str)
        os.replace(partial, self.path)

    def pytest_terminal_summary(self, terminalreporter):
        if self.saved:
            terminalreporter.write_sep("-", "SWE-CI report")
            terminalreporter.write_line(self.saved)


def _source_file(value):
    """The file that defines a function, a class, a module or an object's class."""
    for candidate in (value, getattr(value, "__func__", None), getattr(value, "fget", None)):
        code = getattr(candidate, "__code__", None)
        if code is not None:
            return code.co_filename
    if hasattr(value, "__file__"):
        return value.__file__
    module = sys.modules.get(getattr(value if isinstance(value, type) else type(value), "__module__", ""), None)
    return getattr(module, "__file__", None)
