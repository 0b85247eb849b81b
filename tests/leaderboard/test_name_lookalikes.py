"""System and team names that hide characters or only look like another name are refused (catalog.names), on the
service, the API and the web forms: every Default_Ignorable_Code_Point (combining grapheme joiner, variation
selectors, Mongolian free variation selectors, Khmer inherent vowels, Hangul fillers), blank-looking characters
(braille blank, any whitespace but a plain space), and names equal under the UTS #39 skeleton with its multi-letter
confusables ("rn" for "m") and ours ("vv" for "w", "cl" for "d")."""
from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError

from catalog.models import System, Team
from catalog.names import name_problem, name_skeleton
from catalog.services import system_create, team_for_user

HIDDEN = [
    ("Demo Agent\u034f Alpha", "COMBINING GRAPHEME JOINER"),
    ("Demo Agent Alpha\ufe0f", "VARIATION SELECTOR-16"),
    ("Demo Agent Alph\ufe00a", "VARIATION SELECTOR-1"),
    ("Demo\u180bAgent", "MONGOLIAN FREE VARIATION SELECTOR ONE"),
    ("Demo\u17b4Agent", "KHMER VOWEL INHERENT AQ"),
    ("Demo\u3164Agent Alpha", "HANGUL FILLER"),
    ("Demo\u115fAgent Alpha", "HANGUL CHOSEONG FILLER"),
    ("Demo\uffa0Agent Alpha", "HALFWIDTH HANGUL FILLER"),
    ("Demo\u2800Agent Alpha", "BRAILLE PATTERN BLANK"),
    ("Demo\u00a0Agent Alpha", "NO-BREAK SPACE"),
    ("Demo\u3000Agent Alpha", "IDEOGRAPHIC SPACE"),
    ("Demo\u2009Agent Alpha", "THIN SPACE"),
    ("Demo\U000e0041gent", "TAG LATIN CAPITAL LETTER A"),
    ("Demo\U000e0100Agent", "VARIATION SELECTOR-17"),
    ("\u180b", "MONGOLIAN FREE VARIATION SELECTOR ONE"),
    ("\u17b4", "KHMER VOWEL INHERENT AQ"),
    # the second break-it pass: drawn as nothing, yet neither default-ignorable nor a space
    ("Demo\U0001d159 Agent Alpha", "MUSICAL SYMBOL NULL NOTEHEAD"),
    ("Demo Agent Alpha\U00016fe4", "KHITAN SMALL SCRIPT FILLER"),
]


@pytest.fixture
def owner(make_user, client):
    user, token = make_user("owner")
    client.force_login(user)
    return user, {"HTTP_AUTHORIZATION": f"Token {token}"}


@pytest.mark.parametrize("name, label", HIDDEN)
def test_a_hidden_or_blank_looking_character_is_refused_by_the_api_with_its_name(owner, client, name, label):
    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": name}, **auth)
    assert resp.status_code == 400, resp.content
    message = resp.json()["name"][0]
    assert f"({label}, U+{ord(next(c for c in name if unicodedata_name(c) == label)):04X})" in message, message
    assert not System.objects.exists()


def unicodedata_name(char: str) -> str:
    import unicodedata

    return unicodedata.name(char, "")


@pytest.mark.parametrize("name, label", HIDDEN[:3])
def test_the_web_form_refuses_a_hidden_character_in_a_system_name(owner, client, name, label):
    resp = client.post("/systems/new/", {"name": name, "type": "agent"})
    assert resp.status_code == 400
    assert label in html.unescape(resp.content.decode())
    assert not System.objects.exists()


@pytest.mark.parametrize("lookalike", [
    "Derno Agent Alpha",  # rn for m (Unicode's confusables.txt)
    "Demo Agent A1pha",
    "Demo Agent Aipha",  # a capital I is an l, and letter case does not count
    "DERNO AGENT ALPHA",
    # the second break-it pass: marks, spaces and punctuation
    "Demo-Agent-Alpha", "Demo_Agent_Alpha", "Demo.Agent.Alpha", "DemoAgentAlpha", "Demo Agent Alpha.",
    "De\u0301\u0301mo Agent Alpha", "Demó Agent Alpha",
])
def test_a_multi_letter_lookalike_is_refused(owner, lookalike):
    team = team_for_user(user=owner[0])
    system_create(team=team, name="Demo Agent Alpha")
    with pytest.raises(ValidationError) as refused:
        system_create(team=team, name=lookalike)
    assert "already exists" in str(refused.value)


@pytest.mark.parametrize("name, lookalike", [
    ("Swift Coder", "Svvift Coder"),  # vv for w
    ("Code Mind", "Coclе Mincl"),  # cl for d (and a Cyrillic е)
    ("Wordsmith", "VVordsrnith"),
    ("Mirror", "Mirrоr"),
    ("Swift Coder", "SWIFT CODER"),
    ("Нello Bot", "hello bot"),  # a Cyrillic capital en
])
def test_our_multi_letter_additions_are_lookalikes(owner, name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)
    team = team_for_user(user=owner[0])
    system_create(team=team, name=name)
    with pytest.raises(ValidationError):
        system_create(team=team, name=lookalike)


def test_names_that_differ_stay_apart():
    assert name_skeleton("Demo Agent Alpha") != name_skeleton("Demo Agent Beta")
    assert name_skeleton("Coder") != name_skeleton("Codex")
    assert name_problem("Demo Agent Alpha") is None and name_problem("Agent β-2 (日本語)") is None


def test_a_team_rename_is_refused_a_hidden_character_and_a_lookalike(owner, client, make_user):
    user, auth = owner
    team = team_for_user(user=user)
    resp = client.patch(f"/api/v1/teams/{team.pk}/", {"name": "Demo\ufe0f"}, content_type="application/json",
                        **auth)
    assert resp.status_code == 400 and "VARIATION SELECTOR-16" in resp.content.decode()
    other, _ = make_user("helper")
    helper_team = team_for_user(user=other)
    helper_team.name = "Modern Team"
    helper_team.save()
    resp = client.patch(f"/api/v1/teams/{team.pk}/", {"name": "Moclern Tearn"}, content_type="application/json",
                        **auth)
    assert resp.status_code == 400 and "already exists" in resp.content.decode()
    team.refresh_from_db()
    assert team.name == "owner"


@pytest.mark.parametrize("name", ["Copi\u0307lot", "Reference-solutions", "Refer ence solutions", "Copilot."])
def test_a_mark_or_punctuation_does_not_get_around_a_reserved_name(owner, name):
    """The second break-it pass: a dot above an "i" merges with its dot ("Copi\u0307lot" reads "Copilot"), and
    punctuation or a space split the reserved words."""
    from catalog.models import ReportedResult, reserved_name_problem

    import datetime

    ReportedResult.objects.create(benchmark_name="repogenesis", split_name="verified", system="Copilot",
                                  source="reported.toml", source_date=datetime.date(2026, 1, 1))
    assert reserved_name_problem(name) is not None, name
    with pytest.raises(ValidationError):
        system_create(team=team_for_user(user=owner[0]), name=name)


def test_a_name_spelled_out_past_the_skeletons_column_is_refused_with_the_reason(owner, client):
    """The second break-it pass: U+FDFA is 18 letters once normalised; 100 of them made a skeleton of 1,800
    characters that its column (300) could not hold: every later edit of the system was refused (and PostgreSQL
    would have answered the create with a 500)."""
    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": "\ufdfa" * 100}, **auth)
    assert resp.status_code == 400 and "spelled out" in resp.json()["name"][0], resp.content
    assert not System.objects.exists()


@pytest.mark.parametrize("name, lookalike", [
    ("Copilot", "\u03f2opilot"),  # Greek lunate sigma: NFKC made it a sigma before the mapping saw it
    ("Cursor", "\u03f9ursor"),
    ("Reference solutions", "Re\u017ference solutions"),  # long s, which reads "f"; NFKC made it an "s"
    ("Copilot", "Copi\u0627ot"),  # Arabic alef: right-to-left entries were skipped for their direction marks
    ("Demo Agent Alpha", "Dem\u05e1 Agent Alpha"),  # Hebrew samekh
    ("Demo Agent Alpha", "D\u1d07\u1d0d\u1d0f A\u0262\u1d07\u0274\u1d1b A\u029f\u1d18\u029c\u1d00"),  # small caps
    ("Copilot", "C\u1d0f\u1d18\u026a\u029f\u1d0f\u1d1b"),
    ("Demo Agent Alpha", "Demo Agen\u0163 Alpha"),  # t with cedilla: its mark goes before the mapping
    ("Demo Agent Alpha", "Demo Agen\u021b Alpha"),
])
def test_the_third_break_it_passes_lookalikes_share_the_skeleton(name, lookalike):
    """The third break-it pass of issue 13: names a reader takes for another, which had their own skeleton."""
    assert name_skeleton(name) == name_skeleton(lookalike)


@pytest.mark.parametrize("name, lookalike", [
    ("MS-Agent", "MS\u2014Agent"),  # em dash: confusables.txt maps it to the letter "ー", which stayed
    ("MS-Agent", "MS\u2015Agent"),  # horizontal bar
    ("RepoGenesis-Verified", "RepoGenesis\uff0dVerified"),  # full-width hyphen-minus
    ("Qwen-Agent", "Qwen\u30fcAgent"),  # the katakana prolonged sound mark itself
    ("Qwen-Agent", "Qwen\u2574Agent"),  # box-drawing light left: a symbol
    ("Qwen-Agent", "Qwen\u4e00Agent"),  # the ideograph "one"
    ("Ninja Coder", "Nin\u0237\u0307a Coder"),  # dotless j + dot above
    ("Kraken Agent", "\u0138raken Agent"),  # kra
    ("Demo Agent Beta", "Demo Agent \u0185eta"),  # tone six
    ("Bar Agent", "Ba\u027e Agent"),  # r with fishhook, read from its Unicode name
    ("Dbq Agent", "\u0238q Agent"),  # db digraph
    ("Demo Agent Alpha", "Demo Agent Alpha (verified)"),  # a badge word added
    ("Demo Agent Alpha", "Demo Agent Alpha \u00b7 open source (reported)"),
])
def test_the_fourth_break_it_passes_lookalikes_share_the_skeleton(name, lookalike):
    """The fourth break-it pass of issue 13: dashes that confusables.txt maps to letters, Latin letters it does
    not list, and names that only add the badges the board draws beside a name."""
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_the_plain_hyphen_and_letters_in_other_words_stay_apart():
    assert name_skeleton("Ca\u2016") == name_skeleton("Call")  # punctuation drawn as letters still maps to them
    assert name_skeleton("Verified") != ""  # a badge word alone is a name, never stripped to nothing
    assert name_skeleton("Agent 2") != name_skeleton("Agent 3")


@pytest.mark.parametrize("name", ["---", "\u2014\u2014", "!?", "\u30fc"])
def test_a_name_without_a_letter_or_digit_is_refused(name):
    assert "at least one letter or digit" in name_problem(name)


def test_the_object_replacement_character_is_refused_as_blank():
    assert "OBJECT REPLACEMENT CHARACTER" in name_problem("Demo Agent Alpha\ufffc")


@pytest.mark.parametrize("name", ["Copilot \u00b7 Claude Sonnet 4.5", "Copilot\u2014Claude Sonnet 4.5 (reported)",
                                  "MS\u2014Agent"])
def test_a_published_rows_label_and_a_dashed_reserved_name_are_reserved(owner, name):
    """The board shows a published row as "System · base model" (and "(reported)" in the radar's legend): a team
    may call its system neither that nor the reserved name with another dash."""
    import datetime

    from catalog.models import ReportedResult, reserved_name_problem

    for system, base_model in (("Copilot", "Claude Sonnet 4.5"), ("MS-Agent", "")):
        ReportedResult.objects.create(benchmark_name="repogenesis", split_name="verified", system=system,
                                      base_model=base_model, source="reported.toml",
                                      source_date=datetime.date(2026, 1, 1))
    assert reserved_name_problem(name) is not None, name
    with pytest.raises(ValidationError):
        system_create(team=team_for_user(user=owner[0]), name=name)


@pytest.mark.parametrize("name, lookalike", [
    ("Copilot", "Copi\u3163ot"),  # Hangul I
    ("Copilot", "Copi\u4e28ot"),  # CJK stroke
    ("Copilot", "Copi\u3021ot"),  # Hangzhou numeral one
    ("Copilot", "Copi\u0964ot"),  # Devanagari danda
    ("Cursor", "C\u0289rsor"),  # u bar
    ("Cursor", "\u1455ursor"),  # Canadian syllabics
    ("MetaGPT", "Meta\u13b6PT"),  # Cherokee
    ("demo", "dem\u3147"),  # Hangul ieung
    ("Copilot \u00b7 Claude Sonnet 4.5", "Copilot (verified) \u00b7 Claude Sonnet 4.5"),  # a badge word anywhere
    ("Copilot \u00b7 Claude Sonnet 4.5", "Copilot \u00b7 Claude Sonnet 4.5 \u00b7 verified here"),
    ("Cursor", "Cursor (evaluated here)"),
    ("Cursor \u00b7 GPT-5", "Cursor (reported) \u00b7 GPT-5"),
    ("Lab", "\u1d0cab"),  # small capital L with stroke, read from its Unicode name
    ("Task", "\U0001df09ask"),  # Latin Extended-G: t with hook and retroflex hook
])
def test_the_fifth_break_it_passes_lookalikes_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


@pytest.mark.parametrize("name", ["Copi\u2758ot", "Copi\u2502ot", "C\u25cbpilot", "\u2282ursor", "Demo Agent A\u2758pha",
                                  "\U0001f680 Agent", "Agent \u2122"])
def test_a_symbol_outside_ascii_is_refused_in_a_name(name):
    assert "a symbol other than ASCII's" in name_problem(name)


@pytest.mark.parametrize("name", ["verified", "(verified)", "reported", "open source", "agent endpoint (oracle)",
                                  "Verified Here"])
def test_a_name_of_badge_words_only_is_refused(name):
    assert "badge words" in name_problem(name)


def test_ascii_symbols_and_stacked_marks():
    assert name_problem("C++ Agent") is None and name_problem("A|B") is None
    assert name_problem("Ti\u1ebfng Vi\u1ec7t") is None  # Vietnamese: two marks on a letter
    assert "combining marks" in name_problem("Zq" + "\u0301" * 98)


#: The sixth break-it pass of issue 13 drew every letter a name may hold in DejaVu Sans and Serif and Liberation Sans
#: and Serif and compared the bitmaps: these are drawn (almost) exactly like a letter of another skeleton.
SIXTH_PASS_TWINS = [
    ("Demo Agent Alpha", "De\u043co Agent Alpha"),  # Cyrillic small em: the small capital M's very glyph
    ("Web Coder", "\u03c9eb Coder"),  # Greek omega: the Cyrillic omega's glyph, which reads "w"
    ("Hash Agent", "\ua727ash Agent"),  # heng: the glyph of Cyrillic en with hook, which reads "h"
    ("Copilot", "Copi\ua781ot"),  # turned l: the glyph of Hebrew final nun, which reads "l"
    ("Lab", "\u053cab"),  # Armenian capital liwn
    ("Lab", "\u0582ab"),  # Armenian yiwn: the small capital L's glyph
    ("nano", "\u0572ano"), ("nano", "\u0564ano"), ("nano", "\u0580ano"),  # Armenian ghad, da, reh: eta's, n's
    ("Nano", "Na\u043fo"),  # Cyrillic pe, an "n" in Liberation Sans and Serif
    ("Nano", "Na\u05d7o"),  # Hebrew het: the Cyrillic pe's glyph in DejaVu Sans
    ("Lab", "\u14abab"), ("Spa", "S\u146ea"),  # Canadian syllabics maa and kii: ma and ki with a dot
    ("Fox", "\u07d3ox"),  # N'Ko ba
    ("Dev", "\u1d06ev"),  # small capital eth: a small capital D with a bar
    ("rust", "\ua785ust"),  # insular s: the r with long leg's glyph
    ("Opal", "\ua668pal"), ("Opal", "\u0298pal"), ("Opal", "\u2d59pal"),  # an O with a dot inside
    ("Oops", "\ua66cps"),  # double monocular O
    ("Opal", "\u03d9pal"),  # archaic koppa: an o with a stroke below, as o with dot below
    ("Kit", "\u03cfit"), ("Cursor", "\u03feursor"), ("cursor", "\u037cursor"),  # kai; dotted lunate sigmas
    ("Use", "\u0544se"),  # Armenian capital men
    ("Copilot", "Copi\ua7feot"), ("Mode", "\ua7ffode"),  # epigraphic I longa and archaic M
    ("Copilot", "Copi\ufe83ot"),  # Arabic alef with hamza, isolated form: "alef, high hamza" once mapped
]


@pytest.mark.parametrize("name, lookalike", SIXTH_PASS_TWINS)
def test_the_sixth_break_it_passes_twins_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_the_api_refuses_a_twin_of_a_refused_lookalike(owner, client):
    _, auth = owner
    assert client.post("/api/v1/systems/", {"name": "Demo Agent Alpha"}, **auth).status_code == 201
    for lookalike in ("De\u1d0do Agent Alpha", "De\u043co Agent Alpha"):  # small capital M, then Cyrillic em
        resp = client.post("/api/v1/systems/", {"name": lookalike}, **auth)
        assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], (lookalike, resp.content)
    assert System.objects.count() == 1


def test_a_user_name_twin_is_refused(make_user):
    from leaderboard.accounts import username_problem

    make_user("Liam")
    assert "looks like" in username_problem("\u053ciam")


#: The seventh break-it pass of issue 13: names it had accepted beside the one they look like.
SEVENTH_PASS_TWINS = [
    ("Copilot", "Copi\u2c93ot"),  # Coptic small iauda, whose capital reads "l"
    ("Hey", "\u2c8fe\u2ca9"), ("Mint", "\u2c99i\u2c9b\u2ca7"), ("Xeno", "\u2cadeno"),  # Coptic small hate, ua, mi...
    ("mallory", "ma\u056c\u056cory"),  # Armenian small liwn
    ("demo", "\u00f0emo"), ("demo", "\u00d0emo"),  # Latin small and capital eth
    ("Demo Agent Alpha", "Demo Agent A\ufe31pha"), ("Demo Agent Alpha", "Demo Agent A\ufe32pha"),
    ("Demo Agent Alpha", "Demo Agent A\ufe33pha"),  # vertical em dash, en dash, low line: a bar, as "|"
    ("Demo Agent Alpha", "Dem\u3002 Agent Alpha"), ("Demo Agent Alpha", "Dem\uff61 Agent Alpha"),
    ("Demo Agent Alpha", "Dem\u2e30 Agent Alpha"),  # baseline rings: ideographic full stops, ring point
    ("Hello", "He\u2d4do"),  # Tifinagh yal: two vertical strokes
]


@pytest.mark.parametrize("name, lookalike", SEVENTH_PASS_TWINS)
def test_the_seventh_break_it_passes_twins_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_only_coptic_small_letters_take_their_capitals_mapping():
    """Case partners of other scripts are often drawn unlike each other: Greek "μ" is no "M", "ζ" no "Z"."""
    assert name_skeleton("\u03bcu") != name_skeleton("Mu") and name_skeleton("\u03b6ed") != name_skeleton("Zed")


def test_the_seventh_passes_twins_of_a_reserved_name_a_system_and_a_user_are_refused(owner, client, make_user):
    import datetime

    from catalog.models import ReportedResult, reserved_name_problem
    from leaderboard.accounts import username_problem

    _, auth = owner
    ReportedResult.objects.create(benchmark_name="repogenesis", split_name="verified", system="Copilot",
                                  base_model="", source="reported.toml", source_date=datetime.date(2026, 1, 1))
    assert reserved_name_problem("Copi\u2c93ot") is not None
    assert client.post("/api/v1/systems/", {"name": "Copi\u2c93ot"}, **auth).status_code == 400
    assert client.post("/api/v1/systems/", {"name": "Demo Agent Alpha"}, **auth).status_code == 201
    for lookalike in ("Demo Agent A\u2c93pha", "Demo Agent A\ufe31pha", "Dem\u3002 Agent Alpha"):
        resp = client.post("/api/v1/systems/", {"name": lookalike}, **auth)
        assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], (lookalike, resp.content)
    assert client.post("/api/v1/systems/", {"name": "Delta"}, **auth).status_code == 201
    resp = client.post("/api/v1/systems/", {"name": "\u00f0elta"}, **auth)
    assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], resp.content
    assert System.objects.count() == 2
    make_user("mallory")
    assert "looks like" in username_problem("ma\u056c\u056cory")


#: The eighth break-it pass of issue 13: names it had accepted beside the one they look like (one of them ranked on
#: the demo board beside "Demo Agent Alpha").
EIGHTH_PASS_TWINS = [
    # decimal zeros of other scripts drawn as an "o" or a "0": New Tai Lue, Cham, Chakma, Newa, Balinese, Limbu,
    # Kayah Li, Khmer, Ol Chiki, Meetei Mayek, Saurashtra, Osmanya, Mongolian
    *(("Demo Agent Alpha", f"Dem{zero} Agent Alpha") for zero in
      "\u19d0\uaa50\U00011136\U00011450\u1b50\u1946\ua900\u17e0\u1c50\uabf0\ua8d0\U000104a0\u1810"),
    ("Copilot", "C\u17e0pil\u17e0t"), ("Cursor", "Curs\u1c50r"), ("DeepCode", "DeepC\U00011136de"),
    # ones drawn as an "l": Vai and Hanifi Rohingya digits; letters and a fraction digit drawn as a stroke
    ("Copilot", "Copi\ua621ot"), ("Copilot", "Copi\U00010d31ot"), ("Copilot", "Copi\u1963ot"),
    ("Copilot", "Copi\u0c79ot"), ("Copilot", "Copi\u0285ot"), ("Copilot", "Copi\u0e40ot"),
    ("Demo Agent Alpha", "Demo Agent A\u027fpha"),
    ("Codex", "Code\u04b3"), ("Codex", "Code\u03c7"),  # Cyrillic ha with descender, Greek chi
    ("Copilot", "\u0297opilot"), ("Copilot", "C\u0e4fpilot"),  # stretched c, Thai fongman (a ring)
]


@pytest.mark.parametrize("name, lookalike", EIGHTH_PASS_TWINS)
def test_the_eighth_break_it_passes_twins_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_a_digit_confusables_maps_to_another_digit_keeps_that_look():
    """Bengali four "৪" is drawn as an "8": read by its value it would pass for an "Agent8" of its own."""
    assert name_skeleton("Agent\u09ea") == name_skeleton("Agent8") != name_skeleton("Agent4")


def test_the_eighth_passes_twin_of_a_ranked_system_is_refused_by_the_api_and_the_form(owner, client):
    _, auth = owner
    assert client.post("/api/v1/systems/", {"name": "Demo Agent Alpha"}, **auth).status_code == 201
    resp = client.post("/api/v1/systems/", {"name": "Dem\u19d0 Agent Alpha"}, **auth)
    assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], resp.content
    resp = client.post("/systems/new/", {"name": "Dem\u17e0 Agent Alpha", "type": "agent"})
    assert resp.status_code == 400 and "would look the same" in html.unescape(resp.content.decode())
    assert list(System.objects.values_list("name", flat=True)) == ["Demo Agent Alpha"]


#: The tenth break-it pass of issue 13: letters no table mapped, each accepted beside Latin letters and read as the
#: Latin letter it stands for (Cyrillic, Greek, Armenian and Georgian letters with a tick, stroke or hook; insular,
#: broken and anglicana Latin letters; modifier letters and syllabics drawn as a hyphen or an underscore).
TENTH_PASS = ["Co\u03fcilot", "Copi\ua747ot", "Cu\ua783sor", "C\u028arsor AI", "DeepCo\ua77ae",
              "MS\u1428Agent", "Qwen\u1c7cagent", "MS\ua719Agent", "Antigravi\ua787y", "Meta\u1d79PT",
              "Q\ua7c3en-Agent", "Xeno Kite \u056beavy",
              "Xeno Kite \u10e9eavy", "Xeno \u04a1ite", "\uab54eno", "Heav\u0264", "Race\u02cdProbe\u02cd1"]


@pytest.mark.parametrize("name", TENTH_PASS)
def test_a_letter_that_passes_for_a_latin_one_is_refused_with_its_name(owner, client, name):
    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": name}, **auth)
    assert resp.status_code == 400, resp.content
    assert "a letter that can pass for a Latin one" in resp.json()["name"][0]
    assert not System.objects.exists()


@pytest.mark.parametrize("name", ["Qwen 通义", "Café Ærø", "Straße Bot", "Помощник", "Łukasz", "Þór Agent",
                                  "Ŋgoni", "ラーメン Bot", "한국 Agent", "عربي Bot"])
def test_names_in_one_script_or_with_letters_unlike_latin_ones_are_accepted(owner, client, name):
    _, auth = owner
    assert client.post("/api/v1/systems/", {"name": name}, **auth).status_code == 201


def test_the_thorn_reads_as_a_p():
    assert name_skeleton("Co\u00feilot") == name_skeleton("Copilot")


#: The eleventh break-it pass of issue 13: CJK strokes, Bopomofo and Hangul letters drawn as Latin capitals, "$" as an
#: "S", and badge words said another way.
ELEVENTH_PASS_TWINS = [("MetaGPT", "MetaGP\u4e05"), ("COPILOT", "COP\u5de5LOT"), ("COPILOT", "C\u53e3PILOT"),
                       ("MetaGPT", "MetaGP\u3112"), ("METAGPT", "M\u314cTAGPT"), ("Copilot", "Copi\u3134ot"),
                       ("CURSOR", "C\u3129RSOR"), ("Demo Agent Alpha", "Demo Agent A\u3125PHA"),
                       ("MS-Agent", "M$-Agent"), ("MS-Agent", "MS-Agent reported by authors"),
                       ("MS-Agent", "MS-Agent (evaluated)"), ("Demo Agent Alpha", "Demo Agent Alpha (partial run)")]


@pytest.mark.parametrize("name, lookalike", ELEVENTH_PASS_TWINS)
def test_the_eleventh_break_it_passes_twins_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_a_lone_hangul_letter_beside_latin_ones_is_refused_but_hangul_syllables_are_not():
    from catalog.names import name_problem

    assert "can pass for a Latin one" in name_problem("Copi\u3139ot")  # a jamo no table maps
    assert name_problem("\ud55c\uad6d Agent") is None


#: The eleventh break-it pass of issue 13, whole names: a letter of any script "WITH" a tick, hook or stroke reads as
#: its base letter (the tenth pass's "Coҏilot", "ӿeno" and "Ԩeavy" were refused beside Latin letters, but "Соҏіӏот"
#: in Cyrillic letters alone passed), the sharp s as a "B", the Greek epsilon as an "e", the Cyrillic "в" as a "B".
LETTERS_WITH_MARKS_TWINS = [("Copilot", "Co\u048filot"), ("Copilot", "\u0421\u043e\u048f\u0456\u04cf\u043e\u0442"),
                            ("Xeno Kite Heavy", "\u04ffeno Kite Heavy"), ("Xeno Kite Heavy", "Xeno Kite \u0528eavy"),
                            ("Beta", "\u00dfeta"), ("BETA", "\u1e9eETA"), ("evil", "\u03b5vil"),
                            ("CoBa", "\u0421\u043e\u0432\u0430")]


@pytest.mark.parametrize("name, lookalike", LETTERS_WITH_MARKS_TWINS)
def test_a_letter_with_a_tick_hook_or_stroke_reads_as_its_base_letter(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_a_name_in_other_letters_that_passes_for_a_ranked_latin_one_is_refused(owner, client):
    _, auth = owner
    assert client.post("/api/v1/systems/", {"name": "Copilot"}, **auth).status_code == 201
    cyrillic = "\u0421\u043e\u048f\u0456\u04cf\u043e\u0442"  # "Соҏіӏот": Cyrillic letters only
    resp = client.post("/api/v1/systems/", {"name": cyrillic}, **auth)
    assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], resp.content
    # "COPILOT" in Cherokee letters ("Ꮖ", which no table mapped, reads as an "I" since the twelfth pass)
    resp = client.post("/api/v1/systems/", {"name": "\u13df\u13be\u13e2\u13c6\u13de\u13be\u13a2"}, **auth)
    assert resp.status_code == 400 and "would look the same" in resp.json()["name"][0], resp.content
    assert list(System.objects.values_list("name", flat=True)) == ["Copilot"]


@pytest.mark.parametrize("name", ["ГигаЧат", "Яндекс", "Мир", "Ωμέγα", "Δέλτα"])
def test_a_name_with_letters_of_its_own_script_is_accepted(owner, client, name):
    """Each holds two letters or more that read as no Latin letter, or fewer than three that do: a name of its
    own."""
    _, auth = owner
    assert client.post("/api/v1/systems/", {"name": name}, **auth).status_code == 201


#: The twelfth break-it pass of issue 13: whole names in Cherokee and Lisu letters with two unread letters, CJK
#: ideographs and Hangul conjoining jamo drawn as Latin capitals beside Latin letters.
TWELFTH_PASS_TWINS = [("GITHUB COPILOT", "\u13c0\u13c6\u13a2\u13bb\u054d\u13f4 \u13df\u13be\u13e2\u13c6\u13de\u13be\u13a2"),
                      ("COPILOT II", "\u13df\u13be\u13e2\u13c6\u13de\u13be\u13a2 \u13c6\u13c6"),
                      ("COPILOT KK", "\ua4da\ua4f3\ua4d1\ua4f2\ua4e1\ua4f3\ua4d4 \ua4d8\ua4d8"),
                      ("COPILOT", "COPILO\u4e01"), ("COPILOT", "\u531aOPILOT"), ("CURSOR", "C\u51f5RSOR"),
                      ("ZEPHYR", "\u4e59EPHYR"), ("XAI", "\u4e42AI"), ("OPENAI", "\u110bPENAI"),
                      ("COPILOT", "COPI\u1102OT"), ("Demo", "Dem\u11bc"), ("Copilot", "Copi\u11abot")]


@pytest.mark.parametrize("name, lookalike", TWELFTH_PASS_TWINS)
def test_the_twelfth_break_it_passes_twins_share_the_skeleton(name, lookalike):
    assert name_skeleton(name) == name_skeleton(lookalike)


def test_a_name_in_letters_drawn_after_latin_ones_may_not_hold_unread_ones(owner, client):
    """Cherokee and Lisu letters were drawn after Latin capitals: a name in them that reads as Latin in part is
    refused for a letter that reads as none ("ᏣᎳᎩ", "Cherokee" in Cherokee, reads "?wy"); a Hangul jamo no table
    maps is refused beside Latin letters, a Hangul syllable is not."""
    from catalog.names import name_problem

    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": "\u13e3\u13b3\u13a9"}, **auth)
    assert resp.status_code == 400 and "reads as Latin letters but for" in resp.json()["name"][0], resp.content
    assert "can pass for a Latin one" in name_problem("Copi\u1105ot")  # a conjoining jamo no table maps
    assert name_problem("\ud55c\uad6d Agent") is None


#: The thirteenth break-it pass of issue 13: number signs that are no decimal digits (tally marks, counting rods,
#: Aegean, Kharoshthi, Phoenician, Imperial Aramaic, Coptic epact numbers) drawn as an "l" or an "I", and a modifier
#: letter read as nothing where a letter stands.
THIRTEENTH_PASS = ["Copi\U0001d377ot", "Copi\U00010a40ot", "Copi\U00010107ot", "Copi\U0001d360ot", "Copi\U00010858ot",
                   "Copi\U00010916ot", "Copi\U0001d372ot", "Demo Agent A\U00010107pha", "Cursor \U000102e1"]


@pytest.mark.parametrize("name", THIRTEENTH_PASS)
def test_a_number_sign_that_is_no_digit_is_refused_with_its_name(owner, client, name):
    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": name}, **auth)
    assert resp.status_code == 400 and "a number sign other than a digit" in resp.json()["name"][0], resp.content


def test_a_modifier_letter_read_as_nothing_is_refused_but_digits_in_other_forms_are_not(owner, client):
    from catalog.names import name_problem

    assert "can pass for a Latin one" in name_problem("Copi\u02c8ot")
    for name in ("Agent \u2460", "Agent\u00b2", "Agent \u2161", "\u30e9\u30fc\u30e1\u30f3 Bot"):  # ①, ², Ⅱ, ラーメン
        assert name_problem(name) is None, name
