"""What a team reads of a task's logs (issue 12 defect: "Logs shown to a team contain host paths"): the one rule,
core.engine.team_view.relative_paths, that every backend's logs go through in the runner. Fast: no sandbox.

A backend may show the task's work folder in another spelling than the one the engine was given: the docker backend
makes every mount target and working directory `os.path.abspath(...)` (so a root given as `/srv/var/../var/work`
appears as `/srv/var/work` in the container's tracebacks), and a process's getcwd() names the real folder when the
root goes through a symbolic link. The end-to-end check against a real dockerd is
tests/sandbox_docker/test_docker_engine.py::test_logs_of_a_docker_run_hold_no_host_path_whatever_the_roots_spelling.
"""
from __future__ import annotations

import os

from core.engine.team_view import relative_paths


def test_paths_in_the_repository_lose_the_work_folder(tmp_path):
    root = tmp_path / "work" / "0123456789"
    log = (f'File "{root}/repo/app.py", line 1\n'
           f"cd {root}/repo\n"
           f"{root}/env/venv/bin/python: can't open file\n"
           f"collected from {root}/runner/tests\n")

    assert relative_paths(log, work_root=root) == ('File "app.py", line 1\n'
                                                  "cd .\n"
                                                  "../env/venv/bin/python: can't open file\n"
                                                  "collected from ../runner/tests\n")


def test_a_docker_style_path_of_a_root_given_with_dot_dot_is_made_relative(tmp_path):
    """The docker backend's containers see the normalized root (os.path.abspath of the mounts and the working dir):
    before the fix the rule matched only the spelling it was given, and the traceback kept the host path."""
    (tmp_path / "var" / "work").mkdir(parents=True)
    given = tmp_path / "var" / ".." / "var" / "work" / "0123456789"
    seen_in_container = os.path.abspath(given)
    log = (f'Traceback (most recent call last):\n  File "{seen_in_container}/repo/app.py", line 1, in <module>\n'
           f"cannot run {seen_in_container}/env/venv/bin/python\n")

    shown = relative_paths(log, work_root=given)

    assert str(tmp_path) not in shown, shown
    assert shown == ('Traceback (most recent call last):\n  File "app.py", line 1, in <module>\n'
                     "cannot run ../env/venv/bin/python\n")


def test_the_real_folder_of_a_root_reached_through_a_link_is_made_relative(tmp_path):
    real = tmp_path / "disk" / "work"
    real.mkdir(parents=True)
    (tmp_path / "var").symlink_to(tmp_path / "disk")
    given = tmp_path / "var" / "work" / "0123456789"
    log = f"OSError: {real}/0123456789/repo/data.json\n"

    assert relative_paths(log, work_root=given) == "OSError: data.json\n"


def test_other_paths_and_empty_text_are_left_as_they_are(tmp_path):
    root = tmp_path / "work" / "0123456789"

    assert relative_paths("", work_root=root) == ""
    assert relative_paths("/usr/lib/python3.11/json/__init__.py", work_root=root) == \
        "/usr/lib/python3.11/json/__init__.py"
    assert relative_paths(f"{root}-other/x", work_root=root) == f"{root}-other/x"
