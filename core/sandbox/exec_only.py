"""The JDK's `java` made executable but unreadable inside every sandbox, so that no JVM there is dumpable.

A process that executes a program it may not read loses its "dumpable" attribute: the kernel resets it to
`/proc/sys/fs/suid_dumpable` (0 or 2, never 1; prctl(2), PR_SET_DUMPABLE, "the process executes (execve(2)) a program
that is not readable"). A process that is not dumpable is out of reach of every other process of its uid that lacks
CAP_SYS_PTRACE: no ptrace attach, no `/proc/<pid>/mem`, no `/proc/<pid>/fd/*` (proc(5): these check "ptrace access
mode PTRACE_MODE_ATTACH_FSCREDS"; ptrace(2), "Ptrace access mode checking", step 4: a process that is not dumpable
needs the capability). No sandbox process has it.

Maven runs the hidden Java tests under the same uid as the test JVM, where an in-process suite runs the submission's
application. Red team round 17 opened Maven's `/proc/<pid>/mem` for writing from a process of the test JVM (a plain
`open`, which no seccomp filter sees) and rewrote Maven's exit path to print a forged summary: 15/15 for 1/15. The
local backend also starts the test JVM in a Landlock domain (core.engine.jvm_domain); this rule needs neither
Landlock nor anything in the docker images, so it holds on both backends and on kernels without Landlock, and it
also keeps a debugger off Maven where docker's seccomp profile allows `ptrace`.

How: a copy of the host's `java` launcher (the JDK's `bin/java`, resolved through its links), owned by root, mode
0711, is bound read-only over the real one in every sandbox (the local backend's bubblewrap and the docker
backend's containers mount the host's /usr). Every `java` a sandbox starts (Maven's own, surefire's fork, a
service's) is then this copy. Only when the evaluator runs as root: otherwise the sandbox runs as the evaluator's
own uid, which could read the copy anyway.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

#: Where the copies are kept (root's, on a tmpfs: made again after a reboot). One file per content of the launcher,
#: so a JDK updated under a running worker gets a new copy rather than a stale one.
COPIES = Path("/run/rg-exec-only")


def binds() -> list[tuple[str, str]]:
    """[(host path of the exec-only copy, path of the real `java` to cover)], bound read-only by a sandbox backend
    after its /usr. Empty when the evaluator is not root or there is no `java` on PATH. Raises OSError when the
    copy cannot be written (a sandbox must not start without it)."""
    if os.geteuid() != 0:
        return []
    found = shutil.which("java")
    if found is None:
        return []
    real = Path(found).resolve()
    return [(str(_copy_of(str(real), real.stat().st_mtime_ns)), str(real))]


@functools.cache
def _copy_of(real: str, mtime_ns: int) -> Path:
    """The exec-only copy of `real` (made once per content): COPIES/java-<sha256 prefix>, root's, mode 0711."""
    data = Path(real).read_bytes()
    target = COPIES / f"{Path(real).name}-{hashlib.sha256(data).hexdigest()[:16]}"
    if target.is_file() and not target.is_symlink() and (target.stat().st_mode & 0o777) == 0o711:
        return target
    COPIES.mkdir(mode=0o755, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=COPIES, prefix=".java-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o711)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
