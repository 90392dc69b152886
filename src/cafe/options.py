"""Rule options and presets (RULES.md §6).

Each edition has its own options dataclass.  In a record, ``rules`` is either
a preset name or ``{"preset": NAME, option: value, ...}``; an option of the
other edition is an error.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any, Literal

from cafe.errors import RulesError
from cafe.frozen import rebuilt
from cafe.i18n import N_, T, translate

PRINTED_BAR: tuple[int, ...] = (1, 2, 3, 4, 5, -2, -4, -6, -8, -10, -4, -6, -8, -10, -12, -6, -8, -10, -12, -14)
STRAIGHT_BAR: tuple[int, ...] = (1, 2, 3, 4, 5, *tuple(-2 * k for k in range(1, 16)))
BAR_STOOLS = 20
NAMED_BARS = {"printed": PRINTED_BAR, "straight": STRAIGHT_BAR}

Scoring = Literal["bonus", "basic"]
JokerToBar = Literal["never", "when-unplaceable"]
JokerExchange = Literal["given-nation", "either-nation"]


@dataclass(frozen=True)
class BoardRules:
    """Options of the board game.  The defaults are the printed rules."""

    scoring: Scoring = "bonus"
    bar_values: tuple[int, ...] = PRINTED_BAR
    joker_to_bar: JokerToBar = "never"
    joker_exchange: JokerExchange = "given-nation"
    surprise_guests: bool = False
    regulars: bool = False

    @property
    def edition(self) -> str:
        return "board"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True)
class CardRules:
    """Options of the card game.  The defaults are the printed rules."""

    tribe_and_circle: bool = False

    @property
    def edition(self) -> str:
        return "cards"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


Rules = BoardRules | CardRules

_CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": ("bonus", "basic"),
    "joker_to_bar": ("never", "when-unplaceable"),
    "joker_exchange": ("given-nation", "either-nation"),
}

# What each option does, in a line, for people choosing it (the café's "More options", cafe play --option)
OPTION_TEXT: dict[str, tuple[str, str | dict[str, str]]] = {  # in English; option_catalogue() translates
    "scoring": (N_("Scoring"), {
        "bonus": N_("single-nation tables score double"),
        "basic": N_("the first 1989 edition: only a full single-nation table scores double"),
    }),
    "bar_values": (N_("Bar values"), {
        "printed": N_("as printed: +1 to +5, then down to -14"),
        "straight": N_("+1 to +5, then -2, -4 ... -30"),
    }),
    "joker_to_bar": (N_("Jokers at the bar"), {
        "never": N_("never"),
        "when-unplaceable": N_("when no table can take the joker (BrettspielWelt)"),
    }),
    "joker_exchange": (N_("Exchanging a joker"), {
        "given-nation": N_("for a guest of the joker's given nation"),
        "either-nation": N_("for a guest of either nation of its chair"),
    }),
    "surprise_guests": (N_("Surprise guests"), N_("hands are hidden: each player sees only their own")),
    "regulars": (N_("Tables for regulars"),
                 N_("3 or 4 guests of one gender at an empty table score 20 (40 of its nation), and it closes")),
    "tribe_and_circle": (N_("Tribe and little circle"),
                         N_("2 to 4 cards of one gender filling a table score 20 (40 of its nation)")),
}  # fmt: skip

# Each choice's short name, where a room's rules are summed up ("Jokers at the bar: never")
CHOICE_WORDS: dict[str, str] = {
    "bonus": N_("with the bonus"),
    "basic": N_("basic (1989)"),
    "printed": N_("as printed"),
    "straight": N_("straight"),
    "never": N_("never"),
    "when-unplaceable": N_("when no table can take it"),
    "given-nation": N_("its given nation"),
    "either-nation": N_("either nation of its chair"),
}

# The presets' names for people
PRESET_TITLES: dict[str, str] = {
    "printed": N_("printed rules"),
    "original-1989": N_("first edition (1989)"),
    "brettspielwelt": N_("BrettspielWelt"),
}


def option_catalogue(edition: str, language: str | None = None) -> list[dict[str, Any]]:
    """An edition's options as a front end offers them: key, label, the default, and a line of help for the option
    (a switch) or for each of its values (a choice, with its short name; a named bar with its values), in
    ``language`` (the active one if None)."""
    out: list[dict[str, Any]] = []
    for f in fields(BoardRules if edition == "board" else CardRules):
        label, text = OPTION_TEXT[f.name]
        label = translate(label, language)
        if isinstance(text, dict):
            default = next(iter(text))
            choices: list[dict[str, Any]] = [
                {"value": v, "label": translate(CHOICE_WORDS[v], language), "help": translate(h, language)}
                for v, h in text.items()
            ]
            for choice in choices if f.name == "bar_values" else ():  # as a room's rules hold them: a list
                choice["values"] = list(NAMED_BARS[choice["value"]])
            out.append({"key": f.name, "label": label, "default": default, "choices": choices})
        else:
            out.append({"key": f.name, "label": label, "default": False, "help": translate(text, language)})
    return out


def preset_catalogue(edition: str, language: str | None = None) -> list[dict[str, Any]]:
    """An edition's presets as a front end offers them: the name, its title for people, and the value of every
    option in it (a named bar by its name), so that a form shows what the preset plays."""
    return [{"value": name, "label": translate(PRESET_TITLES[name], language),
             "values": _shown_values(make_rules(edition, name))}
            for name in (PRESETS if edition == "board" else CARD_PRESETS)]  # fmt: skip


def _shown_values(rules: Rules) -> dict[str, Any]:
    """Every option's value in these rules, a bar named where it has a name, as a form and a record write it."""
    named = {bar: name for name, bar in NAMED_BARS.items()}
    return {key: named.get(value, list(value)) if isinstance(value, tuple) else value
            for key, value in asdict(rules).items()}  # fmt: skip


PRESETS: dict[str, dict[str, Any]] = {
    "printed": {},
    "original-1989": {"scoring": "basic"},
    "brettspielwelt": {"scoring": "bonus", "joker_to_bar": "when-unplaceable", "joker_exchange": "either-nation"},
}
CARD_PRESETS: dict[str, dict[str, Any]] = {"printed": {}}


def _option_names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


def _check_value(key: str, value: Any) -> Any:
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise RulesError(
                T(
                    "option {key} must be one of {choices}, not {value!r}",
                    key=key,
                    choices=", ".join(map(repr, _CHOICES[key])),
                    value=value,
                )
            )
        return value
    if key == "bar_values":
        if isinstance(value, str):
            if value not in NAMED_BARS:
                raise RulesError(
                    T(
                        "option bar_values: unknown name {value!r} (use 'straight' or a list of 20 integers)",
                        value=value,
                    )
                )
            return NAMED_BARS[value]
        if (
            not isinstance(value, (list, tuple))
            or len(value) != BAR_STOOLS
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise RulesError(T("option bar_values must be 'straight' or a list of exactly 20 integers"))
        return tuple(value)
    if not isinstance(value, bool):
        raise RulesError(T("option {key} must be true or false, not {value!r}", key=key, value=value))
    return value


def make_rules(edition: object, spec: object = None, **overrides: Any) -> Rules:
    """Rules of an edition (``"board"`` or ``"cards"``) from a preset name or a record's rules object (a dict), plus
    overrides.  Anything else is refused with a RulesError (the parameters take any object so that, compiled too,
    a wrong type gets that message rather than a TypeError)."""
    cls: type[BoardRules] | type[CardRules]
    other: type[BoardRules] | type[CardRules]
    if edition == "board":
        cls, presets, other = BoardRules, PRESETS, CardRules
    elif edition == "cards":
        cls, presets, other = CardRules, CARD_PRESETS, BoardRules
    else:
        raise RulesError(T("unknown edition {edition!r} (board or cards)", edition=edition))
    if spec is None:
        spec = "printed"
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise RulesError(T("rules must be a preset name or an object with a preset and options"))
    options = dict(spec)
    options.update(overrides)
    preset = options.pop("preset", "printed")
    if not isinstance(preset, str) or preset not in presets:
        raise RulesError(
            T(
                "unknown preset {preset!r} for the {edition} game (one of {presets})",
                preset=preset,
                edition=edition,
                presets=", ".join(presets),
            )
        )
    values: dict[str, Any] = dict(presets[preset])
    known = _option_names(cls)
    for key, value in options.items():
        if key not in known:
            if key in _option_names(other):
                raise RulesError(
                    T("option {key} belongs to the other edition, not the {edition} game", key=key, edition=edition)
                )
            raise RulesError(
                T("unknown option {key!r} (options: {options})", key=key, options=", ".join(sorted(known)))
            )
        values[key] = value
    return cls(**{k: _check_value(k, v) for k, v in values.items()})


@lru_cache(maxsize=64)
def _preset_of(rules: Rules) -> str | None:
    """The preset these rules are, if any (asked for every view, so remembered)."""
    presets = PRESETS if isinstance(rules, BoardRules) else CARD_PRESETS
    return next((name for name in presets if make_rules(rules.edition, name) == rules), None)


def rules_to_json(rules: Rules) -> str | dict[str, Any]:
    """The shortest record form: a preset name when the rules equal a preset, else preset + differences."""
    name = _preset_of(rules)
    if name is not None:
        return name
    base = make_rules(rules.edition, "printed")
    out: dict[str, Any] = {"preset": "printed"}
    for key, value in asdict(rules).items():
        if getattr(base, key) != value:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def rules_from(preset: str, rules: Rules) -> str | dict[str, Any]:
    """These rules as the chosen preset and what differs from it (the preset name alone if nothing does): a room
    keeps the preset its host chose, so that its description names the differences from that preset."""
    base = _shown_values(make_rules(rules.edition, preset))
    changed = {key: value for key, value in _shown_values(rules).items() if base[key] != value}
    return {"preset": preset, **changed} if changed else preset


def with_options(edition: str, spec: str | dict[str, Any] | None, options: list[str]) -> str | dict[str, Any] | None:
    """Rules with options given by name, as ``KEY=VALUE`` (true and false for switches), checked.

    >>> with_options("board", "brettspielwelt", ["surprise_guests=true", "scoring=basic"])
    {'preset': 'brettspielwelt', 'surprise_guests': True, 'scoring': 'basic'}
    """
    if not options:
        return spec
    out: dict[str, Any] = {"preset": spec or "printed"} if not isinstance(spec, dict) else dict(spec)
    for text in options:
        key, sep, value = text.partition("=")
        if not sep:
            raise RulesError(T("--option takes KEY=VALUE, like surprise_guests=true; not {text!r}", text=text))
        out[key.strip()] = {"true": True, "false": False}.get(value.strip().lower(), value.strip())
    make_rules(edition, out)
    return out


def rules_from_text(edition: str, text: str | None) -> str | dict[str, Any] | None:
    """Rules as typed on a command line: a preset name or a JSON object; checked, and kept in that form.

    >>> rules_from_text("board", '{"preset": "printed", "regulars": true}')
    {'preset': 'printed', 'regulars': True}
    """
    if text is None:
        return None
    spec: str | dict[str, Any] = text
    if text.lstrip().startswith("{"):
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(T("--rules is not valid JSON: {error}", error=str(error))) from None
    make_rules(edition, spec)
    return spec
