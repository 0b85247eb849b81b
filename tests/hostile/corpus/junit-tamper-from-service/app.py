import glob
import os
from pathlib import Path

from hostile_kit import ROOT, TARGETS, forever, make_app, record, serve

CASES = "".join(f'<testcase classname="tests.test_todos" name="test_forged_{i}" time="0.001"/>' for i in range(17))
FORGED = ('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" '
          f'skipped="0" tests="17" time="0.1">{CASES}</testsuite></testsuites>\n')
rounds = [0]


def forge():
    work_root = TARGETS["work_root"]
    places = set(glob.glob(f"{work_root}/*/runner/reports")) | set(glob.glob(f"{work_root}/*/runner"))
    places |= {str(ROOT.parent / "runner" / "reports"), str(ROOT / "reports"), str(ROOT / "target/surefire-reports")}
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):  # the runner's folder, if its process is visible
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if cwd.startswith(work_root):  # never scribble over other folders of the host, should we see them
            places |= {os.path.join(cwd, "reports"), os.path.join(os.path.dirname(cwd), "reports")}
    for place in sorted(places):
        for name in ("junit.xml", "TEST-forged.xml"):
            path = Path(place) / name
            try:
                if path.is_relative_to(ROOT):
                    path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(FORGED)
            except OSError:
                continue
            if not path.is_relative_to(ROOT):
                record("breached", f"forged report written to {path}")
    rounds[0] += 1
    if rounds[0] in (1, 10):
        record("note", "forging round", rounds[0])


forever(forge, every=0.3, name="forge")
serve(make_app(with_put=False))
