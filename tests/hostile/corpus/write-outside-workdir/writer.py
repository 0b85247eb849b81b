"""Write everywhere but our own folder."""
import os
import time

from hostile_kit import TARGETS, record, try_append, try_create

rounds = 0
while True:
    for path in TARGETS["forbidden_new"]:
        try_create(path)
    canary = TARGETS["canary_file"]
    try_append(canary)
    try_append(TARGETS["work_root_canary"])
    try:
        with open(canary, "r+") as handle:
            handle.truncate(0)
        record("wrote", f"truncate {canary}")
    except OSError as exc:
        record("blocked", f"truncate {canary}", exc)
    try:
        with open("/tmp/replacement", "w") as handle:
            handle.write("replaced by the hostile corpus\n")
        os.replace("/tmp/replacement", canary)
        record("wrote", f"rename over {canary}")
    except OSError as exc:
        record("blocked", f"rename over {canary}", exc)
    for path in (canary, TARGETS["work_root_canary"]):
        try:
            os.unlink(path)
            record("wrote", f"unlink {path}")
        except OSError as exc:
            record("blocked", f"unlink {path}", exc)
    rounds += 1
    if rounds in (1, 5):
        record("note", "writer round", rounds)
    time.sleep(1)
