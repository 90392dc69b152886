"""Steps and their canonical notation (RULES.md §7.1).

A :class:`Step` is context-free, like python-chess's ``Move``: it names a tile
and a chair (or place) by their codes, never by engine indices, so
``Step.parse(str(step)) == step`` holds without a board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cafe.errors import JokerWithoutNationError, NotationError
from cafe.frozen import rebuilt
from cafe.i18n import T
from cafe.tiles import Nation, Tile


class Kind(StrEnum):
    SEAT = "seat"  # a guest on a chair (board) or a client on a place (cards)
    BAR = "bar"
    EXCHANGE = "exchange"
    STOP = "stop"
    PASS = "pass"
    DRAW = "draw"
    DOWN = "down"
    CLOSE = "close"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a turn.  Build with the class methods or :meth:`parse`."""

    kind: Kind
    tile: Tile | None = None
    place: str | None = None
    nation: Nation | None = None

    @classmethod
    def seat(cls, tile: Tile, place: str, nation: Nation | None = None) -> Step:
        return cls(Kind.SEAT, tile, place, nation)

    @classmethod
    def bar(cls, tile: Tile) -> Step:
        return cls(Kind.BAR, tile)

    @classmethod
    def exchange(cls, tile: Tile, chair: str) -> Step:
        return cls(Kind.EXCHANGE, tile, chair)

    @classmethod
    def parse(cls, text: str) -> Step:
        """Parse one step in the strict canonical form."""
        return parse_step(text)

    def __str__(self) -> str:
        return format_step(self)

    def __repr__(self) -> str:
        return f"Step({format_step(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


STOP = Step(Kind.STOP)
PASS = Step(Kind.PASS)
DRAW = Step(Kind.DRAW)
CLOSE = Step(Kind.CLOSE)
_WORDS = {"stop": STOP, "pass": PASS, "draw": DRAW, "close": CLOSE}

_STEP_RE = re.compile(r"^([A-Z]{3}[fm])(?:(@)(bar|[a-z][1-9][0-9]?)(?:=([A-Z]{3}))?|(~)([a-z][1-9][0-9]?))$")


def format_step(step: Step) -> str:
    """The canonical text of a step."""
    kind = step.kind
    if kind in (Kind.STOP, Kind.PASS, Kind.DRAW, Kind.CLOSE):
        return kind.value
    tile = step.tile
    if tile is None:
        raise NotationError(T("a {kind} step needs a tile", kind=kind.value))
    if kind is Kind.DOWN:
        return f"down:{tile.name}"
    if kind is Kind.BAR:
        return f"{tile.name}@bar"
    if kind is Kind.EXCHANGE:
        return f"{tile.name}~{step.place}"
    text = f"{tile.name}@{step.place}"
    return f"{text}={step.nation.name}" if step.nation is not None else text


def parse_step(text: object) -> Step:
    """Parse one canonical step: ``USAm@h3``, ``JOKf@i2=USA``, ``GERf@bar``, ``USAf~i2``, ``pass`` ...

    ``text`` may be anything a message or a file held: what is not text is refused in words, compiled or not
    (a ``str`` parameter would make the compiled engine raise TypeError before the check)."""
    if not isinstance(text, str):
        raise NotationError(T("a step must be text, not {type}", type=type(text).__name__))
    word = _WORDS.get(text)
    if word is not None:
        return word
    if text.startswith("down:"):
        return Step(Kind.DOWN, Tile.parse(text[5:]))
    m = _STEP_RE.match(text)
    if m is None:
        raise NotationError(
            T("cannot read step {text!r} (examples: USAm@h3, JOKf@i2=USA, GERf@bar, USAf~i2, pass)", text=text)
        )
    code, _at, target, nation, tilde, chair = m.groups()
    tile = Tile.parse(code)
    if tilde:
        return Step(Kind.EXCHANGE, tile, chair)
    if target == "bar":
        if nation is not None:
            raise NotationError(T("{text!r}: a guest at the bar takes no nation", text=text))
        return Step(Kind.BAR, tile)
    if tile.is_joker and nation is None:
        raise JokerWithoutNationError(
            T(
                "{text!r}: a joker names its given nation, like {code}@{target}=USA",
                text=text,
                code=code,
                target=target,
            ),
            tile,
            target,
        )
    if not tile.is_joker and nation is not None:
        raise NotationError(T("{text!r}: only a joker is given a nation", text=text))
    return Step(Kind.SEAT, tile, target, Nation.parse(nation) if nation else None)


def parse_turn(text: str) -> list[Step]:
    """Parse a turn string: steps joined by commas, no spaces; ``stop`` is never written."""
    if not isinstance(text, str) or not text:
        raise NotationError(T("a turn must be a non-empty string of steps joined by commas"))
    steps = [parse_step(part) for part in text.split(",")]
    if STOP in steps:
        raise NotationError(T("{text!r}: a turn string omits 'stop'; the turn simply ends", text=text))
    return steps


def format_turn(steps: list[Step] | tuple[Step, ...]) -> str:
    """Join a turn's steps, leaving out ``stop``."""
    return ",".join(format_step(s) for s in steps if s.kind is not Kind.STOP)
