"""Reading published ("reported by the authors") results: a TOML manifest naming its source and a CSV of values.

No database access. `read_reported(manifest)` returns a `ReportedSource` whose rows carry the published values
as `Decimal` percentages, exactly as written, and the findings of the consistency check:

- a DSR must be k / tasks and an AC k / endpoints of the language for some whole k (the manifest's
  `denominators`), once rounded *or* truncated to the decimals the value was published with;
- a Pass@1 above 0 with a DSR of 0 cannot happen under SCORING.md (a task that never deployed scores 0), so it
  points at a different definition of deployment in the authors' scripts (kept as a remark, not an inconsistency).

Manifest (TOML): benchmark, split, results (CSV path, relative to the manifest), source, source_url, source_date,
paper, paper_url, and [denominators.<language>] tasks / endpoints. CSV: `#` comment lines, then a header with
system, base_model, type and `<language>_<metric>` for every language of `denominators` and metric in
pass_at_1, ac, dsr; any other column (such as the file's own `consistent`) is ignored.
"""
from __future__ import annotations

import csv
import datetime as dt
import tomllib
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

METRICS = ("pass_at_1", "ac", "dsr")
METRIC_LABELS = {"pass_at_1": "Pass@1", "ac": "AC", "dsr": "DSR"}
LANGUAGE_LABELS = {"python": "Python", "java": "Java"}
TYPES = ("agent", "ide", "other")
#: Which denominator of the manifest a metric's published value is a ratio of; Pass@1 is a mean of per-task
#: ratios and has none.
DENOMINATOR_OF = {"dsr": "tasks", "ac": "endpoints"}
MANIFEST_KEYS = ("benchmark", "split", "results", "source", "source_url", "source_date", "paper", "denominators")


class ReportedFormatError(ValueError):
    """The manifest or its CSV is malformed; the message names the file, the line and the column."""


@dataclass(frozen=True)
class Finding:
    """One problem with a published row. `kind` is `denominator` (the value cannot come from the stated counts:
    the row is inconsistent) or `definition` (possible only under a definition other than SCORING.md's)."""

    field: str
    kind: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "kind": self.kind, "message": self.message}


@dataclass
class ReportedRowSource:
    """One published row: system, base model, type and {`<language>_<metric>`: percent as published}."""

    line: int
    system: str
    base_model: str
    type: str
    values: dict[str, Decimal]
    findings: list[Finding] = field(default_factory=list)

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


def ratio_possible(value: Decimal, denominator: int) -> bool:
    """True when some k/denominator (k = 0..denominator), as a percentage, rounded half-up or truncated to the
    number of decimals `value` is written with, equals `value`. Example: 67.82 is possible for 115 (78/115 =
    67.826..., truncated); 16.50 is not possible for 22. Raises ValueError for a denominator below 1."""
    if denominator < 1:
        raise ValueError(f"denominator must be at least 1, got {denominator}")
    step = Decimal(1).scaleb(value.as_tuple().exponent)
    for k in range(denominator + 1):
        exact = Decimal(100 * k) / Decimal(denominator)
        if value in (exact.quantize(step, ROUND_HALF_UP), exact.quantize(step, ROUND_DOWN)):
            return True
    return False


def row_findings(values: dict[str, Decimal], denominators: dict[str, dict[str, int]]) -> list[Finding]:
    """The consistency findings for one row's values (see the module docstring), in language, metric order."""
    findings = []
    for language, counts in denominators.items():
        label = LANGUAGE_LABELS.get(language, language)
        for metric, count_key in DENOMINATOR_OF.items():
            key, n = f"{language}_{metric}", counts[count_key]
            if not ratio_possible(values[key], n):
                findings.append(Finding(key, "denominator", f"{label} {METRIC_LABELS[metric]} {values[key]}% is not "
                                                             f"k/{n} {count_key} for any whole k"))
        if values[f"{language}_pass_at_1"] > 0 and values[f"{language}_dsr"] == 0:
            findings.append(Finding(f"{language}_dsr", "definition",
                                    f"{label} Pass@1 is above 0 with DSR 0: under SCORING.md a task that never "
                                    "deployed scores 0, so the authors' DSR counts deployment differently"))
    return findings


def _percent(raw: str, *, where: str) -> Decimal:
    try:
        value = Decimal(raw.strip())
    except InvalidOperation:
        raise ReportedFormatError(f"{where}: {raw!r} is not a number (write percentages like 23.67)") from None
    if not value.is_finite() or not Decimal(0) <= value <= Decimal(100):
        raise ReportedFormatError(f"{where}: {raw!r} is not a percentage between 0 and 100")
    if value.as_tuple().exponent < -2:
        raise ReportedFormatError(f"{where}: {raw!r} has more than 2 decimals")
    return value


def _read_manifest(path: Path) -> dict:
    try:
        manifest = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ReportedFormatError(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ReportedFormatError(f"{path}: not valid TOML: {exc}") from exc
    missing = [k for k in MANIFEST_KEYS if k not in manifest]
    if missing:
        raise ReportedFormatError(f"{path}: missing {', '.join(missing)} (see leaderboard/reported_files.py)")
    if not isinstance(manifest["source_date"], dt.date):
        raise ReportedFormatError(f"{path}: source_date must be a TOML date like 2026-02-01")
    for language, counts in manifest["denominators"].items():
        if language not in LANGUAGE_LABELS or not isinstance(counts, dict) or not all(
                isinstance(counts.get(k), int) and counts[k] >= 1 for k in ("tasks", "endpoints")):
            raise ReportedFormatError(f"{path}: [denominators.{language}] needs a language of "
                                      f"{', '.join(LANGUAGE_LABELS)} and whole tasks and endpoints of at least 1")
    return manifest


def _read_rows(path: Path, denominators: dict[str, dict[str, int]]) -> list[ReportedRowSource]:
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        raise ReportedFormatError(f"{path}: no such file (the manifest's `results`)") from None
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip() and not line.startswith("#")]
    if not numbered:
        raise ReportedFormatError(f"{path}: no header and no rows")
    reader = csv.DictReader(line for _, line in numbered)
    needed = ["system", "base_model", "type"] + [f"{lang}_{m}" for lang in denominators for m in METRICS]
    missing = [c for c in needed if c not in (reader.fieldnames or [])]
    if missing:
        raise ReportedFormatError(f"{path} line {numbered[0][0]}: header lacks {', '.join(missing)}")
    rows, seen = [], {}
    for (number, _), record in zip(numbered[1:], reader):
        where = f"{path.name} line {number}"
        if None in record or any(record[c] is None for c in needed):
            raise ReportedFormatError(f"{where}: expected {len(reader.fieldnames)} columns")
        system, base_model, kind = record["system"].strip(), record["base_model"].strip(), record["type"].strip()
        if not system:
            raise ReportedFormatError(f"{where}: empty system")
        if kind not in TYPES:
            raise ReportedFormatError(f"{where}: type {kind!r} is not one of {', '.join(TYPES)}")
        if (system, base_model) in seen:
            raise ReportedFormatError(f"{where}: {system} / {base_model} repeats line {seen[system, base_model]}")
        seen[system, base_model] = number
        values = {c: _percent(record[c], where=f"{where}, {c}") for c in needed[3:]}
        rows.append(ReportedRowSource(line=number, system=system, base_model=base_model, type=kind, values=values,
                                      findings=row_findings(values, denominators)))
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
