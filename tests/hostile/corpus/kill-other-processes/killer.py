"""Try to kill what is not ours: the test runner, the worker, other tasks, the host.

Every pid that is not ours gets signal 0 (the kernel's permission check for sending a signal, with no effect):
success means this process could kill it. Only the two canary processes the test runs on the host for this
purpose get real SIGKILLs, so a broken sandbox does not take the machine down with it.
"""
import os
import signal
import time

from hostile_kit import TARGETS, record

me = os.getuid()


def owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


rounds = 0
while True:
    visible = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    candidates = set(range(1, 32769)) | set(visible) | {TARGETS["worker_pid"]}
    could = 0
    for pid in sorted(candidates):
        if pid == os.getpid() or owner(pid) == me:
            continue  # our own service: leave it running so the suite can pass
        try:
            os.kill(pid, 0)
        except OSError:
            continue
        could += 1
        record("breached", f"may signal pid {pid} of another user", f"owner {owner(pid)}")
    for pid in TARGETS["canary_pids"]:
        if owner(pid) == me:
            continue  # a pid of our own namespace that happens to have the same number
        try:
            os.kill(pid, signal.SIGKILL)
            record("breached", f"SIGKILL delivered to the host's canary process {pid}")
        except OSError:
            pass
    rounds += 1
    if rounds in (1, 5):
        record("note", "killer round", f"{rounds}: {len(visible)} pids visible, {could} of other users signalable")
    time.sleep(1)
