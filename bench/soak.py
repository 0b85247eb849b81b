"""The soak (issue 13): submissions through the real stack while its parts fail, then what was lost or done twice.

Usage (as root, like the worker: the local sandbox needs bubblewrap and network namespaces):
    .venv/bin/python bench/soak.py [--submissions 50] [--kills 3] [--cancels 4] [--db-outage 10] [--spread 150]
                                   [--workers 2] [--stale 20] [--deadline 600] [--keep]

What it starts, all its own and on loopback (nothing shared with `make run` or the tests): a PostgreSQL cluster
(initdb in a temporary folder, run as the `postgres` user), a Redis broker with its append-only file (as compose.yaml
runs it), `--workers` Celery workers (`--concurrency=1` each, as subprocesses, on the local sandbox backend) and one
beat, as compose.yaml does. It imports the demo benchmark and, over `--spread` seconds, submits `--submissions`
submissions holding the demo's fastest Python task only (TodoList; the other 5 tasks score `missing` without a
sandbox), in a cycle of 10: 4 uploads of agent-alpha's TodoList (`good`: expected 14/17, tests_failed), 2 of a
TodoList whose start.sh exits (`crashing`: start_crashed), 2 of a `hostile` TodoList whose start.sh first leaves a
detached process behind that ignores SIGTERM, SIGHUP and SIGINT (expected as `good`; teardown must kill it) and 2
`endpoint` runs, each of a system of its own (a system has one generating run at a time) whose agent endpoint, the
demo agent in this process, answers agent-alpha's TodoList (expected as `good`). `--cancels` of them are cancelled a few seconds after they are made. Meanwhile it SIGKILLs a
busy worker (its whole process group) `--kills` times and starts it again 3 s later, restarts Redis once
(SHUTDOWN, start again), and stops PostgreSQL for `--db-outage` seconds once (pg_ctl stop -m fast, start).
Submissions the soak makes while the database is down are tried again every second, as a user would.

At the end (every submission ended, or `--deadline` seconds after the start) it prints:
- submissions made, finished, failed (with their errors), cancelled, and **lost** (not ended);
- **scored twice**: results stored more than once (bench/soak_probe.py, loaded into the workers, logs each store),
  duplicate result rows of a run, submissions with more than one run;
- **wrong scores**: finished submissions whose results differ from a quiet run's (the expected outcomes above);
- **stuck**: runs still queued or running, results not done in a finished run;
- leftovers: network namespaces and task cgroups made during the soak and still there, processes of the sandbox
  users (`rg-s*`, `rg-r*`) still running, files left in the work root (run the soak alone: another evaluator's live
  tasks on the machine show up here too);
- the kills (with the phase of the results running at that moment), restarts, outage, and the wall time.
Exit status 0 when nothing was lost, scored twice, wrongly scored or stuck; 1 otherwise.
"""
from __future__ import annotations

import argparse
import atexit
import collections
import heapq
import io
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CELERY = str(ROOT / ".venv" / "bin" / "celery")
DEMO = ROOT / "benchmarks" / "demo"
ALPHA_TODO = ROOT / "benchmarks" / "demo-submissions" / "agent-alpha" / "TodoList"
#: What a quiet run gives each archive kind on TodoList: (outcome, tests passed).
EXPECTED = {"good": ("tests_failed", 14), "crashing": ("start_crashed", 0), "hostile": ("tests_failed", 14),
            "endpoint": ("tests_failed", 14)}
#: The kinds of the submissions, in a cycle (submission i is CYCLE[i % 10]).
CYCLE = ("good", "good", "hostile", "good", "crashing", "endpoint", "good", "hostile", "endpoint", "crashing")
#: A stray the hostile kind's start.sh leaves: detached from the service, deaf to the polite signals.
STRAY = (b"setsid sh -c 'trap \"\" TERM HUP INT; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 &\n")
AGENT_SECRET = "soak-agent-secret-0123456789abcdef"
TERMINAL = ("finished", "failed", "cancelled")


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _quietly(stop) -> None:
    """Call `stop` (a server's or worker's), ignoring that it has stopped already."""
    try:
        stop()
    except Exception:  # noqa: BLE001
        pass


# --- the servers -----------------------------------------------------------------------------------------------
class Postgres:
    """A PostgreSQL cluster of its own in `folder` (trust authentication, loopback only), run as `postgres`."""

    def __init__(self, folder: Path) -> None:
        version = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: [int(x) for x in v.split(".")])[-1]
        self.bin = Path("/usr/lib/postgresql") / version / "bin"
        self.data, self.log, self.port = folder / "pg", folder / "pg.log", free_port()
        self.data.mkdir(mode=0o700)
        shutil.chown(self.data, "postgres", "postgres")
        self.log.touch()
        shutil.chown(self.log, "postgres", "postgres")
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                          "-E", "UTF8", "--no-sync")
        self.start()
        subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-q",
                        "-c", "CREATE DATABASE soak"], check=True)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/soak"

    def _as_postgres(self, *argv: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *argv], check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-o",
                          f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} -c fsync=off", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():  # not stopped already (the outage, or the end of the soak)
            self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")


class Redis:
    """A redis-server of its own (append-only file, as compose.yaml runs the broker), loopback only."""

    def __init__(self, folder: Path) -> None:
        self.dir, self.port, self.proc = folder / "redis", free_port(), None
        self.dir.mkdir()
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--dir",
                                      str(self.dir), "--appendonly", "yes", "--save", ""],
                                     stdout=open(self.dir / "redis.log", "a"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown"], capture_output=True)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Celery:
    """A `celery worker` (or `celery beat`) subprocess in a process group of its own."""

    def __init__(self, name: str, argv: list[str], log: Path) -> None:
        self.name, self.argv, self.log, self.proc = name, argv, log, None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen([CELERY, "-A", "config", *self.argv], cwd=ROOT, stdout=open(self.log, "a"),
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def signal(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait()

    def sandboxes(self) -> int:
        """How many bubblewrap processes run below this worker (it is evaluating a task)."""
        children = collections.defaultdict(list)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                    children[int(stat.rsplit(")", 1)[1].split()[1])].append(
                        (int(entry.name), stat.split("(", 1)[1].rsplit(")", 1)[0]))
                except (OSError, IndexError, ValueError):
                    continue
        count, frontier = 0, [self.proc.pid]
        while frontier:
            for pid, comm in children.get(frontier.pop(), []):
                count += comm == "bwrap"
                frontier.append(pid)
        return count


# --- the archives ----------------------------------------------------------------------------------------------
def sandbox_processes() -> list[str]:
    """`pid user command` of every running process of a sandbox user (`rg-s*` services, `rg-r*` test runners)."""
    import pwd

    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            user = pwd.getpwuid(entry.stat().st_uid).pw_name
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, KeyError):
            continue
        if user.startswith(("rg-s", "rg-r")):
            found.append(f"{entry.name} {user} {command[:80]}")
    return found


def archive(kind: str) -> bytes:
    """A zip with one folder, TodoList: agent-alpha's (`good`), one whose start.sh exits at once (`crashing`) or
    one whose start.sh first leaves a detached process behind (`hostile`)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(ALPHA_TODO.rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                if kind == "crashing" and path.name == "start.sh":
                    data = b"echo 'this service does not start' >&2; exit 3\n"
                if kind == "hostile" and path.name == "start.sh":
                    first, rest = data.split(b"\n", 1)
                    data = first + b"\n" + STRAY + rest
                zf.writestr(f"TodoList/{path.relative_to(ALPHA_TODO)}", data)
    return buffer.getvalue()


# --- the soak --------------------------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=50)
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs of a busy worker (each started again)")
    parser.add_argument("--cancels", type=int, default=4, help="submissions cancelled a few seconds after made")
    parser.add_argument("--db-outage", type=float, default=10.0, help="seconds PostgreSQL is down (0: never)")
    parser.add_argument("--no-redis-restart", action="store_true")
    parser.add_argument("--spread", type=float, default=150.0, help="seconds over which submissions are made")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stale", type=int, default=20, help="EVALUATION_STALE_SECONDS of the workers and beat")
    parser.add_argument("--deadline", type=float, default=600.0, help="give up waiting this many seconds after start")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders (logs, database)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run it as root: the workers' sandbox and the PostgreSQL cluster (run as `postgres`) need it")
    rng = random.Random(args.seed)

    scratch = Path(tempfile.mkdtemp(prefix="rg-soak-"))
    scratch.chmod(0o755)
    var = ROOT / "var" / f"soak-{os.getpid()}"
    var.mkdir(parents=True)
    say(f"scratch {scratch}, var {var}")
    pg = Postgres(scratch)
    atexit.register(_quietly, pg.stop)  # on any exit, an error included: nothing of the soak keeps running
    redis = Redis(scratch)
    atexit.register(_quietly, redis.stop)
    cache = ROOT / "var" / "test" / "cache"
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": pg.url, "CELERY_BROKER_URL": redis.url,
        "VAR_DIR": str(var), "EVALUATION_STALE_SECONDS": str(args.stale), "EVALUATION_TASK_CONCURRENCY": "1",
        "SUBMISSION_DAILY_QUOTA": "100000", "SOAK_PROBE_LOG": str(scratch / "stores.log"),
        "AGENT_ALLOWED_NETWORKS": "127.0.0.1",
        **({"EVALUATION_CACHE_ROOT": str(cache)} if cache.is_dir() else {}),
    })
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.db import OperationalError, InterfaceError, close_old_connections, connection

    from catalog.models import Split, System
    from catalog.services import system_create, team_for_user
    from core.sandbox import cgroups, netns
    from evaluation.models import EvaluationRun, TaskResult
    from evaluation.services import generation_start, submission_cancel, submission_create
    from submissions.agents.demo_server import make_server
    from submissions.agents.services import endpoint_register
    from submissions.models import Submission

    call_command("migrate", verbosity=0)
    call_command("import_benchmark", str(DEMO), "--skip-reference-check", stdout=io.StringIO())
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user = User.objects.create_user(username="soak", password="soak-Secure-Password-1")
    system = system_create(team=team_for_user(user=user), name="Soak Agent")
    agent = make_server(source=lambda task: ALPHA_TODO if task == "TodoList" else None, secret=AGENT_SECRET)
    threading.Thread(target=agent.serve_forever, daemon=True).start()
    soak_systems = system.team.systems.all()  # the upload system and one per endpoint run
    archives = {kind: archive(kind) for kind in EXPECTED if kind != "endpoint"}
    namespaces_before, cgroups_before = set(netns.leftovers()), set(cgroups.leftovers())
    strays_before = set(sandbox_processes())

    logs = scratch / "logs"
    logs.mkdir()
    workers = [Celery(f"worker{i}", ["worker", "--concurrency=1", "-n", f"soak{i}@%h", "--loglevel=INFO",
                                     "--without-gossip", "--without-mingle", "--without-heartbeat",
                                     "--include", "bench.soak_probe"], logs / f"worker{i}.log")
               for i in range(args.workers)]
    beat = Celery("beat", ["beat", "--loglevel=INFO", "-s", str(var / "celerybeat-schedule")], logs / "beat.log")
    for proc in (*workers, beat):
        atexit.register(_quietly, proc.stop)
    for w in workers:
        deadline = time.monotonic() + 120
        while "ready." not in w.log.read_text():
            if w.proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"{w.name} did not start:\n{w.log.read_text()[-3000:]}")
            time.sleep(0.3)
    say(f"{len(workers)} workers and beat ready; PostgreSQL :{pg.port}, Redis :{redis.port}")

    # The schedule: (seconds after start, order, action, argument).
    n = args.submissions
    kinds = [CYCLE[i % len(CYCLE)] for i in range(n)]
    events: list[tuple[float, int, str, object]] = []
    order = iter(range(10 ** 9))
    for i in range(n):
        heapq.heappush(events, (args.spread * i / max(n - 1, 1), next(order), "submit", i))
    for i in sorted(rng.sample(range(n), min(args.cancels, n))):
        heapq.heappush(events, (args.spread * i / max(n - 1, 1) + rng.uniform(2, 12), next(order), "cancel", i))
    for k in range(args.kills):
        heapq.heappush(events, (args.spread * (k + 1) / (args.kills + 1) + rng.uniform(-5, 5), next(order), "kill", k))
    if not args.no_redis_restart:
        heapq.heappush(events, (args.spread * 0.35, next(order), "redis", None))
    if args.db_outage > 0:
        heapq.heappush(events, (args.spread * 0.6, next(order), "db-stop", None))

    threads: list[threading.Thread] = []
    made: dict[int, int] = {}  # submission index -> id
    facts = collections.Counter()
    kills: list[str] = []
    t0 = time.monotonic()

    def db_retry(what: str, fn):
        """Run `fn` (a database write of the soak's user), again every second while the database is down."""
        while True:
            try:
                return fn()
            except (OperationalError, InterfaceError) as exc:
                facts[f"{what} retried (database down)"] += 1
                close_old_connections()
                connection.close()
                if time.monotonic() - t0 > args.deadline:
                    raise RuntimeError(f"{what}: the database stayed down") from exc
                time.sleep(1)

    while events:
        at, _, action, arg = heapq.heappop(events)
        time.sleep(max(0.0, at - (time.monotonic() - t0)))
        now = time.monotonic() - t0
        if action == "submit":
            def submit(i=arg):
                if kinds[i] == "endpoint":
                    agent_system = (System.objects.filter(name=f"Soak Endpoint Agent {i}").first()
                                    or system_create(team=system.team, name=f"Soak Endpoint Agent {i}"))
                    endpoint_register(system=agent_system, url=f"http://127.0.0.1:{agent.server_address[1]}/",
                                      secret=AGENT_SECRET, user=user)
                    return generation_start(system=agent_system, split=split, user=user, note=f"soak {i} endpoint").pk
                before = set(Submission.objects.filter(system=system).values_list("pk", flat=True))
                upload = SimpleUploadedFile(f"soak-{i}.zip", archives[kinds[i]], content_type="application/zip")
                try:
                    return submission_create(system=system, split=split, user=user, upload=upload,
                                             note=f"soak {i} {kinds[i]}").pk
                except (OperationalError, InterfaceError):
                    raise
                except Exception as exc:  # stored, but the broker refused the message: recovery must find it
                    facts["submissions whose message the broker refused"] += 1
                    say(f"submission {i}: stored, not sent ({type(exc).__name__}: {exc})")
                    after = set(Submission.objects.filter(system=system).values_list("pk", flat=True))
                    return max(after - before)
            made[arg] = db_retry("submission", submit)
        elif action == "cancel":
            sub = db_retry("cancel", lambda i=arg: Submission.objects.get(pk=made[i]))
            was = sub.status
            try:
                db_retry("cancel", lambda: submission_cancel(submission=sub, user=user))
                facts["cancelled by the soak"] += 1
                say(f"cancelled submission #{sub.pk} ({was} when asked)")
            except Exception as exc:  # it had already ended
                say(f"cancel of #{sub.pk} refused: {exc}")
        elif action == "kill":
            deadline = time.monotonic() + 20  # wait for a worker in a sandbox, so the kill hits a task mid-way
            while time.monotonic() < deadline and not any(w.sandboxes() for w in workers):
                time.sleep(0.2)
            busy = [w for w in workers if w.sandboxes()] or workers
            victim = rng.choice(busy)
            phases = db_retry("kill", lambda: sorted(TaskResult.objects.filter(
                run__submission__system__in=soak_systems, status="running").values_list("phase", flat=True)))
            victim.signal(signal.SIGKILL)
            victim.proc.wait()
            now = time.monotonic() - t0
            kills.append(f"{victim.name} at {now:.0f} s (running: {', '.join(phases) or 'nothing'})")
            say(f"SIGKILLed {victim.name}; results running: {phases}")
            heapq.heappush(events, (now + 3, next(order), "restart", victim))
        elif action == "restart":
            arg.start()
            say(f"started {arg.name} again")
        elif action == "redis":
            redis.stop()
            say("Redis stopped")
            time.sleep(2)
            redis.start()
            facts["Redis restarts"] += 1
            say("Redis started again")
        elif action == "db-stop":
            def outage():
                pg.stop()
                say(f"PostgreSQL stopped for {args.db_outage:.0f} s")
                time.sleep(args.db_outage)
                pg.start()
                facts["database outages"] += 1
                say("PostgreSQL started again")
            connection.close()
            threads.append(threading.Thread(target=outage))
            threads[-1].start()

    for thread in threads:
        thread.join()
    say(f"all {len(made)} submissions made at {time.monotonic() - t0:.0f} s; waiting for them to end")
    last = 0.0
    while time.monotonic() - t0 < args.deadline:
        open_ = Submission.objects.filter(system__in=soak_systems).exclude(status__in=TERMINAL).count()
        if open_ == 0:
            break
        if time.monotonic() - last > 15:
            say(f"{open_} submissions not ended yet")
            last = time.monotonic()
        time.sleep(1)
    wall = time.monotonic() - t0

    # --- the checks ------------------------------------------------------------------------------------------
    subs = list(Submission.objects.filter(system__in=soak_systems).order_by("pk"))
    status = collections.Counter(s.status for s in subs)
    lost = [s for s in subs if s.status not in TERMINAL]
    stores = collections.Counter(line.split()[0] for line in (scratch / "stores.log").read_text().splitlines()) \
        if (scratch / "stores.log").exists() else collections.Counter()
    stored_twice = {rid: c for rid, c in stores.items() if c > 1}
    dup_rows = list(TaskResult.objects.filter(run__submission__in=subs).values("run_id", "task_id")
                    .annotate(c=__import__("django.db.models", fromlist=["Count"]).Count("id")).filter(c__gt=1))
    runs_per = collections.Counter(EvaluationRun.objects.filter(submission__in=subs)
                                   .values_list("submission_id", flat=True))
    two_runs = {sid: c for sid, c in runs_per.items() if c > 1}
    kind_of = {made[i]: kinds[i] for i in made}
    wrong = []
    for s in subs:
        if s.status != "finished":
            continue
        for r in TaskResult.objects.filter(run__submission=s).select_related("task"):
            want = EXPECTED[kind_of[s.pk]] if r.task.name == "TodoList" else ("missing", 0)
            if (r.outcome, r.tests_passed) != want:
                wrong.append(f"#{s.pk} {r.task.name}: {r.outcome} {r.tests_passed} (expected {want[0]} {want[1]})")
    stuck_runs = list(EvaluationRun.objects.filter(submission__in=subs, status__in=("queued", "running"))
                      .values_list("pk", "submission_id", "status", "phase"))
    stuck_results = list(TaskResult.objects.filter(run__submission__in=subs, run__status="finished")
                         .exclude(status="done").values_list("pk", "status"))
    attempts = collections.Counter(TaskResult.objects.filter(run__submission__in=subs, task__name="TodoList")
                                   .values_list("attempts", flat=True))
    failed = [f"#{s.pk}: {s.error}" for s in subs if s.status == "failed"]
    # Namespaces made meanwhile whose owner process is gone (others' live ones are not the soak's business).
    new_namespaces = sorted(n for n in set(netns.leftovers()) - namespaces_before if netns.owner_gone(n))
    new_cgroups = sorted(set(cgroups.leftovers()) - cgroups_before)
    strays = sorted(set(sandbox_processes()) - strays_before)
    work = var / "work"
    work_left = sorted(p.name for p in work.iterdir()) if work.is_dir() else []

    print()
    print("=== soak figures ===")
    print(f"submissions made       {len(subs)} ({collections.Counter(kinds[i] for i in made)})")
    print(f"ended                  finished {status['finished']}, failed {status['failed']}, "
          f"cancelled {status['cancelled']}")
    print(f"LOST (not ended)       {len(lost)} {[f'#{s.pk} {s.status}' for s in lost]}")
    print(f"SCORED TWICE           results stored more than once: {len(stored_twice)} {stored_twice}; "
          f"duplicate result rows: {len(dup_rows)}; submissions with 2+ runs: {len(two_runs)}")
    print(f"WRONG SCORES           {len(wrong)} {wrong[:10]}")
    print(f"STUCK                  runs queued/running: {len(stuck_runs)} {stuck_runs[:10]}; "
          f"results not done in finished runs: {len(stuck_results)}")
    print(f"failed submissions     {failed}")
    print(f"TodoList attempts      {dict(sorted(attempts.items()))} (1 = evaluated once; 2+ = re-claimed after a "
          "kill or fault)")
    print(f"faults                 kills {len(kills)}: {kills}")
    print(f"                       {dict(facts)}")
    print(f"leftovers              abandoned network namespaces: {new_namespaces}; task cgroups: {new_cgroups}; "
          f"sandbox users' processes: {strays}; work root entries: {work_left}")
    print(f"wall time              {wall:.0f} s (deadline {args.deadline:.0f} s)")

    connection.close()
    for stop in (*(w.stop for w in workers), beat.stop, redis.stop, pg.stop):
        _quietly(stop)
    if args.keep:
        say(f"kept {scratch} (logs, stores.log, database) and {var}")
    else:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(var, ignore_errors=True)
    agent.shutdown()
    bad = (lost or stored_twice or dup_rows or two_runs or wrong or stuck_runs or stuck_results or new_namespaces
           or new_cgroups or strays)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
