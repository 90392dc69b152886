"""Frozen dataclasses that copy and pickle as a call of their class.

Python rebuilds a frozen dataclass by setting its fields one by one, which the class forbids once compiled with
mypyc; calling the class with the same fields gives the same value either way.
"""

from __future__ import annotations

import dataclasses
from typing import Any


def rebuilt(value: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a frozen dataclass: its class and its fields in order."""
    return type(value), tuple(getattr(value, field.name) for field in dataclasses.fields(value))
