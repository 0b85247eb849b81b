"""The test phase's v2 rules (docs/scoring.md "The test phase") on small suites of our own that
mimic the patterns of the published RepoGenesis suites: a base path in the default URL, an import that no
requirements file names, a skip-unless-healthy conftest, `pytest.exit` in a fixture, a white-box import.

Real sandbox, real runner environments (uv, warm cache); each suite is a hidden folder built here.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from core.engine.collect import collect_count
from core.engine.runner import evaluate_task
from core.engine.runner_env import runner_requirements, suite_imports
from core.engine.spec import PhaseLimits, TaskSpec
from evaluation.engine_setup import sandbox_backend, toolchain, work_root
from core.grading.testcount import count_python_tests

PORT = 18431
LIMITS = PhaseLimits(install=120, start=10, test_case=20, test_suite=120)

#: A stdlib service: GET /api/v1/ping answers {"pong": true}; GET /health answers 200 only when HEALTHY=1 is in
#: start.sh's environment; everything else 404.
SERVICE = """
import http.server, json, os

HEALTHY = os.environ.get("HEALTHY") == "1"

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/api/v1/ping":
            code, body = 200, {"pong": True}
        elif self.path == "/health" and HEALTHY:
            code, body = 200, {"status": "ok"}
        else:
            code, body = 404, {"error": "not found"}
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
"""


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


def service_repo(tmp_path: Path, *, healthy: bool = True, extra: dict[str, str] | None = None) -> Path:
    env = "HEALTHY=1 " if healthy else ""
    return write_tree(tmp_path / "repo", {"app.py": SERVICE, "start.sh": f"{env}exec python3 app.py\n",
                                          **(extra or {})})


def evaluate(hidden: Path, repo: Path):
    spec = TaskSpec(name="Rules", language="python", port=PORT, hidden_dir=hidden,
                    tests_total=count_python_tests(hidden / "tests"), limits=LIMITS)
    return evaluate_task(spec=spec, repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                         toolchain=toolchain())


def test_a_default_url_with_a_base_path_is_left_as_the_suite_wrote_it(tmp_path):
    # Like RepoGenesis Chatroom and File_Relay: the suite's default includes /api/v1; v1 overrode it with the bare
    # origin and every request went to the wrong path.
    hidden = write_tree(tmp_path / "hidden", {"tests/test_ping.py": f"""
        import os, requests
        BASE = os.environ.get("API_BASE_URL", "http://localhost:{PORT}/api/v1")

        def test_ping():
            assert requests.get(BASE + "/ping", timeout=5).json() == {{"pong": True}}

        def test_no_base_url_variable_is_set():
            assert not {{"BASE_URL", "API_BASE_URL", "SERVICE_BASE_URL"}} & set(os.environ)
    """})

    result = evaluate(hidden, service_repo(tmp_path))

    assert result.outcome == "passed", result.detail
    assert (result.tests_passed, result.tests_total) == (2, 2)


def test_imports_that_no_requirements_file_names_are_installed_in_the_runner(tmp_path):
    # Like RepoGenesis Customization (requests, no requirements file) and UserManagement_2 (jwt = PyJWT).
    hidden = write_tree(tmp_path / "hidden", {"tests/test_libs.py": f"""
        import httpx, jwt, requests

        def test_requests_and_httpx():
            url = "http://127.0.0.1:{PORT}/api/v1/ping"
            assert requests.get(url, timeout=5).status_code == httpx.get(url, timeout=5).status_code == 200

        def test_jwt_from_pyjwt():
            assert jwt.decode(jwt.encode({{"a": 1}}, "k", algorithm="HS256"), "k", algorithms=["HS256"]) == {{"a": 1}}
    """})
    assert {"requests", "httpx", "PyJWT"} <= set(runner_requirements(hidden))

    result = evaluate(hidden, service_repo(tmp_path))

    assert result.outcome == "passed", result.detail
    assert (result.tests_passed, result.tests_total) == (2, 2)


HEALTH_CONFTEST = f"""
    import pytest, requests

    @pytest.fixture(autouse=True)
    def service_healthy():
        try:
            ok = requests.get("http://localhost:{PORT}/health", timeout=2).status_code == 200
        except requests.RequestException:
            ok = False
        if not ok:
            pytest.skip("service not healthy")
"""
HEALTH_TESTS = f"""
    import requests

    def test_one():
        assert requests.get("http://localhost:{PORT}/api/v1/ping", timeout=5).ok

    def test_two():
        assert requests.get("http://localhost:{PORT}/api/v1/ping", timeout=5).json()["pong"]
"""


@pytest.mark.parametrize("healthy, passed, outcome", [(True, 2, "passed"), (False, 0, "tests_failed")])
def test_a_skip_unless_healthy_conftest_counts_skips_as_not_passed(tmp_path, healthy, passed, outcome):
    # Like RepoGenesis UserManagement and WebPan: every test skips unless GET /health answers 200.
    hidden = write_tree(tmp_path / "hidden", {"tests/conftest.py": HEALTH_CONFTEST, "tests/test_api.py": HEALTH_TESTS})

    result = evaluate(hidden, service_repo(tmp_path, healthy=healthy))

    assert (result.outcome, result.tests_passed, result.tests_total) == (outcome, passed, 2), result.detail


def test_pytest_exit_in_a_fixture_scores_zero_of_n(tmp_path):
    # Like RepoGenesis Data_Rank_Searcher: the conftest calls pytest.exit when the service does not answer as it
    # expects; no case runs, N stays what the import counted.
    hidden = write_tree(tmp_path / "hidden", {
        "tests/conftest.py": f"""
            import pytest, requests

            @pytest.fixture(scope="session", autouse=True)
            def service_up():
                if requests.get("http://localhost:{PORT}/ready", timeout=2).status_code != 200:
                    pytest.exit("service is not ready", returncode=1)
        """,
        "tests/test_api.py": HEALTH_TESTS,
    })

    result = evaluate(hidden, service_repo(tmp_path))

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 2)
    assert result.dsr == 1


def test_a_white_box_suite_imports_the_submission_after_the_runner_packages(tmp_path):
    # Like RepoGenesis Blog: the suite imports the submission's own package.
    hidden = write_tree(tmp_path / "hidden", {"tests/test_whitebox.py": """
        import requests
        from shop.pricing import total

        def test_total():
            assert total([2, 3]) == 5

        def test_runner_requests_is_not_the_submissions():
            assert "site-packages" in requests.__file__
    """})
    assert suite_imports(hidden).unmapped == ("shop",)
    repo = service_repo(tmp_path, extra={"shop/__init__.py": "", "shop/pricing.py": "def total(xs):\n    return sum(xs)\n",
                                         "requests.py": "raise ImportError('the submission shadowed requests')\n"})

    result = evaluate(hidden, repo)

    assert result.outcome == "passed", result.detail
    assert (result.tests_passed, result.tests_total) == (2, 2)


def test_an_uncollectable_class_is_counted_and_run_with_a_documented_fix(tmp_path):
    # pytest's default class pattern (Test*) collects nothing from `UserChecks`: N = 0 as published. A manifest fix
    # (pytest-args) is applied both to the import's collection and to every run.
    hidden = write_tree(tmp_path / "hidden", {"tests/test_users.py": f"""
        import requests

        class UserChecks:
            def test_ping(self):
                assert requests.get("http://localhost:{PORT}/api/v1/ping", timeout=5).ok

            def test_pong(self):
                assert requests.get("http://localhost:{PORT}/api/v1/ping", timeout=5).json()["pong"]
    """})
    fix = ("-o", "python_classes=UserChecks")
    assert count_python_tests(hidden / "tests") == 0
    assert collect_count(hidden, toolchain()) == 0
    assert collect_count(hidden, toolchain(), pytest_args=fix) == 2
    spec = TaskSpec(name="Rules", language="python", port=PORT, hidden_dir=hidden, tests_total=2, limits=LIMITS,
                    pytest_args=fix)

    result = evaluate_task(spec=spec, repo_src=service_repo(tmp_path), backend=sandbox_backend(),
                           work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 2, 2), result.detail
