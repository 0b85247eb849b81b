"""The agent HTTP client against real servers on 127.0.0.1: slow, timing out, garbage, 5xx then success,
redirects (allowed and forbidden), 202 + Location polling, size caps, JSON answers, the secret's reach."""
import io
import json
import logging
import socket
import time
import zipfile

import pytest

from submissions.agents.client import call_agent
from submissions.agents.demo_server import folder_source, make_server
from submissions.agents.guard import parse_networks
from submissions.agents.protocol import build_request
from tests.agents.agent_kit import ROOT, SECRET, loopback_limits, repo_zip

PAYLOAD = build_request(task="TodoList", language="python", framework="flask", port=8080, readme="# Todo",
                        files={}, deadline_seconds=10)


def _call(url, **limits):
    return call_agent(url=url, secret=SECRET, payload=PAYLOAD, limits=loopback_limits(**limits),
                      user_agent="RepoGenesis-Leaderboard/test (agent/1)")


def _names(archive: bytes) -> set[str]:
    return set(zipfile.ZipFile(io.BytesIO(archive)).namelist())


def test_a_zip_answer_is_accepted_with_the_protocol_request(agent_server):
    server = agent_server(lambda h: h.reply(200, repo_zip()))
    result = _call(server.url + "/generate")
    assert result.ok and result.kind == "zip" and result.http_status == 200 and result.attempts == 1
    assert _names(result.archive) == {"start.sh", "app.py"}
    sent = server.requests[0]
    assert sent["method"] == "POST" and sent["path"] == "/generate"
    assert sent["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert sent["headers"]["User-Agent"].startswith("RepoGenesis-Leaderboard/")
    body = json.loads(sent["body"])
    assert body["protocol"] == "agent/1" and body["task"] == "TodoList" and body["readme"] == "# Todo"
    assert set(body) == {"protocol", "task", "language", "framework", "port", "readme", "files", "instructions",
                         "deadline_seconds"}
    assert [(c.kind, c.status) for c in result.calls] == [("post", 200)]


def test_a_slow_agent_within_the_deadline_succeeds(agent_server):
    server = agent_server(lambda h: (time.sleep(1.0), h.reply(200, repo_zip())))
    result = _call(server.url, deadline=5)
    assert result.ok and result.seconds >= 1.0


def test_an_agent_that_never_answers_times_out_at_the_deadline(agent_server):
    server = agent_server(lambda h: (time.sleep(4), h.reply(200, repo_zip())))
    t0 = time.monotonic()
    result = _call(server.url, deadline=0.8)
    assert not result.ok and "deadline" in result.reason
    assert time.monotonic() - t0 < 2.5
    assert result.attempts == 1  # a time-out is not retried


def test_a_body_trickling_past_the_deadline_is_cut(agent_server):
    def trickle(h):
        h.send_response(200)
        h.send_header("Content-Type", "application/zip")
        h.end_headers()
        for _ in range(30):
            h.wfile.write(b"x" * 10)
            h.wfile.flush()
            time.sleep(0.1)

    result = _call(agent_server(trickle).url, deadline=1.0)
    assert not result.ok and "deadline" in result.reason


@pytest.mark.parametrize("body,content_type,reason", [
    (b"\x00\x01 definitely not a repository", "application/octet-stream", "neither a zip"),
    (b"{not json", "application/json", "cannot be parsed"),
    (b'{"repo": "x"}', "application/json", 'no "files"'),
    (b'{"files": {"../../etc/cron.d/x": "boom"}}', "application/json", "escapes"),
    (b'{"files": {"/etc/passwd": "root"}}', "application/json", "absolute"),
    (b'{"files": {"a.py": 42}}', "application/json", "not a string"),
    (b"", "application/zip", "empty"),
])
def test_garbage_answers_fail_with_a_reason(agent_server, body, content_type, reason):
    result = _call(agent_server(lambda h: h.reply(200, body, content_type)).url)
    assert not result.ok and reason in result.reason
    assert result.attempts == 1


def test_a_reply_that_is_not_http_fails_without_retry(raw_server):
    result = _call(raw_server(b"SSH-2.0-OpenSSH_9.2\r\ngarbage garbage\r\n\r\n"))
    assert not result.ok and "not valid HTTP" in result.reason


def test_a_json_files_answer_becomes_a_repository(agent_server):
    files = {"start.sh": "python app.py\n", "app/main.py": "print(1)\n"}
    result = _call(agent_server(lambda h: h.reply(200, json.dumps({"files": files}).encode(),
                                                  "application/json")).url)
    assert result.ok and result.kind == "json"
    zf = zipfile.ZipFile(io.BytesIO(result.archive))
    assert set(zf.namelist()) == set(files)
    assert (zf.getinfo("start.sh").external_attr >> 16) & 0o100


def test_500_then_success_is_retried(agent_server):
    count = {"n": 0}

    def flaky(h):
        count["n"] += 1
        h.reply(500, b"oops", "text/plain") if count["n"] == 1 else h.reply(200, repo_zip())

    result = _call(agent_server(flaky).url)
    assert result.ok and result.attempts == 2
    assert [c.status for c in result.calls] == [500, 200]


def test_persistent_5xx_gives_up_after_three_tries(agent_server):
    result = _call(agent_server(lambda h: h.reply(503, b"", "text/plain")).url)
    assert not result.ok and result.attempts == 3 and result.http_status == 503
    assert "HTTP 503 after 3 tries" in result.reason


def test_4xx_is_not_retried_and_the_body_is_not_echoed(agent_server):
    result = _call(agent_server(lambda h: h.reply(403, b"README LEAK: secret requirement text", "text/plain")).url)
    assert not result.ok and result.attempts == 1 and "HTTP 403" in result.reason
    assert "LEAK" not in result.reason


def test_connection_refused_is_retried_then_reported():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there
    result = _call(f"http://127.0.0.1:{port}/")
    assert not result.ok and result.attempts == 3 and "connection error" in result.reason


def test_an_oversized_answer_is_refused(agent_server):
    big = repo_zip({"blob.txt": "x" * 5000})
    assert not _call(agent_server(lambda h: h.reply(200, big)).url, max_bytes=1000).ok

    def chunked(h):  # no Content-Length: the cap applies while streaming
        h.send_response(200)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        for _ in range(20):
            h.wfile.write(b"%x\r\n%s\r\n" % (500, b"y" * 500))
        h.wfile.write(b"0\r\n\r\n")

    result = _call(agent_server(chunked).url, max_bytes=2000)
    assert not result.ok and "over the limit of 2000 bytes" in result.reason


def test_202_with_location_is_polled_until_ready():
    server = make_server(source=folder_source(ROOT / "benchmarks/demo-submissions/agent-alpha"), secret=SECRET,
                         asynchronous=True, delay=0.3)
    import threading

    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        result = _call(f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.shutdown()
        server.server_close()
    assert result.ok and "start.sh" in _names(result.archive)
    kinds = [(c.kind, c.status) for c in result.calls]
    assert kinds[0] == ("post", 202) and kinds[-1] == ("poll", 200)


def test_202_without_location_or_forever_fails(agent_server):
    result = _call(agent_server(lambda h: h.reply(202, b"{}", "application/json")).url)
    assert not result.ok and "Location" in result.reason
    forever = agent_server(lambda h: h.reply(202, b"{}", "application/json", {"Location": "/jobs/1",
                                                                             "Retry-After": "0.1"}))
    result = _call(forever.url, deadline=1.0)
    assert not result.ok and "deadline" in result.reason  # still working, or cut while reading a poll


def test_redirects_are_followed_by_hand_within_the_same_server(agent_server):
    def behaviour(h):
        if h.path == "/old":
            h.reply(307, b"", headers={"Location": "/new"})
        else:
            h.reply(200, repo_zip())

    server = agent_server(behaviour)
    result = _call(server.url + "/old")
    assert result.ok
    assert [(r["method"], r["path"]) for r in server.requests] == [("POST", "/old"), ("POST", "/new")]
    assert [c.kind for c in result.calls] == ["post", "redirect"]


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
                                    "http://[::1]:6379/", "file:///etc/passwd", "http://192.168.1.1:8080/x"])
def test_redirects_to_forbidden_addresses_are_refused(agent_server, target):
    server = agent_server(lambda h: h.reply(302, b"", headers={"Location": target}))
    result = _call(server.url)
    assert not result.ok and "refused to call" in result.reason
    assert len(server.requests) == 1


def test_the_secret_goes_only_to_the_endpoints_origin(agent_server):
    other = agent_server(lambda h: h.reply(200, repo_zip()))
    first = agent_server(lambda h: h.reply(302, b"", headers={"Location": other.url + "/elsewhere"}))
    pairs = parse_networks([f"127.0.0.1:{first.server_address[1]}", f"127.0.0.1:{other.server_address[1]}"])
    result = call_agent(url=first.url, secret=SECRET, payload=PAYLOAD, limits=loopback_limits(allowed_networks=pairs),
                        user_agent="t")
    assert result.ok, result.reason
    assert first.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert "Authorization" not in other.requests[0]["headers"]


def test_a_redirect_into_another_local_service_is_never_followed(agent_server):
    """With a whole network allowed (127.0.0.1, every port), an agent's redirect to another port of it (the site's
    own admin, say) is refused; only the endpoint's own address and port, or a pair named with its port, are."""
    site = agent_server(lambda h: h.reply(200, repo_zip()))  # stands for the site: answers anything
    agent = agent_server(lambda h: h.reply(302, b"", headers={"Location": site.url + "/admin/"}))
    result = _call(agent.url)
    assert not result.ok and "redirect" in result.reason and site.requests == []
    port = agent.server_address[1]
    result = call_agent(url=agent.url, secret=SECRET, payload=PAYLOAD, user_agent="t",
                        limits=loopback_limits(allowed_networks=parse_networks([f"127.0.0.1:{port}"])))
    assert not result.ok and site.requests == []  # a pair allows its own port only


def test_the_connection_goes_to_the_checked_address_with_the_name_as_host(agent_server):
    server = agent_server(lambda h: h.reply(200, repo_zip()))
    port = server.server_address[1]
    answers = {"agent.test": "127.0.0.1"}

    def resolver(host, port_, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port_))]

    result = call_agent(url=f"http://agent.test:{port}/", secret=SECRET, payload=PAYLOAD,
                        limits=loopback_limits(), user_agent="t", resolver=resolver)
    assert result.ok and server.requests[0]["headers"]["Host"] == f"agent.test:{port}"
    answers["agent.test"] = "10.0.0.1"  # the name now points inside: refused before any connection
    result = call_agent(url=f"http://agent.test:{port}/", secret=SECRET, payload=PAYLOAD,
                        limits=loopback_limits(), user_agent="t", resolver=resolver)
    assert not result.ok and "private" in result.reason and len(server.requests) == 1


def test_the_secret_is_never_logged(agent_server, caplog):
    caplog.set_level(logging.DEBUG)
    server = agent_server(lambda h: h.reply(500, SECRET.encode(), "text/plain"))
    result = _call(server.url)
    assert not result.ok
    assert "agent call post" in caplog.text
    assert SECRET not in caplog.text and SECRET not in result.reason
    assert all(SECRET not in json.dumps(c.as_dict()) for c in result.calls)
