"""The agent client never inflates an answer (red team rt12, agent-endpoint-decompression-bomb): the platform asks
for `Accept-Encoding: identity`, reads bodies raw and refuses an answer that declares any other Content-Encoding
before reading its body, so a few hundred bytes on the wire cannot grow the worker by hundreds of megabytes (httpx's
decoding `iter_bytes` inflated even stacked `gzip, gzip` in one call, with no limit). Real servers on 127.0.0.1."""
import gzip
import io
import tarfile
import tracemalloc
import zlib

import pytest

from submissions.agents.client import call_agent
from submissions.agents.protocol import build_request
from tests.agents.agent_kit import SECRET, loopback_limits, repo_zip

PAYLOAD = build_request(task="TodoList", language="python", framework="flask", port=8080, readme="# Todo",
                        files={}, deadline_seconds=10)
#: What the bomb inflates to: four times the client's 50 MiB answer limit.
EXPANDED = 200 * 1024 * 1024
#: Peak Python memory the whole call may take while refusing it (the bomb itself is under 1 KB).
PEAK_LIMIT = 16 * 1024 * 1024


def _gzip_zeros(size: int) -> bytes:
    """gzip of `size` zero bytes, made 1 MiB at a time (never `size` bytes in memory)."""
    packer, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1024 * 1024)
    parts = [packer.compress(block) for _ in range(size // len(block))]
    return b"".join(parts) + packer.flush()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """`Content-Encoding: gzip, gzip`: gzip(gzip(EXPANDED zeros)), a few hundred bytes."""
    return gzip.compress(_gzip_zeros(EXPANDED), 9)


def _call(url, **limits):
    return call_agent(url=url, secret=SECRET, payload=PAYLOAD, limits=loopback_limits(**limits),
                      user_agent="RepoGenesis-Leaderboard/test (agent/1)")


def test_a_stacked_gzip_bomb_is_refused_without_being_inflated(agent_server, bomb):
    assert len(bomb) < 2048
    server = agent_server(lambda h: h.reply(200, bomb, headers={"Content-Encoding": "gzip, gzip"}))
    tracemalloc.start()
    try:
        result = _call(server.url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < PEAK_LIMIT, f"peak {peak / 2**20:.0f} MiB for {len(bomb)} bytes on the wire"
    assert not result.ok and result.attempts == 1 and result.http_status is None
    assert "Content-Encoding: gzip, gzip" in result.reason and "identity" in result.reason, result.reason
    assert result.response_bytes == 0  # not one byte of the body was read
    assert server.requests[0]["headers"]["Accept-Encoding"] == "identity"


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "identity, gzip"])
def test_a_compressed_repository_is_refused_with_the_reason(agent_server, encoding):
    # A well-formed zip, merely gzip-encoded: still refused, the team is told what to send instead.
    body = gzip.compress(repo_zip())
    server = agent_server(lambda h: h.reply(200, body, headers={"Content-Encoding": encoding}))
    result = _call(server.url)
    assert not result.ok and "refuses compressed answers" in result.reason, result.reason
    assert f"Content-Encoding: {encoding}" in result.reason


def test_identity_and_a_tar_gz_body_are_still_accepted(agent_server):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        data = b"python app.py\n"
        info = tarfile.TarInfo("start.sh")
        info.size, info.mode = len(data), 0o755
        tar.addfile(info, io.BytesIO(data))
    tar_gz = buf.getvalue()
    plain = _call(agent_server(lambda h: h.reply(200, repo_zip(), headers={"Content-Encoding": "identity"})).url)
    assert plain.ok and plain.kind == "zip"
    packed = _call(agent_server(lambda h: h.reply(200, tar_gz, "application/gzip")).url)
    assert packed.ok and packed.kind == "tar" and packed.response_bytes == len(tar_gz)
