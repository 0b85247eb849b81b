"""Detecting white-box suites (hidden tests that import the submission's own modules) and the runner's plugins."""
from __future__ import annotations

import ast
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
