"""Detecting white-box suites: hidden tests that import the submission's own modules."""
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


SITECUSTOMIZE = """# Written by the evaluator: the submission's code goes after the runner's own packages on sys.path.
import sys
sys.path.extend({paths!r})
"""


def append_paths_module(folder: Path, paths: list[str]) -> Path:
    """Write a sitecustomize.py into `folder` that appends `paths` to sys.path (put `folder` on PYTHONPATH).

    Unlike PYTHONPATH entries, appended paths come after site-packages, so a white-box suite can import
    the submission's modules while `requests`, `pytest` and the rest still come from the runner.
    """
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "sitecustomize.py"
    target.write_text(SITECUSTOMIZE.format(paths=paths))
    return target
