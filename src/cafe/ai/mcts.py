"""The search player: information-set Monte Carlo tree search with a value per player.

Each iteration samples a fresh world consistent with the bot's view (a new
order of the unseen tiles, and unseen hands where hands are hidden; see
:mod:`cafe.ai.worlds`), walks the tree of steps in it, adds one node, plays a
heuristic rollout for a few turns and backs up one value per player: by
default each player's lead, squashed (:func:`evaluate`); the master passes
its learned evaluation instead (:mod:`cafe.ai.learned`).  This is
single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): a node's
children are the steps seen in any world, and a child's exploration term
counts the iterations in which it was available.  The bot picks by its own
value, and so do its opponents (max^n; with two players, minimax), unless
told to model them by the rollout's policy (see :meth:`MCTSPlayer._iterate`).  A node
widens progressively: its steps are tried best-scoring first, and a node
visited n times chooses among its 1 + sqrt(n) best-scoring steps.

The root's choices are whole turns, so the bot thinks once per turn: the
budget is per turn, and the turn's later steps follow the plan at once.  When
the plan cannot go on (in the card game a replacement table may differ from
the sampled one), the turn is searched again in the time it has left.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cafe.ai.base import TurnPlan
from cafe.ai.turns import TurnOption, playable_turns
from cafe.ai.worlds import Game, Worlds
from cafe.card_game import CardGame
from cafe.steps import Kind, Step
from cafe.view import BoardView, View

SECONDS = 1.0  # a turn's budget when none is given
TIME_SHARE = 0.95  # of the turn's budget spent searching; the rest covers setting up and answering
WIDTH = 12  # whole turns the root considers, the best-scoring first
SCALE = 10.0  # points of lead worth about 73% in the value of a position
EXPLORE = 0.7  # the UCB constant
PUCT = 1.0  # with a prior: the weight of a turn's share against its value (in (0, 1)), see _pick_by_prior
EPSILON = 0.1  # how often a rollout step is random instead of the best-scoring one
ENDGAME = 15  # tiles (or cards) left to draw from which rollouts play to the end of the game
ENDGAME_HORIZON = 1_000  # turns: more than any game has left
ELIMINATED = 50.0  # points below the lowest seat still in at which an eliminated seat is counted: a sure loss
BY_VALUE = "value"  # below the root, each opponent picks its step by its own value (max^n)
BY_POLICY = "policy"  # below the root, each opponent plays the rollout's policy
BY_VALUE_FIRST = "first"  # by value in the round after the root's turn, by the rollout's policy later
OPPONENTS = (BY_VALUE, BY_POLICY, BY_VALUE_FIRST)


@dataclass(frozen=True)
class SearchResult:
    """What a turn's search found: its whole-turn options, their visits, and their mean values to the mover."""

    seat: int | None
    turn: int
    options: tuple[tuple[Step, ...], ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]

    @property
    def chosen(self) -> int:
        """The index of the turn the search plays: the most visited, the better valued of equals."""
        return max(range(len(self.options)), key=lambda k: (self.visits[k], self.values[k]))


class Node:
    """Statistics of one step in the tree: visits, availability, and the total value per seat."""

    __slots__ = ("avail", "children", "legal", "legal_for", "total", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Step, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * seats
        self.legal_for: tuple[int, ...] | None = None  # the mover's hand (and tables) ``legal`` was made for
        self.legal: list[Step] = []

    def legal_steps(self, game: Game) -> list[Step]:
        """The legal steps of the node's position in this world, the best-scoring first.

        Every world reaches a node by the same steps, so the worlds differ
        only in the hands (and, in the card game, in replacement tables); the
        legal steps are generated again only when those differ from last time.
        """
        s = game.state
        key = (*s.hands[s.current], *(s.slot_nat if isinstance(game, CardGame) else ()))
        if key != self.legal_for:
            self.legal_for, self.legal = key, sorted(game.legal_steps(), key=game.step_points, reverse=True)
        return self.legal


def leads(game: Game, rng: random.Random) -> list[float]:
    """Each seat's lead in points: its score minus the best other score (:func:`counted_scores`)."""
    return margins_of(counted_scores(game, rng))


def counted_scores(game: Game, rng: random.Random) -> list[float]:
    """Each seat's score, the points of the next player's best step counted as theirs already.

    A rollout stops at the end of a turn, with the next player about to
    move: counting that step means a turn which leaves points to the next
    player is not judged by a position where they have not been taken yet.
    A seat eliminated at the bar ranks after every seat still in, whatever
    its score (RULES.md §2.5, §2.8): it is counted :data:`ELIMINATED` points
    below the lowest of them, and each seat eliminated before it as much again.
    """
    scores = [float(score) for score in game.scores]
    if not game.is_over():
        scores[game.current_player] += game.step_points(game.best_step(rng))
    if not isinstance(game, CardGame) and game.state.elim_order:
        still_in = [score for score, out in zip(scores, game.state.eliminated, strict=True) if not out]
        floor = min(still_in) if still_in else 0.0
        for k, seat in enumerate(reversed(game.state.elim_order)):
            scores[seat] = floor - ELIMINATED * (k + 1)
    return scores


def margins_of(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the best other score."""
    return [score - max(s for p, s in enumerate(scores) if p != seat) for seat, score in enumerate(scores)]


def squash(margin: float, scale: float = SCALE) -> float:
    """A lead in points as a value in (0, 1): ``scale`` points of lead are worth about 73%."""
    return 1.0 / (1.0 + math.exp(-margin / scale))


def unsquash(value: float, scale: float = SCALE) -> float:
    """The lead in points that :func:`squash` makes ``value`` (in (0, 1); 0 and 1 are taken as a hair inside)."""
    value = min(max(value, 1e-9), 1.0 - 1e-9)
    return scale * math.log(value / (1.0 - value))


def evaluate(game: Game, rng: random.Random) -> list[float]:
    """The value of a position to each seat, in (0, 1): its lead (see :func:`leads`), squashed."""
    return [squash(lead) for lead in leads(game, rng)]


Evaluation = Callable[[Game, random.Random], list[float]]


def rollout_step(game: Game, rng: random.Random, epsilon: float = EPSILON) -> Step:
    """The heuristic rollout policy: the best-scoring step (the engine's fast path), a random one ``epsilon`` of the
    time."""
    if epsilon and rng.random() < epsilon:
        return game.random_step(rng)
    return game.best_step(rng)


Rollout = Callable[[Game, random.Random], Step]
Cut = Callable[[Game, Sequence[Step]], tuple[Step, ...]]  # a turn's steps as a root's choice: see candidate_turns
WorldsOf = Callable[[View, random.Random], Worlds]  # Worlds; the real game when measuring (Worlds.exact)
# each turn's share of the root's search (cafe.ai.prior); None where the prior says nothing of this kind of game
Prior = Callable[[Game, Sequence[TurnOption]], list[float] | None]


class MCTSPlayer:
    """Monte Carlo tree search over sampled worlds, with a time budget per turn or an iteration budget (given
    neither, a second a turn; given iterations alone, no clock: the same search on any machine at any load).

    The root's choices are whole turns (every way to finish the turn in
    progress, the ``width`` best-scoring kept); below the root the tree grows
    step by step.  The chosen turn is then played out one step per call.
    """

    def __init__(
        self,
        time_per_turn: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        name: str = "mcts",
        horizon: int | None = None,
        width: int = WIDTH,
        clock: Callable[[], float] = time.perf_counter,
        evaluation: Evaluation = evaluate,
        rollout: Rollout | None = None,
        epsilon: float = EPSILON,
        explore: float = EXPLORE,
        endgame: int = ENDGAME,
        card_endgame: int = ENDGAME,
        worlds: WorldsOf = Worlds,
        opponents: str = BY_VALUE,
        prior: Prior | None = None,
        tree: bool = True,
        shapes: bool = False,
        puct: float = PUCT,
    ) -> None:
        if time_per_turn is None and iterations is None:
            time_per_turn = SECONDS
        self.name = name
        self.time_per_turn = time_per_turn
        self.iterations = iterations
        self.horizon = horizon  # turns after the root's at which every iteration is valued (None: a round and two more)
        self.width = width
        self.evaluation = evaluation
        self.rollout = rollout  # None: rollout_step, called directly (the compiled search's fast path)
        self.epsilon = epsilon  # of rollout_step
        self.explore = explore  # the UCB constant
        self.endgame = endgame  # tiles left in the bag from which rollouts play to the end of the game
        self.card_endgame = card_endgame  # the same for cards left in the deck
        self.worlds = worlds
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents: one of {', '.join(OPPONENTS)}, not {opponents!r}")
        self.opponents = opponents  # how the opponents below the root choose (see _iterate)
        self.prior = prior  # None: the root keeps the best-scoring turns and shares its iterations by UCB1
        self.puct = puct  # with a prior: the weight of a turn's share (see _pick_by_prior)
        # False: the tree holds the root's turns alone, every iteration a rollout from the turn (flat Monte Carlo; what
        # the tree below the root adds is measured against it in docs/players.md, "Strength and the budget")
        self.tree = tree
        self.shapes = shapes  # True: the root also keeps the best turn of every shape the width left out (turn_shape)
        self.rng = random.Random(seed)
        self.clock = clock
        self._plan = TurnPlan()
        self._turn: tuple[int | None, int] | None = None  # the turn being played, and the time spent on it
        self._spent = 0.0
        self.last_iterations = 0
        self.last_search: SearchResult | None = None  # what the last search found (self-play records it)

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        started = self.clock()
        planned = self._plan.next(view, legal)
        if planned is not None:
            return planned
        if self._turn != (view.seat, view.turn_number):
            self._turn, self._spent = (view.seat, view.turn_number), 0.0
        try:
            if len(legal) == 1:
                return legal[0]
            worlds = self.worlds(view, self.rng)
            shares: list[float] | None = None
            if self.prior is None:
                options = candidate_turns(worlds.base, legal, self.width, shapes=self.shapes)
            else:
                options, shares = favoured_turns(worlds.base, legal, self.width, self.prior)
            if len(options) == 1:
                chosen = options[0]
            else:
                deadline = None
                if self.time_per_turn is not None:  # a second search in the same turn gets what is left
                    deadline = started + max(0.0, self.time_per_turn * TIME_SHARE - self._spent)
                # paused while searching (see _search); where several threads search at once (the café's computer
                # players), the search that paused it starts it again as it ends
                collecting = gc.isenabled()
                gc.disable()
                try:
                    chosen = self._search(view, worlds, options, deadline, shares)
                finally:
                    if collecting:
                        gc.enable()
            self._plan.keep(view, chosen[0], chosen[1:])
            return chosen[0]
        finally:
            self._spent += self.clock() - started

    def _stop_turn(self, view: View) -> int:
        """The turn at whose start every iteration of this search is valued: the root's turn and a round and two
        more turns after it, or the end of the game once few tiles (or cards) are left to draw, so that the
        penalties for held tiles count.

        The same turn for every iteration, however deep its tree path: a horizon counted from each leaf would value
        deeper paths turns later, with another player to move, and the turns searched most (whose trees grow
        deepest) would be judged on another scale than the rest.
        """
        if isinstance(view, BoardView):
            unseen, endgame = view.bag_count, self.endgame
        else:
            unseen, endgame = view.deck_count, self.card_endgame
        turns = ENDGAME_HORIZON if unseen <= endgame else self.horizon or len(view.players) + 2
        return view.turn_number + 1 + turns

    def _by_value_until(self, view: View, stop: int) -> int:
        """The turn from which the opponents below the root play the rollout's policy instead of picking by their
        own values (see :attr:`opponents`)."""
        if self.opponents == BY_VALUE:
            return stop
        if self.opponents == BY_VALUE_FIRST:
            return view.turn_number + len(view.players)
        return view.turn_number

    def value_turns(
        self, view: View, worlds: Worlds, options: Sequence[tuple[Step, ...]], per_option: int
    ) -> list[float]:
        """Each whole turn's value to the mover, in (0, 1), from ``per_option`` iterations below it.

        Every turn is searched in the same worlds with the same rollout dice (its k-th iteration is everyone's
        k-th), so that their values differ by the turns and not by luck: this is how a played turn is compared
        with the best ones (cafe.ai.analysis).
        """
        seats, mover, stop = len(view.players), view.current_player, self._stop_turn(view)
        by_value = self._by_value_until(view, stop)
        roots = [Node(seats) for _ in options]
        search_seed = self.rng.randrange(1 << 30)
        for k in range(per_option):
            for root, option in zip(roots, options, strict=True):
                rng = random.Random(search_seed + k)
                game = worlds.sample(rng)
                for step in option:
                    game.simulate(step)
                self._iterate(game, root, stop, rng, mover, by_value)
        return [root.total[mover] / root.visits for root in roots]

    def _search(
        self,
        view: View,
        worlds: Worlds,
        options: list[tuple[Step, ...]],
        deadline: float | None,
        shares: list[float] | None = None,
    ) -> tuple[Step, ...]:
        """The most visited of ``options`` after searching until ``deadline``, sharing the iterations by UCB1 or,
        given the prior's ``shares`` of the options, by PUCT.  Called with Python's cyclic garbage
        collector paused: the tree holds no cycles (reference counting frees it), a 1-second search leaves a few
        hundred cyclic objects at most, and a full collection scanning the tree (some 20 ms) that fell on the last
        iteration made turns overrun a small budget."""
        seats = len(view.players)
        root = [Node(seats) for _ in options]
        stop = self._stop_turn(view)
        by_value = self._by_value_until(view, stop)
        mover = view.current_player
        search_seed = self.rng.randrange(1 << 30)
        done = 0
        while (self.iterations is None or done < self.iterations) and (deadline is None or self.clock() < deadline):
            i = self._pick(root, mover, done) if shares is None else self._pick_by_prior(root, mover, done, shares)
            # common random numbers: every turn's k-th iteration sees the same world and the same rollout
            # dice, so turns are compared on equal luck
            rng = random.Random(search_seed + root[i].visits)
            game = worlds.sample(rng)
            for step in options[i]:
                game.simulate(step)
            self._iterate(game, root[i], stop, rng, mover, by_value)
            done += 1
        self.last_iterations = done
        self.last_search = SearchResult(
            view.seat,
            view.turn_number,
            tuple(options),
            tuple(node.visits for node in root),
            tuple(node.total[mover] / node.visits if node.visits else 0.5 for node in root),
        )
        return options[self.last_search.chosen]

    def _pick(self, root: list[Node], mover: int, done: int) -> int:
        """UCB1 over the root's turns (each is available in every world: the mover's hand is known)."""
        for i, node in enumerate(root):
            if not node.visits:
                return i
        log_n, explore = math.log(done), self.explore
        return max(
            range(len(root)),
            key=lambda i: root[i].total[mover] / root[i].visits + explore * math.sqrt(log_n / root[i].visits),
        )

    def _pick_by_prior(self, root: list[Node], mover: int, done: int, shares: list[float]) -> int:
        """PUCT over the root's turns, as AlphaZero shares its search by its policy (every turn tried once first)."""
        for i, node in enumerate(root):
            if not node.visits:
                return i
        weight = self.puct * math.sqrt(done)
        return max(
            range(len(root)),
            key=lambda i: root[i].total[mover] / root[i].visits + weight * shares[i] / (1 + root[i].visits),
        )

    def _iterate(self, game: Game, start: Node, stop: int, rng: random.Random, me: int, by_value: int) -> None:
        """One iteration below a root turn of seat ``me``: select, expand one node, roll out, back up, the position
        valued at the start of turn ``stop`` (the tree grows no further); without a :attr:`tree`, the rollout alone.

        Seat ``me`` picks by UCB on its own value.  The opponents pick so too (max^n) before turn ``by_value``, and
        from it play the step a rollout would (:attr:`opponents`: by default never; measured with more than two
        players in docs/players.md, "Strength and the budget").
        """
        path = [start]
        node = start
        explore, rollout, epsilon = self.explore, self.rollout, self.epsilon
        seats = len(start.total)
        while self.tree and not game.is_over() and game.turn_number < stop:
            mover = game.current_player
            children = node.children
            if mover != me and game.turn_number >= by_value:
                step = rollout_step(game, rng, epsilon) if rollout is None else rollout(game, rng)
                game.simulate(step)
                child = children.get(step)
                if child is None:
                    node = children[step] = Node(seats)
                    path.append(node)
                    break
                node = child
                path.append(node)
                continue
            legal = node.legal_steps(game)[: 1 + int(math.sqrt(node.visits))]  # progressive widening
            untried = [step for step in legal if step not in children]
            for step in legal:
                child = children.get(step)
                if child is not None:
                    child.avail += 1
            if untried:
                step = untried[0]
                node = children[step] = Node(seats)
                node.avail = 1
                game.simulate(step)
                path.append(node)
                break
            best_step, best_value = legal[0], -1.0
            for step in legal:
                child = children[step]
                value = child.total[mover] / child.visits + explore * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_step, best_value = step, value
            node = children[best_step]
            game.simulate(best_step)
            path.append(node)
        while not game.is_over() and game.turn_number < stop:
            game.simulate(rollout_step(game, rng, epsilon) if rollout is None else rollout(game, rng))
        values = self.evaluation(game, rng)
        for n in path:
            n.visits += 1
            total = n.total
            for seat, v in enumerate(values):
                total[seat] += v


def candidate_turns(
    game: Game, legal: Sequence[Step], width: int, cut: Cut | None = None, shapes: bool = False
) -> list[tuple[Step, ...]]:
    """The root's choices: distinct ways to finish the turn, the ``width`` best-scoring first; with ``cut``, each
    way shortened by it first (a puzzle's answer ends where the turn shows a new table card, cafe.learn.puzzles)
    and ranked by its best-scoring ending; with ``shapes``, then the best of every shape (turn_shape) that the
    width left out, so that drawing, or playing fewer cards, is weighed even when many turns score."""
    return best_scoring(game, distinct_turns(game, legal), width, cut, shapes)


def best_scoring(
    game: Game, options: Sequence[TurnOption], width: int, cut: Cut | None = None, shapes: bool = False
) -> list[tuple[Step, ...]]:
    """The ``width`` best-scoring of the distinct ``options``, as :func:`candidate_turns` chooses them."""
    ranked = sorted(options, key=lambda o: (-o.points, -o.completed, o.to_bar))
    turns: dict[tuple[str, ...], tuple[Step, ...]] = {}
    seen: set[tuple[int, str]] = set()
    for option in ranked:
        if len(turns) == width and not shapes:
            break
        steps = option.steps if cut is None else cut(game, option.steps)
        shape = turn_shape(steps)
        if len(turns) < width or shape not in seen:
            turns.setdefault(turn_key(steps), steps)
            seen.add(shape)
    return list(turns.values())


def turn_shape(steps: Sequence[Step]) -> tuple[int, str]:
    """What kind of turn it is: how many guests or cards it seats, and how it ends (drawing, a card face down, the
    bar, ...)."""
    return sum(step.kind is Kind.SEAT for step in steps), steps[-1].kind.value


def turn_key(steps: Sequence[Step]) -> tuple[str, ...]:
    """What tells one way to finish a turn from another: its steps in any order (the same guests seated in another
    order end the same way)."""
    return tuple(sorted(map(str, steps)))


def distinct_turns(game: Game, legal: Sequence[Step]) -> list[TurnOption]:
    """The ways to finish the turn, each once: the same guests in another order end the same way."""
    seen: dict[tuple[str, ...], TurnOption] = {}
    for option in playable_turns(game, legal):
        seen.setdefault(turn_key(option.steps), option)
    return list(seen.values())


def favoured_turns(
    game: Game, legal: Sequence[Step], width: int, prior: Prior
) -> tuple[list[tuple[Step, ...]], list[float] | None]:
    """The root's choices by a prior: the ``width`` turns it favours most, most favoured first, and their shares
    (summing to 1 over those kept); where the prior says nothing of this kind of game, the ``width`` best-scoring
    turns and no shares, as without a prior."""
    options = distinct_turns(game, legal)
    shares = prior(game, options)
    if shares is None:
        return best_scoring(game, options, width), None
    kept = sorted(range(len(options)), key=lambda i: -shares[i])[:width]
    total = sum(shares[i] for i in kept) or 1.0
    return [options[i].steps for i in kept], [shares[i] / total for i in kept]
