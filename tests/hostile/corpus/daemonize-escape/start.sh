#!/usr/bin/env bash
cd "$(dirname "$0")"
python daemon.py
# A second one the shell way: new session, no hangup, no terminal, renamed.
setsid -f nohup bash -c 'trap "" TERM HUP INT; python -c "import hostile_kit; hostile_kit.record(\"note\", \"setsid shell detached\")"; cd /; exec -a "[kthreadd]" sleep 100000' </dev/null >/dev/null 2>&1
exec python app.py
