"""Declared endpoints: path normalisation and extraction from READMEs written in the styles real tasks use."""
from __future__ import annotations

import pytest

from core.grading.endpoints import Endpoint, declared_base_path, extract_endpoints, normalize_path


@pytest.mark.parametrize(
    "raw, normalised",
    [
        ("/api/items", "/api/items"),
        ("/api/items/", "/api/items"),
        ("/", "/"),
        ("", "/"),
        ("api/items", "/api/items"),
        ("/api/items?page=2&size=10", "/api/items"),
        ("/api/items/#top", "/api/items"),
        ("//api///items//", "/api/items"),
        ("/users/{id}", "/users/{param}"),
        ("/users/{user_id}/roles/{role_id}", "/users/{param}/roles/{param}"),
        ("/users/<id>", "/users/{param}"),
        ("/users/<int:id>/", "/users/{param}"),
        ("/users/:id", "/users/{param}"),
        ("/users/:id/posts/:postId", "/users/{param}/posts/{param}"),
        ("/users/{id:int}", "/users/{param}"),
        ("/files/{path:path}", "/files/{param}"),
        ("/items/{id:[0-9]+}", "/items/{param}"),
        ("http://localhost:8080/api/x/", "/api/x"),
        ("/time:now", "/time:now"),  # a colon inside a segment is not a parameter
        ("/api/items?next=/x?y=1", "/api/items"),  # the query cut at its first "?", not its last (rsplit mutant)
        ("/export/XLSX/", "/export/XLSX"),  # only slashes are stripped from the end (rstrip("XX/XX") mutant)
    ],
)
def test_normalize_path(raw, normalised):
    assert normalize_path(raw) == normalised


def test_endpoint_of_normalises_and_validates():
    assert Endpoint.of("get", "/users/<int:id>/") == Endpoint("GET", "/users/{param}")
    assert Endpoint.of("GET", "/a/{x}") == Endpoint.of("GET", "/a/:y")  # one placeholder name: duplicates collapse
    assert str(Endpoint.of("delete", "/a/{id}")) == "DELETE /a/{param}"
    with pytest.raises(ValueError, match="unknown HTTP method 'FETCH'"):  # the refusal names the method (message mutant)
        Endpoint.of("FETCH", "/x")


def eps(*pairs: str) -> list[Endpoint]:
    return [Endpoint.of(*p.split(" ", 1)) for p in pairs]


CHATROOM_STYLE = """# Web Chatroom Service

## API Definition

### Service Listening
- Port: 8083
- Base path: `/api/v1`

### Health Check
- API Name: `GET /api/v1/health`
- Input: None

### Register User
- API Name: `POST /api/v1/auth/register`

### Join Room
- API Name: `POST /api/v1/rooms/{room_id}/join`
- Auth: `Authorization: Bearer <token>`

### Pull Messages
- API Name: `GET /api/v1/rooms/{room_id}/messages`

Ensure the service is running at `http://localhost:8083` before running tests.
"""


def test_list_items_with_code_spans():
    assert extract_endpoints(CHATROOM_STYLE) == eps(
        "GET /api/v1/health",
        "POST /api/v1/auth/register",
        "POST /api/v1/rooms/{room_id}/join",
        "GET /api/v1/rooms/{room_id}/messages",
    )


HEADINGS_STYLE = """# Todo service
### POST /api/todos
Creates a todo.
### GET /api/todos/{id}
#### `DELETE /api/todos/{todo_id}`
## 3. PUT /api/todos/<int:id>
**PATCH** `/api/todos/:id`
**Endpoint**: `POST /api/roles/{role_id}/permissions`
- **Interface**: `GET /projects/{id}/tasks`
"""


def test_headings_bold_and_labels():
    assert extract_endpoints(HEADINGS_STYLE) == eps(
        "POST /api/todos",
        "GET /api/todos/{id}",
        "DELETE /api/todos/{id}",
        "PUT /api/todos/{id}",
        "PATCH /api/todos/{id}",
        "POST /api/roles/{id}/permissions",
        "GET /projects/{id}/tasks",
    )


SEPARATE_LINES_STYLE = """## API Definitions
### 1. List All Projects
- **Method**: `GET`
- **Path**: `/projects`
- **Output**: `[{"id": "string"}]`

### 2. Create Project
- **Method**: `POST`
- **Path**: `/projects`
- **Input**: `{"name": "string"}`

### 3. Get Build Status
- **Path**: `/builds/{id}/status`
- **Method**: GET

### 4. Orphan
- **Method**: `DELETE`

### 5. Another
- **Path**: `/never/paired`
"""


def test_method_and_path_on_separate_lines():
    assert extract_endpoints(SEPARATE_LINES_STYLE) == eps("GET /projects", "POST /projects", "GET /builds/{id}/status")


EVE_AND_PLAIN_STYLE = """Endpoints
- GET `/people`
  - Output (200): JSON document with an `_items` array
- POST `/people`
- PUT `/people/{id}`
  - After deletion a subsequent `GET /people/{id}` returns `404 Not Found`

Authentication

POST /api/v1/auth/register/
Input schema
{
  "username": string
}

GET /api/v1/movies/
Headers: Authorization: Bearer <access>

GET /health
"""


def test_method_before_code_path_and_bare_lines():
    assert extract_endpoints(EVE_AND_PLAIN_STYLE) == eps(
        "GET /people",
        "POST /people",
        "PUT /people/{id}",
        "GET /people/{id}",
        "POST /api/v1/auth/register",
        "GET /api/v1/movies",
        "GET /health",
    )


TABLES_STYLE = """| Method | Path | Description |
|--------|------|-------------|
| GET | `/api/books` | list books |
| **POST** | /api/books | create |
| PUT, PATCH | `/api/books/:id` | update |
| DELETE | /api/books/{id} | remove |

| Endpoint | Notes |
| :--- | ---: |
| `GET /api/authors` | all authors |
| DELETE /api/authors/{author_id} | remove |

| Verb | URL |
|---|---|
| GET | http://localhost:8080/api/stats |

| Field | Type |
|---|---|
| id | /not/an/endpoint |
"""


def test_tables():
    assert extract_endpoints(TABLES_STYLE) == eps(
        "GET /api/books",
        "POST /api/books",
        "PUT /api/books/{id}",
        "PATCH /api/books/{id}",
        "DELETE /api/books/{id}",
        "GET /api/authors",
        "DELETE /api/authors/{id}",
        "GET /api/stats",  # a URL in a path column: the method column makes it an endpoint
    )


CODE_STYLE = """## Examples
```http
GET /api/x HTTP/1.1
Host: localhost:8080
```

```bash
curl http://localhost:8080/api/not-an-endpoint
curl -s localhost:8080/api/also-not
curl -X POST http://localhost:8080/api/items \\
  -H 'Content-Type: application/json' -d '{"name": "a"}'
curl --request DELETE "http://localhost:8080/api/items/42"
```

```python
requests.get("http://localhost:8080/api/python-not")
# GET /api/comment-not-at-line-start is fine to skip
```

Run `curl -X PUT http://127.0.0.1:8080/api/items/7` to update.
"""


def test_code_blocks_and_curl():
    assert extract_endpoints(CODE_STYLE) == eps(
        "GET /api/x", "POST /api/items", "DELETE /api/items/{id}", "PUT /api/items/{id}"
    )


NEGATIVES = """# Notes
The service supports GET/POST and POST / PUT requests, see http://localhost:8080/docs.
Visit `http://localhost:8000/api/v1/movies/` with a browser.
Get /lowercase is prose, and so is getting /things.
GET users without a slash is not a path.
"""


def test_prose_and_urls_without_methods_are_ignored():
    assert extract_endpoints(NEGATIVES) == []


def test_duplicates_collapse_in_first_seen_order():
    readme = """
### GET /users/{id}
- `POST /users`
| Method | Path |
|---|---|
| GET | /users/<int:user_id>/ |
| POST | /users/ |
### GET /users/:uid
- GET `/users`
"""
    assert extract_endpoints(readme) == eps("GET /users/{param}", "POST /users", "GET /users")


def test_chinese_readme_with_bare_lines():
    readme = "接口定义\n\nGET /health\n\n语义：健康检查。\n\nPOST /echo\n\n输入（application/json）：\n\nGET /sum\n"
    assert extract_endpoints(readme) == eps("GET /health", "POST /echo", "GET /sum")


@pytest.mark.parametrize("readme, paths", [
    # Listed relative to a base URL with a path (RepoGenesis Timer4Tasker): every endpoint gets it.
    ("- **Base URL**: `http://localhost:8080/api/v1`\n\n**Endpoint**: `POST /tasks`\n\n**Endpoint**: `GET /stats`\n",
     ["/api/v1/tasks", "/api/v1/stats"]),
    # Mixed (StructuredDataConvertor): relative ones get the base where the README also shows the prefixed form.
    ("- **API Base Path**: /api/v1\n\n### `POST /convert`\n\n```\ncurl -X POST http://localhost:8000/api/v1/convert\n"
     "```\n", ["/api/v1/convert"]),
    # Mixed, one documented at the root (the demo's Notes): it stays at the root.
    ("- Base path: `/api` (the health check is at the root)\n\n- GET /health\n- GET /api/notes\n",
     ["/health", "/api/notes"]),
    # A base URL with no path, or the root as base path: nothing changes.
    ("- Base URL: `http://127.0.0.1:5001`\n\n- GET /people\n", ["/people"]),
    ("- Base Path: /\n\n- GET /rooms/{id}/messages\n", ["/rooms/{param}/messages"]),
])
def test_a_stated_base_path_is_applied_to_relative_endpoints(readme, paths):
    assert [e.path for e in extract_endpoints(readme)] == paths


@pytest.mark.parametrize("readme, expected", [
    ("| Path | Description | Method |\n|---|---|---|\n| `/todos` | list them | GET |\n"
     "| `/todos/{id}` | one | GET, DELETE |\n",
     ["GET /todos", "GET /todos/{id}", "DELETE /todos/{id}"]),
    ("| # | Description | Endpoint | Verb |\n| -- | -- | -- | -- |\n| 1 | list | /todos | GET |\n"
     "| 2 | create | /todos | POST |\n",
     ["GET /todos", "POST /todos"]),
    ("| Description | Method | URL |\n|:---|:---:|---:|\n| list | `GET` | `http://localhost:8080/api/items` |\n"
     "| update | **PUT** | `http://localhost:8080/api/items/<int:id>` |\n",
     ["GET /api/items", "PUT /api/items/{id}"]),
], ids=["path-first-method-last", "path-third-verb-fourth", "url-column-after-method"])
def test_tables_with_the_path_in_another_column_keep_their_endpoints(readme, expected):
    """Wherever the Method and Path columns are, each row gives its endpoints (API Coverage's denominator)."""
    assert extract_endpoints(readme) == eps(*expected)


# Tests added for the mutation run of endpoints.py (docs/mutation.md); each comment names the mutant it kills.
CONTINUED_CODE = "\n".join([
    "```bash",
    "curl -X POST \\",
    "  http://localhost:8080/api/orders \\",
    "  -H 'Content-Type: application/json'",
    "GET /api/orders/42?expand=a?b HTTP/1.1",
    "GET /api/health HTTP/1.1",
    "curl -X DELETE http://localhost:8080/api/orders/9\\   ",  # trailing spaces after the backslash
    "  -H 'Accept: */*'",
    "```",
])


def test_continued_curl_lines_and_request_lines_in_code():
    # A curl whose URL is on a continuation line (the join, its `rstrip`, its `i += 1`, the look at the next line
    # for a fence); two request lines never joined (`and` made `or`); an id before a query with two "?"
    # (split("?") made rsplit or split(None)); a backslash glued to the URL with trailing spaces cut exactly.
    assert extract_endpoints(CONTINUED_CODE) == eps(
        "POST /api/orders", "GET /api/orders/{id}", "GET /api/health", "DELETE /api/orders/{id}")


@pytest.mark.parametrize("readme, expected", [
    ("```\ncurl -X PUT \\\n  http://localhost:8080/api/orders/5", ["PUT /api/orders/{id}"]),  # `i + 2 < len` mutant
    ("```\ncurl -X GET http://localhost:8080/api/ping \\", ["GET /api/ping"]),  # `i - 1`/`<=`: IndexError
])
def test_a_continuation_at_the_end_of_an_unclosed_code_block(readme, expected):
    assert extract_endpoints(readme) == eps(*expected)


TABLE_EDGES = """| Method | Path |
|--------|------|
GET | /api/a
|PUT|/api/b|
| DELETE |

| HTTP | Route |
|------|-------|
| PATCH | Http://localhost:8080/api/c |
| ***OPTIONS*** /api/d | |

Pipes | in the last line of prose"""


def test_table_rows_in_every_spelling():
    # A row without a leading pipe under a header with one (`startswith("|")`, `and` made `or` in _cells); a compact
    # row (`row[1:]`, `row[:-1]` off by one); a short row skipped, not an IndexError (`<` made `<=`); a column named
    # HTTP (`n == "http"`); a URL with an upper-case scheme (`[A-Za-z]`); a "METHOD /path" cell only the cell match
    # sees (`m = None`); a "|" on the last line (`i + 1 < len` made `i - 1` or `<=`: IndexError).
    assert extract_endpoints(TABLE_EDGES) == eps("GET /api/a", "PUT /api/b", "PATCH /api/c", "OPTIONS /api/d")


@pytest.mark.parametrize("rows", [[], ["| list | items |"]], ids=["no-row", "one-row"])
def test_the_line_after_a_table_is_not_swallowed(rows):
    # `end = i + 2` made `i + 3`, `end += 1` made `+= 2`: the line after the table would be read as a row.
    readme = "\n".join(["| Name | Notes |", "|---|---|", *rows, "- **Method**: `GET`", "- **Path**: `/items`"])
    assert extract_endpoints(readme) == eps("GET /items")


def test_a_table_header_is_never_an_endpoint():
    # `i + 1 < len` made `i + 2`: a header with no rows at the end would be scanned as prose.
    assert extract_endpoints("Endpoints:\n\n| `GET /items` | notes |\n|---|---|") == []


@pytest.mark.parametrize("line, expected", [
    ("- GET /reports/XLSX.", ["GET /reports/XLSX"]),  # prose punctuation cut from the end only, exactly (rstrip mutants)
    ("- GET /POST", []),  # a method word in capitals is never a path (`strip("/")` made `strip()`)
    ("- GET /post", ["GET /post"]),  # a route named like a method in lower case is one (it was dropped)
    ("- DELETE /Delete/", ["DELETE /Delete"]),  # mixed case too
    ("- PUT /XPUT", ["PUT /XPUT"]),  # only the slashes are stripped before that check (`strip("XX/XX")`)
])
def test_a_path_in_prose(line, expected):
    assert extract_endpoints(line) == eps(*expected)


@pytest.mark.parametrize("readme, base", [
    ("- Base URL: `http://localhost:8080/api/v1/`.", "/api/v1"),  # `rstrip("/.")` made `rstrip(None)`
    ("- Base path: /api/FX.", "/api/FX"),  # only "/" and "." are stripped (`rstrip("XX/.XX")`)
])
def test_the_declared_base_path(readme, base):
    assert declared_base_path(readme) == base


def test_a_relative_endpoint_shown_with_its_base_and_an_example_id_gets_the_base():
    # _mentions' `{param}` no longer replaced by the id pattern: /items/{id} would stay at the root.
    readme = ("- Base path: `/api`\n- GET /api/health\n- GET /items/{id}\n- GET /orders\n\n"
              "Example: `curl http://localhost:8080/api/items/42`\n")
    assert extract_endpoints(readme) == eps("GET /api/health", "GET /api/items/{id}", "GET /orders")
