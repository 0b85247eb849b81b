"""The status page of an upload lacking tasks of its split: the tasks scored `missing` are named on one line, not
given a card each (a 1-task upload to RepoGenesis Verified was 18,000 px of 29 cards whose every endpoint said
"no / none": test_missing_tasks_page_browser.py); evaluated tasks keep their cards, and the JSON / CSV reports still
list every task."""
from __future__ import annotations

import re

from tests.factories import finished_submission


def _cards(page: str) -> list[str]:
    """The task names of the page's per-task cards."""
    return re.findall(r'<div class="card" id="task-([^"]+)">', page)


def test_tasks_missing_from_an_upload_take_one_line_not_a_card_each(client, demo_split):
    names = list(demo_split.tasks.order_by("name").values_list("name", flat=True))
    first = demo_split.tasks.get(name=names[0])
    submission = finished_submission(split=demo_split, system_name="One Task Bot",
                                     scores={first.name: (first.tests_total, "passed", 1)})

    page = client.get(f"/submissions/{submission.pk}/").content.decode()

    assert _cards(page) == [first.name]  # the evaluated task keeps its card
    assert page.count("<th>Endpoint</th>") == 1  # no table of endpoints all "no" for the missing ones
    line = re.sub(r"<[^>]+>", "", page.split('id="absent-tasks">', 1)[1].split("</div>", 1)[0]).strip()
    assert line == f"{len(names) - 1} tasks not in the archive, scored 0: {', '.join(names[1:])}."
    for name in names:  # each row of the Tasks table still links to something on the page
        assert f'href="#task-{name}"' in page and f'id="task-{name}"' in page
    assert len(client.get(f"/submissions/{submission.pk}/report.json").json()["tasks"]) == len(names)
    csv_rows = client.get(f"/submissions/{submission.pk}/report.csv").content.decode().strip().splitlines()
    assert sum(",missing," in row for row in csv_rows) == len(names) - 1


def test_a_complete_submission_keeps_a_card_per_task_and_no_missing_line(client, demo_split):
    names = list(demo_split.tasks.order_by("name").values_list("name", flat=True))
    submission = finished_submission(split=demo_split, system_name="Full Bot",
                                     scores={n: (1, "tests_failed", 1) for n in names})

    page = client.get(f"/submissions/{submission.pk}/").content.decode()

    assert _cards(page) == names
    assert page.count("<th>Endpoint</th>") == len(names)
    assert 'id="absent-tasks"' not in page and "not in the archive" not in page
