"""Pictures of Hy Breasil: the map by terrain, or a position with nations and units.

Terrain is pale and textured (plains plain, forest dotted with trees, hills with ridges),
so that owned land, in strong colours, never looks like empty land.  Each player has a
hue and each of its nations a shade of that hue, so one player's nations read as one
family.  Units at sea (invaders waiting, or a nation moving off the sea) are drawn as
badges in their nation's colour; the battle being fought is outlined; a band under the
map holds the legend, so it covers nothing.
"""

from __future__ import annotations

import colorsys
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from functools import lru_cache

from realms.core.mapsvg import render_svg
from realms.core.position import apply

from .board import DEFAULT_MAP, Board, load_board
from .state import HBState

#: pale terrain fills; the texture patterns are drawn over them
TERRAIN_BASE = {"plains": "#f3eed8", "forest": "#dde8d2", "hills": "#ece0cc"}
TERRAIN_COLOURS = {t: f"url(#terrain-{t})" for t in TERRAIN_BASE}
SEA, INLAND = "#9cc3e6", "#7fb2dd"
#: one hue per seat (degrees), none of them a terrain's green or brown
PLAYER_HUES = (0, 228, 282, 176, 28, 325)
#: lightness of a player's first, second, third… nation, alternating dark and light
SHADES = (0.42, 0.62, 0.30, 0.52, 0.70)

_DEFS = (
    "<defs>"
    '<pattern id="terrain-plains" width="14" height="14" patternUnits="userSpaceOnUse">'
    f'<rect width="14" height="14" fill="{TERRAIN_BASE["plains"]}"/>'
    '<circle cx="3" cy="3" r="0.8" fill="#c9bb85"/></pattern>'
    '<pattern id="terrain-forest" width="12" height="12" patternUnits="userSpaceOnUse">'
    f'<rect width="12" height="12" fill="{TERRAIN_BASE["forest"]}"/>'
    '<path d="M3 8 L5 3 L7 8 Z M9 12 L10.5 8.5 L12 12 Z" fill="#8fb27a"/></pattern>'
    '<pattern id="terrain-hills" width="16" height="12" patternUnits="userSpaceOnUse">'
    f'<rect width="16" height="12" fill="{TERRAIN_BASE["hills"]}"/>'
    '<path d="M1 9 Q5 3 9 9" fill="none" stroke="#b39470" stroke-width="1.1"/></pattern>'
    # the same textures in white, over a nation's colour
    '<pattern id="over-forest" width="12" height="12" patternUnits="userSpaceOnUse">'
    '<path d="M3 8 L5 3 L7 8 Z M9 12 L10.5 8.5 L12 12 Z" fill="#ffffff" fill-opacity="0.28"/></pattern>'
    '<pattern id="over-hills" width="16" height="12" patternUnits="userSpaceOnUse">'
    '<path d="M1 9 Q5 3 9 9" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="1.1"/>'
    "</pattern>"
    "</defs>"
    "<style>.sea-units,.texture,#battle-mark{pointer-events:none}"
    "#labels text{paint-order:stroke;stroke:#ffffff;stroke-width:2.6px;stroke-opacity:.75}</style>"
)


@lru_cache(maxsize=1024)
def _hex(h: float, light: float, sat: float = 0.8) -> str:
    """The colour of hue ``h`` (degrees), ``light`` and ``sat`` as ``#rrggbb``: a few dozen
    distinct ones in a game, asked for each nation of every position drawn, so kept."""
    r, g, b = colorsys.hls_to_rgb(h / 360.0, light, sat)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def palette() -> tuple[str, ...]:
    """The seats' colours (``Game.palette``): each player's hue in the shade of its first
    nation, as the map draws it; the history page and the report's charts use them too."""
    return tuple(_hex(h, SHADES[0]) for h in PLAYER_HUES)


def nation_colours(state: HBState) -> dict[int, str]:
    """Each living nation's colour: its owner's hue, in the shade of its rank among that
    owner's nations (oldest first)."""
    return _colours((nid, n.owner) for nid, n in state.nations.items())


def _colours(nations) -> dict[int, str]:
    """:func:`nation_colours` of ``(nation id, owner)`` pairs."""
    pairs = sorted(nations)
    ranks = _ranks(pairs)
    return {nid: _hex(PLAYER_HUES[owner % len(PLAYER_HUES)] + 8 * (ranks[nid] // len(SHADES)),
                      SHADES[ranks[nid] % len(SHADES)]) for nid, owner in pairs}


def _ranks(nations) -> dict[int, int]:
    """Each nation's rank among its owner's (oldest first), of ``(nation id, owner)``
    pairs: its shade of the owner's colour here, and its ``data-shade`` for a palette the
    page picks (web/palette.js shades the seat's colour likewise)."""
    ranks: dict[int, int] = {}
    count: dict[int, int] = {}
    for nid, owner in sorted(nations):
        ranks[nid] = count.get(owner, 0)
        count[owner] = ranks[nid] + 1
    return ranks


def _ink(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def draw(state: HBState | None = None, map_name: str = DEFAULT_MAP) -> str:
    """SVG of the map (terrain), or of ``state``: its :func:`position` drawn on the map."""
    if state is None:
        graph = load_board(map_name).graph
        svg = render_svg(graph, terrain_colours=TERRAIN_COLOURS, sea_colour=SEA, inland_colour=INLAND,
                         title=graph.name)
        return _finish(svg, graph, [], _legend([_terrain_row()], graph.width, graph.height))
    position = board(state.view(None), state.board)
    return apply(_slotted(map_name, float(position["frame"])), position)


def board(view: dict, b: Board | None = None) -> dict:
    """The position of ``view`` (``Game.board``, ``core.position``): each land area in its
    nation's colour with its units, the textures and cities; the units at sea, the
    battle, the title and the legend as layers.  ``frame``: the legend band's height."""
    b = b or load_board(view["options"]["map"])
    graph = b.graph
    nations = {n["id"]: n for n in view["nations"]}
    colours = _colours((nid, n["owner"]) for nid, n in nations.items())
    ranks = _ranks((nid, n["owner"]) for nid, n in nations.items())
    cities = set(view["cities"])
    areas: dict[str, dict[str, Any]] = {}
    for a in b.land:
        area = graph.areas[a]
        held = view["areas"].get(area.id)
        marks = ["city"] if area.id in cities else []
        if held is None:
            areas[area.id] = {"fill": TERRAIN_COLOURS.get(area.terrain or "", "#cccccc"), "seat": None,
                              "shade": None, "units": [], "marks": marks}
            continue
        n = nations[held["nation"]]
        count = str(held["units"])
        areas[area.id] = {"fill": colours[n["id"]], "seat": n["owner"], "shade": ranks[n["id"]], "units": [count],
                          "marks": marks + ["owned"]}
    names = [p["name"] for p in view["players"]]
    rows = tuple((name, tuple(swatches), p) for name, swatches, p in _nation_rows(view, names, colours, ranks))
    lines, band = _legend_of(rows, graph.width, graph.height)
    return {"frame": _n(band), "areas": areas,
            "texts": {"map-title": f"{graph.name} — turn {view['turn']}"},
            "layers": {"sea-units": _sea_units(view, b, names, colours, ranks),
                       "battle": _battle(view, b, names, colours, ranks),
                       "legend-rows": lines}}


@lru_cache(maxsize=256)
def _legend_of(rows: tuple, w: float, h: float) -> tuple[str, float]:
    """The legend of the players' ``rows`` under the terrain's, as one SVG fragment, and its
    band's height: the same for many states in a row (a nation comes or goes now and then)."""
    lines, band = _legend([_terrain_row(), *rows], w, h)
    return "".join(lines), band


@lru_cache(maxsize=8)
def _slotted(map_name: str, band: float) -> str:
    """The map of ``map_name`` with a slot for everything a position changes
    (``core.position``), its legend band ``band`` high."""
    b = load_board(map_name)
    graph = b.graph
    svg = render_svg(graph, terrain_colours=TERRAIN_COLOURS, sea_colour=SEA, inland_colour=INLAND,
                     title=graph.name, slots=True)
    return _finish(svg, graph, [_textures(b), _cities(b), '<g id="sea-units"/>', '<g id="battle"/>'],
                   ([], band))


@lru_cache(maxsize=4096)
def _points(polygon: tuple[tuple[float, float], ...]) -> str:
    """An area's outline as an SVG ``points`` attribute: the battle's area is outlined in
    every position drawn while it is fought over, so each outline is written once."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in polygon)


def _textures(b: Board) -> str:
    """The terrain's texture in white over forest and hills, shown where owned."""
    out = ['<g class="texture">']
    for a in b.land:
        area = b.graph.areas[a]
        if area.terrain in ("forest", "hills"):
            out.append(f'<polygon points="{_points(area.polygon)}" fill="url(#over-{area.terrain})" stroke="none" '
                       f'data-mark="owned" data-area={quoteattr(area.id)} display="none"/>')
    out.append("</g>")
    return "".join(out)


def _cities(b: Board) -> str:
    """A small tower where a city stands (§9.3), shown where one does."""
    out = ['<g id="cities" class="sea-units">']
    for a in b.land:
        area = b.graph.areas[a]
        x, y = area.label
        out.append(f'<rect x="{x + 14:.1f}" y="{y - 16:.1f}" width="8" height="8" fill="#ffffff" '
                   f'stroke="#111111" stroke-width="1.2" data-mark="city" data-area={quoteattr(area.id)} '
                   f'display="none"><title>city</title></rect>')
    out.append("</g>")
    return "".join(out)


def _sea_units(view: dict, b: Board, names: list[str], colours: dict[int, str], ranks: dict[int, int]) -> str:
    """Each nation's units at sea as a badge under the sea's name: its count, in its colour."""
    graph = b.graph
    at_sea: dict[int, list[tuple[dict, int]]] = {}
    for n in sorted(view["nations"], key=lambda n: n["id"]):
        for aid, count in sorted(n["units"].items(), key=lambda kv: b.index[kv[0]]):
            a = b.index[aid]
            if count and b.is_sea[a]:
                at_sea.setdefault(a, []).append((n, count))
    out = []
    for a, entries in sorted(at_sea.items()):
        x0, y0 = graph.areas[a].label
        width = 34
        left = min(max(x0 - width * len(entries) / 2, 4.0), graph.width - width * len(entries) - 4)
        for k, (n, count) in enumerate(entries):
            colour = colours[n["id"]]
            x = left + k * width + 2
            tip = f"{n['name']} ({names[n['owner']]}): {count} units at sea in {graph.areas[a].name}"
            out.append(
                f'<g class="sea-units" id="sea-units-{graph.areas[a].id}-{n["id"]}"><title>{escape(tip)}</title>'
                f'<rect x="{x:.1f}" y="{y0 + 6:.1f}" width="{width - 4}" height="18" rx="9" fill="{colour}" '
                f'data-seat="{n["owner"]}" data-shade="{ranks[n["id"]]}" stroke="#111111" stroke-width="1"/>'
                f'<text x="{x + (width - 4) / 2:.1f}" y="{y0 + 19:.1f}" font-size="12" font-weight="bold" '
                f'text-anchor="middle" fill="{_ink(colour)}">{count}</text></g>')
    return "".join(out)


def _battle(view: dict, b: Board, names: list[str], colours: dict[int, str], ranks: dict[int, int]) -> str:
    """The area being fought over, outlined (also through retreats and hit allocation), and
    the attackers in it (kept apart from the nation's units until the battle ends) as a
    badge in their colour beside the defenders' count."""
    battle = view["battle"]
    if battle is None:
        return ""
    area = b.graph.areas[b.index[battle["area"]]]
    att = next((n for n in view["nations"] if n["id"] == battle["attacker"]), None)
    points = _points(area.polygon)
    out = (f'<polygon id="battle-mark" data-area={quoteattr(area.id)} points="{points}" fill="none" '
           f'stroke="#ffd400" stroke-width="6" stroke-dasharray="10 5"><title>battle</title></polygon>'
           f'<polygon points="{points}" fill="none" stroke="#111111" stroke-width="1.5" class="texture"/>')
    units = battle["attacker_units"]
    count, wounded = units["unhurt"] + units["wounded"], units["wounded"]
    if att is not None and count:
        x, y = area.label
        colour = colours[att["id"]]
        tip = (f"{att['name']} ({names[att['owner']]}) attacking with {count}"
               + (f" ({wounded} wounded)" if wounded else ""))
        out += (f'<g class="sea-units" id="attackers"><title>{escape(tip)}</title>'
                f'<rect x="{x + 12:.1f}" y="{y + 2:.1f}" width="30" height="18" rx="3" fill="{colour}" '
                f'data-seat="{att["owner"]}" data-shade="{ranks[att["id"]]}" stroke="#111111" stroke-width="1"/>'
                f'<text x="{x + 27:.1f}" y="{y + 15:.1f}" font-size="12" font-weight="bold" '
                f'text-anchor="middle" fill="{_ink(colour)}">{count}</text></g>')
    return out


Row = list[tuple]  # (caption, fill) swatches, or (caption, fill, shade) of a seat's piece


def _terrain_row() -> tuple[str, Row]:
    return ("Terrain", [("Plains", TERRAIN_COLOURS["plains"]), ("Forest", TERRAIN_COLOURS["forest"]),
                        ("Hills", TERRAIN_COLOURS["hills"]), ("Sea", SEA), ("Inland sea", INLAND)])


def _nation_rows(view: dict, names: list[str], colours: dict[int, str],
                 ranks: dict[int, int]) -> list[tuple[str, Row, int]]:
    """A row per player: its nations' swatches with their shades, and its seat
    (``data-seat`` and ``data-shade``, for the page's palette)."""
    rows = []
    for p, name in enumerate(names):
        mine: Row = [(n["name"], colours[n["id"]], ranks[n["id"]]) for n in sorted(view["nations"], key=lambda n: n["id"])
                if n["owner"] == p]
        rows.append((name, mine or [("no nation", "none")], p))
    return rows


def _legend(rows: list[tuple], w: float, h: float) -> tuple[list[str], float]:
    """The legend's rows of swatches, laid out under a map ``w`` by ``h``, and the height of
    the band that holds them."""
    row_h, pad, char = 22.0, 10.0, 6.6
    out: list[str] = []
    y = h + pad
    for heading, swatches, *owner in rows:
        seat = f' data-seat="{owner[0]}"' if owner else ""
        x = pad
        out.append(f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="13" font-weight="bold" '
                   f'class="legend-text">{escape(heading)}</text>')
        x += max(90.0, len(heading) * 7.5 + 12)
        for caption, fill, *shade in swatches:
            need = 22 + len(caption) * char + 14
            if x + need > w - pad:
                y += row_h
                x = pad + 90
            if fill != "none":
                shaded = f' data-shade="{shade[0]}"' if seat and shade else ""
                out.append(f'<rect x="{x:.1f}" y="{y + 2:.1f}" width="16" height="16" fill={quoteattr(fill)}{seat}{shaded} '
                           f'stroke="#333333" stroke-width="0.7"/>')
                x += 22
            out.append(f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="12" class="legend-text">'
                       f"{escape(caption)}</text>")
            x += len(caption) * char + 14
        y += row_h
    return out, y + pad - h


def _finish(svg: str, graph, overlay: list[str], legend: tuple[list[str], float]) -> str:
    """Add the texture patterns, the overlays (under the names) and a legend band under the map."""
    w, h = graph.width, graph.height
    lines, band = legend
    total = h + band
    svg = svg.replace(f'height="{_n(h)}" viewBox="0 0 {_n(w)} {_n(h)}"',
                      f'height="{_n(total)}" viewBox="0 0 {_n(w)} {_n(total)}" data-frame="{_n(band)}"', 1)
    svg = svg.replace("<style>", _DEFS + "<style>", 1)
    svg = svg.replace('<g id="labels">', "".join(overlay) + '<g id="labels">', 1)
    band_rect = [f'<g id="legend"><rect x="0" y="{_n(h)}" width="{_n(w)}" height="{_n(band)}" fill="#f7f4ec" '
                 f'stroke="#999999" stroke-width="0.8"/><g id="legend-rows">'] + lines + ["</g></g>"]
    return svg.replace("</svg>", "".join(band_rect) + "</svg>", 1)


def _n(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s
