"""The static route check of docs/scoring.md "API Coverage": does some non-test source file declare a route for an
endpoint's method whose path literal matches the endpoint's normalised path?

Used when the service is not up or the dynamic probe was inconclusive. Source is scanned lexically (regular
expressions over comment-stripped text); nothing of the submission is imported or executed.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from . import _source as src
from .dispatch_routes import dispatch_routes, is_dispatcher
from .paths import HTTP_METHODS, Endpoint, normalize_path
from .untrusted_files import UntrustedTreeError, read_regular, walk_untrusted

#: Files larger than this are not read.
MAX_FILE_BYTES = 1024 * 1024
#: At most this many source files are read per repository.
MAX_FILES = 5000
#: The whole static check of one repository costs at most this much host CPU (issue 15: one 32 KB file of "f(" took
#: 80 s): characters of work (each file's text once, each argument list analysed; the 30 reference solutions of
#: RepoGenesis Verified take 0.6 M at most) and seconds. Past either, the check stops where it is: the routes found
#: so far count, and the task's detail says the check stopped.
BUDGET_CHARS = 10_000_000
BUDGET_SECONDS = 10.0
SOURCE_SUFFIXES = (".py", ".java", ".kt", ".js", ".ts")
SKIP_DIRS = frozenset({"node_modules", ".venv", "venv", "target", "tests", "__pycache__", "site-packages"})

EXACT, SUFFIX, PREFIX = "exact", "suffix", "prefix"

_M = "|".join(HTTP_METHODS)
_LOWER_M = "|".join(m.lower() for m in HTTP_METHODS)
_Q = r"""[rbuf]{0,2}(?:"[^"\n]*"|'[^'\n]*')"""  # a Python string literal with an optional prefix


@dataclass(frozen=True)
class Route:
    """A route declaration found in source.

    `methods`: upper-case methods it serves, or None for any method. `path`: the path literal as written.
    `kind`: `exact` (path must equal the endpoint's, after an optional known prefix), `suffix` (Django/DRF
    literals whose include() prefix is unknown: the endpoint's path must end with it) or `prefix` (JDK
    `createContext`: the endpoint's path must start with it). `file`: path relative to the repository.
    """

    methods: frozenset[str] | None
    path: str
    kind: str
    file: str

    def serves(self, method: str) -> bool:
        """True when the route answers `method` (HEAD is served by GET routes, as frameworks do)."""
        if self.methods is None:
            return True
        return method in self.methods or (method == "HEAD" and "GET" in self.methods)


@dataclass(frozen=True)
class RouteScan:
    """Everything declared in a repository: `routes`, and `prefixes` that routers, blueprints, class-level
    mappings or Django include() put in front of route literals (always contains "")."""

    routes: tuple[Route, ...]
    prefixes: frozenset[str]
    stopped: str | None = None


@dataclass(frozen=True)
class StaticCheck:
    """The static check's answer: `found` {endpoint: True when declared}, and `stopped`, a sentence saying why the
    scan stopped before the end of the repository (budget spent, tree too deep), or None when it read everything."""

    found: dict[Endpoint, bool]
    stopped: str | None = None


def static_routes_match(*, repo_dir: Path, endpoints: list[Endpoint]) -> dict[Endpoint, bool]:
    """For each endpoint, True when a non-test source file of `repo_dir` declares a route for it.

    Files read: `.py .java .kt .js .ts` up to 1 MiB, at most 5,000, symlinks not followed; skipped: hidden
    directories, `tests/`, `src/test/`, `node_modules`, `.venv`, `venv`, `target`, `test_*.py`, `*_test.py`,
    `conftest.py`, `*Test.java`/`*Tests.java`/`*IT.java`, `*.test.js`/`*.spec.ts`-style files.

    Recognised declarations (the method comes from the declaration; see `Route` for the match kinds):
    - Python: Flask/Quart `@app.route("/x", methods=[...])` (default GET; on a class: any method),
      `add_url_rule`, FastAPI/Flask 2 `@app.get("/x")`/`@router.post(...)`, `@app.api_route(..., methods=...)`,
      aiohttp `web.get("/x", h)`/`router.add_get(...)`/`add_route("GET", "/x", h)`, Starlette
      `Route("/x", h, methods=[...])` (default any), Flask-RESTful `add_resource(R, "/x")` (any method),
      Django `path("x/", view)`/`re_path(r"^x/$", view)`/`url(...)` (any method, `suffix`), DRF
      `router.register(r"x", ViewSet)` (`x` and `x/{param}`, any method, `suffix`).
      A router assigned to a name in the file (`router = APIRouter(prefix="/x")`, `bp = Blueprint(...,
      url_prefix="/x")`, flask-restx `Namespace(path=...)`) prefixes that name's routes; prefixes that may apply to
      routers of other files: `include_router(..., prefix=)`, `register_blueprint(..., url_prefix=)`,
      `Mount("/x")`, Django `path("x/", include(...))`.
    - Java/Kotlin: Spring `@GetMapping`/`@PostMapping`/`@PutMapping`/`@PatchMapping`/`@DeleteMapping`,
      `@RequestMapping(value=..., method=RequestMethod.X)` (no method: any), JAX-RS/Quarkus `@Path` + `@GET`,
      Micronaut `@Get("/x")`, Javalin/Spark/Ktor `app.get("/x", ...)`, `get("/x", ...)`, `Spark.post(...)`,
      Javalin `addHandler(HandlerType.GET, "/x", h)`, JDK HttpServer `createContext("/x", h)` (any method,
      `prefix`; a root context "/" matches only "/"). A class-level `@RequestMapping`/`@Path`/`@Controller`
      prefixes the routes of that class; repository-wide prefixes: `@ApplicationPath`, Javalin/Spark
      `path("/x", () -> ...)`, Ktor `route("/x")`.
    - hand-written dispatchers (module `dispatch_routes`: JDK `HttpServer` handlers, `http.server`, Node
      `createServer`): request-path comparisons `path.equals("/x")`, `"/x".equals(path)`, `path == "/x"`,
      `case "/x"`, `path.matches("/x/[^/]+")`, `Pattern.compile`/`re.match` regexes, `startsWith("/x/")` (`prefix`),
      with the method from the enclosing `do_GET` or from method literals on the same line or after it.
    - JavaScript/TypeScript: Express `app.get("/x", ...)`, `router.route("/x").get(...)`, NestJS `@Get(":id")`
      under its class's `@Controller("x")`; repository-wide prefix `app.use("/x", router)`.
    Path literals are compared after `normalize_path` (so `<int:id>`, `{id}`, `:id` all match `{param}`), with
    every repository-wide prefix (and pairs of them) tried in front of `exact` literals.
    Returns {endpoint: bool} for every given endpoint. Never raises for unreadable files (they are skipped).
    The scan is bounded (BUDGET_CHARS, BUDGET_SECONDS, folders at most MAX_TREE_DEPTH deep): `static_routes_check`
    also says when it stopped early.
    """
    return static_routes_check(repo_dir=repo_dir, endpoints=endpoints).found


def static_routes_check(*, repo_dir: Path, endpoints: list[Endpoint], budget_chars: int = BUDGET_CHARS,
                        budget_seconds: float = BUDGET_SECONDS) -> StaticCheck:
    """`static_routes_match` and whether the scan stopped early: the scan of `repo_dir` costs at most
    `budget_chars` characters of work and `budget_seconds` of wall-clock time; past either (or at a folder nested
    deeper than MAX_TREE_DEPTH) it stops, the routes found so far count and `stopped` says why. Never raises for
    what the repository holds."""
    scan = scan_routes(repo_dir, budget=src.Budget(budget_chars, budget_seconds))
    found = {endpoint: route_declared(scan=scan, endpoint=endpoint) for endpoint in endpoints}
    return StaticCheck(found, scan.stopped)


def route_declared(*, scan: RouteScan, endpoint: Endpoint) -> bool:
    """True when some route of `scan` serves `endpoint.method` on a path matching `endpoint.path`."""
    target = normalize_path(endpoint.path)
    target_segments = _segments(target)
    prefixes = _prefix_combinations(scan.prefixes)
    for route in scan.routes:
        if not route.serves(endpoint.method):
            continue
        literal = normalize_path(route.path)
        if route.kind == PREFIX:
            # startsWith("/api/items/") needs a segment after the slash; a context "/api/items" does not
            strict = route.path.endswith("/")
            for p in prefixes:
                segments = _segments(normalize_path(p + "/" + literal))
                if segments and target_segments[: len(segments)] == segments:
                    if not strict or len(target_segments) > len(segments):
                        return True
            continue
        if any(normalize_path(p + "/" + literal) == target for p in prefixes):
            return True
        segments = _segments(literal)
        if route.kind == SUFFIX and segments and target_segments[-len(segments) :] == segments:
            return True
    return False


def scan_routes(repo_dir: Path, budget: src.Budget | None = None) -> RouteScan:
    """All route declarations and path prefixes in the non-test source files of `repo_dir` (see
    `static_routes_match` for what is recognised and skipped). A missing directory gives an empty scan.
    `budget` (default: BUDGET_CHARS, BUDGET_SECONDS) bounds the work; when it runs out, or a folder is nested deeper
    than MAX_TREE_DEPTH, the scan stops there: what was found counts and `stopped` says why."""
    if budget is None:
        budget = src.Budget(BUDGET_CHARS, BUDGET_SECONDS)
    routes: list[Route] = []
    prefixes: set[str] = {""}
    stopped = None
    try:
        for path in _source_files(Path(repo_dir)):
            data = read_regular(path, MAX_FILE_BYTES)  # None for a FIFO, socket or device (never opened blocking)
            if data is None:
                continue
            text = data.decode("utf-8", errors="replace")
            budget.charge(len(text))
            rel = path.relative_to(repo_dir).as_posix()
            python = path.suffix == ".py"
            code = src.strip_hash_comments(text) if python else src.strip_c_comments(text)
            found, found_prefixes = _python_routes(code, rel, budget) if python else _jvm_js_routes(code, rel, budget)
            routes.extend(found)
            if is_dispatcher(code):
                routes.extend(
                    Route(methods, literal, PREFIX if is_prefix else EXACT, rel)
                    for methods, literal, is_prefix in dispatch_routes(code, python=python)
                )
            prefixes.update(found_prefixes)
    except src.BudgetExceeded as exc:
        stopped = f"the static route check stopped early: the repository has {exc}"
    except UntrustedTreeError as exc:
        stopped = f"the static route check stopped early: {exc}"
    return RouteScan(tuple(routes), frozenset(prefixes), stopped)


# --- files -----------------------------------------------------------------------------------------------------

_TEST_FILE = re.compile(
    r"^(test_.*\.py|.*_test\.py|conftest\.py|.*(Test|Tests|IT)\.(java|kt)|.*\.(test|spec)\.(js|ts))$"
)


def _source_files(root: Path) -> Iterator[Path]:
    count = 0
    for dirpath, _, dirnames, filenames in walk_untrusted(root):  # links are files there, never followed
        here = Path(dirpath)
        dirnames[:] = [
            d
            for d in dirnames
            if not d.startswith(".")
            and d not in SKIP_DIRS
            and not (d == "test" and here.name == "src")
        ]
        for name in filenames:
            path = here / name
            if not name.endswith(SOURCE_SUFFIXES) or _TEST_FILE.match(name) or path.is_symlink():
                continue
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
            except OSError:
                continue
            count += 1
            if count > MAX_FILES:
                return
            yield path


# --- Python ----------------------------------------------------------------------------------------------------

#: How far before a router call `x = APIRouter(` is looked for (characters).
_ASSIGN_WINDOW = 1024
_PY_CALL = re.compile(r"(@\s*)?(?<![\w.])(?:([\w.]+)\.)?(\w+)\s*\(")
_PY_VERBS = {m.lower(): m for m in HTTP_METHODS}
_NAMED_GROUP = re.compile(r"\(\?P<\w+>[^()]*(?:\([^()]*\)[^()]*)*\)")


def _py_str(expr: str | None) -> str | None:
    if expr is None:
        return None
    m = re.fullmatch(r"\s*" + _Q + r"\s*", expr)
    return src.string_literals(m.group(0))[0] if m else None


def _py_methods(args: str, default: frozenset[str] | None) -> frozenset[str] | None:
    expr = src.keyword_arg(args, "methods")
    if expr is None:
        return default
    methods = frozenset(s.upper() for s in src.string_literals(expr) if s.upper() in HTTP_METHODS)
    return methods or default


def _django_regex(literal: str) -> str:
    literal = _NAMED_GROUP.sub("{param}", literal)
    literal = re.sub(r"\([^()]*\)", "{param}", literal)
    return literal.strip("^$").replace("\\", "")


_ON_CLASS = re.compile(r"\s*(?:@[^\n]*\n\s*)*class\b")


def _python_routes(text: str, rel: str, budget: src.Budget | None = None) -> tuple[list[Route], set[str]]:
    routes: list[Route] = []
    prefixes: set[str] = set()
    # Routers/blueprints assigned to a name in this file bind their prefix to that name's routes.
    bound: dict[str, str] = {}
    for m in re.finditer(r"(?m)^\s*(\w+)\s*(?::[^=\n]*)?=\s*(?:[\w.]+\.)?(APIRouter|Blueprint|Namespace)\s*\(", text):
        args = src.balanced(text, m.end() - 1, budget) or ""
        prefix = _py_str(src.keyword_arg(args, "prefix", "url_prefix", "path"))
        if prefix:
            bound[m.group(1)] = prefix
    for m in _PY_CALL.finditer(text):
        decorator, receiver, name = m.group(1), m.group(2), m.group(3)
        args = src.balanced(text, m.end() - 1, budget)
        if args is None:
            continue
        positional = src.positional_args(args)
        first = _py_str(positional[0]) if positional else None
        if first is None and name not in ("add_route",):
            first = _py_str(src.keyword_arg(args, "path", "rule", "route"))
        on_class = bool(_ON_CLASS.match(text, m.end() - 1 + len(args) + 2))
        own_prefix = bound.get(receiver or "", "")

        def add(methods: frozenset[str] | None, path: str | None, kind: str = EXACT) -> None:
            if path is not None:
                routes.append(Route(methods, own_prefix + "/" + path if own_prefix else path, kind, rel))

        if name in ("APIRouter", "Blueprint", "Namespace", "include_router", "register_blueprint", "add_namespace"):
            prefix = _py_str(src.keyword_arg(args, "prefix", "url_prefix", "path"))
            assigned = re.compile(rf"\b\w+\s*(?::[^=\n]*)?=\s*(?:[\w.]+\.)?{name}\s*\($")
            # the statement's own line(s) only, not a copy of everything before it (quadratic in the file)
            if budget is not None:
                budget.charge(_ASSIGN_WINDOW)
            if prefix and not assigned.search(text, max(0, m.start() - _ASSIGN_WINDOW), m.end()):
                prefixes.add(prefix)
            continue

        if decorator and receiver and name == "route":
            add(None if on_class else _py_methods(args, frozenset({"GET"})), first)
        elif receiver and name == "add_url_rule":
            add(_py_methods(args, frozenset({"GET"})), first)
        elif decorator and receiver and name == "api_route":
            add(_py_methods(args, frozenset({"GET"})), first)
        elif decorator and receiver and name in _PY_VERBS:
            add(frozenset({_PY_VERBS[name]}), first)
        elif not decorator and receiver and name in _PY_VERBS and (first or "").startswith("/") and len(positional) > 1:
            add(frozenset({_PY_VERBS[name]}), first)
        elif receiver and name.startswith("add_") and name[4:] in _PY_VERBS:
            add(frozenset({_PY_VERBS[name[4:]]}), first)
        elif receiver and name == "add_route" and len(positional) >= 2:
            method, path = _py_str(positional[0]), _py_str(positional[1])
            if method and method.upper() in HTTP_METHODS:
                add(frozenset({method.upper()}), path)
            elif method == "*":
                add(None, path)
        elif not decorator and name in ("Route", "APIRoute"):
            add(_py_methods(args, None), first)
        elif not decorator and name == "Mount" and first is not None:
            prefixes.add(first)
        elif receiver and name == "add_resource":
            for p in positional[1:]:
                add(None, _py_str(p))
        elif not decorator and name in ("path", "re_path", "url") and first is not None and len(positional) > 1:
            literal = first if name == "path" else _django_regex(first)
            if positional[1].lstrip().startswith("include("):
                prefixes.add(literal)
            else:
                add(None, literal, SUFFIX)
        elif receiver and name == "register" and first is not None and len(positional) > 1:
            add(None, first, SUFFIX)
            add(None, first.rstrip("/") + "/{param}", SUFFIX)
    return routes, prefixes


# --- Java / Kotlin / JavaScript / TypeScript -------------------------------------------------------------------

_SPRING = {"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT", "PatchMapping": "PATCH",
           "DeleteMapping": "DELETE"}
_MICRONAUT = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
              "Head": "HEAD", "Options": "OPTIONS"}
_JAXRS = {m: m for m in HTTP_METHODS}
_TYPE_PREFIX = ("RequestMapping", "Path", "Controller", "ApplicationPath")
_JS_CALL = re.compile(
    rf"(?<![\w$.])(?:([\w$.]+)\s*\.\s*)?({_LOWER_M})\s*\(\s*(\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`)\s*([,)])"
)
_ROUTE_CHAIN = re.compile(r"\.\s*route\s*\(\s*(\"[^\"\n]*\"|'[^'\n]*')\s*\)")
_CHAIN_VERB = re.compile(rf"\s*\.\s*({_LOWER_M})\s*\(")  # matched at a position: no copies of the text


def _annotation_paths(args: str | None) -> list[str]:
    """Path literals of a mapping annotation: `value=`/`path=`/`uri=` or the first positional argument."""
    if args is None or not args.strip():
        return [""]
    expr = src.keyword_arg(args, "value", "path", "uri")
    if expr is None:
        positional = src.positional_args(args)
        expr = positional[0] if positional and positional[0][:1] in "\"'{`[" else None
    if expr is None:
        return [""]
    return src.string_literals(expr) or [""]


def _annotation_methods(args: str | None) -> frozenset[str] | None:
    if not args:
        return None
    expr = src.keyword_arg(args, "method")
    if expr is None:
        return None
    return frozenset(re.findall(rf"\b({_M})\b", expr)) or None


def _jvm_js_routes(text: str, rel: str, budget: src.Budget | None = None) -> tuple[list[Route], set[str]]:
    routes: list[Route] = []
    prefixes: set[str] = set()
    # A class-level mapping prefixes the annotated routes of that class (those after it in the file).
    class_prefixes = [""]
    for block in src.annotation_blocks(text, budget):
        if block.on_type:
            class_prefixes = [""]
            for a in block.annotations:
                if a.name == "ApplicationPath" and a.args is not None:
                    prefixes.update(p for p in _annotation_paths(a.args) if p)
                elif a.name in _TYPE_PREFIX and a.args is not None:
                    class_prefixes = _annotation_paths(a.args)
            continue

        def add(methods: frozenset[str] | None, paths: list[str]) -> None:
            routes.extend(Route(methods, f"{c}/{p}" if c else p, EXACT, rel) for c in class_prefixes for p in paths)

        jaxrs_path = block.get("Path")
        for a in block.annotations:
            if a.name in _SPRING:
                add(frozenset({_SPRING[a.name]}), _annotation_paths(a.args))
            elif a.name == "RequestMapping":
                add(_annotation_methods(a.args), _annotation_paths(a.args))
            elif a.name in _MICRONAUT:
                add(frozenset({_MICRONAUT[a.name]}), _annotation_paths(a.args))
            elif a.name in _JAXRS and a.args is None:
                add(frozenset({a.name}), _annotation_paths(jaxrs_path.args) if jaxrs_path else [""])
    for m in _JS_CALL.finditer(text):
        receiver, verb, literal, follow = m.group(1), m.group(2), m.group(3)[1:-1], m.group(4)
        bare_with_handler = receiver is None and follow == ","
        if literal.startswith("/") or bare_with_handler:
            routes.append(Route(frozenset({verb.upper()}), literal, EXACT, rel))
    for m in re.finditer(rf"HandlerType\.({_M})\s*,\s*\"([^\"\n]*)\"", text):
        routes.append(Route(frozenset({m.group(1)}), m.group(2), EXACT, rel))
    for m in _ROUTE_CHAIN.finditer(text):
        at, methods = m.end(), set()
        while (v := _CHAIN_VERB.match(text, at)) is not None:
            methods.add(v.group(1).upper())
            end = src.balanced_end(text, v.end() - 1, budget)
            if end is None:
                break
            if budget is not None:
                budget.charge(end - at)
            at = end + 1
        if methods:
            routes.append(Route(frozenset(methods), m.group(1)[1:-1], EXACT, rel))
    for m in re.finditer(r"\bcreateContext\s*\(\s*\"([^\"\n]*)\"", text):
        context = m.group(1)
        routes.append(Route(None, context, PREFIX if normalize_path(context) != "/" else EXACT, rel))
    path_block = r"(?<![\w$.])(?:ApiBuilder\.|Spark\.)?path\s*\(\s*\"([^\"\n]*)\"\s*,\s*(?:\(\s*\)\s*->|\{)"
    for m in re.finditer(path_block, text):
        prefixes.add(m.group(1))
    for m in re.finditer(r"(?<![\w$.])route\s*\(\s*\"([^\"\n]*)\"\s*\)\s*\{", text):
        prefixes.add(m.group(1))
    for m in re.finditer(r"\.\s*use\s*\(\s*(\"[^\"\n]*\"|'[^'\n]*')\s*,", text):
        prefixes.add(m.group(1)[1:-1])
    return routes, prefixes


# --- matching --------------------------------------------------------------------------------------------------


def _segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def _prefix_combinations(prefixes: Iterable[str]) -> list[str]:
    singles = sorted({normalize_path(p) if p else "" for p in prefixes} | {""})
    if len(singles) > 40:
        return singles
    return sorted({a + "/" + b if a and b else a or b for a in singles for b in singles})
