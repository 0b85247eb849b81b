#!/usr/bin/env bash
cd "$(dirname "$0")"
# Straight after the install: is the install phase's egress proxy still listening in our namespace?
attempt() {  # prints "open:<the proxy's first reply bytes>" when a connection to 127.0.0.1:$1 opens
  ( exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'CONNECT pypi.org:443 HTTP/1.1\r\nHost: pypi.org:443\r\n\r\n' >&3
    printf 'open:'
    timeout 2 head -c 60 <&3 | tr -d '\r\n' ) 2>/dev/null
}
end=$((SECONDS + 2))
while [ "$SECONDS" -lt "$end" ]; do
  for port in 3128 3129; do
    reply=$(attempt "$port")
    if [ -n "$reply" ]; then
      python -c 'import sys, hostile_kit; hostile_kit.record("reached", "egress proxy 127.0.0.1:" + sys.argv[1] + " in the service phase", sys.argv[2])' "$port" "${reply#open:}"
    fi
  done
done
python -c 'import hostile_kit; hostile_kit.record("note", "proxy ports probed")'
exec python app.py
