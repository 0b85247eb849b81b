"""File operations on trees a submission controls, done as root without following its links.

A submission (or code its build runs) can replace `src`, `target` or any folder with a symlink to a host folder, or
leave FIFOs and device nodes behind. The platform copies and cleans such trees as root, so every operation here
refuses to go through a link and skips special files (docs/scoring.md "The run of one task", install phase).
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from core.grading.untrusted_files import (  # noqa: F401 - also this module's API
    MAX_TREE_DEPTH, TreeTooDeep, TreeUnreadable, UntrustedTreeError, is_regular, read_regular, read_regular_text,
    walk_untrusted)

#: The Java tampering check reads at most this many entries (files and folders) of the built classes; past that the
#: build is `tampered` (docs/scoring.md "The test phase"): red team round 12 made the root worker hold 800 MB for
#: 100,000 empty class files. The biggest reference build (quarkus-blog-cms) has about 2,000 entries.
MAX_TREE_ENTRIES = 200_000


class TreeTooLarge(UntrustedTreeError):
    """The built classes hold more entries than the check reads."""


def copy_tree(source: Path, target: Path, *, links: bool = True, only_named: str | None = None) -> None:
    """Copy `source` to `target` keeping symlinks as links (never followed; `links=False` leaves them out) and
    leaving out FIFOs, sockets and device nodes; with `only_named`, only the regular files of that name (and the
    folders) are copied. Raises OSError when a file cannot be copied, e.g. the target is full; TreeTooDeep (not an
    OSError) for a folder nested deeper than MAX_TREE_DEPTH. Iterative (`walk_untrusted`): no depth of the tree can
    exhaust the worker's stack, as shutil.copytree's recursion did."""
    target = Path(target)
    for folder, rel, _, files in walk_untrusted(source, strict=True):
        here = target if rel == "." else target / rel
        here.mkdir(parents=rel == ".")
        for name in files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if only_named is not None and name != only_named:
                continue
            if stat.S_ISREG(mode):
                shutil.copy2(path, here / name, follow_symlinks=False)
            elif links and stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), here / name)
        shutil.copystat(folder, here, follow_symlinks=False)


def apparent_size(root: Path) -> int:
    """Bytes the regular files below `root` would take once copied (st_size, so sparse files count in full); links
    are not followed. Each entry is looked at relative to its open folder, so a name whose whole path is longer
    than PATH_MAX is measured too; anything the system still refuses raises TreeUnreadable (the submission's
    outcome, never a platform fault: red team round 13)."""
    total = 0
    for folder, rel, _, files in walk_untrusted(root):  # TreeTooDeep past MAX_TREE_DEPTH
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            raise TreeUnreadable.of(exc, rel) from None
        try:
            for name in files:
                info = os.lstat(name, dir_fd=fd)
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
        except OSError as exc:
            raise TreeUnreadable.of(exc, rel) from None
        finally:
            os.close(fd)
    return total


def remove_below(root: Path, rel: str) -> None:
    """Remove `root/rel` without following a link on the way: if any component of the path is a symlink, only that
    link is removed; the folder it points at is never touched."""
    current = root
    for part in Path(rel).parts:
        current = current / part
        if current.is_symlink():
            current.unlink()
            return
        if not current.exists():
            return
    if current.is_dir():
        shutil.rmtree(current, ignore_errors=True)
    else:
        current.unlink(missing_ok=True)



#: The submission's files that configure JUnit or surefire's forked booter in the test JVM (service entries of their
#: interfaces: red team round 15b named surefire's MasterProcessChannelProcessorFactory, the fork's channel to Maven),
#: removed from the runner's copy.
JUNIT_CONFIGURATION = ("META-INF/services/org.junit.", "META-INF/services/org.apache.maven.surefire.",
                       "junit-platform.properties",
                       # a module descriptor turns the test compile and run to the module path, where its `provides`
                       # registers JUnit services no META-INF file names (red team round 15d: a launcher session
                       # listener rewrote the compiled hidden tests before they loaded, 15/15 for 1/15)
                       "module-info.class")
#: Packages of the test machinery: a submission bringing classes of them (to shadow JUnit's or surefire's own) is
#: rewriting how the hidden tests are run and reported.
TEST_MACHINERY = ("org/junit/", "org/opentest4j/", "org/apache/maven/surefire/", "org/apiguardian/")
def test_run_tampering(classes_root: Path, *, repositories: tuple[Path, ...] = (),
                       own_packages: frozenset[str] = frozenset()) -> str | None:
    """Why the submission's main classes at `classes_root` (the runner's copy of target/classes, the only folder of
    the submission on the hidden test run's class path, ahead of every jar) would rewrite the test run, or None: a
    class of TEST_MACHINERY (to shadow JUnit's or surefire's own), or a class that shadows one of a jar in the Maven
    `repositories` (`shadowed_library_class`; `own_packages`: the hidden tests' packages, dotted, where the
    application's own classes belong). Links and special files are not read. Raises TreeTooLarge past
    MAX_TREE_ENTRIES files and folders, TreeTooDeep past MAX_TREE_DEPTH."""
    classes: dict[str, list[str]] = {}  # the submission's class files by their last two parts (_add_class_names)
    entries_seen = 0
    if not classes_root.is_dir() or classes_root.is_symlink():
        return None
    for folder, _, dirs, files in walk_untrusted(classes_root):
        entries_seen += len(dirs) + len(files)
        if entries_seen > MAX_TREE_ENTRIES:
            raise TreeTooLarge(f"the built classes hold more than {MAX_TREE_ENTRIES:,} files and folders, more "
                               "than the platform checks before a test run")
        for name in files:
            path = Path(folder) / name
            rel = path.relative_to(classes_root).as_posix()
            if not name.endswith(".class") or not is_regular(path):
                continue
            if rel.startswith(TEST_MACHINERY):
                return f"target/classes/{rel} is a class of the test machinery"
            _add_class_names(classes, rel, f"target/classes/{rel}")
    return shadowed_library_class(classes, repositories, own_packages=own_packages)


#: Class files that every module or package may have under the same name: never a shadow.
_SHARED_CLASS_FILES = ("module-info.class", "package-info.class")


def _versionless(entry: str) -> str:
    """An archive entry without the `META-INF/versions/<n>/` prefix of a multi-release jar."""
    if entry.startswith("META-INF/versions/"):
        parts = entry.split("/", 3)
        return parts[3] if len(parts) == 4 else entry
    return entry


def _add_class_names(classes: dict[str, list[str]], rel: str, where: str) -> None:
    """Record the class file at `rel` (reported as `where`) under the last two parts of its path, its shortest
    possible binary name: the class root is unknown (`target/classes/org/x/Y.class` may be `org/x/Y.class` or
    `x/Y.class`), so any suffix of its path with a package may be its name (`_class_file_named`). One entry per
    file: recording every suffix made 100,000 class files at depth 41 cost the root worker 800 MB (issue 15)."""
    parts = rel.split("/")
    if parts[-1] in _SHARED_CLASS_FILES or len(parts) < 2:
        return
    classes.setdefault("/".join(parts[-2:]), []).append(where if where == rel else f"{rel}\0{where}")


def _class_file_named(classes: dict[str, list[str]], binary: str) -> str | None:
    """Where the first recorded class file whose path ends with the binary name `binary` ("org/x/Y.class", at least
    a package and a class) is, or None."""
    parts = binary.split("/")
    if len(parts) < 2:
        return None
    for record in classes.get("/".join(parts[-2:]), ()):
        rel, _, where = record.partition("\0")
        if rel == binary or rel.endswith("/" + binary):
            return where or rel
    return None


def shadowed_library_class(classes: dict[str, list[str]], repositories: tuple[Path, ...], *,
                           own_packages: frozenset[str] = frozenset()) -> str | None:
    """Why the submission's classes would replace a library's in the hidden test run, or None. `classes` holds the
    submission's class files as `_add_class_names` records them (any suffix of a path with a package, such as
    "org/hamcrest/core/IsEqual.class", may be the class's binary name); each jar of the
    Maven `repositories` (the test run's view: every dependency it can load) is read, and a class the submission
    also has is a shadow: the submission's build output comes first on the test class path, so its copy of an
    assertion library's matcher, an HTTP client or a JSON parser the hidden tests use would decide their verdicts
    (red team round 7: five hamcrest classes whose `matches` returns true gave 28/46 for a service answering `{}`).
    Classes in `own_packages` or below them (dotted: the application's packages, named by the hidden tests) are the
    submission's own and never a shadow; nor are module-info and package-info."""
    import zipfile

    if not classes:
        return None
    own = tuple(p.replace(".", "/") + "/" for p in own_packages)
    for repository in repositories:
        for dirpath, _, filenames in os.walk(repository):
            for name in filenames:
                if not name.endswith(".jar"):
                    continue
                jar = os.path.join(dirpath, name)
                try:
                    with zipfile.ZipFile(jar) as archive:
                        entries = archive.namelist()
                except (OSError, zipfile.BadZipFile, ValueError):
                    continue
                for entry in entries:
                    bare = _versionless(entry)
                    if bare.startswith(own) or not bare.endswith(".class"):
                        continue
                    where = _class_file_named(classes, bare)
                    if where is not None:
                        library = os.path.relpath(jar, repository)
                        return (f"{where} shadows {bare[:-len('.class')].replace('/', '.')} of the library {library}: "
                                "the hidden tests would run with the submission's copy of it")
    return None


def remove_junit_configuration(root: Path, *, keep_below: str) -> list[str]:
    """Delete the submission's JUnit configuration files (JUNIT_CONFIGURATION) below `root`, except below
    `keep_below` (the hidden tests' own folder); returns what was removed (relative paths). Links are not
    followed: a link is removed itself."""
    removed = []
    for folder, rel_folder, dirs, files in walk_untrusted(root):  # TreeTooDeep past MAX_TREE_DEPTH
        if rel_folder == keep_below or rel_folder.startswith(keep_below + "/"):
            dirs[:] = []
            continue
        for name in files:
            rel = f"{rel_folder}/{name}" if rel_folder != "." else name
            if any(marker in rel for marker in JUNIT_CONFIGURATION):
                os.unlink(Path(folder) / name)
                removed.append(rel)
    return removed
