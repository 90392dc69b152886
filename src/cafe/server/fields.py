"""What a client sends, checked at the edge: every field has its type and length, every string is
proper Unicode (a person's name is checked in :mod:`cafe.server.names`; docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any

from cafe.i18n import T, Text

MAX_DEPTH = 8  # nesting of a message's objects and lists


class ProtocolError(Exception):
    """A message that cannot be served; its text goes back to the sender."""

    def __init__(self, code: str, message: Text, room: str | None = None) -> None:
        super().__init__(message.render("en"))
        self.code = code
        self.text = message
        self.room = room  # the room it is about, where the client should know it
        self.language: str | None = None  # of the answer, when not the connection's (a refused hello's own)


def parse(text: str, limit: int) -> dict[str, Any]:
    """A client's message as a JSON object with a string ``type``, or a ProtocolError saying what is wrong."""
    message = json_object(text, limit)
    if not isinstance(message.get("type"), str):
        raise ProtocolError("json", T("a message is a JSON object with a 'type'"))
    return message


def json_object(text: str, limit: int) -> dict[str, Any]:
    """A JSON object of at most ``limit`` bytes, its strings proper Unicode (a message, or a request's body)."""
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError("size", T("message too long (at most {limit} bytes)", limit=limit))
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("json", T("not a JSON object")) from None
    if not isinstance(message, dict):
        raise ProtocolError("json", T("not a JSON object"))
    _check_strings(message, 0)
    return message


def _check_strings(value: Any, depth: int) -> None:
    """No lone surrogates (they cannot be stored or sent) and no deep nesting, anywhere in a message."""
    if depth > MAX_DEPTH:
        raise ProtocolError("json", T("a message nests at most {depth} levels", depth=MAX_DEPTH))
    if isinstance(value, str):
        if not _encodable(value):
            raise ProtocolError("json", T("a string in the message is not proper Unicode (a lone surrogate)"))
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, depth + 1)
            _check_strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, depth + 1)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text(message: dict[str, Any], key: str, limit: int) -> str:
    """A required, non-empty string field of at most ``limit`` characters, stripped."""
    value = message.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("field", T("'{key}' must be a non-empty string", key=key))
    if len(value) > limit:
        raise ProtocolError("field", T("'{key}' is too long (at most {limit} characters)", key=key, limit=limit))
    return value.strip()


def plies(message: dict[str, Any]) -> int | None:
    """The number of steps the client has seen, if it says (a step or an undo on an older position is stale)."""
    value = message.get("plies")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ProtocolError("step", T("'plies' is the number of steps seen, an integer"))
    return value
