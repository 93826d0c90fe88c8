"""The declared option schema and its one validator:
each type, hard bounds, unknown names, players and names checked once for every game,
errors that name the option and never echo long input, and the command-line reading."""

from __future__ import annotations

import pytest

from realms.core.game import get_game, games
from realms.core.options import MAX_NAME, Option, OptionError, parse_text, player_options, validate

SCHEMA = (
    *player_options(2, 5, 3),
    Option("turns", "int", 10, "Game length.", min=1, max=50, nullable=True),
    Option("fast", "bool", False, "Quick play."),
    Option("variant", "choice", None, "A variant.", choices=("a", "b"), nullable=True),
    Option("rules", "choices", [], "Extra rules.", choices=("x", "y", "z")),
    Option("board", "file", "home", "A board.", choices=("home", "away")),
    Option("joins", "timeline", [], "Who joins when.", min=2, max=50, max_items=4),
)


def check(raw: dict, paths: bool = True) -> dict:
    return validate(SCHEMA, raw, paths)[0]


def refused(raw: dict, paths: bool = True) -> str:
    with pytest.raises(OptionError) as info:
        check(raw, paths)
    return str(info.value)


def test_defaults_fill_in_and_given_names_are_reported():
    options, given = validate(SCHEMA, {"turns": 5})
    assert options == {"players": 3, "names": ["P1", "P2", "P3"], "turns": 5, "fast": False, "variant": None,
                       "rules": [], "board": "home", "joins": []}
    assert given == {"turns"}
    a, b = check({}), check({})
    a["rules"].append("x")
    assert b["rules"] == []  # a list default is each game's own


@pytest.mark.parametrize("raw, words", [
    ({"turns": 0}, "option 'turns' must be 1..50, got 0"),
    ({"turns": 51}, "option 'turns' must be 1..50, got 51"),
    ({"turns": 10**9}, "option 'turns' must be 1..50"),
    ({"turns": "5"}, "option 'turns' must be a whole number, got '5'"),
    ({"turns": True}, "option 'turns' must be a whole number"),
    ({"turns": 2.5}, "option 'turns' must be a whole number"),
    ({"fast": 1}, "option 'fast' must be true or false, got 1"),
    ({"fast": None}, "option 'fast' must be set"),
    ({"variant": "c"}, "option 'variant' must be one of a, b (or none), got 'c'"),
    ({"rules": ["x", "w"]}, "option 'rules': unknown value(s) 'w' (known: x, y, z)"),
    ({"rules": 3}, "option 'rules' must be a list"),
    ({"board": "/etc/passwd"}, "option 'board' must be the name of a bundled board (home, away)"),
    ({"joins": [[1, "Dana"]]}, "option 'joins': entry 1 [1, 'Dana'] must be [turn ≥ 2 and ≤ 50, name]"),
    ({"joins": [[51, "Dana"]]}, "must be [turn ≥ 2 and ≤ 50, name]"),
    ({"joins": [[3, ""]]}, "option 'joins': entry 1 must be a non-empty name"),
    ({"joins": [[3, "D"]] * 5}, "option 'joins' has 5 entries (at most 4)"),
    ({"colour": "red"}, "unknown option(s) colour (known: players, names, turns, fast, variant, rules, board, joins)"),
])
def test_each_type_and_bound_is_checked_naming_the_option(raw, words):
    assert words in refused(raw, paths=False)


def test_values_are_cleaned_in_declared_order():
    options = check({"rules": "z, x", "turns": None, "variant": "b", "fast": True,
                     "joins": [[5, " Eve "], [3, "Dana"]], "board": "away"})
    assert options["rules"] == ["x", "z"] and options["turns"] is None and options["fast"] is True
    assert options["joins"] == [[3, "Dana"], [5, "Eve"]] and options["board"] == "away"


def test_a_file_may_be_a_path_only_where_paths_are_allowed():
    """The CLI and records may name a file on disk; the web only a bundled name."""
    assert check({"board": "boards/mine.toml"})["board"] == "boards/mine.toml"
    assert "bundled board" in refused({"board": "boards/mine.toml"}, paths=False)
    assert "or a path to a file" in refused({"board": "x" * 5000})


def test_players_and_names_once_for_every_game():
    """Players come from the game's range; names are non-empty, unique, at most MAX_NAME
    characters, stripped, and set the number of players when it is not given."""
    assert check({"names": [" Ann ", "Bo"]})["names"] == ["Ann", "Bo"]
    assert check({"names": ["Ann", "Bo"]})["players"] == 2
    assert "option 'players' must be 2..5, got 6" in refused({"players": 6})
    assert "option 'names' has 6 names (at most 5)" in refused({"names": list("abcdef")})
    assert "option 'names' has 2 names for 4 players" in refused({"players": 4, "names": ["a", "b"]})
    assert "duplicate names: 'Ann'" in refused({"names": ["Ann", "Bo", "Ann"]})
    assert "name 2 must be a non-empty name" in refused({"names": ["Ann", "  "]})
    assert f"name 1 is {MAX_NAME + 1} characters long (at most {MAX_NAME})" in refused({"names": ["n" * (MAX_NAME + 1), "b"]})
    for game in games().values():
        players, names = game.schema[:2]
        assert (players.name, players.min, players.max) == ("players", game.min_players, game.max_players)
        assert names.name == "names" and names.max_items == game.max_players


@pytest.mark.parametrize("raw", [
    {"names": ["x" * 10_000_000, "b"]},
    {"x" * 10_000_000: 1},
    {"variant": "v" * 10_000_000},
    {"rules": ["r" * 10_000_000]},
    {"joins": [[3, "j" * 10_000_000]]},
    {"board": "b" * 10_000_000},
    {"turns": [1] * 1_000_000},
])
def test_errors_never_echo_long_input(raw):
    """A 10 MB value or key is refused with a short message."""
    assert len(refused(raw)) < 300


def test_every_int_has_a_maximum_and_every_option_a_help():
    with pytest.raises(ValueError, match="needs min and max"):
        Option("n", "int", 1)
    with pytest.raises(ValueError, match="needs choices"):
        Option("v", "choice", None)
    for game in games().values():
        for o in game.schema:
            assert o.help, (game.id, o.name)
            assert o.type != "int" or (o.min is not None and o.max is not None), (game.id, o.name)


def test_hy_breasil_bounds_its_lengths_and_checks_what_ties_options():
    """No turns nor max_turns of 10⁹; §3 a VP target alone plays until it
    is reached; the token sets cover the players (§2, §9.3)."""
    hb = get_game("hy-breasil")
    for name in ("turns", "max_turns", "vp_target", "set_size", "sets"):
        with pytest.raises(OptionError, match=f"option '{name}' must be"):
            hb.normalize_options({name: 10**9})
    assert hb.normalize_options({"vp_target": 30})["turns"] is None
    assert hb.normalize_options({"vp_target": 30, "turns": 8})["turns"] == 8
    with pytest.raises(OptionError, match="'sets' \\(3\\) must be at least the number of players \\(4\\)"):
        hb.normalize_options({"sets": 3})


def test_normalized_options_validate_again_unchanged():
    """A record's options (already normalized) pass the validator as they are."""
    for game in games().values():
        for raw in ({}, {"names": ["Ann", "Bo", "Cy"]}):
            once = game.normalize_options(raw)
            assert game.normalize_options(dict(once)) == once


@pytest.mark.parametrize("option, text, value", [
    (SCHEMA[2], "12", 12),
    (SCHEMA[2], "none", None),
    (SCHEMA[3], "yes", True),
    (SCHEMA[3], "off", False),
    (SCHEMA[4], "a", "a"),
    (SCHEMA[5], "x, z", ["x", "z"]),
    (SCHEMA[5], "", []),
    (SCHEMA[1], "Ann, Bo", ["Ann", "Bo"]),
    (SCHEMA[7], "3:Dana, 5:Eve", [[3, "Dana"], [5, "Eve"]]),
])
def test_command_line_values_are_read_by_type(option, text, value):
    assert parse_text(option, text) == value


@pytest.mark.parametrize("option, text, words", [
    (SCHEMA[2], "x", "expected a whole number, got 'x'"),
    (SCHEMA[3], "maybe", "expected true or false"),
    (SCHEMA[7], "Dana", "expected TURN:NAME"),
])
def test_bad_command_line_values_say_what_was_expected(option, text, words):
    with pytest.raises(OptionError, match=words):
        parse_text(option, text)
