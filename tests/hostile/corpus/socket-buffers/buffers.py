"""Holds memory the memory limit may not count: the kernel buffers of unread loopback TCP connections.

Opens up to 200 connection pairs and fills each without reading until the kernel refuses more; the bytes
accepted are what the kernel holds for the task. On cgroup v1 TCP buffers are not memory of the cgroup unless
the platform caps them (memory.kmem.tcp.limit_in_bytes); more than TCP_BUDGET held means that cap did not hold.
The connections stay open (held by this process) until the task is torn down.
"""
import os
import socket
import time

from hostile_kit import record

TCP_BUDGET = 512 * 1024 ** 2  # twice the platform's cap: margin for what the kernel accounts per page
held, pairs = 0, []
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(256)
chunk = b"x" * 65536
started = time.monotonic()
for _ in range(200):
    try:
        a = socket.create_connection(server.getsockname())
        b, _ = server.accept()
    except OSError as exc:
        record("blocked", "a new connection", exc)
        break
    a.setblocking(False)
    pairs.append((a, b))
    while time.monotonic() - started < 20:
        try:
            held += a.send(chunk)
        except (BlockingIOError, OSError):
            break
record("note", "buffers filled", f"{len(pairs)} pairs, {held // 1024 ** 2} MiB held")
if held > TCP_BUDGET:
    record("breached", "held socket buffers outside the memory limit", f"{held // 1024 ** 2} MiB")
if os.fork() == 0:  # keep every connection open for the rest of the task, in the background
    os.setsid()
    while True:
        time.sleep(60)
