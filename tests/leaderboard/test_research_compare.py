"""Compare two systems (docs/scoring.md "Comparing two systems"): per task side by side, the paired difference of
Pass@1 with its 95% paired bootstrap interval, wins / ties / losses, where they differ most; on the demo split and
on RepoGenesis Verified, checked against a direct computation."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from catalog.models import Benchmark
from core.grading import bootstrap
from core.grading.metrics import paired_comparison, paired_tie_with_leader
from leaderboard.compare import system_compare
from leaderboard.selectors import leaderboard_rows
from tests.factories import finished_submission

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT.parent / "shared" / "data" / "repogenesis" / "verified"
MANIFEST = ROOT / "benchmarks" / "repogenesis" / "benchmark.json"

STRONG = {"TodoList": (17, "passed", 1), "InventoryService": (12, "tests_failed", 1), "Notes": (15, "passed", 1),
          "Tic-Tac-Toe": (18, "tests_failed", 1)}
WEAK = {"TodoList": (3, "tests_failed", 1), "InventoryService": (12, "tests_failed", 1),
        "Bookstore": (9, "tests_failed", 1)}


def _per_task(split, scores):
    """Per-task Pass@1 in the split's task order (by name), straight from the seeded scores: P / N."""
    return [scores.get(t.name, (0,))[0] / t.tests_total for t in split.tasks.order_by("name") if t.tests_total]


def test_paired_comparison_is_the_mean_difference_with_the_seeded_paired_interval():
    a, b = [1.0, 0.5, 0.25, 0.0], [0.5, 0.5, 0.0, 0.25]

    result = paired_comparison(a, b)

    assert result.tasks == 4 and result.difference == pytest.approx(0.125)
    assert result.difference_ci == bootstrap.mean_interval([0.5, 0.0, 0.25, -0.25])
    assert (result.wins, result.ties, result.losses) == (2, 1, 1)
    assert result.significant is not (result.difference_ci[0] <= 0 <= result.difference_ci[1])
    with pytest.raises(ValueError):
        paired_comparison([1.0], [1.0, 0.0])


def test_compare_agrees_with_a_direct_computation_and_with_the_tie_marker(demo_split):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)
    a, b = _per_task(demo_split, STRONG), _per_task(demo_split, WEAK)

    data = system_compare(split=demo_split, a="Strong", b="Weak")

    lo, hi = bootstrap.paired_difference_interval(a, b)
    c = data["comparison"]
    assert c["difference_ci"] == [lo, hi] and c["difference"] == pytest.approx(sum(a) / len(a) - sum(b) / len(b))
    assert (c["wins"], c["ties"], c["losses"]) == (3, 2, 1)  # Bookstore goes to Weak; InventoryService, U_2 tie
    assert data["largest_differences"][:2] == ["Notes", "Tic-Tac-Toe"]
    todo = next(t for t in data["tasks"] if t["task"] == "TodoList")
    assert (todo["a"]["tests_passed"], todo["a"]["tests_total"], todo["a"]["outcome"]) == (17, 17, "passed")
    assert (todo["b"]["tests_passed"], todo["b"]["outcome"], todo["b"]["dsr"]) == (3, "tests_failed", 1)
    # Strong leads the board: its comparison with Weak says the same as Weak's ≈#1 marker.
    weak_row = next(r for r in leaderboard_rows(split=demo_split) if r.system.name == "Weak")
    assert weak_row.tied_with_leader == (lo <= 0 <= hi) == paired_tie_with_leader(a, b)


def test_the_page_and_the_api_show_the_same_interval(client, demo_split):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)
    lo, hi = bootstrap.paired_difference_interval(_per_task(demo_split, STRONG), _per_task(demo_split, WEAK))

    api = APIClient().get("/api/v1/compare/", {"a": "Strong", "b": "Weak"}).json()
    page = client.get("/compare/", {"a": "Strong", "b": "Weak"})

    assert api["comparison"]["difference_ci"] == pytest.approx([lo, hi])
    html = page.content.decode()
    assert page.status_code == 200
    assert f"95% paired interval [{100 * lo:+.1f}, {100 * hi:+.1f}]" in html
    assert 'id="cmp-TodoList"' in html and "17/17" in html and "3/17" in html


def test_python_view_pairs_only_python_tasks(demo_split):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)

    data = APIClient().get("/api/v1/compare/", {"a": "Strong", "b": "Weak", "language": "java"}).json()

    assert [t["task"] for t in data["tasks"]] == ["InventoryService"]
    assert data["comparison"]["tasks"] == 1 and data["comparison"]["difference_ci"] == [0.0, 0.0]


def test_every_evaluated_leaderboard_row_links_to_a_comparison(client, demo_split):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)

    html = client.get("/").content.decode()

    assert "/compare/?benchmark=demo&amp;split=verified&amp;a=Weak&amp;b=Strong&amp;language=python" in html
    assert "/compare/?benchmark=demo&amp;split=verified&amp;a=Strong&amp;b=Weak&amp;language=python" in html


@pytest.mark.parametrize("params, status, message", [
    ({"a": "Strong", "b": "Strong"}, 400, "two different systems"),
    ({"a": "Strong", "b": "Nobody"}, 404, "no system named 'Nobody'"),
    ({"a": "Strong"}, 400, "b"),
    ({"a": "Strong", "b": "Weak", "language": "rust"}, 400, "unknown language"),
])
def test_bad_comparisons_are_refused_with_the_reason(demo_split, params, status, message):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)

    response = APIClient().get("/api/v1/compare/", params)

    assert response.status_code == status and message in response.content.decode()


def test_a_system_without_a_run_on_the_split_is_a_404_on_the_page(client, demo_split):
    from catalog.models import System, Team

    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    System.objects.create(team=Team.objects.create(name="idle"), name="Idle")

    response = client.get("/compare/", {"a": "Strong", "b": "Idle"})

    assert response.status_code == 404 and "has no finished public evaluation" in response.content.decode()
    assert client.get("/compare/").status_code == 200  # the pickers


@pytest.fixture
def repogenesis_split(db):
    assert RELEASE.is_dir(), f"the shared copy of RepoGenesis Verified is missing at {RELEASE}"
    call_command("import_benchmark", str(RELEASE), "--manifest", str(MANIFEST), "--skip-reference-check",
                 stdout=open("/dev/null", "w"))
    return Benchmark.objects.get(name="repogenesis", is_current=True).splits.get(name="verified")


def test_on_repogenesis_verified_the_compare_view_shows_the_directly_computed_paired_interval(client,
                                                                                              repogenesis_split):
    rng = random.Random(7)
    tasks = [t for t in repogenesis_split.tasks.order_by("name")]
    seeded = {}
    for name in ("Seed Alpha", "Seed Beta"):
        scores = {}
        for t in tasks:
            passed = rng.randint(0, t.tests_total)
            outcome = "passed" if t.tests_total and passed == t.tests_total else "tests_failed"
            scores[t.name] = (passed, outcome, 1)
        seeded[name] = scores
        finished_submission(split=repogenesis_split, system_name=name, scores=scores)
    a, b = (_per_task(repogenesis_split, seeded[n]) for n in ("Seed Alpha", "Seed Beta"))
    lo, hi = bootstrap.paired_difference_interval(a, b)
    assert len(a) == 29  # 30 tasks, simple-rbac-service has N = 0 and is not paired

    api = APIClient().get("/api/v1/compare/", {"benchmark": "repogenesis", "a": "Seed Alpha",
                                                "b": "Seed Beta"}).json()
    html = client.get("/compare/", {"benchmark": "repogenesis", "a": "Seed Alpha", "b": "Seed Beta"}).content.decode()

    assert api["comparison"]["tasks"] == 29
    assert api["comparison"]["difference_ci"] == pytest.approx([lo, hi])
    assert api["comparison"]["difference"] == pytest.approx(sum(a) / 29 - sum(b) / 29)
    assert f"95% paired interval [{100 * lo:+.1f}, {100 * hi:+.1f}]" in html
    rbac = next(t for t in api["tasks"] if t["task"] == "simple-rbac-service")
    assert rbac["excluded"] is True and rbac["difference"] is None
