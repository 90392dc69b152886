"""The café's puzzles over HTTP, on a real server over a real SQLite file: a puzzle near the person's rating, the
position as a turn goes on, a try judged and both ratings moved; every field checked at the edge, a bad one refused
with a clear message in the asker's language and nothing changed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from cafe.ai.decisions import decided
from cafe.ai.turns import complete_turns
from cafe.learn.puzzle_mining import key, world
from cafe.learn.puzzles import Puzzle, check, shipped
from cafe.server.app import DATABASE, create_app
from cafe.server.storage.store import SQLiteStore
from cafe.steps import format_turn, parse_turn
from servers import serving

TOKEN = "puzzle-token-" + "x" * 20


def ask(port: int, path: str, body: Any = None, token: str | None = TOKEN, raw: bytes | None = None) -> tuple[int, Any]:
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"X-Cafe-Token": token} if token else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers,
                                     method="POST" if data is not None else "GET")  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def cafe_with_ann(data: Path) -> None:
    store = SQLiteStore(data / DATABASE)
    store.add_player("Ann", TOKEN)
    store.close()


def a_wrong_turn(puzzle_id: str) -> str:
    puzzle = next(p for e in ("board", "cards") for p in shipped(e) if p.id == puzzle_id)
    turns = (format_turn(list(o.steps)) for o in complete_turns(world(puzzle.position())))
    return next(turn for turn in turns if not check(puzzle, turn))


def test_a_person_solves_one_puzzle_and_fails_another_and_both_ratings_move(tmp_path: Path) -> None:
    cafe_with_ann(tmp_path)
    with serving(create_app(tmp_path)) as port:
        status, served = ask(port, "/puzzles/next.json?edition=cards")
        assert status == 200 and served["edition"] == "cards" and served["you"] == {"rating": 1500, "tries": 0,
                                                                                    "streak": 0}  # fmt: skip
        assert served["legal"] and served["svg"].startswith("<svg") and served["view"]["seat"] == served["mover"]
        assert all(h is None for s, h in enumerate(served["view"]["hands"]) if s != served["mover"])
        right = shipped("cards")[0]
        status, solved = ask(port, f"/puzzles/{right.id}/try", {"turn": right.answers[0]})
        assert status == 200 and solved["solved"] and solved["rated"] and solved["answers"] == list(right.answers)
        assert solved["you"]["after"] > solved["you"]["before"] == 1500 and solved["you"]["streak"] == 1
        assert solved["puzzle"]["after"] < solved["puzzle"]["before"]
        assert solved["reason"] and solved["theme"]
        status, again = ask(port, f"/puzzles/{right.id}/try", {"turn": right.answers[0]})
        assert status == 200 and again["solved"] and not again["rated"]
        assert again["you"]["after"] == solved["you"]["after"]  # a try again moves nothing
        failed_id = shipped("board")[1].id
        status, failed = ask(port, f"/puzzles/{failed_id}/try", {"turn": a_wrong_turn(failed_id)})
        assert status == 200 and not failed["solved"] and failed["rated"] and failed["you"]["streak"] == 0
        assert failed["you"]["after"] < failed["you"]["before"] == solved["you"]["after"]
        assert failed["puzzle"]["after"] > failed["puzzle"]["before"]
        status, served = ask(port, "/puzzles/next.json?edition=board")
        assert served["you"]["tries"] == 2 and served["id"] != failed_id  # a puzzle not tried yet


def test_a_turn_is_played_step_by_step_and_nothing_drawn_is_shown_after_it(tmp_path: Path) -> None:
    cafe_with_ann(tmp_path)
    puzzle = next(p for p in shipped("board") if "," in p.answers[0])  # an answer of two steps or more
    first, *rest = puzzle.answers[0].split(",")
    with serving(create_app(tmp_path)) as port:
        status, at = ask(port, f"/puzzles/{puzzle.id}/at", {"steps": [first]})
        assert status == 200 and not at["done"] and rest[0] in at["legal"] and at["steps"] == [first]
        status, end = ask(port, f"/puzzles/{puzzle.id}/at", {"steps": [first, *rest]})
        if not end["done"]:  # the turn could go on: the person ends it
            assert "stop" in end["legal"]
            status, end = ask(port, f"/puzzles/{puzzle.id}/at", {"steps": [first, *rest, "stop"]})
        assert status == 200 and end["done"] and "view" not in end and "svg" not in end


def test_bad_requests_are_refused_with_a_clear_message_and_change_nothing(tmp_path: Path) -> None:
    cafe_with_ann(tmp_path)
    puzzle = shipped("board")[0]
    tile, taken = puzzle.view["hands"][puzzle.mover][0], puzzle.view["guests"][0]["chair"]
    with serving(create_app(tmp_path)) as port:
        status, answer = ask(port, "/puzzles/next.json", token=None)
        assert status == 401 and answer["error"] == "enter the café with your name first: puzzles are rated"
        status, answer = ask(port, "/puzzles/next.json?lang=de", token="wrong")
        assert status == 401 and answer["error"].startswith("Betritt das Café")
        status, answer = ask(port, "/puzzles/next.json?edition=chess")
        assert status == 400 and "'edition'" in answer["error"]
        status, answer = ask(port, "/puzzles/nothing/try", {"turn": "USAm@h3"})
        assert status == 404 and answer["error"] == "no such puzzle"
        for body in ({"turn": 3}, {"turn": ""}, {"turn": "x" * 201}, {}):
            status, answer = ask(port, f"/puzzles/{puzzle.id}/try", body)
            assert status == 400 and "'turn'" in answer["error"]
        status, answer = ask(port, f"/puzzles/{puzzle.id}/try", raw=b"[1, 2")
        assert status == 400 and answer["error"] == "not a JSON object"
        status, answer = ask(port, f"/puzzles/{puzzle.id}/try", raw=b" " * 3000)
        assert status == 413
        status, answer = ask(port, f"/puzzles/{puzzle.id}/try?lang=de", {"turn": "USAm@@h3"})
        assert status == 400 and answer["rule"] == "R7.1" and "nicht lesbar" in answer["error"]
        status, answer = ask(port, f"/puzzles/{puzzle.id}/try", {"turn": f"{tile}@{taken}"})
        assert status == 400 and answer["rule"].startswith("R2") and taken in answer["error"]
        for steps in ("USAm@h3", ["USAm@@h3"], [1], ["stop"] * 13):
            status, answer = ask(port, f"/puzzles/{puzzle.id}/at", {"steps": steps})
            assert status == 400 and answer["error"], steps
        status, served = ask(port, "/puzzles/next.json")
        assert served["you"] == {"rating": 1500, "tries": 0, "streak": 0}  # nothing was rated


def going_on_after_a_table_card() -> tuple[Puzzle, str]:
    """A card puzzle whose answer ends with the card that lays a new table card, and a turn that goes on after it."""
    for puzzle in shipped("cards"):
        game = world(puzzle.position())
        answer = decided(game, parse_turn(puzzle.answers[0]))
        for option in complete_turns(game):
            steps = [s for s in option.steps if str(s) != "stop"]
            if len(steps) > len(answer) and key(decided(game, option.steps)) == key(answer):
                return puzzle, format_turn(list(option.steps))
    raise AssertionError("no card puzzle's answer can be gone on from")


def test_a_card_answer_ends_with_its_new_table_card_and_a_try_is_judged_up_to_it(tmp_path: Path) -> None:
    cafe_with_ann(tmp_path)
    puzzle, longer = going_on_after_a_table_card()
    with serving(create_app(tmp_path)) as port:
        status, at = ask(port, f"/puzzles/{puzzle.id}/at", {"steps": puzzle.answers[0].split(",")})
        assert status == 200 and at["done"] and "view" not in at  # judged at the new table card
        status, judged = ask(port, f"/puzzles/{puzzle.id}/try", {"turn": longer})
        assert status == 200 and judged["solved"], (puzzle.id, longer)
