import sys

from hostile_kit import TARGETS, record, serve, try_list, try_read

base = TARGETS["base_dir"]
for path in (TARGETS["settings_file"], TARGETS["env_file"], TARGETS["secret_key_file"], f"{base}/manage.py",
             f"{base}/config/__init__.py", f"{base}/config/celery.py", f"{TARGETS['var_dir']}/../secret_key"):
    try_read(path, 20000)
try_list(base)
try_list(TARGETS["var_dir"])
sys.path.insert(0, base)
try:
    import config.settings as stolen  # noqa: E402

    record("read", "config.settings imported", f"SECRET_KEY={stolen.SECRET_KEY}")
except Exception as exc:  # noqa: BLE001
    record("blocked", "import config.settings", repr(exc))
record("note", "settings hunt done")
serve()
