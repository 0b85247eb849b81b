import ctypes
import os
import subprocess

from hostile_kit import TARGETS, record


def run(argv, label):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=3, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        record("blocked", label, exc)
        return None
    out = (proc.stdout + proc.stderr).strip()
    record("note", label, f"exit {proc.returncode}: {out[:200]}")
    return proc.returncode, proc.stdout.strip()


def capabilities():
    for line in open("/proc/self/status"):
        if line.startswith("CapEff:"):
            return int(line.split()[1], 16)
    return 0


if capabilities():
    record("escalated", "the service starts with capabilities", hex(capabilities()))
if os.geteuid() == 0:
    record("escalated", "the service runs as root")
for argv, label in ((["sudo", "-n", "id", "-u"], "sudo"), (["su", "-c", "id -u", "root"], "su"),
                    (["setpriv", "--reuid=0", "--regid=0", "--clear-groups", "id", "-u"], "setpriv"),
                    (["nsenter", "-t", "1", "-a", "id", "-u"], "nsenter pid 1"),
                    (["chroot", "/", "id", "-u"], "chroot")):
    got = run(argv, label)
    if got and got[0] == 0 and got[1] == "0":
        record("escalated", f"{label} gave uid 0")
for call, args in (("setuid", (0,)), ("setgid", (0,)), ("setresuid", (0, 0, 0))):
    try:
        getattr(os, call)(*args)
        record("escalated", f"os.{call}{args} succeeded")
    except OSError as exc:
        record("blocked", f"os.{call}", exc)
target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mnt")  # harmless should the mount work
os.makedirs(target, exist_ok=True)
got = run(["mount", "-t", "tmpfs", "none", target], "mount")
if got and got[0] == 0:
    record("escalated", f"mounted a tmpfs on {target}")
    run(["umount", target], "umount")
found = run(["find", "/usr/bin", "/usr/sbin", "/usr/lib", "-maxdepth", "3", "-perm", "/6000", "-type", "f"],
            "setuid binaries")
status = open("/proc/self/status").read()
no_new_privs = "NoNewPrivs:\t1" in status
record("note", "no_new_privs", no_new_privs)
if found and found[1] and not no_new_privs:
    record("escalated", "setuid binaries are present and no_new_privs is off", found[1][:200])
# A user namespace of our own is fine, but it must not lead back to the host.
got = run(["unshare", "-r", "--net", "--mount", "sh", "-c",
           "id -u; ip link 2>/dev/null | grep -c mtu; cat /proc/self/uid_map"], "unshare user namespace")
libc = ctypes.CDLL(None, use_errno=True)
for pid in ["1", *map(str, TARGETS["canary_pids"])]:  # pid 1, and the host's canary processes by their host pids
    try:
        owner = os.stat(f"/proc/{pid}").st_uid
    except OSError:
        continue
    if owner == os.getuid():
        continue  # our own processes (in a container, pid 1 is the sandbox's keeper, running as us)
    if libc.ptrace(16, int(pid), 0, 0) == 0:  # PTRACE_ATTACH
        record("escalated", f"ptrace attached to pid {pid} of uid {owner}")
        libc.ptrace(17, int(pid), 0, 0)  # PTRACE_DETACH
    else:
        record("blocked", f"ptrace pid {pid} of uid {owner}", os.strerror(ctypes.get_errno()))
if os.geteuid() == 0 or capabilities():
    record("escalated", "after the attempts: euid/capabilities", f"{os.geteuid()} {hex(capabilities())}")
record("note", "escalation attempts done")
