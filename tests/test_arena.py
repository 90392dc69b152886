"""The arena: duplicate deals, statistics, the command line, records and the plot."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cafe import i18n
from cafe.arena.match import PlayerError, SeatResult, new_game, play
from cafe.arena.report import combine, paired, table, to_json
from cafe.arena.run import ArenaPlan, arena_games, in_plan_order, names_of, run_arena
from cafe.arena.stats import GameOutcome, endings, player_stats, wilson_interval
from cafe.cli import main
from cafe.record import Record
from cafe.steps import parse_step


def test_every_player_takes_every_seat_once_per_deal() -> None:
    plan = ArenaPlan(("a", "b", "c", "d"), games=8)
    assert plan.deals == 2
    seatings = plan.seatings
    assert len(seatings) == 4
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == [0, 1, 2, 3]
    assert ArenaPlan(("a", "b"), games=3).deals == 2  # rounded up to whole deals


def two_player_game(deal: int, seating: int, a_wins: bool) -> GameOutcome:
    """A game of players a (0) and b (1) in a deal's first seating (a in seat 0) or second (a in seat 1)."""
    won, lost = (SeatResult(0, place, float(place == 1), 1, 0, 0.0, 0.0) for place in (1, 2))
    a, b = (won, lost) if a_wins else (lost, won)
    return GameOutcome(deal, (0, 1), (a, b)) if seating == 0 else GameOutcome(deal, (1, 0), (b, a))


def test_the_interval_over_deals_counts_deals_not_games() -> None:
    # a wins both games of half the deals and neither of the others: 20 deals, not 40 coin flips
    uneven = player_stats(["a", "b"], [two_player_game(d, k, d % 2 == 0) for d in range(20) for k in range(2)])[0]
    assert uneven.win_rate == 0.5
    wilson, deals = uneven.win_rate_ci95, uneven.win_rate_ci95_deals
    assert deals[0] < wilson[0] and deals[1] > wilson[1]
    # a wins exactly one seating of every deal (the deal's luck decides, and duplicate play cancels it)
    even = player_stats(["a", "b"], [two_player_game(d, k, k == 0) for d in range(20) for k in range(2)])[0]
    assert even.win_rate == 0.5 and even.win_rate_ci95_deals == (0.5, 0.5)


def report_of(plan: ArenaPlan) -> dict[str, Any]:
    outcomes = run_arena(plan, jobs=1)
    return to_json(plan, player_stats(names_of(plan.players), outcomes), len(outcomes), endings(outcomes))


def test_runs_on_other_deals_combine_as_one_run_on_them_all() -> None:
    whole = report_of(ArenaPlan(("greedy", "random"), games=12, seed=40))
    first, second = (report_of(ArenaPlan(("greedy", "random"), games=6, seed=s)) for s in (40, 43))
    assert [row[2] for row in whole["results"][0]["wins_by_deal"]] == [2] * 6  # (deal, wins, games) per deal
    both = combine([first, second])
    assert (both["games"], both["deals"]) == (12, 6)
    keys = ("player", "games", "wins", "win_rate", "win_rate_ci95", "win_rate_ci95_deals", "mean_score")
    assert [{k: r[k] for k in keys} for r in both["results"]] == [{k: r[k] for k in keys} for r in whole["results"]]
    assert both["endings"] == whole["endings"] and sum(whole["endings"].values()) == 12
    with pytest.raises(ValueError, match="the reports share deals"):
        combine([first, report_of(ArenaPlan(("greedy", "random"), games=6, seed=42))])
    with pytest.raises(ValueError, match="not of the same players"):
        combine([first, report_of(ArenaPlan(("random", "greedy"), games=6, seed=43))])


def test_two_versions_of_a_player_compare_deal_by_deal() -> None:
    before = [report_of(ArenaPlan(("greedy", "random"), games=6, seed=s)) for s in (40, 43)]
    same = paired(before, [report_of(ArenaPlan(("greedy", "random"), games=4, seed=41))], "greedy")
    assert same["deals"] == 2 and same["deals_left_out"] == [4, 0]  # seeds 41 and 42 played on both sides
    assert same["change"] == 0 and same["change_ci95"] == [0, 0]  # the same games again
    stronger = paired(before, [report_of(ArenaPlan(("greedy", "mcts:50"), games=6, seed=43))], "greedy")
    assert stronger["games"] == [6, 6] and stronger["deals_left_out"] == [3, 0]
    assert stronger["change"] == round(stronger["win_rate"][1] - stronger["win_rate"][0], 4) < 0
    assert stronger["change_ci95"][0] <= stronger["change"] <= stronger["change_ci95"][1]
    with pytest.raises(ValueError, match="the reports share deals"):
        paired(before + before, before, "greedy")
    with pytest.raises(ValueError, match="mcts:50 did not play"):
        paired(before, before, "mcts:50")
    with pytest.raises(ValueError, match="fewer than two deals"):
        paired(before[:1], before[1:], "greedy")
    older = {
        **before[0],
        "results": [{k: v for k, v in row.items() if k != "wins_by_deal"} for row in before[0]["results"]],
    }
    with pytest.raises(ValueError, match="without each deal's wins"):
        paired([older], before[1:], "greedy")


def test_a_deal_is_the_same_bag_in_every_seating(tmp_path: Path) -> None:
    plan = ArenaPlan(("greedy", "random"), games=4, seed=3)
    outcomes = run_arena(plan, jobs=1, records=tmp_path)
    assert [(g.deal, g.seating) for g in outcomes] == [(0, (0, 1)), (0, (1, 0)), (1, (0, 1)), (1, (1, 0))]
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 4
    data = [json.loads(p.read_text()) for p in records]
    assert data[0]["bag"] == data[1]["bag"] != data[2]["bag"] == data[3]["bag"]
    for path, outcome in zip(records, outcomes, strict=True):
        game = Record.load(path).replay()
        assert game.is_over()
        assert list(game.scores) == [seat.score for seat in outcome.seats]
        assert outcome.ending == game.end_reason is not None
    counted = endings(outcomes)
    assert sum(counted.values()) == 4 and list(counted.values()) == sorted(counted.values(), reverse=True)


def test_statistics_add_up() -> None:
    plan = ArenaPlan(("greedy", "random"), games=6, seed=1)
    outcomes = run_arena(plan, jobs=2)
    stats = player_stats(names_of(plan.players), outcomes)
    assert [s.games for s in stats] == [6, 6]
    assert sum(s.wins for s in stats) == pytest.approx(6)
    greedy, rand = stats
    assert greedy.win_rate > rand.win_rate
    assert greedy.win_rate_ci95[0] <= greedy.win_rate <= greedy.win_rate_ci95[1]
    assert greedy.rating_mu > rand.rating_mu
    scores = [seat.score for g in outcomes for seat, p in zip(g.seats, g.seating, strict=True) if p == 0]
    assert greedy.mean_score == pytest.approx(sum(scores) / 6)


def test_games_reported_as_they_finish_are_every_game_of_the_plan_once() -> None:
    plan = ArenaPlan(("greedy", "random"), games=6, seed=1)
    finished = [outcome for outcome, _record in arena_games(plan, jobs=2)]
    ordered = in_plan_order(plan, finished)
    assert [(g.deal, g.seating) for g in ordered] == plan.tasks()

    def results(outcomes: list[GameOutcome]) -> list[tuple[int, list[int], str | None]]:
        return [(g.deal, [seat.score for seat in g.seats], g.ending) for g in outcomes]

    assert results(ordered) == results(run_arena(plan, jobs=1))  # the same games whichever finished first


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.7 < low < 0.75
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.25 < high < 0.3


def test_same_players_get_numbered_names() -> None:
    assert names_of(["mcts", "greedy", "greedy", "greedy"]) == ["mcts", "greedy#1", "greedy#2", "greedy#3"]


def test_an_illegal_answer_stops_the_game_with_a_clear_message() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view: object, legal: object) -> object:
            return parse_step("USAm@a1")

    game = new_game("board", ["x", "y"], seed=0)
    with pytest.raises(PlayerError, match=r"cheat \(seat 1\) played USAm@a1"):
        play(game, [Cheat(), Cheat()])


def test_cli_json_has_the_promised_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "arena.png"
    code = main(["arena", "greedy", "random", "easy", "--games", "3", "--edition", "cards", "--seed", "2",
                 "--json", "--jobs", "1", "--plot", str(plot)])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["edition"] == "cards" and out["games"] == 3
    assert [r["player"] for r in out["results"]] == ["greedy", "random", "easy"]
    for result in out["results"]:
        assert {"player", "win_rate", "win_rate_ci95", "mean_score"} <= set(result)
        low, high = result["win_rate_ci95"]
        assert 0 <= low <= result["win_rate"] <= high <= 1
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--games", "2", "--jobs", "1", "--rules", "original-1989"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "win rate" in out and "2 board games" in out
    assert "How the games ended: " in out and re.search(r"\(\d games?\)", out)


def test_the_table_says_how_the_games_ended_in_the_readers_words() -> None:
    from rich.console import Console

    plan = ArenaPlan(("greedy", "random"), games=2, seed=0)
    ended = {"a player has gone out": 1, "every stool of the bar is taken": 1}
    console = Console(width=200, record=True)
    i18n.use("de")
    try:
        console.print(table(plan, [], 2, ended))
    finally:
        i18n.use("en")
    text = console.export_text()
    assert "So endeten die Partien: ein Spieler hat alle Gäste ausgespielt (1 Partie)" in text
    assert "gone out" not in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "greedy"], "takes 2 to 4 players, not 1"),
        (["arena", "greedy", "grumpy"], "unknown player 'grumpy'"),
        (["arena", "greedy", "random", "--games", "0"], "--games must be at least 1"),
        (["arena", "greedy", "random", "--rules", "{bad"], "--rules is not valid JSON"),
        (["arena", "greedy", "random", "--rules", "fancy"], "fancy"),
        (["arena", "greedy", "random", "--rules", '{"tribe_and_circle": true}'], "tribe_and_circle"),
    ],
)
def test_cli_refuses_bad_arguments_clearly(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("cafe arena: ") and message in err
    assert "Traceback" not in err
