"""Tournaments without the café: match points on hand-made results (ties, forfeits), standings and their
tie-breaks, round robin, league matches, deal seeds, the JSON state (docs/tournaments.md)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cafe import BoardGame, CardGame
from cafe.ai.levels import make_player
from cafe.arena.match import new_game, play
from cafe.tournament.model import Entry, GameResult, Round, Settings, Table, TournamentError
from cafe.tournament.scoring import round_outcomes
from cafe.tournament.tournament import Tournament

F = Fraction


def played(*scores: int, absent: tuple[bool, ...] = ()) -> GameResult:
    places = [1 + sum(other > score for other in scores) for score in scores]
    return GameResult.played(list(scores), places, list(absent) or None)


def points(round_: Round, compare: str = "score") -> dict[str, tuple[Fraction, Fraction, int]]:
    return {o.entry: (o.match_points, o.win, o.score) for o in round_outcomes(round_, compare)}


def entries(n: int) -> list[Entry]:
    return [Entry(f"e{i}", f"Entry {i}") for i in range(n)]


# match points


def test_each_seat_is_compared_with_the_same_seat_at_the_other_tables() -> None:
    round_ = Round(1, [Table(("a", "b"), [played(10, 5)]), Table(("c", "d"), [played(10, 7)]),
                       Table(("e", "f"), [played(8, 9)])])  # fmt: skip
    got = points(round_)
    # seat 1: 10, 10, 8 -> a ties c and beats e: (1 + 2) / 4; e beats nobody.  Seat 2: 5, 7, 9.
    assert {k: v[0] for k, v in got.items()} == {"a": F(3, 4), "c": F(3, 4), "e": 0, "b": 0, "d": F(1, 2), "f": 1}
    assert {k: v[1] for k, v in got.items()} == {"a": 1, "b": 0, "c": 1, "d": 0, "e": 0, "f": 1}
    assert got["f"][2] == 9


def test_the_margin_compares_each_seat_s_lead_over_the_best_other() -> None:
    round_ = Round(1, [Table(("a", "b"), [played(10, 5)]), Table(("c", "d"), [played(10, 7)]),
                       Table(("e", "f"), [played(8, 9)])])  # fmt: skip
    got = {k: v[0] for k, v in points(round_, "margin").items()}
    # margins: a +5, c +3, e -1 (seat 1); b -5, d -3, f +1 (seat 2)
    assert got == {"a": 1, "c": F(1, 2), "e": 0, "b": 0, "d": F(1, 2), "f": 1}


def test_match_points_do_not_depend_on_the_number_of_tables() -> None:
    two = Round(1, [Table(("a", "b"), [played(9, 1)]), Table(("c", "d"), [played(5, 1)])])
    five = Round(1, [Table((f"x{i}", f"y{i}"), [played(9 - 2 * i, 1)]) for i in range(5)])
    assert points(two)["a"][0] == points(five)["x0"][0] == 1  # the best seat 1 of the round: a top either way
    assert points(two)["c"][0] == points(five)["x4"][0] == 0
    assert points(five)["x2"][0] == F(1, 2)  # beat two of four
    assert {points(five)[f"y{i}"][0] for i in range(5)} == {F(1, 2)}  # all tied


def test_only_tables_of_as_many_seats_are_compared_and_a_lone_one_gets_the_average() -> None:
    round_ = Round(1, [Table(("a", "b", "c"), [played(30, 20, 10)]), Table(("d", "e", "f"), [played(25, 20, 40)]),
                       Table(("g", "h"), [played(50, 0)])])  # fmt: skip
    got = points(round_)
    assert (got["a"][0], got["d"][0], got["b"][0], got["e"][0], got["c"][0], got["f"][0]) == (
        1,
        0,
        F(1, 2),
        F(1, 2),
        0,
        1,
    )
    assert got["g"][0] == got["h"][0] == F(1, 2)


def test_a_shared_first_place_splits_the_win() -> None:
    got = points(Round(1, [Table(("a", "b", "c"), [played(20, 20, 5)])]))
    assert (got["a"][1], got["b"][1], got["c"][1]) == (F(1, 2), F(1, 2), 0)


def test_a_forfeit_scores_nothing_and_its_table_mates_take_average_plus_and_the_win() -> None:
    round_ = Round(1, [Table(("a", "b"), [GameResult.unplayed([False, True])]), Table(("c", "d"), [played(5, 1)]),
                       Table(("e", "f"), [played(3, 4)])])  # fmt: skip
    got = points(round_)
    assert got["a"] == (F(3, 5), 1, 0) and got["b"] == (0, 0, 0)
    assert got["c"][0] == 1 and got["e"][0] == 0  # the unplayed table is left out of the comparison
    three = points(Round(1, [Table(("a", "b", "c"), [GameResult.unplayed([True, False, False])])]))
    assert three == {"a": (0, 0, 0), "b": (F(3, 5), F(1, 2), 0), "c": (F(3, 5), F(1, 2), 0)}


def test_a_stand_in_s_game_counts_for_the_present_and_the_deal_but_never_for_the_absent() -> None:
    round_ = Round(1, [Table(("a", "b"), [played(2, 9, absent=(False, True))]), Table(("c", "d"), [played(5, 1)])])
    got = points(round_)
    assert got["b"] == (0, 0, 0)  # the stand-in won, the absent entry gets nothing of it
    assert got["a"] == (0, 0, 2) and got["c"][0] == 1 and got["d"][0] == 0  # d is below the stand-in's 9


def test_a_game_nobody_could_play_gives_the_average_and_no_win() -> None:
    got = points(Round(1, [Table(("a", "b"), [GameResult.unplayed([False, False])])]))
    assert got == {"a": (F(1, 2), 0, 0), "b": (F(1, 2), 0, 0)}


# standings


def test_a_tie_in_everything_is_broken_by_a_lot_drawn_from_the_seed() -> None:
    firsts = set()
    for seed in range(40):
        t = Tournament(Settings(rounds=1, table_size=2, seed=seed), entries(2))
        t.rounds = [Round(1, [Table(("e0", "e1"), [played(3, 3)])])]
        rows = t.standings()
        assert rows == Tournament.from_json(t.to_json()).standings() and rows[0].match_points == rows[1].match_points
        firsts.add(rows[0].entry)
    assert firsts == {"e0", "e1"}


def test_total_score_breaks_a_tie_before_the_lot() -> None:
    t = Tournament(Settings(rounds=1, table_size=2), entries(4))
    t.rounds = [Round(1, [Table(("e0", "e1"), [played(6, 2)]), Table(("e2", "e3"), [played(2, 6)])])]
    # seat 1: e0 (6) beats e2 (2); seat 2: e3 (6) beats e1 (2).  e0, e3: 1 point, 1 win, Buchholz 0 each.
    order = [s.entry for s in t.standings()]
    assert order[:2] == ["e0", "e3"] and set(order[2:]) == {"e1", "e2"}  # the lot of seed 0 favours e0
    t.rounds = [Round(1, [Table(("e0", "e1"), [played(6, 2)]), Table(("e2", "e3"), [played(2, 7)])])]
    assert t.standings()[0].entry == "e3"


def simulate(t: Tournament, rng: random.Random, withdraw: float = 0.0) -> None:
    """Play the tournament to its end (from its open round, if any) with random results, forfeits and withdrawals."""
    while not t.is_over():
        if not t.rounds or t.round_finished(len(t.rounds)):
            t.pair()
        round_ = t.rounds[-1]
        for number, table in enumerate(round_.tables, start=1):
            while t.next_game(round_.number, number) is not None:
                absent = [rng.random() < 0.05 for _ in table.seats]
                if rng.random() < 0.3 and any(absent):
                    t.record(round_.number, number, GameResult.unplayed(absent))
                else:
                    scores = [rng.randrange(0, 6) for _ in table.seats]
                    t.record(round_.number, number, played(*scores, absent=tuple(absent)))
        for entry in t.entries:
            if entry.withdrawn is None and rng.random() < withdraw:
                t.withdraw(entry.id)


def naive_totals(t: Tournament) -> dict[str, tuple[Fraction, Fraction, int, Fraction]]:
    """Match points, wins, score and Buchholz written out again, straight from the rules in docs/tournaments.md."""
    totals: dict[str, list[Fraction]] = {e.id: [F(0), F(0), F(0)] for e in t.entries}
    for round_ in t.rounds:
        per_round: dict[str, list[Fraction]] = {}
        for table in round_.tables:
            for g, result in enumerate(table.games):
                others = [
                    u.games[g] for u in round_.tables
                    if u is not table and len(u.games) > g and u.games[g].scores is not None
                    and len(u.seats) == len(table.seats)
                ]  # fmt: skip
                for s, entry in enumerate(table.order(g + 1)):
                    if result.absent[s]:
                        mp, win, score = F(0), F(0), 0
                    elif result.scores is None:
                        mp = F(3, 5) if any(result.absent) else F(1, 2)
                        present = result.absent.count(False)
                        win, score = (F(1, present) if any(result.absent) else F(0)), 0
                    else:
                        mine = result.scores[s]
                        beaten = [2 if mine > o.scores[s] else 1 if mine == o.scores[s] else 0 for o in others]  # type: ignore[index]
                        mp = F(sum(beaten), 2 * len(others)) if others else F(1, 2)
                        win = F(1, result.places.count(1)) if result.places[s] == 1 else F(0)  # type: ignore[union-attr]
                        score = mine
                    per_round.setdefault(entry, []).append(mp)
                    totals[entry][1] += win
                    totals[entry][2] += score
        for entry, mps in per_round.items():
            totals[entry][0] += sum(mps, F(0)) / len(mps)
    buchholz = {
        e.id: sum(
            (totals[m][0] for r in t.rounds for u in r.tables if e.id in u.seats for m in u.seats if m != e.id), F(0)
        )
        for e in t.entries
    }
    return {entry: (v[0], v[1], int(v[2]), buchholz[entry]) for entry, v in totals.items()}


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([("swiss", 2), ("swiss", 3), ("swiss", 4), ("round_robin", 2), ("league", 2)]),
    st.integers(2, 11),
    st.integers(0, 2**32),
)
def test_the_standings_recomputed_from_the_results_agree(form: tuple[str, int], n: int, seed: int) -> None:
    fmt, size = form
    t = Tournament(Settings(format=fmt, table_size=size, rounds=3, seed=seed), entries(n))
    simulate(t, random.Random(seed), withdraw=0.05)
    rows = t.standings()
    assert sorted(r.entry for r in rows) == sorted(e.id for e in t.entries) and [r.rank for r in rows] == list(
        range(1, n + 1)
    )
    naive = naive_totals(t)
    assert {r.entry: (r.match_points, r.wins, r.score, r.buchholz) for r in rows} == naive
    keys = [(-r.matches, -r.match_points, -r.wins, -r.buchholz, -r.score, r.lot) for r in rows]
    assert keys == sorted(keys)
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert again.standings() == rows
    shown = json.loads(json.dumps([row.to_json() for row in rows]))  # what a page of standings would read
    assert [row["entry"] for row in shown] == [row.entry for row in rows]
    assert [row["match_points"] for row in shown] == [float(row.match_points) for row in rows]


# the formats


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_meets_every_pair_exactly_once(n: int) -> None:
    t = Tournament(Settings(format="round_robin", table_size=2, seed=n), entries(n))
    simulate(t, random.Random(n))
    assert len(t.rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(table.seats) for r in t.rounds for table in r.tables)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations([e.id for e in t.entries], 2)}
    assert set(met.values()) == {1}
    for r in t.rounds:
        seated = [e for table in r.tables for e in table.seats]
        assert len(seated) == len(set(seated)) == n - n % 2


def test_round_robin_of_three_or_four_sits_everyone_at_one_table_and_refuses_other_sizes() -> None:
    t = Tournament(Settings(format="round_robin", table_size=4), entries(4))
    assert t.planned_rounds == 1 and len(t.pair().tables[0].seats) == 4
    with pytest.raises(TournamentError, match="tables of two, or with all its entries"):
        Tournament(Settings(format="round_robin", table_size=3), entries(6))


def league_game(t: Tournament, winner: int | None) -> None:
    """The match's next game, won by the table's player ``winner`` (0: the first seated at the table), or tied."""
    table = t.rounds[0].tables[0]
    order = t.seats(1, 1, len(table.games) + 1)
    scores = [5 if winner is None else 9 if entry == table.seats[winner] else 1 for entry in order]
    t.record(1, 1, played(*scores))


def test_a_league_match_turns_the_seats_each_game() -> None:
    t = Tournament(Settings(format="league", table_size=3), entries(3))
    seats = t.pair().tables[0].seats
    assert [t.seats(1, 1, game) for game in (1, 2, 3, 4)] == [
        seats,
        (seats[1], seats[2], seats[0]),
        (seats[2], seats[0], seats[1]),
        seats,
    ]


def test_a_league_match_ends_when_one_has_won_three_games() -> None:
    t = Tournament(Settings(format="league", table_size=2), entries(2))
    t.pair()
    for _ in range(3):
        assert t.next_game(1, 1) is not None
        league_game(t, 0)
    assert t.next_game(1, 1) is None and t.is_over()
    with pytest.raises(TournamentError, match="no round is left"):
        t.pair()
    winner = t.rounds[0].tables[0].seats[0]
    top = t.standings()[0]
    assert (top.entry, top.matches, top.wins) == (winner, 1, 3)
    with pytest.raises(TournamentError, match="has finished"):
        league_game(t, 1)
    assert len(t.rounds[0].tables[0].games) == 3


def test_a_league_match_goes_to_five_games_and_shared_wins_count_their_share() -> None:
    t = Tournament(Settings(format="league", table_size=2), entries(2))
    t.pair()
    for winner in (0, 1, 0, 1):
        league_game(t, winner)
    assert t.next_game(1, 1) == 5
    league_game(t, None)  # a shared first place: 2.5 games each, and no more games
    assert t.next_game(1, 1) is None
    assert [s.matches for s in t.standings()] == [F(1, 2), F(1, 2)]
    t = Tournament(Settings(format="league", table_size=2), entries(2))
    t.pair()
    for winner in (None, 0, 1, 0, 0):
        assert t.next_game(1, 1) is not None
        league_game(t, winner)
    assert t.next_game(1, 1) is None  # 3.5 to 1.5 after the fifth
    seats = t.rounds[0].tables[0].seats
    assert {s.entry: (s.matches, s.wins) for s in t.standings()} == {seats[0]: (1, F(7, 2)), seats[1]: (0, F(3, 2))}


def test_a_forfeit_ends_a_league_match_for_the_one_present() -> None:
    t = Tournament(Settings(format="league", table_size=2), entries(2))
    t.pair()
    league_game(t, 0)
    t.record(1, 1, GameResult.unplayed([False, True]))  # game 2: the table's second player in seat 1, the first absent
    assert t.next_game(1, 1) is None
    seats = t.rounds[0].tables[0].seats
    assert {s.entry: s.matches for s in t.standings()} == {seats[1]: 1, seats[0]: 0}


# deals, withdrawals, the stored state


def test_every_table_of_a_round_plays_the_same_deal_and_the_rounds_differ() -> None:
    t = Tournament(Settings(rounds=3, table_size=3, seed=7), entries(9))
    first = t.pair()
    seed = t.deal_seed(1)
    bags = {BoardGame(list(table.seats), seed=seed).bag for table in first.tables}
    assert len(bags) == 1
    simulate(t, random.Random(1))
    seeds = [t.deal_seed(r) for r in (1, 2, 3)]
    assert len(set(seeds)) == 3 and seeds[0] == seed
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert [again.deal_seed(r) for r in (1, 2, 3)] == seeds
    other = Tournament(Settings(rounds=3, table_size=3, seed=8), entries(9))
    other.pair()
    assert other.deal_seed(1) != seed
    cards = {
        (g.deck, g.table_cards) for g in (CardGame(["a", "b", "c"], seed=seed), CardGame(["x", "y", "z"], seed=seed))
    }
    assert len(cards) == 1


def test_the_games_of_a_league_round_are_dealt_afresh_but_alike_at_every_table() -> None:
    t = Tournament(Settings(format="league", table_size=2, seed=3), entries(4))
    t.pair()
    assert len({t.deal_seed(1, game) for game in range(1, 6)}) == 5


def test_a_withdrawn_entry_is_not_paired_again() -> None:
    t = Tournament(Settings(rounds=4, table_size=3, seed=1), entries(7))
    t.pair()
    t.withdraw("e3")
    with pytest.raises(TournamentError, match="already withdrawn"):
        t.withdraw("e3")
    simulate(t, random.Random(2))
    assert any("e3" in table.seats for table in t.rounds[0].tables)
    assert all("e3" not in table.seats for r in t.rounds[1:] for table in r.tables)
    assert any(s.entry == "e3" and s.withdrawn == 2 for s in t.standings())


def test_the_whole_state_survives_json_and_pairs_the_next_round_alike() -> None:
    t = Tournament(Settings(rounds=5, table_size=4, seed=11, rules="brettspielwelt", compare="margin"), entries(10))
    for _ in range(2):
        simulate_round(t, random.Random(len(t.rounds)))
    t.withdraw("e5")
    stored = json.dumps(t.to_json())
    again = Tournament.from_json(json.loads(stored))
    assert json.dumps(again.to_json()) == stored and again.standings() == t.standings()
    assert again.pair().to_json() == t.pair().to_json()


def simulate_round(t: Tournament, rng: random.Random) -> None:
    round_ = t.pair()
    for number, table in enumerate(round_.tables, start=1):
        t.record(round_.number, number, played(*[rng.randrange(9) for _ in table.seats]))


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda s: s.pop("rounds"), "malformed"),
        (
            lambda s: s["rounds"][0]["tables"][0].update(seats=["e0", "nobody"]),
            "someone twice or someone who is not an entry",
        ),
        (lambda s: s["rounds"][0]["tables"][0]["games"][0].update(absent=[False]), "each of the table's"),
        (lambda s: s["rounds"][0]["tables"][0]["games"][0].update(places=[1, 1, 2]), "not a game's places"),
        (lambda s: s["settings"].update(format="knockout"), "unknown tournament format"),
        (lambda s: s["settings"].update(seed="7"), "malformed"),
        (lambda s: s["settings"].update(rules="nonsense"), "nonsense"),
        (lambda s: s.update(version=9), "version 9"),
        (lambda s: s["rounds"][0].update(number=2), "malformed"),
        (lambda s: s["settings"].update(edition="chess"), "unknown edition 'chess'"),
    ],
)
def test_a_spoilt_state_is_refused_with_a_message(spoil: object, message: str) -> None:
    t = Tournament(Settings(rounds=2, table_size=3, seed=1), entries(6))
    simulate_round(t, random.Random(1))
    state = json.loads(json.dumps(t.to_json()))
    spoil(state)  # type: ignore[operator]
    with pytest.raises(TournamentError, match=message):
        Tournament.from_json(state)
    with pytest.raises(TournamentError, match="malformed"):
        Tournament.from_json([1, 2])


def test_bad_input_leaves_the_tournament_as_it_was() -> None:
    t = Tournament(Settings(rounds=2, table_size=2, seed=1), entries(4))
    t.pair()
    before = json.dumps(t.to_json())
    for call, message in [
        (lambda: t.record(1, 1, played(1, 2, 3)), "each of the table's 2 seats"),
        (lambda: t.record(1, 9, played(1, 2)), "no table 9"),
        (lambda: t.record(3, 1, played(1, 2)), "no round 3"),
        (t.pair, "round 1 is not finished"),
        (lambda: t.withdraw("nobody"), "not an entry"),
    ]:
        with pytest.raises(TournamentError, match=message):
            call()
        assert json.dumps(t.to_json()) == before
    with pytest.raises(TournamentError, match="two entries at least"):
        Tournament(Settings(rounds=1), [Entry("a", "A"), Entry("a", "A again")])
    with pytest.raises(TournamentError, match="500 entries at most"):
        Tournament(Settings(rounds=1), entries(501))
    with pytest.raises(TournamentError, match="2 to 4 players, not 5"):
        Tournament(Settings(rounds=1, table_size=5), entries(8))
    for wrong, message in [
        (Settings(compare="place"), "a score or a margin, not place"),
        (Settings(rounds=0), "one round at least"),
    ]:
        with pytest.raises(TournamentError, match=message):
            Tournament(wrong, entries(4))
    with pytest.raises(TournamentError, match="both scores and places"):
        t.record(1, 1, GameResult((3, 4), None, (False, False)))
    assert json.dumps(t.to_json()) == before


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_tables_on_one_deal_played_alike_tie_every_seat(edition: str) -> None:
    """Real games: the same player (greedy, seeded by its seat) in every seat of every table plays each round's
    deal alike at every table, so every seat ties with the same seat elsewhere: 1/2 a round for everyone."""
    t = Tournament(Settings(edition=edition, rounds=2, table_size=3, seed=5), entries(6))
    for _ in range(2):
        round_ = t.pair()
        for number, table in enumerate(round_.tables, start=1):
            game = new_game(edition, list(table.seats), t.deal_seed(round_.number))
            seats, _ = play(game, [make_player("greedy", seed=seat) for seat in range(3)])
            t.record(round_.number, number, GameResult.played([s.score for s in seats], [s.place for s in seats]))
    assert {s.match_points for s in t.standings()} == {1}
    first, second = (t.rounds[0].tables[i].games[0] for i in (0, 1))
    assert first == second and first.scores != (0, 0, 0)
