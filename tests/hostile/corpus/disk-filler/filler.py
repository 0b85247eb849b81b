"""Fill the disk: file after file (each below the 2 GiB per-file limit) in the work folder, then the tmpfs mounts,
until something stops us. Never serves: the task ends as start_crashed however the filler is stopped (killed,
out of space, or done), and `breached` is recorded if more than the disk budget landed in the work folder."""
import os
import sys
import time
from pathlib import Path

from hostile_kit import ROOT, TARGETS, record

CHUNK = b"\0" * (1024 * 1024)
FILE = 256 * 1024 * 1024
budget = TARGETS["disk_budget"]
goal = budget + 512 * 1024 * 1024
deadline = time.monotonic() + 8  # the start limit is 10 s


def fill(folder: Path, limit: int, label: str) -> int:
    written, index = 0, 0
    try:
        folder.mkdir(parents=True, exist_ok=True)
        while written < limit and time.monotonic() < deadline:
            with open(folder / f"fill-{index}.bin", "wb") as handle:
                for _ in range(FILE // len(CHUNK)):
                    handle.write(CHUNK)
                    written += len(CHUNK)
                handle.flush()
                os.fsync(handle.fileno())
            index += 1
            record("note", f"{label} progress", written)
            if label == "work folder" and written > budget:
                record("breached", f"wrote {written} bytes into the work folder, more than the {budget} byte cap")
    except OSError as exc:
        record("note", f"{label} stopped", f"after {written} bytes: {exc}")
    return written


record("note", "filler started", f"goal {goal} bytes in {ROOT}")
fill(ROOT / ".fill", goal, "work folder")
fill(Path("/tmp/fill"), 1024 ** 3, "tmp")
fill(Path(os.environ.get("HOME", "/tmp")) / "fill", 1024 ** 3, "home")
record("note", "filler done", "nothing stopped it")
sys.exit(1)
