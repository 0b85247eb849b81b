"""Sentinel tests: integrity checks that do not depend on the submission's good will (docs/scoring.md "The test phase").

Where a test report can only come from a process that runs submitted code (white-box Python suites import the
submission; in-process Java suites run its application in the test JVM), the platform adds two tests of its own with
random names to every run: one that must pass and one that must be skipped (and, in Java runs, one that must
fail). In pytest runs the skip is also a check: the must-skip sentinel passes instead when, after collection (which
imports a white-box suite's submission modules), pytest's verdict-making functions were replaced or a plugin from
outside the suite was registered. A report where either is missing or has
another verdict was forged after the fact (an exit hook rewriting the JUnit file, a planted JUnit extension skipping
test bodies, a `testSourceDirectory` pointing at the submission's own tests): the task ends `tampered`, scores 0 and
is flagged. A skip is the negative sentinel because it counts toward no `--maxfail`/`-x` budget, so the sentinels
never change how much of the real suite runs. The sentinel cases are removed before P and N are counted.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from core.grading.junit import JUnitResult, Status


@dataclass(frozen=True)
class Sentinels:
    """The names of one run's two sentinel tests."""

    must_pass: str
    must_skip: str
    java_class: str
    must_fail: str = ""  # Java only: a JUnit run has no --maxfail budget a failing test could use up

    @classmethod
    def new(cls) -> "Sentinels":
        token = secrets.token_hex(6)
        return cls(must_pass=f"test_{secrets.token_hex(5)}", must_skip=f"test_{secrets.token_hex(5)}",
                   java_class=f"Rg{token.capitalize()}Test", must_fail=f"test_{secrets.token_hex(5)}")

    def _mine(self, name: str, classname: str) -> bool:
        return _bare(name) in (self.must_pass, self.must_skip, self.must_fail) or \
            classname.rsplit(".", 1)[-1] == self.java_class

    def verdict(self, junit: JUnitResult, *, java: bool = False) -> tuple[JUnitResult, str | None]:
        """(the report without the sentinel cases, None) when both sentinels have their verdicts, or when no real
        case passed (nothing to forge: a suite that failed to load never runs the sentinels either); else
        (the same, a one-line reason the report is not to be trusted)."""
        found = {_bare(c.name): c.status for c in junit.cases if self._mine(c.name, c.classname)}
        rest = JUnitResult(tuple(c for c in junit.cases if not self._mine(c.name, c.classname)))
        intact = found.get(self.must_pass) is Status.PASSED and found.get(self.must_skip) is Status.SKIPPED
        if java:  # a failure turned into a pass (an extension swallowing exceptions) flips this one
            intact = intact and found.get(self.must_fail) in (Status.FAILED, Status.ERROR)
        if intact or rest.passed == 0:
            return rest, None
        return rest, ("the platform's sentinel tests did not come back as run (one must pass, one must be "
                      "skipped" + (", one must fail" if java else "") + "): the test report was altered")

    # --- Python: a pytest plugin that adds two items, whatever the suite's file and name patterns -------------
    def pytest_plugin(self, folder: Path) -> str:
        """Write the plugin module into `folder` and return its module name (load it with `-p NAME`)."""
        name = f"rg_sentinel_{secrets.token_hex(4)}"
        (folder / f"{name}.py").write_text(_PYTEST_PLUGIN.format(must_pass=self.must_pass, must_skip=self.must_skip))
        return name

    # --- Java: a JUnit 5 class compiled and run with the hidden tests ----------------------------------------
    def java_source(self) -> str:
        return _JAVA_CLASS.format(cls=self.java_class, must_pass=self.must_pass, must_skip=self.must_skip,
                                  must_fail=self.must_fail)


def _bare(name: str) -> str:
    """A case name without JUnit 5's trailing `()`."""
    return name[:-2] if name.endswith("()") else name


_PYTEST_PLUGIN = '''# Written by the evaluator for one run: two sentinel tests (see core/engine/sentinels.py).
import inspect
import sys

import pytest
import _pytest.junitxml
import _pytest.python
import _pytest.reports
import _pytest.runner
import _pytest.skipping

#: What decides and records a verdict: replaced after start-up, the run's verdicts are not pytest's.
_WATCHED = [(_pytest.python.Function, "runtest"), (_pytest.python, "pytest_pyfunc_call"),
            (_pytest.runner, "call_and_report"), (_pytest.runner, "call_runtest_hook"),
            (_pytest.runner.CallInfo, "from_call"), (_pytest.runner, "pytest_runtest_makereport"),
            (_pytest.reports.TestReport, "from_item_and_call"), (_pytest.skipping, "pytest_runtest_makereport"),
            (_pytest.junitxml.LogXML, "pytest_runtest_logreport"), (_pytest.junitxml.LogXML, "pytest_sessionfinish"),
            (_pytest.junitxml._NodeReporter, "to_xml"), (_pytest.junitxml._NodeReporter, "append_pass")]
_START = {{}}


def _snapshot():
    return [inspect.getattr_static(owner, name, None) for owner, name in _WATCHED]


def _intact(config):
    # pytest's verdict machinery as it was at start-up, and no plugin since but the suite's own conftest files
    if _snapshot() != _START["functions"]:
        return False
    trusted = (str(config.rootpath), sys.prefix, sys.base_prefix)  # the suite's conftests, pytest and its plugins
    for plugin in config.pluginmanager.get_plugins():
        if id(plugin) in _START["plugins"]:
            continue
        module = sys.modules.get(getattr(plugin, "__module__", None) or getattr(plugin, "__name__", ""))
        where = getattr(plugin, "__file__", None) or getattr(module, "__file__", None) or ""
        if not where.startswith(trusted):
            return False
    return True


class _Sentinel(pytest.Item):
    def runtest(self):
        if self.name == {must_skip!r} and _intact(self.config):
            pytest.skip("sentinel")

    def reportinfo(self):
        return self.path, 0, self.name


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    _START["functions"] = _snapshot()
    _START["plugins"] = {{id(p) for p in session.config.pluginmanager.get_plugins()}}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    items[0:0] = [_Sentinel.from_parent(session, name={must_pass!r}),
                  _Sentinel.from_parent(session, name={must_skip!r})]
'''

_JAVA_CLASS = '''// Written by the evaluator for one run: two sentinel tests (see core/engine/sentinels.py).
public class {cls} {{
    @org.junit.jupiter.api.Test
    void {must_pass}() {{
    }}

    @org.junit.jupiter.api.Test
    void {must_skip}() {{
        org.junit.jupiter.api.Assumptions.assumeTrue(false, "sentinel");
    }}

    @org.junit.jupiter.api.Test
    void {must_fail}() {{
        org.junit.jupiter.api.Assertions.fail("sentinel");
    }}
}}
'''
