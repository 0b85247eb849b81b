"""The static route check of docs/scoring.md "API Coverage" on small fake repositories, one framework style each."""
from __future__ import annotations

from pathlib import Path

from core.grading.endpoints import Endpoint, static_routes_match
from core.grading.static_routes import scan_routes


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def check(repo: Path, *pairs: str) -> dict[str, bool]:
    endpoints = [Endpoint.of(*p.split(" ", 1)) for p in pairs]
    found = static_routes_match(repo_dir=repo, endpoints=endpoints)
    assert list(found) == endpoints
    return {p: found[e] for p, e in zip(pairs, endpoints)}


FLASK_APP = '''
from flask import Flask, Blueprint

app = Flask(__name__)
users = Blueprint("users", __name__, url_prefix="/api/users")

@app.route("/health")
def health():
    return {"status": "ok"}

@app.route("/api/items", methods=["GET", "POST"])
def items():
    ...

@app.route('/api/items/<int:item_id>', methods=['DELETE'])
def delete_item(item_id):
    ...

@app.get("/api/echo")
def echo():
    ...

@users.route("/<user_id>/roles", methods=["PUT"])
def roles(user_id):
    ...

# @app.route("/api/commented-out", methods=["POST"])
app.register_blueprint(users)
'''


def test_flask(tmp_path):
    repo = write(tmp_path, {"app.py": FLASK_APP})
    assert check(
        repo,
        "GET /health",
        "HEAD /health",
        "POST /health",
        "GET /api/items",
        "POST /api/items",
        "DELETE /api/items/{id}",
        "GET /api/items/{id}",
        "GET /api/echo",
        "PUT /api/users/{id}/roles",
        "POST /api/commented-out",
    ) == {
        "GET /health": True,
        "HEAD /health": True,
        "POST /health": False,
        "GET /api/items": True,
        "POST /api/items": True,
        "DELETE /api/items/{id}": True,
        "GET /api/items/{id}": False,
        "GET /api/echo": True,
        "PUT /api/users/{id}/roles": True,
        "POST /api/commented-out": False,
    }


FASTAPI_APP = '''
from fastapi import APIRouter, FastAPI

app = FastAPI()
router = APIRouter(prefix="/api/v1/rooms", tags=["rooms"])

@router.post("")
async def create_room(): ...

@router.get("/{room_id}/messages")
async def pull(room_id: str): ...

@router.post(
    "/{room_id}/join",
    status_code=200,
)
async def join(room_id: str): ...

@app.get("/api/v1/health")
def health(): ...

app.include_router(router)
'''


def test_fastapi_with_router_prefix(tmp_path):
    repo = write(tmp_path, {"app/main.py": FASTAPI_APP, "app/__init__.py": ""})
    assert check(
        repo,
        "POST /api/v1/rooms",
        "GET /api/v1/rooms/{room_id}/messages",
        "POST /api/v1/rooms/{id}/join",
        "GET /api/v1/health",
        "POST /api/v1/rooms/{id}/leave",
        "DELETE /api/v1/rooms",
    ) == {
        "POST /api/v1/rooms": True,
        "GET /api/v1/rooms/{room_id}/messages": True,
        "POST /api/v1/rooms/{id}/join": True,
        "GET /api/v1/health": True,
        "POST /api/v1/rooms/{id}/leave": False,
        "DELETE /api/v1/rooms": False,
    }


def test_django_paths_and_drf_router(tmp_path):
    repo = write(
        tmp_path,
        {
            "project/urls.py": 'from django.urls import include, path\n'
            'urlpatterns = [path("api/v1/", include("movies.urls")), path("admin/", admin.site.urls)]\n',
            "movies/urls.py": "from django.urls import path, re_path\nfrom rest_framework.routers import DefaultRouter\n"
            "router = DefaultRouter()\nrouter.register(r'movies', MovieViewSet, basename='movie')\n"
            "urlpatterns = [\n"
            '    path("auth/register/", RegisterView.as_view()),\n'
            "    re_path(r'^auth/token/(?P<kind>[a-z]+)/$', TokenView.as_view()),\n"
            "]\n",
        },
    )
    assert check(
        repo,
        "POST /api/v1/auth/register/",
        "GET /api/v1/auth/register",
        "POST /api/v1/auth/token/{x}",
        "GET /api/v1/movies/",
        "DELETE /api/v1/movies/{id}/",
        "POST /api/v1/auth/refresh/",
        "GET /api/v1",
    ) == {
        "POST /api/v1/auth/register/": True,  # Django path(): any method
        "GET /api/v1/auth/register": True,
        "POST /api/v1/auth/token/{x}": True,
        "GET /api/v1/movies/": True,
        "DELETE /api/v1/movies/{id}/": True,
        "POST /api/v1/auth/refresh/": False,
        "GET /api/v1": False,  # an include() prefix is not a route
    }


SPRING_CONTROLLER = """
package com.example;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/users")
public class UserController {
    @PostMapping("/register")
    public User register(@RequestBody User user) { return user; }

    @GetMapping(value = "/{userId}/status", produces = "application/json")
    public Status status(@PathVariable String userId) { return null; }

    @RequestMapping(path = {"/{userId}/status"}, method = RequestMethod.PUT)
    public Status update(@PathVariable String userId) { return null; }

    @GetMapping
    public List<User> all() { return List.of(); }

    // @DeleteMapping("/{userId}")
    /* @PatchMapping("/{userId}") */
    public void notMapped() {}
}
"""

JAXRS_RESOURCE = """
package com.example;

@Path("/api/posts")
@Produces(MediaType.APPLICATION_JSON)
public class PostResource {
    @GET
    public List<Post> list() { return null; }

    @POST
    @Path("/{id}/comments")
    public Comment comment(@PathParam("id") long id) { return null; }

    @DELETE @Path("{id}")
    public void delete(@PathParam("id") long id) {}
}
"""

MICRONAUT_CONTROLLER = """
@Controller("/builds")
public class BuildController {
    @Get("/{id}/logs")
    public Logs logs(String id) { return null; }
    @Post("/{id}/cancel")
    public Build cancel(String id) { return null; }
}
"""


def test_java_annotations(tmp_path):
    repo = write(
        tmp_path,
        {
            "src/main/java/com/example/UserController.java": SPRING_CONTROLLER,
            "src/main/java/com/example/PostResource.java": JAXRS_RESOURCE,
            "src/main/java/com/example/BuildController.java": MICRONAUT_CONTROLLER,
        },
    )
    assert check(
        repo,
        "POST /api/users/register",
        "GET /api/users/{userId}/status",
        "PUT /api/users/{id}/status",
        "GET /api/users",
        "DELETE /api/users/{id}",
        "PATCH /api/users/{id}",
        "GET /api/posts",
        "POST /api/posts/{id}/comments",
        "DELETE /api/posts/{id}",
        "PUT /api/posts/{id}",
        "GET /builds/{id}/logs",
        "POST /builds/{id}/cancel",
        "GET /builds/{id}",
    ) == {
        "POST /api/users/register": True,
        "GET /api/users/{userId}/status": True,
        "PUT /api/users/{id}/status": True,
        "GET /api/users": True,
        "DELETE /api/users/{id}": False,
        "PATCH /api/users/{id}": False,
        "GET /api/posts": True,
        "POST /api/posts/{id}/comments": True,
        "DELETE /api/posts/{id}": True,
        "PUT /api/posts/{id}": False,
        "GET /builds/{id}/logs": True,
        "POST /builds/{id}/cancel": True,
        "GET /builds/{id}": False,
    }


JAVALIN_APP = """
public class App {
    public static Javalin start(int port) {
        Javalin app = Javalin.create();
        app.get("/projects", ctx -> ctx.json(projects));
        app.post("/projects/{id}/tasks", TaskController::create);
        app.addHandler(HandlerType.PUT, "/tasks/{id}", TaskController::update);
        Map<String, Object> body = new HashMap<>();
        body.put("/not-a-route", 1);
        String name = body.get("username", "x");
        return app.start(port);
    }
}
"""

SPARK_APP = """
import static spark.Spark.*;
public class Main {
    public static void main(String[] args) {
        port(4567);
        get("/api/dashboards", (req, res) -> dashboards());
        Spark.delete("/api/dashboards/:id", (req, res) -> delete(req.params(":id")));
        path("/api/widgets", () -> {
            put("/:id", (req, res) -> update(req));
        });
    }
}
"""

JDK_SERVER = """
public class Server {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
        server.createContext("/api/items", new ItemsHandler());
        server.createContext("/", new RootHandler());
        server.start();
    }
}
"""


def test_javalin_spark_and_jdk_httpserver(tmp_path):
    repo = write(
        tmp_path,
        {
            "javalin/src/main/java/App.java": JAVALIN_APP,
            "spark/src/main/java/Main.java": SPARK_APP,
            "jdk/src/main/java/Server.java": JDK_SERVER,
        },
    )
    assert check(
        repo,
        "GET /projects",
        "POST /projects/{id}/tasks",
        "PUT /tasks/{id}",
        "POST /not-a-route",
        "GET /username",
        "GET /api/dashboards",
        "DELETE /api/dashboards/{id}",
        "PUT /api/widgets/{id}",
        "GET /api/items",
        "DELETE /api/items/{id}",
        "GET /api/itemsx",
        "GET /",
        "GET /anything/else",
    ) == {
        "GET /projects": True,
        "POST /projects/{id}/tasks": True,
        "PUT /tasks/{id}": True,
        "POST /not-a-route": False,
        "GET /username": False,
        "GET /api/dashboards": True,
        "DELETE /api/dashboards/{id}": True,
        "PUT /api/widgets/{id}": True,
        "GET /api/items": True,  # createContext: any method, any path under the context
        "DELETE /api/items/{id}": True,
        "GET /api/itemsx": False,  # prefixes match whole segments
        "GET /": True,
        "GET /anything/else": False,  # a root context is a dispatcher: it proves nothing about other paths
    }


def test_express_routes(tmp_path):
    repo = write(
        tmp_path,
        {
            "server.js": "const app = express();\nconst router = express.Router();\n"
            "router.get('/:id', getUser);\nrouter.route('/:id/roles').put(setRoles).delete(clearRoles);\n"
            "app.use('/api/users', router);\napp.post(\"/api/login\", login);\n",
        },
    )
    assert check(
        repo,
        "GET /api/users/{id}",
        "PUT /api/users/{id}/roles",
        "DELETE /api/users/{id}/roles",
        "POST /api/users/{id}/roles",
        "POST /api/login",
    ) == {
        "GET /api/users/{id}": True,
        "PUT /api/users/{id}/roles": True,
        "DELETE /api/users/{id}/roles": True,
        "POST /api/users/{id}/roles": False,
        "POST /api/login": True,
    }


def test_test_files_vendored_and_large_files_are_ignored(tmp_path):
    route = '@app.route("/api/{name}", methods=["POST"])\ndef f(): ...\n'
    repo = write(
        tmp_path,
        {
            "tests/helpers.py": route.format(name="from-tests"),
            "test_app.py": route.format(name="from-test-file"),
            "app_test.py": route.format(name="from-test-suffix"),
            "conftest.py": route.format(name="from-conftest"),
            "node_modules/pkg/index.py": route.format(name="from-node-modules"),
            ".venv/lib/site.py": route.format(name="from-venv"),
            "venv/lib/site.py": route.format(name="from-venv2"),
            "target/classes/Gen.java": '@PostMapping("/api/from-target") void f() {}',
            "src/test/java/ApiTest.java": 'class T { @PostMapping("/api/from-src-test") void f() {} }',
            ".hidden/app.py": route.format(name="from-hidden"),
            "big.py": route.format(name="from-big-file") + "#" * (1024 * 1024),
            "notes.txt": route.format(name="from-text-file"),
            "app.py": route.format(name="real"),
        },
    )
    names = [
        "from-tests", "from-test-file", "from-test-suffix", "from-conftest", "from-node-modules", "from-venv",
        "from-venv2", "from-target", "from-src-test", "from-hidden", "from-big-file", "from-text-file", "real",
    ]
    found = check(repo, *(f"POST /api/{n}" for n in names))
    assert [n for n in names if found[f"POST /api/{n}"]] == ["real"]
    assert {r.file for r in scan_routes(repo).routes} == {"app.py"}


def test_missing_repo_and_no_endpoints(tmp_path):
    assert static_routes_match(repo_dir=tmp_path / "absent", endpoints=[Endpoint.of("GET", "/x")]) == {
        Endpoint.of("GET", "/x"): False
    }
    assert static_routes_match(repo_dir=tmp_path, endpoints=[]) == {}


def test_router_and_controller_prefixes_stay_with_their_own_routes(tmp_path):
    repo = write(
        tmp_path,
        {
            "app/users.py": 'router = APIRouter(prefix="/users")\n@router.delete("/{user_id}")\ndef d(): ...\n',
            "app/groups.py": 'router: APIRouter = APIRouter(prefix="/groups", tags=["g"])\n'
            '@router.get("/{group_id}")\ndef g(): ...\n',
            "app/main.py": "app = FastAPI()\n"
            'app.include_router(users.router, prefix="/api")\napp.include_router(groups.router, prefix="/api")\n',
            "src/main/java/UserController.java": '@RestController\n@RequestMapping("/v2/users")\n'
            'public class UserController {\n  @GetMapping("/{id}") public User one() { return null; }\n}\n',
            "src/main/java/GroupController.java": '@RestController\n@RequestMapping(value = "/v2/groups")\n'
            'public class GroupController {\n  @DeleteMapping("/{id}") public void drop() {}\n}\n',
        },
    )
    assert check(
        repo,
        "DELETE /api/users/{id}",
        "GET /api/groups/{id}",
        "DELETE /api/groups/{id}",
        "GET /api/users/{id}",
        "GET /v2/users/{id}",
        "DELETE /v2/groups/{id}",
        "DELETE /v2/users/{id}",
        "GET /v2/groups/{id}",
    ) == {
        "DELETE /api/users/{id}": True,
        "GET /api/groups/{id}": True,
        "DELETE /api/groups/{id}": False,
        "GET /api/users/{id}": False,
        "GET /v2/users/{id}": True,
        "DELETE /v2/groups/{id}": True,
        "DELETE /v2/users/{id}": False,
        "GET /v2/groups/{id}": False,
    }


JDK_DISPATCHER = """
public class InventoryHandler implements HttpHandler {
    private static final String ITEMS = "/api/items";

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/health") && method.equals("GET")) {
            respond(exchange, 200, "ok");
        } else if (path.equals(ITEMS)) {
            if (method.equals("GET")) {
                list(exchange);
            } else if (method.equals("POST")) {
                create(exchange);
            }
        } else if (path.matches("/api/items/[^/]+")) {
            switch (method) {
                case "GET": get(exchange); break;
                case "DELETE": delete(exchange); break;
                default: respond(exchange, 405, "no");
            }
        } else if (path.startsWith(ITEMS + "/") && path.endsWith("/adjust") && "POST".equals(method)) {
            adjust(exchange);
        } else {
            respond(exchange, 404, "Not found");
        }
    }
}
"""

PY_HTTP_SERVER = '''
import re
from http.server import BaseHTTPRequestHandler, HTTPServer

ITEM = re.compile(r"^/api/items/(\\d+)$")

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/health":
            return self._json(200, {"status": "ok"})
        if ITEM.match(self.path):
            return self._json(200, {})
        self._json(404, {"error": "not found"})

    def do_POST(self):
        if self.path in ("/api/items", "/api/items/"):
            return self._json(201, {})
        self._json(404, {"error": "not found"})

    def _json(self, status, body):
        ...
'''

NODE_SERVER = """
const http = require('http');
http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/status') { return send(res, 200); }
  if (req.url.startsWith('/api/jobs/') && req.method === 'DELETE') { return send(res, 204); }
  send(res, 404);
}).listen(process.env.PORT);
"""


def test_hand_written_dispatchers(tmp_path):
    repo = write(
        tmp_path,
        {"java/src/main/java/InventoryHandler.java": JDK_DISPATCHER, "py/server.py": PY_HTTP_SERVER,
         "node/server.js": NODE_SERVER},
    )
    assert check(
        repo,
        "GET /health",
        "POST /health",
        "GET /api/items",
        "POST /api/items",
        "PUT /api/items",
        "GET /api/items/{id}",
        "DELETE /api/items/{id}",
        "PUT /api/items/{id}",
        "POST /api/items/{id}/adjust",
        "GET /api/status",
        "DELETE /api/jobs/{id}",
        "DELETE /api/jobs",
    ) == {
        "GET /health": True,
        "POST /health": False,
        "GET /api/items": True,
        "POST /api/items": True,  # Java dispatcher and http.server do_POST
        "PUT /api/items": False,
        "GET /api/items/{id}": True,  # path.matches(...) / ITEM regex inside do_GET
        "DELETE /api/items/{id}": True,
        "PUT /api/items/{id}": False,
        "POST /api/items/{id}/adjust": True,  # startsWith(ITEMS + "/") with "POST" on the same line
        "GET /api/status": True,
        "DELETE /api/jobs/{id}": True,
        "DELETE /api/jobs": False,  # startsWith("/api/jobs/") needs a segment after the slash
    }


def test_dispatch_comparisons_are_ignored_outside_dispatchers(tmp_path):
    repo = write(tmp_path, {"util.py": 'def kind(p):\n    return "static" if p == "/static/app.css" else "x"\n'})
    assert check(repo, "GET /static/app.css") == {"GET /static/app.css": False}


# Added for the mutation run of dispatch_routes.py (docs/mutation.md): the comparison forms the dispatchers above do
# not use, each comment naming the mutants it kills.
JDK_DISPATCHER_FORMS = """
import com.sun.net.httpserver.HttpExchange;
import java.util.regex.Pattern;

public class Router {
    private static final Pattern ORDER = Pattern.compile("^/api/orders/(\\\\d+)$");

    void route(HttpExchange exchange, String path, String method) {
        if ("/api/ping".equals(path)) {  // the literal first ("/x".equals: its regex, its path and start)
            pong(exchange);
        }
        if (path.equalsIgnoreCase("/api/version") && "GET".equals(method)) { version(exchange); }
        if (ORDER.matcher(path).matches()) {  // a named Pattern used elsewhere (Pattern.compile, `matcher`)
            if ("PUT".equals(method)) { update(exchange); }
        }
        switch (path) {
            case "/api/reports": if ("POST".equals(method)) { report(exchange); } break;  // `case` (its regex)
            case "/": root(exchange); break;  // a bare "/" is never a route on its own
            default: notFound(exchange);
        }
    }
}
"""

PY_DISPATCHER_FORMS = '''
import re
from http.server import BaseHTTPRequestHandler

class Handler(BaseHTTPRequestHandler):
    def handle_any(self):
        if self.path.startswith("/files/"):
            if self.command == "GET":
                return self.send_file()
        if re.fullmatch(r"/api/users/(\\w+)/avatar", self.path) and self.command == "DELETE":
            return self.drop()
'''


def test_hand_written_dispatcher_forms(tmp_path):
    repo = write(tmp_path, {"src/main/java/Router.java": JDK_DISPATCHER_FORMS, "server.py": PY_DISPATCHER_FORMS})
    assert check(
        repo,
        "GET /api/ping", "POST /api/ping",  # no method literal anywhere near: any method
        "GET /api/version", "POST /api/version",  # equalsIgnoreCase, its method on the same line
        "PUT /api/orders/{id}", "GET /api/orders/{id}",  # the method in the code after the comparison
        "POST /api/reports", "GET /api/reports",
        "GET /",  # `path != "/"` mutated: the root would be found
        "GET /files/{name}", "POST /files/{name}", "GET /files",  # Python startswith, method after it
        "DELETE /api/users/{id}/avatar", "GET /api/users/{id}/avatar",  # re.fullmatch, the method on its line
    ) == {
        "GET /api/ping": True, "POST /api/ping": True,
        "GET /api/version": True, "POST /api/version": False,
        "PUT /api/orders/{id}": True, "GET /api/orders/{id}": False,
        "POST /api/reports": True, "GET /api/reports": False,
        "GET /": False,
        "GET /files/{name}": True, "POST /files/{name}": False, "GET /files": False,
        "DELETE /api/users/{id}/avatar": True, "GET /api/users/{id}/avatar": False,
    }


def test_a_fifo_named_like_source_is_skipped_not_waited_on(tmp_path):
    """A FIFO `app.py` in the repository (no writer ever opens it) is skipped: the scan used to block opening it
    for ever. Run in a daemon thread so that a regression fails instead of hanging the suite."""
    import os
    import threading

    write(tmp_path, {"b.py": '@app.get("/after-the-fifo")\ndef f(): ...\n'})
    os.mkfifo(tmp_path / "a.py")
    result = {}
    worker = threading.Thread(target=lambda: result.update(found=check(tmp_path, "GET /after-the-fifo")), daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "the static route check blocked on a FIFO"
    assert result["found"] == {"GET /after-the-fifo": True}
