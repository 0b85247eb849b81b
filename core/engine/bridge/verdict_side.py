"""The verdict side of a white-box run: a pytest plugin (`-p rg_bridge.verdict_side`, with `--noconftest`) that runs
the hidden test functions in a process where no code of the submission ever runs (see the package's docstring).

The plan (a JSON file named by RG_BRIDGE_PLAN: `socket`, the path to listen on; `modules`, the submission's top-level
module names the suite imports; `fixtures`, the fixture names the suite's conftest files define) says what stands in
for what: importing one of `modules` gives a stand-in module whose attributes are read on the application side; a
test that names one of `fixtures` (directly or through other fixtures) gets its value from the application side,
which sets up the conftest's fixtures for that test with pytest's own machinery and tears them down after it.

Objects of the application reach a test as handles (`Remote`): reading an attribute, calling, indexing, `len`,
`bool`, `str`, iteration and `with` are carried out there; equality and membership are decided here, on plain values
only (a handle equals only itself; an enum member of a str, int or float type compares as its plain value), so the
application never sees what a test compares its answers with and cannot make a value equal to anything. A failure
of the bridge (the application side gone, a malformed or oversized answer, a test's time limit reached while it
worked) fails the test that met it and every later one that needs the application.
"""
from __future__ import annotations

import builtins
import importlib.abc
import importlib.machinery
import json
import os
import socket
import sys
import types

import pytest

from rg_bridge import wire

#: Seconds the verdict side waits for the application side to connect.
ACCEPT_SECONDS = 120.0


class RemoteError(Exception):
    """An exception the application raised (one that is not a built-in one), or the bridge's own failure."""


class _Bridge:
    """The verdict side's end of the socket: one request, one answer, in order."""

    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        os.chmod(path, 0o666)  # the application side runs as another user
        self.listener.listen(1)
        self.sock: socket.socket | None = None
        self.broken = ""
        self.current = None  # the test whose fixtures the application side holds
        self.values: dict = {}

    def _connection(self) -> socket.socket:
        if self.sock is None:
            self.listener.settimeout(ACCEPT_SECONDS)
            try:
                self.sock, _ = self.listener.accept()
            except OSError as exc:
                raise wire.BridgeError(f"the application side did not connect within {ACCEPT_SECONDS:.0f} s "
                                       f"({exc})") from None
            self.sock.settimeout(None)
            self.listener.close()
        return self.sock

    def exchange(self, message: dict) -> object:
        """Send `message` and return the application side's answer (a dict). Raises RemoteError once broken."""
        if self.broken:
            raise RemoteError(f"the application side is unreachable: {self.broken}")
        try:
            sock = self._connection()
            wire.send(sock, message)
            answer = wire.recv(sock)
        except BaseException as exc:  # a closed socket, a bad frame, or the test's time limit in the middle of it
            self.broken = f"{type(exc).__name__}: {exc}"[:500]
            raise RemoteError(f"the application side is unreachable: {self.broken}") from None
        if not isinstance(answer, dict):
            self.broken = "an answer out of form"
            raise RemoteError(self.broken)
        return answer

    def ask(self, op: str, **fields) -> object:
        """The value the application side gives for `op` (a handle's operation, see `Remote`); raises the
        application's exception (a built-in type as itself, any other as RemoteError)."""
        answer = self.exchange({"op": op, **{k: _send(v) for k, v in fields.items()}})
        if "ok" in answer:
            try:
                return wire.decode(answer["ok"], _remote)
            except wire.BridgeError as exc:
                self.broken = str(exc)
                raise RemoteError(f"the application side is unreachable: {exc}") from None
        raise _raised(answer.get("error"))

    def begin(self, item, names: list[str]) -> dict:
        """The values of the fixtures `names` for the test `item`, set up on the application side (once per test)."""
        if self.current is not item:
            self.finish()
            answer = self.exchange({"op": "begin", "fixtures": names})
            if "skip" in answer:
                pytest.skip(f"skipped by the suite's fixtures: {str(answer['skip'])[-500:]}")
            if "ok" not in answer:
                raise _raised(answer.get("error"))
            self.current = item
            values = wire.decode(answer["ok"], _remote)
            self.values = values if isinstance(values, dict) else {}
            item.addfinalizer(self.finish)
        return self.values

    def end(self) -> object:
        """Tell the application side the current test is over and wait for its fixtures' teardown there; return the
        answer (None when no test was current)."""
        if self.current is None:
            return None
        self.current = None
        return self.exchange({"op": "end"})

    def finish(self) -> None:
        """The test's finalizer: a teardown that failed on the application side is this test's teardown error (red
        team round 18: a fixture whose teardown raised left the test passed)."""
        answer = self.end()
        if isinstance(answer, dict) and "ok" not in answer:
            raise _raised(answer.get("error"))

    def close(self) -> None:
        try:
            self.end()
        except RemoteError:
            return
        if self.sock is not None and not self.broken:
            try:
                wire.send(self.sock, {"op": "bye"})
            except OSError:
                pass


_BRIDGE: _Bridge | None = None
_PLAN: dict = {}


def _raised(error: object) -> BaseException:
    """The exception for an error answer: a built-in exception type by name as itself, anything else RemoteError."""
    if not isinstance(error, dict):
        return RemoteError("an error answer out of form")
    name, message = str(error.get("type", "")), str(error.get("message", ""))
    kind = getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, Exception) and not issubclass(kind, Warning):
        try:
            return kind(message)
        except Exception:  # noqa: BLE001 - a built-in whose constructor wants other arguments
            pass
    return RemoteError(f"{name}: {message}")


def _send(value: object) -> object:
    def handle(obj):
        if isinstance(obj, Remote):
            return {"$": "h", "id": object.__getattribute__(obj, "_rg_id")}
        raise TypeError(f"a {type(obj).__name__} cannot be passed to the application (only plain values and the "
                        "application's own objects can)")
    return wire.encode(value, handle)


def _remote(tagged: dict) -> "Remote":
    key, kind = tagged.get("id"), str(tagged.get("type", "object"))
    if type(key) is not int:
        raise wire.BridgeError("a handle without its number")
    if "plain" in tagged:
        plain = wire.decode(tagged["plain"], lambda _: (_ for _ in ()).throw(wire.BridgeError("a nested handle")))
        if type(plain) not in (int, float, str, bytes):
            raise wire.BridgeError("a handle's plain value out of form")
        return RemoteScalar(key, kind, plain)
    return Remote(key, kind)


def _ask(obj: "Remote", op: str, **fields) -> object:
    return _BRIDGE.ask(op, h=obj, **fields)


class Remote:
    """An object of the application's, named by its handle: operations on it are carried out there."""

    __slots__ = ("_rg_id", "_rg_type")

    def __init__(self, key: int, kind: str) -> None:
        object.__setattr__(self, "_rg_id", key)
        object.__setattr__(self, "_rg_type", kind)

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _ask(self, "getattr", name=name)

    def __setattr__(self, name: str, value) -> None:
        _ask(self, "setattr", name=name, value=value)

    def __delattr__(self, name: str) -> None:
        _ask(self, "delattr", name=name)

    def __call__(self, *args, **kwargs):
        return _ask(self, "call", args=list(args), kwargs=kwargs)

    def __getitem__(self, key):
        return _ask(self, "getitem", key=key)

    def __setitem__(self, key, value) -> None:
        _ask(self, "setitem", key=key, value=value)

    def __delitem__(self, key) -> None:
        _ask(self, "delitem", key=key)

    def __len__(self) -> int:
        return _checked(_ask(self, "len"), int)

    def __bool__(self) -> bool:
        return _checked(_ask(self, "bool"), bool)

    def __iter__(self):
        return iter(_checked(_ask(self, "iter"), list))

    def __contains__(self, value) -> bool:
        return any(value == item for item in self)  # decided here, never by the application

    def __eq__(self, other) -> bool:
        if isinstance(other, Remote) and not isinstance(other, RemoteScalar):
            return object.__getattribute__(self, "_rg_id") == object.__getattribute__(other, "_rg_id")
        return NotImplemented

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(("rg-remote", object.__getattribute__(self, "_rg_id")))

    def __str__(self) -> str:
        return _checked(_ask(self, "str"), str)

    def __repr__(self) -> str:
        try:
            return _checked(_ask(self, "repr"), str)
        except Exception:  # noqa: BLE001 - a report must still be written
            return f"<{object.__getattribute__(self, '_rg_type')} of the application>"

    def __enter__(self):
        return _ask(self, "enter")

    def __exit__(self, *exc_info) -> bool:
        # The application's context manager is closed, but never decides whether an exception of the test's own
        # block is swallowed (red team round 19: an `__exit__` returning True passed a failed assert in `with`):
        # False, whatever it answers.
        _ask(self, "exit")
        return False


class RemoteScalar(Remote):
    """An application's object that is also a str, int, float or bytes (an enum member, say): attributes and calls
    go to the application; comparisons, hashing and conversions use its plain value, here."""

    __slots__ = ("_rg_plain",)

    def __init__(self, key: int, kind: str, plain) -> None:
        super().__init__(key, kind)
        object.__setattr__(self, "_rg_plain", plain)

    def _plain(self):
        return object.__getattribute__(self, "_rg_plain")

    def __eq__(self, other) -> bool:
        return self._plain() == (other._plain() if isinstance(other, RemoteScalar) else other)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._plain())

    def __lt__(self, other):
        return self._plain() < (other._plain() if isinstance(other, RemoteScalar) else other)

    def __le__(self, other):
        return self._plain() <= (other._plain() if isinstance(other, RemoteScalar) else other)

    def __gt__(self, other):
        return self._plain() > (other._plain() if isinstance(other, RemoteScalar) else other)

    def __ge__(self, other):
        return self._plain() >= (other._plain() if isinstance(other, RemoteScalar) else other)

    def __int__(self) -> int:
        return int(self._plain())

    def __index__(self) -> int:
        return int(self._plain())

    def __float__(self) -> float:
        return float(self._plain())

    def __bool__(self) -> bool:
        return bool(self._plain())

    def __len__(self) -> int:
        return len(self._plain())

    def __iter__(self):
        return iter(self._plain())

    def __contains__(self, value) -> bool:
        return value in self._plain()


def _checked(value, kind):
    if type(value) is not kind:
        raise RemoteError(f"the application answered a {type(value).__name__} where a {kind.__name__} was due")
    return value


class _StandIn(types.ModuleType):
    """A module of the submission's: reading an attribute reads it on the application side."""

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _BRIDGE.ask("modattr", module=self.__name__, name=name)


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _StandIn(spec.name)
        module.__path__ = []  # a package: its submodules are stand-ins too
        return module

    def exec_module(self, module) -> None:
        _BRIDGE.ask("import", module=module.__name__)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the submission's modules (the plan's `modules` and everything below them) as stand-ins."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] not in _PLAN.get("modules", ()):
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)


def _remote_fixture(name: str):
    def fixture(request):
        item = request.node
        names = [n for n in item.fixturenames if n in _PLAN["fixtures"]]
        return _BRIDGE.begin(item, names)[name]

    fixture.__name__ = f"rg_remote_{name}"
    return pytest.fixture(name=name)(fixture)


def pytest_configure(config) -> None:
    """The stand-in fixtures, one per fixture name the suite's conftest files define."""
    holder = types.ModuleType("rg_bridge_fixtures")
    for index, name in enumerate(_PLAN["fixtures"]):
        setattr(holder, f"rg_fixture_{index}", _remote_fixture(name))
    config.pluginmanager.register(holder, "rg-bridge-fixtures")


def pytest_unconfigure(config) -> None:
    _BRIDGE.close()


def _load() -> None:
    global _BRIDGE
    with open(os.environ["RG_BRIDGE_PLAN"], encoding="utf-8") as handle:
        _PLAN.update(json.load(handle))
    _PLAN["fixtures"] = [str(n) for n in _PLAN.get("fixtures", [])]
    _PLAN["modules"] = frozenset(str(n) for n in _PLAN.get("modules", []))
    _BRIDGE = _Bridge(_PLAN["socket"])
    sys.meta_path.insert(0, _Finder())


_load()
