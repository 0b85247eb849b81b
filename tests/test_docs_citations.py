"""Citations of the project's own documents hold: every `docs/<file>.md "<Section>"` in a .py file names a file of
docs/ and a heading it has, and no .py file cites the design files a user of this repository does not have."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".venv", ".git", "var", "node_modules", "__pycache__", "mutants"}
#: `docs/x.md`, then optionally one or more quoted sections: `"A"`, `"A", "B"`, `"A" and "B"` (across line breaks).
CITATION = re.compile(r'docs/([\w.-]+\.md)((?:(?:\s*,\s*|\s+and\s+|\s+)"[^"\n]+(?:\n[^"\n]*)?")*)')
SECTION = re.compile(r'"([^"]+)"')
FOREIGN = re.compile(r"\b(SCORING\.md|BENCHMARK-FORMAT\.md|DESIGN\.md)")


def _python_files() -> list[Path]:
    """The project's .py files, this one left out (its examples are not citations)."""
    return sorted(p for p in ROOT.rglob("*.py")
                  if not SKIP_DIRS & set(p.relative_to(ROOT).parts) and p != Path(__file__).resolve())


def _headings(doc: Path) -> set[str]:
    return {m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", doc.read_text(), re.M)}


def _citations(text: str) -> list[tuple[str, list[str]]]:
    """[(file name, [section, ...])] of every docs/ citation in `text`; sections with their line breaks and comment
    or indentation prefixes folded to single spaces."""
    found = []
    for match in CITATION.finditer(text):
        sections = [re.sub(r"\s*\n\s*(#:?\s*)?", " ", s).strip() for s in SECTION.findall(match.group(2))]
        found.append((match.group(1), sections))
    return found


def test_the_citation_pattern_reads_lists_and_wrapped_sections():
    text = 'x (docs/scoring.md "Metrics per\n    task", "Aggregates" and "Ranking"); docs/benchmark-format.md, y'
    assert _citations(text) == [("scoring.md", ["Metrics per task", "Aggregates", "Ranking"]),
                                ("benchmark-format.md", [])]


def test_every_docs_citation_names_an_existing_file_and_heading():
    problems, count = [], 0
    for path in _python_files():
        for name, sections in _citations(path.read_text()):
            count += 1
            doc = ROOT / "docs" / name
            if not doc.is_file():
                problems.append(f"{path.relative_to(ROOT)}: docs/{name} does not exist")
                continue
            headings = _headings(doc)
            problems += [f'{path.relative_to(ROOT)}: docs/{name} has no heading "{s}"' for s in sections
                         if s not in headings]
    assert count > 50, "the citation pattern no longer finds the project's citations"
    assert not problems, "\n".join(problems)


def test_no_python_file_cites_the_design_files():
    cited = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m.group(1)}"
             for path in _python_files()
             for text in [path.read_text()] for m in FOREIGN.finditer(text)]
    assert not cited, "cite docs/<file>.md \"<Section>\" instead:\n" + "\n".join(cited)
