"""The exceptions of the engine.

Every error a person can cause carries a rule id from RULES.md (``R2.3.2``)
so messages, logs and tests can name the rule that was broken.  All of them
are ``ValueError`` subclasses, as in python-chess, so callers may catch
broadly or narrowly.
"""

from __future__ import annotations


class CafeError(ValueError):
    """Base class: something given to the engine is not acceptable."""

    rule: str = ""

    def __init__(self, message: str, rule: str = "") -> None:
        self.rule = rule or self.rule
        self.detail = message
        super().__init__(f"{self.rule}: {message}" if self.rule else message)


class NotationError(CafeError):
    """A step or turn string does not follow the notation of RULES.md §7.1."""

    rule = "R7.1"


class IllegalStepError(CafeError):
    """A well-formed step that the rules do not allow in this position."""


class BoardFileError(CafeError):
    """A board file is malformed (RULES.md §1.1)."""

    rule = "R1.1"


class RulesError(CafeError):
    """An unknown preset or option, or a bad option value (RULES.md §6)."""

    rule = "R6"


class RecordError(CafeError):
    """A game record is malformed (RULES.md §7.2)."""

    rule = "R7.2"
