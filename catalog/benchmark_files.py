"""Reading a benchmark folder in the RepoGenesis layout (docs/benchmark-format.md). No database access.

`read_benchmark(dir)` returns a `BenchmarkSource`: the tasks with everything inferred from their
files (language, port and the README line it came from, labels, declared endpoints, static test count, suite kind,
defects found by reading) plus what a manifest adds (labels, documented fixes and defect notes), and the version hash.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from core.engine.runner_env import RUNNER_RULES, fix_pytest_args, suite_imports
from core.grading.endpoints import extract_endpoints
from core.grading.testcount import count_java_tests, count_python_tests

#: How READMEs state the listening port, strongest first (docs/benchmark-format.md "One task = one folder"): a
#: labelled line ("- Port: 8083", "- **Listening Port**: 8000"), a sentence ("listens on port `8080`", "listens on a
#: configurable port (default: 8080)"), then an example URL ("http://localhost:8080").
PORT_RULES = (
    ("a 'Port:' line", re.compile(r"\bport\b[*`]*\s*(?:[:=]|\bis\b)\s*[*`\s]*(\d{2,5})\b", re.I)),
    ("a 'listens on port' sentence",
     re.compile(r"\b(?:listen|listens|listening|run|runs|serve|serves|served|bind|binds)\b[^.\n]{0,40}?\bport\b"
                r"[^\d\n]{0,30}?(\d{2,5})\b", re.I)),
    ("'port N' in a sentence", re.compile(r"\bport\s+[*`]*(\d{2,5})\b", re.I)),
    ("an example URL", re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})\b")),
)
PORT_HELP = ("state it in README.md as a line '- Port: 8080' (or a sentence 'The service listens on port 8080', "
             "or an example URL http://localhost:8080), or set \"port\" in task.json or the benchmark manifest")
FRAMEWORKS = ("spring-boot", "fastapi", "flask", "django", "eve", "javalin", "quarkus", "micronaut", "spark",
              "express", "tornado", "aiohttp", "bottle", "sanic")
DOMAINS = {"authentication": ("login", "auth", "password", "token"), "gaming": ("game", "player", "board"),
           "e-commerce": ("order", "cart", "product", "book"), "content management": ("post", "article", "note", "blog"),
           "communication": ("chat", "message", "room"), "file management": ("file", "upload", "folder")}
PRIVATE_PARTS = {"reference", "__pycache__", ".pytest_cache", "target", ".git"}


class BenchmarkFormatError(ValueError):
    """The folder does not follow docs/benchmark-format.md; the message names the task and the problem."""


class SuiteKind:
    """How a task's hidden suite reaches the submission (shown on the task page)."""

    HTTP = "black-box HTTP"  # drives the deployed service over HTTP
    WHITE_BOX = "white-box"  # imports the submission's modules
    IN_PROCESS = "in-process"  # starts the application itself (Java) or tests an app it defines (a defect for Python)


@dataclass
class TaskSource:
    """One task folder as read from disk, with its manifest entry applied.

    `port_source` says where the port came from (a README line, task.json or the manifest); `fixes` are the
    manifest's documented fixes ({"kind": "pytest-args", "args": [...], "why": ...}); `defects` are notes
    ({"kind", "text", "source": "import" | "manifest"}) shown on the task page and in reports.
    """

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
    port_source: str = ""
    suite_kind: str = SuiteKind.HTTP
    fixes: list[dict] = field(default_factory=list)
    defects: list[dict] = field(default_factory=list)
    reference_dir: Path | None = None

    @property
    def pytest_args(self) -> tuple[str, ...]:
        """Every pytest argument the documented fixes add."""
        return fix_pytest_args(self.fixes)


@dataclass
class BenchmarkSource:
    """A benchmark folder: name, title, tasks, splits {name: [task names]}, the version sha256 and the manifest's
    facts (`info`: paper, source, licence, ... as given)."""

    name: str
    title: str
    tasks: list[TaskSource]
    splits: dict[str, list[str]]
    version: str
    info: dict = field(default_factory=dict)


@dataclass(frozen=True)
class PortFinding:
    """The port a README states and where: `line` is 1-based, `text` the stripped line, `rule` the PORT_RULES name."""

    port: int
    line: int
    text: str
    rule: str

    def describe(self) -> str:
        """'README.md line 12 (a 'Port:' line): - **Listening Port**: 8000'."""
        return f"README.md line {self.line} ({self.rule}): {self.text[:160]}"


def detect_port(readme: str) -> PortFinding | None:
    """The port stated by the strongest rule of PORT_RULES (first match of that rule in the text), or None.

    Only ports 1-65535 count.
    """
    lines = readme.splitlines()
    for rule, pattern in PORT_RULES:
        for number, line in enumerate(lines, start=1):
            for match in pattern.finditer(line):
                port = int(match.group(1))
                if 0 < port < 65536:
                    return PortFinding(port, number, line.strip(), rule)
    return None


def _guess_framework(readme: str) -> str:
    lowered = readme.lower()
    hits = [(lowered.find(f), f) for f in FRAMEWORKS if f in lowered or f.replace("-", " ") in lowered]
    return min(hits)[1] if hits else ""


def _guess_domain(readme: str) -> str:
    lowered = readme.lower()
    scores = {d: sum(lowered.count(w) for w in words) for d, words in DOMAINS.items()}
    best = max(scores, key=scores.get)
    return best if scores[best] else ""


#: Largest README accepted (bytes): the biggest published one is 30 KB; a page must render well within its timeout.
README_MAX_BYTES = 1024 * 1024
#: Task names: letters, digits, `-`, `_` and `.` (RepoGenesis uses `Tic-Tac-Toe`, `UserManagement_2`, ...).
TASK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
LANGUAGES = ("python", "java")


def _no_links(folder: Path) -> None:
    """Refuse any symlink or special file in a task folder: the importer copies as the platform, and a link could
    publish a host file as a README or hidden test."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            raise BenchmarkFormatError(f"task {folder.name}: {path.relative_to(folder.parent)} is a symbolic link; "
                                       "a benchmark may hold regular files and folders only")
        if not (path.is_file() or path.is_dir()):
            raise BenchmarkFormatError(f"task {folder.name}: {path.relative_to(folder.parent)} is not a regular "
                                       "file; a benchmark may hold regular files and folders only")


def hidden_files(folder: Path) -> list[Path]:
    """Every file of the task except its reference solution and caches, sorted by relative path."""
    return sorted(
        p for p in folder.rglob("*")
        if p.is_file() and not PRIVATE_PARTS.intersection(p.relative_to(folder).parts)
    )


def _check_meta(name: str, meta: dict) -> None:
    port = meta.get("port")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536):
        raise BenchmarkFormatError(f"task {name}: port {port!r} is not a TCP port; give a whole number 1-65535")
    if meta.get("language") is not None and meta["language"] not in LANGUAGES:
        raise BenchmarkFormatError(f"task {name}: language {meta['language']!r} is not one of "
                                   f"{', '.join(LANGUAGES)}")


_IN_PROCESS_JAVA = re.compile(r"@SpringBootTest|@QuarkusTest|@MicronautTest|EmbeddedServer|\.start\(\s*0\s*\)"
                              r"|Javalin\.create|Spark\.port|\bApp\.start\(")
_OWN_APP_PYTHON = re.compile(r"\bFlask\(__name__\)|\bFastAPI\(\)|\.test_client\(\)|\bTestClient\(")
FIX_KINDS = {"pytest-args"}


def _suite_kind(folder: Path, language: str, unmapped: tuple[str, ...], meta: dict) -> str:
    if meta.get("suite_kind"):
        return meta["suite_kind"]
    if language == "python" and (unmapped or meta.get("submission_modules")):
        return SuiteKind.WHITE_BOX
    tests = folder / ("src/test" if language == "java" else "tests")
    pattern = _IN_PROCESS_JAVA if language == "java" else _OWN_APP_PYTHON
    suffix = "*.java" if language == "java" else "*.py"
    if any(pattern.search(p.read_text(errors="replace")) for p in tests.rglob(suffix)):
        return SuiteKind.IN_PROCESS
    return SuiteKind.HTTP


def _import_defects(name: str, language: str, count: int, unmapped: tuple[str, ...], meta: dict) -> list[dict]:
    defects = []
    if count == 0 and not meta.get("fixes"):
        defects.append({"kind": "no-tests", "source": "import", "text": (
            "no hidden test case found (N = 0): the task is left out of its split's means until fixed")})
    declared = set(meta.get("submission_modules", []))
    unknown = [m for m in unmapped if m not in declared]
    if language == "python" and unknown:
        defects.append({"kind": "unmapped-import", "source": "import", "text": (
            f"the suite imports {', '.join(unknown)}, which maps to no known distribution and no file of the task: "
            "if the submission provides it (a white-box suite), list it under \"submission_modules\" in the "
            "manifest; otherwise name its distribution in tests/requirements.txt")})
    for note in meta.get("defects", []):
        defects.append({"kind": note.get("kind", "note"), "source": "manifest", "text": note["text"]})
    return defects


def _check_fixes(name: str, fixes: list) -> list[dict]:
    for fix in fixes:
        if not isinstance(fix, dict) or fix.get("kind") not in FIX_KINDS or not fix.get("why"):
            raise BenchmarkFormatError(f"task {name}: each fix needs a kind ({', '.join(sorted(FIX_KINDS))}) and a "
                                       f"'why'; got {fix!r}")
        if not all(isinstance(a, str) for a in fix.get("args", [])) or not fix.get("args"):
            raise BenchmarkFormatError(f"task {name}: fix {fix['kind']!r} needs a non-empty list of string 'args'")
    return fixes


def _read_task(folder: Path, meta: dict, *, reference_dir: Path | None = None) -> TaskSource:
    if not TASK_NAME.match(folder.name):
        raise BenchmarkFormatError(f"task folder {folder.name!r}: a task name is 1-200 ASCII letters, digits, '-', "
                                   "'_' or '.', starting with a letter or digit; rename the folder")
    _no_links(folder)
    _check_meta(folder.name, meta)
    if (folder / "README.md").stat().st_size > README_MAX_BYTES:
        raise BenchmarkFormatError(f"task {folder.name}: README.md is larger than {README_MAX_BYTES // 1024} KiB; "
                                   "a requirement document this size cannot be served")
    readme = (folder / "README.md").read_text(errors="replace")
    language = meta.get("language") or ("java" if (folder / "pom.xml").is_file() or (folder / "src/test/java").is_dir()
                                        else "python")
    if meta.get("port"):
        port, port_source = int(meta["port"]), meta.get("port_source", "task.json or the benchmark manifest")
    else:
        finding = detect_port(readme)
        if finding is None:
            raise BenchmarkFormatError(f"task {folder.name}: no port found in README.md: {PORT_HELP}")
        port, port_source = finding.port, finding.describe()
    framework = meta.get("framework") or _guess_framework(readme)
    handout = {}
    for name in ("pom.xml", "requirements.txt"):
        if (folder / name).is_file():
            handout[name] = (folder / name).read_text(errors="replace")
    fixes = _check_fixes(folder.name, list(meta.get("fixes", [])))
    unmapped: tuple[str, ...] = ()
    if language == "java":
        count = count_java_tests(folder / "src" / "test")
    else:
        count = count_python_tests(folder / "tests") if (folder / "tests").is_dir() else 0
        unmapped = suite_imports(folder).unmapped
    reference = reference_dir if reference_dir and reference_dir.is_dir() else folder / "reference"
    return TaskSource(
        name=folder.name, folder=folder, language=language, port=port, framework=framework,
        framework_guessed=not meta.get("framework"), domain=meta.get("domain") or _guess_domain(readme),
        readme=readme, endpoints=[{"method": e.method, "path": e.path} for e in extract_endpoints(readme)],
        static_count=count, handout_files=handout, has_reference=reference.is_dir(),
        hidden_files=hidden_files(folder), port_source=port_source,
        suite_kind=_suite_kind(folder, language, unmapped, meta), fixes=fixes,
        defects=_import_defects(folder.name, language, count, unmapped, meta),
        reference_dir=reference if reference.is_dir() else None,
    )


def version_hash(tasks: list[TaskSource]) -> str:
    """sha256 over the runner rules (RUNNER_RULES) and every task's README, hidden test files, metadata and
    documented fixes, tasks and files in sorted order (docs/benchmark-format.md "Benchmark version")."""
    digest = hashlib.sha256(f"rules\0{RUNNER_RULES}\0".encode())
    for task in sorted(tasks, key=lambda t: t.name):
        meta = {"language": task.language, "port": task.port, "framework": task.framework, "domain": task.domain}
        if task.fixes:
            meta["fixes"] = task.fixes
        digest.update(f"task\0{task.name}\0{json.dumps(meta, sort_keys=True)}\0".encode())
        for path in task.hidden_files:
            digest.update(f"file\0{path.relative_to(task.folder).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_manifest(path: Path) -> dict:
    """A benchmark manifest (docs/benchmark-format.md "Manifest"), as a dict. A relative "references" folder
    is resolved against the manifest's folder. Raises BenchmarkFormatError for unreadable or invalid JSON."""
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise BenchmarkFormatError(f"cannot read the manifest {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise BenchmarkFormatError(f"{path.name} is not valid JSON: {exc}") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("tasks", {}), dict):
        raise BenchmarkFormatError(f"{path.name}: expected an object with a \"tasks\" object")
    if manifest.get("references"):
        manifest["references"] = str((path.parent / manifest["references"]).resolve())
    return manifest


def read_benchmark(root: Path, *, name: str | None = None, split: str = "verified",
                   manifest_path: Path | None = None) -> BenchmarkSource:
    """Read a benchmark folder, with `manifest_path` (a manifest kept outside the folder), the folder's own
    `benchmark.json`, or no manifest at all. Raises BenchmarkFormatError naming the task and the fix."""
    if not root.is_dir():
        raise BenchmarkFormatError(f"{root} is not a folder")
    manifest = {}
    if manifest_path is not None:
        manifest = read_manifest(manifest_path)
    elif (root / "benchmark.json").is_file():
        manifest = read_manifest(root / "benchmark.json")
    task_meta = manifest.get("tasks", {})
    references = Path(manifest["references"]) if manifest.get("references") else None
    tasks = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if not (folder / "README.md").is_file():
            if folder.name in task_meta or (folder / "tests").is_dir() or (folder / "src" / "test").is_dir():
                raise BenchmarkFormatError(f"task {folder.name}: no README.md (the requirement document); add it, "
                                           "or remove the folder")
            continue
        meta = dict(task_meta.get(folder.name, {}))
        if (folder / "task.json").is_file():
            try:
                meta.update(json.loads((folder / "task.json").read_text()))
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise BenchmarkFormatError(f"task {folder.name}: task.json is not valid JSON: {exc}") from exc
        tasks.append(_read_task(folder, meta, reference_dir=references / folder.name if references else None))
    if not tasks:
        raise BenchmarkFormatError(f"{root} holds no task folder with a README.md (with a git URL, point --subdir at "
                                   "the benchmark's folder inside the repository)")
    names = [t.name for t in tasks]
    unknown_meta = sorted(set(task_meta) - set(names))
    if unknown_meta:
        raise BenchmarkFormatError(f"the manifest describes tasks that have no folder: {', '.join(unknown_meta)}")
    splits = manifest.get("splits") or {split: names}
    for split_name, members in splits.items():
        unknown = sorted(set(members) - set(names))
        if unknown:
            raise BenchmarkFormatError(f"split {split_name!r} names tasks that have no folder: {', '.join(unknown)}")
    info = {k: v for k, v in manifest.items() if k not in ("tasks", "splits", "name", "title", "references")}
    return BenchmarkSource(name=name or manifest.get("name") or root.name, title=manifest.get("title", ""),
                           tasks=tasks, splits=splits, version=version_hash(tasks), info=info)
