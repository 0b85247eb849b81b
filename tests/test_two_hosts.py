"""Two worker hosts that share nothing but the database, the broker and the object store (issue 14).

The web process runs on this host; two Celery workers each run as a host of their own: a network namespace made
here (`ip netns add`, a veth pair, a /30 of 198.18.0.0/15 with no route but the link to this host's end), their
own VAR_DIR, and a mount namespace in which the web host's VAR_DIR and the other worker's are covered by an empty
tmpfs, so no folder is shared. All three use one PostgreSQL (scripts/services.sh), one Redis and one moto S3 server
(both started here on loopback); each worker reaches them through TCP forwarders this test runs on the host end of
its veth. The install phase of the sandbox reaches PyPI and Maven Central the same way: the worker's /etc/hosts
(/etc/netns/<name>/hosts) names the host end for the package hosts, and a forwarder there relays TLS by its server
name (SNI) to the real host, allow-listed hosts only. Each worker's sandbox nests its own per-task namespaces.

The demo submission agent-alpha (all six demo tasks, the Java one included) is uploaded through the web process;
both workers must take tasks (each fetches the bundles of the tasks it evaluates into its own cache), and every
task's score must be the one-host result (benchmarks/demo-submissions/EXPECTED*.json, what
tests/test_e2e_worker.py asserts of a single worker).

Needs root, iproute2, bubblewrap, PostgreSQL and Redis (installed and started by scripts/services.sh); it fails,
never skips, under REQUIRE_SANDBOX=1 / CI.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.conftest import DEMO_SUBMISSIONS
from tests.s3_server import free_port, moto_start, s3_client, s3_environment

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
ROOT = Path(__file__).resolve().parent.parent
PY = Path(sys.executable)
PACKAGE_HOSTS = ("pypi.org", "files.pythonhosted.org", "repo.maven.apache.org", "repo1.maven.org")
PG = ("127.0.0.1", 5432)


def _required() -> bool:
    return os.environ.get("REQUIRE_SANDBOX") == "1" or os.environ.get("CI", "").lower() in ("1", "true")


def _need(condition: bool, reason: str) -> None:
    if condition:
        return
    if _required():
        pytest.fail(f"the two-host test is required here but {reason}", pytrace=False)
    pytest.skip(reason)


def _sh(*argv: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(argv)}: {proc.stdout}{proc.stderr}")
    return proc


# --- TCP forwarders on the host end of each veth ------------------------------------------------------------------
def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for sock, how in ((dst, socket.SHUT_WR), (src, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass


def server_name(hello: bytes) -> str | None:
    """The SNI host name of a TLS ClientHello record (None when absent or not a ClientHello)."""
    try:
        if hello[0] != 0x16 or hello[5] != 0x01:
            return None
        at = 5 + 4 + 2 + 32
        at += 1 + hello[at]  # session id
        at += 2 + int.from_bytes(hello[at:at + 2], "big")  # cipher suites
        at += 1 + hello[at]  # compression methods
        end = at + 2 + int.from_bytes(hello[at:at + 2], "big")
        at += 2
        while at + 4 <= end:
            kind, size = int.from_bytes(hello[at:at + 2], "big"), int.from_bytes(hello[at + 2:at + 4], "big")
            if kind == 0:  # server_name: list length, name type 0, name length, name
                length = int.from_bytes(hello[at + 7:at + 9], "big")
                return hello[at + 9:at + 9 + length].decode("ascii")
            at += 4 + size
    except (IndexError, UnicodeDecodeError):
        return None
    return None


class Forwarder:
    """Accepts on `listen` and relays each connection to `target`; with `target` None, relays TLS to port 443 of the
    host its ClientHello names, when that host is in `allowed` (others are closed)."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int] | None, allowed: tuple[str, ...] = ()):
        self.target, self.allowed, self.open = target, allowed, []
        self.server = socket.create_server(listen, reuse_port=False)
        self.server.settimeout(0.5)
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: socket.socket) -> None:
        first = b""
        try:
            target = self.target
            if target is None:
                client.settimeout(10)
                while len(first) < 5 or len(first) < 5 + int.from_bytes(first[3:5], "big"):
                    chunk = client.recv(65536)
                    if not chunk:
                        raise OSError("closed before its ClientHello")
                    first += chunk
                client.settimeout(None)
                name = server_name(first)
                if name not in self.allowed:
                    raise OSError(f"server name {name!r} is not allowed")
                target = (name, 443)
            upstream = socket.create_connection(target, timeout=30)
            upstream.settimeout(None)
            upstream.sendall(first)
        except OSError:
            client.close()
            return
        self.open += [client, upstream]
        threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()
        _pipe(client, upstream)

    def close(self) -> None:
        self.closed = True
        self.server.close()
        for sock in self.open:
            try:
                sock.close()
            except OSError:
                pass


# --- one worker host ----------------------------------------------------------------------------------------------
class WorkerHost:
    """A network namespace with a veth pair to this host (`host_ip` here, `ip` there, a /30) and files in
    /etc/netns/<name>/ (hosts naming the package hosts as `host_ip`, a resolver that answers nothing)."""

    def __init__(self, name: str, link: str, subnet: int):
        self.name, self.link = name, link
        self.host_ip, self.ip = f"198.18.{subnet}.1", f"198.18.{subnet}.2"
        self.etc = Path("/etc/netns") / name
        _sh("ip", "netns", "add", name)
        _sh("ip", "link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", name)
        _sh("ip", "addr", "add", f"{self.host_ip}/30", "dev", link)
        _sh("ip", "link", "set", link, "up")
        _sh("ip", "-n", name, "addr", "add", f"{self.ip}/30", "dev", "eth0")
        _sh("ip", "-n", name, "link", "set", "eth0", "up")
        _sh("ip", "-n", name, "link", "set", "lo", "up")
        self.etc.mkdir(parents=True, exist_ok=True)
        (self.etc / "hosts").write_text(f"127.0.0.1 localhost\n{self.host_ip} {' '.join(PACKAGE_HOSTS)}\n")
        (self.etc / "resolv.conf").write_text("nameserver 127.0.0.1\n")

    def routes(self) -> str:
        return _sh("ip", "-n", self.name, "route", "show").stdout

    def remove(self) -> None:
        _sh("ip", "netns", "del", self.name, check=False)
        _sh("ip", "link", "del", self.link, check=False)
        shutil.rmtree(self.etc, ignore_errors=True)


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass


def _wait_log(proc: subprocess.Popen, log: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        assert proc.poll() is None, f"exited {proc.returncode}: {log.read_text()[-4000:]}"
        assert time.monotonic() < deadline, f"no {text!r} after {timeout} s: {log.read_text()[-4000:]}"
        time.sleep(0.3)


def _psql(sql: str) -> None:
    _sh("runuser", "-u", "postgres", "--", "psql", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql)


@pytest.fixture
def services():
    """PostgreSQL (scripts/services.sh) with a database of this test's own, and a Redis of its own on loopback."""
    _need(os.geteuid() == 0, "it needs root (network namespaces, the sandbox)")
    _need(bool(shutil.which("ip")) and bool(shutil.which("bwrap")), "it needs iproute2 and bubblewrap")
    subprocess.run([str(ROOT / "scripts/services.sh")], check=True, timeout=600, capture_output=True)
    database = f"twohosts_{uuid.uuid4().hex[:10]}"
    _psql(f"CREATE DATABASE {database} OWNER leaderboard")
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while _sh("redis-cli", "-p", str(redis_port), "ping", check=False).stdout.strip() != "PONG":
            assert time.monotonic() < deadline and redis.poll() is None, "redis-server did not start"
            time.sleep(0.2)
        yield database, redis_port
    finally:
        _stop(redis)
        _psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def _site_env(var_dir: Path, *, db_host: str, database: str, redis: tuple[str, int], s3: str, bucket: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_", "AWS_", "EVALUATION_")) and k != "PYTEST_VERSION"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", SECRET_KEY="two-hosts-test-secret-key",
               VAR_DIR=str(var_dir), PYTHONPATH=str(ROOT),
               DATABASE_URL=f"postgres://leaderboard:leaderboard@{db_host}:{PG[1]}/{database}",
               CELERY_BROKER_URL=f"redis://{redis[0]}:{redis[1]}/0", **s3_environment(s3, bucket))
    return env


SETUP = r'''
import django; django.setup()
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from catalog.services import system_create, team_for_user
user = User.objects.create_user(username="twohosts", password="two-Hosts-share-nothing-1")
system_create(team=team_for_user(user=user), name="Two Hosts Alpha")
print(Token.objects.create(user=user).key)
'''

RESULTS = r'''
import json, django; django.setup()
from catalog.models import Task
from evaluation.models import TaskResult
from submissions.models import Submission
sub = Submission.objects.get(pk={pk})
rows = TaskResult.objects.filter(run__submission=sub).select_related("task")
print(json.dumps({{"tasks": {{r.task.name: [r.outcome, r.tests_passed, r.tests_total, r.attempts] for r in rows}},
                  "bundles": {{t.bundle_sha256: t.name for t in Task.objects.filter(benchmark__name="demo")}},
                  "status": sub.status, "error": sub.error}}))
'''


def test_two_worker_hosts_sharing_only_database_broker_and_object_store(services, tmp_path):
    database, redis_port = services
    hosts_dir = tmp_path / "hosts"
    var = {name: hosts_dir / name for name in ("web", "w1", "w2")}
    for folder in var.values():
        folder.mkdir(parents=True)
    moto, s3 = moto_start(tmp_path / "moto.log")
    bucket = "two-hosts"
    s3_client(s3).create_bucket(Bucket=bucket)
    s3_port = int(s3.rsplit(":", 1)[1])
    tag = uuid.uuid4().hex[:6]
    used = _sh("ip", "-br", "addr").stdout
    subnets = random.sample([n for n in range(256) if f"198.18.{n}." not in used], 2)
    hosts, forwarders, workers, web = [], [], {}, None
    try:
        for i, subnet in enumerate(subnets, 1):
            host = WorkerHost(f"twohost-{tag}-w{i}", f"th{tag}w{i}", subnet)
            hosts.append(host)
            routes = host.routes().strip().splitlines()  # the link to this host, nothing else
            assert len(routes) == 1 and routes[0].startswith(f"198.18.{subnet}.0/30 dev eth0"), routes
            forwarders += [Forwarder((host.host_ip, PG[1]), PG), Forwarder((host.host_ip, redis_port),
                                                                           ("127.0.0.1", redis_port)),
                           Forwarder((host.host_ip, s3_port), ("127.0.0.1", s3_port)),
                           Forwarder((host.host_ip, 443), None, PACKAGE_HOSTS)]

        # The web host: migrate, import the demo (bundles go to the bucket), an account; gunicorn on loopback.
        web_env = _site_env(var["web"], db_host=PG[0], database=database, redis=("127.0.0.1", redis_port), s3=s3,
                            bucket=bucket)
        for argv in (["manage.py", "migrate", "--noinput", "-v0"],
                     ["manage.py", "import_benchmark", "benchmarks/demo", "--skip-reference-check"]):
            subprocess.run([str(PY), *argv], cwd=ROOT, env=web_env, check=True, timeout=600, capture_output=True)
        token = subprocess.run([str(PY), "-c", SETUP], cwd=ROOT, env=web_env, check=True, timeout=120,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        port = free_port()
        web_log = tmp_path / "web.log"
        web = subprocess.Popen([str(PY.with_name("gunicorn")), "-c", "config/gunicorn.py", "config.wsgi"], cwd=ROOT,
                               env={**web_env, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"},
                               stdout=open(web_log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        _wait_log(web, web_log, "Booting worker", 60)

        # The worker hosts: their own VAR_DIR; the web host's and the other worker's covered by an empty tmpfs.
        for i, host in enumerate(hosts, 1):
            name = f"w{i}"
            env = _site_env(var[name], db_host=host.host_ip, database=database, redis=(host.host_ip, redis_port),
                            s3=f"http://{host.host_ip}:{s3_port}", bucket=bucket)
            env["EVALUATION_TASK_CONCURRENCY"] = "1"
            hide = " && ".join(f"mount -t tmpfs -o size=1m,mode=0700 none {var[other]}"
                               for other in var if other != name)
            celery = (f"exec {PY.with_name('celery')} -A config worker --concurrency=1 --loglevel=INFO "
                      f"--hostname={name}@twohosts --without-gossip --without-mingle --without-heartbeat")
            log = tmp_path / f"{name}.log"
            workers[name] = (subprocess.Popen(["ip", "netns", "exec", host.name, "sh", "-c", f"{hide} && {celery}"],
                                              cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                                              start_new_session=True), log)
        for proc, log in workers.values():
            _wait_log(proc, log, "ready.", 120)

        # Upload through the web process and wait (bounded) for the evaluation.
        session = requests.Session()
        session.headers["Authorization"] = f"Token {token}"
        api = f"http://127.0.0.1:{port}/api/v1"
        from submissions.archives import zip_submission_folder

        resp = session.post(f"{api}/submissions/", data={"system": "Two Hosts Alpha"}, timeout=120,
                            files={"archive": ("alpha.zip", zip_submission_folder(DEMO_SUBMISSIONS / "agent-alpha"))})
        assert resp.status_code == 201, resp.text
        submission_id = resp.json()["id"]
        deadline = time.monotonic() + 1500
        while (status := session.get(f"{api}/submissions/{submission_id}/", timeout=30).json())["status"] not in (
                "finished", "failed"):
            assert time.monotonic() < deadline, f"not finished after 1500 s: {status}"
            for proc, log in workers.values():
                assert proc.poll() is None, log.read_text()[-4000:]
            time.sleep(2)
        stored = json.loads(subprocess.run([str(PY), "-c", RESULTS.format(pk=submission_id)], cwd=ROOT, env=web_env,
                                           check=True, timeout=120, capture_output=True, text=True).stdout)
        assert status["status"] == "finished", (status, stored, {n: log.read_text()[-3000:]
                                                                 for n, (_, log) in workers.items()})
        isolation = status["run"]["evaluator"]["isolation"]
        assert isolation.startswith("netns+bwrap"), isolation  # the sandbox's namespaces nest in a worker's

        # Who evaluated what: each worker fetched the bundles of its tasks into its own cache.
        taken = {name: sorted(stored["bundles"][p.name] for p in (var[name] / "cache" / "bundles").iterdir()
                              if not p.name.startswith("."))
                 if (var[name] / "cache" / "bundles").is_dir() else [] for name in ("w1", "w2")}
        scores = {name: {task: stored["tasks"][task][1:3] for task in tasks} for name, tasks in taken.items()}
        print(f"\ntwo hosts (isolation {isolation}): tasks per worker {taken}; scores (passed, total) {scores}")
        assert taken["w1"] and taken["w2"], taken
        assert sorted(taken["w1"] + taken["w2"]) == sorted(stored["tasks"]), taken
        assert not (var["web"] / "media").exists()  # the archive went to the bucket, not the web host's disk
        assert not (var["w1"] / "benchmarks").exists() and not (var["w2"] / "benchmarks").exists()

        expected = json.loads((DEMO_SUBMISSIONS / "EXPECTED.json").read_text())["agent-alpha"]
        expected.update(json.loads((DEMO_SUBMISSIONS / "EXPECTED-java.json").read_text())["agent-alpha"])
        got = {task: tuple(values[1:3]) for task, values in stored["tasks"].items()}
        assert got == {task: (e["passed"], e["total"]) for task, e in expected.items()}, (got, stored)
    finally:
        for proc, _ in workers.values():
            _stop(proc)
        _stop(web)
        _stop(moto)
        for forwarder in forwarders:
            forwarder.close()
        for host in hosts:
            host.remove()
    assert not [h for h in _sh("ip", "netns", "list").stdout.split() if h.startswith(f"twohost-{tag}")]
