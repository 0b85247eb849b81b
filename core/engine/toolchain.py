"""Where the engine finds its tools and caches (plain paths; the Django side fills it from settings)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .maven_repo import open_to_overlay


def _default_uv() -> Path:
    found = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    return Path(found)


@dataclass(frozen=True)
class Toolchain:
    """Tools and caches for one worker.

    - `uv`: the uv binary; `python`: the interpreter sandboxed virtual environments are built on.
    - `cache_root`: holds `uv/` (the shared wheel cache, written only by the platform), `uv-platform/`
      (cache for runner environments) and `runner-envs/` (test-runner environments).
    - `maven_repo`: the local Maven repository mounted read-only; `maven_offline` adds `-o`; `maven_central`: where
      an online build's downloads are checked before a hidden test run may load them (core.engine.maven_verify).
    - `ssl_cert_file`: CA bundle handed to installs (some registries sit behind a TLS proxy).
    - `package_hosts`: the only hosts the install phase may reach (HTTPS, through the sandbox's egress proxy).
    - `uv_cache_task_bytes`: what one task's pre-install may add to the shared wheel cache (bytes; over it the task
      installs in the sandbox, uncached); `uv_cache_max_bytes`: a merge that takes the shared cache over this many
      bytes empties it (core.engine.uv_cache).
    """

    uv: Path = field(default_factory=_default_uv)
    python: Path = Path("/usr/bin/python3")
    cache_root: Path = Path("var/cache")
    maven_repo: Path = Path.home() / ".m2" / "repository"
    maven_offline: bool = True
    maven_central: str = "https://repo.maven.apache.org/maven2/"
    ssl_cert_file: Path | None = Path("/etc/ssl/certs/ca-certificates.crt")
    package_hosts: tuple[str, ...] = ("pypi.org", "files.pythonhosted.org", "repo.maven.apache.org",
                                      "repo1.maven.org")
    uv_cache_task_bytes: int = 256 * 2**20
    uv_cache_max_bytes: int = 4 * 2**30

    @property
    def uv_cache(self) -> Path:
        return self.cache_root / "uv"

    @property
    def platform_uv_cache(self) -> Path:
        """uv cache for environments the platform builds itself (test runners); never mounted in a sandbox."""
        return self.cache_root / "uv-platform"

    @property
    def runner_envs(self) -> Path:
        return self.cache_root / "runner-envs"

    def install_env(self, *, platform: bool = False, shared: bool = False, cache: Path | None = None) -> dict[str, str]:
        """Environment for install commands: which uv cache (`platform`: the runners' own; `shared`: the
        wheel cache the platform warms; else `cache`), the CA bundle, no user config."""
        chosen = self.platform_uv_cache if platform else self.uv_cache if shared else cache or self.uv_cache
        env = {"UV_CACHE_DIR": str(chosen), "UV_NO_CONFIG": "1", "UV_PYTHON_DOWNLOADS": "never",
               "UV_LINK_MODE": "copy"}
        if self.ssl_cert_file and self.ssl_cert_file.exists():
            env["SSL_CERT_FILE"] = str(self.ssl_cert_file)
        return env

    def maven_args(self, *, repo: Path | None = None, offline: bool | None = None) -> list[str]:
        """Common Maven flags: batch mode, the local repository (`repo`, default the platform's), offline when
        asked (default: when configured)."""
        args = ["-B", f"-Dmaven.repo.local={repo or self.maven_repo}"]
        return args + (["-o"] if (self.maven_offline if offline is None else offline) else [])


def seed_maven_repo(*, target: Path, source: Path) -> Path:
    """Make `target` the platform's Maven repository: a copy of `source` (hard links where possible) that tasks
    reach only through their overlay (maven_repo.prepare) or read-only, so its modes are opened for copy-up.

    The sandbox users cannot enter a repository under /root. Idempotent: an existing `target` is kept.
    Returns `target`.
    """
    if (target / ".seeded").exists() or not source.is_dir():
        if target.is_dir() and not (target / ".overlay-modes").exists():  # seeded before overlays were used
            open_to_overlay(target)
            (target / ".overlay-modes").write_text("1")
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    if subprocess.run(["cp", "-al", str(source), str(tmp)], capture_output=True).returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(source, tmp)
    open_to_overlay(tmp)
    (tmp / ".overlay-modes").write_text("1")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    (target / ".seeded").write_text(str(source))
    return target


def _first_line(argv: list[str]) -> str:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    text = (proc.stdout or proc.stderr).strip().splitlines()
    return text[0] if text else "unavailable"


def tool_versions(toolchain: Toolchain) -> dict[str, str]:
    """Versions of what evaluates submissions (stamped on every run for reproducibility):
    {"python": ..., "java": ..., "maven": ..., "uv": ...}, each the tool's own first line of output."""
    return {
        "python": _first_line([str(toolchain.python), "--version"]),
        "java": _first_line(["java", "-version"]),
        "maven": _first_line(["mvn", "-v", "-q"]) if shutil.which("mvn") else "unavailable",
        "uv": _first_line([str(toolchain.uv), "--version"]),
    }
