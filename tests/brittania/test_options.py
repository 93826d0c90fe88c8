"""Options: up to 12 players (INTRODUCTION: "A Player (maximum of 12)"), names, turns; the
12 colours of the text in seat order."""

import pytest

from realms.core.game import OptionError
from realms.games.brittania import GAME
from realms.games.brittania.draw import draw


def test_defaults_and_schema():
    assert GAME.normalize_options({}) == {"players": 4, "names": ["P1", "P2", "P3", "P4"], "turns": 20,
                                          "deadline_minutes": 0}
    assert [o.name for o in GAME.schema] == ["players", "names", "turns", "deadline_minutes"]
    turns = GAME.schema[2]
    assert (turns.type, turns.default, turns.min, turns.max, turns.flag) == ("int", 20, 1, 100, "--turns")


@pytest.mark.parametrize("raw, message", [
    ({"players": 13}, "option 'players' must be 2..12"),
    ({"players": 1}, "option 'players' must be 2..12"),
    ({"names": ["A", "A"]}, "duplicate names"),
    ({"players": 3, "names": ["A", "B"]}, "2 names for 3 players"),
    ({"turns": 0}, "option 'turns' must be 1..100"),
    ({"deadline_minutes": -1}, "option 'deadline_minutes' must be 0..43200"),
    ({"colour": "red"}, "unknown option(s) colour"),
])
def test_bad_options(raw, message):
    with pytest.raises(OptionError) as err:
        GAME.normalize_options(raw)
    assert message in str(err.value)


def test_twelve_colours_in_the_texts_order():
    s = GAME.new_game({"players": 12}, 0)
    assert s.colours == ["Red", "Yellow", "Green", "Cyan", "Orange", "Silver", "Purple", "White", "Teal",
                         "Pink", "Blue", "Grey"]


def test_position_drawn_in_owner_colours():
    s = GAME.new_game({"players": 2}, 0)
    s.apply(0, "kent")
    svg = draw(s)
    red = s.tables.colour_hex["Red"]
    assert f'id="area-kent" points=' in svg and f'fill="{red}"' in svg
    assert "Turn 0" in svg and "P1: 10 grain" in svg
