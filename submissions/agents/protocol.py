"""The `agent/1` protocol: the request body the platform sends and the answers it accepts. Django-free.

Request (JSON): {"protocol": "agent/1", "task", "language", "framework" (hint or null), "port",
"readme", "files": {path: text}, "instructions", "deadline_seconds"}.
Answer (HTTP 200): a zip or tar.gz whose root is the repository (a single wrapping folder is unwrapped),
or JSON {"files": {path: text}}. See docs/agent-protocol.md.
"""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import PurePosixPath

PROTOCOL = "agent/1"

INSTRUCTIONS = (
    "Generate the whole repository of a web service that implements the README. Contract: "
    "(1) provide start.sh (at the repository root, or in scripts/ or bin/) that starts the service on the port "
    "given in the environment variables PORT and SERVICE_PORT (the task's port) and listens on 127.0.0.1 or "
    "0.0.0.0; the script may exit once the server runs in the background; "
    "(2) declare every dependency: Python in requirements.txt (repository root), Java in pom.xml "
    "(Maven; the hidden tests are copied into src/test/); nothing else is installed and the service has no "
    "network at run time; "
    "(3) answer with a zip or tar.gz of the repository, or JSON {\"files\": {path: text}}. "
    "Hidden tests call the HTTP API described in the README."
)

#: Files the JSON form makes executable (start scripts and build wrappers).
_EXECUTABLE_SUFFIXES = (".sh",)
_EXECUTABLE_NAMES = ("mvnw", "gradlew")


class AnswerError(ValueError):
    """The agent's answer is unusable; the message says why (our words only, never the agent's body)."""


def build_request(*, task: str, language: str, framework: str | None, port: int, readme: str,
                  files: dict[str, str], deadline_seconds: float) -> dict:
    """The JSON body of the POST to the agent for one task."""
    return {"protocol": PROTOCOL, "task": task, "language": language, "framework": framework or None,
            "port": port, "readme": readme, "files": dict(files or {}), "instructions": INSTRUCTIONS,
            "deadline_seconds": int(deadline_seconds)}


def _kind(body: bytes, content_type: str) -> str:
    if body[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if body[:2] == b"\x1f\x8b" or body[257:262] == b"ustar":
        return "tar"
    if "json" in content_type.lower() or body.lstrip()[:1] == b"{":
        return "json"
    raise AnswerError("the answer is neither a zip or tar.gz archive nor JSON {\"files\": {path: text}} "
                      f"(content type {content_type[:60] or 'none'!r}, {len(body)} bytes)")


def check_path(path: object) -> str:
    """A relative POSIX path from a JSON answer, normalised; raises AnswerError for absolute paths, `..`,
    drive letters, backslashes, NUL bytes and empty names."""
    if not isinstance(path, str) or not path.strip():
        raise AnswerError("a file path in the answer is empty or not a string")
    shown = path[:80]
    if "\x00" in path or "\\" in path or len(path) > 1000:
        raise AnswerError(f"the file path {shown!r} holds a backslash or NUL byte, or is too long")
    if path.startswith(("/", "~")) or (len(path) > 1 and path[1] == ":"):
        raise AnswerError(f"the answer holds an absolute path ({shown!r}); use paths relative to the repository root")
    parts = [p for p in PurePosixPath(path).parts if p not in ("", ".")]
    if not parts or ".." in parts:
        raise AnswerError(f"the answer holds a path that escapes the repository ({shown!r}); remove '..'")
    return "/".join(parts)


def files_zip(files: object) -> bytes:
    """A zip holding the {path: text} of a JSON answer (paths checked with `check_path`). Raises AnswerError."""
    if not isinstance(files, dict) or not files:
        raise AnswerError("the JSON answer has no \"files\" object with at least one file")
    buffer = io.BytesIO()
    seen: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for raw, text in files.items():
            name = check_path(raw)
            if not isinstance(text, str):
                raise AnswerError(f"the content of {name[:80]!r} is not a string")
            if name in seen:
                raise AnswerError(f"the answer names {name[:80]!r} twice")
            seen.add(name)
            info = zipfile.ZipInfo(name)
            executable = name.endswith(_EXECUTABLE_SUFFIXES) or PurePosixPath(name).name in _EXECUTABLE_NAMES
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text.encode("utf-8", "surrogatepass"))
    return buffer.getvalue()


def parse_answer(body: bytes, content_type: str = "") -> tuple[str, bytes]:
    """(kind, archive bytes) from the body of a 200 answer: kind is `zip`, `tar` or `json` (then the bytes
    are a zip built from its files). Raises AnswerError. Archive members are checked later, on extraction."""
    if not body:
        raise AnswerError("the answer is empty")
    kind = _kind(body, content_type)
    if kind != "json":
        return kind, body
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AnswerError(f"the JSON answer cannot be parsed ({type(exc).__name__} at byte "
                          f"{getattr(exc, 'pos', '?')})") from exc
    if not isinstance(data, dict) or "files" not in data:
        raise AnswerError("the JSON answer has no \"files\" object")
    return kind, files_zip(data["files"])
