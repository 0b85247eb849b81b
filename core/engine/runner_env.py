"""Test-runner environments for hidden pytest suites, built once per requirement set and cached.

The runner's environment (docs/scoring.md "The test phase", v2) holds pytest and
pytest-timeout, `requests` and `httpx` (the RepoGenesis harness always installs both), the suite's
`tests/requirements.txt` and the task-root `requirements.txt` (minus linters, formatters, documentation and
load-testing tools, which no test imports), and the distribution of every other third-party module the suite's
files import (a static scan of their import statements, mapped by `suite_imports`). It is built by the platform
from benchmark files only (trusted input) and mounted read-only into the runner's sandbox.
"""
from __future__ import annotations

import fcntl
import hashlib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .toolchain import Toolchain
from .whitebox import imported_top_modules, local_modules

#: Requirement lines never installed into a runner: linters, formatters, documentation, notebooks, load tests.
SKIPPED = {"black", "flake8", "mypy", "pylint", "isort", "ruff", "autopep8", "pre-commit", "yapf", "sphinx",
           "sphinx-rtd-theme", "jupyter", "ipython", "notebook", "locust"}
ALWAYS = ["pytest>=7", "pytest-timeout>=2.1", "requests", "httpx"]
#: Bumped whenever what the runner installs or sets changes; hashed into every benchmark version, so results
#: scored under older rules are marked "scored on an older version" (docs/benchmark-format.md "Benchmark version").
RUNNER_RULES = "runner/v2: requests+httpx, both requirement files, scanned imports; no base-URL variables"

#: Import names whose distribution is named differently.
MODULE_DISTRIBUTIONS = {
    "jwt": "PyJWT", "yaml": "PyYAML", "bs4": "beautifulsoup4", "PIL": "Pillow", "dateutil": "python-dateutil",
    "dotenv": "python-dotenv", "jose": "python-jose", "multipart": "python-multipart", "sklearn": "scikit-learn",
    "websocket": "websocket-client", "rest_framework": "djangorestframework", "google.protobuf": "protobuf",
    "magic": "python-magic", "socketio": "python-socketio", "engineio": "python-engineio", "Crypto": "pycryptodome",
    "OpenSSL": "pyOpenSSL", "attr": "attrs", "pkg_resources": "setuptools", "email_validator": "email-validator",
    "faker": "Faker", "factory": "factory-boy", "docx": "python-docx", "pptx": "python-pptx",
}
#: Import names that are also the name of the distribution that provides them (the ones suites use).
SAME_NAME = {
    "requests", "httpx", "pytest", "flask", "fastapi", "starlette", "sqlalchemy", "pandas", "numpy", "jsonschema",
    "pydantic", "websockets", "aiohttp", "django", "werkzeug", "freezegun", "responses", "urllib3", "openpyxl",
    "reportlab", "pytz", "ujson", "orjson", "cryptography", "bcrypt", "passlib", "redis", "pymongo", "psycopg2",
    "aioresponses", "uvicorn", "eve", "marshmallow", "jinja2", "click", "lxml", "xmltodict", "toml", "tomli",
    "certifi", "idna", "six", "simplejson", "markdown", "boto3", "itsdangerous", "hypothesis", "mock", "deepdiff",
}


@dataclass(frozen=True)
class SuiteImports:
    """What a suite's import statements need: `distributions` (sorted requirement names the runner installs) and
    `unmapped` (sorted top-level names no rule maps: the submission's own modules of a white-box suite, or a
    benchmark defect to state at import)."""

    distributions: tuple[str, ...]
    unmapped: tuple[str, ...]


def fix_pytest_args(fixes: list[dict]) -> tuple[str, ...]:
    """Every pytest argument a task's documented fixes add ({"kind": "pytest-args", "args": [...]}), in order."""
    return tuple(arg for fix in fixes if fix.get("kind") == "pytest-args" for arg in fix.get("args", []))


def _distribution_for(name: str) -> str | None:
    if name in MODULE_DISTRIBUTIONS:
        return MODULE_DISTRIBUTIONS[name]
    if name in SAME_NAME:
        return name
    if name.startswith("pytest_"):  # pytest plugins: pytest_asyncio is pytest-asyncio
        return name.replace("_", "-")
    return None


def suite_imports(hidden_dir: Path) -> SuiteImports:
    """Scan the import statements of every .py file of the task folder (never executed) and map each third-party
    top-level module (not the standard library, not a module the folder defines) to its distribution."""
    names = imported_top_modules(hidden_dir) - set(sys.stdlib_module_names) - local_modules(hidden_dir)
    mapped, unmapped = set(), set()
    for name in names:
        dist = _distribution_for(name)
        (mapped.add(dist) if dist else unmapped.add(name))
    return SuiteImports(tuple(sorted(mapped)), tuple(sorted(unmapped)))


class RunnerEnvError(RuntimeError):
    """The runner environment could not be built (a platform or benchmark fault)."""


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def _requirement_name(line: str) -> str:
    match = _NAME.match(line.split(";")[0].strip())
    return match.group(0).lower() if match else ""


def runner_requirements(hidden_dir: Path) -> list[str]:
    """Requirement lines for a task's runner, sorted: ALWAYS, tests/ and task-root files (SKIPPED tools dropped),
    and the distributions of the suite's scanned imports."""
    lines: set[str] = set(ALWAYS) | set(suite_imports(hidden_dir).distributions)
    for path in (hidden_dir / "tests" / "requirements.txt", hidden_dir / "requirements.txt"):
        if not path.is_file():
            continue
        for raw in path.read_text(errors="replace").splitlines():
            line = raw.split("#", 1)[0].strip()
            if line and not line.startswith("-") and _requirement_name(line) not in SKIPPED:
                lines.add(line)
    return sorted(lines)


def ensure_runner_env(hidden_dir: Path, toolchain: Toolchain, *, timeout: float = 600) -> Path:
    """Return the path of a ready runner environment for this task (built on first use).

    Raises RunnerEnvError with uv's output when the build fails.
    """
    reqs = runner_requirements(hidden_dir)
    digest = hashlib.sha256("\n".join(reqs + [str(toolchain.python)]).encode()).hexdigest()[:16]
    target = toolchain.runner_envs / digest
    if (target / ".ready").exists():
        return target
    toolchain.runner_envs.mkdir(parents=True, exist_ok=True)
    with open(toolchain.runner_envs / f"{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".ready").exists():
            return target
        shutil.rmtree(target, ignore_errors=True)
        req_file = toolchain.runner_envs / f"{digest}.txt"
        req_file.write_text("\n".join(reqs) + "\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(toolchain.cache_root), **toolchain.install_env(platform=True)}
        for argv in ([str(toolchain.uv), "venv", "--python", str(toolchain.python), str(target)],
                     [str(toolchain.uv), "pip", "install", "--python", str(target / "bin" / "python"),
                      "-r", str(req_file)]):
            proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
            if proc.returncode != 0:
                raise RunnerEnvError(f"{' '.join(argv)} failed: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        target.chmod(0o755)
        (target / ".ready").write_text("ok")
    return target
