"""The install phase's only way out: an HTTP CONNECT proxy for an allow-list of package hosts.

The proxy's listening socket is created inside the task's network namespace (so the sandboxed installer
reaches it at 127.0.0.1:<port> and nothing else), while its outbound connections are made from the
worker's own namespace, only to allow-listed hosts on port 443 whose addresses are public. Plain-HTTP
requests, other ports, loopback/private/link-local targets (including the cloud metadata address) are
refused with 403.
"""
from __future__ import annotations

import ipaddress
import logging
import selectors
import socket
import threading
import time
from typing import Iterable

from . import netns

log = logging.getLogger(__name__)
DEFAULT_HOSTS = ("pypi.org", "files.pythonhosted.org", "repo.maven.apache.org", "repo1.maven.org")
HEADER_LIMIT = 16 * 1024
IDLE_SECONDS = 120
#: Per-task caps (issue 15, escape 7): connections relayed at once (each costs one thread and two descriptors; a
#: connection over the cap is refused with 503 at once), and the wall-clock budget for a CONNECT head, which a
#: client sending one byte at a time cannot stretch.
MAX_CONNECTIONS = 64
MAX_RECORDED = 1000  # CONNECT requests kept for the log, per install phase
HEAD_SECONDS = 10.0


#: Never reachable through the proxy: loopback, RFC 1918, carrier-grade NAT, link-local (cloud metadata
#: 169.254.169.254), unique-local, "this network", multicast and reserved ranges.
BLOCKED_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.168.0.0/16", "224.0.0.0/4", "240.0.0.0/4", "::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8",
    "::ffff:0:0/96"))


def address_allowed(address: str) -> bool:
    """False for addresses in BLOCKED_NETWORKS (the host, private networks, metadata services)."""
    ip = ipaddress.ip_address(address)
    return not any(ip in net for net in BLOCKED_NETWORKS if net.version == ip.version)


def _public_address(host: str, port: int) -> tuple | None:
    """The first resolved address of host outside BLOCKED_NETWORKS, else None (also on DNS failure)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return None
    for family, _, _, _, sockaddr in infos:
        if address_allowed(sockaddr[0]):
            return family, sockaddr
    return None


class EgressProxy:
    """A CONNECT-only proxy bound to 127.0.0.1:`port` inside network namespace `netns_name`.

    Use as a context manager around the install phase. `requests` records (host, port, allowed) for logs.
    """

    def __init__(self, *, netns_name: str | None, port: int, allowed_hosts: Iterable[str] = DEFAULT_HOSTS) -> None:
        self.netns_name, self.port = netns_name, port
        self.allowed = {h.lower() for h in allowed_hosts}
        self.requests: list[tuple[str, int, bool]] = []
        self._server: socket.socket | None = None
        self._accept_thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()  # every client and upstream socket in use, closed at exit
        self._threads: set[threading.Thread] = set()
        self.refused_busy = 0  # connections refused because MAX_CONNECTIONS were in use

    @property
    def active(self) -> int:
        """Connections being handled now (at most MAX_CONNECTIONS)."""
        with self._lock:
            return len(self._threads)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _listen(self) -> socket.socket:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(32)
        server.settimeout(0.5)
        return server

    def __enter__(self) -> "EgressProxy":
        self._server = netns.in_netns(self.netns_name, self._listen) if self.netns_name else self._listen()
        self._accept_thread = threading.Thread(target=self._accept_loop, daemon=True, name="egress-proxy")
        self._accept_thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._server is not None:
            try:
                self._server.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._server.close()
        if self._accept_thread is not None:
            self._accept_thread.join(timeout=5)
        with self._lock:  # end every relay now: the install phase is over
            sockets, threads = list(self._open), list(self._threads)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in threads:
            thread.join(timeout=5)

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            if self._stop.is_set():  # accepted while stopping: the install phase is over
                client.close()
                return
            if not self._slots.acquire(blocking=False):
                self.refused_busy += 1
                try:
                    client.settimeout(1)
                    client.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass
                client.close()
                continue
            thread = threading.Thread(target=self._handle_in_slot, args=(client,), daemon=True, name="egress-relay")
            with self._lock:
                self._threads.add(thread)
                self._open.add(client)
            thread.start()

    def _handle_in_slot(self, client: socket.socket) -> None:
        try:
            self._handle(client)
        finally:
            with self._lock:
                self._threads.discard(threading.current_thread())
                self._open.discard(client)
            self._slots.release()

    def _read_head(self, client: socket.socket) -> bytes:
        """The CONNECT head, read within HEAD_SECONDS in all (raises socket.timeout past it)."""
        deadline = time.monotonic() + HEAD_SECONDS
        data = b""
        while b"\r\n\r\n" not in data and len(data) < HEADER_LIMIT:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("the CONNECT head took longer than its budget")
            client.settimeout(left)
            chunk = client.recv(4096)
            if not chunk:
                break
            data += chunk
        return data

    def _handle(self, client: socket.socket) -> None:
        upstream = None
        try:
            head = self._read_head(client)
            parts = head.split(b"\r\n", 1)[0].decode("latin-1").split()
            if len(parts) != 3 or parts[0].upper() != "CONNECT":
                client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                return
            host, _, port_text = parts[1].rpartition(":")
            port = int(port_text) if port_text.isdigit() else 0
            host = host.strip("[]").lower()
            target = _public_address(host, port) if host in self.allowed and port == 443 else None
            if len(self.requests) < MAX_RECORDED:  # a flood of refused CONNECTs must not grow the worker's memory
                self.requests.append((host[:255], port, target is not None))
            if target is None:
                client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                return
            client.settimeout(30)
            upstream = socket.socket(target[0], socket.SOCK_STREAM)
            with self._lock:
                self._open.add(upstream)
            upstream.settimeout(30)
            upstream.connect(target[1])
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            self._relay(client, upstream)
        except (OSError, ValueError) as exc:
            log.debug("egress proxy connection ended: %s", exc)
        finally:
            client.close()
            if upstream is not None:
                with self._lock:
                    self._open.discard(upstream)
                upstream.close()

    def _relay(self, a: socket.socket, b: socket.socket) -> None:
        """Copy bytes both ways until either side closes or both are idle for IDLE_SECONDS (epoll, so descriptor
        numbers above 1024 are fine)."""
        peers = {a: b, b: a}
        with selectors.DefaultSelector() as selector:
            for sock in peers:
                selector.register(sock, selectors.EVENT_READ)
            while not self._stop.is_set():
                ready = selector.select(IDLE_SECONDS)
                if not ready:
                    return
                for key, _ in ready:
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    peers[key.fileobj].sendall(data)
