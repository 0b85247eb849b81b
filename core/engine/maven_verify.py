"""The Maven repository a hidden Java test run reads: the platform's artifacts, plus only those the build fetched that
Maven Central vouches for (docs/scoring.md "The test phase", Java).

A task's build writes into the upper layer of its own overlay (`maven_repo.prepare`), and the code it runs (plugins,
annotation processors) can write anything there: a JUnit engine, a surefire provider or a surefire plugin of its own,
under the coordinates of the real ones. The hidden test run must not load any of it. `mount_test_view` builds a
read-only view for that run from two layers: below, the platform's repository untouched (whatever the build changed
or deleted in it is not seen); above, a copy of each artifact the build added whose SHA-1 matches the `.sha1` file
Central publishes for it. Nothing else is kept but `_remote.repositories` files: no version metadata of the build's
(the platform's test pom names every version; red team round 15b sent a RELEASE version into the submission's tree
through a planted `maven-metadata-local.xml`). An artifact that passes but carries classes of the test machinery
outside the machinery's own groups (Central verifies who may publish under `org.junit`, not what a jar of another
group holds) is reported, and the caller scores the run `tampered`.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import threading
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from core.grading.untrusted_files import walk_untrusted

from .maven_repo import TRANSIENT, UPPER

#: Where a build's downloads are checked (the `.sha1` file next to each artifact, Central's layout).
CENTRAL = "https://repo.maven.apache.org/maven2/"
def _bookkeeping(name: str) -> bool:
    """True for a file of Maven's bookkeeping kept as the build left it: exactly `_remote.repositories` (it records
    where an artifact came from and executes nothing; red team round 9: an artifact named `maven-metadata`, a jar
    `maven-metadata-1.0.jar`, was kept unverified while the rule was a prefix)."""
    return name == "_remote.repositories"


def _metadata(name: str) -> bool:
    """True for Maven's version metadata (`maven-metadata*.xml`), which the test run never needs: the platform's pom
    (test_pom) names every version, so no metadata of the build's is kept (red team round 15b: a planted
    `maven-metadata-local.xml` resolved a dependency of version RELEASE to `Q/../../runner/repo/lib/e/v`, a jar of
    the submission's own tree)."""
    return name.startswith("maven-metadata") and name.endswith(".xml")


#: Bytes of the largest artifact of a build checked against Central; a bigger one is left out unread (red team round
#: 15c: sparse files cost the build no disk but were read whole into the worker's memory). Central's jars are far
#: smaller; the biggest dependencies of the references are a few megabytes.
MAX_ARTIFACT_BYTES = 512 * 1024 * 1024
#: Checksums and signatures Maven stores beside artifacts: the test run needs none (offline Maven checks none).
IGNORED_SUFFIXES = (".sha1", ".md5", ".sha256", ".sha512", ".asc")
#: Packages of the test machinery and the Central groups that alone may ship them (groupId paths).
MACHINERY_GROUPS = {"org/junit/": ("org/junit/",), "org/opentest4j/": ("org/opentest4j/",),
                    "org/apache/maven/surefire/": ("org/apache/maven/surefire/", "org/apache/maven/plugins/"),
                    "org/apiguardian/": ("org/apiguardian/",)}
VIEW, LAYER = "m2", "m2-verified"
#: At most this many new files of a build are checked against Central (one request each); a build that added more
#: ends `build_failed` (red team round 12: 400 empty jars planted by an antrun step cost 287 s of requests from the
#: worker, outside the build's limit; 100,000 would have cost a day and risked Central's ban of the platform).
#: Honest online builds add a few hundred files at most (the platform's repository holds the common ones).
MAX_CANDIDATES = 2000

Verifier = Callable[[str, Path], bool]


class VerificationUnavailable(RuntimeError):
    """Central could not be asked (network, 5xx): the platform cannot tell genuine artifacts from planted ones."""


class BuildTooLarge(RuntimeError):
    """The build's own doing, not the platform's: it added more files than MAX_CANDIDATES to its Maven repository, or
    checking them ran past the install phase's deadline. The message says which, for the task's detail."""


class BuildUnreadable(BuildTooLarge):
    """The build's own doing too: it left in its Maven repository a file the platform cannot read or copy by its
    path (a name whose whole path is longer than PATH_MAX; red team round 13 left one in the build's tree, which
    was a platform fault retried three times). The message names no path."""


@dataclass
class CentralChecksums:
    """`verifier(rel, path)`: True when `path`'s SHA-1 (read in blocks) equals Central's published `.sha1` for `rel`
    (a path in Maven's repository layout); False for a file over MAX_ARTIFACT_BYTES, unread. A 404 is False; other
    failures raise VerificationUnavailable. Answers are cached per (rel, digest) for the life of the object. One HTTP client (its connections kept alive) serves every request
    of the object, from any thread; `close()` ends it."""

    base_url: str = CENTRAL
    timeout: float = 15.0  # seconds per request
    _cache: dict[tuple[str, str], bool] = field(default_factory=dict)
    _client: httpx.Client | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def client(self) -> httpx.Client:
        """The object's one httpx.Client (made on first use; retries twice on connection errors)."""
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(transport=httpx.HTTPTransport(retries=2), timeout=self.timeout,
                                            follow_redirects=True, limits=httpx.Limits(max_connections=8))
            return self._client

    def close(self) -> None:
        """Close the HTTP client, if one was made."""
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __call__(self, rel: str, path: Path) -> bool:
        if path.stat().st_size > MAX_ARTIFACT_BYTES:
            return False
        with open(path, "rb") as handle:  # in blocks: eight sparse 2 GiB files once took 16 GiB (round 15c)
            digest = hashlib.file_digest(handle, "sha1").hexdigest()
        key = (rel, digest)
        if key not in self._cache:
            self._cache[key] = self._published(rel) == digest
        return self._cache[key]

    def _published(self, rel: str) -> str | None:
        try:
            response = self.client().get(self.base_url.rstrip("/") + "/" + rel + ".sha1")
        except httpx.HTTPError as exc:
            raise VerificationUnavailable(f"Maven Central could not be asked about {rel}: {exc}") from exc
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise VerificationUnavailable(f"Maven Central answered {response.status_code} about {rel}")
        words = response.text.split()
        return words[0].lower() if words else None


@dataclass(frozen=True)
class TestView:
    """The mounted view (`path`, read-only), the build's files it left out (relative paths, sorted) and, when a
    verified artifact smuggles test-machinery classes, why (`machinery`), else None."""

    path: Path
    left_out: tuple[str, ...]
    machinery: str | None


def mount_test_view(*, env_dir: Path, platform_repo: Path, view_dir: Path, verifier: Verifier | None,
                    deadline: float | None = None, max_candidates: int = MAX_CANDIDATES) -> TestView:
    """Build and mount the test run's repository at `view_dir/m2` from the build's upper layer (`env_dir`, see
    maven_repo.prepare) and `platform_repo`. `verifier` None (offline builds, which download nothing) keeps no
    artifact of the build. `deadline` (time.monotonic() seconds, None: none): the verification stops there, as the
    build phase's own limit does. Raises BuildTooLarge when the build added more than `max_candidates` files to
    verify (before any request) or the deadline passed, BuildUnreadable (a BuildTooLarge) when a file of the build's
    cannot be read or copied, VerificationUnavailable (from the verifier) and OSError when no overlay mounts."""
    upper, layer, merged = env_dir / UPPER, view_dir / LAYER, view_dir / VIEW
    view_dir.mkdir(mode=0o755)
    layer.mkdir(mode=0o755)
    merged.mkdir(mode=0o755)
    try:  # the upper layer is the build's: whatever in it cannot be read or copied is the build's outcome
        left_out, machinery = _fill_layer(upper=upper, layer=layer, platform_repo=platform_repo, verifier=verifier,
                                          deadline=deadline, max_candidates=max_candidates)
    except OSError as exc:
        raise BuildUnreadable(f"the build left a file in its Maven repository that the platform cannot read or copy "
                              f"({exc.strerror or type(exc).__name__})") from None
    options = f"lowerdir={layer}:{platform_repo}"
    done = subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options, str(merged)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise OSError(f"the test run's Maven repository could not be mounted: {done.stderr.strip()}")
    return TestView(merged, tuple(sorted(left_out)), machinery)


def _fill_layer(*, upper: Path, layer: Path, platform_repo: Path, verifier: Verifier | None, deadline: float | None,
                max_candidates: int) -> tuple[list[str], str | None]:
    """Copy the build's verified artifacts and bookkeeping from `upper` into `layer`: (the files left out, why a
    verified artifact may not be on the test class path or None). OSError when a file cannot be read or copied."""
    candidates, left_out, bookkeeping = _sort_upper(upper, platform_repo)
    genuine: list[str] = []
    if candidates and verifier is not None:
        if len(candidates) > max_candidates:
            raise BuildTooLarge(f"the build added {len(candidates)} files to its Maven repository, more than the "
                                f"{max_candidates} the platform checks against Maven Central")

        def verify(rel: str) -> bool:
            if deadline is not None and time.monotonic() > deadline:
                raise BuildTooLarge(f"checking the {len(candidates)} files the build added to its Maven repository "
                                    "against Maven Central ran past the install phase's limit")
            return verifier(rel, upper / rel)

        with ThreadPoolExecutor(max_workers=8) as pool:
            verdicts = list(pool.map(verify, candidates))
        genuine = [rel for rel, ok in zip(candidates, verdicts) if ok]
    left_out += [rel for rel in candidates if rel not in set(genuine)]
    kept = genuine + bookkeeping
    for rel in kept:
        target = layer / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(upper / rel, target)
    machinery = next(filter(None, (_foreign_machinery(rel, layer / rel) for rel in genuine)), None)
    return left_out, machinery


def _regular_files(upper: Path):
    """Relative paths of the regular files below `upper` (whiteouts, links and Maven's transient files skipped)."""
    for dirpath, _, _, filenames in walk_untrusted(upper):  # the build wrote it: TreeTooDeep past MAX_TREE_DEPTH
        for name in filenames:
            path = Path(dirpath) / name
            if stat.S_ISREG(path.lstat().st_mode) and not name.endswith(TRANSIENT):
                yield path.relative_to(upper).as_posix()


def _sort_upper(upper: Path, platform_repo: Path) -> tuple[list[str], list[str], list[str]]:
    """(files the build added: to verify against Central, files left out at once, new bookkeeping kept as is), in
    one walk: a changed platform file is left out (the platform's own shows through)."""
    candidates, left_out, bookkeeping = [], [], []
    for rel in _regular_files(upper):
        name = rel.rsplit("/", 1)[-1]
        new = not os.path.lexists(platform_repo / rel)
        if _bookkeeping(name):
            if new:
                bookkeeping.append(rel)
        elif name.endswith(IGNORED_SUFFIXES) or _metadata(name):
            continue
        elif new:  # an artifact of any type: .jar, .pom, .properties ...
            candidates.append(rel)
        else:
            left_out.append(rel)
    return candidates, left_out, bookkeeping


def _foreign_machinery(rel: str, path: Path) -> str | None:
    """Why the jar at `rel` may not be on a test class path: classes of a MACHINERY_GROUPS package while its group
    is not one allowed to publish them; else None."""
    if not rel.endswith(".jar"):
        return None
    try:
        with zipfile.ZipFile(path) as jar:
            names = jar.namelist()
    except (OSError, zipfile.BadZipFile, ValueError):
        return None
    bare = [re.sub(r"^META-INF/versions/\d+/", "", n) for n in names]  # multi-release jars too
    for package, groups in MACHINERY_GROUPS.items():
        hit = next((n for n in bare if n.startswith(package) and n.endswith(".class")), None)
        if hit and not rel.startswith(groups):
            return f"the dependency {rel} carries {hit}, a class of the test machinery it may not ship"
    return None
