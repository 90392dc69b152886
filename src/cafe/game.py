"""What both editions share: a position with its history, undo, turns in notation, and the ranking.

An edition subclasses :class:`SteppedGame` and provides ``check``,
``random_step``, ``_generate`` (the legal steps), ``_apply_step`` (change a
fresh state copy and say what happened) and ``places``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from cafe.errors import IllegalStepError, RecordError
from cafe.i18n import T, Text
from cafe.options import BoardRules, CardRules, rules_to_json
from cafe.steps import STOP, Step, format_turn, parse_step, parse_turn
from cafe.tiles import TILES, Tile, as_tile

# The gender rule of both editions (RULES.md §2.3 rule 2, §4.2): may a table hold (ladies, gentlemen)?
GENDER_OK = tuple(
    tuple(ladies <= 2 and gents <= 2 and abs(ladies - gents) <= 1 for gents in range(6)) for ladies in range(6)
)


class Violation(IllegalStepError):
    """An illegal step, with the rule id it breaks."""

    def __init__(self, rule: str, message: Text) -> None:
        super().__init__(message, rule)


def gender_problem(ladies: int, gents: int, table: str) -> Text:
    """What breaks the gender rule when ``table`` would hold so many ladies and gentlemen."""
    if ladies > 2:
        return T("three ladies at {table}", table=table)
    if gents > 2:
        return T("three gentlemen at {table}", table=table)
    if ladies > gents:
        return T("two ladies and no gentleman at {table}", table=table)
    return T("two gentlemen and no lady at {table}", table=table)


class StepResult(NamedTuple):
    """What one step did.  ``points`` includes a score given once at the end of a turn (regulars, tribes)."""

    step: Step
    player: int
    points: int = 0
    table_points: tuple[tuple[str, int], ...] = ()
    completed: tuple[str, ...] = ()  # tables completed: single-nation (board game) or full and removed (cards)
    hand_size_change: int = 0
    eliminated: bool = False
    turn_over: bool = False
    drawn: int = 0
    game_over: bool = False


G = TypeVar("G", bound="SteppedGame[Any, Any]")


class GameState(Protocol):
    """What both editions' states have, and what this module uses of them."""

    hands: list[list[int]]  # seat -> count per tile id
    hand_n: list[int]
    scores: list[int]
    current: int
    turn_no: int  # turns completed
    over: bool
    end_reason: str | None  # a key of the edition's END_REASONS once over
    penalties: list[int] | None
    legal: list[Step] | None  # cached legal steps

    def copy(self: StateT) -> StateT: ...

    def clear_caches(self) -> None: ...


StateT = TypeVar("StateT", bound=GameState)
RulesT = TypeVar("RulesT", BoardRules, CardRules)


class SteppedGame(Generic[StateT, RulesT]):
    """A position and its history.  Steps are pushed and popped, like moves in python-chess."""

    END_REASONS: ClassVar[dict[str, str]] = {}
    players: tuple[str, ...]
    rules: RulesT
    _s: StateT

    def _start_history(self) -> None:
        self._stack: list[Any] = []  # earlier states, for pop
        self._results: list[StepResult] = []
        self._turn_ends: list[int] = []  # per completed turn: how many results there were at its end
        self._turn_text: list[str] = []  # the completed turns' notation, formatted on demand

    # ------------------------------------------------------------------ for the edition to provide

    def check(self, step: Step) -> None:
        """Raise :class:`IllegalStepError` (with its rule id) unless ``step`` is legal now."""
        raise NotImplementedError

    def random_step(self, rng: random.Random) -> Step:
        """A uniformly random legal step."""
        raise NotImplementedError

    def best_step(self, rng: random.Random) -> Step:
        """A legal step scoring most at once, ties at random (the search's rollout policy)."""
        raise NotImplementedError

    def places(self) -> tuple[int, ...] | None:
        """Each seat's place (1 = first; shared places repeat) once the game is over."""
        raise NotImplementedError

    def view(self, seat: int | None = None) -> Any:
        """What ``seat`` may see (None: a spectator)."""
        raise NotImplementedError

    def _blank(self: G) -> G:
        """A game sharing this one's unchanging parts (players, rules, board, the bag's order ...), nothing dealt:
        :meth:`copy` then gives it the position and history.  (Made by the constructor: compiled with mypyc,
        ``cls.__new__(cls)`` runs ``__init__`` too, which would deal a whole game for every copy.)"""
        raise NotImplementedError

    def _generate(self, s: Any) -> list[Step]:
        raise NotImplementedError

    def _change_hand(self, s: StateT, seat: int, tile: int, by: int) -> None:
        """Add ``by`` tiles (cards) of a kind to a hand, in a changed copy: a state shares its hands with its copies."""
        hand = s.hands[seat].copy()
        hand[tile] += by
        s.hands[seat] = hand
        s.hand_n[seat] += by

    def _apply_step(self, s: Any, step: Step, player: int) -> StepResult:
        raise NotImplementedError

    # ------------------------------------------------------------------ reading the position

    @property
    def state(self) -> Any:
        """The raw state (read-only by convention; engine internals and tests use it)."""
        return self._s

    @property
    def current_player(self) -> int:
        return int(self._s.current)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._s.scores)

    @property
    def turn_number(self) -> int:
        """Turns completed so far."""
        return int(self._s.turn_no)

    @property
    def results(self) -> tuple[StepResult, ...]:
        """What every step so far did, in order."""
        return tuple(self._results)

    def hand(self, seat: int) -> list[Tile]:
        """The tiles (or cards) in a seat's hand, sorted."""
        return [TILES[t] for t, count in enumerate(self._s.hands[seat]) for _ in range(count)]

    def is_over(self) -> bool:
        return bool(self._s.over)

    @property
    def end_reason(self) -> str | None:
        """Why the game ended, in words, or None while it goes on."""
        reason = self._s.end_reason
        return None if reason is None else self.END_REASONS[reason]

    def legal_steps(self) -> list[Step]:
        """Every step the current player may take now (cached until the position changes)."""
        s = self._s
        if s.legal is None:
            s.legal = [] if s.over else self._generate(s)
        legal: list[Step] = s.legal
        return legal

    def is_legal(self, step: Step) -> bool:
        try:
            self.check(step)
        except IllegalStepError:
            return False
        return True

    def __repr__(self) -> str:
        mover = self.players[self.current_player]
        state = "over" if self.is_over() else f"turn {self.turn_number + 1}, {mover} to move"
        scores = ", ".join(f"{name} {score}" for name, score in zip(self.players, self._s.scores, strict=True))
        return f"<{type(self).__name__} {state}: {scores}>"

    def seen_step(self, text: str, player: int, seat: int | None) -> str:
        """A step (or turn) of ``player`` as ``seat`` sees it: another's face-down card is only 'down' until the
        card game ends (RULES.md §5); everything else is open."""
        if text.startswith("down:") and player != seat and not self.is_over():
            return "down"
        return text

    def _view_fields(self, seat: int | None, shown: list[bool], turns: tuple[str, ...]) -> dict[str, Any]:
        """The fields every edition's view has (:class:`cafe.view.GameView`); ``shown`` says whose hands ``seat``
        sees."""
        s = self._s
        return {
            "seat": seat,
            "players": self.players,
            "rules": rules_to_json(self.rules),
            "hands": tuple(tuple(self.hand(p)) if shown[p] else None for p in range(len(self.players))),
            "hand_counts": tuple(s.hand_n),
            "scores": tuple(s.scores),
            "penalties": self.penalties(),
            "current_player": s.current,
            "turn_number": s.turn_no,
            "this_turn": tuple(str(step) for step in self.this_turn()),
            "turns": turns,
            "over": s.over,
            "end_reason": self.end_reason,
            "winner": self.winner(),
        }

    # ------------------------------------------------------------------ making moves

    def push(self, step: Step | str, *, check: bool = True) -> StepResult:
        """Check and apply one step; return what it did.  Undo with :meth:`pop`.

        ``check=False`` skips the legality check, for steps that come from
        :meth:`legal_steps` or :meth:`random_step` of this very position
        (simulations); any other step would corrupt the game.
        """
        if isinstance(step, str):
            step = parse_step(step)
        if check and not self._listed_as_legal(step):
            self.check(step)
        return self._apply(step)

    def _listed_as_legal(self, step: Step) -> bool:
        """Whether ``step`` is one of the legal steps already listed for this position (the very object: a
        caller choosing from :meth:`legal_steps` needs no second check)."""
        legal = self._s.legal
        return legal is not None and any(listed is step for listed in legal)

    def push_turn(self, turn: str) -> list[StepResult]:
        """Apply a whole turn string (``USAm@i2,USAf@g2``), adding the implied ``stop``.

        The position is unchanged if any step of the turn is illegal.
        """
        steps = parse_turn(turn)
        done = len(self._stack)
        results: list[StepResult] = []
        try:
            for i, step in enumerate(steps):
                if i and results[-1].turn_over:
                    raise Violation("R2.2", T("the turn is over before '{step}'", step=str(step)))
                results.append(self.push(step))
            if not results[-1].turn_over:
                results.append(self.push(STOP))
        except IllegalStepError:
            while len(self._stack) > done:
                self.pop()
            raise
        return results

    def pop(self) -> Step:
        """Undo the last step and return it."""
        if not self._stack:
            raise IndexError("pop from a game with no steps")
        self._s = self._stack.pop()
        result = self._results.pop()
        if result.turn_over:
            self._turn_ends.pop()
            del self._turn_text[len(self._turn_ends) :]  # a turn taken again may differ
        return result.step

    def copy(self: G) -> G:
        """An independent game at the same position with the same history (undo works on either)."""
        other = self._blank()
        other._s = self._s.copy()
        other._stack = self._stack.copy()  # states on the stack are never changed again
        other._results = self._results.copy()
        other._turn_ends = self._turn_ends.copy()
        other._turn_text = self._turn_text.copy()
        return other

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        return self.copy()  # what the game shares with its copy (board, rules, past states) never changes

    def playout(self, rng: random.Random) -> tuple[int, ...]:
        """Play to the end with uniformly random steps and return the final scores; the game is unchanged.

        The fast path for Monte Carlo simulations: a scratch copy of the
        position is played on without keeping an undo history.
        """
        saved = self._s
        self._s = saved.copy()
        try:
            while not self._s.over:
                self._apply(self.random_step(rng), undo=False)
            return tuple(self._s.scores)
        finally:
            self._s = saved

    def simulate(self, step: Step) -> StepResult:
        """Apply a step taken from :meth:`legal_steps` in place, keeping no history (for search).

        Like a step of :meth:`playout`: no check, no undo, and :meth:`turns`
        and :meth:`this_turn` do not see it.  Work on a :meth:`copy`.
        """
        return self._apply(step, undo=False)

    def step_points(self, step: Step) -> int:
        """What a legal step would score at once (0 for steps that do not score)."""
        raise NotImplementedError

    def _apply(self, step: Step, undo: bool = True) -> StepResult:
        """Apply a legal step.  With ``undo`` (always, but in playouts) the old state is kept for pop."""
        if undo:
            old = self._s
            s = old.copy()
            self._stack.append(old)
            self._s = s
        else:
            s = self._s
            s.clear_caches()
        result = self._apply_step(s, step, s.current)
        if undo:
            self._results.append(result)
            if result.turn_over:
                self._turn_ends.append(len(self._results))
        return result

    # ------------------------------------------------------------------ history and results

    def turns(self) -> list[str]:
        """The turns taken so far, in notation (a turn in progress is not included)."""
        ends, text, results = self._turn_ends, self._turn_text, self._results
        for i in range(len(text), len(ends)):
            text.append(format_turn([r.step for r in results[ends[i - 1] if i else 0 : ends[i]]]))
        return list(text)

    def can_take_back(self) -> bool:
        """Whether a player may take the last step back in play: it belongs to the turn in progress and showed
        nothing hidden (drew nothing), so that undoing it gives no one an advantage."""
        return bool(self._results) and not self._results[-1].turn_over and not self._revealed(self._results[-1])

    def _revealed(self, result: StepResult) -> bool:
        """Whether a step showed something hidden before (a draw)."""
        return result.drawn > 0

    def this_turn(self) -> list[Step]:
        """The steps of the turn in progress."""
        start = self._turn_ends[-1] if self._turn_ends else 0
        return [r.step for r in self._results[start:]]

    def turn_points(self) -> list[int]:
        """What each completed turn gained, in order."""
        out: list[int] = []
        total = 0
        for r in self._results:
            total += r.points
            if r.turn_over:
                out.append(total)
                total = 0
        return out

    def penalties(self) -> tuple[int, ...]:
        """End-of-game penalties per seat (zeros before the end)."""
        return tuple(self._s.penalties or [0] * len(self.players))

    def winner(self) -> int | None:
        """The seat (from 0) of the sole first place; None before the end or on a shared first place."""
        places = self.places()
        if places is None or places.count(1) != 1:
            return None
        return places.index(1)


def seat_names(players: Sequence[str] | int, edition: str, low: int, high: int) -> tuple[str, ...]:
    """The players' names (or "Player 1" ... for a count), checked against the edition's numbers."""
    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    if not low <= len(names) <= high:
        raise RecordError(players_problem(edition, low, high, len(names)))
    return tuple(names)


def players_problem(edition: str, low: int, high: int, n: int) -> Text:
    """Why ``n`` players cannot play the edition (``board`` or ``cards``)."""
    if edition == "board":
        return T("the board game takes {low} to {high} players, not {n}", low=low, high=high, n=n)
    return T("the card game takes {low} to {high} players, not {n}", low=low, high=high, n=n)


def fill_hands(s: Any, hands: Sequence[Sequence[Tile | str]]) -> list[Tile]:
    """Put one hand per player into a fresh state's ``hands``/``hand_n``; return the tiles used."""
    if len(hands) != len(s.hands):
        raise RecordError(T("give one hand per player ({players}), not {n}", players=len(s.hands), n=len(hands)))
    used: list[Tile] = []
    for seat, hand in enumerate(hands):
        for tile in map(as_tile, hand):
            s.hands[seat][tile] += 1
            s.hand_n[seat] += 1
            used.append(tile)
    return used


V = TypeVar("V")


def random_order(total: int, rng: random.Random) -> Iterator[int]:
    """0 .. total-1 in a uniformly random order, drawn lazily: a Fisher-Yates shuffle that records only the swaps
    it made, so that the first few cost little however many there are (random_step tries candidates so)."""
    swapped: dict[int, int] = {}
    for j in range(total):
        r = j + int(rng.random() * (total - j))  # uniform to 2**-53, and far cheaper than randrange
        yield swapped.get(r, r)
        swapped[r] = swapped.get(j, j)


def with_item(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    """``values`` with one item replaced (the states keep what changes seldom in tuples)."""
    return (*values[:index], value, *values[index + 1 :])


def rank(seats: Sequence[int], key: Sequence[tuple[int, ...]]) -> dict[int, int]:
    """Places 1, 2, ... for ``seats`` sorted by ``key[seat]`` (smaller first); equal keys share a place."""
    order = sorted(seats, key=lambda p: key[p])
    places: dict[int, int] = {}
    for i, p in enumerate(order):
        places[p] = places[order[i - 1]] if i and key[p] == key[order[i - 1]] else i + 1
    return places
