"""Fetching a benchmark folder from a git repository at a pinned commit (no database access).

`import_benchmark https://github.com/microsoft/DKI_LLM --commit c090b7d5... --subdir RepoGenesis/repo` clones
shallowly into a temporary folder, checks that the checked-out commit is the pinned one, and hands the sub-folder to
`read_benchmark`. Any git URL works (`file://` ones in tests); credentials are never asked for.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

_COMMIT = re.compile(r"^[0-9a-f]{40}$")
#: Seconds one git command may take (a clone of the RepoGenesis repository takes a few).
GIT_TIMEOUT = 300


class BenchmarkFetchError(RuntimeError):
    """The clone failed; the message says which step (network, commit, sub-folder) and what to do."""


def is_git_url(text: str) -> bool:
    """True for `https://`, `http://`, `ssh://`, `git://` and `file://` URLs and `git@host:path` forms."""
    return bool(re.match(r"^(https?|ssh|git|file)://", text)) or bool(re.match(r"^[\w.-]+@[\w.-]+:", text))


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false", "LC_ALL": "C"}
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=GIT_TIMEOUT, env=env)
    except subprocess.TimeoutExpired as exc:
        raise BenchmarkFetchError(f"git {args[0]} took longer than {GIT_TIMEOUT} s: is the network reachable?") from exc


def _last_line(proc: subprocess.CompletedProcess) -> str:
    """git's own reason: its first `fatal:`/`error:` line, else its last line."""
    lines = [line.strip() for line in (proc.stderr + proc.stdout).splitlines() if line.strip()]
    reasons = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (reasons or lines or [f"exit code {proc.returncode}"])[0 if reasons else -1]


def fetch_benchmark(*, url: str, commit: str, subdir: str, into: Path) -> Path:
    """Check out `url` at `commit` (40 hex digits) into the empty folder `into` and return `into/subdir`.

    Fetches only that commit (depth 1) where the server allows it, else the whole history. Raises
    BenchmarkFetchError when the commit is malformed, the repository cannot be reached, the commit is not in it,
    or the sub-folder does not exist at that commit.
    """
    if not _COMMIT.match(commit or ""):
        raise BenchmarkFetchError(f"--commit must be a full 40-hex-digit commit id, got {commit!r}: pin the "
                                  "exact commit you mean (git rev-parse HEAD in a clone tells it)")
    into.mkdir(parents=True, exist_ok=True)
    init = _git(["init", "-q", str(into)], into)
    if init.returncode != 0:
        raise BenchmarkFetchError(f"git init failed: {_last_line(init)}")
    _git(["remote", "add", "origin", url], into)
    shallow = _git(["fetch", "-q", "--depth", "1", "origin", commit], into)
    if shallow.returncode != 0:
        reach = _git(["ls-remote", "origin"], into)
        if reach.returncode != 0:
            raise BenchmarkFetchError(f"cannot reach {url}: {_last_line(reach)} (check the URL and the network)")
        full = _git(["fetch", "-q", "origin"], into)
        if full.returncode != 0:
            raise BenchmarkFetchError(f"cannot fetch {url}: {_last_line(full)}")
    checkout = _git(["checkout", "-q", "--detach", commit], into)
    if checkout.returncode != 0:
        raise BenchmarkFetchError(f"commit {commit} is not in {url}: check the pinned commit")
    head = _git(["rev-parse", "HEAD"], into).stdout.strip()
    if head != commit:
        raise BenchmarkFetchError(f"checked out {head}, not the pinned commit {commit}")
    folder = (into / subdir).resolve() if subdir else into.resolve()
    if into.resolve() not in (folder, *folder.parents) or not folder.is_dir():
        raise BenchmarkFetchError(f"{url} at {commit[:12]} has no folder {subdir!r}: check --subdir")
    return folder
