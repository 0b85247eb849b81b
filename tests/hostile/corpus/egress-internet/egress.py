import os
import socket
import time

from hostile_kit import TARGETS, dns_query, http_get, record, try_connect, try_udp, try_unix

rounds = 0
while True:
    http_get("1.1.1.1", 80, label="internet")
    try_connect("8.8.8.8", 53, label="internet dns/tcp")
    try_udp("8.8.8.8", 53, dns_query("pypi.org"), label="internet dns")
    try:
        for line in open("/etc/resolv.conf"):
            if line.startswith("nameserver"):
                try_udp(line.split()[1], 53, dns_query("pypi.org"), label="resolver")
    except OSError:
        pass
    try:
        address = socket.getaddrinfo("pypi.org", 443, type=socket.SOCK_STREAM)[0][4][0]
        try_connect(address, 443, label="pypi.org")
    except OSError as exc:
        record("blocked", "resolve pypi.org", exc)
    try_connect("2606:4700:4700::1111", 80, label="internet ipv6")
    for ip in TARGETS["host_ips"]:
        for port in (22, 80, 443, 8000, 8080):
            try_connect(ip, port, label="host address")
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
        if os.environ.get(name):
            record("breached", f"the service phase has {name}", os.environ[name])
    for path in ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock"):
        try_unix(path, send=b"GET /version HTTP/1.0\r\n\r\n", label="daemon socket")
    rounds += 1
    if rounds in (1, 3):
        record("note", "egress round", rounds)
    time.sleep(1)
