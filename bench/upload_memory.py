"""The web process's memory during a large upload (issue 14 target: a 200 MB upload grows the web worker's peak RSS by
less than 50 MB).

Usage: .venv/bin/python bench/upload_memory.py [--mb 200] [--storage filesystem|s3] [--keep]

A throw-away production site (bench/prod_site.py: DJANGO_DEBUG=0, SQLite, a temporary VAR_DIR) with
SUBMISSION_MAX_UPLOAD_BYTES raised to 250 MB, the demo benchmark imported, an account with an API token and a
system; gunicorn with ONE worker process, so the process that parses the upload is known. `--storage s3` keeps the
archives in a bucket of moto's S3 server on loopback (tests/s3_server.py) instead of the filesystem.

The archive is a valid submission: a zip holding the demo task TodoList with a `--mb` MB file of random bytes
(stored, not compressed: its ratio is 1). It is sent to POST /api/v1/submissions/ as a multipart body produced by a
generator (1 MiB at a time, with its Content-Length), so the client never holds it. A small upload first warms the
worker (imports, first queries). Figures: the worker's resident memory (VmRSS) before the large upload, its peak
(VmHWM) before and after, the growth of the peak over the resident memory before, and the request's seconds.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prod_site import PY, ROOT, free_port, gunicorn_start, release, run, site_env  # noqa: E402

MB = 1024 * 1024
SETUP = r'''
import django; django.setup()
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from catalog.services import system_create, team_for_user
user = User.objects.create_user(username="bench", password="bench-Upload-Memory-1")
system_create(team=team_for_user(user=user), name="Upload Bench")
print(Token.objects.create(user=user).key)
'''


def _status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of `pid` in bytes (from /proc/<pid>/status)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) * 1024
    return fields


def make_archive(path: Path, megabytes: int) -> int:
    """A valid submission zip at `path`: TodoList/ of the demo's agent-alpha plus TodoList/blob.bin of `megabytes`
    MB of random bytes (stored); its size in bytes."""
    todo = ROOT / "benchmarks" / "demo-submissions" / "agent-alpha" / "TodoList"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(todo.rglob("*")):
            if file.is_file():
                zf.write(file, f"TodoList/{file.relative_to(todo).as_posix()}")
        with zf.open(zipfile.ZipInfo("TodoList/blob.bin"), "w", force_zip64=True) as blob:
            for _ in range(megabytes):
                blob.write(os.urandom(MB))
    return path.stat().st_size


def multipart(path: Path, fields: dict[str, str]) -> tuple[str, int, object]:
    """(content type, content length, generator of the body) of a multipart/form-data body with `fields` and the
    file at `path` as `archive`, read 1 MiB at a time."""
    boundary = uuid.uuid4().hex
    head = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                    for k, v in fields.items())
    head += (f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="{path.name}"\r\n'
             "Content-Type: application/zip\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body():
        yield head
        with open(path, "rb") as handle:
            while chunk := handle.read(MB):
                yield chunk
        yield tail

    return f"multipart/form-data; boundary={boundary}", len(head) + path.stat().st_size + len(tail), body()


def upload(url: str, token: str, path: Path) -> tuple[int, float, str]:
    """POST the archive at `path` streamed; (HTTP status, seconds, response body)."""
    content_type, length, body = multipart(path, {"system": "Upload Bench"})
    t0 = time.perf_counter()
    response = httpx.post(url, content=body, timeout=600, headers={
        "Authorization": f"Token {token}", "Content-Type": content_type, "Content-Length": str(length)})
    return response.status_code, time.perf_counter() - t0, response.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the random file in the archive (MB)")
    parser.add_argument("--storage", choices=("filesystem", "s3"), default="filesystem")
    parser.add_argument("--keep", action="store_true", help="keep the temporary VAR_DIR")
    args = parser.parse_args()
    var_dir = Path(tempfile.mkdtemp(prefix="upload-memory-"))
    port = free_port()
    extra = {"SUBMISSION_MAX_UPLOAD_BYTES": str(250 * MB), "WEB_CONCURRENCY": "1", "GUNICORN_TIMEOUT": "600",
             "GUNICORN_MAX_REQUESTS": "0"}
    moto = None
    if args.storage == "s3":
        sys.path.insert(0, str(ROOT))
        from tests.s3_server import moto_start, s3_client, s3_environment

        moto, endpoint = moto_start(var_dir / "moto.log")
        s3_client(endpoint).create_bucket(Bucket="upload-bench")
        extra.update(s3_environment(endpoint, "upload-bench"))
    env = site_env(var_dir, port, **extra)
    web = None
    try:
        release(env)
        run([PY, "manage.py", "import_benchmark", "benchmarks/demo", "--skip-reference-check"], env)
        token = run([PY, "-c", SETUP], env).strip().splitlines()[-1]
        archive = var_dir / "big.zip"
        size = make_archive(archive, args.mb)
        small = var_dir / "small.zip"
        make_archive(small, 0)
        web = gunicorn_start(env, var_dir, ready_path="/api/v1/tasks/")
        workers = psutil.Process(web.pid).children()
        assert len(workers) == 1, workers
        pid = workers[0].pid
        url = f"http://127.0.0.1:{port}/api/v1/submissions/"
        status, seconds, text = upload(url, token, small)  # warm-up: imports, queries, the upload code path
        assert status == 201, (status, text[:500])
        before = _status(pid)
        status, seconds, text = upload(url, token, archive)
        after = _status(pid)
        assert status == 201, (status, text[:500])
        stored = json.loads(text)["archive_bytes"]
        assert stored == size, (stored, size)
        growth = after["VmHWM"] - before["VmRSS"]
        figures = {"storage": args.storage, "archive_mb": round(size / MB, 1), "stored_mb": round(stored / MB, 1), "upload_seconds": round(seconds, 1),
                   "rss_before_mb": round(before["VmRSS"] / MB, 1), "peak_before_mb": round(before["VmHWM"] / MB, 1),
                   "peak_after_mb": round(after["VmHWM"] / MB, 1), "peak_growth_mb": round(growth / MB, 1),
                   "target_growth_under_50mb": growth < 50 * MB}
        print(f"{args.storage}: a {size / MB:.0f} MB archive uploaded in {seconds:.1f} s; web worker RSS before "
              f"{before['VmRSS'] / MB:.1f} MB, peak {after['VmHWM'] / MB:.1f} MB: growth {growth / MB:.1f} MB "
              f"(target < 50 MB)")
        print(json.dumps(figures))
    finally:
        if web is not None:
            web.terminate()
            web.wait(timeout=30)
        if moto is not None:
            moto.terminate()
            moto.wait(timeout=10)
        if not args.keep:
            shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
