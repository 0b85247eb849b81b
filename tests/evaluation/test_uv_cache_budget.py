"""The shared uv cache is bounded (core.engine.uv_cache; red team round 12, shared-uv-cache-growth: a 4-line
requirements.txt of large wheels grew it from 37 MB to 528 MB on the host's disk for a task with no start script)."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from core.engine.uv_cache import create_venv, merge_into_shared, preinstall_wheels, tree_bytes
from evaluation.engine_setup import toolchain


def _put(root: Path, rel: str, data: bytes = b"x") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_staged_cache_is_merged_without_replacing_what_the_shared_one_has(tmp_path):
    tools = dataclasses.replace(toolchain(), cache_root=tmp_path / "cache")
    shared, staging = tools.uv_cache, tmp_path / "staging"
    _put(shared, "simple-v27/pypi/idna.rkyv", b"the shared index")
    _put(staging, "simple-v27/pypi/idna.rkyv", b"the staged index")
    _put(staging, "archive-v0/Abc/idna/__init__.py", b"code")
    _put(staging, "wheels-v7/pypi/idna/3.10-py3-none-any.http", b"pointer")
    os.symlink("../../../archive-v0/Abc", staging / "wheels-v7/pypi/idna/3.10-py3-none-any")
    _put(staging, ".lock", b"")

    merge_into_shared(staging, tools)

    assert (shared / "simple-v27/pypi/idna.rkyv").read_bytes() == b"the shared index"
    assert (shared / "wheels-v7/pypi/idna/3.10-py3-none-any/idna/__init__.py").read_bytes() == b"code"
    assert os.readlink(shared / "wheels-v7/pypi/idna/3.10-py3-none-any") == "../../../archive-v0/Abc"
    assert not (shared / ".lock").exists() and not list(shared.rglob("*.rg-partial"))


def test_a_merge_that_takes_the_shared_cache_over_its_size_empties_it(tmp_path):
    tools = dataclasses.replace(toolchain(), cache_root=tmp_path / "cache", uv_cache_max_bytes=1000)
    _put(tools.uv_cache, "archive-v0/Old/big.bin", b"o" * 900)
    staging = tmp_path / "staging"
    _put(staging, "archive-v0/New/big.bin", b"n" * 200)

    merge_into_shared(staging, tools)

    assert tree_bytes(tools.uv_cache) < 1000
    assert not (tools.uv_cache / "archive-v0/Old/big.bin").exists()


@pytest.mark.slow
def test_wheels_over_the_task_budget_are_installed_in_the_sandbox_not_cached(tmp_path):
    """Real uv and PyPI: with a budget smaller than the wheel, nothing reaches the shared cache and the task's
    environment is left empty for the sandboxed install; within the budget the wheel is cached for later tasks."""
    req = _put(tmp_path, "requirements.txt", b"idna==3.10\n")
    tools = dataclasses.replace(toolchain(), cache_root=tmp_path / "cache", uv_cache_task_bytes=20_000)
    venv = tmp_path / "venv"
    create_venv(venv, tools)

    ok, log = preinstall_wheels(req, venv, tools)

    assert ok is False and "per-task budget" in log, log
    assert not list(tools.uv_cache.rglob("*idna*"))
    assert not list(venv.glob("lib/python*/site-packages/idna"))
    assert not list(tools.cache_root.glob("uv-staging-*"))

    tools = dataclasses.replace(tools, uv_cache_task_bytes=50 * 2**20)
    ok, log = preinstall_wheels(req, venv, tools)
    assert ok is True, log
    assert list(venv.glob("lib/python*/site-packages/idna"))
    assert list(tools.uv_cache.glob("wheels-v*/pypi/idna/*"))
    # the next task finds it in the shared cache, offline
    other = tmp_path / "venv2"
    create_venv(other, tools)
    assert preinstall_wheels(req, other, dataclasses.replace(tools, uv_cache_task_bytes=1))[0] is True
