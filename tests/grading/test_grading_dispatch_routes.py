"""Routes of hand-written dispatchers (core.grading.dispatch_routes), pinned form by form: what each comparison of a
raw request path becomes (methods, path, prefix), from the mutation pass of issue 16."""
from __future__ import annotations

import pytest

from core.grading.dispatch_routes import dispatch_routes, regex_to_path


def routes(text: str, *, python: bool = False) -> list[tuple]:
    return [(sorted(m) if m else None, path, prefix) for m, path, prefix in dispatch_routes(text, python=python)]


@pytest.mark.parametrize("pattern, path", [
    ("^/api/items/(\\\\d+)$", "/api/items/{param}"),  # a Java string's doubled backslashes
    ("^/api/items/(?P<id>\\d+)$", "/api/items/{param}"),  # a Python named group
    ("^/api/items/(?<id>[^/]+)$", "/api/items/{param}"),  # a Java named group
    ("^/api/items/\\S+$", "/api/items/{param}"),  # \S, not \s
    ("/files/[^/]*", "/files/{param}"),
    ("^/api/v1\\.0/items/?$", "/api/v1.0/items"),  # an escaped dot, an optional trailing slash
    ("^\\/api\\/items\\-all$", "/api/items-all"),  # escaped slashes and dash
    ("^/api/v1\\\\.0/items/\\\\d+$", "/api/v1.0/items/{param}"),  # a Java string's doubled backslashes outside a group
    ("^/users/\\w+/posts/\\d+$", "/users/{param}/posts/{param}"),  # \w and \d repeated, outside a group
    ("^/a/\\D+$", None),  # \D (not a digit) is no path segment rule
    ("^/a|/b$", None),  # an alternation is no single path
    ("api/items", None),  # not a path
])
def test_a_route_regex_becomes_a_path(pattern, path):
    assert regex_to_path(pattern) == path


def test_every_comparison_form_is_an_exact_route_and_none_is_a_prefix_but_startswith():
    java = "\n".join([
        'static final String BASE = "/api";',
        'static final String ITEMS = "/items";',
        'if (path.equals(BASE + ITEMS)) { }',  # two constants joined
        'if ("/health".equalsIgnoreCase(path)) { }',
        'if (path.matches("/api/items/[0-9]+")) { }',  # Java anchors matches(); a group in it is beyond the regex level
        'if (path.startsWith("/static/")) { }',
        'Pattern bad = Pattern.compile("a|b");',  # no path: skipped, the next one still read
        'Pattern ITEM = Pattern.compile("^/orders/(\\\\d+)$");',
        'Matcher mm = ITEM.matcher(path);',
    ])
    assert routes(java) == [
        (None, "/api/items", False),
        (None, "/health", False),
        (None, "/api/items/{param}", False),
        (None, "/static/", True),
        (None, "/orders/{param}", False),
    ]


def test_python_membership_tests_and_handlers():
    text = "\n".join([
        "class H(BaseHTTPRequestHandler):",
        "    def do_GET(self):",
        "        if self.path in ('GET', '/a', \"/b\"):",  # only the paths of the tuple
        "            pass",
        "    def do_DELETE(self):",
        "        if self.path == '/c':",
        "            pass",
    ])
    assert routes(text, python=True) == [(["GET"], "/a", False), (["GET"], "/b", False), (["DELETE"], "/c", False)]
    assert routes(text.replace(" in (", " IN ("), python=True) == [(["DELETE"], "/c", False)]  # `in` is a keyword


def test_a_method_is_read_from_the_comparisons_own_line_before_the_code_after_it():
    # The method literal before the comparison on its line wins over those of the lines after; each comparison's
    # following code ends where the next comparison starts.
    java = "\n".join([
        'String m = exchange.getRequestMethod();',
        'if ("POST".equals(m) && path.equals("/a")) {',
        '    handleA("DELETE");',
        '}',
        'if (path.equals("/b")) {',
        '    check("PUT");',
        '} else if (path.equals("/c")) { check("PATCH"); }',
    ])
    assert routes(java) == [(["POST"], "/a", False), (["PUT"], "/b", False), (["PATCH"], "/c", False)]


def test_a_method_literal_at_the_start_of_the_first_or_any_line_and_up_to_the_end_of_the_last():
    # The comparison's line is read whole: on the file's first line, from a line's first character (minifiers
    # write `"GET"===e.method`), and up to the end of a last line that has no newline.
    first_line = 'if ("POST".equals(method) && path.equals("/a")) {\n    create(exchange);\n}\n'
    assert routes(first_line) == [(["POST"], "/a", False)]
    minified = "\n".join([
        "http.createServer((e,t)=>{",
        '"GET"===e.method&&"/a"===e.url?list(t):',
        '"POST"===e.method&&"/a"===e.url?add(t):t.end()})',
    ])
    assert routes(minified) == [(["GET"], "/a", False), (["POST"], "/a", False)]
    last_line = "\n".join([
        "class H(BaseHTTPRequestHandler):",
        "    def route(self):",
        '        if self.path == "/a" or self.path == "/b": wanted = "GET"',  # no newline at the end of the file
    ])
    assert routes(last_line, python=True) == [(["GET"], "/a", False), (["GET"], "/b", False)]


def test_a_membership_test_outside_a_handler_takes_the_methods_of_its_line_or_the_code_after_it():
    text = "\n".join([
        "class H(BaseHTTPRequestHandler):",
        "    def route(self):",
        '        if self.command == "PUT" and self.path in ("/a", "/b"):',
        "            pass",
        '        if self.path in ("/c",):',
        '            ok = self.command == "PATCH"',
    ])
    assert routes(text, python=True) == [(["PUT"], "/a", False), (["PUT"], "/b", False), (["PATCH"], "/c", False)]


def test_a_python_handler_name_decides_nothing_outside_python():
    # `def do_DELETE` in a Java text block (an example client shown by the service) is no handler of the Java code.
    java = "\n".join([
        'String help = """',
        "    class Handler(BaseHTTPRequestHandler):",
        "        def do_DELETE(self):",
        '    """;',
        'if (path.equals("/a") && "GET".equals(method)) { }',
    ])
    assert routes(java) == [(["GET"], "/a", False)]
