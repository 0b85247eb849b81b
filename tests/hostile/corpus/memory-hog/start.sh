#!/usr/bin/env bash
cd "$(dirname "$0")"
# The hog first, in the foreground: the memory limit must stop it (SIGKILL from the OOM killer), then the service starts.
python hog.py
status=$?
python -c 'import sys, hostile_kit; hostile_kit.record("note", "hog ended", "exit status " + sys.argv[1])' "$status"
exec python app.py
