"""Nations, genders and tiles: the vocabulary both editions share.

A tile (a guest in the board game, a client card in the card game) is a small
integer: ``nation * 2 + gender`` for the 96 national tiles, 24 and 25 for the
lady and gentleman jokers.  :class:`Tile` is an ``IntEnum`` over those values,
so engine code can index lists with a tile while people see ``USAm``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from typing import Any, TypeVar

from cafe.errors import CafeError, NotationError, RecordError
from cafe.i18n import N_, T, Text


class Nation(IntEnum):
    """The twelve nations, in the order of their codes."""

    AFR = 0
    CHN = 1
    CUB = 2
    ESP = 3
    FRA = 4
    GBR = 5
    GER = 6
    IND = 7
    ITA = 8
    RUS = 9
    TUR = 10
    USA = 11

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Nation.{self.name}"

    @classmethod
    def parse(cls, code: str) -> Nation:
        """The nation with this three-letter code (exact, upper case)."""
        try:
            return cls[code]
        except KeyError:
            raise NotationError(
                T("unknown nation {code!r} (one of {codes})", code=code, codes=", ".join(n.name for n in cls))
            ) from None


NATION_TITLES: dict[Nation, str] = {  # in English; translate() them where people read them
    Nation.AFR: N_("Africa"),
    Nation.CHN: N_("China"),
    Nation.CUB: N_("Cuba"),
    Nation.ESP: N_("Spain"),
    Nation.FRA: N_("France"),
    Nation.GBR: N_("Great Britain"),
    Nation.GER: N_("Germany"),
    Nation.IND: N_("India"),
    Nation.ITA: N_("Italy"),
    Nation.RUS: N_("Russia"),
    Nation.TUR: N_("Turkey"),
    Nation.USA: N_("USA"),
}


class Gender(IntEnum):
    """A tile's printed gender; ``f`` is a lady, ``m`` a gentleman."""

    F = 0
    M = 1

    @property
    def word(self) -> str:
        return "lady" if self is Gender.F else "gentleman"


JOKER_F = 24
JOKER_M = 25
TILE_TYPES = 26


class Tile(IntEnum):
    """One of the 26 kinds of tile: 12 nations times 2 genders, and two jokers."""

    AFRf = 0
    AFRm = 1
    CHNf = 2
    CHNm = 3
    CUBf = 4
    CUBm = 5
    ESPf = 6
    ESPm = 7
    FRAf = 8
    FRAm = 9
    GBRf = 10
    GBRm = 11
    GERf = 12
    GERm = 13
    INDf = 14
    INDm = 15
    ITAf = 16
    ITAm = 17
    RUSf = 18
    RUSm = 19
    TURf = 20
    TURm = 21
    USAf = 22
    USAm = 23
    JOKf = JOKER_F
    JOKm = JOKER_M

    @property
    def is_joker(self) -> bool:
        return self >= JOKER_F

    @property
    def gender(self) -> Gender:
        return Gender(self & 1)

    @property
    def nation(self) -> Nation | None:
        """The printed nation; ``None`` for a joker."""
        return None if self >= JOKER_F else Nation(self >> 1)

    def words(self) -> Text:
        """Plain words for people, in any language: ``American gentleman``, ``joker lady``."""
        return T(TILE_WORDS[self])

    def subject(self) -> Text:
        """The tile as a sentence begins with it, in any language: ``The American gentleman``."""
        return T(TILE_SUBJECTS[self])

    def describe(self) -> str:
        """:meth:`words` in the active language."""
        return self.words().render()

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    @classmethod
    def of(cls, nation: Nation, gender: Gender) -> Tile:
        return cls(nation * 2 + gender)

    @classmethod
    def parse(cls, code: str) -> Tile:
        """The tile with this canonical code (``USAm``, ``JOKf``); strict."""
        try:
            return cls[code]
        except KeyError:
            raise NotationError(
                T("unknown tile {code!r} (a nation code and f or m, like USAm or JOKf)", code=code)
            ) from None


# The words of each tile (the board game's guests, the card game's clients are the same people).
TILE_WORDS: dict[Tile, str] = {
    Tile.AFRf: N_("African lady"),
    Tile.AFRm: N_("African gentleman"),
    Tile.CHNf: N_("Chinese lady"),
    Tile.CHNm: N_("Chinese gentleman"),
    Tile.CUBf: N_("Cuban lady"),
    Tile.CUBm: N_("Cuban gentleman"),
    Tile.ESPf: N_("Spanish lady"),
    Tile.ESPm: N_("Spanish gentleman"),
    Tile.FRAf: N_("French lady"),
    Tile.FRAm: N_("French gentleman"),
    Tile.GBRf: N_("British lady"),
    Tile.GBRm: N_("British gentleman"),
    Tile.GERf: N_("German lady"),
    Tile.GERm: N_("German gentleman"),
    Tile.INDf: N_("Indian lady"),
    Tile.INDm: N_("Indian gentleman"),
    Tile.ITAf: N_("Italian lady"),
    Tile.ITAm: N_("Italian gentleman"),
    Tile.RUSf: N_("Russian lady"),
    Tile.RUSm: N_("Russian gentleman"),
    Tile.TURf: N_("Turkish lady"),
    Tile.TURm: N_("Turkish gentleman"),
    Tile.USAf: N_("American lady"),
    Tile.USAm: N_("American gentleman"),
    Tile.JOKf: N_("joker lady"),
    Tile.JOKm: N_("joker gentleman"),
}

# A tile as a sentence begins with it, its article included ("The Cuban gentleman cannot take c12")
TILE_SUBJECTS: dict[Tile, str] = {
    Tile.AFRf: N_("The African lady"),
    Tile.AFRm: N_("The African gentleman"),
    Tile.CHNf: N_("The Chinese lady"),
    Tile.CHNm: N_("The Chinese gentleman"),
    Tile.CUBf: N_("The Cuban lady"),
    Tile.CUBm: N_("The Cuban gentleman"),
    Tile.ESPf: N_("The Spanish lady"),
    Tile.ESPm: N_("The Spanish gentleman"),
    Tile.FRAf: N_("The French lady"),
    Tile.FRAm: N_("The French gentleman"),
    Tile.GBRf: N_("The British lady"),
    Tile.GBRm: N_("The British gentleman"),
    Tile.GERf: N_("The German lady"),
    Tile.GERm: N_("The German gentleman"),
    Tile.INDf: N_("The Indian lady"),
    Tile.INDm: N_("The Indian gentleman"),
    Tile.ITAf: N_("The Italian lady"),
    Tile.ITAm: N_("The Italian gentleman"),
    Tile.RUSf: N_("The Russian lady"),
    Tile.RUSm: N_("The Russian gentleman"),
    Tile.TURf: N_("The Turkish lady"),
    Tile.TURm: N_("The Turkish gentleman"),
    Tile.USAf: N_("The American lady"),
    Tile.USAm: N_("The American gentleman"),
    Tile.JOKf: N_("The joker lady"),
    Tile.JOKm: N_("The joker gentleman"),
}

# A tile as the object of a sentence, its article included ("Kim seats the Chinese lady on bar stool 3")
TILE_OBJECTS: dict[Tile, str] = {
    Tile.AFRf: N_("the African lady"),
    Tile.AFRm: N_("the African gentleman"),
    Tile.CHNf: N_("the Chinese lady"),
    Tile.CHNm: N_("the Chinese gentleman"),
    Tile.CUBf: N_("the Cuban lady"),
    Tile.CUBm: N_("the Cuban gentleman"),
    Tile.ESPf: N_("the Spanish lady"),
    Tile.ESPm: N_("the Spanish gentleman"),
    Tile.FRAf: N_("the French lady"),
    Tile.FRAm: N_("the French gentleman"),
    Tile.GBRf: N_("the British lady"),
    Tile.GBRm: N_("the British gentleman"),
    Tile.GERf: N_("the German lady"),
    Tile.GERm: N_("the German gentleman"),
    Tile.INDf: N_("the Indian lady"),
    Tile.INDm: N_("the Indian gentleman"),
    Tile.ITAf: N_("the Italian lady"),
    Tile.ITAm: N_("the Italian gentleman"),
    Tile.RUSf: N_("the Russian lady"),
    Tile.RUSm: N_("the Russian gentleman"),
    Tile.TURf: N_("the Turkish lady"),
    Tile.TURm: N_("the Turkish gentleman"),
    Tile.USAf: N_("the American lady"),
    Tile.USAm: N_("the American gentleman"),
    Tile.JOKf: N_("the joker lady"),
    Tile.JOKm: N_("the joker gentleman"),
}

# The English adjectives, as a player may type them ("american gentleman h3").
ADJECTIVES: dict[Nation, str] = {
    Nation.AFR: "African",
    Nation.CHN: "Chinese",
    Nation.CUB: "Cuban",
    Nation.ESP: "Spanish",
    Nation.FRA: "French",
    Nation.GBR: "British",
    Nation.GER: "German",
    Nation.IND: "Indian",
    Nation.ITA: "Italian",
    Nation.RUS: "Russian",
    Nation.TUR: "Turkish",
    Nation.USA: "American",
}

# Plain-int lookups for the hot paths (an IntEnum property costs a call).
TILE_GENDER: tuple[int, ...] = tuple(t & 1 for t in range(TILE_TYPES))
TILE_NATION: tuple[int, ...] = tuple(t >> 1 if t < JOKER_F else -1 for t in range(TILE_TYPES))
TILES: tuple[Tile, ...] = tuple(Tile)
NATIONS: tuple[Nation, ...] = tuple(Nation)


def full_set(jokers: bool = True) -> list[Tile]:
    """Every tile of the game once per copy: 4 of each national tile (+ 2 of each joker)."""
    tiles = [t for t in TILES if not t.is_joker for _ in range(4)]
    if jokers:
        tiles += [Tile.JOKf, Tile.JOKf, Tile.JOKm, Tile.JOKm]
    return tiles


Item = TypeVar("Item", Tile, Nation)


def as_tile(item: Tile | str) -> Tile:
    """A tile from its code, or the tile itself."""
    if isinstance(item, Tile):
        return item
    if isinstance(item, str):
        return Tile.parse(item)
    raise TypeError(f"a tile code such as 'USAm', not {item!r}")


def as_nation(item: Nation | str) -> Nation:
    """A nation from its code, or the nation itself."""
    if isinstance(item, Nation):
        return item
    if isinstance(item, str):
        return Nation.parse(item)
    raise TypeError(f"a nation code such as 'USA', not {item!r}")


def read_set(
    items: Sequence[Any], parse: Callable[[Any], Item], field: str, full: list[Item], rule: str, what: str | None = None
) -> tuple[Item, ...]:
    """A record's list (``bag``, ``deck``, ``table_cards``): every item parsed, and exactly the set ``full``.

    A bad item is reported as "not ``what``" when ``what`` is given, else in the parser's words;
    ``rule`` says what the whole list must be (both are catalog messages).
    """
    out: list[Item] = []
    for i, item in enumerate(items):
        try:
            out.append(parse(item))
        except (CafeError, TypeError, ValueError) as exc:
            detail = exc.text if isinstance(exc, CafeError) else str(exc)
            problem = detail if what is None else T("not {what}: {item!r}", what=T(what), item=item)
            raise RecordError(T("{field}[{i}]: {problem}", field=field, i=i, problem=problem)) from None
    if sorted(out) != sorted(full):
        wrong = [
            T("{item} {n} times (the set has {full})", item=str(x), n=out.count(x), full=full.count(x))
            for x in dict.fromkeys(full + out)
            if out.count(x) != full.count(x)
        ]
        raise RecordError(T("{rule}; it has {n}: {wrong}", rule=T(rule), n=len(out), wrong=tuple(wrong[:4])))
    return tuple(out)


def remainder(items: list[Item], taken: Iterable[Item], message: str) -> list[Item]:
    """``items`` without ``taken`` (a multiset difference); ``message`` (with ``{item}``) if one is missing."""
    rest = list(items)
    for item in taken:
        if item not in rest:
            raise RecordError(T(message, item=str(item)))
        rest.remove(item)
    return rest
