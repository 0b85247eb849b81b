"""The lexical helpers of core/grading/_source.py that the static route check and the static test count stand on:
bracket matching from inside a string literal, keyword arguments and annotation blocks at the edges of a text.
Written for the mutation run of _source.py (docs/mutation.md)."""
from __future__ import annotations

from core.grading import _source as src
from core.grading._source import Annotation, AnnotationBlock, annotation_blocks, balanced, balanced_end


# A docstring holding an example call: from the start of the text the whole example is one string literal, so the
# brackets of the example are matched by a scan of their own (strings, templates, nesting and lone quotes inside).
DOC = '"""Example: f("a)", `b)`, (g(1)), it\'(x)) done"""'


def test_a_call_inside_a_string_literal_is_matched_by_its_own_scan():
    """From an opener inside a string literal, `balanced` skips the strings and template literals it meets (their
    `)` close nothing), counts nested brackets, and reads a lone quote as one character."""
    open_pos = DOC.index("f(") + 1
    assert balanced(DOC, open_pos) == '"a)", `b)`, (g(1)), it\'(x)'
    assert balanced(DOC, DOC.index("(g")) == "g(1)"


def test_the_scan_from_inside_a_string_is_charged_to_the_budget():
    """The local scan's length is charged, and the text returned: one character short of the sum stops."""
    open_pos = DOC.index("f(") + 1
    end = DOC.index(" done")
    cost = (end - 1 - open_pos) * 2
    budget = src.Budget(cost, 60)
    balanced(DOC, open_pos, budget)
    assert budget.spent == cost
    short = src.Budget(cost - 1, 60)
    try:
        balanced(DOC, open_pos, short)
    except src.BudgetExceeded as exc:
        assert str(exc) == f"more than {cost - 1:,} characters of source to scan"
    else:
        raise AssertionError("the budget was not charged for the local scan")


def test_balanced_end_needs_an_opener_at_its_position():
    """A position that holds no bracket, or lies past the text's end, has no match."""
    assert balanced_end("x(y)", 0) is None
    assert balanced_end("x(y)", 1) == 3
    assert balanced_end("()", 2) is None
    assert balanced_end("()", 5) is None


def test_keyword_arg_finds_names_in_any_case():
    assert src.keyword_arg('Value = "/x", path="/y"', "Value") == '"/x"'
    assert src.keyword_arg('Value = "/x", path="/y"', "path") == '"/y"'


def test_annotation_blocks_at_the_edges_of_the_text():
    """An annotation at offset 0, at the very end (with or without blanks after it), one whose `(` is never closed,
    and annotations written without a blank between them; a blank before the argument list is allowed, a name
    after a blank is no argument list."""
    def blocks(text: str) -> list[AnnotationBlock]:
        return list(annotation_blocks(text))

    assert blocks('@Path("/start")\nclass R {}') == [
        AnnotationBlock((Annotation("Path", '"/start"'),), True, 0, len('@Path("/start")\n'))
    ]
    assert blocks("class A {}\n@Deprecated") == [AnnotationBlock((Annotation("Deprecated", None),), False, 11, 22)]
    assert blocks("class A {}\n@Deprecated  ") == [AnnotationBlock((Annotation("Deprecated", None),), False, 11, 24)]
    assert blocks("@Foo(unclosed") == [AnnotationBlock((Annotation("Foo", None),), False, 0, 5)]
    assert blocks('@Controller("/c")@Singleton\nclass C {}') == [
        AnnotationBlock((Annotation("Controller", '"/c"'), Annotation("Singleton", None)), True, 0, 28)
    ]
    assert blocks('@GetMapping ("/spaced") String s() {}') == [
        AnnotationBlock((Annotation("GetMapping", '"/spaced"'),), False, 0, 24)
    ]
    assert blocks("@Inject X(Dep d) {}") == [AnnotationBlock((Annotation("Inject", None),), False, 0, 8)]


def blank(s: str) -> str:
    return "".join("\n" if c == "\n" else " " for c in s)


STRIP_CASES = [
    # a text block at the text's first character, comment markers inside it kept; the comment after it blanked
    ('"""a // x\n/* y */""" // c', '"""a // x\n/* y */""" ' + blank("// c")),
    # two text blocks: each ends at its own closing quotes
    ('s = """a""" // c1\nt = """b""" // c2', 's = """a""" ' + blank("// c1") + '\nt = """b""" ' + blank("// c2")),
    ('x = """""" // c', 'x = """""" ' + blank("// c")),  # an empty one
    ('x // a\n"""open // b', "x " + blank("// a") + '\n"""open // b'),  # never closed: kept to the end
    ('"""a"""//c', '"""a"""' + blank("//c")),  # a comment right after it
    ("int MAX = 1; // limit", "int MAX = 1; " + blank("// limit")),
    ("x = '' // c", "x = '' " + blank("// c")),  # an empty string
    ('x = "open', 'x = "open'),  # a string never closed, at the end of the text
    ('s = "a // b" // c', 's = "a // b" ' + blank("// c")),
    ('x = "open\n// c', 'x = "open\n' + blank("// c")),  # a string ends at its line's end
    ('s = "a\\" // no"; // c', 's = "a\\" // no"; ' + blank("// c")),  # an escaped quote
    ('s = "abc" // c', 's = "abc" ' + blank("// c")),
    ('s = "\\\\"; // c', 's = "\\\\"; ' + blank("// c")),  # an escaped backslash before the closing quote
    ('"a"//c', '"a"' + blank("//c")),
    ("x = 1; // end", "x = 1; " + blank("// end")),  # the last line without a newline
    ("x = 1; /* a */ y = 2; /* b */ z", "x = 1; " + blank("/* a */") + " y = 2; " + blank("/* b */") + " z"),
    ("/* a *//* b */x", blank("/* a *//* b */") + "x"),
    ("/**/x", blank("/**/") + "x"),
    ("x /* open", "x " + blank("/* open")),  # a block comment never closed: blanked to the end
    ("/* a\nb */c", blank("/* a\nb */") + "c"),
]


def test_strip_c_comments_blanks_comments_only_and_keeps_every_offset():
    """Comments become blanks (newlines kept), strings, char literals and text blocks stay as written, whatever
    they hold: quotes escaped or not, never closed, empty, at the text's start or end."""
    for text, expected in STRIP_CASES:
        assert src.strip_c_comments(text) == expected, text
        assert len(expected) == len(text)


def test_strip_hash_comments_removes_whole_line_comments_only():
    assert src.strip_hash_comments("# c\nx = 1  # kept\n    # c2\n") == "\nx = 1  # kept\n\n"


def test_split_top_level_and_positional_args():
    """Commas split arguments only outside brackets of every kind and outside strings; a lone quote is one
    character; a name in capitals before `=` is a keyword."""
    assert src.split_top_level('a, f(b, c), [d, e], {g, h}, "x,y", \'p,q\', Xs, last') == [
        "a", "f(b, c)", "[d, e]", "{g, h}", '"x,y"', "'p,q'", "Xs", "last"
    ]
    assert src.split_top_level("a,b") == ["a", "b"]
    assert src.split_top_level("it', b") == ["it'", "b"]
    assert src.split_top_level("f(g(1), 2), 3") == ["f(g(1), 2)", "3"]
    assert src.positional_args('"/a", Value="b", c') == ['"/a"', "c"]


def test_string_literals_and_masked_strings_of_text_blocks():
    """A text block's content is its text between the triple quotes; masking keeps its quotes and blanks its
    content, so an `@` inside is no annotation."""
    assert src.string_literals('x = """abc""" + "d"') == ["abc", "d"]
    assert src.mask_strings('x = """@GET""" + "@P"') == 'x = """    """ + "  "'
    assert list(annotation_blocks('x = """@GET"""')) == []


def test_a_lone_quote_on_the_path_of_the_bracket_table_is_one_character():
    """The one pass over a text that matches every bracket reads a quote without a closing one on its line as one
    character, and the character after it is read."""
    assert balanced("f(it's) g(x)", 1) == "it's"
    assert balanced("f(a')", 1) == "a'"


def test_the_time_budget_says_how_many_seconds_it_had():
    import time

    budget = src.Budget(10**9, 0.0)
    time.sleep(0.002)
    try:
        budget.charge(1)
    except src.BudgetExceeded as exc:
        assert str(exc) == "more than 0 s of scanning"
    else:
        raise AssertionError("the time budget was not checked")
