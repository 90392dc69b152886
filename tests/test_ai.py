"""The computer players: what they may see, what they choose, and how they keep to their budget."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from cafe import BoardGame
from cafe.ai.base import TurnPlan
from cafe.ai.greedy import GreedyPlayer, threat_after
from cafe.ai.learned import shipped
from cafe.ai.levels import LEVELS, PlayerSpecError, make_player, register, strongest
from cafe.ai.mcts import (
    Evaluation,
    MCTSPlayer,
    Node,
    candidate_turns,
    distinct_turns,
    evaluate,
    leads,
    rollout_step,
    turn_shape,
)
from cafe.ai.random_player import RandomPlayer
from cafe.ai.turns import complete_turns
from cafe.ai.worlds import Game, Worlds, shuffle
from cafe.card_game import CardGame
from cafe.record import Record
from cafe.steps import Kind, parse_step
from cafe.tiles import Tile
from cafe.view import GameView, View

EXAMPLES = Path(__file__).parent / "data" / "rulebook-examples.json"
VARIANTS: list[tuple[str, Any]] = [
    ("board", "printed"),
    ("board", {"preset": "printed", "surprise_guests": True}),
    ("board", {"preset": "brettspielwelt", "regulars": True}),
    ("cards", "printed"),
    ("cards", {"preset": "printed", "tribe_and_circle": True}),
]


def new_game(edition: str, players: int, seed: int, rules: Any) -> BoardGame | CardGame:
    if edition == "board":
        return BoardGame(players, rules=rules, seed=seed)
    return CardGame(players, rules=rules, seed=seed)


def positions(edition: str, rules: Any, games: int, seed: int = 0) -> Any:
    """Every position (mid-turn ones included) of a few random games."""
    rng = random.Random(seed)
    for g in range(games):
        game = new_game(edition, 2 + g % 3, seed * 1000 + g, rules)
        while not game.is_over():
            yield game
            game.push(game.random_step(rng))


def example_d() -> BoardGame:
    """The rulebook's examples A-C played: D is to move, and USAm@i2,USAf@g2 scores 17."""
    record = Record.load(EXAMPLES)
    record.turns = record.turns[:3]
    game = record.replay()
    assert isinstance(game, BoardGame)
    return game


# ---------------------------------------------------------------------------------------------- worlds


@pytest.mark.parametrize(("edition", "rules"), VARIANTS)
def test_sampled_worlds_agree_with_the_real_game_on_everything_visible(edition: str, rules: Any) -> None:
    for game in positions(edition, rules, games=4):
        view = game.view(game.current_player)
        world = Worlds(view, random.Random(1)).sample(random.Random(2))
        assert set(world.legal_steps()) == set(game.legal_steps())
        assert world.scores == game.scores
        assert world.hand(game.current_player) == game.hand(game.current_player)
        assert world.state.hand_n == game.state.hand_n


def test_worlds_deal_the_unseen_tiles_afresh_each_time() -> None:
    game = BoardGame(2, seed=4)
    worlds = Worlds(game.view(0))
    rng = random.Random(0)
    bags = {worlds.sample(rng).bag for _ in range(5)}
    assert len(bags) == 5
    for bag in bags:
        assert sorted(bag) == sorted(game.bag)


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_exact_worlds_are_the_real_game_every_time(edition: str) -> None:
    rng = random.Random(5)
    game = new_game(edition, 3, 5, "printed")
    for _ in range(12):
        game.push(game.random_step(rng))
    worlds = Worlds.exact(game)
    for _ in range(3):
        world = worlds.sample(rng)
        assert world.state.hands == game.state.hands
        if isinstance(world, BoardGame):
            assert isinstance(game, BoardGame) and world.bag == game.bag
        else:
            assert isinstance(game, CardGame)
            assert (world.deck, world.table_cards, world.state.down) == (game.deck, game.table_cards, game.state.down)
        world.simulate(world.random_step(rng))  # a sample is the search's to change, not the game
    assert worlds.sample(rng).state.hands == game.state.hands


def test_a_search_given_other_worlds_searches_in_them() -> None:
    game = BoardGame(2, seed=6)
    asked = []

    def real_game(view: View, rng: random.Random) -> Worlds:
        asked.append(view.seat)
        return Worlds.exact(game)

    bot = MCTSPlayer(time_per_turn=None, iterations=50, seed=1, worlds=real_game)
    assert bot.choose(game.view(0), game.legal_steps()) in game.legal_steps()
    assert asked == [0]


def test_worlds_keep_cards_removed_with_full_tables_out_of_the_deck() -> None:
    rng = random.Random(3)
    game = CardGame(2, seed=3)
    while game.state.removed == 0:
        game.push(game.random_step(rng))
    while game.this_turn():
        game.push(game.random_step(rng))
    world = Worlds(game.view(game.current_player)).sample(rng)
    other = 1 - game.current_player

    def unseen(g: CardGame) -> list[Tile]:
        return sorted([*g.deck[g.state.deck_pos :], *g.hand(other), *map(Tile, g.state.down[other])])

    assert unseen(world) == unseen(game)


@pytest.mark.parametrize(("edition", "rules"), VARIANTS)
def test_best_step_is_legal_and_scores_most(edition: str, rules: Any) -> None:
    rng = random.Random(0)
    for game in positions(edition, rules, games=4, seed=2):
        legal = game.legal_steps()
        step = game.best_step(rng)
        assert step in legal
        top = max(game.step_points(s) for s in legal)
        if game.step_points(step) > 0:
            assert game.step_points(step) == top


# ---------------------------------------------------------------------------------------------- secrecy


def secret_twins(edition: str) -> tuple[Any, Any]:
    """Two games that look the same from seat 1 but differ in the bag (and, for cards, seat 2's hand)."""
    if edition == "board":
        hands = [["USAm", "USAf", "GERm", "INDf", "JOKm"], ["FRAm", "FRAf", "ITAm", "CUBf", "RUSm"]]
        kwargs: dict[str, Any] = {"seated": {"h3": "USAm"}, "scores": [3, 4]}
        rules = {"preset": "printed", "surprise_guests": True}
        one = BoardGame.from_position(2, hands, rules=rules, seed=1, **kwargs)
        two = BoardGame.from_position(2, hands, rules=rules, seed=2, **kwargs)
        return one, two
    mine = ["USAm", "USAf", "GERm", "INDf", "FRAm", "ITAf", "CUBm"]
    tables = ["USA", "GER", "FRA", "IND", "ITA"]
    one = CardGame.from_position(2, [mine, ["RUSm"] * 3 + ["ESPf"] * 4], tables=tables, seed=1)
    two = CardGame.from_position(2, [mine, ["CHNf"] * 4 + ["TURm"] * 3], tables=tables, seed=2)
    return one, two


@pytest.mark.parametrize("edition", ["board", "cards"])
@pytest.mark.parametrize("spec", ["random", "greedy", "easy", "mcts:40", "learned:40"])
def test_a_bot_decides_on_its_view_alone(edition: str, spec: str) -> None:
    one, two = secret_twins(edition)
    assert one.view(0) == two.view(0)  # the same to seat 1 ...
    if edition == "board":
        assert one.bag != two.bag  # ... though the bags differ
    else:
        assert one.hand(1) != two.hand(1)  # ... though seat 2's hands differ
    for _ in range(3):  # a whole turn, step by step
        if one.current_player != 0:
            break
        first = make_player(spec, seed=7).choose(one.view(0), one.legal_steps())
        second = make_player(spec, seed=7).choose(two.view(0), two.legal_steps())
        assert first == second
        one.push(first)
        two.push(second)


def _reachable(value: Any, seen: set[int]) -> Any:
    """Every object reachable from a view's fields."""
    if id(value) in seen or isinstance(value, (str, int, float, bool, type(None))):
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _reachable(getattr(value, field.name), seen)
    elif isinstance(value, dict):
        for item in itertools.chain(value.keys(), value.values()):
            yield from _reachable(item, seen)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _reachable(item, seen)


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_a_view_holds_no_way_back_to_the_game(edition: str) -> None:
    game, _ = secret_twins(edition)
    view = game.view(0)
    assert isinstance(view, GameView)
    kinds = {type(obj).__name__ for obj in _reachable(view, set())}
    assert not kinds & {"BoardGame", "CardGame", "State", "CardState", "Random"}


# ---------------------------------------------------------------------------------------------- choices


def test_complete_turns_finds_the_rulebook_turn_d() -> None:
    game = example_d()
    options = complete_turns(game)
    best = max(options, key=lambda o: o.points)
    assert best.points == 17
    assert frozenset({"USAm@i2", "USAf@g2"}) in {frozenset(map(str, o.steps)) for o in options if o.points == 17}
    assert game.turn_number == 3 and not game.this_turn()  # left as it was


def test_greedy_plays_the_most_points_then_follows_its_plan() -> None:
    game = example_d()
    greedy = GreedyPlayer(seed=0)
    before = game.scores[3]
    while game.current_player == 3:
        game.push(greedy.choose(game.view(3), game.legal_steps()))
    assert game.scores[3] - before == 17


def test_greedy_breaks_ties_by_completions_then_by_what_it_leaves_the_next_player() -> None:
    checked = 0
    for game in itertools.islice(positions("board", "printed", games=3, seed=4), 0, None, 7):
        options = complete_turns(game)
        chosen = GreedyPlayer.best(game, options)
        top = max((o.points, o.completed) for o in options)
        assert (chosen.points, chosen.completed) == top
        tied = [o for o in options if (o.points, o.completed) == top]
        if len(tied) > 1:
            checked += 1
            assert threat_after(game, chosen) == min(threat_after(game, o) for o in tied)
    assert checked > 5


def test_the_easy_levels_random_turns_never_put_it_out_of_the_game() -> None:
    # every stool costs 30 points: at the start any turn at the bar puts its player out, and ends a 2-player game
    rules = {"bar_values": [-30] * 20}
    for seed in range(40):
        game = BoardGame(["Ann", "Bob"], rules=rules, seed=seed)
        assert any(option.eliminates for option in complete_turns(game))
        easy = GreedyPlayer(seed=seed, noise=1.0)  # a random turn every time
        assert not game.push(easy.choose(game.view(0), game.legal_steps())).eliminated


def test_the_search_finds_a_big_turn() -> None:
    # 17 (completing USA1, which costs a hand slot) and 13 (the same guests, USA1 left open) are close;
    # every other turn scores 10 or less
    game = example_d()
    bot = MCTSPlayer(time_per_turn=None, iterations=600, seed=1)
    before = game.scores[3]
    while game.current_player == 3:
        game.push(bot.choose(game.view(3), game.legal_steps()))
    assert game.scores[3] - before in (13, 17)


def test_the_search_plays_three_players_and_the_card_game() -> None:
    for game in (BoardGame(3, seed=5), CardGame(4, seed=5)):
        bots = [MCTSPlayer(time_per_turn=None, iterations=15, seed=p) for p in range(len(game.players))]
        for _ in range(30):
            if game.is_over():
                break
            seat = game.current_player
            game.push(bots[seat].choose(game.view(seat), game.legal_steps()))
        assert game.turn_number > 5


def test_evaluate_prefers_the_leader_for_each_seat() -> None:
    game = BoardGame.from_position(3, [["USAm"]] * 3, scores=[30, 10, 10])
    values = evaluate(game, random.Random(0))
    assert values[0] > 0.5 > values[1] and values[1] == values[2]


def test_evaluate_counts_the_best_step_of_the_player_about_to_move() -> None:
    game = BoardGame.from_position(2, [["USAm", "USAf"], ["GERm"]], scores=[10, 10])
    assert game.current_player == 0
    assert game.step_points(game.best_step(random.Random(0))) > 0
    values = evaluate(game, random.Random(0))
    assert values[0] > 0.5 > values[1]


def test_a_seat_out_of_the_game_is_valued_behind_every_seat_still_in_whatever_its_score() -> None:
    game = BoardGame.from_position(4, [["USAm"]] * 4, scores=[40, 30, 10, 5], eliminated=[1, 0])
    margins = leads(game, random.Random(0))
    assert margins[2] > 0 > margins[3] > margins[0] > margins[1]  # seat 0, out last, ranks ahead of seat 1


def test_the_search_does_not_go_out_of_the_game_at_the_bar_for_a_finished_games_score() -> None:
    # A 2-player game where seat 1's bar move would take its score below 0: it would be out and lose, though the
    # other seat's penalties for its hand leave seat 1 with the higher final score.
    steps = "FRAm@bar INDm@bar TURf@bar AFRf@b13 AFRm@a12 INDm@bar ESPf@bar CHNm@bar ITAf@bar USAm@bar FRAf@c4 FRAm@d5"
    game = BoardGame(2, seed=117)
    for step in steps.split():
        game.push(parse_step(step))
    legal = game.legal_steps()
    out = [step for step in legal if step.kind is Kind.BAR]
    assert out and game.push(out[0]).eliminated and game.scores[0] > game.scores[1]
    assert leads(game, random.Random(0))[0] < 0 and game.places() == (2, 1)
    game.pop()
    for seed in range(3):
        assert MCTSPlayer(iterations=200, seed=seed).choose(game.view(0), legal).kind is Kind.SEAT


@pytest.mark.parametrize("evaluation", [evaluate, shipped().evaluate], ids=["expert", "master"])
def test_the_search_keeps_to_its_time_budget_on_a_fake_clock(evaluation: Any) -> None:
    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.01  # noqa: E731  (10 ms per clock reading)
    bot = MCTSPlayer(time_per_turn=2.0, seed=0, clock=clock, evaluation=evaluation)
    game = BoardGame(2, seed=9)
    started = next(ticks)
    bot.choose(game.view(0), game.legal_steps())
    spent = (next(ticks) - started - 1) * 0.01
    assert bot.last_iterations > 0
    assert spent <= 2.0 + 0.02  # the budget, and at most the reading that found it spent


def test_the_search_pauses_the_cyclic_garbage_collector_only_while_it_searches() -> None:
    seen: list[bool] = []

    def watching(game: Game, rng: random.Random) -> list[float]:
        seen.append(gc.isenabled())
        return evaluate(game, rng)

    game = BoardGame(2, seed=9)
    MCTSPlayer(time_per_turn=None, iterations=50, seed=0, evaluation=watching).choose(game.view(0), game.legal_steps())
    assert seen and not any(seen) and gc.isenabled()
    gc.disable()
    try:  # a program that has paused it itself finds it paused still
        MCTSPlayer(time_per_turn=None, iterations=50, seed=0).choose(game.view(0), game.legal_steps())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_second_search_in_the_same_turn_gets_only_the_time_left() -> None:
    ticks = itertools.count()
    bot = MCTSPlayer(time_per_turn=1.0, seed=0, clock=lambda: next(ticks) * 0.01)
    game = BoardGame(2, seed=9)
    view, legal = game.view(0), game.legal_steps()
    started = next(ticks)
    bot.choose(view, legal)
    first = bot.last_iterations
    bot.choose(view, legal)  # the same position again: the plan does not fit, so the turn is searched again
    spent = (next(ticks) - started - 1) * 0.01
    assert first > 0 and bot.last_iterations == 0
    assert spent <= 1.0 + 0.02


def test_the_search_without_a_budget_thinks_a_second_and_with_iterations_alone_never_looks_at_the_clock() -> None:
    assert MCTSPlayer().time_per_turn == 1.0 and MCTSPlayer().iterations is None
    ticks = iter(range(0, 10**6, 10))  # ten seconds pass between any two looks at the clock: a very busy machine
    game = BoardGame(["a", "b"], seed=3)
    counted = MCTSPlayer(iterations=50, seed=1, clock=lambda: float(next(ticks)))
    counted.choose(game.view(0), game.legal_steps())
    assert counted.time_per_turn is None and counted.last_iterations == 50


def test_a_forced_step_is_played_without_search() -> None:
    game = BoardGame.from_position(2, [["JOKm"], ["USAm"]])  # a lone joker can neither score nor go to the bar
    legal = game.legal_steps()
    assert [str(s) for s in legal] == ["pass"]
    bot = MCTSPlayer(time_per_turn=None, iterations=10_000, seed=0)
    assert bot.choose(game.view(0), legal) == legal[0]
    assert bot.last_iterations == 0


def test_a_plan_is_dropped_when_the_position_is_not_its_own() -> None:
    game = example_d()
    plan = TurnPlan()
    view = game.view(3)
    plan.keep(view, parse_step("USAm@i2"), [parse_step("USAf@g2")])
    assert plan.next(view, game.legal_steps()) is None  # still before the first step: not this plan's position


# ---------------------------------------------------------------------------------------------- naming players


@pytest.mark.parametrize(
    ("spec", "kind", "name"),
    [
        ("random", RandomPlayer, "random"),
        ("greedy", GreedyPlayer, "greedy"),
        ("mcts", MCTSPlayer, "mcts"),
        ("mcts:0.5s", MCTSPlayer, "mcts:0.5s"),
        ("mcts:250ms", MCTSPlayer, "mcts:250ms"),
        ("mcts:2000", MCTSPlayer, "mcts:2000"),
        ("easy", GreedyPlayer, "easy"),
        ("medium", GreedyPlayer, "medium"),
        ("hard", MCTSPlayer, "hard"),
        ("expert", MCTSPlayer, "expert"),
        ("learned:0.5s", MCTSPlayer, "learned:0.5s"),
        ("master", MCTSPlayer, "master"),
    ],
)
def test_player_names(spec: str, kind: type, name: str) -> None:
    player = make_player(spec, seed=1)
    assert isinstance(player, kind)
    assert player.name == name


def test_hints_ask_the_strongest_level_at_its_budget_or_another() -> None:
    assert strongest().name == "master" and strongest().time_per_turn == 1.0  # type: ignore[attr-defined]
    quick = strongest(seed=1, seconds=0.5)
    assert quick.name == "learned:0.5s" and quick.time_per_turn == 0.5  # type: ignore[attr-defined]


def test_a_registered_kind_names_players_in_this_process() -> None:
    register("tortoise", lambda arg, seed: MCTSPlayer(None, iterations=int(arg), seed=seed, name=f"tortoise:{arg}"))
    player = make_player("Tortoise:7", seed=3)
    assert isinstance(player, MCTSPlayer) and player.iterations == 7 and player.name == "tortoise:7"


def test_player_budgets_are_read_as_written() -> None:
    assert make_player("mcts:250ms").time_per_turn == 0.25  # type: ignore[attr-defined]
    assert make_player("mcts:2000").iterations == 2000  # type: ignore[attr-defined]
    assert make_player("expert").time_per_turn == 1.0  # type: ignore[attr-defined]
    assert make_player("easy").noise > 0 == make_player("medium").noise  # type: ignore[attr-defined]
    assert make_player("master").time_per_turn == 1.0  # type: ignore[attr-defined]
    assert make_player("master").evaluation == shipped().evaluate  # type: ignore[attr-defined]
    assert make_player("master").width == 20 > make_player("expert").width  # type: ignore[attr-defined]
    assert make_player("expert").evaluation is evaluate  # type: ignore[attr-defined]
    assert list(LEVELS) == ["easy", "medium", "hard", "expert", "master"]  # the ladder, weakest first


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("champion", "unknown player 'champion'"),
        ("mcts:fast", "'fast' is not a budget"),
        ("hard:2s", "takes no budget"),
        ("master:2s", "takes no budget"),
        ("learned:soon", "'soon' is not a budget"),
        ("cmd:", "needs the command"),
        ("random:3", "unknown player"),
    ],
)
def test_bad_player_names_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


def test_the_worlds_shuffle_deals_every_order_alike() -> None:
    """The search's own Fisher-Yates (faster than random.shuffle): 24,000 shuffles of four items, every one of the
    24 orders about 1,000 times (chi-square, 23 degrees of freedom: the 0.999 quantile is 49.7)."""
    rng = random.Random(3)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        shuffle(items, rng)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    assert sum((n - 1000) ** 2 / 1000 for n in counts.values()) < 49.7


def test_a_rollout_step_is_the_best_step_unless_it_is_a_random_one() -> None:
    for game in positions("board", "printed", games=2, seed=4):
        k = game.turn_number
        assert rollout_step(game, random.Random(k), 0.0) == game.best_step(random.Random(k))
        assert rollout_step(game, random.Random(k), 1.0) in game.legal_steps()
    game = BoardGame(2, seed=4)
    steps = {rollout_step(game, random.Random(k), 1.0) for k in range(40)}
    assert len(steps) > 1  # a random step is not always the best one


def test_the_master_is_the_search_with_its_own_evaluation_width_and_rollouts() -> None:
    master, expert = make_player("master"), make_player("expert")
    assert isinstance(master, MCTSPlayer) and isinstance(expert, MCTSPlayer)
    assert (master.width, master.epsilon, master.endgame, master.card_endgame) == (20, 0.0, 30, 15)
    assert (expert.width, expert.epsilon, expert.endgame, expert.card_endgame) == (12, 0.1, 15, 15)
    assert master.evaluation == shipped().evaluate and expert.evaluation is evaluate


def test_rollouts_play_to_the_end_once_no_more_than_endgame_tiles_are_left_to_draw() -> None:
    game = BoardGame(2, seed=9)  # 90 tiles in the bag
    for endgame, over in ((90, True), (89, False)):
        finished: list[bool] = []
        bot = MCTSPlayer(time_per_turn=None, iterations=40, seed=1, evaluation=recorder(finished), endgame=endgame)
        bot.choose(game.view(0), game.legal_steps())
        assert len(finished) == 40 and set(finished) == {over}


def test_the_card_game_has_its_own_endgame() -> None:
    game = CardGame(2, seed=10)  # 82 cards in the deck, nine steps to choose from
    left = game.view(0).deck_count
    for tiles, cards, over in ((0, left, True), (100, left - 1, False)):
        finished: list[bool] = []
        bot = MCTSPlayer(
            time_per_turn=None, iterations=20, seed=1, evaluation=recorder(finished), endgame=tiles, card_endgame=cards
        )
        bot.choose(game.view(0), game.legal_steps())
        assert len(finished) == 20 and set(finished) == {over}


def test_the_root_with_shapes_also_weighs_the_best_turn_of_every_kind_the_width_left_out() -> None:
    game, rng = CardGame(2, seed=3), random.Random(3)
    while len(distinct_turns(game, legal := game.legal_steps())) <= 8 or game.state.placed:
        game.push(game.best_step(rng))
    ranked = candidate_turns(game, legal, 1_000)  # every distinct turn, the best-scoring first
    plain, shaped = candidate_turns(game, legal, 4), candidate_turns(game, legal, 4, shapes=True)
    assert shaped[:4] == plain == ranked[:4]
    assert not any(step.kind is Kind.DRAW for turn in plain for step in turn)
    added = shaped[4:]
    assert (Kind.DRAW,) in {tuple(step.kind for step in turn) for turn in added}  # drawing, though it scores nothing
    shapes = [turn_shape(turn) for turn in shaped]
    assert len(set(shapes[4:])) == len(added) and not set(shapes[4:]) & set(shapes[:4])
    for turn in added:  # each the best-scoring of its shape
        assert turn == next(t for t in ranked if turn_shape(t) == turn_shape(turn))
    assert {turn_shape(t) for t in ranked} == set(shapes)


def recorder(finished: list[bool]) -> Evaluation:
    """The expert's evaluation, noting whether each position it values is a finished game."""

    def recording(position: Game, rng: random.Random) -> list[float]:
        finished.append(position.is_over())
        return evaluate(position, rng)

    return recording


def test_the_exploration_constant_spreads_the_root_visits() -> None:
    game = BoardGame(2, seed=9)
    spread = {}
    for explore in (0.0, 50.0):
        bot = MCTSPlayer(time_per_turn=None, iterations=300, seed=1, explore=explore)
        bot.choose(game.view(0), game.legal_steps())
        assert bot.last_search is not None
        spread[explore] = max(bot.last_search.visits) - min(bot.last_search.visits)
    assert spread[50.0] <= 1 < spread[0.0]  # evenly by turns when exploring hard, to the best when not


@pytest.mark.parametrize(
    ("players", "opponents", "replies"),
    [(2, None, 5), (4, None, 5), (4, "value", 5), (4, "policy", 1), (2, "policy", 1), (4, "first", 5)],
)
def test_below_the_root_the_opponents_reply_as_a_rollout_would_only_when_the_search_is_told_to(
    players: int, opponents: str | None, replies: int
) -> None:
    # opponents played by the rollout's policy instead of by their values, measured with four players in
    # docs/players.md ("Strength and the budget"); None: the search's default
    game = BoardGame(players, seed=5)
    view, mover = game.view(game.current_player), game.current_player
    first = make_player("greedy", 0).choose(view, game.legal_steps())
    told = {} if opponents is None else {"opponents": opponents}
    bot = MCTSPlayer(time_per_turn=None, iterations=1, seed=1, rollout=lambda g, rng: g.legal_steps()[0], **told)
    worlds, root = Worlds(view, random.Random(2)), Node(players)
    stop = bot._stop_turn(view)
    by_value = bot._by_value_until(view, stop)
    for k in range(200):
        rng = random.Random(k)
        world = worlds.sample(rng)
        world.simulate(first)
        while world.current_player == mover:
            world.simulate(world.legal_steps()[-1])  # the turn's end (or its last guest)
        bot._iterate(world, root, stop, rng, mover, by_value)
    # the opponent's hand is open and the rollout's step fixed: one reply in every world, unless it searches
    assert len(root.children) == replies if replies == 1 else len(root.children) >= replies


def test_a_flat_search_grows_no_tree_below_the_root_and_values_every_iteration_at_the_same_turn() -> None:
    # flat Monte Carlo, to measure what the tree below the root adds (docs/players.md, "Strength and the budget")
    game = BoardGame(2, seed=5)
    view, mover = game.view(game.current_player), game.current_player
    first = make_player("greedy", 0).choose(view, game.legal_steps())
    valued_at: list[int] = []

    def evaluation(world: Game, rng: random.Random) -> list[float]:
        valued_at.append(world.turn_number)
        return evaluate(world, rng)

    for tree in (True, False):
        bot = MCTSPlayer(time_per_turn=None, iterations=1, seed=1, evaluation=evaluation, tree=tree)
        worlds, root = Worlds(view, random.Random(2)), Node(2)
        stop = bot._stop_turn(view)
        for k in range(50):
            rng = random.Random(k)
            world = worlds.sample(rng)
            world.simulate(first)
            bot._iterate(world, root, stop, rng, mover, bot._by_value_until(view, stop))
        assert root.visits == 50 and bool(root.children) == tree
        assert set(valued_at) == {stop}
        search = MCTSPlayer(time_per_turn=None, iterations=200, seed=3, tree=tree)
        assert search.choose(view, game.legal_steps()) in game.legal_steps()


def test_the_opponents_reply_by_value_unless_told_to_follow_the_rollout_from_a_turn() -> None:
    for players in (2, 4):
        game = BoardGame(players, seed=1)
        view = game.view(0)
        for opponents, until in ((None, None), ("value", None), ("first", view.turn_number + players), ("policy", 0)):
            bot = MCTSPlayer(iterations=10, **({} if opponents is None else {"opponents": opponents}))
            stop = bot._stop_turn(view)
            assert bot._by_value_until(view, stop) == (stop if until is None else until)
    with pytest.raises(ValueError, match="opponents"):
        MCTSPlayer(iterations=10, opponents="minimax")


@pytest.mark.parametrize(("edition", "players"), [("board", 2), ("board", 4), ("cards", 2), ("cards", 3)])
def test_every_iteration_of_a_search_is_valued_at_the_same_turn(edition: str, players: int) -> None:
    # a horizon counted from each leaf valued the deeper paths (the turns searched most) turns later, with another
    # player to move: their values drifted apart from the rest's as the budget grew
    game = new_game(edition, players, 3, None)
    steps = 0  # a few turns in, the bag still full enough that rollouts stop short of the end, and a choice to make
    while steps < 4 * players or len(game.legal_steps()) < 4:
        game.push(GreedyPlayer(seed=0).choose(game.view(game.current_player), game.legal_steps()))
        steps += 1
    valued: list[tuple[int, int]] = []
    ended: list[int] = []  # the turns of worlds whose game ended first (a rollout's random step may close it)

    def recording(position: Game, rng: random.Random) -> list[float]:
        if position.is_over():
            ended.append(position.turn_number)
        else:
            valued.append((position.turn_number, position.current_player))
        return evaluate(position, rng)

    bot = MCTSPlayer(time_per_turn=None, iterations=3000, seed=1, evaluation=recording)
    bot.choose(game.view(game.current_player), game.legal_steps())
    stop = game.turn_number + players + 3  # the root's turn, then a round and two more turns
    assert len(valued) + len(ended) == 3000 and len(ended) < 300 and set(valued) == {(stop, valued[0][1])}
    assert all(turn <= stop for turn in ended)
