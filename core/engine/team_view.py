"""What a team reads of one task's evaluation: hints on a failed start and host paths made relative.

Logs and details are shown on the submission page and in the report (issue 12 defects): they must say why a start
failed when the cause is a classic one, and must not reveal the worker's folders (`/srv/.../var/work/<key>/repo`).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from . import untrusted_tree

#: Bytes of a start script read to look for Windows line endings.
_SCRIPT_HEAD = 64 * 1024


def start_crash_detail(script: Path) -> str:
    """The detail of a `start_crashed` outcome for the start script at `script`: the plain reason, plus a hint when
    the script has Windows line endings (CRLF), which make the kernel or the shell look for `/bin/sh\\r` or run
    commands ending in a carriage return. Never raises (a script that is no longer a regular file gets the plain
    reason: the service ran, and may have replaced it with a FIFO or a link, red team round 10)."""
    detail = "every process of the service exited before the port opened"
    head = untrusted_tree.read_regular(script, _SCRIPT_HEAD)
    if head is not None and b"\r\n" in head:
        detail += (f"; {script.name} has Windows line endings (CRLF), so its first line names an interpreter "
                   f"ending in a carriage return: convert it to Unix line endings (`dos2unix {script.name}`, or "
                   "`git config core.autocrlf false` before checking it out) and submit again")
    return detail


def relative_paths(text: str, *, work_root: Path) -> str:
    """`text` with the task's work folder written relative to its repository (`work_root`/repo): a path in the
    repository loses its prefix (`/.../repo/app.py` -> `app.py`), the repository itself is `.`, and the other
    folders of the task (its virtual environment, the test runner's copy) become `../env/...`, `../runner/...`.

    The one rule for every backend's logs and details (the runner applies it to all of them): the work folder is
    matched in each spelling a sandbox may show (`work_root_spellings`), and only as a whole path component
    (`<root>-other` is left alone). Never raises."""
    if not text:
        return text
    for root in work_root_spellings(work_root):
        text = re.sub(re.escape(root) + _BELOW_ROOT, _relative, text)
    return text


#: What follows the work folder in a path: the repository or not, then a slash or the end of the path component.
_BELOW_ROOT = r"(?P<repo>/repo)?(?P<slash>/|(?![\w.\-]))"


def _relative(match: re.Match) -> str:
    if match.group("repo"):
        return "" if match.group("slash") else "."
    return "../" if match.group("slash") else ".."


def work_root_spellings(work_root: Path) -> list[str]:
    """The spellings of `work_root` a sandbox's processes may print, longest first: as given, normalized
    (`os.path.abspath`: the docker backend's mount targets and working directories, so a root given as
    `/srv/var/../var/work/<key>` shows as `/srv/var/work/<key>` in a container) and with its links resolved
    (`os.path.realpath`: what getcwd() returns under a linked folder). Each without a trailing slash; the root
    folder `/` itself is never a spelling (it would make every absolute path relative)."""
    spellings = {str(p).rstrip("/") for p in (work_root, os.path.abspath(work_root), os.path.realpath(work_root))}
    return sorted((s for s in spellings if s), key=len, reverse=True)


#: An absolute path in a message: a "/" that starts a word (not one inside a URL, a relative path or a number) and
#: what follows it up to a space or a quote.
_ABSOLUTE_PATH = re.compile(r"""(?<![\w.:/~-])/[^\s'"`]*""")


def without_host_paths(text: str) -> str:
    """`text` with every absolute path replaced by `<path>`: the detail of a `harness_error` is shown to whoever may
    see the submission and must not name the worker's folders (red team round 13: a platform fault's detail showed
    the task's absolute work path, `/srv/.../var/work/<key>/repo/...`)."""
    return _ABSOLUTE_PATH.sub("<path>", text)
