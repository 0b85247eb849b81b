"""Process plumbing shared by the backends: capped output readers, timed runs, process-tree kills."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Mapping, Sequence

from .base import LOG_CAP_BYTES, ExecResult


class CappedReader:
    """Drains a pipe in a thread, keeping the first and the last `limit // 2` bytes, dropping the middle.

    Draining everything keeps a chatty process from blocking on a full pipe; capping keeps "enormous
    output on stdout" from filling the worker's memory; keeping the tail keeps the last lines, where
    errors usually are.
    """

    def __init__(self, stream, limit: int = LOG_CAP_BYTES) -> None:
        self._stream = stream
        self._half = limit // 2
        self._head = bytearray()
        self._tail = bytearray()
        self._dropped = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        for chunk in iter(lambda: self._stream.read1(65536), b""):
            with self._lock:
                room = self._half - len(self._head)
                if room > 0:
                    self._head += chunk[:room]
                    chunk = chunk[room:]
                self._tail += chunk
                if len(self._tail) > self._half:
                    excess = len(self._tail) - self._half
                    self._dropped += excess
                    del self._tail[:excess]
        self._stream.close()

    def text(self) -> str:
        """What was kept so far, decoded, with a marker where output was dropped."""
        with self._lock:
            head, tail, dropped = bytes(self._head), bytes(self._tail), self._dropped
        marker = f"\n[... {dropped} bytes of output dropped (64 KiB cap: first and last 32 KiB kept) ...]\n" \
            if dropped else ""
        return head.decode("utf-8", "replace") + marker + tail.decode("utf-8", "replace")

    def join(self, timeout: float = 5.0) -> None:
        self._thread.join(timeout)


def spawn(argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str],
          pass_fds: Sequence[int] = ()) -> tuple[subprocess.Popen, CappedReader]:
    """Start argv in its own session with stdout+stderr captured by a CappedReader; `pass_fds` stay open in it."""
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True, pass_fds=tuple(pass_fds),
    )
    return proc, CappedReader(proc.stdout)


def run_capped(argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str], timeout: float,
               on_timeout=None, pass_fds: Sequence[int] = ()) -> ExecResult:
    """Run argv to completion or `timeout` seconds; on time-out kill its process group (and call on_timeout)."""
    started = time.monotonic()
    proc, reader = spawn(argv, cwd=cwd, env=env, pass_fds=pass_fds)
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        if on_timeout is not None:
            on_timeout()
        kill_group(proc)
        proc.wait()
    reader.join()
    return ExecResult(
        returncode=None if timed_out else proc.returncode,
        output=reader.text(),
        timed_out=timed_out,
        duration=round(time.monotonic() - started, 3),
    )


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group that `proc` leads (it was started with start_new_session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
