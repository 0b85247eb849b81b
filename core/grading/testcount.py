"""Static counts of hidden test cases (docs/scoring.md "Metrics per task": `tests_total` N;
docs/benchmark-format.md "What real suites look like").

Python: the larger of this count and pytest's collect-only count is N (white-box suites: this count alone).
Java: this count is N. Source is parsed (`ast`) or scanned, never imported or run.
"""
from __future__ import annotations

import ast
import configparser
import fnmatch
import os
import re
from collections import ChainMap
from collections.abc import Mapping
from pathlib import Path

from . import _source as src

DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", ".venv", "venv", "target"})


def count_python_tests(tests_dir: Path) -> int:
    """Number of pytest test cases defined under `tests_dir`, counted statically.

    Files: `test_*.py` and `*_test.py` (or the `python_files` patterns of a `[pytest]`/`[tool:pytest]` section in
    `pytest.ini`, `setup.cfg` or `tox.ini` found in `tests_dir` or its parent), recursively, hidden and cache
    directories skipped. In each module (later definitions of a name replace earlier ones, as in Python):
    - module-level `def test*` / `async def test*` that are not fixtures;
    - `test*` methods of classes named `Test*` without `__init__` and without `__test__ = False`, including
      methods inherited from base classes of the same module and nested `Test*` classes;
    - each `@pytest.mark.parametrize(names, values)` whose values are a literal list/tuple multiplies by its
      length (stacked decorators multiply; a non-literal counts 1); a parametrize on a class multiplies its methods;
      a module `pytestmark` parametrize multiplies every test of the module.
    Fixture parametrisation is not counted. Files that do not parse count 0.
    Returns 0 when `tests_dir` does not exist.
    """
    root = Path(tests_dir)
    if not root.is_dir():
        return 0
    patterns = _python_file_patterns(root)
    total = 0
    for path in _walk(root):
        if path.suffix == ".py" and any(fnmatch.fnmatch(path.name, p) for p in patterns):
            total += _count_module(path)
    return total


def count_java_tests(test_root: Path) -> int:
    """Number of JUnit test cases declared in `.java`/`.kt` files under `test_root`, counted statically.

    Per method (comments ignored): `@Test` -> 1; `@RepeatedTest(n)` -> n; `@ParameterizedTest` -> the number of
    values of a literal `@ValueSource(strings|ints|longs|doubles|... = {...})` or the rows of a literal
    `@CsvSource({...})` (or its `textBlock`), plus 1 each for `@NullSource`/`@EmptySource`
    (`@NullAndEmptySource` -> 2); 1 when the arguments are not literal (`@MethodSource`, `@EnumSource`, ...);
    `@TestFactory`/`@TestTemplate` -> 1.
    Returns 0 when `test_root` does not exist.
    """
    root = Path(test_root)
    if not root.is_dir():
        return 0
    total = 0
    for path in _walk(root):
        if path.suffix in (".java", ".kt"):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            total += _count_java_text(src.strip_c_comments(text))
    return total


# --- files -----------------------------------------------------------------------------------------------------


def _walk(root: Path):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(filenames):
            yield Path(dirpath) / name


def _python_file_patterns(tests_dir: Path) -> tuple[str, ...]:
    for folder in (tests_dir, tests_dir.parent):
        for name, section in (("pytest.ini", "pytest"), ("setup.cfg", "tool:pytest"), ("tox.ini", "pytest")):
            path = folder / name
            if not path.is_file():
                continue
            parser = configparser.ConfigParser(interpolation=None)
            try:
                parser.read(path, encoding="utf-8")
            except (configparser.Error, UnicodeDecodeError):
                continue
            if parser.has_section(section):
                value = parser.get(section, "python_files", fallback=None)
                if value and value.split():
                    return tuple(value.split())
                if name == "pytest.ini":
                    return DEFAULT_PYTHON_FILES
    return DEFAULT_PYTHON_FILES


# --- Python ----------------------------------------------------------------------------------------------------


def _count_module(path: Path) -> int:
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError, OSError):
        return 0
    module_factor = 1
    members: dict[str, ast.stmt] = {}
    scope: dict[str, ast.ClassDef] = {}
    infos: dict[ast.ClassDef, _ClassInfo] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            members[node.name] = node
            if isinstance(node, ast.ClassDef):
                infos[node] = _class_info(node, scope, infos)
                scope[node.name] = node
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            marks = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            module_factor = _product(_parametrize_size(m) for m in marks)
    count = 0
    for node in members.values():
        if isinstance(node, ast.ClassDef):
            count += _count_class(node, infos)
        elif node.name.startswith("test") and not _is_fixture(node):
            count += _decorator_factor(node)
    return count * module_factor


# A class's test methods and nested classes, its own and those inherited from same-module bases (subclass wins),
# and whether `__test__ = False` is set.
_ClassInfo = tuple[dict[str, ast.FunctionDef | ast.AsyncFunctionDef], dict[str, ast.ClassDef], bool]


def _count_class(node: ast.ClassDef, infos: dict[ast.ClassDef, _ClassInfo]) -> int:
    if not node.name.startswith("Test"):
        return 0
    methods, nested, excluded = infos[node]
    if excluded or "__init__" in methods:
        return 0
    count = sum(
        _decorator_factor(m) for name, m in methods.items() if name.startswith("test") and not _is_fixture(m)
    )
    count += sum(_count_class(c, infos) for c in nested.values())
    return count * _decorator_factor(node)


def _class_info(node: ast.ClassDef, scope: Mapping[str, ast.ClassDef], infos: dict[ast.ClassDef, _ClassInfo]
                ) -> _ClassInfo:
    """`node`'s `_ClassInfo`, its bases read as Python does when the class statement runs: a base name is the class
    last bound to it *before* `node` (`class TestA(TestA)` extends the earlier TestA; a later class of a base's name
    changes nothing), in `scope` (the module's classes so far, or a class body's own before the module's). Every
    base's info is already in `infos`, so an inheritance chain of any length is read without recursion."""
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    nested: dict[str, ast.ClassDef] = {}
    excluded = False
    for base in reversed(node.bases):
        resolved = scope.get(base.id) if isinstance(base, ast.Name) else None
        if resolved is not None:
            m, n, e = infos[resolved]
            methods.update(m)
            nested.update(n)
            excluded = e
    local: dict[str, ast.ClassDef] = {}
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods[stmt.name] = stmt
        elif isinstance(stmt, ast.ClassDef):
            infos[stmt] = _class_info(stmt, ChainMap(local, scope), infos)
            local[stmt.name] = stmt
            nested[stmt.name] = stmt
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__test__" for t in stmt.targets):
            excluded = isinstance(stmt.value, ast.Constant) and not stmt.value.value
    return methods, nested, excluded


def _decorator_factor(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return _product(_parametrize_size(d) for d in node.decorator_list)


def _parametrize_size(expr: ast.expr) -> int:
    """Length of a literal `parametrize(names, [values])` (values may be a keyword `argvalues=`); 1 otherwise."""
    if not (isinstance(expr, ast.Call) and _dotted_tail(expr.func) == "parametrize"):
        return 1
    values = expr.args[1] if len(expr.args) > 1 else None
    for kw in expr.keywords:
        if kw.arg == "argvalues":
            values = kw.value
    if isinstance(values, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in values.elts):
        return len(values.elts)
    return 1


def _is_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if _dotted_tail(target) == "fixture":
            return True
    return False


def _dotted_tail(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return None


def _product(values) -> int:
    result = 1
    for v in values:
        result *= v
    return result


# --- Java ------------------------------------------------------------------------------------------------------

_ARRAY_KEYS = ("strings", "ints", "longs", "doubles", "floats", "shorts", "bytes", "chars", "booleans", "classes")


def _count_java_text(text: str) -> int:
    total = 0
    for block in src.annotation_blocks(text):
        if block.on_type:
            continue
        names = {a.name for a in block.annotations}
        if "RepeatedTest" in names:
            total += _repeated(block.get("RepeatedTest").args)
        elif "ParameterizedTest" in names:
            total += _parameterized(block)
        elif names & {"Test", "TestFactory", "TestTemplate"}:
            total += 1
    return total


def _repeated(args: str | None) -> int:
    if args is None:
        return 1
    expr = src.keyword_arg(args, "value")
    if expr is None:
        positional = src.positional_args(args)
        expr = positional[0] if positional else ""
    return int(expr) if expr.strip().isdigit() else 1


def _parameterized(block: src.AnnotationBlock) -> int:
    count = 0
    value_source = block.get("ValueSource")
    csv_source = block.get("CsvSource")
    if value_source is not None and value_source.args:
        expr = src.keyword_arg(value_source.args, *_ARRAY_KEYS)
        count += _array_length(expr) if expr is not None else 0
    if csv_source is not None and csv_source.args:
        expr = src.keyword_arg(csv_source.args, "value", "textBlock")
        if expr is None:
            positional = src.positional_args(csv_source.args)
            expr = positional[0] if positional else None
        count += _array_length(expr, csv_rows=True) if expr is not None else 0
    for a in block.annotations:
        count += {"NullSource": 1, "EmptySource": 1, "NullAndEmptySource": 2}.get(a.name, 0)
    return count or 1


def _array_length(expr: str, *, csv_rows: bool = False) -> int:
    """Elements of an annotation's array value: `{a, b}` holds 2; any other constant expression (`"a"`, `1`,
    `"a" + "b"`, `Constants.NAME`) is a one-element array (JLS §9.7.1: a single element value stands for an array
    of one). With `csv_rows` (CsvSource's value or textBlock), a text block is one row per non-blank line. 0 for a
    blank value."""
    expr = expr.strip()
    if not expr:
        return 0
    if expr.startswith("{") and expr.endswith("}"):
        inner = src.balanced(expr, 0)
        return len(src.split_top_level(inner or ""))
    literals = src.string_literals(expr) if csv_rows and expr.startswith('"""') else []
    if literals:
        return sum(1 for line in literals[0].splitlines() if line.strip())
    return 1
