"""Everything a person reads, in English, German, French or Czech.

Messages are written in English with named placeholders (``"chair {chair} is taken"``); their translations
live in gettext catalogs under ``cafe/locale`` (``.po`` files, compiled to ``.mo`` by ``make catalogs``;
see docs/translating.md).  Only the standard library's :mod:`gettext` reads them, so the engine stays
free of dependencies.

Two kinds of calls mark a message for the catalogs:

- ``_("...", **args)`` and ``n_(singular, plural, n, **args)`` give a string now, in the active language
  (the terminal's, set once by :func:`use`);
- ``T("...", **args)`` and ``NT(singular, plural, n, **args)`` give a :class:`Text` that is rendered later
  in the reader's language: an engine error read by a café visitor, news sent to a room of many languages.

>>> text = T("chair {chair} is taken", chair="h3")
>>> text.render("de"), text.render("cs")
('Stuhl h3 ist besetzt', 'židle h3 je obsazená')
>>> str(text)  # the active language, English unless use() said otherwise
'chair h3 is taken'
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "cs": "Čeština"}
DEFAULT = "en"
DOMAIN = "cafe"
LOCALE_DIR = Path(__file__).parent / "locale"

_active = DEFAULT


@functools.cache
def catalog(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (English is the messages themselves)."""
    if language == DEFAULT or language not in LANGUAGES:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def pick(tags: Iterable[str]) -> str:
    """The first supported language among tags such as ``de_AT.UTF-8``, ``fr-CA`` or ``cs``; else English."""
    for tag in tags:
        code = tag.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the usual variables ask for, read as gettext reads them.

    The first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set decides (``LANGUAGE``
    may list several, ``de:fr``); English where none of its languages is ours.
    """
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return pick(value.split(":"))
    return DEFAULT


def use(language: str) -> str:
    """Make ``language`` the one in which this process speaks (a tag such as ``de_DE`` will do); say which."""
    global _active
    _active = pick([language])
    return _active


def active() -> str:
    """The language in which this process speaks now."""
    return _active


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is defined; it is translated where it is shown."""
    return message


# i18n: what stands between the items of a list inside a sentence ("a player has gone out (32 games); the bar is
# full (6 games)"); French sets a space before the semicolon, as before every colon and semicolon in its catalog
LIST_SEPARATOR = N_("; ")


def translate(message: str, language: str | None = None) -> str:
    """``message`` (a catalog's English text) in ``language`` (the active one if None)."""
    return catalog(language or _active).gettext(message) if message else ""  # gettext("") is the catalog's header


def translate_plural(singular: str, plural: str, n: int, language: str | None = None) -> str:
    """The form of ``singular`` for ``n`` (its placeholders left as they are) in ``language``."""
    return catalog(language or _active).ngettext(singular, plural, n)


def _(message: str, /, **args: Any) -> str:
    """``message`` in the active language, its placeholders filled in."""
    return T(message, **args).render()


def n_(singular: str, plural: str, n: int, /, **args: Any) -> str:
    """The form of a message for ``n`` (``{n}`` is filled in too) in the active language."""
    return NT(singular, plural, n, **args).render()


@dataclass(frozen=True)
class Text:
    """A message and its arguments, rendered in a reader's language when it is read.

    An argument may itself be a :class:`Text` (a nation's name inside a sentence), or a tuple of them
    (joined by the language's :data:`LIST_SEPARATOR`); it is rendered in the same language.
    """

    message: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int = 0

    def render(self, language: str | None = None) -> str:
        book = catalog(language or _active)
        template = book.ngettext(self.message, self.plural, self.n) if self.plural else book.gettext(self.message)
        args = {k: _render_arg(v, language) for k, v in self.args.items()}
        return template.format(n=self.n, **args) if self.plural else template.format(**args)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        """A form that crosses processes (a room's news through the broker)."""
        args = {k: _arg_json(v) for k, v in self.args.items()}
        return {"message": self.message, "args": args, "plural": self.plural, "n": self.n}

    @classmethod
    def plain(cls, text: str) -> Text:
        """A text that is no catalog message (a library's own words): shown as it is in every language."""
        return cls(text.replace("{", "{{").replace("}", "}}"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Text:
        args = {k: _arg_from_json(v) for k, v in data.get("args", {}).items()}
        return cls(data["message"], args, data.get("plural"), int(data.get("n", 0)))


def _render_arg(value: Any, language: str | None) -> Any:
    if isinstance(value, tuple):
        return translate(LIST_SEPARATOR, language).join(str(_render_arg(v, language)) for v in value)
    return value.render(language) if isinstance(value, Text) else value


def _arg_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_arg_json(v) for v in value]
    return value.to_json() if isinstance(value, Text) else value


def _arg_from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_arg_from_json(v) for v in value)
    return Text.from_json(value) if isinstance(value, dict) else value


def T(message: str, /, **args: Any) -> Text:
    """A message to render later, in its reader's language."""
    return Text(message, args)


def NT(singular: str, plural: str, n: int, /, **args: Any) -> Text:
    """A message with a form for each number (``{n}`` is filled in), to render later."""
    return Text(singular, args, plural, n)
