#!/usr/bin/env bash
# Not at the root, in scripts/ or in bin/: the platform searches the tree for it, after the install nested a folder
# 1,200 levels deep in it.
set -e
cd "$(dirname "$0")/.."
exec python app.py
