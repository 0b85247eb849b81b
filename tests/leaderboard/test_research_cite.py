"""Cite and reproduce: BibTeX for the benchmark's paper and for the leaderboard (/data/, /api/v1/cite/), and on
every report page the command that re-scores the submission offline with the run's environment stamps."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from leaderboard.research import paper_bibtex
from tests.factories import finished_submission

MANIFEST = Path(__file__).resolve().parents[2] / "benchmarks" / "repogenesis" / "benchmark.json"


def test_the_paper_bibtex_comes_from_the_manifest(demo_split):
    bench = demo_split.benchmark
    bench.info = {"paper": json.loads(MANIFEST.read_text())["paper"]}

    entry = paper_bibtex(benchmark=bench)

    assert entry.startswith("@inproceedings{peng2026demo,")
    assert "title         = {{RepoGenesis: Benchmarking End-to-End Microservice Generation from Readme to " \
           "Repository}}" in entry
    assert "author        = {Peng and others}" in entry and "booktitle     = {ACL 2026}" in entry
    assert "eprint        = {2601.13943}" in entry and "url           = {https://arxiv.org/abs/2601.13943}" in entry
    assert entry.count("{") == entry.count("}")
    bench.info = {}
    assert paper_bibtex(benchmark=bench) is None


def test_the_cite_api_and_data_page_give_both_entries(client, demo_split):
    demo_split.benchmark.info = {"paper": {"title": "A & B_test", "venue": "NeurIPS 2025"}}
    demo_split.benchmark.save()

    data = APIClient().get("/api/v1/cite/").json()
    html = client.get("/data/").content.decode()

    assert "A \\& B\\_test" in data["paper"] and re.search(r"year\s+= \{2025\}", data["paper"])
    assert data["leaderboard"].startswith("@misc{demoleaderboard")
    assert demo_split.benchmark.version[:12] in data["leaderboard"] and "\\url{http://testserver/}" in data["leaderboard"]
    assert 'id="bibtex-paper"' in html and 'id="bibtex-leaderboard"' in html


def test_every_report_page_shows_the_reproduce_command_and_environment_stamps(client, demo_split):
    sub = finished_submission(split=demo_split, system_name="Repro", scores={"TodoList": (17, "passed", 1)})
    run = sub.runs.get()
    run.environment = {"python": "3.11.2", "uv": "0.4.0"}
    run.backend, run.isolation = "local", "netns+bwrap"
    run.save()

    html = client.get(f"/submissions/{sub.pk}/").content.decode()

    assert 'id="reproduce"' in html
    assert (f"manage.py evaluate s.zip --benchmark demo --split verified --benchmark-version "
            f"{demo_split.benchmark.version[:12]} --json report.json") in html
    assert "3.11.2" in html and "netns+bwrap" in html and run.evaluator_version in html


def test_evaluate_refuses_another_benchmark_version(demo_split, tmp_path):
    with pytest.raises(CommandError, match="not 000000000000"):
        call_command("evaluate", str(tmp_path), "--benchmark", "demo", "--benchmark-version", "000000000000")
