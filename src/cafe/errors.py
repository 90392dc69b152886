"""The exceptions of the engine.

Every error a person can cause carries a rule id from RULES.md (``R2.3.2``)
so messages, logs and tests can name the rule that was broken.  All of them
are ``ValueError`` subclasses, as in python-chess, so callers may catch
broadly or narrowly.

The message is a :class:`~cafe.i18n.Text`: ``str(error)`` reads in the active language (English unless
:func:`cafe.i18n.use` chose another), :meth:`CafeError.message` in any; the rule id stays as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from cafe.i18n import Text

if TYPE_CHECKING:
    from cafe.tiles import Tile


class CafeError(ValueError):
    """Base class: something given to the engine is not acceptable."""

    RULE: ClassVar[str] = ""  # the rule every error of the kind breaks, where there is one

    def __init__(self, message: str | Text, rule: str = "") -> None:
        self.rule = rule or self.RULE
        self.text = message if isinstance(message, Text) else Text.plain(message)
        super().__init__(self.message("en"))  # args, as logs and tracebacks show them: in English

    @property
    def detail(self) -> str:
        """The message without its rule id, in the active language."""
        return self.text.render()

    def message(self, language: str | None = None) -> str:
        """``R2.3.1: ...`` (or the message alone if it names no rule) in ``language``."""
        detail = self.text.render(language)
        return f"{self.rule}: {detail}" if self.rule else detail

    def __str__(self) -> str:
        return self.message()


class NotationError(CafeError):
    """A step or turn string does not follow the notation of RULES.md §7.1."""

    RULE = "R7.1"


class JokerWithoutNationError(NotationError):
    """A joker put on a chair in notation that names no nation for it (``JOKf@i2``): the café's client sends one
    when a chair that is not lit is clicked, so its ``tile`` and ``chair`` are kept for the reason to be found."""

    def __init__(self, message: str | Text, tile: Tile, chair: str) -> None:
        super().__init__(message)
        self.tile, self.chair = tile, chair


class IllegalStepError(CafeError):
    """A well-formed step that the rules do not allow in this position."""


class BoardFileError(CafeError):
    """A board file is malformed (RULES.md §1.1)."""

    RULE = "R1.1"


class RulesError(CafeError):
    """An unknown preset or option, or a bad option value (RULES.md §6)."""

    RULE = "R6"


class RecordError(CafeError):
    """A game record is malformed (RULES.md §7.2)."""

    RULE = "R7.2"
