"""Reading the other hands from the other players' choices: which hidden hands a player's last turn makes likely.

A card-game player who draws a card instead of playing one seldom held a card that would have scored well: in the
expert's own games a player whose best single card would have scored 8 points or more drew about one time in
thirty, one with no scoring card nearly always.  So when the player before this one ended their turn by drawing,
the search's worlds are weighted by how likely each dealt hand makes that draw: a world is kept with a probability
proportional to :data:`DRAW_GIVEN_BEST` at the best single play of that hand (cafe.ai.worlds rejects the others).
Nothing changed at the tables since that draw, so the hand can be judged on the tables as they lie now.
"""

from __future__ import annotations

from collections.abc import Callable

from cafe.card_game import CardGame
from cafe.card_state import CARD_TYPES
from cafe.steps import Kind
from cafe.view import CardView, View

# How often a player draws with fewer than 12 cards in hand, by the points of the best card they could have played
# alone (the last entry for that many points and more).  Measured in 4,110 turns of the expert's own 2-player card
# games at 0.05 s a turn (40 games from seed 1000), rounded.
DRAW_GIVEN_BEST = (0.97, 0.9, 0.85, 0.77, 0.68, 0.56, 0.29, 0.29, 0.03)

Weight = Callable[[CardGame], float]


def drawn_likelihood(best: int) -> float:
    return DRAW_GIVEN_BEST[min(best, len(DRAW_GIVEN_BEST) - 1)]


def single_points(game: CardGame) -> list[int]:
    """Each kind of card: the most it would score played alone now, by the player to move (0 if it cannot)."""
    out = []
    cur = game.state.current
    for card in range(CARD_TYPES):
        trial = game.copy()
        s = trial.state
        hand = [0] * CARD_TYPES
        hand[card] = 1
        s.hands, s.hand_n = list(s.hands), list(s.hand_n)
        s.hands[cur], s.hand_n[cur] = hand, 1
        s.legal = None
        out.append(max((trial.step_points(step) for step in trial.legal_steps() if step.kind is Kind.SEAT), default=0))
    return out


def after_a_draw(view: View, base: CardGame) -> Weight | None:
    """The weight of a world by the last turn, if it was a draw by the player before this one at the start of this
    turn; else None (nothing to read)."""
    if not isinstance(view, CardView) or view.this_turn or not view.turns or view.turns[-1] != "draw":
        return None
    drew = (view.current_player - 1) % len(view.players)
    points = single_points(base)
    top = drawn_likelihood(0)

    def weight(world: CardGame) -> float:
        hand = world.state.hands[drew]
        held = sorted((points[card] for card in range(CARD_TYPES) for _ in range(hand[card])), reverse=True)
        if not held:
            return 1.0
        best = drawn_likelihood(held[0])
        if len(held) == 1 or held[1] == held[0]:
            return best / top
        # the card drawn was one of these, each alike: only the best one drawn leaves the second best as it was
        return ((len(held) - 1) * best + drawn_likelihood(held[1])) / len(held) / top

    return weight
