"""One ingredient of the master at a time: a variant of the search against the expert's search, same time a turn.

    python bench/ingredients.py VARIANT [--edition board] [--players 2] [--games 100] [--seed 50000] [--jobs N]
                                 [--against BUDGET] [--report FILE]

VARIANT is a budget and changes from the expert, comma-separated: ``0.1s,width=20``, ``0.1s,horizon=5``,
``0.1s,scale=20`` (points of lead worth 73%), ``0.1s,scale=5,perbag=0.33`` (the points
of lead worth 73% growing by 0.33 with every tile left in the bag, or card in the deck, as a lead decides less the more
are to come: ``bench/lead_scale.py`` fits them), ``0.1s,epsilon=0`` (how often a rollout step is random),
``0.1s,rollout=pairing`` (rollouts that open a turn with a guest scoring 0 when its partner pays),
``0.1s,rollout=patient`` (card-game rollouts that play a card only if it scores 4 or more, else draw or stop;
``patience=1``: any scoring card, but a draw where the turn would open with a card scoring 0), ``0.1s,explore=0.35``
(the UCB constant), ``0.1s,endgame=30`` (tiles or cards left from which rollouts play to the end), ``0.1s,final=3`` (a
finished game's margin squashed by 3 points instead of ``scale``: nearer a win or loss), ``0.1s,learned`` (the shipped
learned correction, or ``learned=FILE``), ``0.1s,net=FILE`` (a value network, cafe.ai.valuenet), ``0.1s,worlds=8``
(determinized search: the turn searched in 8 sampled worlds, each as if it were the real game, the turn most visited
over them played), ``0.1s,stuck=5`` (board game: every guest held whose nation has no free chair left counted as 5
points lost, as the tile held at the end or sent to the bar will cost), ``0.1s,handsize=5`` (board game: every unit of a
seat's hand size counted as 5 points lost, as the tiles held at the end would cost, so that a hand made smaller by a
full single-nation table is worth its end penalty before the end; ``handsize=-3``: 3 points won, as a larger hand scores
more a turn), ``0.1s,ending=1`` (board game: every seat's score less the end penalty its hand would pay if the game
ended now, times the weight given: most 2-player games end when a player goes out, long before the bag is empty),
``0.1s,down=1`` (card game: every face-down card counted as the 2 points it will cost at the end, times the weight
given), ``0.1s,held=0.4`` (card game: every card in hand counted as the 2 points it would cost at the end, times the
weight given; in self-play by the rollouts' step a card held beyond the other player's was worth 0.4 to 1 point less at
the end than the lead said: ``bench/held_value.py``), ``0.1s,live=2.5,dead=-1.3`` (card game: every card in hand worth
the points given, ``live`` if a table of its nation is laid, ``dead`` if not; as ``bench/held_value.py`` fits them),
``0.1s,values=mean`` (each seat valued by its score less the mean of the others', not the best other's),
``0.1s,values=mixed`` (the searching seat by its lead, the others by the mean), ``0.1s,values=scores`` (a seat out of
the game counted by its score, not behind every seat still in, as the search counted it until 2026-12-05),
``0.1s,opponents=policy``, ``opponents=value`` or ``opponents=first`` (below the root the opponents play the rollout's
policy, pick by their own values, or by their values in the round after the root's turn and by the policy later; the
search's default is by value), ``0.1s,tree=flat`` (no tree below the root's turns: every iteration plays its rollout
from the turn, flat Monte Carlo), ``0.1s,shapes`` (the root also weighs the best turn of every shape the width left out:
drawing, a card face down, fewer cards or guests), ``0.1s,prior=FILE`` (the root's turns chosen and shared out by the
policy prior in FILE, cafe.ai.prior, by PUCT, in the kinds of game it has weights for, as the master's card game;
``puct=3``: a turn's share weighed 3 times as much against its value, cafe.ai.mcts.PUCT);
several at once combine. A budget may be an iteration count (``1000,rollout=pairing``). The expert plays the same budget
without changes (``--against`` gives it another, ``--against greedy`` puts greedy players in the other seats, and
``--against 2000,opponents=value`` a variant). Prints the arena's JSON report (duplicate deals, every seating) with the
wall time; on stderr, the variant's win rate so far after every game, and ``--report FILE`` keeps the report so far in
FILE, so that a match cut short still gives its figures.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cafe.ai.base import Player, TurnPlan
from cafe.ai.learned import ValueModel, shipped
from cafe.ai.levels import register
from cafe.ai.mcts import MCTSPlayer, counted_scores, leads, margins_of, rollout_step, squash
from cafe.ai.model_file import load_once
from cafe.ai.prior import TurnPrior
from cafe.ai.valuenet import ValueNet
from cafe.ai.worlds import Game, Worlds
from cafe.arena.report import to_json
from cafe.arena.run import ArenaPlan, arena_games, in_plan_order, names_of
from cafe.arena.stats import GameOutcome, endings, player_stats
from cafe.board_game import BoardGame, end_penalties
from cafe.board_state import FREE
from cafe.card_game import PENALTY, CardGame
from cafe.steps import Kind, Step
from cafe.tiles import JOKER_F, TILE_NATION
from cafe.view import View


def pairing_rollout_step(game: Game, rng: random.Random) -> Step:
    """The search's rollout step, but a board-game turn may open with a guest scoring 0 when the partner it lets
    follow scores more than the best single guest (the turns the best single step misses)."""
    step = rollout_step(game, rng)
    if not isinstance(game, BoardGame) or game.state.placed:
        return step
    best = game.step_points(step)
    for zero in game.legal_steps():
        if zero.kind is Kind.SEAT and not game.step_points(zero):
            follow = 0
            if not game.push(zero, check=False).turn_over:
                follow = game.step_points(game.best_step(rng))
            game.pop()
            if follow > best:
                step, best = zero, follow
    return step


PATIENCE = 4  # points: a card-game rollout opens a turn with a card only if it scores this much (else draws), and
# plays a second or third card only if it scores this much (else stops)


def patient_rollout_step(game: Game, rng: random.Random, patience: int = PATIENCE) -> Step:
    """The search's greedy rollout step, but in the card game a turn opens with a card only if it scores at least
    ``patience`` points (else the player draws, when the hand allows), and goes on only with a card scoring as much."""
    step = game.best_step(rng)
    if step.kind is not Kind.SEAT or not isinstance(game, CardGame):
        return step
    placed = game.state.placed
    if (placed and game.state.pending) or game.step_points(step) >= patience:
        return step
    instead = Kind.STOP if placed else Kind.DRAW
    return next((other for other in game.legal_steps() if other.kind is instead), step)


class DeterminizedPlayer:
    """Perfect-information Monte Carlo: the turn searched in each of ``count`` sampled worlds as if that world were
    the real game (its bag's order known, as ``Worlds.exact``), by the search ``options`` describe with its share of
    the budget; the turn most visited over all the worlds is played.  It searches again at each turn's first step
    only (the board game's plans never fail)."""

    def __init__(self, count: int, options: dict[str, Any]) -> None:
        self.name = options["name"]
        self.count = count
        self.options = options
        self.rng = random.Random(options["seed"])
        self._plan = TurnPlan()

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        started = time.perf_counter()
        planned = self._plan.next(view, legal)
        if planned is not None:
            return planned
        if len(legal) == 1:
            return legal[0]
        sampler = Worlds(view, self.rng)
        budget, iterations = self.options["time_per_turn"], self.options.get("iterations")
        votes: Counter[tuple[Step, ...]] = Counter()
        for k in range(self.count):
            world = Worlds.exact(sampler.sample(self.rng))
            share = None if budget is None else (budget - (time.perf_counter() - started)) / (self.count - k)
            search = MCTSPlayer(
                **self.options
                | {
                    "seed": self.rng.randrange(1 << 30),
                    "time_per_turn": share,
                    "iterations": None if iterations is None else max(1, iterations // self.count),
                    "worlds": lambda view, rng, world=world: world,
                }
            )
            first = search.choose(view, legal)
            if search.last_search is None:  # one turn only: nothing to search
                votes[(first,)] += 1
                break
            votes.update(dict(zip(search.last_search.options, search.last_search.visits, strict=True)))
        chosen = max(votes, key=votes.__getitem__)
        self._plan.keep(view, chosen[0], chosen[1:])
        return chosen[0]


def stuck_guests(game: BoardGame) -> list[int]:
    """Each seat's guests in hand (jokers aside) whose nation has no free chair left on the board."""
    s, topo = game.state, game.topo
    dead = [not any(s.occ[c] == FREE for c in chairs) for chairs in topo.chairs_by_nation]
    return [sum(count for tile, count in enumerate(hand[:JOKER_F]) if dead[TILE_NATION[tile]]) for hand in s.hands]


def charged_leads(
    game: Game, rng: random.Random, charges: Callable[[Any], Sequence[float]], edition: type = BoardGame
) -> list[float]:
    """:func:`leads` with each seat of a game of ``edition`` not yet over charged ``charges(game)[seat]`` points."""
    scores = counted_scores(game, rng)
    if isinstance(game, edition) and not game.is_over():
        scores = [score - charge for score, charge in zip(scores, charges(game), strict=True)]
    return margins_of(scores)


def card_penalties(game: CardGame, down: float, held: float, live: float = 0.0, dead: float = 0.0) -> list[float]:
    """What each seat's face-down cards will cost at the end of a card game (RULES.md §4.6), times ``down`` (unlike
    a card held, which may yet be played, a card face down costs its points for certain), and its cards in hand would
    cost, times ``held``; less ``live`` points for every card held of a nation with a table laid and ``dead`` for every
    other card held."""
    s = game.state
    charges = []
    for seat, (faced, count) in enumerate(zip(s.down, s.hand_n, strict=True)):
        playable = live_cards(game, seat)
        charges.append(PENALTY * (down * len(faced) + held * count) - live * playable - dead * (count - playable))
    return charges


def live_cards(game: CardGame, seat: int) -> int:
    """The seat's cards in hand of a nation with a table laid: those a place may take now."""
    s = game.state
    return sum(count for card, count in enumerate(s.hands[seat]) if TILE_NATION[card] in s.slot_nat)


def scores_as_they_stand(game: Game, rng: random.Random) -> list[float]:
    """:func:`counted_scores` with a seat out of the game counted by its score, wherever that ranks it."""
    scores = counted_scores(game, rng)
    if isinstance(game, BoardGame):
        for seat in game.state.elim_order:
            scores[seat] = float(game.scores[seat])
    return scores


def left_to_draw(game: Game) -> int:
    """The tiles in the bag, or the cards in the deck."""
    return game.bag_count() if isinstance(game, BoardGame) else game.deck_count()


def mean_margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the mean of the other seats' (where a lead is minus the best other's): to a seat
    that values so, a point it scores is worth a whole point, a point it costs one of three rivals a third."""
    total = sum(scores)
    others = len(scores) - 1
    return [score - (total - score) / others for score in scores]


class Seated:
    """A player that tells its evaluation whose turn it searches: ``values=mixed`` values that seat by its lead and
    the others by their scores less the mean of the rest."""

    def __init__(self, player: Player, seat: list[int | None]) -> None:
        self.player, self.seat, self.name = player, seat, player.name

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        self.seat[0] = view.seat
        return self.player.choose(view, legal)


def variant(text: str, seed: int | None) -> Player:
    """The search a VARIANT string describes (see the module's docstring)."""
    budget, *changes = text.split(",")
    options: dict[str, Any] = {"seed": seed, "name": f"variant:{text}"}
    if budget.endswith("s"):
        options["time_per_turn"] = float(budget.removesuffix("s"))
    else:
        options["time_per_turn"], options["iterations"] = None, int(budget)
    settings = dict(change.partition("=")[::2] for change in changes)
    if "width" in settings:
        options["width"] = int(settings["width"])
    if "horizon" in settings:
        options["horizon"] = int(settings["horizon"])
    model: ValueModel | ValueNet | None = None
    if "learned" in settings:
        model = ValueModel.load(settings["learned"]) if settings["learned"] else shipped()
    if "net" in settings:
        model = load_once(ValueNet, settings["net"])
    scale = float(settings.get("scale", 10.0))
    per_bag = float(settings.get("perbag", 0.0))
    if settings.get("rollout") == "pairing":
        options["rollout"] = pairing_rollout_step
    if settings.get("rollout") == "patient":
        patience = int(settings.get("patience", PATIENCE))
        options["rollout"] = functools.partial(patient_rollout_step, patience=patience)
    if "epsilon" in settings:
        options["epsilon"] = float(settings["epsilon"])
    if "explore" in settings:
        options["explore"] = float(settings["explore"])
    if "endgame" in settings:
        options["endgame"] = options["card_endgame"] = int(settings["endgame"])
    if "opponents" in settings:
        options["opponents"] = settings["opponents"]
    if "tree" in settings:
        if settings["tree"] != "flat":
            raise SystemExit(f"tree={settings['tree']}: the only change of the tree is tree=flat")
        options["tree"] = False
    if "shapes" in settings:
        options["shapes"] = True
    if "prior" in settings:
        options["prior"] = load_once(TurnPrior, settings["prior"]).learned_shares
    if "puct" in settings:
        options["puct"] = float(settings["puct"])
    final = float(settings.get("final", scale))
    stuck = float(settings.get("stuck", 0.0))
    hand_size = float(settings.get("handsize", 0.0))
    ending = float(settings.get("ending", 0.0))
    down = float(settings.get("down", 0.0))
    held = float(settings.get("held", 0.0))
    live, dead = float(settings.get("live", 0.0)), float(settings.get("dead", 0.0))
    values = settings.get("values", "lead")
    if (stuck or hand_size or ending or down or held or live or dead) and model is not None:
        raise SystemExit("stuck=, handsize=, ending=, down=, held=, live= and dead= change the lead, not a learned one")

    me: list[int | None] = [None]

    def evaluation(game: Game, rng: random.Random) -> list[float]:
        if values == "mixed":
            scores = counted_scores(game, rng)
            margins = mean_margins(scores)
            margins[me[0] or 0] = margins_of(scores)[me[0] or 0]
        elif stuck:  # every stuck guest held (stuck_guests)
            margins = charged_leads(game, rng, lambda board: [stuck * n for n in stuck_guests(board)])
        elif ending:  # the penalties the hands would pay now
            margins = charged_leads(game, rng, lambda board: [ending * p for p in end_penalties(board.state)])
        elif down or held or live or dead:  # card game: the face-down cards' penalties, the cards held's worth
            margins = charged_leads(game, rng, lambda cards: card_penalties(cards, down, held, live, dead), CardGame)
        elif hand_size:  # every unit of hand size
            margins = charged_leads(game, rng, lambda board: [hand_size * n for n in board.state.hand_size])
        elif values == "scores":
            margins = margins_of(scores_as_they_stand(game, rng))
        elif values == "mean":
            scores = counted_scores(game, rng)
            margins = mean_margins(scores)
        else:
            margins = model.margins(game, rng) if model is not None else leads(game, rng)
        by = scale
        if game.is_over():
            by = final
        elif per_bag:  # a lead decides less the more tiles (or cards) are to come
            by = scale + per_bag * left_to_draw(game)
        return [squash(m, by) for m in margins]

    options["evaluation"] = evaluation
    if "worlds" in settings:
        return DeterminizedPlayer(int(settings["worlds"]), options)
    return Seated(MCTSPlayer(**options), me) if values == "mixed" else MCTSPlayer(**options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant", help="a budget and changes, e.g. 0.1s,width=20")
    parser.add_argument("--edition", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=2, help="the variant and players-1 experts (default 2)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=50_000, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument(
        "--against",
        help="the expert's budget, if not the variant's (e.g. 1s), greedy, or a variant (2000,opponents=value)",
    )
    parser.add_argument(
        "--report", type=Path, help="a file rewritten with the report so far as each game finishes (for a long match)"
    )
    args = parser.parse_args()
    register("variant", variant)
    against = args.against or args.variant.split(",")[0]
    expert = "greedy" if against == "greedy" else f"variant:{against}" if "," in against else f"mcts:{against}"
    plan = ArenaPlan((f"variant:{args.variant}", *[expert] * (args.players - 1)), args.games, args.edition, args.seed)
    started = time.perf_counter()
    total = len(plan.tasks())
    outcomes: list[GameOutcome] = []
    for outcome, _record in arena_games(plan, args.jobs):
        outcomes.append(outcome)
        report = report_so_far(plan, outcomes, time.perf_counter() - started)
        if args.report is not None:
            args.report.write_text(json.dumps(report) + "\n")
        first = report["results"][0]
        low, high = first["win_rate_ci95_deals"]
        print(
            f"{len(outcomes)}/{total} games: the variant won {first['win_rate']:.1%} ({low:.1%}-{high:.1%})",
            file=sys.stderr,
        )
    print(json.dumps(report_so_far(plan, outcomes, time.perf_counter() - started)))


def report_so_far(plan: ArenaPlan, outcomes: Sequence[GameOutcome], seconds: float) -> dict[str, Any]:
    """The arena's JSON report over the games finished, with the wall time so far."""
    ordered = in_plan_order(plan, outcomes)
    stats = player_stats(names_of(plan.players), ordered)
    return {**to_json(plan, stats, len(ordered), endings(ordered)), "wall_seconds": round(seconds)}


if __name__ == "__main__":
    main()
