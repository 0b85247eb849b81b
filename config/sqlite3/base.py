"""Django's SQLite DatabaseWrapper, plus the folder of the database file made before connecting."""
from pathlib import Path

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        name = str(conn_params.get("database") or "")
        if name and not name.startswith((":memory:", "file:")):  # in-memory and URI names have no folder to make
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        return super().get_new_connection(conn_params)
