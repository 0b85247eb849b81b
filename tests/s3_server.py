"""A real S3-compatible server for the tests: moto's server mode (`moto_server`, from requirements-dev.txt) on
127.0.0.1 and a free port, and the settings that put the site's storages in a fresh bucket of it."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ACCESS_KEY, SECRET_KEY, REGION = "testing", "testing", "us-east-1"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on at `host` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def moto_start(log_path: Path, *, host: str = "127.0.0.1", timeout: float = 30) -> tuple[subprocess.Popen, str]:
    """Start `moto_server` on `host` and a free port; returns (process, endpoint URL) once it answers. Raises
    AssertionError (with its log) when it does not within `timeout` seconds."""
    port = free_port(host)
    log = open(log_path, "ab")
    proc = subprocess.Popen([str(Path(sys.executable).with_name("moto_server")), "-H", host, "-p", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://{host}:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=1):
                return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"moto_server did not start: {log_path.read_text()[-2000:]}")
            time.sleep(0.2)


def s3_client(endpoint: str):
    """A boto3 S3 client for the moto server at `endpoint`."""
    import boto3

    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
                        region_name=REGION)


def s3_environment(endpoint: str, bucket: str) -> dict[str, str]:
    """The environment a site process needs to keep its storages in `bucket` (config/settings.py)."""
    return {"AWS_STORAGE_BUCKET_NAME": bucket, "AWS_S3_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_S3_REGION_NAME": REGION}


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """moto_server on 127.0.0.1 and a free port for the session: its endpoint URL."""
    proc, url = moto_start(tmp_path_factory.mktemp("moto") / "moto.log")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def s3_storages(settings, s3_server):
    """Both storages of the site (archives, task bundles) in a fresh bucket of the moto server, as
    config/settings.py sets them from AWS_STORAGE_BUCKET_NAME; returns (boto3 client, bucket name)."""
    from boto3.s3.transfer import TransferConfig

    bucket = f"rg-{uuid.uuid4().hex[:12]}"
    client = s3_client(s3_server)
    client.create_bucket(Bucket=bucket)
    for name, value in s3_environment(s3_server, bucket).items():
        setattr(settings, name, value)
    settings.AWS_S3_ADDRESSING_STYLE, settings.AWS_DEFAULT_ACL, settings.AWS_S3_FILE_OVERWRITE = "path", None, False
    settings.AWS_S3_TRANSFER_CONFIG = TransferConfig(use_threads=False)
    s3 = "storages.backends.s3.S3Storage"
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": s3, "OPTIONS": {"location": "media"}},
                         "benchmarks": {"BACKEND": s3, "OPTIONS": {"location": "benchmarks"}}}
    return client, bucket
