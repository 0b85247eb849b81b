"""Django's SQLite backend, making the database file's folder when the first connection opens (ENGINE
"config.sqlite3", chosen by config/settings.py for every sqlite:// DATABASE_URL): the settings create no folder."""
