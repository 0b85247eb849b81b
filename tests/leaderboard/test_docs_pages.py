"""The project's documents served as pages (leaderboard/views/docs.py): /docs/ lists every file of docs/, /docs/<slug>/
renders one with an id on each heading, links between documents lead to their pages, anything else is the site's
404, raw HTML in a document stays text, and every page that names a document links to its page and section."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from leaderboard.views.docs import render_doc

DOCS = Path(__file__).resolve().parents[2] / "docs"
HREF = re.compile(r'href="(/docs/[^"]*)"')


def _title(path: Path) -> str:
    """A document's first `# ` heading as the page shows it in text (backticks dropped)."""
    return re.search(r"^# (.+)$", path.read_text(), re.M).group(1).replace("`", "")


def _main(page: str) -> str:
    """The page's <main> (the navigation and the footer left out)."""
    return page[page.index("<main>"):page.index("</main>")]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_the_index_lists_every_document_with_its_title_and_first_paragraph(client, db):
    page = client.get("/docs/").content.decode()
    files = sorted(DOCS.glob("*.md"))
    assert len(files) >= 8
    for path in files:
        entry = re.search(rf'<li class="card"><h2><a href="/docs/{path.stem}/">(.*?)</a></h2>\s*<p>(.*?)</p>', page,
                          re.S)
        assert entry, f"/docs/ does not list {path.name}"
        assert _text(entry.group(1)) == _title(path)
        first_words = re.split(r"\n\s*\n", path.read_text())[1].split()[:3]
        assert _text(entry.group(2)).split()[:3] == [w.replace("`", "") for w in first_words], path.name


def test_the_site_links_to_the_documents_in_its_navigation_footer_and_api_reference(client, db):
    page = client.get("/docs/").content.decode()
    assert '<a href="/docs/">Docs</a>' in page
    assert '<a href="/docs/scoring/">the scoring contract v2</a>' in page
    api = client.get("/api/docs/").content.decode()
    assert '<a class="brand" href="/">' in api and 'href="/docs/">Docs</a>' in api


def test_a_document_page_shows_its_title_and_its_sections_with_their_ids(client, db):
    resp = client.get("/docs/scoring/")
    page = resp.content.decode()
    assert resp.status_code == 200
    assert "<title>How submissions are scored · Documentation</title>" in page
    assert '<h1 id="how-submissions-are-scored">How submissions are scored</h1>' in page
    assert '<h2 id="comparing-two-systems">Comparing two systems</h2>' in page
    assert '<a href="#comparing-two-systems">Comparing two systems</a>' in page  # the list of sections
    assert "<script" not in _main(page) and "style=" not in page  # the Content-Security-Policy allows neither


def test_a_link_to_another_document_leads_to_its_page(client, db):
    page = client.get("/docs/architecture/").content.decode()
    assert '<a href="/docs/scoring/">scoring.md</a>' in page
    assert '<a href="/docs/benchmark-format/">benchmark-format.md</a>' in page
    assert client.get("/docs/scoring/").status_code == 200


def test_a_plain_citation_of_a_section_links_to_the_section():
    doc = render_doc('Ranks follow docs/scoring.md "Ranking"; see [the rule](../docs/scoring.md#ranking).')
    assert '<a href="/docs/scoring/#ranking">docs/scoring.md &quot;Ranking&quot;</a>' in doc.html
    assert '<a href="/docs/scoring/#ranking">the rule</a>' in doc.html


def test_a_link_to_a_file_that_is_no_document_is_left_as_its_text():
    doc = render_doc("From [`rows.csv`](../benchmarks/rows.csv), [nope](nope.md) or [a site](https://example.org/).")
    assert "<code>rows.csv</code>" in doc.html and "../benchmarks" not in doc.html
    assert ", nope or" in doc.html and "nope.md" not in doc.html  # no such document: no page to lead to
    assert '<a href="https://example.org/">a site</a>' in doc.html


@pytest.mark.parametrize("url", ["/docs/nope/", "/docs/../settings/", "/docs/..%2Fsettings/", "/docs/scoring.md/",
                                 "/docs/SCORING/", "/docs/scoring/extra/"])
def test_anything_but_a_document_is_the_sites_404(client, db, url):
    resp = client.get(url)
    assert resp.status_code == 404 and "Page not found" in resp.content.decode()
    assert 'class="brand"' in resp.content.decode()


def test_raw_html_in_a_document_is_shown_as_text_and_script_links_are_not_links():
    doc = render_doc('# Title\n\n<script>alert(1)</script>\n\nA <b onclick="x()">bold</b> '
                     "[click](javascript:alert(1)).\n")
    assert "<script" not in doc.html and "<b " not in doc.html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in doc.html
    assert "&lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;" in doc.html
    assert "javascript:" not in doc.html.replace("[click](javascript:alert(1))", "")
    assert 'href="javascript' not in doc.html


def test_a_documents_table_scrolls_in_a_table_wrap():
    doc = render_doc("| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert doc.html.startswith('<div class="table-wrap"><table>') and doc.html.rstrip().endswith("</table>\n</div>")


def _pages_naming_a_document(client, make_user) -> list[str]:
    """Every page whose text names a document (`grep -rn "docs/" templates`), with what it needs to show it."""
    from catalog.models import Split, System
    from catalog.services import team_for_user

    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    task = split.tasks.order_by("name").first()
    user, _ = make_user("docs-reader")
    system = System.objects.create(team=team_for_user(user=user), name="Docs Reader")
    client.force_login(user)  # the agent endpoint card is its team's only
    query = "benchmark=demo&split=verified"
    return [f"/reported/?{query}", f"/compare/?{query}", f"/data/?{query}", f"/tasks/?{query}",
            f"/tasks/{task.name}/?{query}", f"/systems/{system.pk}/"]


def test_every_page_that_names_a_document_links_to_its_page_and_section(client, make_user, demo_split):
    followed = {}
    for url in _pages_naming_a_document(client, make_user):
        resp = client.get(url)
        assert resp.status_code == 200, url
        links = HREF.findall(_main(resp.content.decode()))
        assert links, f"{url} names a document but links to none"
        assert "docs/" not in _text(_main(resp.content.decode())).replace("/docs/", ""), \
            f"{url} still names a file of docs/ as text"
        for link in links:
            path, _, anchor = link.partition("#")
            if path not in followed:
                target = client.get(path)
                assert target.status_code == 200, f"{url}: {link} is {target.status_code}"
                followed[path] = target.content.decode()
            if anchor:
                assert f'id="{anchor}"' in followed[path], f"{url}: {link} has no such section"
    assert {"/docs/scoring/", "/docs/exports/", "/docs/agent-protocol/"} <= set(followed)


def test_every_link_between_documents_resolves(client, db):
    """Each document's links to the others (written links and citations) reach a page and a section it has."""
    pages = {p.stem: client.get(f"/docs/{p.stem}/").content.decode() for p in DOCS.glob("*.md")}
    count = 0
    for slug, page in pages.items():
        for link in HREF.findall(page.split('<article class="readme doc">', 1)[1]):
            count += 1
            target, _, anchor = link.partition("#")
            other = target.strip("/").split("/")[1]
            assert other in pages, f"{slug}: {link} names no document"
            assert not anchor or f'id="{anchor}"' in pages[other], f"{slug}: {link} has no such section"
    assert count > 10
