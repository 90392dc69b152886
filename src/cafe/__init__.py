"""Café International in Python: the rules engines of both editions, notation, records and rendering.

>>> from cafe import BoardGame, Step
>>> game = BoardGame(["Ann", "Bob"], seed=7)
>>> step = game.legal_steps()[0]
>>> Step.parse(str(step)) == step
True
"""

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import BoardFileError, CafeError, IllegalStepError, NotationError, RecordError, RulesError
from cafe.game import StepResult
from cafe.layout import Board, load_board
from cafe.options import BoardRules, CardRules, make_rules
from cafe.steps import Kind, Step, format_turn, parse_step, parse_turn
from cafe.tiles import Gender, Nation, Tile

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardFileError",
    "BoardGame",
    "BoardRules",
    "CafeError",
    "CardGame",
    "CardRules",
    "Gender",
    "IllegalStepError",
    "Kind",
    "Nation",
    "NotationError",
    "RecordError",
    "RulesError",
    "Step",
    "StepResult",
    "Tile",
    "format_turn",
    "load_board",
    "make_rules",
    "parse_step",
    "parse_turn",
]
