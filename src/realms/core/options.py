"""Game options as a declared schema, and the one validator every game's options go through.

A game lists its options as :class:`Option` values (``Game.options``); the number of
players and their names are declared here once for every game (:func:`player_options`,
from the game's player range).  :func:`validate` checks a raw dict (from the CLI, the web
or a record) against the schema: unknown names, types, hard bounds (every whole number
has a maximum, every list a length), then fills the defaults.  What a schema cannot say
(one option's bound depending on another) is the game's own check, run after it
(``Game.check_options``).

Errors are :class:`OptionError` naming the option and the problem; they show at most a
few dozen characters of what was given, never the whole of a long input.

The CLI and the web read the same schema: :func:`parse_text` turns a command-line value
into the option's type, :meth:`Option.to_json` describes an option for a form.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, Iterable

#: the option types: a whole number, yes/no, one of ``choices``, any of ``choices`` (a
#: list), player names (a list), a file (a bundled name in ``choices``, or a path where
#: paths are allowed), and a timeline of ``[turn, name]`` entries
TYPES = ("int", "bool", "choice", "choices", "names", "file", "timeline")
#: the longest player name (characters), in the names option and in timelines
MAX_NAME = 40
#: the longest file path accepted where paths are allowed
MAX_PATH = 1024
#: how much of a bad value an error message shows
SHOWN = 40


class OptionError(ValueError):
    """Bad game options; the message names the option and the problem."""


def shown(value: Any) -> str:
    """``value`` for an error message: its repr, cut to :data:`SHOWN` characters."""
    text = repr(value[:SHOWN + 1]) if isinstance(value, str) else reprlib.repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _short(text: str) -> str:
    """A name for an error message, cut to :data:`SHOWN` characters."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


@dataclass(frozen=True)
class Option:
    """One option a game declares.

    ``min``/``max`` bound an ``int`` (both required) and the turn of a ``timeline`` entry;
    ``choices`` are the values of a ``choice``/``choices`` option and the bundled names
    of a ``file``; ``nullable`` lets ``None`` mean "not set" (a variant of none, no turn
    limit); ``max_items`` bounds the length of a timeline.  ``flag`` is the CLI shortcut
    (``--turns``) when the game wants one; ``group`` heads the option in forms and lists.
    """

    name: str
    type: str
    default: Any = None
    help: str = ""
    group: str = "options"
    flag: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    max_items: int = 32

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"option {self.name!r}: type must be one of {', '.join(TYPES)}")
        if self.type in ("int", "timeline") and (self.min is None or self.max is None):
            raise ValueError(f"option {self.name!r}: a {self.type} option needs min and max")
        if self.type in ("choice", "choices", "file") and not self.choices:
            raise ValueError(f"option {self.name!r}: a {self.type} option needs choices")
        if self.flag is not None and not self.flag.startswith("--"):
            raise ValueError(f"option {self.name!r}: flag {self.flag!r} must start with --")

    def to_json(self) -> dict:
        """The option as forms and ``realms options --json`` describe it."""
        out = {"name": self.name, "type": self.type, "default": _copy(self.default),
               "help": self.help, "group": self.group, "flag": self.flag, "nullable": self.nullable}
        if self.type in ("int", "timeline"):
            out["min"], out["max"] = self.min, self.max
        if self.choices:
            out["choices"] = list(self.choices)
        if self.type in ("names", "timeline"):
            out["max_items"] = self.max_items
        return out

    def bounds(self) -> str:
        """The allowed values for people (``1..100``, ``races, submission``)."""
        if self.type == "int":
            return f"{self.min}..{self.max}"
        if self.type == "timeline":
            return f"[turn {self.min}..{self.max}, name], at most {self.max_items}"
        if self.type == "bool":
            return "true, false"
        if self.type == "file":
            return "bundled: " + ", ".join(self.choices)
        if self.choices:
            return ", ".join(self.choices)
        return ""


def player_options(min_players: int, max_players: int, default: int) -> tuple[Option, Option]:
    """The number of players and their names: the same two options for every game."""
    return (
        Option("players", "int", default, "Number of players.",
               group="players", flag="--players", min=min_players, max=max_players),
        Option("names", "names", None, f"Player names, unique, up to {MAX_NAME} characters each "
               "(sets the number of players; default P1, P2, …).", group="players", flag="--names",
               nullable=True, max_items=max_players),
    )


def validate(schema: Iterable[Option], raw: dict, paths: bool = True) -> tuple[dict, frozenset]:
    """Check ``raw`` against ``schema`` (which starts with :func:`player_options`) and
    return the full options, in schema order and with defaults filled in, and the names
    that were given.  ``paths``: a ``file`` option may be a path (the CLI, a record);
    without it, only one of its bundled names (the web)."""
    schema = tuple(schema)
    by_name = {o.name: o for o in schema}
    if not isinstance(raw, dict):
        raise OptionError(f"options must be a table of name: value, got {shown(raw)}")
    unknown = [k for k in raw if k not in by_name]
    if unknown:
        listed = ", ".join(_short(str(k)) for k in sorted(map(str, unknown))[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise OptionError(f"unknown option(s) {listed}{more} (known: {', '.join(by_name)})")
    out = {}
    for opt in schema:
        if opt.name in raw:
            out[opt.name] = _check(opt, raw[opt.name], paths)
        else:
            out[opt.name] = _copy(opt.default)
    _players(by_name["players"], out, given="players" in raw)
    return out, frozenset(raw)


def _players(opt: Option, out: dict, given: bool) -> None:
    """Players and names agree: names given alone set the number of players."""
    names = out["names"]
    if names is not None and not given:
        out["players"] = _check(opt, len(names), True)
    players = out["players"]
    if names is None:
        out["names"] = [f"P{i + 1}" for i in range(players)]
    elif len(names) != players:
        raise OptionError(f"option 'names' has {len(names)} names for {players} players")


def _check(opt: Option, value: Any, paths: bool) -> Any:
    """``value`` checked against ``opt`` (a clean copy), or an :class:`OptionError`."""
    if value is None:
        if opt.nullable:
            return None
        raise OptionError(f"option {opt.name!r} must be set (it has no 'none')")
    return _CHECKS[opt.type](opt, value, paths)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(opt: Option, value: Any, paths: bool) -> int:
    if not _whole(value):
        raise OptionError(f"option {opt.name!r} must be a whole number, got {shown(value)}")
    if not opt.min <= value <= opt.max:
        raise OptionError(f"option {opt.name!r} must be {opt.min}..{opt.max}, got {shown(value)}")
    return value


def _bool(opt: Option, value: Any, paths: bool) -> bool:
    if not isinstance(value, bool):
        raise OptionError(f"option {opt.name!r} must be true or false, got {shown(value)}")
    return value


def _choice(opt: Option, value: Any, paths: bool) -> str:
    if not isinstance(value, str) or value not in opt.choices:
        none = " (or none)" if opt.nullable else ""
        raise OptionError(f"option {opt.name!r} must be one of {', '.join(opt.choices)}{none}, got {shown(value)}")
    return value


def _choices(opt: Option, value: Any, paths: bool) -> list[str]:
    """Any of the choices, as a list or a comma-separated string; kept in declared order."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OptionError(f"option {opt.name!r} must be a list of names, any of {', '.join(opt.choices)}")
    unknown = [v for v in value if v not in opt.choices]
    if unknown:
        raise OptionError(f"option {opt.name!r}: unknown value(s) {', '.join(shown(v) for v in unknown[:3])} "
                          f"(known: {', '.join(opt.choices)})")
    return [c for c in opt.choices if c in value]


def _name(opt: Option, value: Any, where: str) -> str:
    """One player name: a string of 1..MAX_NAME characters once stripped."""
    if not isinstance(value, str) or not value.strip():
        raise OptionError(f"option {opt.name!r}: {where} must be a non-empty name, got {shown(value)}")
    name = value.strip()
    if len(name) > MAX_NAME:
        raise OptionError(f"option {opt.name!r}: {where} is {len(name)} characters long "
                          f"(at most {MAX_NAME}): {shown(name)}")
    return name


def _list(opt: Option, value: Any, what: str, items: str) -> list:
    """A list of at most the option's ``max_items`` entries, or an error naming the option."""
    if not isinstance(value, list):
        raise OptionError(f"option {opt.name!r} must be a list of {what}, got {shown(value)}")
    if len(value) > opt.max_items:
        raise OptionError(f"option {opt.name!r} has {len(value)} {items} (at most {opt.max_items})")
    return value


def _names(opt: Option, value: Any, paths: bool) -> list[str]:
    _list(opt, value, "names", "names")
    names = [_name(opt, v, f"name {i + 1}") for i, v in enumerate(value)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise OptionError(f"option {opt.name!r} has duplicate names: {', '.join(shown(n) for n in twice[:3])}")
    return names


def _file(opt: Option, value: Any, paths: bool) -> str:
    if isinstance(value, str) and value in opt.choices:
        return value
    if not paths:
        raise OptionError(f"option {opt.name!r} must be the name of a bundled {opt.name} "
                          f"({', '.join(opt.choices)}), got {shown(value)}")
    if not isinstance(value, str) or not value or len(value) > MAX_PATH or "\0" in value:
        raise OptionError(f"option {opt.name!r} must be a bundled name ({', '.join(opt.choices)}) "
                          f"or a path to a file, got {shown(value)}")
    return value


def _timeline(opt: Option, value: Any, paths: bool) -> list[list]:
    """``[[turn, name], …]``, sorted; turns within the option's bounds."""
    _list(opt, value, "[turn, name]", "entries")
    out = []
    for i, item in enumerate(value):
        if (not isinstance(item, (list, tuple)) or len(item) != 2 or not _whole(item[0])
                or not opt.min <= item[0] <= opt.max):
            raise OptionError(f"option {opt.name!r}: entry {i + 1} {shown(item)} must be "
                              f"[turn ≥ {opt.min} and ≤ {opt.max}, name]")
        out.append([item[0], _name(opt, item[1], f"entry {i + 1}")])
    return sorted(out)


_CHECKS = {"int": _int, "bool": _bool, "choice": _choice, "choices": _choices, "names": _names,
           "file": _file, "timeline": _timeline}


def _copy(value: Any) -> Any:
    """A default's own copy (a list default is not shared between games)."""
    return [_copy(v) for v in value] if isinstance(value, (list, tuple)) else value


# -- from the command line --------------------------------------------------------------
TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")


def parse_text(opt: Option, text: str) -> Any:
    """A command-line value for ``opt``: ints, booleans, comma-separated lists, ``TURN:NAME``
    entries; ``none`` (or nothing) for an option that may be unset.  What it returns still
    goes through :func:`validate`; an :class:`OptionError` says what was expected."""
    if opt.nullable and text.strip().lower() in ("", "none"):
        return None
    if opt.type == "int":
        try:
            return int(text.strip())
        except ValueError:
            raise OptionError(f"expected a whole number, got {shown(text)}") from None
    if opt.type == "bool":
        word = text.strip().lower()
        if word not in TRUE + FALSE:
            raise OptionError(f"expected true or false, got {shown(text)}")
        return word in TRUE
    if opt.type == "choices":
        return [v.strip() for v in text.split(",") if v.strip()]
    if opt.type == "names":
        return [v.strip() for v in text.split(",")]
    if opt.type == "timeline":
        return [_entry(part) for part in text.split(",") if part.strip()]
    return text.strip()


def _entry(text: str) -> list:
    turn, _, name = text.partition(":")
    if not turn.strip().isdigit() or not name.strip():
        raise OptionError(f"{shown(text.strip())}: expected TURN:NAME, e.g. 3:Dana")
    return [int(turn), name.strip()]


def metavar(opt: Option) -> str:
    """How a command line writes the option's value."""
    return {"int": "N", "bool": "BOOL", "choice": "NAME", "choices": "A,B,…",
            "names": "NAME,…", "file": "NAME|PATH", "timeline": "TURN:NAME"}[opt.type]
