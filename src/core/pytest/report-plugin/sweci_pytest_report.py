"""SWE-CI's own pytest report plugin.

Writes a report in the format of pytest-json-report (the fields the SWE-CI reference
harness reads, in the same order and with the same values), for interpreters that do not
have that plugin installed. SWE-CI loads it with ``-p sweci_pytest_report`` and asks for
the report with ``--sweci-report=<file>``; without that option the module does nothing.

Compatible with pytest 7 and later on Python 3.6 and later. Written for SWE-CI; it shares
no code with pytest-json-report, only the report format.
"""
import json
import logging
import os
import time

import pytest

MIN_PYTEST = (7, 0)


def pytest_addoption(parser):
    group = parser.getgroup("sweci", "SWE-CI report")
    group.addoption(
        "--sweci-report",
        dest="sweci_report",
        default=None,
        metavar="PATH",
        help="write a report in pytest-json-report's format to PATH",
    )


def pytest_addhooks(pluginmanager):
    # A project's conftest may implement pytest-json-report's hooks; without their
    # specifications pytest would refuse to run it ("unknown hook").
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
    if not path:
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
    config.pluginmanager.register(ReportWriter(config, path, writes), "sweci-report-writer")


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
    def __init__(self, config, path, writes):
        self.config = config
        self.path = path
        self.writes = writes
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
        for added in self.config.hook.pytest_json_runtest_metadata(item=item, call=call):
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
        self.config.hook.pytest_json_modifyreport(json_report=report)
        try:
            self._save(report)
            self.saved = "report saved to: %s" % self.path
        except OSError as err:
            self.saved = "could not save report: %s" % err

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
