"""The application side of a white-box run: imports the submission, sets up the suite's conftest fixtures with
pytest's own machinery and carries out what the verdict side asks (see the package's docstring).

Run as `python -m rg_bridge.app_side SOCKET STUB [pytest arguments]` with the folder holding `rg_bridge` on
PYTHONPATH and the submission's folders in RG_SUBMISSION_PATHS (os.pathsep-separated, appended to sys.path). STUB is
the platform's test file (`stub.py`, copied next to the suite's conftest): its first test is run again for each test
of the verdict side, with the fixtures that test names, until the verdict side says "bye".

Nothing here is trusted: this process runs the submission's code, so whatever it answers is the application's
answer. Standard library and pytest only.
"""
from __future__ import annotations

import importlib
import os
import socket
import sys
import time

import pytest

from rg_bridge import wire

#: Items an iteration may give before the verdict side is told the object is too long to cross.
MAX_ITEMS = 100_000
#: How long the application side waits for the verdict side's socket to appear, in seconds.
CONNECT_SECONDS = 120.0

_STATE: dict = {"sock": None, "fixtures": [], "answered": True, "served": False, "teardown": []}
_HANDLES: dict[int, object] = {}
_IDS: dict[int, int] = {}


def _handle(value: object) -> dict:
    """The tagged handle of `value`, which stays here (kept alive for the whole run)."""
    key = id(value)
    if key not in _IDS:
        _IDS[key] = len(_HANDLES) + 1
        _HANDLES[_IDS[key]] = value
    tagged = {"$": "h", "id": _IDS[key], "type": f"{type(value).__module__}.{type(value).__qualname__}"}
    for base, plain in ((bool, None), (int, int.__int__), (float, float.__float__), (str, str.__str__),
                        (bytes, bytes)):
        if isinstance(value, base):
            if plain is not None:
                tagged["plain"] = wire.encode(plain(value), _handle)
            break
    return tagged


def _resolve(tagged: dict) -> object:
    try:
        return _HANDLES[tagged["id"]]
    except (KeyError, TypeError):
        raise LookupError("no such object on the application side") from None


def _value(data: object) -> object:
    return wire.decode(data, _resolve)


def _answer(value: object) -> dict:
    return {"ok": wire.encode(value, _handle)}


def _failure(exc: BaseException) -> dict:
    try:
        message = str(exc)[:4000]
    except Exception:  # noqa: BLE001 - an exception whose str() fails is still an answer
        message = ""
    return {"error": {"type": type(exc).__name__, "message": message}}


def _items(obj: object) -> list:
    items = []
    for item in obj:
        if len(items) == MAX_ITEMS:
            raise OverflowError(f"more than {MAX_ITEMS} items to iterate over")
        items.append(item)
    return items


_OPS = {
    "import": lambda m: importlib.import_module(m["module"]) and None,
    "modattr": lambda m: getattr(importlib.import_module(m["module"]), m["name"]),
    "getattr": lambda m: getattr(_resolve(m["h"]), m["name"]),
    "setattr": lambda m: setattr(_resolve(m["h"]), m["name"], _value(m["value"])),
    "delattr": lambda m: delattr(_resolve(m["h"]), m["name"]),
    "call": lambda m: _resolve(m["h"])(*_value(m["args"]), **_value(m["kwargs"])),
    "getitem": lambda m: _resolve(m["h"])[_value(m["key"])],
    "setitem": lambda m: _resolve(m["h"]).__setitem__(_value(m["key"]), _value(m["value"])),
    "delitem": lambda m: _resolve(m["h"]).__delitem__(_value(m["key"])),
    "len": lambda m: int(len(_resolve(m["h"]))),
    "bool": lambda m: bool(_resolve(m["h"])),
    "str": lambda m: str.__str__(str(_resolve(m["h"]))),
    "repr": lambda m: str.__str__(repr(_resolve(m["h"]))),
    "iter": lambda m: _items(_resolve(m["h"])),
    "enter": lambda m: _resolve(m["h"]).__enter__(),
    "exit": lambda m: bool(_resolve(m["h"]).__exit__(None, None, None)),
}


def _carry_out(message: object) -> dict:
    """The answer to one request of the verdict side: {"ok": value} or {"error": {"type", "message"}}."""
    try:
        if not isinstance(message, dict) or message.get("op") not in _OPS:
            raise ValueError(f"an unknown request: {str(message)[:200]}")
        return _answer(_OPS[message["op"]](message))
    except BaseException as exc:  # noqa: BLE001 - whatever the application raises goes back as its answer
        return _failure(exc)


def serve_test(request) -> None:
    """The body of the stub test: set up the fixtures the verdict side named, send their values, then carry out its
    requests until it says "end" (the fixtures are torn down as this test ends)."""
    sock = _STATE["sock"]
    try:
        values = {name: request.getfixturevalue(name) for name in _STATE["fixtures"]}
    except BaseException as exc:  # noqa: BLE001 - a fixture that fails is the test's error on the verdict side
        _STATE["answered"] = True
        skipped = isinstance(exc, pytest.skip.Exception)
        wire.send(sock, {"skip": str(exc)[-4000:]} if skipped else _failure(exc))
        return
    _STATE["answered"] = True
    wire.send(sock, _answer(values))
    while True:
        message = wire.recv(sock)
        if isinstance(message, dict) and message.get("op") == "end":
            _STATE["served"] = True
            return
        wire.send(sock, _carry_out(message))


def pytest_runtest_logreport(report) -> None:
    """A set-up that skipped or failed before the stub's body ran: the verdict side still gets its answer. A
    teardown that failed is kept for the answer to "end" (red team round 18: a fixture's teardown error was lost)."""
    if report.when == "teardown" and report.failed:
        _STATE["teardown"].append(str(report.longrepr)[-4000:])
    if report.when != "setup" or report.passed or _STATE["answered"]:
        return
    _STATE["answered"] = True
    reason = str(report.longrepr)[-4000:]
    if report.skipped:
        wire.send(_STATE["sock"], {"skip": reason})
    else:
        wire.send(_STATE["sock"], {"error": {"type": "FixtureError", "message": reason}})


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session) -> bool:
    """Serve the verdict side: a "begin" runs the stub test once with the fixtures it names, "bye" ends the run,
    anything else is carried out at once (module attributes read while the verdict side imports the tests)."""
    by_name = {item.name: item for item in session.items}
    stub, following = by_name.get("test_rg_bridge"), by_name.get("test_rg_bridge_next")
    sock = _STATE["sock"]
    while True:
        message = wire.recv(sock)
        op = message.get("op") if isinstance(message, dict) else None
        if op == "bye":
            return True
        if op != "begin":
            wire.send(sock, _carry_out(message))
            continue
        if stub is None or following is None:
            wire.send(sock, {"error": {"type": "FixtureError", "message": "the platform's stub test was not "
                                       "collected on the application side"}})
            continue
        _STATE["fixtures"], _STATE["answered"] = [str(name) for name in message.get("fixtures", [])], False
        _STATE["served"], _STATE["teardown"] = False, []
        stub.ihook.pytest_runtest_protocol(item=stub, nextitem=following)
        if _STATE["served"]:  # the answer to "end", once the test's fixtures are torn down
            failed = _STATE["teardown"]
            wire.send(sock, {"error": {"type": "FixtureError", "message": failed[-1]}} if failed else {"ok": None})


def _connect(path: str) -> socket.socket:
    deadline = time.monotonic() + CONNECT_SECONDS
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def main(argv: list[str]) -> int:
    """Connect to the verdict side at argv[0], then run pytest on the stub argv[1] with the rest of argv."""
    sock = _connect(argv[0])
    _STATE["sock"] = sock
    sys.path.extend(p for p in os.environ.get("RG_SUBMISSION_PATHS", "").split(os.pathsep) if p)
    return int(pytest.main([argv[1], *argv[2:], "-p", "rg_bridge.app_side"]))


if __name__ == "__main__":  # the module pytest and the stub import is rg_bridge.app_side, not this __main__
    from rg_bridge import app_side

    sys.exit(app_side.main(sys.argv[1:]))
