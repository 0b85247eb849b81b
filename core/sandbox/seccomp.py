"""The seccomp filter of every command the local backend runs: no kernel keyrings, no tracing of other processes.

Kernel keyrings belong to a uid, not to a namespace: bubblewrap and the network namespace do not separate them,
and keys outlive the processes that made them. A service could keep what it saw (every request of the hidden
suite) in a key that the next task run under the same pooled uid reads back (issue 15, escape 5). The filter
answers `add_key`, `request_key` and `keyctl` with ENOSYS, the way Docker's default seccomp profile refuses the
same three calls for the docker backend. The program is built once with libseccomp (pyseccomp, which also covers
the x32 and i386 entry points) and handed to `bwrap --seccomp FD`.
"""
from __future__ import annotations

import contextlib
import errno
import functools
from collections.abc import Iterator
import os
import tempfile

#: Refused inside the sandbox (ENOSYS: a program asking for them behaves as on a kernel without keyrings).
REFUSED_SYSCALLS = ("add_key", "request_key", "keyctl")
#: Refused inside the sandbox with EPERM (as to a process not allowed to trace): reaching into another process of
#: the same uid. The test JVM runs the application of an in-process suite beside Maven, which runs it, under one
#: uid: red team round 16 took a copy of Maven's stdout with pidfd_getfd and wrote a forged final summary into the
#: console the platform checks the reports against (15/15 for 1/15); ptrace attached gdb to Maven. Docker's default
#: profile refuses pidfd_getfd, kcmp and process_vm_* without CAP_SYS_PTRACE (dropped) but allows ptrace (docs/
#: scoring.md, "Limit").
NO_TRACING_SYSCALLS = ("ptrace", "pidfd_getfd", "process_vm_readv", "process_vm_writev", "kcmp")


@functools.cache
def program() -> bytes:
    """The BPF program (bytes) that allows every system call but REFUSED_SYSCALLS and NO_TRACING_SYSCALLS. Raises
    OSError when libseccomp cannot be loaded."""
    import pyseccomp

    refuse = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name in REFUSED_SYSCALLS:
        refuse.add_rule(pyseccomp.ERRNO(errno.ENOSYS), name)
    for name in NO_TRACING_SYSCALLS:
        refuse.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
    with tempfile.TemporaryFile() as out:  # libseccomp writes to a descriptor
        refuse.export_bpf(out)
        out.seek(0)
        return out.read()


@contextlib.contextmanager
def program_fd() -> Iterator[int]:
    """A new readable descriptor holding `program()`, positioned at its start and inheritable, for the duration of
    the block: bwrap reads it once at start (`--seccomp FD`), so close it (leave the block) once the command runs."""
    fd = os.memfd_create("rg-seccomp", 0)
    try:
        os.write(fd, program())
        os.lseek(fd, 0, os.SEEK_SET)
        os.set_inheritable(fd, True)
        yield fd
    finally:
        os.close(fd)
