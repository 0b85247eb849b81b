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


def submission_modules(tests_dir: Path, repo: Path) -> set[str]:
    """Names the suite imports that the submission provides at its root (module.py or package/).

    Standard-library names and the suite's own local modules never count.
    """
    local = {p.stem for p in tests_dir.rglob("*.py")} | {p.name for p in tests_dir.rglob("*") if p.is_dir()}
    found = set()
    for name in imported_top_modules(tests_dir) - set(sys.stdlib_module_names) - local:
        if (repo / f"{name}.py").is_file() or (repo / name / "__init__.py").is_file() or (repo / name).is_dir():
            found.add(name)
    return found
