"""Four languages: the catalogs complete and consistent, the language chosen as people expect, and every front
end (the engine's refusals, the command line, the server's answers and news) speaking the reader's language."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from cafe import BoardGame, IllegalStepError, i18n
from cafe.i18n import NT, T, Text
from cafe.server.app import create_app
from cafe.server.rooms import HELP, table_name
from test_server import Person, close_all, served

ROOT = Path(__file__).parent.parent
EXAMPLES = Path(__file__).parent / "data" / "rulebook-examples.json"


def catalogs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------- the catalogs


def test_every_message_is_translated_in_every_language_and_the_compiled_files_are_current() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catalogs.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every message translated" in done.stdout


def test_the_check_finds_a_missing_translation_and_a_dropped_or_added_placeholder() -> None:
    catalogs = catalogs_script()
    catalog = Catalog(locale="cs")
    catalog.add("chair {chair} is taken", "židle je obsazená")  # {chair} dropped
    catalog.add("the game is over", "")  # not translated
    catalog.add(("{n} point", "{n} points"), ("{n} bod", "{n} body", "{n} bodů {extra}"))  # one form adds one
    catalog.add("%(prog)s: error: %(message)s\n", "%(prog)s: chyba\n")  # argparse's kind, dropped too
    found = "\n".join(catalogs.problems("cs", catalog))
    assert "'chair {chair} is taken': the translation" in found
    assert "'the game is over' has no translation" in found
    assert "'{n} bodů {extra}'" in found
    assert "%(message)s" in found
    catalog = Catalog(locale="cs")
    catalog.add("chair {chair} is taken", "židle {chair} je obsazená")
    assert catalogs.problems("cs", catalog) == []


def test_a_new_message_is_missing_in_every_other_language_until_translated() -> None:
    catalogs = catalogs_script()
    messages = catalogs.template()
    messages.add("a message nobody has translated yet", locations=[("src/cafe/game.py", 1)])
    for language in catalogs.LANGUAGES:  # English first: its strings are the messages themselves
        found = catalogs.problems(language, catalogs.updated(language, messages))
        if language == "en":
            assert found == []
        else:
            assert found == [f"{language}: 'a message nobody has translated yet' has no translation"]


def test_the_browser_gets_its_messages_and_plural_categories_from_the_same_catalogs() -> None:
    client = ROOT / "src" / "cafe" / "server" / "client" / "i18n"
    czech = json.loads((client / "cs.json").read_text())
    assert czech["plural"] == {"few": 1, "one": 0, "other": 2}  # Czech has three forms
    assert czech["messages"]["{n} point"] == ["{n} bod", "{n} body", "{n} bodů"]
    assert czech["messages"]["Open a table"] == "Otevřít stůl"
    assert czech["messages"]["every chair is taken"] == "všechny židle jsou obsazené"  # an end reason, from Python
    assert "chair {chair} is taken" not in czech["messages"]  # engine messages come from the server, translated


# ---------------------------------------------------------------------- choosing the language


@pytest.mark.parametrize(
    "environment,language",
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANGUAGE": "xx:fr", "LANG": "de_DE.UTF-8"}, "fr"),  # LANGUAGE decides, its first language of ours
        ({"LC_ALL": "cs_CZ.UTF-8", "LANG": "de_DE.UTF-8"}, "cs"),
        ({"LC_MESSAGES": "fr_CA", "LANG": "de_DE"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "en"),  # none of ours: English
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_usual_environment(environment: dict[str, str], language: str) -> None:
    assert i18n.from_environment(environment) == language


def test_a_language_tag_is_read_as_people_write_it() -> None:
    assert [i18n.pick([tag]) for tag in ("de-AT", "fr_CA.UTF-8", "CS", "pt-BR", "")] == ["de", "fr", "cs", "en", "en"]


# ---------------------------------------------------------------------- the engine


@pytest.fixture
def german() -> Iterator[None]:
    i18n.use("de")
    try:
        yield
    finally:
        i18n.use("en")


def test_an_engine_refusal_keeps_its_rule_id_and_is_said_in_any_language(german: None) -> None:
    game = BoardGame(2, seed=1)
    with pytest.raises(IllegalStepError) as caught:
        game.push_turn("pass")
    error = caught.value
    assert str(error) == "R2.2: passen darf man nur, wenn keine Aktion erlaubt ist"  # the active language
    assert error.message("fr") == "R2.2: un joueur ne peut passer que si aucune action n'est permise"
    assert error.message("cs").startswith("R2.2: hráč smí pasovat")
    assert error.args == ("R2.2: a player may pass only when no action is legal",)  # logs and pickles: English


def test_a_message_inside_a_message_and_plural_forms_follow_the_reader() -> None:
    guest = T("{guest} cannot take {chair}: it belongs to {table}", guest=T("The American lady"), chair="h3",
              table="GER1")  # fmt: skip
    assert guest.render("de") == "Die amerikanische Dame kann nicht auf h3 sitzen: Der Stuhl gehört zu GER1"
    assert guest.render("fr") == "La dame américaine ne peut pas s'asseoir en h3 : cette chaise appartient à GER1"
    assert Text.from_json(json.loads(json.dumps(guest.to_json()))) == guest  # the broker carries it whole
    points = [NT("{n} point", "{n} points", n).render("cs") for n in (1, 3, 5, 0)]
    assert points == ["1 bod", "3 body", "5 bodů", "0 bodů"]
    assert [NT("{n} point", "{n} points", n).render("fr") for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]


def test_a_list_inside_a_message_is_joined_as_the_reader_writes_it() -> None:
    endings = T("How the games ended: {endings}.", endings=(T("every chair is taken"), T("a player has gone out")))
    assert endings.render("en") == "How the games ended: every chair is taken; a player has gone out."
    assert "occupées ; un joueur" in endings.render("fr")  # French spaces its semicolon, as its colon
    assert "besetzt; ein" in endings.render("de")


def test_cafe_replay_says_an_illegal_turn_in_german_with_the_same_start(tmp_path: Path) -> None:
    data = json.loads(EXAMPLES.read_text())
    data["turns"] = ["USAm@h3,USAf@h1", "pass"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}
    cafe = [sys.executable, "-m", "cafe", "replay", str(path)]
    english = subprocess.run(cafe, capture_output=True, text=True, env=environment, check=False)
    german = subprocess.run(cafe, capture_output=True, text=True, env={**environment, "LANG": "de_DE.UTF-8"},
                            check=False)  # fmt: skip
    assert english.returncode == german.returncode == 1
    assert english.stderr == "turn 2: R2.2: a player may pass only when no action is legal\n"
    assert german.stderr == "turn 2: R2.2: passen darf man nur, wenn keine Aktion erlaubt ist\n"
    czech = subprocess.run([*cafe, "--lang", "cs"], capture_output=True, text=True, env=environment, check=False)
    assert czech.stderr.startswith("turn 2: R2.2: hráč smí pasovat")
    data["turns"] = ["USAm@h3,USAf@h1", "INDm@g2"]  # the example of docs/translating.md
    path.write_text(json.dumps(data))
    german = subprocess.run(cafe, capture_output=True, text=True, env={**environment, "LANG": "de_DE.UTF-8"},
                            check=False)  # fmt: skip
    assert (
        german.stderr
        == "turn 2: R2.3.1: Der indische Herr kann nicht auf g2 sitzen: Der Stuhl gehört zu GER2 und USA1\n"
    )
    assert german.stderr in (ROOT / "docs" / "translating.md").read_text()


def test_the_command_line_and_argparse_speak_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from cafe.cli import main

    try:
        with pytest.raises(SystemExit):
            main(["--lang", "de", "--help"])
        helped = capsys.readouterr().out
        assert helped.startswith("Aufruf: cafe") and "eine Spielaufzeichnung nachspielen" in helped
        with pytest.raises(SystemExit):
            main(["demo", "--players", "9", "--lang=fr"])
        assert "erreur : argument --players : choix invalide : 9" in capsys.readouterr().err
    finally:
        i18n.use("en")


def _help_texts(lang: str) -> dict[tuple[str, ...], str]:
    """Every description and option help of the command line and its subcommands, as built in ``lang``."""
    from cafe.cli import build_parser

    i18n.use(lang)
    texts: dict[tuple[str, ...], str] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        texts[(*path, "description")] = parser.description or ""
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))
            elif not isinstance(action, argparse._HelpAction):  # argparse translates its own -h
                texts[(*path, *action.option_strings, action.dest)] = action.help or ""

    walk(build_parser(), ())
    return texts


def test_every_help_text_of_the_command_line_is_translated() -> None:
    try:
        english, german = _help_texts("en"), _help_texts("de")
    finally:
        i18n.use("en")
    assert english.keys() == german.keys() and len(english) > 100
    untranslated = [key for key, text in english.items() if text and german[key] == text]
    assert untranslated == []


# ---------------------------------------------------------------------- the server


def test_each_person_hears_refusals_answers_and_news_in_their_own_language(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        try:
            ann, bob = Person(client, "Ann"), Person(client, "Bob")
            ann.send({"type": "language", "lang": "de-DE"})
            bob.send({"type": "language", "lang": "cs"})
            ann.send({"type": "create", "edition": "board"})
            room = ann.room()["id"]
            bob.send({"type": "enter", "room": room})
            bob.room()
            bob.say(room, "/join")
            ann.expect("info", text="Bob nimmt Platz")  # the same news, each in their language
            bob.expect("info", text="Bob přisedá ke stolu")
            bob.say(room, "/start")
            assert bob.expect("error")["message"] == "hru může zahájit jen hostitel"
            ann.say(room, "/start")
            state = ann.room(status="playing")
            mover = ann if state["you"] == state["view"]["current_player"] else bob
            mover.send({"type": "step", "room": room, "step": "pass", "plies": 0})
            refused = mover.expect("error")
            assert refused["rule"] == "R2.2"
            assert refused["message"] == ("passen darf man nur, wenn keine Aktion erlaubt ist" if mover is ann
                                          else "hráč smí pasovat, jen když není povolena žádná akce")  # fmt: skip
            ann.send({"type": "language", "lang": "pt"})  # none of ours: English from now on
            ann.say(room, "/help")
            assert ann.expect("info", text=HELP)["text"].startswith("/join: take a seat")
            bob.say(room, "/help")
            bob.expect("info", text=T(HELP).render("cs"))
            assert T(HELP).render("cs").startswith("/join: posadit se")
        finally:
            close_all()


def test_the_catalogue_names_nations_tiles_presets_and_options_in_the_language_asked(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        czech = client.get("/catalogue.json?lang=cs").json()
        assert czech["language"] == "cs" and czech["nations"]["GER"]["name"] == "Německo"
        assert czech["tiles"]["USAf"] == "americká dáma" and czech["tiles"]["JOKm"] == "žolík \N{EN DASH} pán"
        assert {"value": "printed", "label": "tištěná pravidla"}.items() <= czech["presets"]["board"][0].items()
        surprise = next(o for o in czech["options"]["board"] if o["key"] == "surprise_guests")
        assert surprise["label"] == "Překvapení hosté"
        assert client.get("/catalogue.json").json()["nations"]["GER"]["name"] == "Germany"
        assert client.get("/client/i18n/de.json").json()["messages"]["Open a table"] == "Einen Tisch eröffnen"


def test_a_name_refused_and_all_said_before_hello_follow_hello_lang_or_else_accept_language(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        try:
            Person(client, "Lena")
            german = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
            with client.websocket_connect("/ws", headers=german) as socket:
                socket.send_json({"type": "lobby"})  # before hello: the browser's language
                assert socket.receive_json()["message"] == 'zuerst hallo sagen: {"type": "hello", "name": ...}'
                socket.send_json({"type": "hello", "name": "lena"})
                refused = socket.receive_json()
                assert refused["code"] == "name"
                assert refused["message"] == "„lena“ gehört hier schon jemand anderem: Wähle einen anderen Namen"
            with client.websocket_connect("/ws", headers=german) as socket:
                socket.send_json({"type": "hello", "name": "lena", "lang": "cs"})  # the hello's own language first
                assert socket.receive_json()["message"] == "jméno „lena“ tu už patří někomu jinému: zvolte jiné"
        finally:
            close_all()


@pytest.mark.parametrize(
    "name,language,room",
    [
        ("Ann", "en", "Ann's table"),
        ("Jürgen", "de", "Jürgens Tisch"),
        ("Hans", "de", "Hans' Tisch"),
        ("Amélie", "fr", "Table d'Amélie"),
        ("Jürgen", "fr", "Table de Jürgen"),
        ("Agnès", "fr", "Table d'Agnès"),
        ("Agnes", "de", "Agnes' Tisch"),
        ("Jürgen", "cs", "Stůl: Jürgen"),
    ],
)
def test_a_room_without_a_name_is_named_after_its_host_as_their_language_writes_it(
    name: str, language: str, room: str
) -> None:
    assert table_name(name, language) == room


def test_generated_names_and_news_are_in_the_readers_words(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        try:
            jurgen = Person(client, "Jürgen")
            jurgen.send({"type": "language", "lang": "de"})
            jurgen.send({"type": "create", "edition": "board"})
            state = jurgen.room()
            assert state["name"] == "Jürgens Tisch"
            jurgen.say(state["id"], "/bot medium")
            jurgen.expect("info", text="Bot 2 (mittel) nimmt Platz")  # the level in the host's words
            jurgen.say(state["id"], "/start")
            jurgen.room(status="playing")
            jurgen.say(state["id"], "/leave")
            jurgen.expect("info", text="Jürgen geht; ein Computerspieler (mittel) übernimmt")
        finally:
            close_all()


def test_the_catalogue_has_each_guest_as_an_object_and_each_choice_in_words(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        german, czech = (client.get(f"/catalogue.json?lang={lang}").json() for lang in ("de", "cs"))
        assert (
            german["objects"]["CUBm"] == "den kubanischen Herrn" and german["objects"]["CHNf"] == "die chinesische Dame"
        )
        assert czech["objects"]["CUBm"] == "kubánského pána" and czech["objects"]["CHNf"] == "čínskou dámu"
        options = {o["key"]: o for o in german["options"]["board"]}
        assert [c["label"] for c in options["joker_to_bar"]["choices"]] == ["nie", "wenn kein Tisch ihn aufnehmen kann"]
        straight = options["bar_values"]["choices"][1]
        assert straight["label"] == "gleichmäßig fallend" and straight["values"][:6] == [1, 2, 3, 4, 5, -2]


def test_going_out_and_being_eliminated_are_told_apart_in_every_language() -> None:
    gone_out = {language: T("a player has gone out").render(language) for language in ("de", "fr", "cs")}
    assert gone_out == {  # placed their last guest: not eliminated
        "de": "ein Spieler hat alle Gäste ausgespielt",
        "fr": "un joueur a placé tous ses clients",
        "cs": "hráč vyložil všechny hosty",
    }
    client = ROOT / "src" / "cafe" / "server" / "client" / "i18n"
    browser = {
        language: json.loads((client / f"{language}.json").read_text())["messages"] for language in ("de", "fr", "cs")
    }
    assert {language: words["eliminated"] for language, words in browser.items()} == {
        "de": "ausgeschieden",
        "fr": "éliminé",
        "cs": "vyřazen(a)",
    }


@pytest.mark.parametrize(
    "language,wrong",
    [
        ("de", r"\bR(a|ä)um"),
        ("fr", r"\b[Ss]alles?\b|\b[Ii]nvités?\b|cartes? (Client|Table)"),
        ("cs", r"místnost|\bhal[ay]\b"),
        ("cs", r"\b[Rr]ad(a|y|u|ou|ě)\b"),  # a hint is "nápověda", never "rada"
        ("cs", r"\b[Nn]árod(a|y|ů|u|e|em)?\b"),  # a guest's or a table's nation is its "národnost"
    ],
)
def test_one_word_for_each_thing_and_the_rulebooks_words(language: str, wrong: str) -> None:
    """A table is a table ("Tisch eröffnen", never "Raum eröffnen"); French guests are "clients", as in the rules."""
    catalog = i18n.catalog(language)
    found = [
        text
        for message in catalogs_script().template()
        if message.id
        for text in [catalog.gettext(message.id if isinstance(message.id, str) else message.id[0])]
        if re.search(wrong, text)
    ]
    assert found == []


RATING = {"de": "Wertungszahl", "fr": "cote", "cs": "hodnocení"}


@pytest.mark.parametrize("language", sorted(RATING))
def test_a_rating_has_one_word_and_is_never_the_scoring(language: str) -> None:
    """A player's rating has one name (in German "Wertungszahl": "Wertung" is the game's scoring option)."""
    catalog = i18n.catalog(language)
    word = RATING[language].lower()
    ids = [message.id for message in catalogs_script().template() if isinstance(message.id, str)]
    named = [id for id in ids if re.search(r"\b[Rr]atings?\b", id)]
    assert named and all(word in catalog.gettext(id).lower() for id in named)
    assert word not in catalog.gettext("Scoring").lower()


@pytest.mark.parametrize("language,table", [("de", "Tisch"), ("fr", "table"), ("cs", "stol")])
def test_a_person_away_is_not_told_as_leaving_the_table(language: str, table: str) -> None:
    """The news "Ann has left" (her connection went) is not "Ann leaves the table" (/leave): she keeps her seat."""
    away = T("{name} has left", name="Ann").render(language)
    assert table not in away.lower() and away != T("{name} leaves the table", name="Ann").render(language)


def test_the_away_clock_reads_as_a_duration_not_a_time_of_day() -> None:
    """ "away 1:05" is a minute and five seconds: "weg seit 1:05" would read as five past one."""
    client = ROOT / "src" / "cafe" / "server" / "client" / "i18n"
    away = {
        language: json.loads((client / f"{language}.json").read_text())["messages"]["away {time}"]
        for language in ("de", "fr", "cs")
    }
    assert all("{time} min" in text.lower() for text in away.values()), away
