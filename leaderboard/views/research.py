"""Pages for researchers: compare two systems, the task x system matrix, data downloads and how to cite."""
from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render

from catalog.selectors import NotFound, split_get
from leaderboard.compare import comparable_systems, system_compare
from leaderboard.exports import BOARD_CSV_FIELDS, RESULTS_CSV_FIELDS
from leaderboard.research import (MATRIX_ORDERS, leaderboard_bibtex, matrix_figure, paper_bibtex, task_matrix)
from leaderboard.selectors import LANGUAGE_VIEWS

LABELS = {"python": "Python", "java": "Java", "overall": "Overall"}


def _split(request):
    try:
        return split_get(benchmark=request.GET.get("benchmark"), split=request.GET.get("split"))
    except NotFound as exc:
        raise Http404(str(exc)) from exc


def _language(request, default: str = "overall") -> str:
    language = request.GET.get("language") or default
    if language not in LANGUAGE_VIEWS:
        raise Http404(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    return language


def compare(request):
    """/compare/?a=&b=[&language=&benchmark=&split=]: two systems (each by id or name, letter case ignored when
    only one system matches) side by side per task, the paired difference of Pass@1 with its 95% paired bootstrap
    interval, wins / ties / losses, where they differ most. Without both: the pickers. 404 for an unknown system
    or split; 400, with the pickers and the message, for an unknown view (as /api/v1/compare/) or when a and b are
    the same."""
    split = _split(request)
    language = request.GET.get("language") or "overall"
    a, b = (request.GET.get("a") or "").strip(), (request.GET.get("b") or "").strip()
    context = {"split": split, "language": language, "languages": [(k, LABELS[k]) for k in LANGUAGE_VIEWS],
               "systems": comparable_systems(split=split), "a": a, "b": b, "data": None, "error": None}
    status = 200
    if language not in LANGUAGE_VIEWS:
        context["error"] = f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}"
        context["language"] = "overall"
        return render(request, "leaderboard/compare.html", context, status=400)
    if a and b:
        try:
            context["data"] = system_compare(split=split, a=a, b=b, language=language)
        except NotFound as exc:
            context["error"], status = str(exc), 404
        except ValidationError as exc:
            context["error"], status = " ".join(exc.messages), 400
    if context["data"]:
        context["rows"] = _with_bars(context["data"]["tasks"])
        context["a"], context["b"] = context["data"]["a"]["system"], context["data"]["b"]["system"]  # the pickers
    return render(request, "leaderboard/compare.html", context, status=status)


def _with_bars(tasks: list[dict]) -> list[dict]:
    """Each comparison row with `bar`: its |difference| in percent of the width and the side it leans to."""
    return [{**t, "bar": None if t["difference"] is None else {"width": round(abs(t["difference"]) * 50, 1),
                                                                "side": "a" if t["difference"] > 0 else "b"}}
            for t in tasks]


def matrix(request):
    """/matrix/?language=&order=[&benchmark=&split=]: the task x system heat map of per-task Pass@1 (ranked
    systems by rank, tasks hardest first or by name), and the same as a table whose cells link to each result."""
    split = _split(request)
    language = _language(request)
    order = request.GET.get("order") or "difficulty"
    if order not in MATRIX_ORDERS:
        raise Http404(f"unknown order {order!r}: use one of {', '.join(MATRIX_ORDERS)}")
    data = task_matrix(split=split, language=language, order=order)
    figure = matrix_figure(data, title=f"{LABELS[language]}: per-task Pass@1, {split.benchmark.name} / "
                                       f"{split.name}") if data["systems"] and data["tasks"] else None
    rows = [{"system": s, "cells": cells} for s, cells in zip(data["systems"], data["cells"])]
    return render(request, "leaderboard/matrix.html", {
        "split": split, "language": language, "order": order, "orders": MATRIX_ORDERS, "data": data, "rows": rows,
        "figure": figure, "languages": [(k, LABELS[k]) for k in LANGUAGE_VIEWS]})


def data(request):
    """/data/[?benchmark=&split=]: the split's downloads (board CSV / JSON, every per-task result as CSV) with
    their columns, and BibTeX for the benchmark's paper and for this leaderboard."""
    split = _split(request)
    return render(request, "leaderboard/data.html", {
        "split": split, "paper_bibtex": paper_bibtex(benchmark=split.benchmark),
        "leaderboard_bibtex": leaderboard_bibtex(split=split, site_url=request.build_absolute_uri("/"),
                                                 accessed=dt.date.today()),
        "board_fields": BOARD_CSV_FIELDS, "results_fields": RESULTS_CSV_FIELDS})
