"""Generic map graph: load a map of land and sea areas from TOML and validate it.

The core knows no specific game.  A map is a set of areas, each either *land*
(with a terrain taken from a game-supplied list) or *sea* (optionally an
*inland* sea), an adjacency relation between areas and a polygon outline per
area for drawing.

File format (TOML)::

    [map]
    id = "hy-breasil"
    name = "Hy Breasil"
    width = 1000
    height = 800

    [[area]]
    id = "north-moor"
    name = "North Moor"
    kind = "land"            # land | sea
    terrain = "hills"        # land only, one of the game's terrains
    adjacent = ["west-sea", "elder-wood"]
    polygon = [[10.0, 20.0], [40.0, 22.5], [30.0, 60.0]]
    label = [27.0, 35.0]     # optional, default: polygon centroid

    [[area]]
    id = "mere-of-mist"
    name = "Mere of Mist"
    kind = "sea"
    inland = true            # optional, seas only, default false
    adjacent = [...]
    polygon = [...]

Every problem found while loading raises :class:`MapError`, whose message
names the file, the area (when there is one) and the problem.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from .files import DATA_LIMIT, FileError, cut, parse_toml, read_text
from .options import shown

__all__ = ["MapError", "Area", "MapGraph", "load_map", "parse_map"]

KINDS = ("land", "sea")

_MAP_KEYS = {"id": str, "name": str, "width": "number", "height": "number"}
_AREA_REQUIRED = ("id", "name", "kind", "adjacent", "polygon")
_AREA_OPTIONAL = ("terrain", "inland", "label")
_AREA_KEYS = frozenset(_AREA_REQUIRED + _AREA_OPTIONAL)


class MapError(FileError):
    """A map file or map data is malformed or inconsistent (a bad data file)."""


@dataclass(frozen=True, slots=True)
class Area:
    index: int  # position in MapGraph.areas (file order)
    id: str  # slug, unique
    name: str  # display name, unique
    kind: str  # "land" or "sea"
    terrain: str | None  # land: one of the allowed terrains; sea: None
    inland: bool  # seas only: True for an inland sea; always False for land
    neighbours: tuple[int, ...]  # indices of adjacent areas, ascending
    polygon: tuple[tuple[float, float], ...]  # outline for drawing, >= 3 points
    label: tuple[float, float]  # where to draw the name

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_land(self) -> bool:
        return self.kind == "land"


class MapGraph:
    """An immutable-by-convention graph of areas with precomputed lookups."""

    __slots__ = ("id", "name", "width", "height", "areas", "index", "land",
                 "seas", "is_sea", "nbr_mask", "source")

    def __init__(self, id: str, name: str, width: float, height: float,
                 areas: Iterable[Area], source: str = "<map>") -> None:
        self.id = id
        self.name = name
        self.width = float(width)
        self.height = float(height)
        self.source = source
        self.areas: tuple[Area, ...] = tuple(areas)
        for i, a in enumerate(self.areas):
            if a.index != i:
                raise MapError(f"{source}: area {a.id!r}: index {a.index} does not match position {i}")
        self.index: dict[str, int] = {a.id: a.index for a in self.areas}
        self.land: tuple[int, ...] = tuple(a.index for a in self.areas if a.kind == "land")
        self.seas: tuple[int, ...] = tuple(a.index for a in self.areas if a.kind == "sea")
        self.is_sea: tuple[bool, ...] = tuple(a.kind == "sea" for a in self.areas)
        masks = []
        for a in self.areas:
            m = 0
            for n in a.neighbours:
                m |= 1 << n
            masks.append(m)
        self.nbr_mask: tuple[int, ...] = tuple(masks)

    def area(self, key: str | int) -> Area:
        """Return an area by id (str) or index (int); KeyError if there is none."""
        if isinstance(key, str):
            try:
                return self.areas[self.index[key]]
            except KeyError:
                raise KeyError(f"map {self.id!r}: no area with id {key!r}") from None
        if isinstance(key, int) and not isinstance(key, bool):
            if 0 <= key < len(self.areas):
                return self.areas[key]
            raise KeyError(f"map {self.id!r}: no area with index {key} "
                           f"(valid: 0..{len(self.areas) - 1})")
        raise KeyError(f"map {self.id!r}: area key must be an id or an index, not {key!r}")

    def adjacent(self, a: int, b: int) -> bool:
        return bool((self.nbr_mask[a] >> b) & 1)

    def __len__(self) -> int:
        return len(self.areas)

    def __repr__(self) -> str:
        return (f"MapGraph({self.id!r}, {len(self.land)} land, {len(self.seas)} seas, "
                f"{self.width:g}x{self.height:g})")


# --------------------------------------------------------------------------- loading


def load_map(path: str | Path, terrains: Iterable[str]) -> MapGraph:
    """Read and validate a TOML map file.  ``terrains`` lists the allowed land terrains."""
    path = Path(path)
    text = read_text(path, limit=DATA_LIMIT, error=MapError)
    return parse_map(parse_toml(text, path.name, MapError), path.name, terrains)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _type_name(v: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string",
            list: "array", dict: "table"}.get(type(v), type(v).__name__)


def _point(v: Any) -> tuple[float, float] | None:
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_is_number(c) for c in v):
        return (float(v[0]), float(v[1]))
    return None


def _centroid(poly: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    a2 = cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        a2 += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a2) < 1e-12:  # degenerate outline: fall back to the vertex mean
        return (sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n)
    return (cx / (3.0 * a2), cy / (3.0 * a2))


def parse_map(data: dict, source: str, terrains: Iterable[str]) -> MapGraph:
    """Validate already-parsed TOML data and build a :class:`MapGraph`.

    ``source`` is the file name used in error messages.
    """
    allowed = tuple(terrains)
    allowed_set = set(allowed)

    def fail(problem: str, area: str | None = None) -> MapError:
        """The error: the file, the area and the problem, values in it cut short (a huge
        key or value is not echoed in full)."""
        where = f"area {shown(area)}: " if area is not None else ""
        return MapError(f"{source}: {where}{cut(problem)}", file=source)

    if not isinstance(data, dict):
        raise fail(f"top level must be a table, not {_type_name(data)}")
    unknown = sorted(set(data) - {"map", "area"})
    if unknown:
        raise fail(f"unknown top-level key(s): {', '.join(map(repr, unknown))} "
                   f"(expected [map] and [[area]])")

    # ---- [map]
    meta = data.get("map")
    if meta is None:
        raise fail("missing [map] table")
    if not isinstance(meta, dict):
        raise fail(f"[map] must be a table, not {_type_name(meta)}")
    unknown = sorted(set(meta) - set(_MAP_KEYS))
    if unknown:
        raise fail(f"[map]: unknown key(s): {', '.join(map(repr, unknown))}")
    for key, typ in _MAP_KEYS.items():
        if key not in meta:
            raise fail(f"[map]: missing key {key!r}")
        v = meta[key]
        if typ is str:
            if not isinstance(v, str) or not v.strip():
                raise fail(f"[map]: {key!r} must be a non-empty string, not {v!r}")
        elif not _is_number(v) or v <= 0:
            raise fail(f"[map]: {key!r} must be a positive number, not {v!r}")

    # ---- [[area]] entries, checked one by one
    raw_areas = data.get("area")
    if raw_areas is None:
        raise fail("no [[area]] entries")
    if not isinstance(raw_areas, list):
        raise fail(f"'area' must be an array of tables ([[area]]), not {_type_name(raw_areas)}")

    seen_ids: dict[str, int] = {}
    seen_names: dict[str, str] = {}
    parsed: list[dict[str, Any]] = []
    for pos, raw in enumerate(raw_areas):
        label = f"#{pos + 1}"
        if not isinstance(raw, dict):
            raise fail(f"area entry {label} must be a table, not {_type_name(raw)}")
        aid = raw.get("id")
        if not isinstance(aid, str) or not aid.strip():
            raise fail(f"area entry {label}: 'id' is missing or not a non-empty string ({aid!r})")
        unknown = sorted(set(raw) - _AREA_KEYS)
        if unknown:
            raise fail(f"unknown key(s): {', '.join(map(repr, unknown))}", aid)
        for key in _AREA_REQUIRED:
            if key not in raw:
                raise fail(f"missing key {key!r}", aid)
        if aid in seen_ids:
            raise fail(f"duplicate id (also area entry #{seen_ids[aid] + 1})", aid)
        seen_ids[aid] = pos

        name = raw["name"]
        if not isinstance(name, str) or not name.strip():
            raise fail(f"'name' must be a non-empty string, not {name!r}", aid)
        if name in seen_names:
            raise fail(f"duplicate name {name!r} (also area {seen_names[name]!r})", aid)
        seen_names[name] = aid

        kind = raw["kind"]
        if not isinstance(kind, str):
            raise fail(f"'kind' must be a string, not {_type_name(kind)}", aid)
        if kind not in KINDS:
            raise fail(f"unknown kind {kind!r} (expected 'land' or 'sea')", aid)

        terrain = raw.get("terrain")
        inland = raw.get("inland", False)
        if kind == "land":
            if "terrain" not in raw:
                raise fail(f"land area has no terrain (expected one of {', '.join(allowed)})", aid)
            if not isinstance(terrain, str):
                raise fail(f"'terrain' must be a string, not {_type_name(terrain)}", aid)
            if terrain not in allowed_set:
                raise fail(f"unknown terrain {terrain!r} (expected one of {', '.join(allowed)})", aid)
            if "inland" in raw:
                raise fail("'inland' is only allowed on sea areas", aid)
        else:
            if "terrain" in raw:
                raise fail(f"sea area must not have a terrain (got {terrain!r})", aid)
            if not isinstance(inland, bool):
                raise fail(f"'inland' must be a boolean, not {inland!r}", aid)
            terrain = None

        adj = raw["adjacent"]
        if not isinstance(adj, list) or not all(isinstance(n, str) for n in adj):
            raise fail(f"'adjacent' must be an array of area ids, not {adj!r}", aid)
        if len(set(adj)) != len(adj):
            dups = sorted({n for n in adj if adj.count(n) > 1})
            raise fail(f"neighbour(s) listed twice: {', '.join(map(repr, dups))}", aid)

        poly_raw = raw["polygon"]
        if not isinstance(poly_raw, list):
            raise fail(f"'polygon' must be an array of [x, y] points, not {_type_name(poly_raw)}", aid)
        poly = []
        for k, p in enumerate(poly_raw):
            pt = _point(p)
            if pt is None:
                raise fail(f"polygon point #{k + 1} must be [x, y] with two finite numbers, not {p!r}", aid)
            poly.append(pt)
        if len(poly) < 3:
            raise fail(f"polygon has {len(poly)} point(s), needs at least 3", aid)
        poly_t = tuple(poly)

        if "label" in raw:
            lab = _point(raw["label"])
            if lab is None:
                raise fail(f"'label' must be [x, y] with two finite numbers, not {raw['label']!r}", aid)
        else:
            lab = _centroid(poly_t)

        parsed.append(dict(id=aid, name=name, kind=kind, terrain=terrain,
                           inland=bool(inland) if kind == "sea" else False,
                           adjacent=adj, polygon=poly_t, label=lab))

    if not parsed:
        raise fail("no [[area]] entries")

    # ---- adjacency
    index = {p["id"]: i for i, p in enumerate(parsed)}
    neighbour_sets: list[set[int]] = []
    for p in parsed:
        s = set()
        for n in p["adjacent"]:
            if n == p["id"]:
                raise fail("area lists itself as adjacent", p["id"])
            if n not in index:
                raise fail(f"neighbour {n!r} is not an area", p["id"])
            s.add(index[n])
        neighbour_sets.append(s)
    for i, p in enumerate(parsed):
        for j in sorted(neighbour_sets[i]):
            if i not in neighbour_sets[j]:
                raise fail(f"lists {parsed[j]['id']!r} as adjacent, but {parsed[j]['id']!r} "
                           f"does not list {p['id']!r} (adjacency must be symmetric)", p["id"])

    land = [i for i, p in enumerate(parsed) if p["kind"] == "land"]
    if not land:
        raise fail("map has no land areas")
    reached = {land[0]}
    queue = deque([land[0]])
    while queue:
        i = queue.popleft()
        for j in neighbour_sets[i]:
            if j not in reached:
                reached.add(j)
                queue.append(j)
    for i in land:
        if i not in reached:
            raise fail(f"land area cannot be reached from {parsed[land[0]]['id']!r} "
                       f"(the map must be connected)", parsed[i]["id"])

    areas = [
        Area(index=i, id=p["id"], name=p["name"], kind=p["kind"], terrain=p["terrain"],
             inland=p["inland"], neighbours=tuple(sorted(neighbour_sets[i])),
             polygon=p["polygon"], label=p["label"])
        for i, p in enumerate(parsed)
    ]
    return MapGraph(meta["id"], meta["name"], meta["width"], meta["height"], areas, source=source)
