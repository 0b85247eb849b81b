"""The static route check of docs/scoring.md "API Coverage": the declaration forms, file rules and limits that
tests/grading/test_grading_static_routes.py does not reach. Written for the mutation run of
core/grading/static_routes.py (docs/mutation.md); each test says which endpoints a repository written like this is
found to serve, on small real repositories in tmp_path."""
from __future__ import annotations

import os
import socket
from pathlib import Path

from core.grading import _source as src
from core.grading import static_routes
from core.grading.endpoints import Endpoint
from core.grading.static_routes import Route, scan_routes, static_routes_check


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
    return root


def found(repo: Path, *pairs: str) -> dict[str, bool]:
    """{"METHOD /path": declared?} for each pair, from `static_routes_check` (which also says the scan finished)."""
    endpoints = [Endpoint.of(*p.split(" ", 1)) for p in pairs]
    result = static_routes_check(repo_dir=repo, endpoints=endpoints)
    assert result.stopped is None
    return {p: result.found[e] for p, e in zip(pairs, endpoints)}


def served(repo: Path, expected: dict[str, bool]) -> None:
    assert found(repo, *expected) == expected


# --- Python ------------------------------------------------------------------------------------------------------

FLASK_FORMS = '''
from flask import Flask
from flask.views import MethodView

app = Flask(__name__)

@app.route("/things")
class ThingView(MethodView):
    def get(self): ...
    def delete(self): ...

@app.route("/decorated-class")
@login_required
class Decorated(MethodView): ...

@app.route("/plain")
def plain(): ...

@app.route(rule="/by-rule", methods=["POST"])
def by_rule(): ...

@app.route(route="/by-route")
def by_route(): ...

app.add_url_rule("/rule", view_func=plain)
app.add_url_rule("/rule-post", view_func=plain, methods=["POST"])
app.add_url_rule(rule="/rule-kw", view_func=plain)
'''


def test_a_flask_route_on_a_class_view_serves_every_method_and_keyword_paths_count(tmp_path):
    """`@app.route` on a class (a MethodView, even under more decorators) serves any method, on a function GET
    only; `rule=`, `route=` and `add_url_rule` (GET unless `methods=`) give paths too."""
    served(write(tmp_path, {"app.py": FLASK_FORMS}), {
        "GET /things": True, "DELETE /things": True, "PATCH /things": True,
        "PUT /decorated-class": True,
        "GET /plain": True, "POST /plain": False,
        "POST /by-rule": True, "GET /by-rule": False,
        "GET /by-route": True, "POST /by-route": False,
        "GET /rule": True, "POST /rule": False,
        "POST /rule-post": True, "GET /rule-post": False,
        "GET /rule-kw": True, "DELETE /rule-kw": False,
    })


FASTAPI_FORMS = '''
from fastapi import FastAPI
app = FastAPI()

@app.api_route("/multi", methods=["PUT", "PATCH"])
def multi(): ...

@app.api_route("/api-default")
def api_default(): ...

@app.api_route(path="/api-kw", methods=["DELETE"])
def api_kw(): ...

@app.get(path="/get-kw")
def get_kw(): ...

HINT = "call me(maybe"

@app.post("/after-a-stray-paren")
def after(): ...

def lookups(cache, client, routing):
    cache.get("/not-a-route")
    client.delete("/not-a-route-either")
    add_get("/bare-helper", handler)
    routing.Route("/qualified", handler, methods=["PUT"])
'''


def test_fastapi_api_route_keyword_paths_and_calls_that_are_no_routes(tmp_path):
    """`api_route` serves its `methods=` (GET without), `path=` gives the path; a call with one argument
    (`cache.get("/x")`) or a helper without a receiver named like an aiohttp method is no route; a stray `(` in a
    string does not end the scan; `routing.Route(...)` is a Starlette route."""
    served(write(tmp_path, {"main.py": FASTAPI_FORMS}), {
        "PUT /multi": True, "PATCH /multi": True, "GET /multi": False,
        "GET /api-default": True, "POST /api-default": False,
        "DELETE /api-kw": True, "GET /api-kw": False,
        "GET /get-kw": True, "POST /get-kw": False,
        "POST /after-a-stray-paren": True,
        "GET /not-a-route": False, "DELETE /not-a-route-either": False,
        "GET /bare-helper": False,
        "PUT /qualified": True, "GET /qualified": False,
    })


AIOHTTP_STARLETTE = '''
from aiohttp import web
from starlette.routing import Mount, Route

app = web.Application()
app.add_routes([web.get("/aio", index), web.post("/aio-post", create)])
app.router.add_get("/added", handler)
app.router.add_patch("/added-patch", handler)
app.router.add_route("GET", "/by-add-route", handler)
app.router.add_route("DELETE", "/two-positional", handler=drop)
app.router.add_route("post", "/lower-case-method", handler)
app.router.add_route("*", "/any-method", handler)
app.router.add_route("FETCH", "/unknown-method", handler)

routes = [
    Route("/st", endpoint=page, methods=["POST"]),
    Route("/st-any", page),
    Route(path="/st-kw", endpoint=page, methods=["PUT"]),
    APIRoute("/api-route", endpoint=page, methods=["DELETE"]),
    Mount("/mounted", routes=[Route("/inner", inner, methods=["GET"])]),
]
'''


def test_aiohttp_and_starlette_routes_serve_their_declared_methods(tmp_path):
    """aiohttp `web.get(path, handler)`, `add_get`, `add_route(method, path, handler)` (a lower-case method, `*`
    for any method, an unknown method for none, the handler as a keyword); Starlette `Route` (any method without
    `methods=`, `path=`), `APIRoute`, and `Mount`'s prefix."""
    served(write(tmp_path, {"server.py": AIOHTTP_STARLETTE}), {
        "GET /aio": True, "POST /aio": False, "POST /aio-post": True,
        "GET /added": True, "POST /added": False, "PATCH /added-patch": True, "GET /added-patch": False,
        "GET /by-add-route": True, "POST /by-add-route": False,
        "DELETE /two-positional": True, "GET /two-positional": False,
        "POST /lower-case-method": True, "GET /lower-case-method": False,
        "PUT /any-method": True, "GET /any-method": True,
        "GET /unknown-method": False, "POST /unknown-method": False,
        "POST /st": True, "GET /st": False,
        "DELETE /st-any": True,
        "PUT /st-kw": True, "GET /st-kw": False,
        "DELETE /api-route": True, "GET /api-route": False,
        "GET /mounted/inner": True, "POST /mounted/inner": False,
    })


RESTFUL_AND_DJANGO = {
    "api.py": 'api = Api(app)\napi.add_resource(Todo, "/todos", "/todos/<int:todo_id>")\n',
    "reports/urls.py": "urlpatterns = [\n"
    '    path("reports/", ReportView.as_view()),\n'
    "    re_path(r'^exports/(\\d+)/$', export),\n"
    "    url(r'^Xrays/(?P<pk>[0-9]+)$', xray),\n"
    "    re_path(r'^feed\\.json$', feed),\n"
    "]\n",
}


def test_flask_restful_resources_and_django_literals(tmp_path):
    """`add_resource` serves every path it names, any method. A Django literal matches the end of the endpoint's
    path (its include() prefix may be unknown): unnamed and named regex groups are parameters, anchors and
    escapes go, the literal's own letters stay."""
    served(write(tmp_path, RESTFUL_AND_DJANGO), {
        "DELETE /todos": True, "PUT /todos/{id}": True,
        "GET /service/reports": True, "GET /service/reports/{id}": False,
        "GET /exports/{id}": True, "GET /exports": False,
        "GET /api/Xrays/{id}": True, "GET /api/rays/{id}": False,
        "GET /feed.json": True,
    })


BOUND_ROUTERS = {
    # the assignment at the very start of the file (offset 0): still a bound router
    "users.py": 'router = APIRouter(prefix="/users")\n@router.get("/{user_id}")\ndef one(): ...\n',
    "restx.py": 'ns = Namespace("todos", path="/todo-ns")\n\n@ns.route("/<int:id>")\nclass Todo(Resource):\n'
    "    def get(self, id): ...\n",
    "health.py": '@app.get("/health")\ndef health(): ...\n',
}


def test_a_bound_router_prefix_applies_to_its_own_routes_only(tmp_path):
    """`router = APIRouter(prefix=)` (even at the file's first character) and flask-restx `Namespace(path=)` prefix
    their own routes; they are no prefix for the routes of other files or names."""
    served(write(tmp_path, BOUND_ROUTERS), {
        "GET /users/{id}": True, "POST /users/{id}": False,
        "PUT /todo-ns/{id}": True,  # a restx resource is a class: any method
        "GET /health": True, "GET /users/health": False, "GET /todo-ns/health": False,
    })
    assert scan_routes(tmp_path).prefixes == frozenset({""})


UNBOUND_PREFIXES = {
    "factory.py": 'def make_admin():\n    return Blueprint("admin", __name__, url_prefix="/admin")\n\n'
    'def make_api():\n    return APIRouter(prefix="/factory-api")\n\n'
    'def make_ns():\n    return Namespace("n", path="/ns-factory")\n',
    "app.py": 'app.register_blueprint(bp, url_prefix="/v2")\napi.add_namespace(ns, path="/ns")\n'
    'app.include_router(router, prefix="/inc")\n',
    "views.py": '@bp.get("/stats")\ndef stats(): ...\n',
}


def test_prefixes_without_a_name_apply_to_every_file(tmp_path):
    """A Blueprint / APIRouter / Namespace made without a name (returned by a factory), `register_blueprint(...,
    url_prefix=)`, `add_namespace(..., path=)` and `include_router(..., prefix=)` are prefixes for the routes of
    every file."""
    repo = write(tmp_path, UNBOUND_PREFIXES)
    assert scan_routes(repo).prefixes == frozenset(
        {"", "/admin", "/factory-api", "/ns-factory", "/v2", "/ns", "/inc"}
    )
    served(repo, {
        "GET /admin/stats": True, "GET /factory-api/stats": True, "GET /ns-factory/stats": True,
        "GET /v2/stats": True, "GET /ns/stats": True, "GET /inc/stats": True,
        "GET /other/stats": False,
    })


def test_routes_keep_their_literal_and_file(tmp_path):
    """A route's path is its literal as written, its file the path in the repository (Python, Java and a
    dispatcher's alike)."""
    repo = write(tmp_path, {
        "app/main.py": '@app.get("/health")\ndef h(): ...\n',
        "src/main/java/Api.java": 'class Api { @GetMapping("/java") String j() { return ""; } }\n',
        "server.js": "http.createServer((req, res) => {\n  if (req.url === '/node') { res.end(); }\n});\n",
        "web/app.js": "app.get('/js', h);\nrouter.route('/chain').put(u).delete(d);\n",
        "src/main/java/Server.java": 'class S { void m() {\n  app.addHandler(HandlerType.PUT, "/handler", h);\n'
        '  server.createContext("/ctx", h);\n} }\n',
    })
    assert set(scan_routes(repo).routes) == {
        Route(frozenset({"GET"}), "/health", "exact", "app/main.py"),
        Route(frozenset({"GET"}), "/java", "exact", "src/main/java/Api.java"),
        Route(None, "/node", "exact", "server.js"),
        Route(frozenset({"GET"}), "/js", "exact", "web/app.js"),
        Route(frozenset({"PUT", "DELETE"}), "/chain", "exact", "web/app.js"),
        Route(frozenset({"PUT"}), "/handler", "exact", "src/main/java/Server.java"),
        Route(None, "/ctx", "prefix", "src/main/java/Server.java"),
    }


DJANGO_MORE = {
    "config/urls.py": 'urlpatterns = [path("api/", include("shop.urls")), path("static/", serve_static)]\n'
    'link = url("downloads/")\nregistry.register("webhooks")\n',
    "shop/urls.py": "router = DefaultRouter()\n"
    'router.register(r"books", BookViewSet)\n'
    'router.register(r"exports/XLSX", ExportViewSet)\n'
    'urlpatterns = [path("files/(draft)/", draft)]\n',
    # django-ninja: an exact route under the include() prefix of another file
    "shop/api.py": 'router = Router()\n@router.get("/items")\ndef items(request): ...\n',
}


def test_django_include_prefixes_drf_routers_and_one_argument_calls(tmp_path):
    """`path("api/", include(...))` prefixes exact routes of any file; a DRF `register` serves `x` and `x/{param}`
    under any prefix, any method; a `path()` literal is no regex; `url("x/")` or `register("x")` with one argument
    is no route."""
    repo = write(tmp_path, DJANGO_MORE)
    served(repo, {
        "GET /api/items": True, "GET /v1/items": False, "POST /api/items": False,
        "GET /api/v1/books": True, "DELETE /api/v1/books/{id}": True, "GET /api/v1/books/{id}/x": False,
        "GET /api/exports/XLSX/{id}": True,
        "GET /api/files/(draft)": True,
        "GET /downloads": False, "GET /webhooks": False,
    })
    assert scan_routes(repo).prefixes == frozenset({"", "api/"})


# --- files and limits ----------------------------------------------------------------------------------------------

ROUTE = '@app.post("/api/{name}")\ndef f(): ...\n'


def test_src_test_is_skipped_but_test_folders_elsewhere_are_not(tmp_path):
    """Only a `test` folder right under `src` is Maven's test tree; `app/test/` holds application code."""
    repo = write(tmp_path, {
        "app/test/routes.py": ROUTE.format(name="app-test"),
        "test/routes.py": ROUTE.format(name="top-test"),
        "src/test/java/Helper.java": 'class Helper { @PostMapping("/api/src-test") void f() {} }\n',
        "lib/src/test/helpers.py": ROUTE.format(name="lib-src-test"),
        "src/main/java/Api.java": 'class Api { @PostMapping("/api/src-main") void f() {} }\n',
    })
    served(repo, {
        "POST /api/app-test": True, "POST /api/top-test": True, "POST /api/src-main": True,
        "POST /api/src-test": False, "POST /api/lib-src-test": False,
    })


def test_files_skipped_in_a_folder_do_not_end_its_listing(tmp_path):
    """A skipped name (not source, a test file, a link, over 1 MiB, a socket that cannot be read) sorted before
    the routes of its folder skips that file only; a file of exactly 1 MiB is read, one byte more is not."""
    big = ROUTE.format(name="big")
    exact = ROUTE.format(name="exact")
    repo = write(tmp_path, {
        "a-notes.txt": ROUTE.format(name="notes"),
        "a_big.py": big + "#" * (1024 * 1024 + 1 - len(big)),
        "a_exact.py": exact + "#" * (1024 * 1024 - len(exact)),
        "b_conftest.py": "",
        "conftest.py": ROUTE.format(name="conftest"),
        "d_routes.py": ROUTE.format(name="after-skipped"),
    })
    os.symlink("d_routes.py", repo / "a_link.py")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(repo / "a_socket.py"))
        served(repo, {
            "POST /api/notes": False, "POST /api/big": False, "POST /api/exact": True,
            "POST /api/conftest": False, "POST /api/after-skipped": True,
        })
    finally:
        sock.close()


def test_at_most_max_files_source_files_are_read(tmp_path, monkeypatch):
    """MAX_FILES source files are read, the limit inclusive (lowered here to 3 to keep the test small)."""
    monkeypatch.setattr(static_routes, "MAX_FILES", 3)
    repo = write(tmp_path, {f"r{i}.py": ROUTE.format(name=f"r{i}") for i in range(3)})
    assert len(scan_routes(repo).routes) == 3
    write(tmp_path, {"r3.py": ROUTE.format(name="r3")})
    assert len(scan_routes(repo).routes) == 3


def test_a_file_that_is_not_utf8_is_read_with_replacements(tmp_path):
    repo = write(tmp_path, {"app.py": b"# caf\xe9 \xff\n" + ROUTE.format(name="latin1").encode()})
    served(repo, {"POST /api/latin1": True})


def test_a_matching_rule_reads_the_whole_suffix(tmp_path):
    """A suffix literal (Django) matches the last segments of the endpoint's path, all of them."""
    repo = write(tmp_path, {"urls.py": 'urlpatterns = [path("reports/monthly/", view)]\n'})
    served(repo, {
        "GET /api/v1/reports/monthly": True, "GET /reports/monthly": True,
        "GET /api/v1/monthly": False, "GET /api/v1/reports/monthly/x": False,
    })


def test_a_dispatcher_comparison_for_equality_is_no_prefix(tmp_path):
    """`path == "/x"` in a dispatcher serves /x, not the paths below it; `startsWith("/x/")` serves those."""
    repo = write(tmp_path, {"server.js": "http.createServer((req, res) => {\n"
                            "  if (req.url === '/health') { res.end('ok'); }\n"
                            "  if (req.url.startsWith('/files/')) { res.end('f'); }\n});\n"})
    served(repo, {"GET /health": True, "GET /health/deep": False, "GET /files/{id}": True})


# --- the budget ------------------------------------------------------------------------------------------------

PY_BUDGETED = 'router = APIRouter(prefix="/x")\n@router.get("/y")\ndef f(): ...\n'
JAVA_BUDGETED = 'class A { @GetMapping("/j") String j() { return ""; } }\n'
JS_BUDGETED = "router.route('/c').get(list).post(create);\n"
JS_IN_TEMPLATE = "const doc = `x.route('/c').get(h)`;\n"


def check_budget(repo: Path, cost: int) -> None:
    """The scan of `repo` costs exactly `cost` characters: one fewer stops it and says so; `cost` does not."""
    endpoint = Endpoint.of("GET", "/nowhere")
    enough = static_routes_check(repo_dir=repo, endpoints=[endpoint], budget_chars=cost, budget_seconds=60)
    assert enough.stopped is None
    short = static_routes_check(repo_dir=repo, endpoints=[endpoint], budget_chars=cost - 1, budget_seconds=60)
    assert short.stopped == (
        f"the static route check stopped early: the repository has more than {cost - 1:,} characters of source to scan"
    )


def test_the_budget_counts_every_argument_list_python_reads(tmp_path):
    """Each file's text once; each call's argument list with its closing bracket (the router's twice: once to
    bind its name, once as a call; `f()` too) and 1 KiB of look-back per router call."""
    args = len('prefix="/x"') + 1
    check_budget(write(tmp_path, {"a.py": PY_BUDGETED}),
                 len(PY_BUDGETED) + args + args + static_routes._ASSIGN_WINDOW + len('"/y"') + 1 + 1)


def test_the_budget_counts_java_annotations_and_express_chains(tmp_path):
    """Java: the text and each annotation's argument list; Express: the text and each chained handler call."""
    check_budget(write(tmp_path / "java", {"A.java": JAVA_BUDGETED}), len(JAVA_BUDGETED) + len('"/j"') + 1)
    chain = len(".get(list)") + len(".post(create)") - 1 - 1
    check_budget(write(tmp_path / "js", {"r.js": JS_BUDGETED}), len(JS_BUDGETED) + chain)
    # a chain inside a template string: its bracket is scanned on its own, and that scan is charged too
    check_budget(write(tmp_path / "doc", {"d.js": JS_IN_TEMPLATE}),
                 len(JS_IN_TEMPLATE) + len(".get(h") + len("(h"))


def test_the_scan_says_why_it_stopped_at_a_folder_too_deep(tmp_path):
    """A folder nested deeper than MAX_TREE_DEPTH stops the scan: the routes found before it count, and the check
    says why."""
    write(tmp_path, {"app.py": ROUTE.format(name="shallow")})
    deep = tmp_path.joinpath(*["d"] * 66)
    deep.mkdir(parents=True)
    endpoints = [Endpoint.of("POST", "/api/shallow")]
    result = static_routes_check(repo_dir=tmp_path, endpoints=endpoints)
    assert result.found == {endpoints[0]: True}
    assert result.stopped == (
        "the static route check stopped early: the repository holds a folder nested deeper than 64 levels "
        "(d/d/d/d/d/d/...)"
    )


# --- Java / Kotlin / JavaScript ----------------------------------------------------------------------------------

SPRING_FORMS = """
@RestController
@RequestMapping("/api")
public class Orders {
    @RequestMapping(method = RequestMethod.POST)
    public Order create() { return null; }

    @RequestMapping(value = "/orders/{id}", method = RequestMethod.DELETE)
    public void drop() {}

    @RequestMapping(path = "/orders/bulk", method = {RequestMethod.PUT, RequestMethod.PATCH})
    public void bulk() {}

    @RequestMapping("/orders/any")
    public void any() {}

    @DeleteMapping(value = {})
    public void clear() {}

    @GetMapping(XML_BASE + "/export")
    public String export() { return null; }
}

@Service
public class Helper {
    @GetMapping("/helper")
    public String help() { return null; }
}
"""

MICRONAUT_JAXRS = """
@Controller("/builds")
public class Builds {
    @Get(uri = "/{id}/logs")
    public Logs logs(String id) { return null; }
    @Delete("/{id}")
    public void drop(String id) {}
}

@ApplicationPath("/rest")
public class RestApp extends Application {}

@Path("/notes")
public class Notes {
    @GET
    @Override
    @Transactional
    public List<Note> list() { return null; }
}
"""

RETROFIT_CLIENT = """
public interface GitHub {
    @GET("users/{user}/repos")
    Call<List<Repo>> repos(@Path("user") String user);
    @POST("/")
    Call<Void> ping();
}
"""


def test_spring_request_mappings_serve_their_methods_and_class_prefixes_end_with_their_class(tmp_path):
    """`@RequestMapping` serves its `method =` (one, or an array; any without), a method mapping without a path or
    with `value = {}` maps the class's own path (so does a path computed from a constant), a path computed from a constant is not taken for its literal
    tail, and the class-level prefix ends with its class."""
    served(write(tmp_path, {"src/main/java/Orders.java": SPRING_FORMS}), {
        "POST /api": True, "GET /api": True, "DELETE /api": True, "PUT /api": False,
        "DELETE /api/orders/{id}": True, "GET /api/orders/{id}": False,
        "PUT /api/orders/bulk": True, "PATCH /api/orders/bulk": True, "GET /api/orders/bulk": False,
        "PATCH /api/orders/any": True,
        "GET /api/export": False,
        "GET /helper": True, "GET /api/helper": False,
    })


def test_micronaut_jaxrs_and_a_retrofit_client(tmp_path):
    """Micronaut `@Get(uri =)` and `@Delete` serve their own method; `@ApplicationPath` prefixes JAX-RS resources
    (`@GET` next to other annotations without arguments); a Retrofit client's `@GET("...")` is no route."""
    served(write(tmp_path, {"src/main/java/Builds.java": MICRONAUT_JAXRS,
                            "src/main/java/GitHub.java": RETROFIT_CLIENT}), {
        "GET /builds/{id}/logs": True, "POST /builds/{id}/logs": False,
        "DELETE /builds/{id}": True, "GET /builds/{id}": False,
        "GET /rest/notes": True, "GET /notes": True, "POST /rest/notes": False,
        "GET /users/{user}/repos": False, "GET /": False, "POST /": False,
    })


JAVALIN_KTOR = {
    "src/main/java/App.java": """
public class App {
    void routes(Javalin app) {
        app.addHandler(HandlerType.PATCH, "/handlers/{id}", Handlers::patch);
        app.routes(() -> {
            path("/users", () -> { get("{id}", Users::getOne); });
            ApiBuilder.path("/qualified", () -> { post("/x", Q::x); });
        });
        Spark.path("/spark", () -> { delete("/y", (req, res) -> null); });
    }
}
""",
    "src/main/kotlin/Routing.kt": """
fun Application.module() {
    routing {
        route("/ktor") {
            get("/items") { call.respond(items) }
        }
    }
}
""",
}


def test_javalin_spark_and_ktor_blocks_prefix_their_routes(tmp_path):
    """Javalin `addHandler(HandlerType.X, ...)` serves X only; `path("/x", () -> ...)` (also as `ApiBuilder.path`
    or `Spark.path`) and Ktor `route("/x") { }` are prefixes; a bare `get("{id}", handler)` inside a path block is
    a route though its literal has no leading slash."""
    repo = write(tmp_path, JAVALIN_KTOR)
    assert scan_routes(repo).prefixes == frozenset({"", "/users", "/qualified", "/spark", "/ktor"})
    served(repo, {
        "PATCH /handlers/{id}": True, "GET /handlers/{id}": False,
        "GET /users/{id}": True, "POST /qualified/x": True, "DELETE /spark/y": True,
        "GET /ktor/items": True, "POST /ktor/items": False,
    })


def test_express_prefixes_and_an_unclosed_chain(tmp_path):
    """`app.use('/x', router)` is a prefix written without its quotes; a `.route('/x').get(` chain that is never
    closed (a truncated file) still serves the methods read so far, and what follows it in the file still counts."""
    repo = write(tmp_path, {
        "a.js": "app.use('/api', router);\n",
        "b.js": "router.get('/ok', ok);\nrouter.route('/cut').put(update).get(\n",
        "c.js": "router.route('/cut2').get(\napp.use('/late', other);\n",
    })
    assert scan_routes(repo).prefixes == frozenset({"", "/api", "/late"})
    served(repo, {
        "GET /api/ok": True, "PUT /api/cut": True, "GET /api/cut": True, "DELETE /api/cut": False,
        "GET /late/cut2": True,
    })


def test_pairs_of_prefixes_are_tried_up_to_40_prefixes(tmp_path):
    """Two prefixes in front of a route (`/outer/inner/x`) are tried while the repository has at most 40 of them
    ("" counted); beyond, single prefixes only (the pairs grow as the square)."""
    def repo_with(n: int) -> Path:
        root = tmp_path / str(n)
        uses = ["app.use('/outer', a);", "app.use('/inner', b);"]
        uses += [f"app.use('/filler{i}', c);" for i in range(n - 2)]
        return write(root, {"app.js": "\n".join(uses) + "\nrouter.get('/x', h);\n"})

    served(repo_with(39), {"GET /outer/inner/x": True, "GET /outer/x": True})
    served(repo_with(40), {"GET /outer/inner/x": False, "GET /outer/x": True})
