"""A board's position (``Game.board``, ``core.position``): what it sets on the drawing's
slots, and every game's contract — its drawing of a state is its position applied, the
position is the same from every seat's view (the board shows nothing private), and each
area it names has its element in the drawing."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from realms.core.game import games
from randomplay import played
from realms.core.position import SVG_NS, apply, line_offsets

Q = "{%s}" % SVG_NS

SLOTTED = f"""<svg xmlns="{SVG_NS}" data-frame="1">
<polygon id="area-a" fill="#eeeeee" data-seat="1"><title>A</title></polygon>
<polygon data-part-of="a" fill="#eeeeee"/>
<circle id="owner-a" fill="#000000" display="none"/>
<polygon id="owner-b" fill="none" stroke="#000000"/>
<text id="units-a" x="5" y="9">old</text>
<rect data-mark="city" data-area="a" display="none"/>
<rect data-mark="camp" data-area="a"/>
<text id="turn">Turn 1</text>
<g id="panel"><text>old panel</text></g>
</svg>"""


def _ids(svg: str) -> dict:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return {e.get("id") or f"{e.get('data-part-of') or ''}{e.get('data-mark') or ''}": e for e in root.iter()}


def test_a_position_sets_each_slot_it_names_and_leaves_the_rest():
    out = _ids(apply(SLOTTED, {
        "areas": {"a": {"fill": "#ff0000", "seat": None, "owner": {"seat": 2, "colour": "#00ff00"},
                        "units": ["3 I", "1 C"], "ink": "#111111", "marks": ["city"]},
                  "b": {"owner": {"seat": 0, "colour": "#0000ff"}}},
        "texts": {"turn": "Turn 2"},
        "layers": {"panel": '<rect data-seat="1" fill="#123456"/>'}}))
    area, part = out["area-a"], out["a"]
    assert area.get("fill") == part.get("fill") == "#ff0000" and "data-seat" not in area.attrib
    assert area.find(Q + "title").text == "A"
    owner = out["owner-a"]
    assert "display" not in owner.attrib and owner.get("data-seat") == "2" and owner.get("fill") == "#00ff00"
    assert out["owner-b"].get("stroke") == "#0000ff" and out["owner-b"].get("fill") == "none"  # an outline
    units = out["units-a"]
    assert [(t.text, t.get("dy"), t.get("x")) for t in units] == [("3 I", "-0.5em", "5"), ("1 C", "1em", "5")]
    assert not (units.text or "").strip() and units.get("fill") == "#111111"
    assert "display" not in out["city"].attrib and out["camp"].get("display") == "none"
    assert out["turn"].text == "Turn 2"
    assert [(e.tag, e.get("fill")) for e in out["panel"]] == [(Q + "rect", "#123456")]


def test_an_area_left_out_stays_as_drawn_and_a_hidden_owner_loses_its_seat():
    out = _ids(apply(SLOTTED, {"areas": {"b": {"owner": None}}}))
    assert out["area-a"].get("fill") == "#eeeeee" and out["area-a"].get("data-seat") == "1"
    assert out["units-a"].text == "old"
    assert out["owner-b"].get("display") == "none" and "data-seat" not in out["owner-b"].attrib


def test_unit_lines_are_centred_in_halves_of_an_em():
    assert [line_offsets(n) for n in (0, 1, 2, 3)] == [[], ["0em"], ["-0.5em", "1em"], ["-1em", "1em", "1em"]]


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_s_position_is_its_drawing_and_the_same_from_every_seat(game_id):
    for steps in (0, 40, 120):
        game, state, options = played(game_id, steps, seed=3)
        assert game.board is not None, f"{game_id} has no board position"
        spectator = game.board(state.view(None))
        json.dumps(spectator)
        for seat in range(3):
            assert game.board(state.view(seat)) == spectator, (game_id, steps, seat)
        drawn = game.draw(state, options)
        root = ET.fromstring(drawn.split("?>", 1)[1])
        ids = {e.get("id") for e in root.iter()}
        for area in spectator["areas"]:
            assert f"area-{area}" in ids or f"town-{area}" in ids, (game_id, area)
        for i in [*spectator.get("texts", {}), *spectator.get("layers", {})]:
            assert i in ids, (game_id, i)
        # the drawing of the state is the position applied: applied again, nothing changes
        assert apply(drawn, spectator) == apply(apply(drawn, spectator), spectator) == drawn


def test_a_shade_marks_which_of_its_seats_pieces_an_area_is_and_none_takes_it_off():
    out = _ids(apply(SLOTTED, {"areas": {"a": {"seat": 1, "shade": 2}}}))
    assert out["area-a"].get("data-shade") == out["a"].get("data-shade") == "2"
    out = _ids(apply(apply(SLOTTED, {"areas": {"a": {"shade": 2}}}), {"areas": {"a": {"seat": None, "shade": None}}}))
    assert "data-shade" not in out["area-a"].attrib and "data-seat" not in out["area-a"].attrib
