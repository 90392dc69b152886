"""How to play: every example says what the engine makes of its position, every section is there in both
editions and in every language, and ``cafe rules`` prints it in the terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cafe import i18n
from cafe.cli import main
from cafe.learn import examples, howto
from cafe.learn.examples import EXAMPLES, Example

ALL = [e for edition in EXAMPLES.values() for e in edition.values()]
BOARD_SECTIONS = ["aim", "material", "turn", "seating", "values", "bar", "jokers", "refill", "end", "variants"]
CARD_SECTIONS = ["aim", "material", "places", "turn", "scoring", "full", "end", "variants"]


@pytest.mark.parametrize("example", ALL, ids=[f"{e.edition}-{e.key}" for e in ALL])
def test_each_example_says_what_the_engine_makes_of_it(example: Example) -> None:
    found = examples.outcome(example)
    assert {key: found.get(key) for key in example.claims} == dict(example.claims)


@pytest.mark.parametrize("example", ALL, ids=[f"{e.edition}-{e.key}" for e in ALL])
@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_each_caption_states_its_claims_in_every_language(example: Example, language: str) -> None:
    """The claims are in the words: every caption, in every language, has a placeholder for each of them."""
    template = i18n.translate(example.caption, language)
    assert set(re.findall(r"\{(\w+)\}", template)) == set(example.claims)
    assert language == "en" or template != example.caption
    for value in example.claims.values():
        assert str(value) in example.caption_in(language)


def test_the_rulebooks_examples_a_to_d_are_shown_with_their_scores() -> None:
    board = EXAMPLES["board"]
    assert [(board[k].turn, board[k].claims["points"]) for k in "ABCD"] == [
        ("USAm@h3,USAf@h1", 4), ("INDm@l1,INDf@k2", 4), ("USAm@j1", 2), ("USAm@i2,USAf@g2", 17),
    ]  # fmt: skip
    assert board["D"].claims["hand_size"] == 4  # a single-nation table completed: one guest fewer in hand


def test_a_refused_example_names_the_rule_a_player_hears() -> None:
    assert examples.outcome(EXAMPLES["board"]["gender"]) == {"rule": "R2.3.2"}
    assert examples.outcome(EXAMPLES["cards"]["nation"]) == {"rule": "R4.2"}


@pytest.mark.parametrize("edition,keys", [("board", BOARD_SECTIONS), ("cards", CARD_SECTIONS)])
@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_section_is_there_and_in_the_readers_language(edition: str, keys: list[str], language: str) -> None:
    page = howto.page(edition, language)
    assert [s["key"] for s in page["sections"]] == keys
    english = howto.page(edition, "en")
    for section, source in zip(page["sections"], english["sections"], strict=True):
        assert section["paragraphs"]
        texts = [section["title"], *section["paragraphs"]]
        originals = [source["title"], *source["paragraphs"]]
        assert all(t != o for t, o in zip(texts, originals, strict=True)) or language == "en"
    drawn = [e for s in page["sections"] for e in s["examples"]]
    assert drawn and all(e["svg"].startswith("<svg") for e in drawn)


def test_the_board_game_is_illustrated_by_examples_a_to_d_and_a_refusal_the_cards_by_scoring_and_full_tables() -> None:
    shown = {edition: [e["key"] for s in howto.page(edition, "en")["sections"] for e in s["examples"]]
             for edition in howto.EDITIONS}  # fmt: skip
    assert {"A", "B", "C", "D", "nation", "gender", "bar", "joker", "exchange", "regulars"} <= set(shown["board"])
    assert {"nation", "foreigner", "three", "full", "circle"} <= set(shown["cards"])


@pytest.mark.parametrize("edition", howto.EDITIONS)
def test_an_edition_reads_in_five_minutes(edition: str) -> None:
    page = howto.page(edition, "en")
    words = sum(len(text.split()) for s in page["sections"]
                for text in [s["title"], *s["paragraphs"], *(e["caption"] for e in s["examples"])])  # fmt: skip
    assert 500 <= words <= 1000  # at 200 words a minute


def test_a_drawing_marks_the_turns_chairs_and_is_cut_to_its_part_of_the_cafe() -> None:
    drawing = examples.svg(EXAMPLES["board"]["A"])
    assert re.search(r'<svg[^>]* viewBox="\S+ \S+ 308 176"', drawing)  # f1-l4: 7 by 4 cells
    for chair in ("h3", "h1"):
        assert re.search(rf'<rect(?=[^>]*data-chair="{chair}")(?=[^>]*stroke="#e8590c")', drawing)
    assert 'data-guest="USAf" data-at="h1"' in drawing


@pytest.mark.parametrize(
    "argv,words",
    [
        (["rules"], ["How to play the board game", "Example D (USAm@i2,USAf@g2)", "[USA1]", "R2.3.2"]),
        (["rules", "--edition", "cards"], ["How to play the card game", "Tribe and little circle", "[FRA]"]),
        (["--lang", "de", "rules"], ["So spielt man das Brettspiel", "Beispiel D (USAm@i2,USAf@g2)", "[USA1]"]),
        (["--lang", "fr", "rules", "--edition", "cards"], ["Comment jouer au jeu de cartes", "petit cercle"]),
    ],
)
def test_cafe_rules_prints_the_same_in_the_chosen_language(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        assert main(argv) == 0
    finally:
        i18n.use("en")
    out = capsys.readouterr().out
    for word in words:
        assert word in out
    edition = "cards" if "cards" in argv else "board"
    assert out.count("\n   ") >= len([e for s in howto.SECTIONS[edition] for e in s.examples])  # the drawings' files


def test_the_cafe_serves_how_to_play_in_the_readers_language_and_refuses_an_unknown_edition(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from cafe.server.app import create_app

    with TestClient(create_app(tmp_path)) as client:
        german = client.get("/howto/cards.json?lang=de").json()
        assert german["title"] == "So spielt man das Kartenspiel"
        assert [s["key"] for s in german["sections"]] == CARD_SECTIONS
        full = next(e for s in german["sections"] for e in s["examples"] if e["key"] == "full")
        assert full["caption"].endswith("Die Karte bringt 10.") and full["svg"].startswith("<svg")
        assert client.get("/howto/board.json?lang=xx").json()["title"] == "How to play the board game"
        unknown = client.get("/howto/chess.json")
        assert unknown.status_code == 404 and "board or cards" in unknown.json()["error"]
