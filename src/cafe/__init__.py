"""Café International in Python: the rules engines of both editions, notation, records and rendering.

Where ``scripts/compile.py`` (run by ``make``) built the engine with mypyc, its modules are compiled; with the
environment variable ``CAFE_PURE=1`` set they are imported from their source all the same.

>>> from cafe import BoardGame, Step
>>> game = BoardGame(["Ann", "Bob"], seed=7)
>>> step = game.legal_steps()[0]
>>> Step.parse(str(step)) == step
True
"""

import os as _os
import sys as _sys
from importlib.machinery import SOURCE_SUFFIXES as _SOURCE
from importlib.machinery import FileFinder as _FileFinder
from importlib.machinery import SourceFileLoader as _SourceFileLoader

if _os.environ.get("CAFE_PURE"):  # the engine's modules from their source, even where they are built compiled
    for _folder in (__path__[0], *(_os.path.join(__path__[0], sub) for sub in ("ai", "envs"))):  # compiled ones
        _sys.path_importer_cache[_folder] = _FileFinder(_folder, (_SourceFileLoader, _SOURCE))

from cafe.board_game import BoardGame  # after the choice of compiled or pure
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
