"""Names and other text shown on the public board: what a system may be called, when two names are the same
name, and which characters no text of the board may hold (the one owner of that rule: system names and their
other fields, team names, published-results files).

A name that only looks like another (other letter case, a Cyrillic "е" for a Latin "e", "rn" for "m", a zero-width
space, a right-to-left override) would let one team impersonate another on the leaderboard. Names are therefore
compared by their *skeleton* (`name_skeleton`), Unicode Technical Standard #39 "Unicode Security Mechanisms",
section 4 "Confusable Detection": every character replaced by its prototype from Unicode's confusables.txt (the
data of the confusable-homoglyphs package), multi-letter ones included ("m" -> "rn"), plus a few multi-letter
look-alikes of our own (`EXTRA_PROTOTYPES`: "w" -> "vv", "d" -> "cl"), compared without letter case (NFKC and case
folding around the mapping) and with spaces collapsed.

A name may hold no character that is invisible or looks blank (`name_refused_character`): none of the categories
refused in every text (REFUSED_CATEGORIES), no Default_Ignorable_Code_Point (`DEFAULT_IGNORABLE_RANGES`: combining
grapheme joiner, variation selectors, Hangul fillers, tags ...), no blank-looking character (`BLANK_LOOKING`: the
braille blank) and no whitespace but a plain space. Names made only of digits are refused (a numeric reference
means a system's id: catalog.selectors.system_by_ref), and so is, in a system's name, "/" (the name is a path
segment of the system's API address, /api/v1/systems/<name>/, which a "/" would split: `system_name_problem`).

The invisible characters of REFUSED_CATEGORIES are refused in every other text a system shows on the board (agent
framework, base model, description: `text_problem`): a right-to-left override in a base model would reorder the
rest of its row.
"""
from __future__ import annotations

import functools
import re
import unicodedata

#: Refused anywhere in a name or other text of the board: every format character (zero-width spaces and joiners,
#: the bidi marks U+200E/F and U+061C, embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the word
#: joiner, the soft hyphen, the BOM), every control character (but the line breaks and tabs of a multi-line text),
#: private-use, surrogate and unassigned code points, and the line and paragraph separators U+2028/U+2029.
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp"})
#: The control characters a multi-line text (a description) may hold.
MULTILINE_ALLOWED = frozenset("\n\r\t")
MAX_LENGTH = 100

#: The code points with the property Default_Ignorable_Code_Point, as inclusive (first, last) ranges: Unicode's
#: DerivedCoreProperties.txt (Unicode 15.1 and 16.0, the same list). They are drawn as nothing by default (UTS #39
#: section 4 removes them before comparing), so a name holding one would look like a name without it. Many are
#: format characters (Cf) refused anyway; the others are not: U+034F COMBINING GRAPHEME JOINER, the Hangul fillers,
#: U+17B4/U+17B5 Khmer inherent vowels, the Mongolian and the other variation selectors.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),    # Cf SOFT HYPHEN
    (0x034F, 0x034F),    # Mn COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),    # Cf ARABIC LETTER MARK
    (0x115F, 0x1160),    # Lo HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),    # Mn KHMER VOWEL INHERENT AQ..KHMER VOWEL INHERENT AA
    (0x180B, 0x180D),    # Mn MONGOLIAN FREE VARIATION SELECTOR ONE..THREE
    (0x180E, 0x180E),    # Cf MONGOLIAN VOWEL SEPARATOR
    (0x180F, 0x180F),    # Mn MONGOLIAN FREE VARIATION SELECTOR FOUR
    (0x200B, 0x200F),    # Cf ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),    # Cf LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
    (0x2060, 0x2064),    # Cf WORD JOINER..INVISIBLE PLUS
    (0x2065, 0x2065),    # Cn <reserved-2065>
    (0x2066, 0x206F),    # Cf LEFT-TO-RIGHT ISOLATE..NOMINAL DIGIT SHAPES
    (0x3164, 0x3164),    # Lo HANGUL FILLER
    (0xFE00, 0xFE0F),    # Mn VARIATION SELECTOR-1..VARIATION SELECTOR-16
    (0xFEFF, 0xFEFF),    # Cf ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),    # Lo HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),    # Cn <reserved-FFF0>..<reserved-FFF8>
    (0x1BCA0, 0x1BCA3),  # Cf SHORTHAND FORMAT LETTER OVERLAP..SHORTHAND FORMAT UP STEP
    (0x1D173, 0x1D17A),  # Cf MUSICAL SYMBOL BEGIN BEAM..MUSICAL SYMBOL END PHRASE
    (0xE0000, 0xE0000),  # Cn <reserved-E0000>
    (0xE0001, 0xE0001),  # Cf LANGUAGE TAG
    (0xE0002, 0xE001F),  # Cn <reserved-E0002>..<reserved-E001F>
    (0xE0020, 0xE007F),  # Cf TAG SPACE..CANCEL TAG
    (0xE0080, 0xE00FF),  # Cn <reserved-E0080>..<reserved-E00FF>
    (0xE0100, 0xE01EF),  # Mn VARIATION SELECTOR-17..VARIATION SELECTOR-256
    (0xE01F0, 0xE0FFF),  # Cn <reserved-E01F0>..<reserved-E0FFF>
)
#: Characters that are not default-ignorable but are drawn as a blank (a name holding one would look like a name
#: with a space, or with nothing, there): U+2800 BRAILLE PATTERN BLANK (the Hangul fillers are in
#: DEFAULT_IGNORABLE_RANGES). Whitespace other than a plain space is refused besides (`name_refused_character`).
BLANK_LOOKING = frozenset("\u2800\ufffc")  # and U+FFFC OBJECT REPLACEMENT CHARACTER: no glyph in DejaVu (4th pass)
#: Words of the Unicode names of characters drawn as nothing or as a blank, whatever their category (a filler, a
#: blank pattern, a null notehead): refused in names like BLANK_LOOKING (the second break-it pass of issue 13:
#: U+1D159 MUSICAL SYMBOL NULL NOTEHEAD and U+16FE4 KHITAN SMALL SCRIPT FILLER passed).
BLANK_NAME_WORDS = ("FILLER", "BLANK", "NULL NOTEHEAD")
#: The longest skeleton a name may have (catalog.models.System.name_skeleton's column): NFKC spells some single
#: characters out at length (U+FDFA is 18 letters).
MAX_SKELETON_LENGTH = 300
#: Look-alikes that confusables.txt does not list, in its direction (a letter -> what it looks like): two-letter
#: ones (it has "m" -> "rn" but not these), and "i" -> "l" because names are compared without letter case while
#: confusables.txt maps a capital "I" to "l" ("SWIFT" must match "Swift", "AIpha" "Alpha"). Case folding runs
#: before each use, so capitals are covered ("W" -> "vv").
EXTRA_PROTOTYPES = {"w": "vv", "d": "cl", "i": "l",
                    # small capitals, which confusables.txt leaves out: read without letter case, "Cᴏᴘɪʟᴏᴛ" is
                    # "Copilot" (the third break-it pass of issue 13)
                    **dict(zip("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnopqrstuvwyz")),
                    # Latin letters drawn like another whose Unicode names do not say so (the fourth break-it
                    # pass: "ĸraken", "Demo Agent ƅeta"); the others are read from their names (`_latin_letter`)
                    "ĸ": "k", "ƅ": "b", "Ƅ": "b",
                    # letters and marks of other scripts drawn as a Latin letter that it does not map there (the
                    # fifth pass: "Copiㅣot", "Copi丨ot", "Copi।ot", "demㅇ", "ᑕursor", "MetaᎶPT")
                    "ㅣ": "l", "丨": "l", "〡": "l", "।": "l", "॥": "ll", "ㅇ": "o", "ᑕ": "c", "Ꮆ": "g",
                    # letters drawn with (almost) the very glyph of a letter of another skeleton in DejaVu Sans and
                    # Serif or Liberation Sans and Serif (the sixth pass drew every letter a name may hold and
                    # compared the bitmaps): Cyrillic "м" is the small capital "ᴍ", Greek "ω" the Cyrillic "ѡ",
                    # "ꜧ" the Cyrillic "ӈ", "ꞁ" the Hebrew "ן", "ւ" the small capital "ʟ", Armenian "ղ", "դ", "ր"
                    # the "η" and "ɲ" that read "n", "ꞅ" the "ɼ"; "Լ", "Մ", "Ϗ", "ߓ" are "L", "U", "K", "F";
                    # Cyrillic "п" is an "n" in Liberation; O's and C's with a dot inside or a stroke below read
                    # as the letter, as accents do ("ʘ", "ꙩ", "ϙ", "ͼ", and the dotted syllabics "ᒫ", "ᑮ" of
                    # "ᒪ" and "ᑭ", which read "L" and "p"); epigraphic "ꟾ" and "ꟿ" are "l" and "m"; Hebrew "ח" is
                    # the Cyrillic "п"
                    "м": "m", "ω": "w", "ꜧ": "h", "ꞁ": "l", "ւ": "l", "ղ": "n", "դ": "n", "ր": "n", "ꞅ": "r",
                    "Լ": "l", "Մ": "u", "Ϗ": "k", "ߓ": "f", "п": "n", "ח": "n", "ᴆ": "d", "ʘ": "o", "ꙩ": "o",
                    "Ꙭ": "oo", "ꙭ": "oo", "ϙ": "o", "Ͼ": "c", "ͼ": "c", "ꟾ": "l", "ꟿ": "m",
                    "ᒫ": "l", "ᒸ": "l", "ᒹ": "l", "ᑮ": "p", "ᑸ": "p", "ᑹ": "p",
                    # U+0674 ARABIC LETTER HIGH HAMZA, which confusables.txt writes after the letter for the
                    # presentation forms of a letter with hamza ("ﺃ" -> "اٴ"): drawn as the hamza mark is, and
                    # dropped like it ("Copiﺃot" read "Copiأot" yet had a skeleton of its own)
                    "\u0674": "",
                    # the seventh break-it pass of issue 13: Armenian small liwn "լ" is its capital "Լ" (an "l")
                    # drawn smaller; Latin small eth "ð", whose prototype "∂̵" is a symbol and was dropped ("ðemo"
                    # read "emo"), is a "d" with a stroke as the capital "Ð" is; the presentation forms for a
                    # vertical em dash, en dash and low line are vertical bars, an "l" as ASCII's "|" is; the small
                    # rings of the ideographic full stop (and its halfwidth form) and the ring point sit on the
                    # baseline as an "o" ("Dem。" was "Dem"); Tifinagh yal is two vertical strokes, "ll"
                    "\u056c": "l", "\u00f0": "d", "\ufe31": "l", "\ufe32": "l", "\ufe33": "l",
                    "\u3002": "o", "\uff61": "o", "\u2e30": "o", "\u2d4d": "ll",
                    # the eighth break-it pass of issue 13 (decimal digits of other scripts are mapped by their
                    # value, `_digits`): Tai Le letter "ᥣ", the Telugu fraction digit one, the squat reversed esh
                    # "ʅ", the reversed r with fishhook "ɿ" and Thai sara e "เ" are a vertical stroke, an "l"; the
                    # Cyrillic "ҳ" (ha with descender) and Greek "χ" an "x"; the stretched "ʗ" a "c"; Thai fongman
                    # "๏" a ring, an "o"
                    "\u1963": "l", "\u0c79": "l", "\u0285": "l", "\u027f": "l", "\u0e40": "l", "\u04b3": "x",
                    "\u03c7": "x", "\u0297": "c", "\u0e4f": "o",
                    # the tenth pass: the thorn is a "p" with an ascender ("Coþilot"); the eleventh: CJK strokes and
                    # Bopomofo and Hangul letters drawn as Latin capitals ("MetaGP丅", "COP工LOT", "C口PILOT",
                    # "MetaGPㄒ", "MㅌTAGPT", "Copiㄴot", "CㄩRSOR", "AㄥPHA"), and "$" and "§" an "S" ("M$-Agent")
                    "\u00fe": "p", "\u00de": "p", "\u4e05": "t", "\u5de5": "i", "\u53e3": "o", "\u3112": "t",
                    "\u314c": "e", "\u3134": "l", "\u3129": "u", "\u3125": "l", "$": "s", "\u00a7": "s",
                    # the eleventh pass too: the sharp s is drawn as a "B" with a tail ("ßeta", whose case fold is
                    # "ss"), the Greek epsilons as an "e" ("εvil"; confusables.txt reads them "ꞓ", a "c"), the
                    # Cyrillic "в" as the small capital "ʙ" ("Сова" is "CoBa")
                    "\u00df": "b", "\u1e9e": "b", "\u03b5": "e", "\u03f5": "e", "\u0432": "b",
                    # and the Greek mu as a "u" with a descender, as "ҏ" is a "p" with a tick
                    "\u03bc": "u",
                    # the twelfth: Cherokee "Ꮖ" is a serifed "I" and Lisu "ꓘ" a turned "K" (Noto Cherokee and Noto
                    # Sans Lisu); CJK ideographs drawn as Latin capitals ("COPILO丁", "匚OPILOT", "C凵RSOR", "乙EPHYR",
                    # "乂AI"); the Hangul conjoining jamo drawn as their compatibility forms already read ("ᄋPENAI",
                    # "COPIᄂOT")
                    "\u13c6": "i", "\ua4d8": "k", "\u4e01": "t", "\u531a": "c", "\u51f5": "u", "\u4e59": "z",
                    "\u4e42": "x", "\u110b": "o", "\u11bc": "o", "\u1102": "l", "\u11ab": "l"}
#: Scripts (the first word of a letter's Unicode name) whose letters look nothing like Latin ones: a name may mix
#: them with Latin letters ("Qwen 通义"); their few look-alikes are mapped to the Latin letter (confusables.txt,
#: EXTRA_PROTOTYPES). `lookalike_letter` refuses, beside Latin letters, any other letter that is not read as a Latin
#: letter.
DISTINCT_SCRIPTS = frozenset({
    "CJK", "HANGUL", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HALFWIDTH", "YI", "ARABIC", "HEBREW",
    "SYRIAC", "THAANA", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA",
    "MALAYALAM", "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR", "KHMER", "ETHIOPIC", "MONGOLIAN"})
#: Latin letters of living languages that no skeleton reads as another letter (eng, schwa, open o): the other Latin
#: letters a skeleton keeps as they are (insular, broken, anglicana and IPA letters) are refused in names.
COMMON_LATIN = frozenset("ŋŊəƏǝƎɔƆ")
#: The Coptic block, whose small letters are its capitals drawn smaller (`_coptic_small_letters`).
_COPTIC = (0x2C80, 0x2CFF)
#: Characters drawn as a line between words that are letters, or that confusables.txt maps to a letter: dropped
#: from skeletons like spaces and punctuation ("MS—Agent" read "MSーAgent" and passed for "MS-Agent", the fourth
#: break-it pass of issue 13). The box-drawing and other symbols of that look are dropped as symbols.
DASH_LIKE = frozenset("ー一ㅡᅳˉـㄧ")
#: Words of the badges the board draws beside a name (leaderboard.badges, the radar legend's "(reported)"): a
#: name that only adds them to another ("Demo Agent Alpha (verified)") is compared as that name.
DECORATIONS = ("reported by the authors", "reported by authors", "reported", "verified by this site", "verified here",
               "verified", "evaluated here", "evaluated", "oracle", "partial run", "partial", "agent endpoint",
               "open source")
#: Unicode name of a Latin letter that is drawn as its base letter with a stroke, hook, curl, ... (which NFD does not
#: decompose) or without its dot, and of a digraph drawn as its two letters.
_LATIN_LETTER = re.compile(r"LATIN (?:(?:SMALL|CAPITAL) LETTER|LETTER SMALL CAPITAL) (?:DOTLESS |BARRED )?([A-Z])"
                           r"(?: WITH .+| BAR)?")
_LATIN_DIGRAPH = re.compile(r"LATIN (?:SMALL|CAPITAL) LETTER ([A-Z]{2}) DIGRAPH")
#: The blocks of Latin letters `_latin_letter` reads (Latin-1 to Latin Extended-B, IPA, phonetic extensions,
#: Latin Extended Additional, -C, -D, -E, -F, -G).
_LATIN_BLOCKS = ((0x00C0, 0x02AF), (0x1D00, 0x1DBF), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF),
                 (0xAB30, 0xAB6F), (0x10780, 0x107BF), (0x1DF00, 0x1DFFF))


@functools.cache
def _prototypes() -> dict[str, str]:
    """char -> its prototype (one or more characters), the mapping of UTS #39 section 4's skeleton, from Unicode's
    confusables.txt as the confusable-homoglyphs package ships it, plus EXTRA_PROTOTYPES; a char with no entry is
    its own prototype. The package stores each line "source -> prototype" of confusables.txt both ways (a char ->
    its confusables), so a source is a char with exactly one entry, whose target is a multi-character prototype or
    has entries of its own; when two chars list only each other, the smaller is taken as the prototype of both."""
    from confusable_homoglyphs import utils

    near: dict[str, list[str]] = {}
    for char, homoglyphs in utils.load("confusables.json").items():
        # right-to-left entries come wrapped in direction marks, keys and targets alike (1,079 keys were skipped
        # for their length: Arabic alef stood for "l" unmapped, the third break-it pass of issue 13)
        near[char.strip("\u200e\u200f") or char] = [h["c"].strip("\u200e\u200f") or h["c"] for h in homoglyphs]
    table: dict[str, str] = {}
    for char, others in near.items():
        if len(char) != 1 or len(others) != 1 or others[0] == char:
            continue
        target = others[0]
        if len(target) > 1 or len(near.get(target, ())) > 1:
            table[char] = target
        elif char > target:  # two chars listing only each other: one prototype for both
            table[char] = target
    for first, last in _LATIN_BLOCKS:
        for code in range(first, last + 1):
            letter = _latin_letter(chr(code))
            if letter:
                table.setdefault(chr(code), letter)
    table.update(_coptic_small_letters(table))
    for char, digit in _digits():
        if not _drawn_as_letters(table.get(char, "")):
            table[char] = digit
    table.update(_letters_with_marks(table))
    table.update(EXTRA_PROTOTYPES)
    return table


def _letters_with_marks(table: dict[str, str]) -> dict[str, str]:
    """char -> the plain letters its base letter reads as, for a letter of any script that nothing maps and whose
    Unicode name is its base letter's "WITH" a tick, hook, stroke, descender or tail ("CYRILLIC SMALL LETTER ER
    WITH TICK" is a "р", which reads "p"): the mark is drawn on the base letter's glyph, as an accent is, and
    accents are dropped ("Соҏіӏот" in Cyrillic letters passed for "Copilot", the eleventh break-it pass of issue 13;
    69 letters, 27 of them Cyrillic). `_latin_letter` reads the Latin ones whose base is a plain Latin letter."""
    found = {}
    for code in range(0x80, _FIRST_TWO_PLANES_END):
        char = chr(code)
        name = unicodedata.name(char, "")
        if char in table or " WITH " not in name or unicodedata.category(char)[0] != "L":
            continue
        try:
            base = unicodedata.lookup(name.split(" WITH ", 1)[0])
        except KeyError:
            continue
        reading = base
        for _ in range(4):  # the base's prototype, which may take a case fold and a mapping more ("Р" -> "p")
            reading = unicodedata.normalize("NFKC", "".join(table.get(c, c) for c in reading)).casefold()
        if reading.isascii() and reading.isalpha():
            found[char] = reading
    return found


#: The end of the first two planes, where every decimal digit lies (the last, U+1FBF9, is a segmented digit nine) and
#: every letter "WITH" a mark (the planes above hold CJK ideographs, none so named).
_FIRST_TWO_PLANES_END = 0x20000


def _digits() -> list[tuple[str, str]]:
    """(char, its ASCII digit) for every decimal digit (Unicode category Nd) outside ASCII: the zero of many scripts is
    drawn as a ring, an "o" or a "0" (New Tai Lue, Cham, Khmer, Ol Chiki ...), the one of some as a stroke, an "l"
    (Vai, Hanifi Rohingya), and confusables.txt maps few of them (the eighth break-it pass of issue 13: "Dem᧐ Agent
    Alpha" with a New Tai Lue zero was ranked beside "Demo Agent Alpha"). Read by value, a digit then takes the
    ASCII digit's own prototype ("0" -> "o", "1" -> "l"); a digit confusables.txt maps to a letter or another
    digit (Bengali four "৪" is an "8") keeps that mapping."""
    found = []
    for code in range(0x80, _FIRST_TWO_PLANES_END):
        char = chr(code)
        if unicodedata.category(char) == "Nd":
            found.append((char, str(unicodedata.digit(char))))
    return found


def _coptic_small_letters(table: dict[str, str]) -> dict[str, str]:
    """Coptic small letters mapped as their capitals are, where the capital's prototype is plain letters and the
    small letter's is not (the seventh break-it pass of issue 13: confusables.txt maps "Ⲏ", "Ⲓ", "Ⲙ", "Ⲛ", "Ⲧ",
    "Ⲩ", "Ⲭ" to "H", "l", "M", "N", "T", "Y", "X" but leaves "ⲏ", "ⲓ", "ⲙ", "ⲛ", "ⲧ", "ⲩ" out and makes "ⲭ" a
    Greek "χ": "Copiⲓot" passed for a name of its own). Only Coptic: taking a case partner's mapping in every
    script would read Greek "Γ" as "y" (from "γ"), "μ" as "M" and Cherokee small letters as their unlike
    capitals."""
    found = {}
    for code in range(_COPTIC[0], _COPTIC[1] + 1):
        small = chr(code)
        capital = small.upper()
        if small == capital or len(capital) != 1 or _drawn_as_letters(table.get(small, "")):
            continue
        prototype = table.get(capital, "")
        if prototype.isascii() and prototype.isalpha():
            found[small] = prototype
    return found


def _latin_letter(char: str) -> str | None:
    """The plain letter(s) a Latin letter NFD leaves whole is drawn as, read from its Unicode name ("LATIN SMALL
    LETTER DOTLESS J" -> "j", "... R WITH FISHHOOK" -> "r", "... DB DIGRAPH" -> "db"), or None."""
    if unicodedata.normalize("NFD", char) != char:
        return None  # NFD splits it into its letter and marks already
    name = unicodedata.name(char, "")
    found = _LATIN_LETTER.fullmatch(name) or _LATIN_DIGRAPH.fullmatch(name)
    return found.group(1).lower() if found else None


def _draws_as_blank(char: str) -> bool:
    """True for a character drawn as a blank or as nothing: BLANK_LOOKING, or one whose Unicode name holds a word
    of BLANK_NAME_WORDS."""
    return char in BLANK_LOOKING or any(word in unicodedata.name(char, "") for word in BLANK_NAME_WORDS)


def _is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(first <= code <= last for first, last in DEFAULT_IGNORABLE_RANGES)


def refused_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of `text` no text of the board may hold, or None: REFUSED_CATEGORIES, a
    Default_Ignorable_Code_Point, a blank-looking character, whitespace other than a plain space (line breaks and
    tabs are allowed when `multiline`). The fifth break-it pass of issue 13 put Hangul fillers, the braille blank
    and U+FFFC in a submission's note."""
    allowed = MULTILINE_ALLOWED if multiline else frozenset()
    return next((c for c in text if c not in allowed and _hides_or_blanks(c)), None)


def _hides_or_blanks(char: str) -> bool:
    """True for a character `refused_character` refuses (before the line breaks a multi-line text may hold)."""
    return (unicodedata.category(char) in REFUSED_CATEGORIES or _is_default_ignorable(char) or _draws_as_blank(char)
            or (char != " " and (char.isspace() or unicodedata.category(char) == "Zs")))


def text_problem(text: str, *, what: str, multiline: bool = False) -> str | None:
    """Why `text` cannot be shown on the board (a sentence naming the character and saying what to do; `what` is
    its subject, e.g. "The base model"), or None when it can: see `refused_character`, and at most
    MAX_STACKED_MARKS combining marks per character."""
    char = refused_character(text, multiline=multiline)
    if char is None:
        return _stacked_marks_problem(text, what)
    label = unicodedata.name(char, f"U+{ord(char):04X}")
    return (f"{what} holds an invisible, blank-looking or control character, or a space other than a plain one "
            f"({label}, U+{ord(char):04X}), which would hide or reorder text on the leaderboard; type it again "
            "without it.")


def name_refused_character(name: str) -> str | None:
    """The first character of `name` that no system or team name may hold, or None: what no text of the board may
    hold (`refused_character`), a Default_Ignorable_Code_Point (DEFAULT_IGNORABLE_RANGES), a blank-looking
    character (BLANK_LOOKING) or whitespace other than a plain space (U+0020)."""
    return next((char for char in name if _hides_or_blanks(char) or _foreign_symbol(char) or _foreign_number(char)),
                None)


def _foreign_number(char: str) -> bool:
    """True for a number character that is not a decimal digit (Unicode category No or Nl) and that NFKC does not
    spell with ASCII letters and digits: tally marks, counting rods, Aegean, Kharoshthi, Phoenician numbers stand in
    for an "l" or an "I" ("Copi𝍷ot", "Copi𐩀ot", "OpenA𐄇": the thirteenth break-it pass of issue 13) yet are no
    letters to compare; "①" and "²" are read as "1" and "2"."""
    spelled = unicodedata.normalize("NFKC", char)
    return unicodedata.category(char) in ("No", "Nl") and not (spelled.isascii() and spelled.isalnum())


def _foreign_symbol(char: str) -> bool:
    """True for a symbol (Unicode category S*) outside ASCII: vertical bars, box drawing, circles and arrows stand in
    for letters ("Copi❘ot", "C○pilot": the fifth break-it pass of issue 13) yet are no letters to compare."""
    return unicodedata.category(char)[0] == "S" and not char.isascii()


#: The most combining marks one character may carry in a name or another text of the board: Vietnamese needs two,
#: some Indic and Tibetan clusters three or four; more stack above and below the row (the fifth break-it pass:
#: "Zq" with 98 marks).
MAX_STACKED_MARKS = 4


def stacked_marks(text: str) -> bool:
    """True when some character of `text` carries more than MAX_STACKED_MARKS combining marks (Mn, Me, Mc)."""
    run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        if run > MAX_STACKED_MARKS:
            return True
    return False


def _stacked_marks_problem(text: str, what: str) -> str | None:
    """The refusal of `text` (its subject `what`, e.g. "The name") when it stacks marks (`stacked_marks`), or None."""
    if not stacked_marks(text):
        return None
    return (f"{what} stacks more than {MAX_STACKED_MARKS} combining marks on one character, which draw over the "
            "rows around it; type it again with fewer.")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a system's or a team's name (a sentence saying what to change), or None when it can:
    blank, over MAX_LENGTH characters, holding a character `name_refused_character` refuses (the message names
    it), only digits, holding a letter that can pass for a Latin one (`lookalike_letter`), or without any letter or
    digit once compared (an empty skeleton)."""
    if not name.strip():
        return "Give the system a name."
    if len(name) > MAX_LENGTH:
        return f"A name has at most {MAX_LENGTH} characters."
    char = name_refused_character(name)
    if char is not None:
        label = unicodedata.name(char, f"U+{ord(char):04X}")
        kind = ("a space other than a plain space" if char.isspace() or unicodedata.category(char) == "Zs"
                else "a symbol other than ASCII's" if _foreign_symbol(char)
                else "a number sign other than a digit" if _foreign_number(char)
                else "an invisible, blank-looking or control character")
        return (f"The name holds {kind} ({label}, U+{ord(char):04X}), which would hide or reorder text or make "
                "the name look like another on the leaderboard; type it again without it.")
    if name.strip().isdigit():
        return "A name cannot be only digits (numbers refer to systems by id): add a letter."
    stacked = _stacked_marks_problem(name, "The name")
    if stacked:
        return stacked
    odd = lookalike_letter(name)
    if odd is not None:
        label = unicodedata.name(odd, f"U+{ord(odd):04X}")
        if not _has_latin(_letters(name)):
            return (f"The name reads as Latin letters but for {odd!r} ({label}, U+{ord(odd):04X}), so it can pass "
                    "for a Latin name on the leaderboard: write it in Latin letters.")
        return (f"The name holds {odd!r} ({label}, U+{ord(odd):04X}), a letter that can pass for a Latin one on the "
                "leaderboard: write the name with common letters, or in one script.")
    skeleton, badges_only = _compared(name)
    if not skeleton:
        return ("A name needs at least one letter or digit: punctuation, symbols and dashes alone read as the same "
                "(empty) name on the leaderboard.")
    if badges_only:
        return ("A name cannot be made only of the badge words the leaderboard shows beside names (verified, "
                "reported, oracle, open source, agent endpoint): add the system's own name.")
    if len(skeleton) > MAX_SKELETON_LENGTH:
        return (f"The name is too long once its characters are spelled out (some, such as U+FDFA, stand for many "
                f"letters): keep it under {MAX_SKELETON_LENGTH} letters that way.")
    return None


def lookalike_letter(name: str) -> str | None:
    """The first letter of `name` that can pass for a Latin letter without being read as one, or None: a Latin letter
    its skeleton keeps as it is (`_bare_skeleton`), but for COMMON_LATIN ("Cʊrsor", "Cuꞃsor", "Copiꝇot"), and, in a
    name that holds Latin letters, a letter of another script but DISTINCT_SCRIPTS that its skeleton keeps
    ("Coҏilot", "Coϼilot", "MSᐨAgent", "RaceˍProbe": the tenth break-it pass of issue 13 found some 4,000 letters
    with a stroke, tick, hook or descender, insular, broken or modifier forms that no table mapped). UTS #39's
    mixed-script detection (section 5) in spirit, with the scripts read from the letters' Unicode names. A name with
    no Latin letter that reads as Latin letters but for one, among at least WHOLE_SCRIPT_MIN_READ read ones, has
    that one refused too (`_odd_one_out`: whole-script confusables, section 4 of the standard, in spirit)."""
    letters = _letters(name)
    latin = _has_latin(letters)
    if not latin:
        return _odd_one_out(letters)
    for char in letters:
        read = _bare_skeleton(char)
        if read == "" and char not in DASH_LIKE and _script(char) not in DISTINCT_SCRIPTS:
            return char  # a letter read as nothing: a modifier line or tick drawn where a letter stands ("Copiˈot")
        if read.isascii():
            continue  # read as the Latin letters it looks like
        script = _script(char)
        if (script == "LATIN" and char not in COMMON_LATIN) or (
                latin and script != "LATIN" and script not in DISTINCT_SCRIPTS):
            return char
    return None


#: Scripts whose letters were drawn after Latin capitals (Cherokee, Lisu, Canadian syllabics, Coptic from Greek):
#: a name in them that reads as Latin letters in part may hold none that reads as no Latin letter (`_odd_one_out`:
#: the twelfth break-it pass wrote "GITHUB COPILOT" and "COPILOT II" in Cherokee letters, two of them unread).
LATIN_DRAWN_SCRIPTS = frozenset({"CHEROKEE", "LISU", "CANADIAN", "COPTIC", "OLD", "DESERET", "OSAGE", "VAI", "BAMUM"})
#: The fewest letters read as Latin ones beside a single letter that is not for `_odd_one_out` to refuse that one
#: ("Мир", two read and one not, is a name of its own; "ᏟᎾᏢᏆᏞᎾᎢ", six and one, passes for "COPILOT").
WHOLE_SCRIPT_MIN_READ = 3


def _letters(name: str) -> list[str]:
    """The letters of `name` (Unicode category L*), in order."""
    return [char for char in name if unicodedata.category(char)[0] == "L"]


def _has_latin(letters: list[str]) -> bool:
    """True when some of `letters` is a Latin letter (`_script`)."""
    return any(_script(char) == "LATIN" for char in letters)


def _odd_one_out(letters: list[str]) -> str | None:
    """In a name of `letters` none of which is Latin: the one letter of a script not in DISTINCT_SCRIPTS that the
    skeleton keeps as it is, when every other letter of such scripts reads as Latin letters or digits and at least
    WHOLE_SCRIPT_MIN_READ do, else None. Such a name reads as a Latin name with one odd letter: the eleventh
    break-it pass of issue 13 wrote "COPILOT" in Cherokee letters, whose "Ꮖ" nothing maps. A name with two letters
    or more of its own ("ГигаЧат", "Яндекс") is a name of its own, not a look-alike, but in a script of
    LATIN_DRAWN_SCRIPTS any letter that reads as none is refused as soon as one letter reads as a Latin one."""
    lookalike = [char for char in letters if _script(char) not in DISTINCT_SCRIPTS]
    unread = [char for char in lookalike if not _bare_skeleton(char).isascii()]
    drawn = [char for char in unread if _script(char) in LATIN_DRAWN_SCRIPTS]
    if drawn and len(unread) < len(lookalike):
        return drawn[0]
    if len(unread) == 1 and len(lookalike) - 1 >= WHOLE_SCRIPT_MIN_READ:
        return unread[0]
    return None


def _script(char: str) -> str:
    """The script of a letter as the first word of its Unicode name ("LATIN", "CYRILLIC", "MODIFIER", "CJK"); a
    Hangul letter (a lone jamo, "HANGUL LETTER") apart from Hangul syllables: alone, it is a stroke or two that can
    pass for a Latin letter (the eleventh break-it pass)."""
    name = unicodedata.name(char, "")
    if name.startswith(("HANGUL LETTER", "HANGUL CHOSEONG", "HANGUL JUNGSEONG", "HANGUL JONGSEONG")):
        return "HANGUL LETTER"  # a jamo, compatibility or conjoining form
    return name.split(" ", 1)[0]


def system_name_problem(name: str) -> str | None:
    """Why `name` cannot be a system's name (a sentence saying what to change), or None when it can: `name_problem`,
    and no "/" (see the module docstring)."""
    problem = name_problem(name)
    if problem is None and "/" in name:
        problem = ('A system name cannot hold "/": the name is part of the system\'s address in the API '
                   '(/api/v1/systems/<name>/), which a "/" would split. Use "-", "·" or a space instead.')
    return problem


def name_skeleton(name: str) -> str:
    """The form two names are compared in: equal skeletons mean names that look alike, e.g. `Demo Agent Alpha`,
    `demo agent alpha`, `Dеmo Agent Alpha` (Cyrillic е), `Derno Agent Alpha` ("rn") and `Dem0 Agent A1pha` share
    one. UTS #39 section 4's skeleton (each character replaced by its prototype, `_prototypes`, then NFD), made
    case-insensitive: NFKC before the mapping (on the letters as typed: a capital "I" is an "l"), case folding
    after it, both repeated until nothing changes (a prototype's lower case may have a prototype of its own:
    "0" -> "O" -> "o", "M" -> "m" -> "rn"). Beyond the standard, combining marks are dropped (a dot above an "i"
    merges with its dot: "Copi\u0307lot" reads "Copilot"; accents are look-alikes of their letter), and so are
    spaces and punctuation ("Demo-Agent-Alpha", "Demo.Agent.Alpha" and "DemoAgentAlpha" read as "Demo Agent
    Alpha"; the second break-it pass of issue 13), punctuation before the mapping unless its prototype is plain
    letters or digits ("‖" stays "ll"), symbols and dash-like letters after it (DASH_LIKE: an em dash, "ー", "─"
    all read as the hyphen they look like; the fourth pass), and the badge words the board draws beside a name,
    wherever they stand as words (DECORATIONS: "Demo Agent Alpha (verified)" is "Demo Agent Alpha"), never down to
    nothing. Latin
    letters NFD leaves whole are read from their Unicode names (`_latin_letter`: "ȷ" is a "j"). Default-ignorable
    characters, which the standard drops, are refused in names instead (`name_refused_character`); here they are
    dropped, so a name stored before that rule still has a skeleton that matches its look."""
    return _compared(name)[0]


def _compared(name: str) -> tuple[str, bool]:
    """(`name_skeleton(name)`, whether every word of `name` is a badge word: `only_decorations`)."""
    words = [_bare_skeleton(word) for word in _words(name)]
    kept = _without_decorations(words)
    return ("".join(kept) if any(kept) else "".join(words)), bool(words) and not any(kept)


def _words(name: str) -> list[str]:
    """`name` cut at whitespace and at punctuation that is not drawn as letters (`_drawn_as_letters`: "‖" is "ll",
    part of its word)."""
    table = _prototypes()
    words, current = [], []
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or (category[0] in "PZ" and not _drawn_as_letters(table.get(char, ""))):
            words.append("".join(current))
            current = []
        else:
            current.append(char)
    words.append("".join(current))
    return [w for w in words if w]


@functools.cache
def _decoration_phrases() -> tuple[tuple[str, ...], ...]:
    """DECORATIONS as tuples of word skeletons, longest first, each also as one word ("opensource")."""
    phrases = {tuple(_bare_skeleton(w) for w in d.split()) for d in DECORATIONS}
    phrases |= {("".join(p),) for p in phrases}
    return tuple(sorted(phrases, key=len, reverse=True))


def _without_decorations(words: list[str]) -> list[str]:
    """The word skeletons `words` without any run of them that spells a DECORATIONS phrase, wherever it stands
    ("Copilot (verified) · Claude" is "Copilot Claude")."""
    kept, i = [], 0
    while i < len(words):
        phrase = next((p for p in _decoration_phrases() if tuple(words[i:i + len(p)]) == p), None)
        if phrase:
            i += len(phrase)
        else:
            kept.append(words[i])
            i += 1
    return kept


def only_decorations(name: str) -> bool:
    """True when every word of `name` is a badge word (DECORATIONS): "verified", "(reported)", "open source"."""
    return _compared(name)[1]


def _bare_skeleton(name: str) -> str:
    """`name_skeleton` before decorations are stripped."""
    table = _prototypes()

    def unmarked(text: str) -> str:  # NFD, without combining marks or default-ignorable characters
        return "".join(char for char in unicodedata.normalize("NFD", text)
                       if unicodedata.category(char) not in ("Mn", "Me") and not _is_default_ignorable(char))

    # marks go first ("ţ" is a "t", not the prototype of "ţ"), the mapping before NFKC (NFKC makes a lunate sigma
    # "ϲ", which reads "c", a "σ"; a long s "ſ", which reads "f", an "s": the third break-it pass of issue 13);
    # punctuation goes before the mapping too, unless it is drawn as plain letters or digits ("‖" is "ll"): an em
    # dash's prototype is the letter "ー" (the fourth pass)
    text = "".join(char for char in unmarked(name)
                   if unicodedata.category(char)[0] != "P" or _drawn_as_letters(table.get(char, "")))
    for _ in range(6):  # a prototype is a fixed point; NFKC and case folding take a step or two more
        mapped = unmarked(unicodedata.normalize("NFKC", "".join(table.get(char, char) for char in text)).casefold())
        if mapped == text:
            break
        text = mapped
    return "".join(char for char in text if unicodedata.category(char)[0] not in "MPSZ" and not char.isspace()
                   and char not in DASH_LIKE)


def _drawn_as_letters(prototype: str) -> bool:
    return prototype.isascii() and prototype.isalnum()
