import glob
import os

from hostile_kit import ROOT, TARGETS, forever, record, serve, try_list, try_read

SKIP = ("/proc", "/sys", "/dev", "/usr", str(ROOT), str(ROOT.parent / "env"))  # not ours to hunt: system and venv
rounds = [0]


def hunt():
    for folder in (TARGETS["hidden_dir"], TARGETS["benchmark_hidden_dir"], TARGETS["benchmark_storage"],
                   TARGETS["work_root"]):
        try_list(folder)
    for pattern in ("{hidden_dir}/**/*.py", "{benchmark_hidden_dir}/**/*.py", "{work_root}/*/runner/**/*.py",
                    "{work_root}/*/runner/suite/tests/test_todos.py"):
        for path in glob.glob(pattern.format(**TARGETS), recursive=True):
            try_read(path, 2000)
    for path in (f"{TARGETS['hidden_dir']}/tests/test_todos.py", f"{TARGETS['benchmark_hidden_dir']}/tests/test_todos.py"):
        try_read(path, 2000)
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if not cwd.startswith(str(ROOT)):
            for path in glob.glob(f"{cwd}/**/test_*.py", recursive=True)[:20]:
                try_read(path, 2000)
    for seen, (dirpath, dirnames, filenames) in enumerate(os.walk("/")):
        if seen > 5000:  # a sandbox's filesystem is small; do not crawl a whole host should it be visible
            record("note", "the filesystem walk stopped at 5000 folders")
            break
        dirnames[:] = [d for d in dirnames if not os.path.join(dirpath, d).startswith(SKIP)]
        for name in filenames:
            if name == "conftest.py" or (name.startswith("test_") and name.endswith(".py")):
                try_read(os.path.join(dirpath, name), 2000)
    rounds[0] += 1
    if rounds[0] in (1, 10):
        record("note", "hunt round", rounds[0])


forever(hunt, every=0.5, name="hunt")
serve()
