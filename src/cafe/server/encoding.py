"""Messages to clients as JSON text, encoded fast: a room's state goes to each of its followers at every step, and
its encoding was the largest single cost of a step (bench/capacity.py --profile)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(message: Any) -> str:
    """``message`` as JSON text (UTF-8 where the standard library would write ``\\u`` escapes); what orjson refuses
    (a lone surrogate that a client sent escaped) is encoded by the standard library instead."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message)
