"""Reading a benchmark folder in the RepoGenesis layout (BENCHMARK-FORMAT.md). No database access.

`read_benchmark(dir)` returns a `BenchmarkSource`: the tasks with everything inferred from their
files (language, port, labels, declared endpoints, static test count) and the version hash.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.grading.endpoints import extract_endpoints
from evaluation.grading.testcount import count_java_tests, count_python_tests

PORT_PATTERNS = (
    re.compile(r"^\s*[-*]?\s*\**port\**\s*[:=]\s*\**`?(\d{2,5})", re.I | re.M),
    re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})"),
    re.compile(r"\bport\s+(\d{2,5})\b", re.I),
)
FRAMEWORKS = ("spring-boot", "fastapi", "flask", "django", "eve", "javalin", "quarkus", "micronaut", "spark",
              "express", "tornado", "aiohttp", "bottle", "sanic")
DOMAINS = {"authentication": ("login", "auth", "password", "token"), "gaming": ("game", "player", "board"),
           "e-commerce": ("order", "cart", "product", "book"), "content management": ("post", "article", "note", "blog"),
           "communication": ("chat", "message", "room"), "file management": ("file", "upload", "folder")}
PRIVATE_PARTS = {"reference", "__pycache__", ".pytest_cache", "target", ".git"}


class BenchmarkFormatError(ValueError):
    """The folder does not follow BENCHMARK-FORMAT.md; the message names the task and the problem."""


@dataclass
class TaskSource:
    """One task folder as read from disk."""

    name: str
    folder: Path
    language: str
    port: int
    framework: str
    framework_guessed: bool
    domain: str
    readme: str
    endpoints: list[dict]
    static_count: int
    handout_files: dict[str, str]
    has_reference: bool
    hidden_files: list[Path] = field(default_factory=list)


@dataclass
class BenchmarkSource:
    """A benchmark folder: name, title, tasks, splits {name: [task names]} and the version sha256."""

    name: str
    title: str
    tasks: list[TaskSource]
    splits: dict[str, list[str]]
    version: str


def detect_port(readme: str) -> int | None:
    """The first explicit port of the README ("- Port: 8083", "http://localhost:8080"), or None."""
    best: tuple[int, int] | None = None
    for pattern in PORT_PATTERNS:
        match = pattern.search(readme)
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), int(match.group(1)))
    return best[1] if best else None


def _guess_framework(readme: str) -> str:
    lowered = readme.lower()
    hits = [(lowered.find(f), f) for f in FRAMEWORKS if f in lowered or f.replace("-", " ") in lowered]
    return min(hits)[1] if hits else ""


def _guess_domain(readme: str) -> str:
    lowered = readme.lower()
    scores = {d: sum(lowered.count(w) for w in words) for d, words in DOMAINS.items()}
    best = max(scores, key=scores.get)
    return best if scores[best] else ""


def hidden_files(folder: Path) -> list[Path]:
    """Every file of the task except its reference solution and caches, sorted by relative path."""
    return sorted(
        p for p in folder.rglob("*")
        if p.is_file() and not PRIVATE_PARTS.intersection(p.relative_to(folder).parts)
    )


def _read_task(folder: Path, meta: dict) -> TaskSource:
    readme = (folder / "README.md").read_text(errors="replace")
    language = meta.get("language") or ("java" if (folder / "pom.xml").is_file() or (folder / "src/test/java").is_dir()
                                        else "python")
    port = meta.get("port") or detect_port(readme)
    if not port:
        raise BenchmarkFormatError(f"task {folder.name}: no port in README.md (e.g. '- Port: 8080') or task.json")
    framework = meta.get("framework") or _guess_framework(readme)
    handout = {}
    for name in ("pom.xml", "requirements.txt"):
        if (folder / name).is_file():
            handout[name] = (folder / name).read_text(errors="replace")
    if language == "java":
        count = count_java_tests(folder / "src" / "test")
    else:
        count = count_python_tests(folder / "tests") if (folder / "tests").is_dir() else 0
    return TaskSource(
        name=folder.name, folder=folder, language=language, port=int(port), framework=framework,
        framework_guessed=not meta.get("framework"), domain=meta.get("domain") or _guess_domain(readme),
        readme=readme, endpoints=[{"method": e.method, "path": e.path} for e in extract_endpoints(readme)],
        static_count=count, handout_files=handout, has_reference=(folder / "reference").is_dir(),
        hidden_files=hidden_files(folder),
    )


def version_hash(tasks: list[TaskSource]) -> str:
    """sha256 over every task's README, hidden test files and metadata, tasks and files in sorted order."""
    digest = hashlib.sha256()
    for task in sorted(tasks, key=lambda t: t.name):
        meta = {"language": task.language, "port": task.port, "framework": task.framework, "domain": task.domain}
        digest.update(f"task\0{task.name}\0{json.dumps(meta, sort_keys=True)}\0".encode())
        for path in task.hidden_files:
            digest.update(f"file\0{path.relative_to(task.folder).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_benchmark(root: Path, *, name: str | None = None, split: str = "verified") -> BenchmarkSource:
    """Read a benchmark folder (with or without `benchmark.json`). Raises BenchmarkFormatError."""
    if not root.is_dir():
        raise BenchmarkFormatError(f"{root} is not a folder")
    manifest = {}
    if (root / "benchmark.json").is_file():
        try:
            manifest = json.loads((root / "benchmark.json").read_text())
        except json.JSONDecodeError as exc:
            raise BenchmarkFormatError(f"benchmark.json is not valid JSON: {exc}") from exc
    task_meta = manifest.get("tasks", {})
    tasks = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if not (folder / "README.md").is_file():
            continue
        meta = dict(task_meta.get(folder.name, {}))
        if (folder / "task.json").is_file():
            meta.update(json.loads((folder / "task.json").read_text()))
        tasks.append(_read_task(folder, meta))
    if not tasks:
        raise BenchmarkFormatError(f"{root} holds no task folder with a README.md")
    names = [t.name for t in tasks]
    splits = manifest.get("splits") or {split: names}
    for split_name, members in splits.items():
        unknown = sorted(set(members) - set(names))
        if unknown:
            raise BenchmarkFormatError(f"split {split_name!r} names tasks that have no folder: {', '.join(unknown)}")
    return BenchmarkSource(name=name or manifest.get("name") or root.name, title=manifest.get("title", ""),
                           tasks=tasks, splits=splits, version=version_hash(tasks))
