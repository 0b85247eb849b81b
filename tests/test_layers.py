"""The dependency direction of docs/architecture.md "Shape": core < catalog < submissions < evaluation < leaderboard
< config.

Every import counts, function-local ones included (read from the syntax tree, not by importing). An arrow may
only point down the layers or stay inside one package, and no two modules of the project import each other,
directly or through others.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("core", "catalog", "submissions", "evaluation", "leaderboard", "config")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module name `path` imports, resolved to absolute names (relative imports included)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            found.update(f"{prefix}.{alias.name}" for alias in node.names)
    return found


def _project_files() -> list[Path]:
    return [p for layer in LAYERS for p in (ROOT / layer).rglob("*.py") if "migrations" not in p.parts]


def _graph() -> dict[str, set[str]]:
    files = _project_files()
    modules = {_module_name(p) for p in files}
    graph = {}
    for path in files:
        targets = set()
        for name in _imports(path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != _module_name(path):
                targets.add(name)
        graph[_module_name(path)] = targets
    return graph


def _layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_every_import_points_down_the_layers():
    upward = sorted(f"{source} imports {target}" for source, targets in _graph().items() for target in targets
                    if _layer(target) > _layer(source))
    assert not upward, "arrows pointing up:\n" + "\n".join(upward)


def test_the_core_imports_neither_django_nor_an_app():
    offending = []
    for path in (ROOT / "core").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in ("django", "rest_framework", "celery") or top in LAYERS[1:]:
                offending.append(f"{_module_name(path)} imports {name}")
    assert not offending, "\n".join(offending)


def test_no_two_modules_import_each_other_even_through_others():
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("package", LAYERS[:-1])
def test_every_layer_exists(package):
    assert (ROOT / package / "__init__.py").is_file()
