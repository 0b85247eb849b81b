"""The project's user documentation (the Markdown files of docs/) as pages: /docs/ lists them, /docs/<slug>/ shows
one (slug = the file name without `.md`).

Documents are rendered like task READMEs (leaderboard.views.pages.render_readme: CommonMark, GFM tables and
strikethrough, raw HTML shown as text) plus an id on every heading (mdit_py_plugins' anchors, GitHub's slugs:
`## Comparing two systems` is `#comparing-two-systems`). A link to another document (`scoring.md`,
`docs/scoring.md`, `../docs/scoring.md#ranking`) and a plain-text citation (`docs/scoring.md "Ranking"`) lead to
its page (and section); a table scrolls inside a `.table-wrap`."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify

DOCS_DIR = Path(settings.BASE_DIR) / "docs"
#: The index's order (a reader's: what the numbers mean first, how the code is built last); any other document of
#: docs/ follows by name.
ORDER = ("scoring", "agent-protocol", "lifecycle", "exports", "benchmark-format", "deploy", "architecture",
         "mutation")
SLUG = re.compile(r"[A-Za-z0-9_-]+")
#: A link's target that names a document: `scoring.md`, `./scoring.md`, `docs/scoring.md`, `../docs/scoring.md`,
#: each with an optional `#fragment`.
DOC_LINK = re.compile(r"^(?:\./)?(?:(?:\.\./)*docs/)?([A-Za-z0-9_-]+)\.md(#\S*)?$")
#: A link's target that is a path relative to the document (a file of the repository, `../benchmarks/x.csv`): not
#: an address, not an absolute path, not a `#fragment` of the same page.
REPOSITORY_FILE = re.compile(r"^(?![A-Za-z][A-Za-z0-9+.-]*:|/|#)")
#: A plain-text citation: `docs/scoring.md`, optionally followed by a quoted section (`docs/scoring.md "Ranking"`).
DOC_CITATION = re.compile(r'docs/([A-Za-z0-9_-]+)\.md(?:,? "([^"\n]+)")?')


@dataclass(frozen=True)
class Doc:
    """One rendered document: `title` as plain text (the first `# ` heading; the slug if it has none),
    `title_html` and `summary_html` (its first paragraph) as inline HTML, `html` the whole document, `sections`
    [(id, title)] of its `##` headings."""
    slug: str
    title: str
    title_html: str
    summary_html: str
    html: str
    sections: tuple[tuple[str, str], ...]


def doc_slugs() -> list[str]:
    """The slugs of the documents in docs/, in the index's order (ORDER, then the others by name)."""
    found = {p.stem for p in DOCS_DIR.glob("*.md") if p.is_file() and SLUG.fullmatch(p.stem)}
    return [s for s in ORDER if s in found] + sorted(found - set(ORDER))


def doc_get(slug: str) -> Doc:
    """The document docs/<slug>.md rendered (cached until the file changes). Raises LookupError when `slug` names
    no document of docs/ (a path, a dot, a file of another kind)."""
    if not SLUG.fullmatch(slug) or slug not in doc_slugs():
        raise LookupError(f"no document {slug!r}")
    path = DOCS_DIR / f"{slug}.md"
    return _doc_cached(slug, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _doc_cached(slug: str, mtime_ns: int) -> Doc:
    return render_doc((DOCS_DIR / f"{slug}.md").read_text(encoding="utf-8"), slug=slug)


def render_doc(text: str, *, slug: str = "") -> Doc:
    """`text` (Markdown) as a Doc: CommonMark, GFM tables and strikethrough, raw HTML escaped (shown as text),
    script URLs not linked, an id on every heading, links and citations of other documents pointing at their
    pages."""
    env: dict = {}
    tokens = _DOCS.parse(text, env)
    title, title_html, summary_html, sections = slug, "", "", []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1" and not title_html:
            title, title_html = _plain(tokens[i + 1]), _DOCS.renderer.render(tokens[i + 1].children, _DOCS.options, env)
        elif token.type == "heading_open" and token.tag == "h2":
            sections.append((token.attrGet("id"), _plain(tokens[i + 1])))
        elif token.type == "paragraph_open" and title_html and not summary_html and token.level == 0:
            summary_html = _DOCS.renderer.render(tokens[i + 1].children, _DOCS.options, env)
    return Doc(slug=slug, title=title, title_html=title_html or title, summary_html=summary_html,
               html=_DOCS.renderer.render(tokens, _DOCS.options, env), sections=tuple(sections))


def _plain(inline: Token) -> str:
    """An inline token's text without its markup (a heading's title as the anchors plugin reads it)."""
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


def doc_href(target: str) -> str | None:
    """The page of the document a link's target names (`scoring.md#ranking` -> `/docs/scoring/#ranking`); None
    when it names none."""
    match = DOC_LINK.match(target)
    if not match or match.group(1) not in doc_slugs():
        return None
    return reverse("leaderboard:doc", args=[match.group(1)]) + (match.group(2) or "")


@functools.lru_cache(maxsize=64)
def _heading_ids_cached(slug: str, mtime_ns: int) -> frozenset[str]:
    tokens = _HEADINGS.parse((DOCS_DIR / f"{slug}.md").read_text(encoding="utf-8"))
    return frozenset(t.attrGet("id") for t in tokens if t.type == "heading_open")


def heading_ids(slug: str) -> frozenset[str]:
    """The ids of docs/<slug>.md's headings (what `#fragment`s of its page can name); empty for no document."""
    if slug not in doc_slugs():
        return frozenset()
    return _heading_ids_cached(slug, (DOCS_DIR / f"{slug}.md").stat().st_mtime_ns)


def _citation_href(slug: str, section: str | None) -> str:
    """The page of a cited document, at the cited section when it has a heading of that title."""
    anchor = slugify(section) if section else ""
    return reverse("leaderboard:doc", args=[slug]) + (f"#{anchor}" if anchor in heading_ids(slug) else "")


def _link_docs(state: StateCore) -> None:
    """Core rule: links to another document lead to its page, links to another file of the repository (no page
    here) are left as their text; `docs/<name>.md` in text (outside a link) becomes a link
    to its page, at its section when a quoted section title follows (`docs/scoring.md "Ranking"`)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, opened = [], []  # opened: per link entered, whether its tokens are kept
        for child in block.children:
            if child.type == "link_open":
                target = str(child.attrGet("href") or "")
                href = doc_href(target)
                if href:
                    child.attrSet("href", href)
                opened.append(bool(href) or not REPOSITORY_FILE.match(target))
                if not opened[-1]:
                    continue
            elif child.type == "link_close" and not opened.pop():
                continue
            if child.type != "text" or opened or "docs/" not in child.content:
                children.append(child)
                continue
            children += _cited(child.content)
        block.children = children


def _cited(text: str) -> list[Token]:
    """`text` as text tokens with a link around each citation of an existing document."""
    out, at = [], 0
    for match in DOC_CITATION.finditer(text):
        if match.group(1) not in doc_slugs():
            continue
        if match.start() > at:
            out.append(Token("text", "", 0, content=text[at:match.start()]))
        link = Token("link_open", "a", 1)
        link.attrSet("href", _citation_href(match.group(1), match.group(2)))
        out += [link, Token("text", "", 0, content=match.group(0)), Token("link_close", "a", -1)]
        at = match.end()
    if at < len(text):
        out.append(Token("text", "", 0, content=text[at:]))
    return out


def _table_open(self, tokens, idx, options, env) -> str:
    return '<div class="table-wrap">' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>"


#: Headings only (their ids), for checking a citation's section without rendering the cited document.
_HEADINGS = MarkdownIt("commonmark", {"html": False}).enable(["table"]).use(anchors_plugin, min_level=1, max_level=6)
_DOCS = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).use(
    anchors_plugin, min_level=1, max_level=6)
_DOCS.core.ruler.push("doc_links", _link_docs)
_DOCS.add_render_rule("table_open", _table_open)
_DOCS.add_render_rule("table_close", _table_close)


def docs_index(request):
    """/docs/: every document of docs/ (doc_slugs' order), each with its title linking to its page and its first
    paragraph."""
    return render(request, "leaderboard/docs_index.html", {"docs": [doc_get(slug) for slug in doc_slugs()]})


def doc_page(request, slug: str):
    """/docs/<slug>/: docs/<slug>.md rendered (render_doc) with a list of its sections. 404 (the site's page) when
    `slug` names no document of docs/."""
    try:
        doc = doc_get(slug)
    except LookupError as exc:
        raise Http404(f"No document is named {slug!r}: /docs/ lists them.") from exc
    return render(request, "leaderboard/doc.html", {"doc": doc})
