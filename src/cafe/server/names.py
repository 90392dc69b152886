"""People's names that others can tell apart, by Unicode's own rules: UTS #39, Unicode Security Mechanisms.

A name keeps to an identifier profile (letters, combining marks and digits of any script, spaces and a few
punctuation marks; nothing invisible), is written in one script (Chinese, Japanese and Korean mix as they are
written), and two names are one when their confusable skeletons are the same, case aside: "Ann" with a Cyrillic
A is "Ann", "bot" in fullwidth letters is "bot".  Unicode's data comes from two packages: ``regex`` (the
Default_Ignorable_Code_Point property) and ``confusable_homoglyphs`` (the scripts of characters, and the
confusables of UTS #39).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

import regex
from confusable_homoglyphs.categories import alias
from confusable_homoglyphs.confusables import confusables_data

from cafe.i18n import T
from cafe.server.fields import ProtocolError

MAX_NAME = 24
INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")  # and what is not printable (str.isprintable)
ALLOWED = regex.compile(r"[\p{L}\p{M}\p{Nd} '\-._]")  # the profile: what a name may be made of
RESERVED = re.compile(r"\bbot\b")  # in a skeleton: computer players are named "Easy bot 2", "Ann (bot)"
NEUTRAL = {"COMMON", "INHERITED"}  # digits, spaces, punctuation, combining marks: of every script
TOGETHER = ({"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "BOPOMOFO"}, {"HAN", "HANGUL"})  # scripts written together


def name(message: dict[str, Any]) -> str:
    """The ``name`` field of a message, as :func:`clean` keeps it."""
    raw = message.get("name")
    if not isinstance(raw, str):
        raise ProtocolError("field", T("'name' must be a non-empty string"))
    return clean(raw)


def clean(raw: str) -> str:
    """A person's name as it is kept: Unicode NFC, runs of white space as one space; or a ProtocolError saying
    what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    hidden = next((c for c in name if INVISIBLE.match(c) or not c.isprintable()), None)
    if hidden is not None:
        code = f"{ord(hidden):04X}"
        raise ProtocolError("name", T("a name cannot hold invisible characters (U+{code} is one)", code=code))
    if not name:
        raise ProtocolError("name", T("a name needs letters or digits that can be seen"))
    if len(name) > MAX_NAME:
        raise ProtocolError("name", T("a name has at most {n} characters", n=MAX_NAME))
    if RESERVED.search(key(name)):
        raise ProtocolError("name", T("'bot' is kept for the names of computer players: choose another name"))
    stray = next((c for c in name if not ALLOWED.fullmatch(c)), None)
    if stray is not None:
        code = f"{ord(stray):04X}"
        only = T("a name has letters, digits, spaces and - ' . _ only: '{char}' (U+{code}) is not allowed",
                 char=stray, code=code)  # fmt: skip
        raise ProtocolError("name", only)
    if not any(c.isalnum() for c in name):
        raise ProtocolError("name", T("a name needs letters or digits that can be seen"))
    scripts = {alias(c) for c in name} - NEUTRAL
    if len(scripts) > 1 and not any(scripts <= together for together in TOGETHER):
        raise ProtocolError("name", T("a name is written in one script: letters of different alphabets look alike"))
    return name


def key(name: str) -> str:
    """What makes two names one: the same UTS #39 skeleton, case and compatibility forms aside ('ANN', 'Ann' with
    a Cyrillic A, and 'Ann' in fullwidth letters are 'Ann'). Case is folded before and after: a prototype may
    be a capital ('0' looks like 'O', so 'B0b' is 'Bob')."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return skeleton(skeleton(folded).casefold())


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decomposed, invisible characters dropped, every character replaced by the prototype
    its confusables share, decomposed again."""
    decomposed = INVISIBLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))


@functools.cache
def _prototype(char: str) -> str:
    """The one representative of the characters that look like ``char``.

    confusable_homoglyphs keeps UTS #39's table both ways: a character that maps to a prototype lists only it,
    a prototype lists every character that maps to it.  Where two characters list only each other, the
    direction is lost: the smaller stands for both (one is as good a skeleton as the other).  A prototype of
    several characters ('rn' for 'm') is always the target."""
    listed: list[str] = [entry["c"].replace("\u200e", "") for entry in confusables_data.get(char, ())]
    if len(listed) != 1:
        return char  # a prototype, or a character with no double
    other = listed[0]
    if len(other) > 1 or len(confusables_data.get(other, ())) > 1:
        return str(other)
    return str(min(char, other))
