"""A team's webhook receiver cannot hold a worker (red team rt12, webhook-trickle-and-bomb): one attempt ends within
WEBHOOK_TIMEOUT_SECONDS of wall-clock time however slowly the receiver trickles its answer (httpx's timeouts bound
each read, not the exchange), the answer's body is never read or inflated (`Content-Encoding: gzip, gzip` cost 2 GB
for 1.8 KB), and deliveries run on the background queue, never in a team's evaluation slot.

The receivers are raw TCP servers on 127.0.0.1 (allowed by AGENT_ALLOWED_NETWORKS, port by port) writing exactly the
bytes of the test; the whole path runs: the submission ends, the notification task queues the delivery, Celery
(eager) runs the attempts and their retries, the delivery log records each."""
from __future__ import annotations

import gzip
import socket
import threading
import time
import tracemalloc
import zlib

import pytest

from catalog.services import team_for_user
from config.celery import app as celery_app
from evaluation.tasks import webhook_deliver
from submissions.models import WebhookDelivery
from submissions.webhooks import webhook_register
from tests.factories import finished_submission

SECRET = "a-webhook-secret-of-32-characters"
TIMEOUT = 1.0
#: Slack over WEBHOOK_TIMEOUT_SECONDS for one attempt on a busy 2-core machine.
SLACK = 1.0


class RawReceiver:
    """A TCP server on 127.0.0.1 that reads each request and then calls `answer(conn)` in a thread of its own."""

    def __init__(self, answer):
        self.answer, self.connections = answer, 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn):
        with conn:
            try:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:
                    body += conn.recv(65536)
                self.answer(conn)
            except OSError:  # the platform hung up: what these tests expect
                pass

    def close(self):
        self.sock.close()


def _trickle(conn, data: bytes, every: float) -> None:
    for i in range(len(data)):
        conn.sendall(data[i:i + 1])
        time.sleep(every)


@pytest.fixture
def receivers(settings):
    made = []

    def start(answer) -> RawReceiver:
        receiver = RawReceiver(answer)
        made.append(receiver)
        settings.AGENT_ALLOWED_NETWORKS = [f"127.0.0.1:{r.port}" for r in made]
        return receiver

    yield start
    for receiver in made:
        receiver.close()


@pytest.fixture
def hooked(settings, make_user, demo_split, django_capture_on_commit_callbacks):
    """hooked(url) registers the team's webhook, ends a submission and runs its delivery (Celery eager, retries
    without their countdown); returns (the delivery, seconds the whole delivery took)."""
    settings.WEBHOOK_TIMEOUT_SECONDS = TIMEOUT
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    settings.WEBHOOK_RETRY_BACKOFF_SECONDS = 0
    user, _ = make_user("alice")
    team = team_for_user(user=user)
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True

    def run(url: str):
        webhook_register(team=team, user=user, url=url, secret=SECRET)
        t0 = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            finished_submission(split=demo_split, system_name="Hooked Agent", team=team,
                                scores={"TodoList": (17, "passed", 1)})
        return WebhookDelivery.objects.get(), time.monotonic() - t0

    yield run
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = False


def test_a_receiver_trickling_its_status_line_fails_within_the_deadline(receivers, hooked):
    # One byte every 0.2 s: each read is far inside the 1 s timeout, the headers take 12 s in all.
    head = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"z" * 40 + b"\r\nContent-Length: 0\r\n\r\n"
    receiver = receivers(lambda conn: _trickle(conn, head, 0.2))
    delivery, seconds = hooked(receiver.url)
    for attempt in delivery.attempts_log:
        assert attempt["seconds"] <= TIMEOUT + SLACK, delivery.attempts_log
        assert attempt["error"] == delivery.error
    assert (delivery.status, delivery.attempts, delivery.http_status) == ("failed", 2, None)
    assert delivery.error.startswith(f"no answer within {TIMEOUT:g} s"), delivery.error
    assert seconds < 2 * (TIMEOUT + SLACK) + 3
    assert receiver.connections == 2


def test_a_receiver_trickling_its_body_is_delivered_without_waiting_for_it(receivers, hooked):
    # The poc's receiver: 200 and its headers at once, then one byte of a 4096-byte body every 0.5 s.
    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4096\r\n\r\n")
        _trickle(conn, b"x" * 20, 0.5)

    delivery, seconds = hooked(receivers(answer).url)
    assert delivery.attempts_log[0]["seconds"] <= TIMEOUT + SLACK, delivery.attempts_log
    assert (delivery.status, delivery.attempts, delivery.http_status, delivery.error) == ("delivered", 1, 200, "")


def test_a_compressed_bomb_answer_is_never_inflated(receivers, hooked):
    packer, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1 << 20)
    inner = b"".join(packer.compress(block) for _ in range(200)) + packer.flush()
    bomb = gzip.compress(inner, 9)  # 200 MiB of zeros after two gunzips, under 1 KB on the wire
    assert len(bomb) < 2048

    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip, gzip\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(bomb) + bomb)
        time.sleep(0.5)

    receiver = receivers(answer)
    tracemalloc.start()
    try:
        delivery, _ = hooked(receiver.url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (delivery.status, delivery.http_status) == ("delivered", 200)
    assert peak < 50 * 2**20, f"peak {peak / 2**20:.0f} MiB of Python memory for {len(bomb)} bytes on the wire"


def test_webhook_deliveries_run_on_the_background_queue_not_in_an_evaluation_slot(settings):
    route = webhook_deliver.app.amqp.router.route({}, webhook_deliver.name)
    assert route["queue"].name == settings.EVALUATION_BACKGROUND_QUEUE == "background"
