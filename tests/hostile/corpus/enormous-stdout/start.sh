#!/usr/bin/env bash
cd "$(dirname "$0")"
head -c 60000000 /dev/zero | tr '\0' 'A'
yes "spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam" | head -c 40000000 >&2
exec python app.py
