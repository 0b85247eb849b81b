"""Finding start.sh and requirements.txt in a submitted repository (docs/scoring.md "The run of one task": install
and start)."""
from __future__ import annotations

from pathlib import Path

from core.engine.layout import find_requirements, find_start_script


def repo_with(tmp_path: Path, *files: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    for rel in files:
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/bash\n")
    return repo


def found(repo: Path) -> str | None:
    script = find_start_script(repo)
    return script.relative_to(repo).as_posix() if script else None


def test_root_start_script_wins_over_every_other(tmp_path):
    repo = repo_with(tmp_path, "start.sh", "scripts/start.sh", "bin/start.sh", "a/start.sh")
    assert found(repo) == "start.sh"


def test_scripts_folder_wins_over_bin_and_other_folders(tmp_path):
    repo = repo_with(tmp_path, "scripts/start.sh", "bin/start.sh", "a/start.sh", "app/start.sh")
    assert found(repo) == "scripts/start.sh"


def test_bin_folder_wins_over_other_folders_of_the_same_depth(tmp_path):
    repo = repo_with(tmp_path, "bin/start.sh", "a/start.sh", "app/start.sh")
    assert found(repo) == "bin/start.sh"


def test_shallowest_start_script_wins(tmp_path):
    repo = repo_with(tmp_path, "a/b/start.sh", "z/start.sh", "a/b/c/start.sh")
    assert found(repo) == "z/start.sh"


def test_ties_at_the_same_depth_are_broken_alphabetically(tmp_path):
    repo = repo_with(tmp_path, "service/start.sh", "backend/start.sh", "deploy/start.sh")
    assert found(repo) == "backend/start.sh"


def test_depth_three_is_searched(tmp_path):
    repo = repo_with(tmp_path, "a/b/c/start.sh")
    assert found(repo) == "a/b/c/start.sh"


def test_depth_four_is_ignored(tmp_path):
    repo = repo_with(tmp_path, "a/b/c/d/start.sh", "README.md")
    assert found(repo) is None


def test_dependency_and_build_folders_are_not_searched(tmp_path):
    repo = repo_with(tmp_path, "node_modules/start.sh", ".venv/start.sh", "target/start.sh", ".git/start.sh")
    assert found(repo) is None


def test_symlinked_start_script_at_the_root_is_ignored(tmp_path):
    repo = repo_with(tmp_path, "deploy/start.sh")
    (repo / "start.sh").symlink_to(repo / "deploy" / "start.sh")
    assert found(repo) == "deploy/start.sh"


def test_symlinked_start_script_pointing_outside_is_never_chosen(tmp_path):
    outside = tmp_path / "outside.sh"
    outside.write_text("#!/bin/bash\n")
    repo = repo_with(tmp_path, "README.md")
    (repo / "start.sh").symlink_to(outside)
    (repo / "scripts").mkdir()
    (repo / "scripts" / "start.sh").symlink_to(outside)
    (repo / "x").mkdir()
    (repo / "x" / "start.sh").symlink_to(outside)
    assert found(repo) is None


def test_a_folder_named_start_sh_is_not_a_script(tmp_path):
    repo = repo_with(tmp_path, "start.sh/readme.txt", "b/start.sh")
    assert found(repo) == "b/start.sh"


def test_no_start_script_anywhere(tmp_path):
    repo = repo_with(tmp_path, "app.py", "requirements.txt")
    assert found(repo) is None


def test_requirements_at_the_root_win_over_the_start_script_folder(tmp_path):
    repo = repo_with(tmp_path, "requirements.txt", "svc/requirements.txt", "svc/start.sh")
    assert find_requirements(repo, find_start_script(repo)) == repo / "requirements.txt"


def test_requirements_next_to_the_start_script_are_used_when_the_root_has_none(tmp_path):
    repo = repo_with(tmp_path, "svc/requirements.txt", "svc/start.sh", "other/requirements.txt")
    assert find_requirements(repo, find_start_script(repo)) == repo / "svc" / "requirements.txt"


def test_no_requirements_file_means_nothing_to_install(tmp_path):
    repo = repo_with(tmp_path, "start.sh", "deep/requirements.txt")
    assert find_requirements(repo, find_start_script(repo)) is None
