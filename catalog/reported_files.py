"""Reading published ("reported by the authors") results: a TOML manifest naming its source and a CSV of values.

No database access. `read_reported(manifest)` returns a `ReportedSource` whose rows carry the published values
as `Decimal` percentages, exactly as written, and the findings of the consistency check:

- `denominator`: a DSR must be k / tasks and an AC k / endpoints of the language for some whole k (the
  manifest's `denominators`), once rounded *or* truncated to two decimals;
- `definition`: under docs/scoring.md "Metrics per task" a task's Pass@1 is 0 unless it deployed, so a language's
  Pass@1 can never exceed its DSR; a row where it does counts deployment differently from us.
Either finding keeps a row out of the ranked tables (it cannot be verified); only `denominator` findings make it
"inconsistent" (the word the authors' file uses).

Manifest (TOML): benchmark and split (slugs), results (CSV path, relative to the manifest), source, source_url
(http or https), source_date (a date), paper, optional paper_url, and [denominators.<language>] tasks / endpoints
for python and/or java. Text holds no control or format characters. CSV (UTF-8, one row per line): `#` comment
lines, then a header with system, base_model, type and `<language>_<metric>` for every language of `denominators`
and metric in pass_at_1, ac, dsr; values written with exactly two decimals (23.67, 0.00, 100.00). An optional
`consistent` column (yes/no) is the file's own claim, compared with our check; other columns are ignored.
"""
from __future__ import annotations

import csv
import datetime as dt
import re
import tomllib
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from urllib.parse import urlsplit

from .names import refused_character

METRICS = ("pass_at_1", "ac", "dsr")
METRIC_LABELS = {"pass_at_1": "Pass@1", "ac": "AC", "dsr": "DSR"}
LANGUAGE_LABELS = {"python": "Python", "java": "Java"}
TYPES = ("agent", "ide", "other")
#: Which denominator of the manifest a metric's published value is a ratio of; Pass@1 is a mean of per-task
#: ratios and has none.
DENOMINATOR_OF = {"dsr": "tasks", "ac": "endpoints"}
#: Longest text per field (the database columns' sizes).
MAX_LENGTH = {"system": 100, "base_model": 100, "source": 300, "paper": 300, "source_url": 200, "paper_url": 200}
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,64}", re.ASCII)
PERCENT = re.compile(r"[0-9]{1,3}(\.[0-9]+)?", re.ASCII)
#: The stored columns keep two decimals, so published values must be written with exactly two.
DECIMALS = 2
#: Largest task or endpoint count a manifest may state (the check tries every k up to it).
MAX_COUNT = 100_000


class ReportedFormatError(ValueError):
    """The manifest or its CSV is malformed; the message names the file, the line and the column."""


@dataclass(frozen=True)
class Finding:
    """One problem with a published row. `kind` is `denominator` (the value cannot come from the stated counts:
    the row is inconsistent) or `definition` (possible only under a definition other than docs/scoring.md
    "Metrics per task")."""

    field: str
    kind: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "kind": self.kind, "message": self.message}


@dataclass
class ReportedRowSource:
    """One published row: system, base model, type and {`<language>_<metric>`: percent as published}.
    `claimed_consistent`: the file's own `consistent` column (None when it has none)."""

    line: int
    system: str
    base_model: str
    type: str
    values: dict[str, Decimal]
    findings: list[Finding] = field(default_factory=list)
    claimed_consistent: bool | None = None

    @property
    def consistent(self) -> bool:
        """False when some value cannot come from the manifest's task and endpoint counts."""
        return not any(f.kind == "denominator" for f in self.findings)


@dataclass
class ReportedSource:
    """A manifest with its rows, in file order."""

    benchmark: str
    split: str
    source: str
    source_url: str
    source_date: dt.date
    paper: str
    paper_url: str
    denominators: dict[str, dict[str, int]]
    rows: list[ReportedRowSource]


def ratio_possible(value: Decimal, denominator: int, *, decimals: int = DECIMALS) -> bool:
    """True when some k/denominator (k = 0..denominator), as a percentage rounded half-up or truncated to
    `decimals`, equals `value`. Example: 67.82 is possible for 115 (78/115 = 67.826..., truncated); 16.50 is not
    possible for 22. Raises ValueError for a denominator below 1."""
    if denominator < 1:
        raise ValueError(f"denominator must be at least 1, got {denominator}")
    step = Decimal(1).scaleb(-decimals)
    for k in range(denominator + 1):
        exact = Decimal(100 * k) / Decimal(denominator)
        if value in (exact.quantize(step, ROUND_HALF_UP), exact.quantize(step, ROUND_DOWN)):
            return True
    return False


def row_findings(values: dict[str, Decimal], denominators: dict[str, dict[str, int]], *,
                 decimals: int = DECIMALS) -> list[Finding]:
    """The consistency findings for one row's values (see the module docstring), in language, metric order."""
    findings = []
    slack = Decimal(1).scaleb(-decimals)  # both values were rounded or truncated to `decimals`
    for language, counts in denominators.items():
        label = LANGUAGE_LABELS[language]
        for metric, count_key in DENOMINATOR_OF.items():
            key, n = f"{language}_{metric}", counts[count_key]
            if not ratio_possible(values[key], n, decimals=decimals):
                findings.append(Finding(key, "denominator", f"{label} {METRIC_LABELS[metric]} {values[key]}% is not "
                                                             f"k/{n} {count_key} for any whole k"))
        passed, deployed = values[f"{language}_pass_at_1"], values[f"{language}_dsr"]
        if passed > deployed + slack:
            findings.append(Finding(f"{language}_dsr", "definition",
                                    f"{label} Pass@1 {passed}% is above its DSR {deployed}%: under our scoring "
                                    "(docs/scoring.md) a task that never deployed scores 0, so the authors' DSR "
                                    "counts deployment differently"))
    return findings


def _plain(text: str, *, where: str) -> str:
    """`text` unchanged; raises ReportedFormatError when it holds a character no text of the board may hold
    (catalog.names.refused_character: a control or format character such as NUL, a byte-order mark, a bidi
    override, a line separator): the kind no name or source needs and some databases refuse."""
    bad = refused_character(text)
    if bad is not None:
        raise ReportedFormatError(f"{where}: holds the control character U+{ord(bad):04X}; remove it")
    return text


def _percent(raw: str, *, where: str, decimals: int = DECIMALS) -> Decimal:
    text = raw.strip()
    if not PERCENT.fullmatch(text):
        raise ReportedFormatError(f"{where}: {raw!r} is not a plain percentage (write it like 23.67)")
    value = Decimal(text)
    if value > 100:
        raise ReportedFormatError(f"{where}: {raw!r} is not a percentage between 0 and 100")
    if -value.as_tuple().exponent != decimals:
        raise ReportedFormatError(f"{where}: {raw!r} must be written with {decimals} decimals, as published "
                                  f"(e.g. {value.quantize(Decimal(1).scaleb(-decimals))})")
    return value


def _text(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ReportedFormatError(f"{path}: no such file{what}") from None
    except IsADirectoryError:
        raise ReportedFormatError(f"{path}: is a folder, not a file{what}") from None
    except UnicodeDecodeError as exc:
        raise ReportedFormatError(f"{path}: not UTF-8 text (byte {exc.start}){what}") from None
    except OSError as exc:
        raise ReportedFormatError(f"{path}: cannot be read{what}: {exc.strerror}") from None


def _check_url(path: Path, key: str, url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ReportedFormatError(f"{path}: {key} must be an http(s) address, got {url!r}")


def _read_manifest(path: Path) -> dict:
    try:
        manifest = tomllib.loads(_text(path, ""))
    except tomllib.TOMLDecodeError as exc:
        raise ReportedFormatError(f"{path}: not valid TOML: {exc}") from exc
    required = ("benchmark", "split", "results", "source", "source_url", "source_date", "paper", "denominators")
    missing = [k for k in required if k not in manifest]
    if missing:
        raise ReportedFormatError(f"{path}: missing {', '.join(missing)} (see catalog/reported_files.py)")
    for key in ("benchmark", "split", "results", "source", "source_url", "paper", "paper_url"):
        if key in manifest and not isinstance(manifest[key], str):
            raise ReportedFormatError(f"{path}: {key} must be a string")
        if len(manifest.get(key, "")) > MAX_LENGTH.get(key, 10_000):
            raise ReportedFormatError(f"{path}: {key} is longer than {MAX_LENGTH[key]} characters")
        _plain(manifest.get(key, ""), where=f"{path}: {key}")
    for key in ("benchmark", "split", "results", "source"):
        if not manifest[key].strip():
            raise ReportedFormatError(f"{path}: {key} is empty")
    for key in ("benchmark", "split"):
        if not SLUG.fullmatch(manifest[key]):
            raise ReportedFormatError(f"{path}: {key} {manifest[key]!r} must be a name of letters, digits, - and _")
    _check_url(path, "source_url", manifest["source_url"])
    if manifest.get("paper_url"):
        _check_url(path, "paper_url", manifest["paper_url"])
    date = manifest["source_date"]
    if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
        raise ReportedFormatError(f"{path}: source_date must be a TOML date like 2026-02-01")
    denominators = manifest["denominators"]
    if not isinstance(denominators, dict) or not denominators:
        raise ReportedFormatError(f"{path}: denominators must be tables like [denominators.python]")
    for language, counts in denominators.items():
        if language not in LANGUAGE_LABELS or not isinstance(counts, dict) or not all(
                type(counts.get(k)) is int and 1 <= counts[k] <= MAX_COUNT for k in ("tasks", "endpoints")):
            raise ReportedFormatError(f"{path}: [denominators.{language}] needs a language of "
                                      f"{', '.join(LANGUAGE_LABELS)} and whole tasks and endpoints from 1 to "
                                      f"{MAX_COUNT}")
    return manifest


def _records(path: Path) -> list[tuple[int, list[str]]]:
    """(line number, fields) of every row of the CSV, comment and blank lines skipped; one row per line."""
    records = []
    text = _text(path, " (the manifest's `results`)").replace("\r\n", "\n")
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines(): it splits at U+2028 and more
        if not line.strip() or line.startswith("#"):
            continue
        _plain(line, where=f"{path.name} line {number}")
        try:
            records.append((number, next(csv.reader([line], strict=True))))
        except csv.Error as exc:
            raise ReportedFormatError(f"{path.name} line {number}: {exc} (each row must be on one line)") from None
    if not records:
        raise ReportedFormatError(f"{path}: no header and no rows")
    return records


def _read_rows(path: Path, denominators: dict[str, dict[str, int]]) -> list[ReportedRowSource]:
    (header_line, header), *body = _records(path)
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:
        raise ReportedFormatError(f"{path.name} line {header_line}: header repeats {', '.join(repeated)}")
    needed = ["system", "base_model", "type"] + [f"{lang}_{m}" for lang in denominators for m in METRICS]
    missing = [c for c in needed if c not in header]
    if missing:
        raise ReportedFormatError(f"{path.name} line {header_line}: header lacks {', '.join(missing)}")
    rows, seen = [], {}
    for number, fields in body:
        where = f"{path.name} line {number}"
        if len(fields) != len(header):
            raise ReportedFormatError(f"{where}: expected {len(header)} columns, found {len(fields)}")
        record = dict(zip(header, fields))
        system, base_model, kind = record["system"].strip(), record["base_model"].strip(), record["type"].strip()
        if not system:
            raise ReportedFormatError(f"{where}: empty system")
        for key, text in (("system", system), ("base_model", base_model)):
            if len(text) > MAX_LENGTH[key]:
                raise ReportedFormatError(f"{where}, {key}: longer than {MAX_LENGTH[key]} characters")
        if kind not in TYPES:
            raise ReportedFormatError(f"{where}: type {kind!r} is not one of {', '.join(TYPES)}")
        if (system, base_model) in seen:
            raise ReportedFormatError(f"{where}: {system} / {base_model} repeats line {seen[system, base_model]}")
        seen[system, base_model] = number
        values = {c: _percent(record[c], where=f"{where}, {c}") for c in needed[3:]}
        claimed = record.get("consistent", "").strip().lower()
        rows.append(ReportedRowSource(line=number, system=system, base_model=base_model, type=kind, values=values,
                                      findings=row_findings(values, denominators),
                                      claimed_consistent={"yes": True, "no": False}.get(claimed)))
    return rows


def read_reported(manifest_path: Path) -> ReportedSource:
    """Read a manifest and its CSV. Raises ReportedFormatError naming the file, line and column at fault."""
    manifest = _read_manifest(manifest_path)
    denominators = manifest["denominators"]
    rows = _read_rows(manifest_path.parent / manifest["results"], denominators)
    return ReportedSource(benchmark=manifest["benchmark"], split=manifest["split"], source=manifest["source"],
                          source_url=manifest["source_url"], source_date=manifest["source_date"],
                          paper=manifest["paper"], paper_url=manifest.get("paper_url", ""),
                          denominators=denominators, rows=rows)
