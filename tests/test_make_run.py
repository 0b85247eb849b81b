"""`make run` (scripts/run.sh) as a user runs it: it serves the site on PORT as soon as it has migrated, printing the
address before the slow start-up work (imports, seeds, reference checks), and Ctrl-C stops the site, both workers
and the start-up work within seconds (it used to wait for the worker's running task: minutes).

On a fresh VAR_DIR of its own, with `make run`'s defaults (SQLite, the embedded transport), whatever the suite's
DATABASE_URL and CELERY_BROKER_URL are.
"""
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.test_e2e_worker import _descendants

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


def test_make_run_serves_on_port_first_and_ctrl_c_stops_everything(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "PYTEST_VERSION",
                                                            "REPOGENESIS_SOURCE")}
    log = tmp_path / "run.log"
    start = time.monotonic()
    proc = subprocess.Popen([str(ROOT / "scripts" / "run.sh")], cwd=ROOT, stdout=open(log, "w"),
                            stderr=subprocess.STDOUT, env={**env, "PORT": str(port), "VAR_DIR": str(tmp_path / "var")},
                            preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), os.setpgrp()))
    started = []
    try:
        first = None
        while first is None and time.monotonic() - start < 240:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as resp:
                    first = time.monotonic() - start if resp.status == 200 else None
            except OSError:
                time.sleep(0.3)
        assert first is not None, log.read_text()[-3000:]
        text = log.read_text()
        assert f"site: http://127.0.0.1:{port}" in text
        imported = text.find("imported demo version")
        assert imported == -1 or imported > text.index("site: http"), "the site waited for the imports"

        deadline = time.monotonic() + 120  # both workers up, start-up work under way
        while not (text.count(" ready.") >= 2 and "imported demo version" in text):
            assert time.monotonic() < deadline and proc.poll() is None, text[-3000:]
            time.sleep(0.5)
            text = log.read_text()
        started = _descendants(proc.pid)
        assert len(started) >= 6, started  # gunicorn and its workers, worker.sh and two Celery workers, ...

        stop = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        proc.wait(timeout=60)
        stopped = time.monotonic() - stop
        assert stopped < 20, f"make run took {stopped:.0f} s to stop"
        time.sleep(0.5)
        assert _alive(started) == [], [Path(f"/proc/{p}/cmdline").read_bytes()[:80] for p in _alive(started)]
        print(f"first 200 after {first:.1f} s; stopped {stopped:.1f} s after Ctrl-C")
    finally:
        if proc.poll() is None:
            started += _descendants(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in _alive(started):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_make_run_started_in_the_background_stops_everything_on_term_or_int(tmp_path, signum):
    """`scripts/run.sh &` from a non-interactive shell (a script, `make run &`) starts with INT and QUIT ignored,
    and bash can neither trap nor reset a signal ignored on entry: a TERM used to stop gunicorn only (run.sh sent
    worker.sh an INT it ignored) and both Celery workers kept taking tasks; an INT did nothing at all. Now TERM or
    INT to run.sh's pid stops the site, the workers and the start-up work within seconds."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "PYTEST_VERSION",
                                                            "REPOGENESIS_SOURCE")}
    log, pidfile = tmp_path / "run.log", tmp_path / "run.pid"
    shell = subprocess.Popen(["bash", "-c", f"scripts/run.sh >'{log}' 2>&1 & echo $! >'{pidfile}'; wait"], cwd=ROOT,
                             env={**env, "PORT": str(port), "VAR_DIR": str(tmp_path / "var")},
                             preexec_fn=os.setpgrp)
    started: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while not pidfile.exists() or not pidfile.read_text().strip():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        run_pid = int(pidfile.read_text())
        text = ""
        while not (text.count(" ready.") >= 2 and "imported demo version" in text):  # both workers up
            assert time.monotonic() < deadline and shell.poll() is None, text[-3000:]
            time.sleep(0.5)
            text = log.read_text() if log.exists() else ""
        started = _descendants(run_pid)
        workers = [p for p in started if b"celery" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert len(workers) >= 2, started

        stop = time.monotonic()
        os.kill(run_pid, signum)  # the run script's pid only, as `kill %1` or a process manager sends it
        shell.wait(timeout=60)
        stopped = time.monotonic() - stop
        assert stopped < 30, f"run.sh took {stopped:.0f} s to stop"
        time.sleep(0.5)
        left = _alive(started)
        assert left == [], [Path(f"/proc/{p}/cmdline").read_bytes()[:80] for p in left]
        print(f"stopped {stopped:.1f} s after {signum.name}")
    finally:
        started += [p for pid in [shell.pid] for p in _descendants(pid)]
        for pid in _alive(started):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)
