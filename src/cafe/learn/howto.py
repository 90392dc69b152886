"""How to play each edition, in five minutes: sections of short paragraphs, illustrated by the positions of
:mod:`cafe.learn.examples`.  The words follow RULES.md (§1-2 and §2.9 for the board game, §4 for the card game);
every one goes through the catalogs, so the café and ``cafe rules`` say the same in every language."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from cafe.i18n import N_, translate
from cafe.learn import examples
from cafe.learn.examples import EXAMPLES, Example

EDITIONS = ("board", "cards")
TITLES = {"board": N_("How to play the board game"), "cards": N_("How to play the card game")}


@dataclass(frozen=True)
class Section:
    """One part of the rules: a title, its paragraphs, and the examples that show them."""

    key: str
    title: str
    paragraphs: tuple[str, ...]
    examples: tuple[str, ...] = ()


BOARD: tuple[Section, ...] = (
    Section("aim", N_("The aim"), (
        N_("Guests from twelve nations come to the Café International. Seat them at the tables of their nation, in "
           "good company, to earn points. Whoever has the most points at the end wins."),
    )),
    Section("material", N_("The material"), (
        N_("24 tables, two for each nation, each with 4 chairs. Many chairs stand between two tables and belong to "
           "both. Tables are named like USA1, chairs by their square like h3."),
        N_("100 guests in a bag: 4 ladies and 4 gentlemen of every nation, and 4 jokers (2 ladies, 2 gentlemen). "
           "The bar has 20 stools. 2 to 4 players each draw 5 guests and lay them face up for all to see."),
    )),
    Section("turn", N_("A turn"), (
        N_("On your turn you do exactly one of three things: seat one or two guests at tables, seat one guest at "
           "the bar, or exchange a joker. Then you draw from the bag until your hand is full again. You may pass "
           "only when nothing else is allowed."),
    )),
    Section("seating", N_("Seating guests"), (
        N_("Nation: a guest takes a free chair only if one of that chair's tables is of the guest's nation."),
        N_("Ladies and gentlemen: a table may hold 1 or 2 ladies and 1 or 2 gentlemen, or one guest alone; never "
           "two ladies without a gentleman, nor two gentlemen without a lady."),
        N_("Company: at the end of your turn, no guest you seated may be alone at all of its tables. Every "
           "placement must score, except the first of two guests, alone at its tables, when the second joins one of "
           "them in the same turn and scores. "
           "Only on the very first turn of the game, a player who cannot score may seat one guest alone."),
    ), ("A", "B", "nation", "gender")),
    Section("values", N_("What a table is worth"), (
        N_("After each placement, every table of that chair is scored as it now stands, and you gain the sum. A "
           "lone guest is worth 0; a table of 2 guests is worth 2, of 3 guests 3, of 4 guests 4."),
        N_("A table of at least two guests who are all of the table's nation is single-nation, and it is worth "
           "double: 4, 6 or 8."),
    ), ("C", "D")),
    Section("bar", N_("The bar"), (
        N_("Instead of seating at tables, you may put any one guest, of any nation, on the next free stool of the "
           "bar. The first five stools bring +1 to +5 points; after that every stool costs points, more and more. "
           "Jokers never go to the bar."),
        N_("A player whose score a stool would take below 0 cannot pay and is out of the game; the guest stays on "
           "the stool."),
    ), ("bar",)),
    Section("jokers", N_("Jokers"), (
        N_("A joker may take any free chair, of any table. It takes the nation of one of that chair's tables, you "
           "choose which, and keeps it. It counts as a lady or a gentleman as printed."),
        N_("Exchange: instead of seating, you may take a seated joker into your hand and put in its place a guest "
           "from your hand of the same gender and of the joker's nation. An exchange scores nothing, and the joker "
           "you win waits for your next turn."),
    ), ("joker", "exchange")),
    Section("refill", N_("Single-nation tables and refilling"), (
        N_("Complete a table with four guests all of its nation, and your hand size drops by one for the rest of "
           "the game. After your turn you refill your hand from the bag up to your hand size."),
        N_("A player whose hand size has reached 0 and whose hand is empty has gone out."),
    )),
    Section("end", N_("The end"), (
        N_("The game ends after a turn when the bar is full, every chair is taken, the bag holds 4 guests or "
           "fewer, a player has gone out, fewer than two players are left, or every player has passed in a row."),
        N_("Then each player loses 5 points for every guest still in hand and 10 for every joker. The highest "
           "score wins; on a tie, fewer guests in hand."),
    )),
    Section("variants", N_("Variants"), (
        N_("First edition (1989): single-nation tables of 2 or 3 are not doubled; only a full single-nation table "
           "scores 8."),
        N_("Surprise guests: the hands are hidden; you see only your own and how many the others hold."),
        N_("Tables reserved for regulars: seat 3 or 4 guests of one gender at one empty table, in one turn. The "
           "table scores 20, or 40 if all of them are of its nation, and is closed for the rest of the game."),
        N_("BrettspielWelt's rules let a joker go to the bar when no table can take it."),
    ), ("regulars",)),
)  # fmt: skip

CARDS: tuple[Section, ...] = (
    Section("aim", N_("The aim"), (
        N_("In the card game the café is five table cards, and you seat client cards around them. Every card you "
           "play earns points. Whoever has the most points at the end wins."),
    )),
    Section("material", N_("The material"), (
        N_("96 client cards: 4 ladies and 4 gentlemen of each of twelve nations; no jokers and no bar. 24 table "
           "cards, two per nation. 2 to 5 players each get 7 client cards, a hidden hand; the rest is the draw "
           "pile."),
        N_("Five table cards are laid face up in an X, one in the centre and four on its corners; the others wait "
           "in the table pile."),
    )),
    Section("places", N_("Places"), (
        N_("Every table card has four places around it. Each of the four places next to the centre touches three "
           "tables; each corner table has two outer places of its own: 12 places in all."),
        N_("A client may take a free place if at least one table it touches is of the client's nation; at the "
           "other tables it sits as a foreigner. Ladies and gentlemen stay balanced at every table, as in the "
           "board game, and no client you play may end your turn alone at all of its tables."),
    ), ("nation",)),
    Section("turn", N_("A turn"), (
        N_("On your turn you do exactly one of three things: play 1 to 3 client cards, one after the other; draw "
           "the top card of the pile (only with fewer than 12 cards in hand); or, with 12 cards in hand, lay one "
           "card face down in front of you, where it stays."),
        N_("Every card you play must score, except a card alone at its tables when your next card joins one of "
           "them and scores. If your turn empties your hand, you may end the game: the last step of that turn."),
    )),
    Section("scoring", N_("Scoring"), (
        N_("After each card, every table it touches is scored. A lone client is worth 0. Otherwise each client "
           "there is worth 2 if the table is of its nation and 1 if not, and the table is worth the sum: a French "
           "lady and a French gentleman at a French table, 4; four French, 8."),
    ), ("foreigner", "three")),
    Section("full", N_("Full tables"), (
        N_("A table with four clients is full: once scored, it leaves with every client touching it, and a new "
           "table card from the pile takes its place. You may go on playing cards in the same turn, up to three in "
           "all."),
    ), ("full",)),
    Section("end", N_("The end"), (
        N_("The game ends at once when a full table cannot be replaced because the table pile is too small, or "
           "when a player draws the last client card, or when a player who emptied their hand ends it."),
        N_("Each player then loses 2 points for every card in hand and every face-down card. The highest score "
           "wins; on a tie, fewer penalty points."),
    )),
    Section("variants", N_("Variant: tribe and little circle"), (
        N_("Play 2 to 4 cards so that one table ends your turn with four clients of one gender: four gentlemen are "
           "a tribe, four ladies a little circle. The balance of ladies and gentlemen is waived for these cards. "
           "The table scores 20, or 40 if all four are of its nation, then leaves like any full table."),
    ), ("circle",)),
)  # fmt: skip

SECTIONS: dict[str, tuple[Section, ...]] = {"board": BOARD, "cards": CARDS}


def page(edition: str, language: str) -> dict[str, Any]:
    """An edition's "How to play" in ``language``, as plain data: its title, and each section's title,
    paragraphs and examples (the turn tried, the caption, the drawing as SVG)."""
    return {
        "edition": edition,
        "language": language,
        "title": translate(TITLES[edition], language),
        "sections": [
            {
                "key": s.key,
                "title": translate(s.title, language),
                "paragraphs": [translate(p, language) for p in s.paragraphs],
                "examples": [shown(EXAMPLES[edition][key], language) for key in s.examples],
            }
            for s in SECTIONS[edition]
        ],
    }


def shown(example: Example, language: str) -> dict[str, str]:
    """An example as the café shows it: the turn tried, the caption, the drawing."""
    return {"key": example.key, "turn": example.turn, "caption": example.caption_in(language),
            "svg": examples.svg(example)}  # fmt: skip


def text(edition: str, language: str | None = None, width: int = 78) -> str:
    """An edition's "How to play" for a terminal: the same sections, the examples drawn as text."""
    title = translate(TITLES[edition], language)
    lines = [title, "=" * len(title)]
    for section in SECTIONS[edition]:
        heading = translate(section.title, language)
        lines += ["", heading, "-" * len(heading)]
        for paragraph in section.paragraphs:
            lines += [*textwrap.wrap(translate(paragraph, language), width), ""]
        for key in section.examples:
            example = EXAMPLES[edition][key]
            lines += [*textwrap.wrap(example.caption_in(language), width), "", examples.text(example), ""]
        while lines[-1] == "":
            lines.pop()
    return "\n".join(lines) + "\n"
