"""Published results "reported by the authors": the data file, the consistency check, import, verification,
and where the rows show up (kept apart from ranked rows until an admin verifies them)."""
import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from catalog.models import ReportedResult
from catalog.reported_files import ReportedFormatError, ratio_possible, read_reported
from leaderboard.selectors import leaderboard_rows
from catalog.services import reported_result_verify
from tests.conftest import ROOT
from tests.factories import finished_submission

MANIFEST = ROOT / "benchmarks" / "reported" / "repogenesis-verified.toml"
#: One consistent row, and one whose Python AC (33.33% of 20 endpoints) and DSR (50% of 5 tasks) are impossible.
TWO_ROWS = ["Paper Bot,GPT-X,agent,40.00,50.00,60.00,0.00,25.00,100.00",
            "Odd Bot,GPT-Y,ide,1.00,33.33,50.00,0.00,0.00,0.00"]
BOT = "Bot,M,agent,40.00,50.00,60.00,0.00,25.00,100.00"
HEADER = "system,base_model,type,python_pass_at_1,python_ac,python_dsr,java_pass_at_1,java_ac,java_dsr"


def write_source(folder: Path, rows: list[str], *, benchmark: str = "demo", extra: str = "") -> Path:
    """A manifest + CSV in `folder` for the demo benchmark's verified split (5 Python, 1 Java task), so that
    reported rows can meet evaluated rows in the same table. Returns the manifest path."""
    (folder / "r.csv").write_text("# test data\n" + "\n".join([HEADER, *rows]) + "\n")
    manifest = folder / "r.toml"
    manifest.write_text(f'''benchmark = "{benchmark}"
split = "verified"
results = "r.csv"
source = "test source"
source_url = "https://example.org/results"
source_date = 2026-02-01
paper = "A paper"
{extra}
[denominators.python]
tasks = 5
endpoints = 20
[denominators.java]
tasks = 1
endpoints = 4
''')
    return manifest


def import_reported(manifest: Path) -> str:
    """Run `manage.py import_reported` and return what it printed (stdout, then stderr)."""
    out, err = io.StringIO(), io.StringIO()
    call_command("import_reported", str(manifest), stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


def test_the_published_file_reads_with_its_source_and_every_row():
    source = read_reported(MANIFEST)
    assert (source.benchmark, source.split) == ("repogenesis", "verified")
    assert "pzy2000/RepoGenesis" in source.source and str(source.source_date) == "2026-02-01"
    assert len(source.rows) == 36
    best = next(r for r in source.rows if (r.system, r.base_model) == ("Copilot", "Claude Sonnet 4.5"))
    # The best published numbers, as in the paper's abstract.
    assert best.values["python_pass_at_1"] == Decimal("23.67") and best.values["java_pass_at_1"] == Decimal("21.45")


def test_our_consistency_check_agrees_with_the_files_own_column_on_every_row():
    lines = [line for line in MANIFEST.with_suffix(".csv").read_text().splitlines() if not line.startswith("#")]
    claimed = {(r["system"], r["base_model"]): r["consistent"] == "yes" for r in csv.DictReader(lines)}
    computed = {(r.system, r.base_model): r.consistent for r in read_reported(MANIFEST).rows}
    assert computed == claimed
    assert sum(not ok for ok in computed.values()) == 12


@pytest.mark.parametrize("value, denominator, possible", [
    ("4.55", 22, True),     # 1/22 = 4.5454..., rounded
    ("67.82", 115, True),   # 78/115 = 67.826..., truncated
    ("16.50", 22, False),   # 3.63 tasks
    ("2.27", 22, False),    # half a task
    ("0.00", 22, True), ("100.00", 8, True), ("12.50", 8, True), ("12.00", 8, False),
])
def test_a_published_ratio_must_be_a_whole_count_over_its_denominator(value, denominator, possible):
    assert ratio_possible(Decimal(value), denominator) is possible


def test_pass_at_1_above_zero_with_dsr_zero_is_a_remark_not_an_inconsistency():
    row = next(r for r in read_reported(MANIFEST).rows if (r.system, r.base_model) == ("Antigravity", "Gemini 3 Pro"))
    assert row.consistent
    assert [f.field for f in row.findings if f.kind == "definition"] == ["python_dsr"]


@pytest.mark.parametrize("row, message", [
    ("Bot,M,agent,abc,0,0,0,0,0", "line 3, python_pass_at_1: 'abc' is not a plain percentage"),
    ("Bot,M,agent,101,0,0,0,0,0", "line 3, python_pass_at_1: '101' is not a percentage between 0 and 100"),
    ("Bot,M,agent,1.234,0,0,0,0,0", "python_pass_at_1: '1.234' must be written with 2 decimals"),
    ("Bot,M,agent,10,0,0,0,0,0", "'10' must be written with 2 decimals, as published \\(e.g. 10.00\\)"),
    ("Bot,M,agent,1E+1,0,0,0,0,0", "'1E\\+1' is not a plain percentage"),
    ("Bot,M,agent,-1.00,0,0,0,0,0", "'-1.00' is not a plain percentage"),
    ("Bot,M,agent,NaN,0,0,0,0,0", "'NaN' is not a plain percentage"),
    (f"{'B' * 101},M,agent,1.00,0,0,0,0,0", "line 3, system: longer than 100 characters"),
    ('Bot,"M\nX",agent,1.00,0,0,0,0,0', "line 3: unexpected end of data \\(each row must be on one line\\)"),
    ("Bot,M,robot,1,0,0,0,0,0", "line 3: type 'robot' is not one of agent, ide, other"),
    ("Bot,M,agent,1,0,0", "line 3: expected 9 columns, found 6"),
    (f"{BOT}\n{BOT}", "line 4: Bot / M repeats line 3"),
])
def test_bad_rows_name_their_line_and_column(tmp_path, row, message):
    with pytest.raises(ReportedFormatError, match=message):
        read_reported(write_source(tmp_path, row.split("\n")))


def test_a_manifest_without_its_source_is_refused(tmp_path):
    manifest = write_source(tmp_path, ["Bot,M,agent,0,0,0,0,0,0"])
    manifest.write_text(manifest.read_text().replace('source = "test source"\n', ""))
    with pytest.raises(ReportedFormatError, match="missing source"):
        read_reported(manifest)


def test_import_is_idempotent_and_a_bad_file_changes_nothing(db, tmp_path):
    import_reported(MANIFEST)
    assert "0 new, 0 updated, 36 unchanged, 0 removed" in import_reported(MANIFEST)
    assert ReportedResult.objects.filter(benchmark_name="repogenesis").count() == 36
    bad = write_source(tmp_path, ["Copilot,Claude Sonnet 4.5,ide,oops,0,0,0,0,0"], benchmark="repogenesis")
    with pytest.raises(CommandError, match="nothing was imported"):
        import_reported(bad)
    assert ReportedResult.objects.filter(benchmark_name="repogenesis").count() == 36
    copilot = ReportedResult.objects.get(system="Copilot", base_model="Claude Sonnet 4.5")
    assert copilot.python_pass_at_1 == Decimal("23.67") and copilot.source.startswith("pzy2000/RepoGenesis")


def test_changed_values_clear_a_verification_and_dropped_rows_are_removed(db, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    import_reported(write_source(tmp_path, [BOT, "Gone,M,agent,0.00,0.00,0.00,0.00,0.00,0.00"]))
    reported_result_verify(result=ReportedResult.objects.get(system="Bot"), user=admin)
    printed = import_reported(write_source(tmp_path, [BOT.replace("40.00", "45.00")]))
    assert "Bot · M: published values or their check changed, verification cleared" in printed
    bot = ReportedResult.objects.get(system="Bot")
    assert bot.python_pass_at_1 == Decimal("45") and not bot.is_verified
    assert not ReportedResult.objects.filter(system="Gone").exists()


def test_an_inconsistent_row_cannot_be_verified(db):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    import_reported(MANIFEST)
    row = ReportedResult.objects.get(system="DeepCode", base_model="Claude Sonnet 4.5")
    with pytest.raises(ValidationError, match="Python DSR 16.50% is not k/22 tasks"):
        reported_result_verify(result=row, user=admin)
    row.refresh_from_db()
    assert not row.is_verified


def test_unverified_rows_stay_out_of_the_ranking_and_verified_ones_join_their_language(demo_split, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    finished_submission(split=demo_split, system_name="Ours", scores={"TodoList": (17, "passed", 1)})
    import_reported(write_source(tmp_path, TWO_ROWS[:1]))
    assert [r.label for r in leaderboard_rows(split=demo_split, language="python")] == ["Ours"]

    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)
    python = leaderboard_rows(split=demo_split, language="python")
    assert [(r.rank, r.label) for r in python] == [(1, "Paper Bot · GPT-X"), (2, "Ours")]
    assert python[0].metrics["pass_at_1"] == pytest.approx(0.40) and python[0].metrics["pass_at_1_ci"] is None
    assert python[1].tied_with_leader is None  # no per-task results published: a tie cannot be computed
    java = leaderboard_rows(split=demo_split, language="java")
    assert [(r.rank, r.label) for r in java] == [(1, "Paper Bot · GPT-X"), (2, "Ours")]  # 0% tie broken by AC
    assert [r.label for r in leaderboard_rows(split=demo_split, language="overall")] == ["Ours"]


def test_pages_and_api_show_reported_rows_marked_and_apart(client, demo_split, tmp_path):
    finished_submission(split=demo_split, system_name="Ours", scores={"TodoList": (17, "passed", 1)})
    import_reported(write_source(tmp_path, TWO_ROWS))
    home = client.get("/").content.decode()
    ranked, apart = home.split("Reported by the authors", 1)
    assert "Ours" in ranked and "Paper Bot" not in ranked
    assert "Paper Bot" in apart and "40.00%" in apart and "not verified" in apart
    assert "Python DSR 50.00% is not k/5 tasks" in apart  # the inconsistent value is marked with the reason

    page = client.get("/reported/").content.decode()
    assert "test source" in page and "https://example.org/results" in page and "Paper Bot" in page

    api = APIClient()
    board = api.get("/api/v1/leaderboard/?language=python").json()
    assert [r["system"] for r in board["rows"]] == ["Ours"] and board["rows"][0]["origin"] == "evaluated"
    assert {r["system"]: r["not_ranked_because"] for r in board["reported"]} == {
        "Paper Bot": "not verified by an admin", "Odd Bot": "not verified by an admin"}
    listing = api.get("/api/v1/reported/?benchmark=demo").json()["results"]
    odd = next(r for r in listing if r["system"] == "Odd Bot")
    assert odd["values_percent"]["python"]["ac"] == "33.33" and odd["consistent"] is False
    assert odd["verified"] is False and odd["source_url"] == "https://example.org/results"


def test_admin_verify_action_ranks_consistent_rows_and_refuses_inconsistent_ones(client, demo_split, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    import_reported(write_source(tmp_path, TWO_ROWS))
    client.force_login(admin)
    ids = [str(pk) for pk in ReportedResult.objects.values_list("pk", flat=True)]
    resp = client.post("/admin/catalog/reportedresult/", {"action": "verify", "_selected_action": ids},
                       follow=True)
    assert "Odd Bot · GPT-Y cannot be verified" in resp.content.decode()
    assert {r.system: r.is_verified for r in ReportedResult.objects.all()} == {"Paper Bot": True, "Odd Bot": False}
    assert ReportedResult.objects.get(system="Paper Bot").verified_by == admin
    board = APIClient().get("/api/v1/leaderboard/?language=python").json()
    assert [(r["rank"], r["system"], r["origin"]) for r in board["rows"]] == [(1, "Paper Bot", "reported")]
    assert [r["system"] for r in board["reported"]] == ["Odd Bot"]


def test_asking_for_a_benchmark_that_is_not_imported_points_at_its_published_results(client, demo_split):
    import_reported(MANIFEST)
    resp = client.get("/?benchmark=repogenesis")
    page = resp.content.decode()
    assert resp.status_code == 404 and "No benchmark named &#x27;repogenesis&#x27;" in page
    assert "?benchmark=demo&amp;split=verified" in page and 'href="/reported/"' in page


def test_pass_at_1_above_dsr_is_found_on_eight_published_rows_and_nineteen_rows_can_be_verified():
    rows = read_reported(MANIFEST).rows
    above = {(r.system, r.base_model) for r in rows if any(f.kind == "definition" for f in r.findings)}
    assert len(above) == 8 and ("Antigravity", "Claude Sonnet 4.5") in above  # Python 19.17% > DSR 13.64%
    assert sum(not r.findings for r in rows) == 19


@pytest.mark.parametrize("change, message", [
    (('source_url = "https://example.org/results"', 'source_url = "javascript:alert(1)"'),
     "source_url must be an http\\(s\\) address"),
    (('paper = "A paper"', 'paper = "A paper"\npaper_url = "data:text/html,x"'), "paper_url must be an http"),
    (('benchmark = "demo"', 'benchmark = "x/../y <b>"'), "benchmark 'x/../y <b>' must be a name"),
    (('source = "test source"', 'source = ["a", "b"]'), "source must be a string"),
    (('source = "test source"', f'source = "{"s" * 301}"'), "source is longer than 300 characters"),
    (('results = "r.csv"', "results = 5"), "results must be a string"),
    (('results = "r.csv"', 'results = "."'), "is a folder, not a file"),
    (('results = "r.csv"', 'results = "/bin/sh"'), "not UTF-8 text"),
    (("source_date = 2026-02-01", "source_date = 2026-02-01T10:00:00"), "source_date must be a TOML date"),
    (("[denominators.python]\ntasks = 5\nendpoints = 20\n[denominators.java]\ntasks = 1\nendpoints = 4\n",
      "denominators = 5\n"), "denominators must be tables"),
])
def test_a_bad_manifest_is_refused_with_a_clear_message(tmp_path, change, message):
    manifest = write_source(tmp_path, TWO_ROWS)
    text = manifest.read_text()
    assert change[0] in text
    manifest.write_text(text.replace(change[0], change[1]))
    with pytest.raises(ReportedFormatError, match=message):
        read_reported(manifest)


def test_unreadable_files_are_refused_not_crashed_on(tmp_path):
    with pytest.raises(ReportedFormatError, match="is a folder"):
        read_reported(tmp_path)
    manifest = write_source(tmp_path, TWO_ROWS)
    (tmp_path / "r.csv").write_bytes((tmp_path / "r.csv").read_bytes().replace(b"Odd Bot", b"Odd B\xf6t"))
    with pytest.raises(ReportedFormatError, match="r.csv: not UTF-8 text"):
        read_reported(manifest)


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_plain_csv(tmp_path):
    manifest = write_source(tmp_path, TWO_ROWS)
    csv_path = tmp_path / "r.csv"
    csv_path.write_bytes(b"\xef\xbb\xbf" + csv_path.read_bytes().replace(b"\n", b"\r\n"))
    assert [r.system for r in read_reported(manifest).rows] == ["Paper Bot", "Odd Bot"]


def test_the_files_own_consistent_column_is_compared_with_our_check(db, tmp_path):
    manifest = write_source(tmp_path, [f"{TWO_ROWS[0]},no", f"{TWO_ROWS[1]},no"])
    (tmp_path / "r.csv").write_text((tmp_path / "r.csv").read_text().replace("java_dsr", "java_dsr,consistent"))
    printed = import_reported(manifest)
    assert "! line 3: the file says consistent=no, our check says yes" in printed
    assert "line 4" not in printed


def test_a_verification_is_cleared_when_the_check_changes_and_a_dropped_language_is_emptied(db, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    manifest = write_source(tmp_path, [BOT])
    import_reported(manifest)
    reported_result_verify(result=ReportedResult.objects.get(system="Bot"), user=admin)
    manifest.write_text(manifest.read_text().replace("endpoints = 20", "endpoints = 19"))  # 50.00% is not k/19
    assert "Bot · M: published values or their check changed" in import_reported(manifest)
    bot = ReportedResult.objects.get(system="Bot")
    assert not bot.is_verified and not bot.consistent
    with pytest.raises(ValidationError, match="Python AC 50.00% is not k/19 endpoints"):
        reported_result_verify(result=bot, user=admin)

    (tmp_path / "r.csv").write_text(f"{HEADER.rsplit(',java_pass_at_1', 1)[0]}\n{BOT.rsplit(',0.00,25.00', 1)[0]}\n")
    manifest.write_text(manifest.read_text().split("[denominators.java]")[0])
    import_reported(manifest)
    bot.refresh_from_db()
    assert bot.java_pass_at_1 is None and bot.java_ac is None and bot.java_dsr is None
    assert list(bot.denominators) == ["python"]


def test_removing_a_verified_row_says_so(db, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    import_reported(write_source(tmp_path, TWO_ROWS))
    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)
    printed = import_reported(write_source(tmp_path, TWO_ROWS[1:]))
    assert "! Paper Bot · GPT-X: verified, but no longer in the file: removed" in printed


def test_a_verified_row_over_another_task_count_is_not_ranked_and_says_why(client, demo_split, tmp_path):
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    manifest = write_source(tmp_path, TWO_ROWS[:1])
    manifest.write_text(manifest.read_text().replace("tasks = 5", "tasks = 20"))
    import_reported(manifest)
    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)
    assert leaderboard_rows(split=demo_split, language="python") == []
    assert [r.label for r in leaderboard_rows(split=demo_split, language="java")] == ["Paper Bot · GPT-X"]
    page = client.get("/").content.decode()
    assert "not ranked: its values count 20 tasks, this split has 5" in page
    board = APIClient().get("/api/v1/leaderboard/?language=python").json()
    assert board["rows"] == []
    assert board["reported"][0]["not_ranked_because"] == "its values count 20 tasks, this split has 5"


def test_names_reach_the_charts_as_text_not_markup(client, demo_split):
    finished_submission(split=demo_split, system_name='<a href="https://evil.example/">paper</a>',
                        scores={"TodoList": (17, "passed", 1)})
    page = client.get("/").content.decode()
    figure = page.split('id="fig-python"', 1)[1]
    assert "&lt;a href=" in figure and "<a href=" not in figure.split("</script>", 1)[0]


@pytest.mark.parametrize("change, message", [
    (('benchmark = "demo"', 'benchmark = "demo\\n"'), "benchmark: holds the control character U\\+000A"),
    (('source = "test source"', 'source = "a\\u0000b"'), "source: holds the control character U\\+0000"),
    (('source = "test source"', 'source = ""'), "source is empty"),
    (("tasks = 5", "tasks = 100000000000000000000000"), "whole tasks and endpoints from 1 to 100000"),
])
def test_manifest_text_and_counts_are_bounded(tmp_path, change, message):
    manifest = write_source(tmp_path, TWO_ROWS)
    manifest.write_text(manifest.read_text().replace(*change))
    with pytest.raises(ReportedFormatError, match=message):
        read_reported(manifest)


@pytest.mark.parametrize("rows, message", [
    (["Bot\x00,M,agent,1.00,0.00,0.00,0.00,0.00,0.00"], "r.csv line 3: holds the control character U\\+0000"),
    (["\ufeffBot,M,agent,1.00,0.00,0.00,0.00,0.00,0.00"], "r.csv line 3: holds the control character U\\+FEFF"),
    (["Bot,M,agent,\u0669.00,0.00,0.00,0.00,0.00,0.00"], "is not a plain percentage"),
])
def test_rows_hold_plain_text_and_ascii_digits(tmp_path, rows, message):
    with pytest.raises(ReportedFormatError, match=message):
        read_reported(write_source(tmp_path, rows))


def test_a_line_separator_inside_a_comment_keeps_line_numbers_right(tmp_path):
    manifest = write_source(tmp_path, ["Bot,M,robot,1.00,0.00,0.00,0.00,0.00,0.00"])
    (tmp_path / "r.csv").write_text("# a comment\u2028with a line separator\n" + (tmp_path / "r.csv").read_text())
    with pytest.raises(ReportedFormatError, match="r.csv line 4: type 'robot'"):
        read_reported(manifest)


def test_a_header_naming_a_column_twice_is_refused(tmp_path):
    manifest = write_source(tmp_path, TWO_ROWS)
    (tmp_path / "r.csv").write_text((tmp_path / "r.csv").read_text().replace("java_dsr", "java_dsr,system"))
    with pytest.raises(ReportedFormatError, match="r.csv line 2: header repeats system"):
        read_reported(manifest)
