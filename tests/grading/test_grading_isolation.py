"""docs/architecture.md "Shape": `grading` imports nothing from Django or the rest of the project: stdlib, httpx, numpy
and itself only."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import core.grading

PACKAGE = Path(core.grading.__file__).parent


def test_only_stdlib_httpx_and_relative_imports():
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("httpx", "numpy"):
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
