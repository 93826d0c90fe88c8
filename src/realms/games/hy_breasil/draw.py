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
from xml.sax.saxutils import escape, quoteattr

from realms.core.mapsvg import render_svg

from .board import DEFAULT_MAP, load_board
from .state import EMPTY, HBState

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


def _hex(h: float, light: float, sat: float = 0.8) -> str:
    r, g, b = colorsys.hls_to_rgb(h / 360.0, light, sat)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def palette() -> tuple[str, ...]:
    """The seats' colours (``Game.palette``): each player's hue in the shade of its first
    nation, as the map draws it; the history page and the report's charts use them too."""
    return tuple(_hex(h, SHADES[0]) for h in PLAYER_HUES)


def nation_colours(state: HBState) -> dict[int, str]:
    """Each living nation's colour: its owner's hue, in the shade of its rank among that
    owner's nations (oldest first)."""
    colours: dict[int, str] = {}
    rank: dict[int, int] = {}
    for nid, n in sorted(state.nations.items()):
        k = rank.get(n.owner, 0)
        rank[n.owner] = k + 1
        hue = PLAYER_HUES[n.owner % len(PLAYER_HUES)] + 8 * (k // len(SHADES))
        colours[nid] = _hex(hue, SHADES[k % len(SHADES)])
    return colours


def _ink(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def draw(state: HBState | None = None, map_name: str = DEFAULT_MAP) -> str:
    """SVG of the map (terrain), or of ``state``: areas in their nation's colour."""
    if state is None:
        graph = load_board(map_name).graph
        svg = render_svg(graph, terrain_colours=TERRAIN_COLOURS, sea_colour=SEA, inland_colour=INLAND,
                         title=graph.name)
        return _finish(svg, graph, [], [_terrain_row()])
    b = state.board
    graph = b.graph
    colours = nation_colours(state)
    fills, labels, seats = {}, {}, {}
    for a in b.land:
        nid = state.area_nation[a]
        if nid != EMPTY:
            fills[a] = colours[nid]
            seats[a] = state.nations[nid].owner
            labels[a] = str(state.nations[nid].units.get(a, 0))
    svg = render_svg(graph, terrain_colours=TERRAIN_COLOURS, sea_colour=SEA, inland_colour=INLAND,
                     fills=fills, labels=labels, seats=seats, title=f"{graph.name} — turn {state.turn}")
    overlay = [_textures(state, fills), _cities(state), _sea_units(state, colours), _battle(state, colours)]
    rows = [_terrain_row()] + _nation_rows(state, colours)
    return _finish(svg, graph, overlay, rows)


def _textures(state: HBState, fills: dict[int, str]) -> str:
    """The terrain's texture in white over owned forest and hills."""
    out = ['<g class="texture">']
    for a in fills:
        area = state.board.graph.areas[a]
        if area.terrain in ("forest", "hills"):
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in area.polygon)
            out.append(f'<polygon points="{points}" fill="url(#over-{area.terrain})" stroke="none"/>')
    out.append("</g>")
    return "".join(out)


def _cities(state: HBState) -> str:
    """A small tower where a city stands (§9.3)."""
    out = ['<g id="cities" class="sea-units">']
    graph = state.board.graph
    for a in state.board.land:
        if (state.cities >> a) & 1:
            x, y = graph.areas[a].label
            out.append(f'<rect x="{x + 14:.1f}" y="{y - 16:.1f}" width="8" height="8" fill="#ffffff" '
                       f'stroke="#111111" stroke-width="1.2"><title>city</title></rect>')
    out.append("</g>")
    return "".join(out)


def _sea_units(state: HBState, colours: dict[int, str]) -> str:
    """Each nation's units at sea as a badge under the sea's name: its count, in its colour."""
    graph = state.board.graph
    at_sea: dict[int, list[tuple[int, int]]] = {}
    for nid, n in sorted(state.nations.items()):
        for a, count in sorted(n.units.items()):
            if count and state.board.is_sea[a]:
                at_sea.setdefault(a, []).append((nid, count))
    out = ['<g id="sea-units">']
    for a, entries in at_sea.items():
        x0, y0 = graph.areas[a].label
        width = 34
        left = min(max(x0 - width * len(entries) / 2, 4.0), graph.width - width * len(entries) - 4)
        for k, (nid, count) in enumerate(entries):
            n = state.nations[nid]
            colour = colours[nid]
            x = left + k * width + 2
            tip = f"{n.name} ({state.names[n.owner]}): {count} units at sea in {graph.areas[a].name}"
            out.append(
                f'<g class="sea-units" id="sea-units-{graph.areas[a].id}-{nid}"><title>{escape(tip)}</title>'
                f'<rect x="{x:.1f}" y="{y0 + 6:.1f}" width="{width - 4}" height="18" rx="9" fill="{colour}" data-seat="{n.owner}" '
                f'stroke="#111111" stroke-width="1"/>'
                f'<text x="{x + (width - 4) / 2:.1f}" y="{y0 + 19:.1f}" font-size="12" font-weight="bold" '
                f'text-anchor="middle" fill="{_ink(colour)}">{count}</text></g>')
    out.append("</g>")
    return "".join(out)


def _battle(state: HBState, colours: dict[int, str]) -> str:
    """The area being fought over, outlined (also through retreats and hit allocation), and
    the attackers in it (kept apart from the nation's units until the battle ends) as a
    badge in their colour beside the defenders' count."""
    if state.battle is None:
        return ""
    area = state.board.graph.areas[state.battle[0]]
    att = state.nations.get(state.battle[1])
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in area.polygon)
    out = (f'<polygon id="battle-mark" data-area={quoteattr(area.id)} points="{points}" fill="none" '
           f'stroke="#ffd400" stroke-width="6" stroke-dasharray="10 5"><title>battle</title></polygon>'
           f'<polygon points="{points}" fill="none" stroke="#111111" stroke-width="1.5" class="texture"/>')
    count, wounded = state.battle[3] + state.battle[4], state.battle[4]
    if att is not None and count:
        x, y = area.label
        colour = colours[att.id]
        tip = (f"{att.name} ({state.names[att.owner]}) attacking with {count}"
               + (f" ({wounded} wounded)" if wounded else ""))
        out += (f'<g class="sea-units" id="attackers"><title>{escape(tip)}</title>'
                f'<rect x="{x + 12:.1f}" y="{y + 2:.1f}" width="30" height="18" rx="3" fill="{colour}" '
                f'stroke="#111111" stroke-width="1"/>'
                f'<text x="{x + 27:.1f}" y="{y + 15:.1f}" font-size="12" font-weight="bold" '
                f'text-anchor="middle" fill="{_ink(colour)}">{count}</text></g>')
    return out


Row = list[tuple[str, str]]  # (caption, fill) swatches, the first caption a heading


def _terrain_row() -> tuple[str, Row]:
    return ("Terrain", [("Plains", TERRAIN_COLOURS["plains"]), ("Forest", TERRAIN_COLOURS["forest"]),
                        ("Hills", TERRAIN_COLOURS["hills"]), ("Sea", SEA), ("Inland sea", INLAND)])


def _nation_rows(state: HBState, colours: dict[int, str]) -> list[tuple[str, Row, int]]:
    """A row per player: its nations' swatches, and its seat (``data-seat``, for the page's palette)."""
    rows = []
    for p, name in enumerate(state.names):
        mine = [(n.name, colours[nid]) for nid, n in sorted(state.nations.items()) if n.owner == p]
        rows.append((name, mine or [("no nation", "none")], p))
    return rows


def _finish(svg: str, graph, overlay: list[str], rows: list[tuple]) -> str:
    """Add the texture patterns, the overlays (under the names) and a legend band under the map."""
    w, h = graph.width, graph.height
    row_h, pad, char = 22.0, 10.0, 6.6
    lines: list[list[str]] = []
    y = h + pad
    for heading, swatches, *owner in rows:
        seat = f' data-seat="{owner[0]}"' if owner else ""
        x = pad
        line = [f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="13" font-weight="bold" '
                f'class="legend-text">{escape(heading)}</text>']
        x += max(90.0, len(heading) * 7.5 + 12)
        for caption, fill in swatches:
            need = 22 + len(caption) * char + 14
            if x + need > w - pad:
                y += row_h
                x = pad + 90
            if fill != "none":
                line.append(f'<rect x="{x:.1f}" y="{y + 2:.1f}" width="16" height="16" fill={quoteattr(fill)}{seat} '
                            f'stroke="#333333" stroke-width="0.7"/>')
                x += 22
            line.append(f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="12" class="legend-text">'
                        f"{escape(caption)}</text>")
            x += len(caption) * char + 14
        lines.append(line)
        y += row_h
    band = y + pad - h
    total = h + band
    svg = svg.replace(f'height="{_n(h)}" viewBox="0 0 {_n(w)} {_n(h)}"',
                      f'height="{_n(total)}" viewBox="0 0 {_n(w)} {_n(total)}"', 1)
    svg = svg.replace("<style>", _DEFS + "<style>", 1)
    svg = svg.replace('<g id="labels">', "".join(overlay) + '<g id="labels">', 1)
    legend = [f'<g id="legend"><rect x="0" y="{_n(h)}" width="{_n(w)}" height="{_n(band)}" fill="#f7f4ec" '
              f'stroke="#999999" stroke-width="0.8"/>'] + [s for line in lines for s in line] + ["</g>"]
    return svg.replace("</svg>", "".join(legend) + "</svg>", 1)


def _n(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s
