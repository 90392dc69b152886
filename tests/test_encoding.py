"""The café's messages to clients encoded fast (cafe.server.encoding): the same JSON as the standard library's,
and what orjson refuses still encoded."""

from __future__ import annotations

import json

from cafe.server.encoding import dumps


def test_a_message_reads_back_as_it_was_words_of_every_language_included() -> None:
    message = {"type": "room", "room": {"name": "Café Čtyř · Straße", "scores": [12, -3], "legal": ["USAm@c2"]},
               "seats": {0: "Ann"}, "ratio": 0.5}  # fmt: skip
    assert json.loads(dumps(message)) == json.loads(json.dumps(message))


def test_a_lone_surrogate_a_client_sent_escaped_is_encoded_all_the_same() -> None:
    said = json.loads('{"text": "\\ud800 hello"}')  # what json.loads gives for a lone escaped surrogate
    assert json.loads(dumps(said)) == said
