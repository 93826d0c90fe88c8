"""Tests for the generic SVG map renderer."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from importlib import resources

import pytest

from realms.core.mapgraph import load_map, parse_map
from realms.core.mapsvg import render_svg

NS = "{http://www.w3.org/2000/svg}"
TERRAINS = ("plains", "forest", "hills")
COLOURS = {"plains": "#d8e6a0", "forest": "#7fae6a", "hills": "#c9a878"}


def small_map():
    tri = [[0.0, 0.0], [50.0, 0.0], [25.0, 40.0]]
    return parse_map({
        "map": {"id": "s", "name": "S", "width": 200, "height": 100},
        "area": [
            {"id": "rock-n-roll", "name": "Rock & <Roll>", "kind": "land", "terrain": "hills",
             "adjacent": ["bay", "mere"], "polygon": tri},
            {"id": "bay", "name": "Bay \"of\" 'Quotes'", "kind": "sea",
             "adjacent": ["rock-n-roll"], "polygon": tri, "label": [10.0, 10.0]},
            {"id": "mere", "name": "Mere", "kind": "sea", "inland": True,
             "adjacent": ["rock-n-roll"], "polygon": tri},
        ],
    }, "s.toml", TERRAINS)


def texts_of(root) -> list[str]:
    """Every <text> element's content, tspan lines joined by spaces."""
    return [" ".join(s.strip() for s in t.itertext() if s.strip()) for t in root.iter(f"{NS}text")]


def areas_by_id(root):
    return {el.get("id"): el for el in root.iter() if (el.get("id") or "").startswith("area-")}


def test_structure_and_escaping():
    g = small_map()
    svg = render_svg(g, terrain_colours=COLOURS, title="A & B <test>",
                     legend={"Hills & dales": "#c9a878", "Sea": "#9cc3e6"})
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 200 100"
    els = areas_by_id(root)
    assert set(els) == {"area-rock-n-roll", "area-bay", "area-mere"}
    assert els["area-rock-n-roll"].get("class") == "land"
    assert els["area-bay"].get("class") == "sea" and els["area-mere"].get("class") == "sea"
    assert els["area-rock-n-roll"].get("fill") == COLOURS["hills"]
    assert els["area-bay"].get("fill") == "#9cc3e6"
    assert els["area-mere"].get("fill") == "#7fb2dd"
    # tooltips
    titles = {k: el.find(f"{NS}title").text for k, el in els.items()}
    assert titles["area-rock-n-roll"].startswith("Rock & <Roll>")
    texts = texts_of(root)
    assert "Rock & <Roll>" in texts  # escaped in the source, intact after parsing
    assert "Bay \"of\" 'Quotes'" in texts
    assert "A & B <test>" in texts and "Hills & dales" in texts
    assert "Rock &amp; &lt;Roll&gt;" in svg and "<Roll>" not in svg.replace("&lt;Roll&gt;", "")


def test_fills_and_labels():
    g = small_map()
    svg = render_svg(g, terrain_colours=COLOURS, fills={0: "#ff0000", 2: "#00ff00"},
                     labels={0: "3", 1: "7 & more"}, sea_colour="#0000ff")
    root = ET.fromstring(svg)
    els = areas_by_id(root)
    assert els["area-rock-n-roll"].get("fill") == "#ff0000"
    assert els["area-mere"].get("fill") == "#00ff00"
    assert els["area-bay"].get("fill") == "#0000ff"
    texts = texts_of(root)
    assert "3" in texts and "7 & more" in texts
    # a label is drawn below its area's name
    by_text = dict(zip(texts, root.iter(f"{NS}text")))
    assert float(by_text["3"].get("y")) > float(by_text["Rock & <Roll>"].get("y"))


def test_unknown_terrain_colour_falls_back():
    g = small_map()
    root = ET.fromstring(render_svg(g, terrain_colours={}))
    assert areas_by_id(root)["area-rock-n-roll"].get("fill")


@pytest.fixture(scope="module")
def hb():
    ref = resources.files("realms.games.hy_breasil") / "data" / "maps" / "hy-breasil.toml"
    with resources.as_file(ref) as p:
        return load_map(p, TERRAINS)


def test_bundled_map_renders(hb):
    svg = render_svg(hb, terrain_colours=COLOURS, title="Hy Breasil",
                     labels={i: str(i % 5 + 1) for i in hb.land},
                     legend={"Plains": COLOURS["plains"], "Forest": COLOURS["forest"]})
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.get("viewBox") == "0 0 1000 800"
    els = areas_by_id(root)
    assert len(els) == len(hb.areas)
    for a in hb.areas:
        el = els[f"area-{a.id}"]
        assert el.get("class") == a.kind
        if a.kind == "land":
            assert el.get("fill") == COLOURS[a.terrain]
    texts = texts_of(root)
    assert all(a.name in texts for a in hb.areas)
