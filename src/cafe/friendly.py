"""A forgiving input form for people, on top of the canonical notation.

Accepts, case-insensitively: the canonical form (``usam@h3``), or words in any
order: a nation (code, country or adjective), a gender (lady, woman, f;
gentleman, man, m), a chair or ``bar``, ``joker``, ``exchange``/``swap``,
``down`` (the card game's lay face down), and for a joker the nation it is
given (``joker lady i2 usa``).

>>> str(parse_friendly("American lady h1"))
'USAf@h1'
>>> str(parse_friendly("joker gentleman i2 as usa"))
'JOKm@i2=USA'
>>> str(parse_friendly("swap usa lady i2"))
'USAf~i2'
>>> str(parse_friendly("lay down a french lady"))
'down:FRAf'
"""

from __future__ import annotations

import re

from cafe.errors import NotationError
from cafe.i18n import T
from cafe.steps import Kind, Step, parse_step
from cafe.tiles import ADJECTIVES, NATION_TITLES, Gender, Nation, Tile

_NATION_WORDS: dict[str, Nation] = {}
for _n in Nation:
    _NATION_WORDS[_n.name.lower()] = _n
    _NATION_WORDS[ADJECTIVES[_n].lower()] = _n
    _NATION_WORDS[NATION_TITLES[_n].lower().replace(" ", "")] = _n
_NATION_WORDS.update({"america": Nation.USA, "us": Nation.USA, "english": Nation.GBR, "britain": Nation.GBR,
                      "uk": Nation.GBR, "england": Nation.GBR, "african": Nation.AFR})  # fmt: skip
_GENDER_WORDS = {
    "lady": Gender.F, "ladies": Gender.F, "woman": Gender.F, "women": Gender.F, "female": Gender.F, "f": Gender.F,
    "gentleman": Gender.M, "gentlemen": Gender.M, "gent": Gender.M, "man": Gender.M, "men": Gender.M,
    "male": Gender.M, "m": Gender.M,
}  # fmt: skip
_FILLER = {"a", "an", "the", "at", "on", "to", "in", "chair", "seat", "as", "for", "with", "of", "put", "play"}
_CHAIR_RE = re.compile(r"^[a-z][1-9][0-9]?$")
_CANONICAL_LOWER = re.compile(r"^[a-z]{3}[fm]([@~].*)?$")


def parse_friendly(text: str) -> Step:
    """Read a step written loosely by a person; raise :class:`NotationError` saying what is missing."""
    raw = text.strip()
    if not raw:
        raise NotationError(T("nothing to read: type a step such as 'USAm@h3' or 'american gentleman h3'"))
    words = raw.lower().replace(",", " ").replace("great britain", "greatbritain").split()
    if len(words) == 1 and words[0] in ("pass", "stop", "draw", "close"):
        return parse_step(words[0])
    if len(words) == 1 and _CANONICAL_LOWER.match(words[0]):
        return parse_step(_canonical_case(words[0]))
    nation: Nation | None = None  # the guest's nation, or the nation a joker is given
    gender: Gender | None = None
    chair: str | None = None
    joker = exchange = bar = down = False
    for word in words:
        if word in _FILLER:
            continue
        if word in ("joker", "jok"):
            joker = True
        elif word in ("exchange", "swap", "replace"):
            exchange = True
        elif word == "bar":
            bar = True
        elif word in ("down", "lay", "face-down", "facedown"):
            down = True
        elif word in _GENDER_WORDS and gender is None:
            gender = _GENDER_WORDS[word]
        elif word in _NATION_WORDS:
            if nation is not None:
                raise NotationError(T("{raw!r} names two nations", raw=raw))
            nation = _NATION_WORDS[word]
        elif _CHAIR_RE.match(word):
            chair = word
        elif len(word) == 4 and word[:3] in _NATION_WORDS and word[3] in "fm":
            nation, gender = _NATION_WORDS[word[:3]], _GENDER_WORDS[word[3]]
        else:
            raise NotationError(T("did not understand {word!r} in {raw!r}", word=word, raw=raw))
    if gender is None:
        raise NotationError(T("{raw!r}: say lady or gentleman", raw=raw))
    if joker:
        tile = Tile.JOKf if gender is Gender.F else Tile.JOKm
    else:
        if nation is None:
            raise NotationError(T("{raw!r}: say which nation (for example 'american' or 'USA')", raw=raw))
        tile = Tile.of(nation, gender)
    if bar:
        return Step(Kind.BAR, tile)
    if down:
        return Step(Kind.DOWN, tile)
    if chair is None:
        raise NotationError(T("{raw!r}: say which chair (like h3) or 'bar'", raw=raw))
    if exchange:
        return Step(Kind.EXCHANGE, tile, chair)
    if joker:
        if nation is None:
            raise NotationError(T("{raw!r}: say which nation the joker takes (for example 'as usa')", raw=raw))
        return Step(Kind.SEAT, tile, chair, nation)
    return Step(Kind.SEAT, tile, chair)


def _canonical_case(word: str) -> str:
    """``usam@h3=usa`` -> ``USAm@h3=USA``."""
    head, sep, rest = word.partition("@") if "@" in word else word.partition("~")
    rest, eq, given = rest.partition("=")
    return head[:3].upper() + head[3] + sep + rest + (eq + given.upper() if eq else "")
