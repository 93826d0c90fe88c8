"""The board as SVG (Game.draw): terrain, production index, owners, units by arm,
capitols and warehouses."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from realms.core.agents import RandomBot
from realms.core.match import play
from realms.games.version2 import GAME

NS = "{http://www.w3.org/2000/svg}"


def _root(svg: str):
    return ET.fromstring(svg.split("\n", 1)[1])


def test_board_svg_has_every_field_with_terrain_and_index():
    root = _root(GAME.draw(None, {"players": 4}))
    fields = [e for e in root.iter(NS + "polygon") if "field" in (e.get("class") or "")]
    from realms.games.version2.board import default_board

    b = default_board(4)
    assert len(fields) == b.size
    assert {e.get("class").split()[1] for e in fields} == {"sea", "ford", "woodland", "meadows", "mountains"}
    labels = {e.text for e in root.iter(NS + "text") if e.get("class") == "label"}
    f = b.land[0]
    assert f"{f}·{b.index[f]}" in labels


def test_position_svg_shows_owners_units_capitols_warehouses():
    s = play(GAME.new_game({"players": 3, "turn_limit": 5}, 4), [RandomBot(i) for i in range(3)])
    root = _root(GAME.draw(s, {}))
    shown = [e for e in root.iter() if e.get("display") != "none"]
    rings = [e for e in shown if e.tag == NS + "polygon" and e.get("class") == "owner"]
    assert sorted(int(e.get("id").removeprefix("owner-")) for e in rings) == [f for f, o in enumerate(s.owner) if o >= 0]
    assert all(e.get("data-seat") == str(s.owner[int(e.get("id")[6:])]) for e in rings)
    lines = [t.text for e in shown if e.get("class") == "unit" for t in e.iter(NS + "tspan")]
    assert sum(int(line.split()[0]) for line in lines) == sum(len(u) for u in s.units)
    assert len([e for e in shown if e.get("class") == "capitol"]) == sum(1 for c in s.capitol if c >= 0)
    assert len([e for e in shown if e.get("class") == "warehouse"]) == sum(s.warehouse)
