"""Computer players.  Every player sees only its own view and the legal steps."""

from cafe.ai.base import Player
from cafe.ai.random_player import RandomPlayer

__all__ = ["Player", "RandomPlayer"]
