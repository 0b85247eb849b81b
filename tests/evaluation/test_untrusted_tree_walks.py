"""Issue 15, red team round 12: trees a submission shapes (its upload, what its install or build wrote) are walked by
the worker as root. Python's recursive walks (os.walk, pathlib's rglob, shutil.copytree and rmtree) raised
RecursionError on a folder 1,200 levels deep, which killed `evaluate` and was a platform fault under Celery; the Java
tampering check held 800 MB for 100,000 empty class files and 534 MB for a jar of a million entries. Every walk now
goes through `walk_untrusted` (iterative, no links followed, a depth limit) and the tampering check has caps."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.engine import layout, maven_repo, maven_verify, untrusted_tree, workspace
from core.grading.untrusted_files import MAX_TREE_DEPTH, UntrustedTreeError, walk_untrusted

DEPTH = 1200  # what the red team's setup.py made during the sandboxed install


@pytest.fixture(autouse=True)
def _remove_deep_trees(tmp_path):
    """pytest's own clean-up of old temporary folders recurses (shutil.rmtree): deep trees go here, iteratively."""
    yield
    import subprocess

    subprocess.run(["rm", "-rf", "--", str(tmp_path)], check=False)


def _deep(root: Path, depth: int = DEPTH) -> Path:
    """root/z/z/.../z (`depth` folders) with a file at the bottom; os.makedirs itself recurses once per level."""
    here = root
    here.mkdir(parents=True, exist_ok=True)
    for _ in range(depth):
        here = here / "z"
        here.mkdir()
    (here / "deep.txt").write_text("bottom")
    return here


def test_the_walk_is_iterative_and_refuses_a_tree_deeper_than_its_limit(tmp_path):
    _deep(tmp_path / "repo")
    with pytest.raises(UntrustedTreeError, match=f"nested deeper than {MAX_TREE_DEPTH} levels"):
        for _ in walk_untrusted(tmp_path / "repo"):
            pass
    walked = [rel for _, rel, _, _ in walk_untrusted(tmp_path / "repo", max_depth=DEPTH)]
    assert len(walked) == DEPTH + 1 and walked[-1].count("/") == DEPTH - 1


def test_the_walk_follows_no_link_and_lists_links_and_fifos_as_files(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "secret").write_text("x")
    repo = tmp_path / "repo"
    (repo / "b").mkdir(parents=True)
    (repo / "a.txt").write_text("a")
    (repo / "link").symlink_to(tmp_path / "host")
    os.mkfifo(repo / "b" / "pipe")
    seen = [(rel, dirs, files) for _, rel, dirs, files in walk_untrusted(repo)]
    assert seen == [(".", ["b"], ["a.txt", "link"]), ("b", [], ["pipe"])]
    assert list(walk_untrusted(repo / "link")) == []  # a link is not followed even as the root


def test_the_start_script_is_found_next_to_a_tree_the_install_nested_1200_levels_deep(tmp_path):
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "start.sh").write_text("#!/bin/sh\n")
    _deep(repo)
    assert layout.find_start_script(repo) == repo / "app" / "start.sh"


@pytest.mark.parametrize("walk", ["apparent_size", "copy_tree", "remove_junit_configuration", "test_run_tampering",
                                  "maven_upper"])
def test_each_walk_of_a_built_tree_refuses_a_deep_tree_as_the_submissions_fault(tmp_path, walk):
    repo = tmp_path / "repo"
    _deep(repo)
    with pytest.raises(UntrustedTreeError, match="nested deeper than"):
        if walk == "apparent_size":
            untrusted_tree.apparent_size(repo)
        elif walk == "copy_tree":
            untrusted_tree.copy_tree(repo, tmp_path / "copy")
        elif walk == "remove_junit_configuration":
            untrusted_tree.remove_junit_configuration(repo, keep_below="src/test")
        elif walk == "test_run_tampering":
            untrusted_tree.test_run_tampering(repo)
        else:
            list(maven_verify._regular_files(repo))


def test_the_work_folder_of_a_deep_tree_is_still_removed(tmp_path):
    _deep(tmp_path / "work")
    workspace.remove(tmp_path / "work")
    assert not (tmp_path / "work").exists()


def test_copy_tree_keeps_links_as_links_and_leaves_special_files_out(tmp_path):
    src = tmp_path / "src"
    (src / "a" / "b").mkdir(parents=True)
    (src / "a" / "b" / "f.txt").write_text("f")
    (src / "pom.xml").write_text("<project/>")
    (src / "link").symlink_to("/etc/passwd")
    os.mkfifo(src / "a" / "pipe")
    untrusted_tree.copy_tree(src, tmp_path / "copy")
    assert (tmp_path / "copy" / "a" / "b" / "f.txt").read_text() == "f"
    assert os.readlink(tmp_path / "copy" / "link") == "/etc/passwd"
    assert not (tmp_path / "copy" / "a" / "pipe").exists()
    untrusted_tree.copy_tree(src, tmp_path / "poms", links=False, only_named="pom.xml")
    assert sorted(p.relative_to(tmp_path / "poms").as_posix() for p in (tmp_path / "poms").rglob("*")) == [
        "a", "a/b", "pom.xml"]


def test_class_files_are_recorded_once_each_not_once_per_suffix_of_their_path(tmp_path):
    """100,000 empty class files at depth 41 cost 800 MB in the root worker: each was recorded under every suffix of
    its path. One record per file now, and a shadow deep in the tree is still found."""
    classes: dict = {}
    rel = "/".join(["d"] * 39) + "/org/x/Y.class"
    untrusted_tree._add_class_names(classes, rel, rel)
    assert sum(len(v) for v in classes.values()) == 1
    assert untrusted_tree._class_file_named(classes, "org/x/Y.class") == rel
    assert untrusted_tree._class_file_named(classes, "d/org/x/Y.class") == rel
    assert untrusted_tree._class_file_named(classes, "rg/x/Y.class") is None
    assert untrusted_tree._class_file_named(classes, "Y.class") is None


def test_a_build_with_more_entries_than_the_check_reads_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(untrusted_tree, "MAX_TREE_ENTRIES", 50)
    classes = tmp_path / "repo" / "target" / "classes" / "p"
    classes.mkdir(parents=True)
    for i in range(60):
        (classes / f"C{i}.class").write_bytes(b"")
    with pytest.raises(untrusted_tree.TreeTooLarge, match="more than 50 files"):
        untrusted_tree.test_run_tampering(tmp_path / "repo" / "target" / "classes")


# --- Red team round 13: a name whose whole path is longer than PATH_MAX ------------------------------------------
def _past_path_max(root: Path) -> tuple[Path, str]:
    """What the red team's build step (deep.sh) left: root/target/deep/<200-character folders...> whose last folder's
    absolute path is about 4,000 characters (listable), holding a file of a 255-character name made relative to it
    (its absolute path, about 4,256 characters, is longer than PATH_MAX)."""
    folder = root / "target" / "deep"
    folder.mkdir(parents=True)
    while len(str(folder)) < 3990 - 201:
        folder = folder / ("d" * 200)
        folder.mkdir()
    folder = folder / ("d" * (3990 - len(str(folder)) - 1))
    folder.mkdir()
    name = "f" * 255
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        file_fd = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(file_fd, b"12345")
        os.close(file_fd)
    finally:
        os.close(fd)
    assert len(str(folder / name)) > 4096
    return folder, name


def test_a_name_past_path_max_is_measured_and_given_relative_to_its_folder(tmp_path):
    """apparent_size did os.lstat on the whole path: ENAMETOOLONG, which nothing caught, was a platform fault (three
    full builds, then harness_error: the submission failed, its quota refunded, its detail a host path). Entries are
    now looked at relative to their open folder; `_chown_tree` gives them the same way."""
    from core.engine.runner import _chown_tree

    repo = tmp_path / "repo"
    folder, name = _past_path_max(repo)
    (repo / "pom.xml").write_text("<project/>")

    assert untrusted_tree.apparent_size(repo) == 5 + len("<project/>")
    _chown_tree(repo, os.getuid(), os.getgid())  # no whole path is built


def test_a_tree_that_cannot_be_inspected_is_the_submissions_outcome(tmp_path, monkeypatch):
    """Whatever the system still refuses while measuring a built tree is TreeUnreadable (an UntrustedTreeError: the
    task's execute() makes it build_failed / install_failed), with no host path in its message."""
    from core.grading.untrusted_files import TreeUnreadable

    repo = tmp_path / "repo"
    _past_path_max(repo)
    real_lstat = os.lstat

    def refusing(path, *args, **kwargs):
        if "dir_fd" in kwargs and str(path).startswith("f"):
            raise OSError(36, "File name too long")
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr(untrusted_tree.os, "lstat", refusing)
    with pytest.raises(TreeUnreadable) as info:
        untrusted_tree.apparent_size(repo)
    assert isinstance(info.value, UntrustedTreeError)
    assert str(info.value) == ("the build left an entry the platform cannot read (File name too long) below "
                               "target/deep/" + "d" * 200 + "/...")
    assert str(tmp_path) not in str(info.value)


def test_the_copy_for_the_test_run_fails_as_the_builds_outcome_without_a_host_path(tmp_path):
    """The red team's build, at the step that raised: the runner's copy of the built tree (made for a suite that
    starts the application itself) cannot hold the name, which is `build_failed` (counted against the quota, one
    build), its detail the reason alone."""
    from core.engine.runner import TaskRun, _Stop
    from core.engine.spec import TaskSpec
    from core.engine.toolchain import Toolchain

    hidden = tmp_path / "hidden"
    (hidden / "src" / "test" / "java").mkdir(parents=True)
    spec = TaskSpec(name="javalin-online-judge", language="java", port=18999, hidden_dir=hidden, tests_total=15,
                    in_process=True)
    run = TaskRun(spec=spec, repo_src=None, backend=None, work_root=tmp_path / "work", toolchain=Toolchain())
    run.work.root.mkdir(parents=True)
    _past_path_max(run.work.repo)
    (run.work.repo / "pom.xml").write_text("<project/>")

    with pytest.raises(_Stop) as stop:
        run._take_java_tests_from_service(verified_repo=False, online=False)

    assert stop.value.outcome == "build_failed"
    assert stop.value.detail == "the built repository could not be copied for the test run: File name too long"


def test_a_build_that_leaves_such_a_name_in_its_maven_repository_is_build_failed(tmp_path):
    """The same name in the build's Maven repository (its overlay's upper layer): reading or copying it for the test
    run's view raised OSError, which the runner turned into a platform fault. It is BuildUnreadable now, a
    BuildTooLarge: `build_failed`, its detail without a path."""
    env = tmp_path / "env"
    _past_path_max(env / maven_repo.UPPER)
    platform = tmp_path / "platform-m2"
    platform.mkdir()

    with pytest.raises(maven_verify.BuildUnreadable) as info:
        maven_verify.mount_test_view(env_dir=env, platform_repo=platform, view_dir=tmp_path / "view", verifier=None)
    assert isinstance(info.value, maven_verify.BuildTooLarge)
    assert str(info.value) == ("the build left a file in its Maven repository that the platform cannot read or copy "
                               "(File name too long)")


def test_a_harness_error_detail_shows_no_host_path():
    from core.engine.team_view import without_host_paths

    assert without_host_paths("OSError: [Errno 36] File name too long: '/tmp/rt13/var/test/work/9c7b/repo/x'") == \
        "OSError: [Errno 36] File name too long: '<path>'"
    assert without_host_paths("mount failed: /srv/var/work/k/test-m2/m2 busy; see https://example.org/a/b") == \
        "mount failed: <path> busy; see https://example.org/a/b"
    assert without_host_paths("dockerd is not reachable at unix:///run/docker.sock") == \
        "dockerd is not reachable at unix:///run/docker.sock"
    assert without_host_paths("org/junit/x.jar and 3/4 tasks") == "org/junit/x.jar and 3/4 tasks"
