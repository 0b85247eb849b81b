"""Sentinel tests: integrity checks that do not depend on the submission's good will (docs/scoring.md "The test phase").

Where a test report can only come from a process that runs submitted code (white-box Python suites import the
submission; in-process Java suites run its application in the test JVM), the platform adds tests of its own with
random names to every run: one that must pass and one that must be skipped (in Java runs also one that must fail;
in pytest runs a second must-skip as the very last item). In pytest runs each skip is also a check: the sentinel
passes instead when, since the plugin was loaded, a function or class of pytest's or pluggy's verdict machinery (or a
method of such a class) was replaced, or one of the HTTP test clients a white-box suite calls the application with
(Starlette's/FastAPI's TestClient, httpx, requests, Werkzeug's and Flask's), unittest's assertions or the plugin's
own functions changed since the plugin was imported (before any conftest), or a collected test function's code was
swapped, or a hook function whose code lies outside the suite and the runner's own packages was registered (the
machinery may change between the plugin's load and the session's start only by code of pytest's or the runner's
packages: pytest's legacypath plugin sets properties there). The submission's folders join sys.path only once the
plugin has taken its baselines. The plugin also records each test phase's outcome as pytest decided it
(`recorded_passes`): a report with more passes than that record was not written by the run alone. A report where a
sentinel is missing or has another verdict was forged (an exit hook rewriting the JUnit file, a planted JUnit
extension skipping test bodies, a hook flipping the known test names): the task ends `tampered`, scores 0 and is
flagged. A skip is the negative sentinel because it counts toward no `--maxfail`/`-x` budget; a run cut short before
its end may lack the last one. The sentinel cases are removed before P and N are counted. Limit: code running in the test process
(an in-process Java suite's application) can still forge what these checks do not look at (docs/scoring.md "The test
phase"); white-box Python suites run split in two (core/engine/bridge), so no code of the submission runs where pytest
decides.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from core.grading.junit import JUnitResult, Status


#: Sentinel cases in one run's reports: must-pass, must-skip and must-fail in a Java run; must-pass and the two
#: must-skips in a pytest run.
CASES_PER_RUN = 3


@dataclass(frozen=True)
class Sentinels:
    """The names of one run's sentinel tests (class and method names, random per run)."""

    must_pass: str
    must_skip: str
    java_class: str
    must_fail: str = ""  # Java only: a JUnit run has no --maxfail budget a failing test could use up
    must_skip_last: str = ""  # pytest only: the last item of the run, the same check after every real test

    @classmethod
    def new(cls) -> "Sentinels":
        token = secrets.token_hex(6)
        return cls(must_pass=f"test_{secrets.token_hex(5)}", must_skip=f"test_{secrets.token_hex(5)}",
                   java_class=f"Rg{token.capitalize()}Test", must_fail=f"test_{secrets.token_hex(5)}",
                   must_skip_last=f"test_{secrets.token_hex(5)}")

    def _mine(self, name: str, classname: str) -> bool:
        return _bare(name) in (self.must_pass, self.must_skip, self.must_fail, self.must_skip_last) or \
            classname.rsplit(".", 1)[-1] == self.java_class

    def verdict(self, junit: JUnitResult, *, java: bool = False, expected: int = 0) -> tuple[JUnitResult, str | None]:
        """(the report without the sentinel cases, None) when the sentinels have their verdicts, or when no real
        case passed (nothing to forge: a suite that failed to load never runs the sentinels either); else
        (the same, a one-line reason the report is not to be trusted). `expected`: the hidden suite's test count;
        a pytest run that reports that many real cases ran to its end, so its last sentinel must be there (a run
        cut short by --maxfail or a crash may lack it)."""
        found = {_bare(c.name): c.status for c in junit.cases if self._mine(c.name, c.classname)}
        rest = JUnitResult(tuple(c for c in junit.cases if not self._mine(c.name, c.classname)))
        intact = found.get(self.must_pass) is Status.PASSED and found.get(self.must_skip) is Status.SKIPPED
        if java:  # a failure turned into a pass (an extension swallowing exceptions) flips this one
            intact = intact and found.get(self.must_fail) in (Status.FAILED, Status.ERROR)
        else:
            last = found.get(self.must_skip_last)
            intact = intact and (last is Status.SKIPPED or (last is None and rest.total < expected))
        if intact or rest.passed == 0:
            return rest, None
        return rest, ("the platform's sentinel tests did not come back as run (one must pass, "
                      + ("one must be skipped, one must fail" if java else "two must be skipped: the first and the last")
                      + "): the test report was altered")

    # --- Python: a pytest plugin that adds two items, whatever the suite's file and name patterns -------------
    def pytest_plugin(self, folder: Path, *, record: Path) -> str:
        """Write the plugin module into `folder` and return its module name (load it with `-p NAME`, after every
        other `-p` plugin). `record`: the file where the plugin writes each test phase's outcome as pytest decided
        it (`recorded_passes` reads it)."""
        name = f"p{secrets.token_hex(6)}"
        (folder / f"{name}.py").write_text(_PYTEST_PLUGIN.format(
            must_pass=self.must_pass, must_skip=self.must_skip, must_skip_last=self.must_skip_last,
            record=str(record)))
        return name

    # --- Java: a JUnit 5 class compiled and run with the hidden tests ----------------------------------------
    def java_source(self) -> str:
        return _JAVA_CLASS.format(cls=self.java_class, must_pass=self.must_pass, must_skip=self.must_skip,
                                  must_fail=self.must_fail)

    @property
    def java_preloader(self) -> str:
        """The class name of the platform's preloading listener (no test: surefire's patterns do not match it)."""
        return self.java_class.removesuffix("Test") + "Preload"

    def preloader_source(self) -> str:
        """A JUnit Platform LauncherSessionListener (registered by the platform's own service entry in the compiled
        tests) that, as the launcher session opens and before any test class is loaded, loads without initialising
        every class of the test machinery's and assertion libraries' jars (PRELOADED_LIBRARIES, by one class each).
        A class the application then defines in one of their packages fails as a duplicate (red team round 16:
        `privateLookupIn(Assertions.class, ...).defineClass` put in JUnit's `AssertionFailureBuilder`, which JUnit
        loads only at the first failed assert, one whose `buildAndThrow` returned: 15/15 for 1/15)."""
        anchors = ", ".join(f'"{name}"' for name in PRELOADED_LIBRARIES)
        return _JAVA_PRELOADER.format(cls=self.java_preloader, anchors=anchors)


#: Bytes of a run's outcome record read (an honest line is a phase, an outcome and a node id: under 300 bytes).
RECORD_BYTES = 16 * 1024 * 1024


def recorded_passes(text: str) -> int:
    """How many tests passed according to the plugin's record (`text`: lines "when<TAB>outcome<TAB>nodeid"): node
    ids whose call phase passed and none of whose phases failed. Malformed lines are ignored."""
    passed, failed = set(), set()
    for line in text.splitlines():
        parts = line.split("\t", 2)
        if len(parts) != 3:
            continue
        when, outcome, nodeid = parts
        if outcome == "failed":
            failed.add(nodeid)
        elif when == "call" and outcome == "passed":
            passed.add(nodeid)
    return len(passed - failed)


def _bare(name: str) -> str:
    """A case name without JUnit 5's trailing `()`."""
    return name[:-2] if name.endswith("()") else name


_PYTEST_PLUGIN = '''# Written by the evaluator for one run: sentinel tests (see core/engine/sentinels.py).
import importlib
import logging
import sys
import threading

import pytest

#: Where pytest and pluggy decide and record a verdict: any of their functions or classes replaced after start-up,
#: or a method of those classes, and the run's verdicts are not pytest's.
_MODULES = ("_pytest.runner", "_pytest.reports", "_pytest.python", "_pytest.skipping", "_pytest.junitxml",
            "_pytest.main", "_pytest.outcomes", "_pytest.nodes", "_pytest.terminal", "_pytest.unittest",
            "pluggy._callers", "pluggy._hooks", "pluggy._manager", "pluggy._result")
#: The clients white-box suites call the application with, and unittest's assertions: replaced by the application's
#: code (red team round 10: `TestClient.request` returning an object equal to anything gave 20/20 for no code), the
#: run's verdicts are not the suite's. Taken when this plugin is imported (`-p`), before any conftest or test
#: module imports the submission. This plugin's own module is held to the same rule (red team round 11: its check
#: was replaced through sys.modules).
_CLIENTS = ("starlette.testclient", "httpx", "requests.sessions", "requests.models", "requests.api", "werkzeug.test",
            "flask.testing", "unittest.case", __name__)
#: Modules whose data, not only their functions, the clients' verdicts rest on: a module global (each one's
#: identity, and that of each attribute of an instance there) replaced by the application's code is a changed client
#: (red team round 16: `httpx._models.jsonlib`, a module object, replaced by one whose `loads` returned a value
#: equal to anything, 20/20 for 2/20). Loggers' attributes are left out: pytest's logging capture changes them.
_DATA = ("httpx._models", "httpx._client", "httpx._content", "json", "json.decoder", "starlette.testclient",
         "requests.models", "requests.sessions")
_START = {{}}
_RECORD = {record!r}
#: Test functions whose body changed while the suite ran (red team round 11: the application's start-up swapped the
#: code of every test function for a no-op).
_TAINTED = []


def _code_id(value):
    value = getattr(value, "__func__", value)
    return id(getattr(value, "__code__", None))


def _code_file(value):
    # where a function's (or a property getter's) code was written; "" for anything without Python code
    value = getattr(value, "fget", None) or getattr(value, "__func__", value)
    return getattr(getattr(value, "__code__", None), "co_filename", "")


def _snapshot(modules=_MODULES):
    state = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except Exception:  # not installed in this runner, or not importable before the suite's own set-up
            continue
        for key, value in sorted(vars(module).items()):
            if callable(value):
                state.append((name, key, "", id(value), _code_id(value), _code_file(value)))
            if isinstance(value, type) and value.__module__ == name:
                state += [(name, key, attr, id(member), _code_id(member), _code_file(member))
                          for attr, member in sorted(vars(value).items())
                          if callable(member) or isinstance(member, (staticmethod, classmethod, property))]
    return state


def _data(modules=_DATA):
    state = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except Exception:  # not installed in this runner
            continue
        for key, value in sorted(vars(module).items()):
            members = None if isinstance(value, logging.Logger) else getattr(value, "__dict__", None)
            inner = () if not isinstance(members, dict) or isinstance(value, type) or type(value) is type(sys) \
                else tuple(sorted((k, id(v)) for k, v in members.items()))
            state.append((name, key, id(value), inner))
    return state


def _traced(threading=threading):
    # a trace or profile function set, in this thread or for new threads, or a sys.monitoring tool: red team round
    # 16's application set one that turned pytest's rewritten asserts true just before they were decided
    hooks = (sys.gettrace(), sys.getprofile(), getattr(threading, "_trace_hook", None),
             getattr(threading, "_profile_hook", None))
    monitoring = getattr(sys, "monitoring", None)
    tools = [monitoring.get_tool(i) for i in range(6)] if monitoring is not None else []
    return any(hook is not None for hook in hooks) or any(tool is not None for tool in tools)


def _plain_status():
    # httpx.Response keeps the status code it is given: red team round 16's application sent, through Starlette's
    # TestClient, an int subclass equal to every number. The code is made a plain int as the response is built.
    try:
        import httpx
    except ImportError:
        return
    original = httpx.Response.__init__

    def __init__(self, status_code, *args, _original=original, **kwargs):
        if isinstance(status_code, int):
            status_code = int.__int__(status_code)
        _original(self, status_code, *args, **kwargs)

    httpx.Response.__init__ = __init__


def _body(item):
    function = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
    code = getattr(function, "__code__", None)
    return None if code is None else (id(function), id(code))


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    _START["session"] = _snapshot()


def _foreign_hook(config, trusted, _start=_START, _code_file=_code_file):
    # a hook function of a plugin registered after this one whose code is not in a `trusted` folder (red team
    # round 15: an object of a stdlib class carrying a hook function of the submission's)
    for caller in vars(config.pluginmanager.hook).values():
        for impl in getattr(caller, "get_hookimpls", lambda: ())():
            if id(impl.plugin) not in _start["plugins"] and not _code_file(impl.function).startswith(trusted):
                return True
    return False


def _intact(config, _start=_START, _tainted=_TAINTED, _snapshot=_snapshot, _body=_body, _foreign_hook=_foreign_hook,
            _data=_data, _traced=_traced):
    # pytest's verdict machinery as at the session's start, and changed since this plugin loaded by code of pytest's
    # or the runner's packages only (pytest's legacypath plugin sets properties on its own classes while it
    # configures; the suite's conftest imported the submission in between); the clients and this plugin as before the
    # suite started; every test body as collected; and no hook since but the suite's own and the runner's packages'
    trusted = (str(config.rootpath), sys.prefix, sys.base_prefix)  # the suite's conftests, pytest and its plugins
    changed = set(_start["session"]) - set(_start["functions"])
    if any(not entry[-1].startswith(trusted) for entry in changed):
        return False
    if _tainted or _snapshot() != _start["session"] or _snapshot(_CLIENTS) != _start["clients"]:
        return False
    if _data() != _start["data"] or _traced():
        return False
    if any(_body(item) != body for item, body in _start["bodies"].values()):
        return False
    return not _foreign_hook(config, trusted)


class _Sentinel(pytest.Item):
    def runtest(self, _intact=_intact):
        if self.name in ({must_skip!r}, {must_skip_last!r}) and _intact(self.config):
            pytest.skip("sentinel")

    def reportinfo(self):
        return self.path, 0, self.name


def pytest_addhooks(pluginmanager):
    # called as this plugin is registered: every plugin so far is pytest's own or one the runner loaded with -p
    _START["plugins"] = {{id(p) for p in pluginmanager.get_plugins()}}


def pytest_runtest_logreport(report, _record=_RECORD):
    # each phase's outcome as pytest decided it, outside the JUnit writer (red team round 15: a patched writer
    # object and an exit hook rewriting the JUnit file both left the sentinels intact)
    nodeid = report.nodeid.replace("\\n", " ")
    with open(_record, "a", encoding="utf-8") as out:
        out.write(f"{{report.when}}\\t{{report.outcome}}\\t{{nodeid}}\\n")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    _START["bodies"] = {{item.nodeid: (item, body) for item, body in ((i, _body(i)) for i in items)
                        if body is not None}}
    items[0:0] = [_Sentinel.from_parent(session, name={must_pass!r}),
                  _Sentinel.from_parent(session, name={must_skip!r})]
    items.append(_Sentinel.from_parent(session, name={must_skip_last!r}))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item, _start=_START, _tainted=_TAINTED, _body=_body, _traced=_traced):
    # the body about to run is the one collected (a swap undone before the last sentinel is still seen), and no
    # trace function watches it run, before or after (one removed before the last sentinel is still seen)
    known, body = _start.get("bodies", {{}}).get(item.nodeid, (None, None))
    if (known is item and _body(item) != body) or _traced():
        _tainted.append(item.nodeid)
    yield
    if _traced():
        _tainted.append(item.nodeid)


# Last: this module's own functions are all defined by now. The baselines are taken before any conftest runs.
_plain_status()
_START["functions"] = _snapshot()
_START["clients"] = _snapshot(_CLIENTS)
_START["data"] = _data()
'''

#: One class of each library whose classes the preloading listener loads: JUnit Jupiter's API and engine, the JUnit
#: Platform, opentest4j, and the assertion and HTTP-assertion libraries the hidden suites use (AssertJ, Hamcrest,
#: REST Assured, JSONAssert, JsonPath).
PRELOADED_LIBRARIES = ("org.junit.jupiter.api.Assertions", "org.junit.jupiter.engine.JupiterTestEngine",
                       "org.junit.platform.engine.TestEngine", "org.junit.platform.commons.util.ReflectionUtils",
                       "org.opentest4j.AssertionFailedError", "org.assertj.core.api.Assertions",
                       "org.hamcrest.Matchers", "org.hamcrest.MatcherAssert", "io.restassured.RestAssured",
                       "io.restassured.response.ValidatableResponse", "org.skyscreamer.jsonassert.JSONAssert",
                       "com.jayway.jsonpath.JsonPath")

_JAVA_PRELOADER = '''// Written by the evaluator for one run: loads the test libraries' classes first (core/engine/sentinels.py).
public class {cls} implements org.junit.platform.launcher.LauncherSessionListener {{
    private static final String[] ANCHORS = {{{anchors}}};

    @Override
    public void launcherSessionOpened(org.junit.platform.launcher.LauncherSession session) {{
        java.util.Set<String> jars = new java.util.HashSet<>();
        for (String anchor : ANCHORS) {{
            try {{
                Class<?> known = Class.forName(anchor, false, {cls}.class.getClassLoader());
                java.io.File jar = new java.io.File(known.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!jar.isFile() || !jars.add(jar.getPath())) {{
                    continue;
                }}
                try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar)) {{
                    java.util.Enumeration<java.util.jar.JarEntry> entries = file.entries();
                    while (entries.hasMoreElements()) {{
                        String name = entries.nextElement().getName();
                        if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) {{
                            continue;
                        }}
                        try {{
                            Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false,
                                          known.getClassLoader());
                        }} catch (Throwable ignored) {{
                        }}
                    }}
                }}
            }} catch (Throwable ignored) {{
            }}
        }}
    }}
}}
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
