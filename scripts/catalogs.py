"""The translation catalogs: gather the messages, keep the .po files up to date, compile what the software reads.

    python scripts/catalogs.py           # after changing messages or translations (make catalogs)
    python scripts/catalogs.py --check   # what is wrong, without writing anything (the test suite runs it)

The .po files under src/cafe/locale are the source of the translations.  From them come, and are kept in
the repository beside them: the .mo files that Python's gettext reads, and one JSON file per language for
the browser client (src/cafe/server/client/i18n/), holding the messages of the client's own scripts and
those marked ``# i18n: browser`` in Python.  The check fails when a message lacks a translation in any
language, when a translation drops or adds a placeholder, or when a compiled file is out of date.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import gettext
import io
import json
import re
import string
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from cafe import i18n
from cafe.learn.lesson import messages as lesson_messages

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "cafe" / "locale"
CLIENT = ROOT / "src" / "cafe" / "server" / "client"
# English first (the messages themselves, and its plural forms): the package's languages and catalog name
LANGUAGES = tuple(sorted(i18n.LANGUAGES, key=lambda code: code != i18n.DEFAULT))
DOMAIN = i18n.DOMAIN
KEYWORDS = {"_": None, "T": None, "N_": None, "n_": (1, 2), "NT": (1, 2), "t": None, "tn": (1, 2)}
METHODS = [("src/cafe/**.py", "python"), ("src/cafe/server/client/**.js", "javascript")]
OPTIONS = {"src/cafe/server/client/**.js": {"parse_template_string": "true"}}  # t() inside `...${t("...")}...`
BROWSER_TAG = "i18n: browser"
PERCENT = re.compile(r"%(?:\(\w+\))?[sdr]")
DATE = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)  # fixed, so that an unchanged catalog gives the same files


def template() -> Catalog:
    """Every message the code marks, with where it is used."""
    catalog = Catalog(domain=DOMAIN, project="cafe-international", creation_date=DATE, revision_date=DATE)
    found = extract_from_dir(
        ROOT, METHODS, OPTIONS, keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=False
    )
    for path, line, message, comments, context in found:
        catalog.add(message, None, [(path, line)], auto_comments=comments, context=context)
    for message, file in lesson_messages():  # the tutorial's lessons are data: their texts are in JSON files
        catalog.add(message, None, [(f"src/cafe/learn/lessons/{file}", 0)])
    return catalog


def updated(language: str, messages: Catalog) -> Catalog:
    """The language's catalog with every message of ``messages``: its translations kept, new ones empty.

    ``messages`` is left as it was (Babel's update takes the template's own message objects into the catalog).
    """
    messages = copy.deepcopy(messages)
    path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=DOMAIN)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN)
    catalog.update(messages, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.project, catalog.creation_date, catalog.revision_date = "cafe-international", DATE, DATE
    if language == "en":  # English is the messages themselves
        for message in catalog:
            if message.id:
                message.string = message.id
    return catalog


def placeholders(text: str) -> list[str]:
    """The fields of a message, sorted: ``{name!r:spec}``, and ``%(name)s`` or ``%s`` (argparse's own words)."""
    if PERCENT.search(text):
        return sorted(PERCENT.findall(text))
    try:
        return sorted(f"{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
                      for _, name, spec, conv in string.Formatter().parse(text) if name is not None)  # fmt: skip
    except ValueError:
        return ["<unbalanced braces>"]


def problems(language: str, catalog: Catalog) -> list[str]:
    """Messages without a translation, fuzzy ones, and translations whose placeholders differ."""
    out = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        where = f"{language}: {ids[0]!r}"
        if not all(forms) or message.fuzzy:
            out.append(f"{where} has no translation")
            continue
        if len(ids) > 1 and len(forms) != catalog.num_plurals:
            out.append(f"{where} needs {catalog.num_plurals} plural forms, not {len(forms)}")
        wanted = placeholders(ids[-1])
        for form in forms:
            if placeholders(form) != wanted:
                out.append(f"{where}: the translation {form!r} has {placeholders(form)}, the message {wanted}")
    return out


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_previous=False, include_lineno=False)  # no churn
    return out.getvalue()


def browser_json(language: str, catalog: Catalog) -> bytes:
    """The client's messages: keyed by their English text; a plural message has its forms, in gettext's
    order, and ``plural`` says which form each of the browser's plural categories (Intl.PluralRules) takes."""
    choose = gettext.c2py(catalog.plural_expr)
    locale = Locale.parse(language)
    plural = {locale.plural_form(n): choose(n) for n in range(1000)}
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or not _for_browser(message):
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        messages[key] = list(message.string) if isinstance(message.string, tuple) else message.string
    data = {"language": language, "plural": dict(sorted(plural.items())), "messages": dict(sorted(messages.items()))}
    return (json.dumps(data, ensure_ascii=False, indent=0, sort_keys=False) + "\n").encode()


def _for_browser(message: Message) -> bool:
    return any(path.endswith(".js") for path, _ in message.locations) or BROWSER_TAG in message.auto_comments


def files() -> tuple[dict[Path, bytes], list[str]]:
    """Every file the catalogs make, and what is wrong with the translations."""
    messages = template()
    out: dict[Path, bytes] = {}
    wrong: list[str] = []
    for language in LANGUAGES:
        catalog = updated(language, messages)
        wrong += problems(language, catalog)
        folder = LOCALE / language / "LC_MESSAGES"
        out[folder / f"{DOMAIN}.po"] = po_text(catalog)
        if language != "en":  # English needs no compiled catalog: its messages are the code's own
            out[folder / f"{DOMAIN}.mo"] = compiled(catalog)
        out[CLIENT / "i18n" / f"{language}.json"] = browser_json(language, catalog)
    return out, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report what is wrong or stale; write nothing")
    args = parser.parse_args()
    made, wrong = files()
    stale = [path for path, data in made.items() if not path.exists() or path.read_bytes() != data]
    if args.check:
        for path in stale:
            wrong.append(f"{path.relative_to(ROOT)} is not what the catalogs make: run python scripts/catalogs.py")
        print("\n".join(wrong) or f"catalogs: {len(LANGUAGES)} languages, every message translated")
        return 1 if wrong else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(made[path])
        print(f"wrote {path.relative_to(ROOT)}")
    if wrong:
        print(f"{len(wrong)} problems:\n" + "\n".join(wrong[:40]), file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
