"""The tutorial on the café's server: the lessons in a language, each step checked by the engine with the rule and
the lesson's nudge, nothing kept between two requests, every field checked at the edge; the welcome says whether a
person has finished a game (the lobby offers the tutorial first to one who has not)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.server.app import create_app
from test_server import Person, served
from test_server_games import finished_game


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with served(create_app(tmp_path, bot_delay=0.0, rate=1000.0, burst=1000)) as served_client:
        yield served_client


def post(client: TestClient, lesson: str, body: Any, lang: str = "") -> Any:
    return client.post(f"/lessons/{lesson}" + (f"?lang={lang}" if lang else ""), json=body)


def test_the_lessons_in_a_language(client: TestClient) -> None:
    english = client.get("/lessons.json").json()["lessons"]
    czech = client.get("/lessons.json?lang=cs").json()["lessons"]
    assert english[0]["id"] == czech[0]["id"] == "board-nation" and english[0]["rules"] == ["R2.1", "R2.3.1"]
    assert english[0]["title"] == "Seat a guest at a table of its nation"
    assert czech[0]["title"] == "Posaďte hosta ke stolu jeho národnosti"
    assert english[0]["paths"][0] == ["USAf@h1", "stop"]


def test_a_lesson_step_by_step_refused_with_the_rule_and_the_nudge(client: TestClient) -> None:
    start = post(client, "board-nation", {"steps": []}).json()
    assert start["steps"] == [] and not start["done"] and "USAf@h1" in start["legal"] and "<svg" in start["svg"]
    refused = post(client, "board-nation", {"steps": [], "step": "USAf@f3", "lang": "de"}).json()
    assert refused["refusal"] == {
        "rule": "R2.3.1", "message": "Die amerikanische Dame kann nicht auf f3 sitzen: Der Stuhl gehört zu GER2",
        "nudge": "Schau auf die Tische neben dem Stuhl: Die Dame darf nur sitzen, wo einer davon amerikanisch ist.",
    }  # fmt: skip
    german = post(client, "board-nation", {"steps": [], "lang": "de"}).json()
    assert refused["steps"] == [] and refused["view"] == german["view"] and german["view"]["players"][0] == "Du"
    other = post(client, "board-values", {"steps": [], "step": "USAf@g2"}).json()["refusal"]
    assert other["rule"] == "other" and other["nudge"].startswith("That chair scores at one American table only")
    one = post(client, "board-nation", {"steps": [], "step": "USAf@h1"}).json()
    assert one["steps"] == ["USAf@h1"] and not one["done"] and "stop" in one["legal"]
    done = post(client, "board-nation", {"steps": ["USAf@h1"], "step": "stop"}).json()
    assert done["done"] and done["refusal"] is None and done["legal"] == []
    assert done["view"]["scores"][0] == 4


@pytest.mark.parametrize(
    "body,status,said",
    [
        ({"steps": "USAf@h1"}, 400, "'steps' is a list of at most 8 steps"),
        ({"steps": ["x" * 21]}, 400, "'steps' is a list"),
        ({"steps": ["USAf@h1"] * 9}, 400, "'steps' is a list"),
        ({"steps": [], "step": 7}, 400, "'step' is one step in the notation"),
        ({"steps": [], "lang": ["de"]}, 400, "'lang' is a language tag"),
        ({"steps": ["USAf@f3"], "step": "stop"}, 400, "'USAf@f3' is not a step of this lesson"),
        ({"steps": ["USAf@f3"]}, 400, "'USAf@f3' is not a step of this lesson"),
        ({"steps": [], "step": "dancing bear"}, 200, ""),
        ([1, 2], 400, "not a JSON object"),
        ({"steps": ["a" * 20] * 8, "step": "b" * 2000}, 400, "too long"),
    ],
)
def test_every_field_is_checked_at_the_edge(client: TestClient, body: Any, status: int, said: str) -> None:
    answer = post(client, "board-nation", body)
    assert answer.status_code == status, answer.text
    if status == 400:
        assert said in answer.json()["error"]
    else:
        assert answer.json()["refusal"]["rule"] == "R7.1"  # the notation's own refusal, as in a room


def test_bad_input_is_answered_in_the_language_asked_for(client: TestClient) -> None:
    assert post(client, "board-nation", [1], lang="fr").json() == {"error": "pas un objet JSON"}
    missing = post(client, "no-such-lesson", {"steps": []}, lang="de")
    assert missing.status_code == 404 and missing.json() == {"error": "es gibt keine Lektion 'no-such-lesson'"}
    assert client.post("/lessons/board-nation", content=b"\xff\xfe").status_code == 400


def test_the_welcome_says_whether_a_person_has_finished_a_game(client: TestClient) -> None:
    ann = Person(client, "Ann")
    assert ann.welcome["played"] is False
    finished_game(client, ann)
    again = Person(client, token=ann.token)
    assert again.welcome["played"] is True
