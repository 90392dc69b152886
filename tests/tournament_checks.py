"""What a finished café tournament's stored games must show, for the tests that play one through the café (in
this process, or through a real `cafe serve`): one deal a round, nobody at one table twice, and the standings
that its stored games give again."""

from __future__ import annotations

import itertools
from typing import Any

from cafe.record import Record
from cafe.server.storage.store import Store
from cafe.tournament.model import Entry, GameResult, Settings
from cafe.tournament.tournament import Tournament


def check_finished(store: Store, cup: str, final: dict[str, Any]) -> None:
    """``final``: the tournament as ``/tournaments/ID.json`` showed it once it was over."""
    for played in final["played"]:  # every table of a round played the same deal, the same seat beginning
        rooms = [table["rooms"][0] for table in played["tables"]]
        seeds = {store.load_room(room).seed for room in rooms}  # type: ignore[union-attr]
        assert seeds == {played["deal"]}
        bags = [store.record(room)["bag"] for room in rooms]  # type: ignore[index]
        assert all(bag == bags[0] for bag in bags)
    seated = [sorted(table["entries"]) for played in final["played"] for table in played["tables"]]
    met = [pair for table in seated for pair in itertools.combinations(table, 2)]
    assert len(met) == len(set(met))  # nobody met anyone twice (the tests' fields can avoid it)
    assert standings_again(store, cup, final) == [
        {key: value for key, value in row.items() if key != "bot_account"} for row in final["standings"]
    ]


def standings_again(store: Store, cup: str, final: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings recomputed from the stored games alone, paired again round by round."""
    settings = Settings.from_json(store.tournament_state(cup).state["settings"])  # type: ignore[union-attr]
    again = Tournament(settings, [Entry(e["id"], e["name"]) for e in final["entries"]])
    for played in final["played"]:
        again.pair()
        for number, table in enumerate(played["tables"], start=1):
            game = Record.from_json(store.record(table["rooms"][0])).replay()
            assert again.seats(played["number"], number, 1) == tuple(table["entries"])
            again.record(played["number"], number, GameResult.played(list(game.scores), list(game.places())))
    return [row.to_json() for row in again.standings()]
