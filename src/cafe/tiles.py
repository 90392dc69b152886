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
            raise NotationError(f"unknown nation {code!r} (one of {', '.join(n.name for n in cls)})") from None


NATION_TITLES: dict[Nation, str] = {
    Nation.AFR: "Africa",
    Nation.CHN: "China",
    Nation.CUB: "Cuba",
    Nation.ESP: "Spain",
    Nation.FRA: "France",
    Nation.GBR: "Great Britain",
    Nation.GER: "Germany",
    Nation.IND: "India",
    Nation.ITA: "Italy",
    Nation.RUS: "Russia",
    Nation.TUR: "Turkey",
    Nation.USA: "USA",
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

    def describe(self) -> str:
        """Plain words for people: ``American gentleman``, ``joker lady``."""
        nation = self.nation
        who = "joker" if nation is None else ADJECTIVES[nation]
        return f"{who} {self.gender.word}"

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
            raise NotationError(f"unknown tile {code!r} (a nation code and f or m, like USAm or JOKf)") from None


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


T = TypeVar("T", Tile, Nation)


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
    items: Sequence[Any], parse: Callable[[Any], T], field: str, full: list[T], rule: str, what: str | None = None
) -> tuple[T, ...]:
    """A record's list (``bag``, ``deck``, ``table_cards``): every item parsed, and exactly the set ``full``.

    A bad item is reported as "not ``what``" when ``what`` is given, else in the parser's words;
    ``rule`` says what the whole list must be.
    """
    out: list[T] = []
    for i, item in enumerate(items):
        try:
            out.append(parse(item))
        except (CafeError, TypeError, ValueError) as exc:
            detail = exc.detail if isinstance(exc, CafeError) else str(exc)
            raise RecordError(f"{field}[{i}]: {detail if what is None else f'not {what}: {item!r}'}") from None
    if sorted(out) != sorted(full):
        wrong = [
            f"{x} {out.count(x)} times (the set has {full.count(x)})"
            for x in dict.fromkeys(full + out)
            if out.count(x) != full.count(x)
        ]
        raise RecordError(f"{rule}; it has {len(out)}: {'; '.join(wrong[:4])}")
    return tuple(out)


def remainder(items: list[T], taken: Iterable[T], message: str) -> list[T]:
    """``items`` without ``taken`` (a multiset difference); ``message`` (with ``{}`` for the item) if one is missing."""
    rest = list(items)
    for item in taken:
        if item not in rest:
            raise RecordError(message.format(item))
        rest.remove(item)
    return rest
