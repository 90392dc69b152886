"""OpenSpiel's information-set MCTS playing Café International against our greedy player.

    pip install 'cafe-international[rl]'
    python examples/openspiel_ismcts.py [--seconds 10] [--simulations 8] [--edition board] [--seed 1]

The game comes from the registration in cafe.envs.openspiel; the search is
OpenSpiel's own (Python) ISMCTSBot, which resamples hidden information with the
state's resample_from_infostate.  Draws are chance nodes, sampled here by their
odds.  The game stops after --seconds (or at its end) and the scores are shown.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cafe.envs.openspiel  # noqa: F401  (registers python_cafe_international)
from cafe.ai.greedy import GreedyPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="stop after this long (default 10)")
    parser.add_argument("--simulations", type=int, default=8, help="ISMCTS simulations a step (default 8)")
    parser.add_argument("--edition", choices=("board", "cards"), default="board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game("python_cafe_international", {"edition": args.edition, "players": 2})
    rng = random.Random(args.seed)
    search = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed)),
        30.0,
        args.simulations,
        random_state=np.random.RandomState(args.seed),
    )
    greedy = GreedyPlayer(seed=args.seed)
    state = game.new_initial_state()
    stop_at = time.perf_counter() + args.seconds
    steps = 0
    while not state.is_terminal() and time.perf_counter() < stop_at:
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
            continue
        player = state.current_player()
        if player == 0:
            action = int(search.step(state))
        else:
            view = state.view(player)
            legal = state.engine.legal_steps()
            action = game.space.index(greedy.choose(view, legal))
        print(f"player {player}: {state.action_to_string(player, action)}")
        state.apply_action(action)
        steps += 1
    scores = state.engine.scores if state.engine is not None else ()
    ending = "game over" if state.is_terminal() else f"stopped after {args.seconds:g} s"
    print(f"{ending}: {steps} steps; scores ISMCTS {scores[0]}, greedy {scores[1]}")


if __name__ == "__main__":
    main()
