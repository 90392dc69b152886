"""``cafe bot --enter``: the bot account enters a café's tournament itself, over HTTP with its API token
(docs/protocol.md, "Tournaments"), before it connects; it then plays the tournament's tables like any other."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode

from cafe.bot.client import OPEN_SECONDS, Refused, page_url
from cafe.i18n import T, Text


def enter(server: str, token: str, cup: str, language: str) -> Text:
    """Enter the tournament ``cup``: what to say of it. An entry made before (the bot started again) is no
    error; any other refusal is :class:`Refused`, in the café's words."""
    url = page_url(server, f"/tournaments/{quote(cup, safe='')}/enter", urlencode({"lang": language}))
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, b"{}", headers), timeout=OPEN_SECONDS) as answer:
            shown = _answer(answer.read())
        return T("the bot entered the tournament {name} ({id})", name=str(shown.get("name", "")), id=cup)
    except urllib.error.HTTPError as refused:
        said = _answer(refused.read())
        if said.get("code") == "entered":
            return T("the bot has entered the tournament {id} already", id=cup)
        message = str(said.get("error", refused.reason))
        said_so = T("the café did not enter the bot in the tournament {id}: {message}", id=cup, message=message)
        raise Refused(said_so) from None
    except (urllib.error.URLError, OSError) as error:
        raise Refused(T("cannot reach the café at {url}: {reason}", url=url, reason=str(error))) from None


def _answer(body: bytes) -> dict[str, Any]:
    """The café's JSON answer (a proxy's page of HTML is none: then nothing)."""
    try:
        found = json.loads(body)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
