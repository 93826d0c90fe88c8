"""Tests for the generic map loader/validator and the bundled Hy Breasil map."""

from __future__ import annotations

import copy
from importlib import resources

import pytest

from realms.core.mapgraph import Area, MapError, MapGraph, load_map, parse_map

TERRAINS = ("plains", "forest", "hills")
SRC = "tiny.toml"


def bundled_path():
    return resources.files("realms.games.hy_breasil") / "data" / "maps" / "hy-breasil.toml"


@pytest.fixture(scope="module")
def hb() -> MapGraph:
    with resources.as_file(bundled_path()) as p:
        return load_map(p, TERRAINS)


def tiny() -> dict:
    """Three land areas around a sea, plus an inland lake between a and b."""
    sq = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    return {
        "map": {"id": "tiny", "name": "Tiny", "width": 100, "height": 80},
        "area": [
            {"id": "a", "name": "Alpha", "kind": "land", "terrain": "plains",
             "adjacent": ["b", "sea", "lake"], "polygon": sq, "label": [5.0, 5.0]},
            {"id": "b", "name": "Beta", "kind": "land", "terrain": "hills",
             "adjacent": ["a", "c", "lake"], "polygon": sq},
            {"id": "c", "name": "Gamma", "kind": "land", "terrain": "forest",
             "adjacent": ["b", "sea"], "polygon": sq},
            {"id": "sea", "name": "Open Sea", "kind": "sea",
             "adjacent": ["a", "c"], "polygon": sq},
            {"id": "lake", "name": "Still Lake", "kind": "sea", "inland": True,
             "adjacent": ["a", "b"], "polygon": sq},
        ],
    }


def area(d: dict, aid: str) -> dict:
    return next(a for a in d["area"] if a["id"] == aid)


# ------------------------------------------------------------------ the small map


def test_tiny_parses():
    g = parse_map(tiny(), SRC, TERRAINS)
    assert [a.id for a in g.areas] == ["a", "b", "c", "sea", "lake"]
    assert g.index == {"a": 0, "b": 1, "c": 2, "sea": 3, "lake": 4}
    assert g.land == (0, 1, 2) and g.seas == (3, 4)
    assert g.is_sea == (False, False, False, True, True)
    a = g.area("a")
    assert isinstance(a, Area) and a.index == 0 and a.terrain == "plains" and not a.inland
    assert a.neighbours == (1, 3, 4)
    assert a.label == (5.0, 5.0)
    assert g.area("b").label == pytest.approx((5.0, 5.0))  # centroid default
    assert g.area(4).inland and g.area(4).terrain is None and g.area("sea").inland is False
    assert g.adjacent(0, 1) and g.adjacent(1, 0) and not g.adjacent(0, 2)
    assert (g.id, g.name, g.width, g.height) == ("tiny", "Tiny", 100.0, 80.0)


def test_area_lookup_errors():
    g = parse_map(tiny(), SRC, TERRAINS)
    with pytest.raises(KeyError, match="nope"):
        g.area("nope")
    with pytest.raises(KeyError, match="99"):
        g.area(99)
    with pytest.raises(KeyError):
        g.area(-1)


def _set(aid, key, value):
    def f(d):
        area(d, aid)[key] = value
    return f


def _del(aid, key):
    def f(d):
        del area(d, aid)[key]
    return f


def _dup_id(d):
    area(d, "c")["id"] = "b"


def _no_land(d):
    d["area"] = [a for a in d["area"] if a["kind"] == "sea"]
    for a in d["area"]:
        a["adjacent"] = []


def _disconnect(d):
    # c loses both links: unreachable from a
    area(d, "c")["adjacent"] = []
    area(d, "b")["adjacent"] = ["a", "lake"]
    area(d, "sea")["adjacent"] = ["a"]


CASES = [
    # (mutation, area named in the message or None, problem words)
    (_set("a", "colour", "red"), "a", "unknown key"),
    (_del("b", "name"), "b", "missing key 'name'"),
    (_del("b", "polygon"), "b", "missing key 'polygon'"),
    (_set("b", "name", 42), "b", "'name' must be"),
    (_set("b", "adjacent", "a"), "b", "'adjacent' must be"),
    (_set("b", "polygon", [[0, 0], [1, "x"], [2, 2]]), "b", "polygon point #2"),
    (_set("b", "label", [1.0]), "b", "'label' must be"),
    (_set("lake", "inland", "yes"), "lake", "'inland' must be a boolean"),
    (_dup_id, "b", "duplicate id"),
    (_set("c", "name", "Alpha"), "c", "duplicate name 'Alpha'"),
    (_set("c", "kind", "swamp"), "c", "unknown kind 'swamp'"),
    (_set("c", "terrain", "desert"), "c", "unknown terrain 'desert'"),
    (_del("c", "terrain"), "c", "no terrain"),
    (_set("sea", "terrain", "plains"), "sea", "must not have a terrain"),
    (_set("a", "inland", False), "a", "'inland' is only allowed on sea"),
    (_set("c", "adjacent", ["b", "sea", "x"]), "c", "neighbour 'x' is not an area"),
    (_set("c", "adjacent", ["b", "sea", "c"]), "c", "itself"),
    (_set("c", "adjacent", ["b", "sea", "b"]), "c", "listed twice"),
    (_set("c", "adjacent", ["b", "sea", "a"]), "c", "symmetric"),
    (_set("a", "polygon", [[0, 0], [1, 1]]), "a", "at least 3"),
    (_disconnect, "c", "cannot be reached"),
    (_no_land, None, "no land"),
]


@pytest.mark.parametrize("mutate,aid,problem", CASES, ids=[c[2] for c in CASES])
def test_validation_errors(mutate, aid, problem):
    d = copy.deepcopy(tiny())
    mutate(d)
    with pytest.raises(MapError) as ei:
        parse_map(d, SRC, TERRAINS)
    msg = str(ei.value)
    assert msg.startswith(f"{SRC}: "), msg
    if aid is not None:
        assert f"area '{aid}'" in msg, msg
    assert problem in msg, msg
    assert isinstance(ei.value, ValueError)


@pytest.mark.parametrize("mutate,problem", [
    (lambda d: d["map"].pop("width"), "missing key 'width'"),
    (lambda d: d["map"].update(width=-5), "'width' must be a positive number"),
    (lambda d: d["map"].update(name=3), "'name' must be a non-empty string"),
    (lambda d: d["map"].update(scale=2), "unknown key"),
    (lambda d: d.pop("map"), "missing [map]"),
    (lambda d: d.update(extra=1), "unknown top-level key"),
    (lambda d: d.update(area={}), "array of tables"),
    (lambda d: d["area"][2].pop("id"), "area entry #3"),
])
def test_map_level_errors(mutate, problem):
    d = copy.deepcopy(tiny())
    mutate(d)
    with pytest.raises(MapError) as ei:
        parse_map(d, SRC, TERRAINS)
    assert str(ei.value).startswith(f"{SRC}: ")
    assert problem in str(ei.value)
    assert ei.value.file == SRC


TINY_TOML = """
[map]
id = "t"
name = "T"
width = 10
height = 10

[[area]]
id = "x"
name = "X & <Y>"
kind = "land"
terrain = "plains"
adjacent = ["s"]
polygon = [[0, 0], [5, 0], [5, 5]]

[[area]]
id = "s"
name = "S"
kind = "sea"
inland = true
adjacent = ["x"]
polygon = [[5, 0], [10, 0], [5, 5]]
"""


def test_load_map_from_toml(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text(TINY_TOML, encoding="utf-8")
    g = load_map(p, TERRAINS)
    assert g.area("x").name == "X & <Y>" and g.area("s").inland
    assert g.area("x").neighbours == (1,) and g.nbr_mask == (0b10, 0b01)


def test_toml_syntax_error_names_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("[map\nid = 1\n", encoding="utf-8")
    with pytest.raises(MapError, match=r"^broken\.toml: .*TOML"):
        load_map(p, TERRAINS)


def test_error_from_file_names_file_and_area(tmp_path):
    p = tmp_path / "bad-map.toml"
    p.write_text(TINY_TOML.replace('adjacent = ["s"]', 'adjacent = ["s", "nowhere"]'), encoding="utf-8")
    with pytest.raises(MapError, match=r"^bad-map\.toml: area 'x': neighbour 'nowhere' is not an area"):
        load_map(p, TERRAINS)


# ------------------------------------------------------------------ the bundled map


def test_bundled_map_counts(hb):
    assert hb.id == "hy-breasil" and hb.name == "Hy Breasil"
    assert (hb.width, hb.height) == (1000.0, 800.0)
    assert 40 <= len(hb.land) <= 60
    assert 6 <= len(hb.seas) <= 10
    inland = [i for i in hb.seas if hb.areas[i].inland]
    assert len(inland) >= 1
    assert {hb.areas[i].terrain for i in hb.land} == set(TERRAINS)
    interior = [i for i in hb.land if not any(hb.is_sea[n] for n in hb.areas[i].neighbours)]
    assert len(interior) >= 1
    assert len({a.name for a in hb.areas}) == len(hb.areas)


def test_bundled_map_adjacency_consistent(hb):
    for a in hb.areas:
        assert list(a.neighbours) == sorted(set(a.neighbours))
        mask = 0
        for n in a.neighbours:
            mask |= 1 << n
            assert a.index in hb.areas[n].neighbours
            assert hb.adjacent(a.index, n) and hb.adjacent(n, a.index)
        assert hb.nbr_mask[a.index] == mask
        assert not hb.adjacent(a.index, a.index)


def test_bundled_map_geography(hb):
    outer = [i for i in hb.seas if not hb.areas[i].inland]
    lakes = [i for i in hb.seas if hb.areas[i].inland]
    for s in outer:  # each outer sea borders several coasts and its neighbouring seas
        nb = hb.areas[s].neighbours
        assert sum(not hb.is_sea[n] for n in nb) >= 3
        assert sum(hb.is_sea[n] for n in nb) >= 2
    for lk in lakes:  # lakes lie inside the island
        assert all(not hb.is_sea[n] for n in hb.areas[lk].neighbours)
        assert len(hb.areas[lk].neighbours) >= 4
    # adjacency matches the drawing: two areas are adjacent iff they share an outline edge
    edges: dict[frozenset, set[int]] = {}
    for a in hb.areas:
        P = a.polygon
        for k in range(len(P)):
            edges.setdefault(frozenset((P[k], P[k - 1])), set()).add(a.index)
    shared = {frozenset(o) for o in edges.values() if len(o) == 2}
    assert all(len(o) <= 2 for o in edges.values())
    declared = {frozenset((a.index, n)) for a in hb.areas for n in a.neighbours}
    assert shared == declared


def _inside(pt, poly) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_bundled_map_labels_inside(hb):
    for a in hb.areas:
        assert _inside(a.label, list(a.polygon)), a.id
        assert all(0 <= x <= hb.width and 0 <= y <= hb.height for x, y in a.polygon)


def test_bundled_map_ids_are_ascii_slugs(hb):
    import re

    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", a.id) for a in hb.areas)
