"""Detecting white-box suites (hidden tests that import the submission's own modules) and the runner's plugins."""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path


def imported_top_modules(tests_dir: Path) -> set[str]:
    """Top-level module names imported by the .py files under tests_dir (relative imports ignored)."""
    names: set[str] = set()
    for path in tests_dir.rglob("*.py"):
        try:
            tree = ast.parse(path.read_text(errors="replace"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def provided_modules(env_dir: Path) -> set[str]:
    """Top-level module names installed in a virtual environment (its site-packages entries)."""
    names: set[str] = set()
    for site in env_dir.glob("lib/python*/site-packages"):
        for entry in site.iterdir():
            stem = entry.name.split(".")[0].split("-")[0]
            if entry.suffix in (".py", ".so") or entry.is_dir():
                names.add(stem)
    return names


def local_modules(folder: Path) -> set[str]:
    """Module names a folder defines itself (every .py file's stem and every sub-folder's name)."""
    return {p.stem for p in folder.rglob("*.py")} | {p.name for p in folder.rglob("*") if p.is_dir()}


def submission_modules(tests_dir: Path, repo: Path, *, runner_env: Path | None = None) -> set[str]:
    """Names the suite imports that the submission provides at its root (module.py or package/).

    Standard-library names, the suite's own local modules and anything the runner's environment
    provides (pytest, requests, ...) never count, so a submission cannot shadow the runner's packages.
    """
    local = local_modules(tests_dir)
    provided = provided_modules(runner_env) if runner_env else set()
    found = set()
    for name in imported_top_modules(tests_dir) - set(sys.stdlib_module_names) - local - provided:
        if (repo / f"{name}.py").is_file() or (repo / name / "__init__.py").is_file() or (repo / name).is_dir():
            found.add(name)
    return found


def runner_plugins(env_dir: Path) -> list[str]:
    """The names of the pytest plugins the runner environment `env_dir` installs (its distributions' `pytest11`
    entry points), sorted: the runner loads each by name with `-p` and turns pytest's autoload off, so no entry
    point of the submission's (a dist-info folder at its root, say) is ever loaded."""
    from importlib.metadata import distributions

    sites = [str(site) for site in env_dir.glob("lib/python*/site-packages")]
    return sorted({ep.name for dist in distributions(path=sites) for ep in dist.entry_points
                   if ep.group == "pytest11"})


def conftest_fixtures(suite: Path) -> list[str]:
    """The fixture names the conftest.py files under `suite` define (functions decorated with `pytest.fixture`,
    `fixture` or `pytest_asyncio.fixture`, called or not; a `name=` argument wins), sorted. Read from the syntax
    tree, never imported: the platform runs no code of the suite's."""
    names: set[str] = set()
    for path in suite.rglob("conftest.py"):
        try:
            tree = ast.parse(path.read_text(errors="replace"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    name = _fixture_name(decorator, node.name)
                    if name:
                        names.add(name)
    return sorted(names)


def _fixture_name(decorator: ast.expr, default: str) -> str | None:
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call else decorator
    label = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    if label != "fixture":
        return None
    for keyword in call.keywords if call else ():
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
            return keyword.value.value
    return default


#: Where the bridge's modules live (core/engine/bridge), copied into each side's sandbox.
BRIDGE_SOURCE = Path(__file__).with_name("bridge")
#: The bridge's modules each side gets: both need the wire format.
BRIDGE_FILES = {"verdict": ("__init__.py", "wire.py", "verdict_side.py"),
                "app": ("__init__.py", "wire.py", "app_side.py")}
#: pytest's default test module patterns: files the application side's copy of the suite leaves out.
TEST_MODULE_PATTERNS = ("test_*.py", "*_test.py")


def install_bridge(folder: Path, side: str) -> Path:
    """Copy the bridge's modules for `side` ("verdict" or "app") into `folder`/rg_bridge; return that folder."""
    package = folder / "rg_bridge"
    package.mkdir(parents=True, exist_ok=True)
    for name in BRIDGE_FILES[side]:
        (package / name).write_bytes((BRIDGE_SOURCE / name).read_bytes())
    return package


def app_side_suite(suite: Path, dest: Path, target: str) -> Path:
    """Copy the suite `suite` to `dest` without its test modules (TEST_MODULE_PATTERNS) and put the platform's stub
    test beside its conftest (in `target`, the folder pytest runs); return the stub's path. The application side
    sees the suite's fixtures and helpers, never the tests that judge it."""
    shutil.copytree(suite, dest, ignore=shutil.ignore_patterns(*TEST_MODULE_PATTERNS, "reference", "__pycache__"))
    stub = dest / target / "rg_bridge_stub.py"
    stub.write_bytes((BRIDGE_SOURCE / "stub.py").read_bytes())
    return stub
