"""Finished games as the replay page shows them: every step with its mover and points, and the café at any step.

A finished game's record is public (RULES.md §5), but the page shows by default what everyone could see
at each moment; a player who took part also sees their own hand (``seat``).
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from cafe.record import Record
from cafe.svg import view_svg


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    """The game step by step: ``steps`` (mover, step, points), ``turns`` (mover, steps, points, the step it
    starts at), and the end: scores, penalties, winner, why it ended."""
    game = Record.from_json(record).replay()
    steps: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    start = 0
    for n, result in enumerate(game.results):
        steps.append({"seat": result.player, "step": str(result.step), "points": result.points})
        if result.turn_over:
            shown = [s["step"] for s in steps[start : n + 1] if s["step"] != "stop"]
            points = sum(s["points"] for s in steps[start : n + 1])
            turns.append({"seat": result.player, "steps": shown, "points": points, "start": start})
            start = n + 1
    return {
        "edition": record["edition"], "rules": record["rules"], "players": record["players"],
        "steps": steps, "turns": turns, "scores": list(game.scores), "penalties": list(game.penalties()),
        "winner": game.winner(), "over": game.is_over(), "end_reason": game.end_reason,
    }  # fmt: skip


def position_at(record: dict[str, Any], ply: int, seat: int | None) -> dict[str, Any]:
    """The game after ``ply`` steps as ``seat`` saw it then (None: as everyone saw it): the view, and the café
    drawn."""
    game = Record.from_json(record).replay()
    ply = min(max(0, ply), len(game.results))
    while len(game.results) > ply:  # back from the end: the game keeps every step to take back
        game.pop()
    view = game.view(seat)
    return {"ply": ply, "view": view.to_json(), "svg": view_svg(view)}


class Replays:
    """Finished games' replays as the HTTP routes serve them: computed in a thread, at most ``per_address`` at once
    for one address, and kept (a finished game never changes) in a cache of ``entries``, the least recently used
    leaving first."""

    def __init__(self, per_address: int, entries: int) -> None:
        self.per_address = per_address
        self.entries = entries
        self._kept: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._busy: Counter[str] = Counter()
        self.computed = 0  # replays computed so far (cafe_replays_total)

    def kept(self, key: Hashable) -> dict[str, Any] | None:
        """The answer computed for ``key`` already, if it is still kept."""
        answer = self._kept.get(key)
        if answer is not None:
            self._kept.move_to_end(key)
        return answer

    async def compute(self, key: Hashable, address: str, work: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
        """``work()``'s answer, computed in a thread and kept under ``key``; None when ``address`` has as many
        replays computing as it may."""
        if self._busy[address] >= self.per_address:
            return None
        self._busy[address] += 1
        self.computed += 1
        try:
            answer = await asyncio.to_thread(work)
        finally:
            self._busy[address] -= 1
            if self._busy[address] <= 0:
                del self._busy[address]
        self.keep(key, answer)
        return answer

    def drop(self, room: str) -> None:
        """Forget what was kept of a game (a deleted person's name left it)."""
        for key in [k for k in self._kept if isinstance(k, tuple) and len(k) > 1 and k[1] == room]:
            del self._kept[key]

    def keep(self, key: Hashable, answer: dict[str, Any]) -> None:
        """Keep ``answer`` under ``key``, the least recently used leaving beyond ``entries``."""
        self._kept[key] = answer
        while len(self._kept) > self.entries:
            self._kept.popitem(last=False)
