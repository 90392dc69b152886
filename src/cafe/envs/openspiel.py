"""Café International for OpenSpiel (``pip install cafe-international[rl]``).

Importing this module registers the game with pyspiel as
``python_cafe_international``, with the parameters ``edition`` (``board`` or
``cards``), ``players`` and ``preset`` (a rules preset of that edition):

>>> import pyspiel
>>> import cafe.envs.openspiel
>>> game = pyspiel.load_game("python_cafe_international", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Player actions are the numbers of :mod:`cafe.envs.actions`.  Every draw is a
chance node whose outcome is the drawn tile type (the card game: a client
card's type, or ``24 + nation`` for a table card), with the probability of
that type among the tiles still undrawn.  The bag is shuffled lazily: a
chance node settles which tile lies next in the bag, a few draws ahead of
the players (as many as one step can draw), and nobody sees it until it is
drawn.  So a new game opens with the deal's chance nodes.

A terminal state's returns are zero-sum: each player's final score minus the
mean of the others' scores.  The observation string is the player's view as
text; the information state string is the view as JSON, which holds the
whole public history (every step in notation) besides what the player sees
now.  Both tensors are :mod:`cafe.envs.observation`'s vector of that view:
they hold the present, not the order of past draws.
``resample_from_infostate`` deals everything the player cannot see afresh
(the undrawn tiles, and hidden hands and face-down cards where the rules
hide them), keeping the game's history.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cafe.ai.levels import PlayerSpecError
from cafe.ai.worlds import Worlds
from cafe.board_game import HAND as BOARD_HAND
from cafe.board_game import BoardGame
from cafe.card_game import HAND as CARD_HAND
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace, actions_of
from cafe.envs.numeric import fill_observation
from cafe.envs.observation import observation_size
from cafe.i18n import T
from cafe.layout import load_card_board
from cafe.options import make_rules
from cafe.steps import Step
from cafe.text import view_text
from cafe.tiles import NATIONS, TILE_TYPES, TILES, Nation, Tile, full_set
from cafe.view import BoardView, View

NAME = "python_cafe_international"
DEFAULTS: dict[str, Any] = {"edition": "board", "players": 4, "preset": "printed"}
CLIENT_TYPES = 24  # the card game's chance outcomes: client card types, then 24 + nation for table cards
MAX_GAME_LENGTH = 2_000  # player actions: a safe bound (games take about 80 to 200)
UTILITY_BOUND = 1_000.0  # points: no score margin comes near it
UCT_C = 30.0  # the search's exploration constant, about the spread of final score margins in points
POSITIONS = {"bag": "bag_pos", "deck": "deck_pos", "table_cards": "table_pos"}  # a pile's draw position

Game = BoardGame | CardGame

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Café International",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class Draws:
    """One pile drawn from in order (the bag, the deck or the table pile), settled by chance ahead of use.

    ``order`` is the pile in draw order: the first ``settled`` entries were
    chosen by chance nodes, the rest are placeholders in a fixed order.
    """

    def __init__(self, items: list[int], ahead: int) -> None:
        self.settled = 0
        self.ahead = ahead  # the most one step can draw
        self.order: list[int] = []
        self.left: dict[int, int] = {}  # item -> entries not yet settled
        self.read(sorted(items))

    def __deepcopy__(self, memo: dict[int, Any]) -> Draws:
        other = object.__new__(Draws)
        other.order, other.settled, other.ahead, other.left = self.order.copy(), self.settled, self.ahead, self.left
        return other

    def short(self, drawn: int) -> bool:
        """Must chance settle another entry before the players go on?"""
        return self.settled < min(len(self.order), drawn + self.ahead)

    def outcomes(self) -> list[tuple[int, float]]:
        total = len(self.order) - self.settled
        return [(item, count / total) for item, count in self.left.items() if count]

    def settle(self, item: int) -> None:
        at = self.order.index(item, self.settled)
        self.order[self.settled], self.order[at] = item, self.order[self.settled]
        self.settled += 1
        self.left = {**self.left, item: self.left[item] - 1}  # a new dict: copies share the old one

    def read(self, order: list[int]) -> None:
        """Take a whole draw order (every entry settled as far as it was)."""
        self.order = order
        self.left = dict(sorted(Counter(order[self.settled :]).items()))


class CafeGame(pyspiel.Game):
    """The pyspiel game: one edition, number of players and rules preset."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.edition, self.players, self.preset = str(params["edition"]), int(params["players"]), str(params["preset"])
        make_rules(self.edition, self.preset)  # a clear error for an unknown edition or preset
        sample = self.new_engine()
        self.space: ActionSpace = actions_of(sample)
        self.tensor_size = observation_size(sample.view(0))
        chance = TILE_TYPES if self.edition == "board" else CLIENT_TYPES + len(Nation)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.n,
            max_chance_outcomes=chance,
            num_players=self.players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)

    def __deepcopy__(self, memo: dict[int, Any]) -> CafeGame:
        return self  # a game never changes: states cloned by pyspiel share it

    def new_engine(self, **order: Any) -> Game:
        """An engine game of these settings; ``order`` gives the bag (or deck and table cards) in draw order."""
        if self.edition == "board":
            return BoardGame(self.players, rules=self.preset, seed=0, **order)
        return CardGame(self.players, rules=self.preset, seed=0, **order)

    def new_initial_state(self) -> CafeState:
        return CafeState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CafeObserver:
        return CafeObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class CafeState(pyspiel.State):
    """A position: the deal in progress (chance nodes), or an engine game with its piles settled ahead."""

    def __init__(self, game: CafeGame) -> None:
        super().__init__(game)
        self.cafe = game
        self.engine: Game | None = None
        if game.edition == "board":
            self.piles = {"bag": Draws(list(full_set()), BOARD_HAND)}
            self._deal = {"bag": game.players * BOARD_HAND}
        else:
            x = load_card_board()
            slots_per_place = max(len(slots) for slots in x.place_slots)
            self.piles = {
                "deck": Draws(list(full_set(jokers=False)), 1),
                "table_cards": Draws([CLIENT_TYPES + n for n in Nation] * 2, slots_per_place),
            }
            self._deal = {"deck": game.players * CARD_HAND, "table_cards": len(x.slots)}
        self._chance = self._short_pile()  # the pile chance settles next, if any (kept up to date by each action)

    # ------------------------------------------------------------------ chance

    def _short_pile(self) -> str | None:
        """The pile chance must settle next, if any."""
        for name, pile in self.piles.items():
            if pile.short(self._drawn(name)):
                return name
        return None

    def _drawn(self, name: str) -> int:
        """How many of a pile's entries have been drawn (or will be, by the deal)."""
        if self.engine is None:
            return self._deal[name]
        return int(getattr(self.engine.state, POSITIONS[name]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        name = self._chance
        assert name is not None, "not a chance node"
        return self.piles[name].outcomes()

    # ------------------------------------------------------------------ the pyspiel state API

    def current_player(self) -> int:
        if self.engine is not None and self.engine.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine is not None
        return self.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player == self.engine.current_player
        return self.cafe.space.legal(self.engine)

    def _apply_action(self, action: int) -> None:
        name = self._chance
        if name is not None:
            self.piles[name].settle(action)
            if self.engine is None and self._short_pile() is None:
                self.engine = self.cafe.new_engine(**{pile: self._order(pile) for pile in self.piles})
            elif self.engine is not None:
                setattr(self.engine, name, self._order(name))
        else:
            assert self.engine is not None
            self.engine.push(self.cafe.space.steps[action])
        self._chance = self._short_pile()

    def _order(self, name: str) -> tuple[Any, ...]:
        """A pile in draw order, as the engine takes it (the inverse of :meth:`_take_order`)."""
        if name == "table_cards":
            return tuple(NATIONS[item - CLIENT_TYPES] for item in self.piles[name].order)
        return tuple(map(TILES.__getitem__, self.piles[name].order))

    def _take_order(self, engine: Game) -> None:
        """Every pile's draw order read back from an engine game, as chance outcomes."""
        for name, pile in self.piles.items():
            offset = CLIENT_TYPES if name == "table_cards" else 0
            pile.read([int(item) + offset for item in getattr(engine, name)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.cafe.edition == "cards" and action >= CLIENT_TYPES:
                return f"table {Nation(action - CLIENT_TYPES).name}"
            return f"draw {Tile(action).name}"
        return str(self.cafe.space.steps[action])

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.cafe.players
        assert self.engine is not None
        scores = self.engine.scores
        total, others = sum(scores), len(scores) - 1
        return [float(score - (total - score) / others) for score in scores]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CafeState:
        """A state ``player_id`` cannot tell from this one: what it cannot see dealt afresh."""
        state: CafeState = self.clone()
        if self.engine is not None:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
            state.engine = Worlds.around(self.engine, player_id).sample(rng)
            state._take_order(state.engine)
            state._chance = state._short_pile()
        return state

    def view(self, player: int | None) -> View | None:
        """What ``player`` sees (None: a spectator); None while the deal is in progress."""
        return None if self.engine is None else self.engine.view(player)

    def __str__(self) -> str:
        if self.engine is None:
            settled = ", ".join(f"{name} {pile.settled}" for name, pile in self.piles.items())
            return f"dealing ({settled} settled)"
        return view_text(self.engine.view(None))


class CafeObserver:
    """Observations and information states (pyspiel's Python observer protocol)."""

    def __init__(self, game: CafeGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters; got {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: CafeState, player: int) -> View | None:
        return state.view(player if self.private else None)

    def set_from(self, state: CafeState, player: int) -> None:
        self.tensor[:] = 0.0
        if state.engine is not None:
            fill_observation(state.engine, player if self.private else None, self.tensor)

    def string_from(self, state: CafeState, player: int) -> str:
        view = self._view(state, player)
        if view is None:
            return str(state)
        if self.recall:
            return json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
        return view_text(view)


pyspiel.register_game(GAME_TYPE, CafeGame)


def state_around(game: CafeGame, engine: Game) -> CafeState:
    """A pyspiel state at an engine game's position with every pile settled (a world, no chance nodes left)."""
    state = game.new_initial_state()
    state.engine = engine
    state._take_order(engine)
    for pile in state.piles.values():
        pile.settled = len(pile.order)
    return state


def ismcts_player(arg: str, seed: int | None = None) -> ISMCTSPlayer:
    """``ismcts:N``, as the players' registry names it (an entry point of the group ``cafe.players``)."""
    if not arg.isdigit() or int(arg) < 1:
        raise PlayerSpecError(T("ismcts needs a number of simulations a step, like ismcts:20 (got '{arg}')", arg=arg))
    return ISMCTSPlayer(int(arg), seed)


class ISMCTSPlayer:
    """OpenSpiel's own information-set MCTS as a player (``ismcts:N`` in the arena).

    ``N`` simulations a step, each a random rollout to the end of the game
    (OpenSpiel's RandomRolloutEvaluator).  The bot sees only its view: every
    simulation starts in a world sampled from it (:class:`cafe.ai.worlds.Worlds`),
    handed to the search as its resampler.
    """

    def __init__(self, simulations: int, seed: int | None = None, uct_c: float = UCT_C) -> None:
        self.name = f"ismcts:{simulations}"
        self.simulations = simulations
        self.uct_c = uct_c
        self.rng = random.Random(seed)
        self._numpy_rng = np.random.RandomState(self.rng.randrange(1 << 31))
        self._games: dict[tuple[str, int], CafeGame] = {}

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        if len(legal) == 1:
            return legal[0]
        edition = "board" if isinstance(view, BoardView) else "cards"
        key = (edition, len(view.players))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = CafeGame({"edition": edition, "players": len(view.players)})
        worlds = Worlds(view, self.rng)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, self._numpy_rng),
            self.uct_c,
            self.simulations,
            random_state=self._numpy_rng,
        )
        bot.set_resampler(lambda state, player: state_around(game, worlds.sample(self.rng)))
        step = game.space.steps[int(bot.step(state_around(game, worlds.sample(self.rng))))]
        return step if step in legal else max(legal, key=worlds.base.step_points)
