"""Allocate (and touch) memory until the sandbox stops us; record `breached` if we get past the limit."""
from hostile_kit import TARGETS, record

STEP = 64 * 1024 * 1024
limit = TARGETS["memory_limit"]
goal = limit + 1024 ** 3
held = []
record("note", "hog started", f"goal {goal} bytes, limit {limit}")
while sum(map(len, held)) < goal:
    held.append(b"\x01" * STEP)  # malloc + memset: every page is really used
    total = sum(map(len, held))
    if total % (512 * 1024 * 1024) == 0:
        record("note", "hog progress", total)
    if total > limit:
        record("breached", f"the hog holds {total} bytes, more than the {limit} byte memory limit")
record("breached", "the hog reached its goal", goal)
