"""Process plumbing shared by the backends: capped output readers, timed runs, process-tree kills."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Mapping, Sequence

from .base import LOG_CAP_BYTES, ExecResult, cap_output


class CappedReader:
    """Drains a pipe in a thread, keeping the first `limit` bytes and discarding the rest.

    Draining everything keeps a chatty process from blocking on a full pipe; capping keeps
    "enormous output on stdout" from filling the worker's memory.
    """

    def __init__(self, stream, limit: int = LOG_CAP_BYTES) -> None:
        self._stream = stream
        self._limit = limit
        self._chunks: list[bytes] = []
        self._kept = 0
        self._dropped = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        for chunk in iter(lambda: self._stream.read1(65536), b""):
            with self._lock:
                room = self._limit - self._kept
                if room > 0:
                    self._chunks.append(chunk[:room])
                    self._kept += min(room, len(chunk))
                self._dropped += max(0, len(chunk) - max(room, 0))
        self._stream.close()

    def text(self) -> str:
        """What was kept so far, decoded, with a marker when output was dropped."""
        with self._lock:
            data = b"".join(self._chunks)
            dropped = self._dropped
        text = cap_output(data, self._limit)
        if dropped:
            text += f"\n[... {dropped} more bytes of output dropped (64 KiB cap) ...]\n"
        return text

    def join(self, timeout: float = 5.0) -> None:
        self._thread.join(timeout)


def spawn(argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str]) -> tuple[subprocess.Popen, CappedReader]:
    """Start argv in its own session with stdout+stderr captured by a CappedReader."""
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True,
    )
    return proc, CappedReader(proc.stdout)


def run_capped(argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str], timeout: float,
               on_timeout=None) -> ExecResult:
    """Run argv to completion or `timeout` seconds; on time-out kill its process group (and call on_timeout)."""
    started = time.monotonic()
    proc, reader = spawn(argv, cwd=cwd, env=env)
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
