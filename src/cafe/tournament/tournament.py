"""A tournament as the café runs it: pair a round, hand each table its deal, record the games, withdraw entries,
read the standings, and store the whole of it as JSON."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cafe.errors import RulesError
from cafe.i18n import T
from cafe.options import make_rules
from cafe.tournament.league import match_over
from cafe.tournament.model import COMPARE, FORMATS, Entry, GameResult, Round, Settings, Table, TournamentError
from cafe.tournament.pairing import meetings, seat_order, swiss_tables
from cafe.tournament.schedule import round_robin
from cafe.tournament.seeds import deal_seed, lot
from cafe.tournament.standings import Standing, standings

EDITIONS = ("board", "cards")
TABLE_SIZES = range(2, 5)
MOST_ENTRIES = 500  # the pairing's search goes one call deeper per entry seated
STATE_VERSION = 1


class Tournament:
    """Settings, entries and the rounds played so far; everything else is recomputed from them."""

    def __init__(self, settings: Settings, entries: list[Entry], rounds: list[Round] | None = None) -> None:
        _check_settings(settings, entries)
        self.settings = settings
        self.entries = list(entries)
        self.rounds = list(rounds or [])
        for number, played in enumerate(self.rounds, start=1):
            _check_round(played, number, {entry.id for entry in entries})

    # the rounds

    @property
    def planned_rounds(self) -> int:
        if self.settings.format == "swiss":
            return self.settings.rounds
        return len(self._schedule())

    def is_over(self) -> bool:
        """All rounds played, or (in Swiss) fewer than two entries left to pair."""
        if self.rounds and not self.round_finished(self.rounds[-1].number):
            return False
        return len(self.rounds) >= self.planned_rounds or (self.settings.format == "swiss" and len(self._active()) < 2)

    def round_finished(self, number: int) -> bool:
        played = self._round(number)
        return all(self.next_game(number, table) is None for table in range(1, len(played.tables) + 1))

    def pair(self) -> Round:
        """Seat the next round (the last must be finished) and return it."""
        if self.is_over():
            raise TournamentError(T("the tournament is over: no round is left to pair"))
        if self.rounds and not self.round_finished(self.rounds[-1].number):
            raise TournamentError(T("round {round} is not finished yet", round=self.rounds[-1].number))
        number = len(self.rounds) + 1
        active = self._active()
        if self.settings.format == "swiss":
            order = [row.entry for row in self.standings() if row.entry in active]
            met = meetings([table.seats for played in self.rounds for table in played.tables])
            groups = swiss_tables(order, self.settings.table_size, met)
        else:
            scheduled = [[entry for entry in table if entry in active] for table in self._schedule()[number - 1]]
            groups = [table for table in scheduled if len(table) >= 2]  # a withdrawn entry's partner sits out
        starts = Counter(table.seats[0] for played in self.rounds for table in played.tables)
        lots = {entry: lot(self.settings.seed, entry, number) for entry in active}
        played = Round(number, [Table(tuple(seat_order(group, starts, lots))) for group in groups])
        self.rounds.append(played)
        return played

    def deal_seed(self, round_number: int, game: int = 1) -> int:
        """The seed every table of the round plays game ``game`` with: the same bag (or deck and table cards) at
        every table.  Secret, as a room's seed: it fixes the order of the bag."""
        self._round(round_number)
        return deal_seed(self.settings.seed, round_number, game)

    def next_game(self, round_number: int, table_number: int) -> int | None:
        """The number of the game the table plays next (from 1), or ``None`` once its play in the round is over."""
        table = self._table(round_number, table_number)
        if self.settings.format == "league":
            return None if table.games and match_over(table) else len(table.games) + 1
        return None if table.games else 1

    def seats(self, round_number: int, table_number: int, game: int) -> tuple[str, ...]:
        """Who sits where in game ``game`` of the table (seat 1 first, and begins): the order the café seats the
        game's players in and gives its result in."""
        return self._table(round_number, table_number).order(game)

    def record(self, round_number: int, table_number: int, result: GameResult) -> None:
        """Record the table's next game, seat by seat in the order of :meth:`seats` (see :class:`GameResult` for
        forfeits)."""
        table = self._table(round_number, table_number)
        if self.next_game(round_number, table_number) is None:
            raise TournamentError(
                T("table {table} of round {round} has finished", table=table_number, round=round_number)
            )
        result.check(len(table.seats))
        table.games.append(result)

    def withdraw(self, entry: str) -> None:
        """Take the entry out of every round not yet paired (the café records the games of the current round it
        does not play as its forfeits)."""
        index = self._entry_index(entry)
        if self.entries[index].withdrawn is not None:
            raise TournamentError(T("{entry} has already withdrawn", entry=self.entries[index].name))
        old = self.entries[index]
        self.entries[index] = Entry(old.id, old.name, len(self.rounds) + 1)

    def standings(self) -> list[Standing]:
        return standings(self.settings, self.entries, self.rounds)

    # storing

    def to_json(self) -> dict[str, Any]:
        """The whole state, the seed with it: for the café's store, never for a player (the seed fixes every bag)."""
        return {
            "version": STATE_VERSION,
            "settings": self.settings.to_json(),
            "entries": [entry.to_json() for entry in self.entries],
            "rounds": [played.to_json() for played in self.rounds],
        }

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        """A tournament from its stored state; a state that is not one is refused with a message, never half read."""
        try:
            if data["version"] != STATE_VERSION:
                raise TournamentError(
                    T("a tournament's stored state of version {version} cannot be read", version=data["version"])
                )
            settings = Settings.from_json(data["settings"])
            entries = [Entry.from_json(entry) for entry in data["entries"]]
            rounds = [Round.from_json(played) for played in data["rounds"]]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, TournamentError):
                raise
            raise TournamentError(T("the tournament's stored state is malformed")) from error
        return cls(settings, entries, rounds)

    # helpers

    def _active(self) -> set[str]:
        """The entries to pair in the next round."""
        number = len(self.rounds) + 1
        return {entry.id for entry in self.entries if entry.withdrawn is None or entry.withdrawn > number}

    def _schedule(self) -> list[list[list[str]]]:
        order = sorted((entry.id for entry in self.entries), key=lambda entry: lot(self.settings.seed, entry))
        return round_robin(order, self.settings.table_size)

    def _round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(T("there is no round {round}", round=number))
        return self.rounds[number - 1]

    def _table(self, round_number: int, table_number: int) -> Table:
        played = self._round(round_number)
        if not 1 <= table_number <= len(played.tables):
            raise TournamentError(
                T("there is no table {table} in round {round}", table=table_number, round=round_number)
            )
        return played.tables[table_number - 1]

    def _entry_index(self, entry: str) -> int:
        for index, known in enumerate(self.entries):
            if known.id == entry:
                return index
        raise TournamentError(T("{entry} is not an entry of the tournament", entry=entry))


def _check_settings(settings: Settings, entries: list[Entry]) -> None:
    numbers = (settings.seed, settings.table_size, settings.rounds)
    withdrawn = [entry.withdrawn for entry in entries if entry.withdrawn is not None]
    if not all(type(number) is int for number in (*numbers, *withdrawn)):
        raise TournamentError(T("the tournament's stored state is malformed"))
    if settings.format not in FORMATS:
        raise TournamentError(T("unknown tournament format {format}", format=settings.format))
    if settings.edition not in EDITIONS:
        raise TournamentError(T("unknown edition {edition!r} (board or cards)", edition=settings.edition))
    try:
        make_rules(settings.edition, settings.rules)
    except RulesError as error:
        raise TournamentError(error.text) from error
    if settings.compare not in COMPARE:
        raise TournamentError(T("match points compare a score or a margin, not {compare}", compare=settings.compare))
    ids = [entry.id for entry in entries]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise TournamentError(T("a tournament needs two entries at least, each once"))
    if len(ids) > MOST_ENTRIES:
        raise TournamentError(T("a tournament takes {most} entries at most", most=MOST_ENTRIES))
    if settings.table_size not in TABLE_SIZES:
        raise TournamentError(T("tables seat 2 to 4 players, not {size}", size=settings.table_size))
    if settings.format == "swiss" and settings.rounds < 1:
        raise TournamentError(T("a Swiss tournament plays one round at least"))
    if settings.format != "swiss" and settings.table_size not in (2, len(ids)):
        raise TournamentError(
            T("a round robin or league is played at tables of two, or with all its entries at one table")
        )


def _check_round(played: Round, number: int, entries: set[str]) -> None:
    """A stored round has its number, names only the tournament's entries, once each, and holds results that fit
    its tables."""
    seated = [entry for table in played.tables for entry in table.seats]
    if played.number != number or any(len(table.seats) < 2 for table in played.tables):
        raise TournamentError(T("the tournament's stored state is malformed"))
    if not set(seated) <= entries or len(set(seated)) != len(seated):
        raise TournamentError(T("round {round} seats someone twice or someone who is not an entry", round=number))
    for table in played.tables:
        for result in table.games:
            result.check(len(table.seats))
