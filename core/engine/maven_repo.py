"""A task's own Maven local repository: the platform's repository underneath, the task's downloads on top.

The platform's repository (`Toolchain.maven_repo`) is never mounted into a sandbox by itself. Each Java task gets an
overlay mount at `<task env>/m2`: the platform's repository as its read-only lower layer and a fresh upper layer in
the task's work folder, so a build reads every artifact the platform already has and writes what it downloads (or
plants: a poisoned `org.junit` jar) into the upper layer only, which is deleted with the task. Nothing one
submission builds or downloads can be loaded by another (docs/scoring.md "The run of one task", install phase).

Only builds of trusted code (the benchmark's reference solutions) are harvested into the platform's repository, so a
second build of the same dependencies is warm. Overlays need root; elsewhere `prepare` returns None and the caller
falls back to the platform's repository read-only and offline.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

MERGED, UPPER, WORK = "m2", "m2-upper", "m2-work"
#: Files Maven writes about remote state, never worth keeping in the platform's repository.
TRANSIENT = (".lastUpdated", "resolver-status.properties", ".lock")


def open_to_overlay(repo: Path) -> None:
    """Make every folder 0777 and every file 0666 so a task's build may copy up through its overlay (the kernel
    checks the lower layer's modes). The repository itself is reachable only through overlays, never mounted."""
    for dirpath, dirnames, filenames in os.walk(repo):
        os.chmod(dirpath, 0o777)
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, 0o666)


def prepare(*, platform_repo: Path, env_dir: Path, owner: tuple[int, int] | None) -> Path | None:
    """Mount the task's repository at `env_dir/m2` and return it (upper layer owned by `owner`, the uid/gid the
    build runs as); None when no overlay can be mounted here (not root, no overlayfs, no platform repository)."""
    if os.geteuid() != 0 or not platform_repo.is_dir():
        return None
    merged, upper, work = env_dir / MERGED, env_dir / UPPER, env_dir / WORK
    for folder in (merged, upper, work):
        folder.mkdir(mode=0o755)
    if owner:
        os.chown(upper, *owner)
        os.chown(merged, *owner)
    options = f"lowerdir={platform_repo},upperdir={upper},workdir={work}"
    if subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options, str(merged)],
                      capture_output=True).returncode != 0:
        for folder in (merged, upper, work):
            shutil.rmtree(folder, ignore_errors=True)
        return None
    return merged


def release(env_dir: Path) -> None:
    """Unmount the task's repository (lazily, should a process still hold it). Safe to call when none is mounted."""
    merged = env_dir / MERGED
    if os.path.ismount(merged):
        subprocess.run(["umount", "-l", str(merged)], capture_output=True)


def harvest(*, env_dir: Path, platform_repo: Path) -> int:
    """Copy what a trusted build downloaded (the upper layer's regular files that the platform's repository lacks)
    into the platform's repository; returns how many files. Never call it for a submission's build.

    Other tasks read the platform's repository while this runs (their builds' and test runs' lower layer). A folder
    new to it (an artifact's version: its pom, jar and checksums) is written aside and renamed into place whole, so
    a reader never finds a pom whose jar is not there yet (Maven offline then fails the test run); files added to a
    folder that exists are renamed into place one by one."""
    upper = env_dir / UPPER
    copied = 0
    for dirpath, dirnames, filenames in os.walk(upper):
        names = [name for name in filenames if not name.endswith(TRANSIENT)
                 and stat.S_ISREG((Path(dirpath) / name).lstat().st_mode)]  # not whiteouts (devices) or links
        folder = platform_repo / Path(dirpath).relative_to(upper)
        if names and not dirnames and not folder.exists() and _new_folder(Path(dirpath), folder, names, platform_repo):
            copied += len(names)
            continue
        for name in names:
            target = folder / name
            if target.exists():
                continue
            _make_dirs(folder, platform_repo)
            temporary = target.with_name(f".{target.name}.harvest")
            shutil.copyfile(Path(dirpath) / name, temporary)
            temporary.chmod(0o666)
            temporary.rename(target)
            copied += 1
    return copied


def _new_folder(source: Path, folder: Path, names: list[str], top: Path) -> bool:
    """Copy `names` of `source` into a folder beside `folder` and rename it to `folder` (0777, files 0666); False
    when `folder` appeared meanwhile (another harvest: the caller copies file by file)."""
    _make_dirs(folder.parent, top)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".harvest", dir=folder.parent))
    for name in names:
        shutil.copyfile(source / name, staging / name)
        (staging / name).chmod(0o666)
    staging.chmod(0o777)
    try:
        staging.rename(folder)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        return False
    return True


def _make_dirs(folder: Path, top: Path) -> None:
    """Create `folder` and its missing parents below `top`, each 0777 (see open_to_overlay)."""
    missing = []
    while not folder.exists() and folder != top:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
        path.chmod(0o777)


def settings_xml(*, proxy_port: int | None) -> str:
    """A Maven settings file sending HTTP(S) through the task's egress proxy on 127.0.0.1 (none: offline use)."""
    proxies = "".join(
        f"<proxy><id>egress-{scheme}</id><active>true</active><protocol>{scheme}</protocol>"
        f"<host>127.0.0.1</host><port>{proxy_port}</port></proxy>" for scheme in ("https", "http")
    ) if proxy_port else ""
    return (f'<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0"><proxies>{proxies}</proxies>'
            "<interactiveMode>false</interactiveMode></settings>\n")
