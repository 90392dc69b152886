"""Tournaments in the café through the real server (Starlette's test client over a real SQLite file): opened,
entered by people and computer players, played round by round at tables of their own on one deal, across a restart,
to the final standings; and every bad request refused with nothing changed."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cafe.server.app import DATABASE, create_app
from cafe.server.storage.store import DueJob, SQLiteStore
from test_server import Person, served
from tournament_checks import check_finished

POLLS = 4000  # looks at a tournament while its computer players play (a count, not a time)
PACE = 0.1  # seconds between a person's syncs: below the messages a second a connection may send


def app(data: Path) -> Any:
    return create_app(data, bot_delay=0.0)


def post(client: TestClient, person: Person | None, path: str, body: dict[str, Any], status: int = 200) -> Any:
    headers = {} if person is None else {"X-Cafe-Token": person.token}
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code == status, answer.text
    return answer.json()


def shown(client: TestClient, cup: str, person: Person | None = None) -> dict[str, Any]:
    headers = {} if person is None else {"X-Cafe-Token": person.token}
    answer = client.get(f"/tournaments/{cup}.json", headers=headers)
    assert answer.status_code == 200, answer.text
    assert '"seed"' not in answer.text
    return answer.json()  # type: ignore[no-any-return]


def state_of(person: Person, room: str) -> dict[str, Any]:
    """The room as it is now, for this person: the answer to a sync, known as the last room state before the
    error that a message of no known type is answered with (asked no faster than a connection may ask)."""
    while True:
        time.sleep(PACE)
        person.send({"type": "sync", "room": room})
        person.send({"type": "ping"})
        state, slowed = None, False
        while True:
            message = person.expect("room", "error")
            if message["type"] == "room" and message["room"]["id"] == room:
                state = message["room"]
            elif message["type"] == "error" and message["code"] == "type":
                break
            elif message["type"] == "error" and message["code"] == "over":  # over, and no longer in memory
                state = {"status": "finished", "gone": True}  # (a finished game is not read again after a restart)
            elif message["type"] == "error":
                assert message["code"] in ("rate", "refused"), message  # too fast, or a step gone stale
                slowed = slowed or message["code"] == "rate"
        if state is not None and not slowed:
            return state


def play_out(people: dict[Person, str]) -> None:
    """Each person plays their table to its end (the first legal step each time), in turns."""
    left = dict(people)
    while left:
        for person, room in list(left.items()):
            state = state_of(person, room)
            if state["status"] == "finished":
                del left[person]
            elif state["legal"]:
                person.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})


def round_over(client: TestClient, cup: str, number: int) -> dict[str, Any]:
    for _ in range(POLLS):
        seen = shown(client, cup)
        if len(seen["played"]) >= number and seen["played"][number - 1]["over"]:
            return seen
        time.sleep(0.02)
    raise AssertionError(f"round {number} did not end")


def tables_of(client: TestClient, cup: str, people: list[Person]) -> dict[Person, str]:
    return {person: shown(client, cup, person)["table"] for person in people}


def test_a_swiss_tournament_of_eight_plays_three_rounds_on_one_deal_a_round_to_its_final_standings(
    tmp_path: Path,
) -> None:
    with served(app(tmp_path)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        opened = post(client, ann, "/tournaments/open", {"name": "Autumn cup", "table_size": 2, "rounds": 3}, 201)
        cup = opened["id"]
        assert opened["directing"] and opened["entries_open"] and opened["status"] == "open"
        post(client, ann, f"/tournaments/{cup}/enter", {})
        post(client, bob, f"/tournaments/{cup}/enter", {})
        for _ in range(6):
            post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        assert [e["name"] for e in shown(client, cup)["entries"]][:3] == ["Ann", "Bob", "Easy bot 1"]
        assert [t["id"] for t in client.get("/tournaments.json").json()] == [cup]

        checked = False
        for number in (1, 2):
            post(client, ann, f"/tournaments/{cup}/start", {})
            tables = tables_of(client, cup, [ann, bob])
            seen = shown(client, cup)
            assert "deal" not in seen["played"][-1]  # the deal of a round under way is secret
            if tables[ann] != tables[bob] and not checked:  # the round's other tables are closed to its players
                ann.send({"type": "enter", "room": tables[bob]})
                assert ann.expect("error")["code"] == "tournament"
                play_out({ann: tables[ann]})  # Ann's table is over; Bob's is not
                assert client.get(f"/records/{tables[ann]}.json").status_code == 404
                assert client.get(f"/games/{tables[ann]}.json").status_code == 404
                checked = True
            if number == 2:  # in the middle of round 2, the server restarts
                for person, room in tables.items():
                    state = state_of(person, room)
                    if state["legal"]:
                        person.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
                        person.expect("room")
                break
            play_out(tables)
            seen = round_over(client, cup, number)
            assert client.get(f"/records/{seen['played'][0]['tables'][0]['rooms'][0]}.json").status_code == 200
            assert seen["standings"][0]["games"] == 1

    with served(app(tmp_path)) as client:
        ann, bob = Person(client, token=ann.token), Person(client, token=bob.token)
        play_out(tables_of(client, cup, [ann, bob]))
        round_over(client, cup, 2)
        post(client, ann, f"/tournaments/{cup}/start", {})
        play_out(tables_of(client, cup, [ann, bob]))
        final = round_over(client, cup, 3)
        assert checked
        assert final["status"] == "finished" and final["final"]
        download = client.get(f"/tournaments/{cup}/games.json")
        assert download.status_code == 200
        games = download.json()["games"]

    assert len(final["played"]) == 3 and len(games) == 12
    assert [row["games"] for row in final["standings"]] == [3] * 8
    store = SQLiteStore(tmp_path / DATABASE)
    try:
        check_finished(store, cup, final)
        assert len({pair for t in games for pair in itertools.combinations(sorted(t["seats"]), 2)}) == 12
    finally:
        store.close()


def test_every_bad_tournament_request_is_refused_in_the_askers_language_and_changes_nothing(tmp_path: Path) -> None:
    with served(app(tmp_path)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        refused = client.post("/tournaments/open?lang=de", json={"name": "Cup", "format": "ko"},
                              headers={"X-Cafe-Token": ann.token})  # fmt: skip
        assert refused.status_code == 400 and refused.json()["error"] == "„format“ ist swiss, round_robin oder league"
        assert client.post("/tournaments/open", json={"name": "Cup"}).status_code == 401  # nobody said who
        assert client.get("/tournaments.json").json() == []
        cup = post(client, ann, "/tournaments/open", {"name": "Cup", "table_size": 2}, 201)["id"]
        post(client, bob, f"/tournaments/{cup}/enter", {})
        before = shown(client, cup)
        assert post(client, bob, f"/tournaments/{cup}/enter?lang=fr", {}, 400)["error"] == "vous êtes déjà inscrit"
        assert post(client, bob, f"/tournaments/{cup}/enter", {"bot": "easy"}, 403)["code"] == "director"
        assert post(client, ann, f"/tournaments/{cup}/enter", {"bot": "grandmaster"}, 400)["code"] == "field"
        assert post(client, ann, f"/tournaments/{cup}/start?lang=cs", {}, 400)["error"] == (
            "turnaj potřebuje aspoň dvě přihlášky"
        )
        assert post(client, bob, f"/tournaments/{cup}/start", {}, 403)["code"] == "director"
        assert post(client, ann, "/tournaments/nosuch/enter", {}, 404)["code"] == "missing"
        assert client.get(f"/tournaments/{cup}/games.json").status_code == 400  # not over
        for late in ({"late": "end"}, {"late": "nap", "clock": 12}):  # "end" is for turn-based clocks only
            assert post(client, ann, "/tournaments/open", {"name": "Cup", **late}, 400)["code"] == "field"
        assert shown(client, cup) == before
        post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        post(client, bob, f"/tournaments/{cup}/withdraw", {})
        assert [e["name"] for e in shown(client, cup)["entries"]] == ["Easy bot 1"]


def test_who_withdraws_during_a_round_forfeits_its_game_to_a_computer_player_and_is_paired_no_more(
    tmp_path: Path,
) -> None:
    with served(app(tmp_path)) as client:
        ann = Person(client, "Ann")
        cup = post(client, ann, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 2}, 201)["id"]
        post(client, ann, f"/tournaments/{cup}/enter", {})
        for _ in range(3):
            post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        post(client, ann, f"/tournaments/{cup}/start", {})
        room = shown(client, cup, ann)["table"]
        post(client, ann, f"/tournaments/{cup}/withdraw", {})
        seen = round_over(client, cup, 1)
        mine = next(t for t in seen["played"][0]["tables"] if "p1" in t["entries"])
        seat = mine["entries"].index("p1")
        assert mine["rooms"] == [room] and mine["games"][0]["absent"][seat] is True
        row = next(r for r in seen["standings"] if r["entry"] == "p1")
        assert row["withdrawn"] == 2 and row["match_points"] == 0 and row["wins"] == 0
        post(client, ann, f"/tournaments/{cup}/start", {})
        second = shown(client, cup, ann)
        assert all("p1" not in t["entries"] for t in second["played"][1]["tables"]) and second["table"] is None


def test_two_processes_starting_the_same_round_at_once_pair_it_once(tmp_path: Path) -> None:
    import threading

    with served(app(tmp_path)) as first, served(app(tmp_path)) as second:
        ann = Person(first, "Ann")
        cup = post(first, ann, "/tournaments/open", {"name": "Cup", "table_size": 2}, 201)["id"]
        for _ in range(8):
            post(first, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        answers: list[int] = []

        def start(client: TestClient) -> None:
            answer = client.post(f"/tournaments/{cup}/start", json={}, headers={"X-Cafe-Token": ann.token})
            answers.append(answer.status_code)

        both = [threading.Thread(target=start, args=(client,)) for client in (first, second)]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join()
        assert sorted(answers) == [200, 400]  # the second is told that round 1 is not finished
        store = SQLiteStore(tmp_path / DATABASE)
        try:
            row = store.tournament_state(cup)
            assert row is not None and len(row.state["rounds"]) == 1 and len(row.state["cafe"]["rooms"]) == 4
        finally:
            store.close()


def test_a_result_that_a_dying_process_left_out_goes_in_after_the_restart(tmp_path: Path) -> None:
    """A table's game ended and was stored, but its process died before the result went in the tournament: the
    next look (here, after a restart) puts it in, and the round ends."""
    with served(app(tmp_path)) as client:
        ann = Person(client, "Ann")
        cup = post(client, ann, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 1}, 201)["id"]
        for _ in range(2):
            post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        store = SQLiteStore(tmp_path / DATABASE)
        try:
            post(client, ann, f"/tournaments/{cup}/start", {})
            begun = store.tournament_state(cup)
            assert begun is not None and begun.status == "playing"
            assert round_over(client, cup, 1)["final"]
        finally:
            store.close()
    store = SQLiteStore(tmp_path / DATABASE)
    try:  # the tournament as the dead process left it: the game over, its result not in
        ended = store.tournament_state(cup)
        assert ended is not None and store.save_tournament_state(cup, begun.state, "playing", ended.version)
    finally:
        store.close()
    with served(app(tmp_path)) as client:
        final = round_over(client, cup, 1)
        assert final["final"] and [row["games"] for row in final["standings"]] == [1, 1]


def iso_in(seconds: float) -> str:
    """A time that many seconds from now, as the wire says it (UTC)."""
    return datetime.fromtimestamp(time.time() + seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def test_rounds_start_on_time_across_a_restart_and_each_next_one_a_pause_after_the_last_without_the_director(
    tmp_path: Path,
) -> None:
    minute = 1.0  # an hour of the café's clocks is a minute here: a pause's minute is a second
    ahead = 8  # seconds before the first round: time enough to open the tournament and stop the server
    with served(create_app(tmp_path, bot_delay=0.0, clock_hour=60 * minute)) as client:
        ann = Person(client, "Ann")
        start = iso_in(ahead)
        body = {"name": "Timed cup", "table_size": 2, "rounds": 2, "start": start, "pause": 4}
        cup = post(client, ann, "/tournaments/open", body, 201)["id"]
        for _ in range(4):
            post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        seen = shown(client, cup)
        assert seen["next_start"] == start and seen["pause"] == 4 and seen["status"] == "open"
    store = SQLiteStore(tmp_path / DATABASE)
    try:  # the server stopped before the first round's time
        assert store.tournament_state(cup).status == "open"  # type: ignore[union-attr]
    finally:
        store.close()

    with served(create_app(tmp_path, bot_delay=0.0, clock_hour=60 * minute)) as client:
        for _ in range(POLLS):  # nobody starts it: its time comes
            seen = shown(client, cup)
            if seen["played"]:
                break
            time.sleep(0.02)
        assert len(seen["played"]) == 1 and seen["next_start"] is None
        assert time.time() >= datetime.fromisoformat(start).timestamp()
        before = time.time()
        for _ in range(POLLS):  # its computer players play it out; the next round waits for the pause
            seen = shown(client, cup)
            if seen["played"][0]["over"]:
                break
            before = time.time()
            time.sleep(0.02)
        assert len(seen["played"]) == 1 and seen["next_start"] is not None
        next_start = datetime.fromisoformat(seen["next_start"]).timestamp()
        assert next_start >= int(before + 4 * minute)  # the round ended after `before`: the pause follows
        for _ in range(POLLS):
            seen = shown(client, cup)
            if len(seen["played"]) == 2:
                break
            time.sleep(0.02)
        assert len(seen["played"]) == 2 and time.time() >= next_start
        final = round_over(client, cup, 2)
        assert final["final"] and final["next_start"] is None


def test_a_round_the_director_started_early_is_not_started_again_when_its_time_comes_after_it_ended(
    tmp_path: Path,
) -> None:
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        ann = Person(client, "Ann")
        body = {"name": "Cup", "table_size": 2, "rounds": 2, "start": iso_in(3600)}
        cup = post(client, ann, "/tournaments/open", body, 201)["id"]
        for _ in range(4):
            post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        post(client, ann, f"/tournaments/{cup}/start", {})  # early, by hand
        assert shown(client, cup)["next_start"] is None
        round_over(client, cup, 1)
        store = SQLiteStore(tmp_path / DATABASE)
        try:  # the first round's time comes now, round 1 over: round 2 waits for the director all the same
            store.schedule(DueJob("cup", cup, 1, time.time()))
            for _ in range(POLLS):
                if not store.rows("SELECT count(*) FROM due WHERE kind = 'cup'")[0][0]:
                    break
                time.sleep(0.02)
            else:
                raise AssertionError("the first round's time did not come")
        finally:
            store.close()
        seen = shown(client, cup)
        assert len(seen["played"]) == 1 and seen["played"][0]["over"] and seen["status"] == "playing"


def test_a_start_in_the_past_or_an_absurd_pause_is_refused_in_the_askers_language(tmp_path: Path) -> None:
    with served(app(tmp_path)) as client:
        ann = Person(client, "Ann")
        headers = {"X-Cafe-Token": ann.token}
        asked = {"name": "Cup", "start": iso_in(-60)}
        refused = client.post("/tournaments/open?lang=de", json=asked, headers=headers)
        assert refused.status_code == 400 and "vorbei" in refused.json()["error"]
        for start in ("tomorrow", "2027-01-31T18:00:00", iso_in(400 * 86_400), 1700000000):
            answer = client.post("/tournaments/open", json={"name": "Cup", "start": start}, headers=headers)
            assert answer.status_code == 400 and answer.json()["code"] == "field", start
        for pause in (-1, 7 * 24 * 60 + 1, 2.5, "5", True):
            answer = client.post("/tournaments/open?lang=fr", json={"name": "Cup", "pause": pause}, headers=headers)
            assert answer.status_code == 400 and "pause" in answer.json()["error"], pause
        assert client.get("/tournaments.json").json() == []


def test_a_players_page_shows_a_tournament_games_scores_only_once_its_round_is_over(tmp_path: Path) -> None:
    with served(app(tmp_path)) as client:
        people = [Person(client, name) for name in ("Ann", "Bob", "Cy")]
        ann = people[0]
        cup = post(client, ann, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 1}, 201)["id"]
        for person in people:
            post(client, person, f"/tournaments/{cup}/enter", {})
        post(client, ann, f"/tournaments/{cup}/enter", {"bot": "easy"})
        post(client, ann, f"/tournaments/{cup}/start", {})
        tables = tables_of(client, cup, people)
        first = {person: room for person, room in tables.items() if room == tables[ann]}
        play_out(first)  # Ann's table is over; the other, with a person at it, is not
        assert not shown(client, cup)["played"][0]["over"]
        for person in first:
            page = client.get(f"/players/{person.player}.json").json()
            assert page["games"] == [], page  # its scores would tell the others the deal
        for method in ("get", "post"):  # nor is its analysis asked for, or shown
            answer = getattr(client, method)(f"/games/{tables[ann]}/analysis", headers={"X-Cafe-Token": ann.token})
            assert answer.status_code == 404, answer.text
        play_out({person: room for person, room in tables.items() if room != tables[ann]})
        round_over(client, cup, 1)
        page = client.get(f"/players/{ann.player}.json").json()
        assert [game["room"] for game in page["games"]] == [tables[ann]] and len(page["games"][0]["scores"]) == 2


def test_a_turn_based_table_ended_for_a_player_out_of_time_counts_as_not_played_and_their_forfeit(
    tmp_path: Path,
) -> None:
    """The director chose that the others may end a game whose player ran out of time (``late`` ``end``): the
    game is recorded as not played, the late player absent (their forfeit), the other given the average plus."""
    with served(create_app(tmp_path, bot_delay=0.0, clock_hour=0.05)) as client:  # twelve hours: 0.6 s
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        asked = {"name": "Slow cup", "table_size": 2, "rounds": 1, "clock": 12, "late": "end"}
        cup = post(client, ann, "/tournaments/open", asked, 201)["id"]
        assert shown(client, cup)["late"] == "end"
        for person in (ann, bob):
            post(client, person, f"/tournaments/{cup}/enter", {})
        post(client, ann, f"/tournaments/{cup}/start", {})
        room = shown(client, cup, ann)["table"]
        state = state_of(ann, room)
        mover, other = (ann, bob) if state["legal"] else (bob, ann)
        late_entry = shown(client, cup, mover)["you"]
        time.sleep(1.0)  # the mover's twelve hours run out
        other.send({"type": "say", "room": room, "text": "/end"})
        final = round_over(client, cup, 1)
        game = final["played"][0]["tables"][0]["games"][0]
        entries = final["played"][0]["tables"][0]["entries"]
        assert game["scores"] is None and game["absent"] == [entry == late_entry for entry in entries]
        rows = {row["entry"]: row for row in final["standings"]}
        assert rows[late_entry]["match_points"] < rows[next(e for e in entries if e != late_entry)]["match_points"]
        assert final["status"] == "finished"
