"""Names and other text shown on the public board: what a system may be called, when two names are the same
name, and which characters no text of the board may hold (the one owner of that rule: system names and their
other fields, team names, published-results files).

A name that only looks like another (other letter case, a Cyrillic "е" for a Latin "e", a zero-width space, a
right-to-left override) would let one team impersonate another on the leaderboard. Names are therefore compared by
their *skeleton*, in the spirit of Unicode Technical Standard #39 "Confusable Detection": NFKC, case folding, every character replaced by its ASCII prototype where it has one (see
`_representatives`; data of the confusable-homoglyphs package, from Unicode's confusables.txt), spaces collapsed.
Invisible and direction-control characters are refused outright, and so are names made only of digits (a numeric
reference means a system's id: catalog.selectors.system_by_ref) and, in a system's name, "/" (the name is a path
segment of the system's API address, /api/v1/systems/<name>/, which a "/" would split: `system_name_problem`).

The same invisible characters are refused in every other text a system shows on the board (agent framework, base
model, description: `text_problem`): a right-to-left override in a base model would reorder the rest of its row.
"""
from __future__ import annotations

import functools
import unicodedata

#: Refused anywhere in a name or other text of the board: every format character (zero-width spaces and joiners,
#: the bidi marks U+200E/F and U+061C, embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the word
#: joiner, the soft hyphen, the BOM), every control character (but the line breaks and tabs of a multi-line text),
#: private-use, surrogate and unassigned code points, and the line and paragraph separators U+2028/U+2029.
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp"})
#: The control characters a multi-line text (a description) may hold.
MULTILINE_ALLOWED = frozenset("\n\r\t")
MAX_LENGTH = 100


@functools.cache
def _representatives() -> dict[str, str]:
    """char -> its prototype: the class of the ASCII letters or digits it is a confusable of (itself or its capital),
    a class being ASCII letters and digits confusable with each other ("1", "l", "I", "i" -> "1"; "0", "O", "o" ->
    "0"); chars with no ASCII confusable keep themselves. Non-ASCII chars are mapped one hop only: chaining
    confusables of confusables would merge letters nobody confuses."""
    from confusable_homoglyphs import utils

    pairs: dict[str, set[str]] = {}  # both directions: the data lists some pairs one way only
    for char, homoglyphs in utils.load("confusables.json").items():
        for homoglyph in homoglyphs:
            other = homoglyph["c"].strip("\u200e\u200f")
            pairs.setdefault(char, set()).add(other)
            pairs.setdefault(other, set()).add(char)

    def ascii_neighbours(char: str) -> set[str]:
        near = pairs.get(char, set()) | pairs.get(char.upper(), set()) | pairs.get(char.lower(), set()) | {char}
        return {c.casefold() for c in near if len(c) == 1 and c.isascii() and c.isalnum()}

    # ASCII letters and digits that are confusables of each other form one class ("1", "l", "I", "i"; "0", "O", "o")
    ascii_class: dict[str, str] = {c: c for c in "abcdefghijklmnopqrstuvwxyz0123456789"}
    changed = True
    while changed:
        changed = False
        for char in ascii_class:
            best = min((ascii_class[c] for c in ascii_neighbours(char) if c in ascii_class), key=ord)
            if best != ascii_class[char]:
                ascii_class[char], changed = best, True
    table: dict[str, str] = {}
    for char in set(pairs) | {c.casefold() for c in pairs if len(c.casefold()) == 1}:
        near = [ascii_class[c] for c in ascii_neighbours(char) if c in ascii_class]
        if near:
            table[char] = min(near, key=ord)
    return table


def refused_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of `text` no text of the board may hold (REFUSED_CATEGORIES; line breaks and tabs are
    allowed when `multiline`), or None."""
    allowed = MULTILINE_ALLOWED if multiline else frozenset()
    return next((c for c in text if unicodedata.category(c) in REFUSED_CATEGORIES and c not in allowed), None)


def text_problem(text: str, *, what: str, multiline: bool = False) -> str | None:
    """Why `text` cannot be shown on the board (a sentence naming the character and saying what to do; `what` is
    its subject, e.g. "The base model"), or None when it can: see `refused_character`."""
    char = refused_character(text, multiline=multiline)
    if char is None:
        return None
    label = unicodedata.name(char, f"U+{ord(char):04X}")
    return (f"{what} holds an invisible or control character ({label}, U+{ord(char):04X}), which would hide or "
            "reorder text on the leaderboard; type it again without it.")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a system's or a team's name (a sentence saying what to change), or None when it can."""
    if not name.strip():
        return "Give the system a name."
    if len(name) > MAX_LENGTH:
        return f"A name has at most {MAX_LENGTH} characters."
    problem = text_problem(name, what="The name")
    if problem:
        return problem
    if name.strip().isdigit():
        return "A name cannot be only digits (numbers refer to systems by id): add a letter."
    return None


def system_name_problem(name: str) -> str | None:
    """Why `name` cannot be a system's name (a sentence saying what to change), or None when it can: `name_problem`,
    and no "/" (see the module docstring)."""
    problem = name_problem(name)
    if problem is None and "/" in name:
        problem = ('A system name cannot hold "/": the name is part of the system\'s address in the API '
                   '(/api/v1/systems/<name>/), which a "/" would split. Use "-", "·" or a space instead.')
    return problem


def name_skeleton(name: str) -> str:
    """The form two names are compared in (see the module docstring): equal skeletons mean names that look alike,
    e.g. `Demo Agent Alpha`, `demo agent alpha` and `Dеmo Agent Alpha` (Cyrillic е) share one."""
    table = _representatives()
    folded = unicodedata.normalize("NFKC", name).casefold()
    mapped = "".join(table.get(char, char) for char in folded)
    return " ".join(unicodedata.normalize("NFKC", mapped).split())
