"""The hidden Java test run's JVM in a Landlock domain of its own, so that nothing it runs can reach into Maven.

Maven forks the test JVM (the in-process suite's application runs there) under the same uid and in the same
sandbox: a process of the same uid may open another's `/proc/<pid>/mem` for writing and read its memory (red team
round 17 overwrote Maven's libc `_exit` with code that printed a forged final summary and exited 0: 15/15 for 1/15),
which the seccomp filter (core/sandbox/seccomp.py: ptrace, pidfd_getfd, process_vm_*) does not cover, as it is a
plain open. Landlock's ptrace restriction (the kernel's Landlock documentation, "Ptrace restrictions": a sandboxed
process may trace, and so open the memory of, only processes of its own domain or a nested one) covers every such
path at once: surefire starts the JVM through `launcher_text`'s script (`<jvm>` of the platform's pom), which
enters a new domain and then executes the real `java`; Maven stays outside it.
"""
from __future__ import annotations

import ctypes
import functools
import shutil
from pathlib import Path

#: x86_64 system call number of landlock_create_ruleset; flag asking for the ABI version.
_CREATE_RULESET, _CREATE_RULESET_VERSION = 444, 1


@functools.cache
def available() -> bool:
    """Whether this kernel offers Landlock (ABI 1 or later): the JVM domain needs it."""
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.syscall(_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION) >= 1


#: The script surefire runs as `java`: a Landlock domain that restricts one filesystem right no test run uses (making
#: block devices: a ruleset must handle at least one), which is enough for the ptrace restriction to hold, and, on
#: kernels with Landlock ABI 6 or later, scoped signals and abstract Unix sockets (the kernel's Landlock
#: documentation, "Scope flags": no signal to, and no abstract socket of, a process outside the domain): red team
#: round 19 sent Maven SIGQUIT from a process of the test JVM, every 2 ms, until Maven's thread dumps had pushed its
#: final summary out of the console's kept tail. Then the real java with surefire's arguments. No new privileges
#: (Landlock requires it). It refuses to start the JVM when the domain cannot be made: exit status 70 and a line the
#: runner recognises (LAUNCH_REFUSED).
LAUNCH_REFUSED = "platform: the test JVM's Landlock domain could not be made"
_LAUNCHER = '''#!/usr/bin/python3 -I
# Written by the evaluator: the test JVM in a Landlock domain of its own (core/engine/jvm_domain.py).
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
abi = libc.syscall(444, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
# handled_access_fs: LANDLOCK_ACCESS_FS_MAKE_BLOCK; handled_access_net: none; scoped (ABI 6):
# LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL
attr = (ctypes.c_uint64 * 3)(1 << 11, 0, 3)
ruleset = libc.syscall(444, ctypes.byref(attr), 24 if abi >= 6 else 8, 0)
if ruleset < 0 or libc.prctl(38, 1, 0, 0, 0) != 0 or libc.syscall(446, ruleset, 0) != 0:
    print({refused!r}, os.strerror(ctypes.get_errno()), file=sys.stderr)
    sys.exit(70)
os.close(ruleset)
os.execv({java!r}, [{java!r}, *sys.argv[1:]])
'''


def real_java() -> str:
    """The absolute, resolved path of the `java` on PATH (the JDK Maven runs on). Raises FileNotFoundError."""
    found = shutil.which("java")
    if found is None:
        raise FileNotFoundError("no java on PATH")
    return str(Path(found).resolve())


def make_launcher(folder: Path, java: str | None = None) -> Path:
    """Write the launcher as `folder/bin/java` (mode 0755) beside a copy of the real JDK's `release` file (surefire
    reads the JVM's version there), and return its path. `folder` must be new and the platform's own; `java` the
    program it starts (default `real_java()`)."""
    java = java or real_java()
    (folder / "bin").mkdir(parents=True)
    release = Path(java).parent.parent / "release"
    if release.is_file():
        shutil.copyfile(release, folder / "release")
    launcher = folder / "bin" / "java"
    launcher.write_text(_LAUNCHER.format(java=java, refused=LAUNCH_REFUSED))
    launcher.chmod(0o755)
    return launcher
