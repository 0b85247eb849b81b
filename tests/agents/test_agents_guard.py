"""The SSRF guard, at registration (API and page) and at call time (after DNS resolution). No test connects
to a refused address: refusals happen before any connection."""
import socket

import pytest
from rest_framework.test import APIClient

from catalog.models import System
from submissions.agents.guard import UrlRefused, check_url, parse_networks
from submissions.models import AgentEndpoint, GenerationCall
from tests.agents.agent_kit import SECRET, repo_zip

LOOPBACK = parse_networks(["127.0.0.1"])


def _resolver(mapping):
    """getaddrinfo for the names in `mapping`; numeric hosts parsed locally (no DNS query is ever sent)."""
    def resolve(host, port, **kwargs):
        if host not in mapping:
            return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in mapping[host]]
    return resolve


@pytest.mark.parametrize("url,reason", [
    ("http://169.254.169.254/latest/meta-data/", "metadata"),
    ("http://[fd00:ec2::254]/", "metadata"),
    ("http://100.100.100.200/", "metadata"),
    ("http://10.0.0.1/", "private"),
    ("http://172.16.5.4:8080/", "private"),
    ("http://192.168.0.10/", "private"),
    ("http://127.0.0.1:8000/", "loopback"),
    ("http://localhost:6379/", "loopback"),
    ("http://[::1]/", "loopback"),
    ("http://[::ffff:10.0.0.1]/", "private"),
    ("http://0.0.0.0/", "unspecified"),
    ("http://2130706433/", "loopback"),  # 127.0.0.1 as one number
    ("http://100.64.1.1/", "non-global"),
    ("http://224.0.0.1/", "multicast"),
    ("file:///etc/passwd", "only http"),
    ("gopher://example.org/", "only http"),
    ("ftp://example.org/", "only http"),
    ("http://user:pw@example.org/", "user name or password"),
    ("http:///nohost", "no host"),
    ("http://exa mple.org/", "spaces"),
    ("https://public.example:0/", "port 0 is no port"),
])
def test_forbidden_urls_are_refused(url, reason):
    with pytest.raises(UrlRefused, match=reason):
        check_url(url, resolver=_resolver({"localhost": ["127.0.0.1"], "public.example": ["93.184.216.34"]}))


def test_names_are_judged_by_every_address_they_resolve_to():
    resolver = _resolver({"internal.example": ["127.0.0.1"], "mixed.example": ["93.184.216.34", "10.1.2.3"],
                          "public.example": ["93.184.216.34"]})
    with pytest.raises(UrlRefused, match=r"internal.example \(127.0.0.1\) is a loopback"):
        check_url("http://internal.example/", resolver=resolver)
    with pytest.raises(UrlRefused, match="private"):
        check_url("https://mixed.example/", resolver=resolver)
    target = check_url("https://public.example/run", resolver=resolver)
    assert (target.host, target.port, target.address) == ("public.example", 443, "93.184.216.34")
    with pytest.raises(UrlRefused, match="cannot be resolved"):
        check_url("http://nowhere.invalid/", resolver=resolver)


def test_allowed_networks_open_only_what_they_list():
    assert check_url("http://127.0.0.1:8765/", allowed_networks=LOOPBACK).address == "127.0.0.1"
    with pytest.raises(UrlRefused):
        check_url("http://127.0.0.2:8765/", allowed_networks=LOOPBACK)
    with pytest.raises(UrlRefused):
        check_url("http://169.254.169.254/", allowed_networks=LOOPBACK)


@pytest.fixture
def owner(make_user, demo_split):
    user, token = make_user("ssrf-owner")
    system = System.objects.create(team=user.teams.get(), name="SsrfBot")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return user, system, api


@pytest.mark.parametrize("url", ["http://169.254.169.254/", "http://10.0.0.1/", "http://localhost:6379",
                                 "http://127.0.0.1:6379/", "file:///etc/passwd", "http://internal.example:8080/"])
def test_registration_refuses_forbidden_urls(owner, monkeypatch, url):
    _user, system, api = owner
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: (
        _resolver({"internal.example": ["127.0.0.1"]})(host, *a, **k) if host == "internal.example"
        else real(host, *a, **k)))
    resp = api.put(f"/api/v1/systems/{system.pk}/endpoint/", {"url": url, "secret": SECRET}, format="json")
    assert resp.status_code == 400, resp.content
    assert "refused" in resp.json()["detail"]
    assert not AgentEndpoint.objects.exists()


def test_registration_page_refuses_with_a_message(owner, client):
    user, system, _ = owner
    client.force_login(user)
    resp = client.post(f"/systems/{system.pk}/endpoint/", {"url": "http://169.254.169.254/", "secret": SECRET},
                       follow=True)
    assert b"metadata" in resp.content and not AgentEndpoint.objects.exists()


def test_loopback_is_allowed_only_through_the_setting(owner, settings):
    _, system, api = owner
    body = {"url": "http://127.0.0.1:8765/", "secret": SECRET}
    assert api.put(f"/api/v1/systems/{system.pk}/endpoint/", body, format="json").status_code == 400
    settings.AGENT_ALLOWED_NETWORKS = ["127.0.0.1"]
    assert api.put(f"/api/v1/systems/{system.pk}/endpoint/", body, format="json").status_code == 200


def test_the_address_is_checked_again_at_call_time(owner, agent_settings, agent_server):
    """Registered while loopback was allowed; allowance withdrawn: the call is refused, nothing connects."""
    from evaluation.generation import generation_execute
    from evaluation.services import generation_start
    from submissions.agents.services import endpoint_register

    user, system, _ = owner
    server = agent_server(lambda h: h.reply(200, repo_zip()))
    endpoint_register(system=system, url=server.url, secret=SECRET, user=user)
    submission = generation_start(system=system, split=owner_split(), user=user, enqueue=False)
    agent_settings.AGENT_ALLOWED_NETWORKS = []
    generation_execute(submission_id=submission.pk)
    calls = GenerationCall.objects.filter(submission=submission)
    assert {c.status for c in calls} == {"failed"}
    assert all("loopback" in c.reason for c in calls)
    assert server.requests == []
    submission.refresh_from_db()
    assert submission.status == "failed" and "loopback" in submission.error


def owner_split():
    from catalog.models import Split

    return Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")


def test_an_address_port_pair_allows_that_port_only():
    pair = parse_networks(["127.0.0.1:8765"])
    assert check_url("http://127.0.0.1:8765/", allowed_networks=pair).port == 8765
    with pytest.raises(UrlRefused, match="loopback"):
        check_url("http://127.0.0.1:8000/admin/", allowed_networks=pair)
    assert check_url("http://[::1]:9/", allowed_networks=parse_networks(["[::1]:9"])).address == "::1"
    with pytest.raises(ValueError, match="bad port"):
        parse_networks(["127.0.0.1:http"])
