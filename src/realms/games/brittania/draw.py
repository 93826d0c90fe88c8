"""The map of Brittania as a standalone SVG document (``Game.draw``).

Standard library only.  The coastline outlines of ``data/coast.toml`` are shared among
the states whose hearts lie in them as Voronoi cells (each cell is the outline cut by
the half-planes nearer its own heart than any other's, drawn clipped to the outline), so
no border is drawn by hand; where a drawn border and the data's adjacency differ, the
data rule (MAP.md, "Drawing").  Islands are their state's whole shape.  Seas are numbered circles; the Kingdom-making links are dotted, the
Glywysing–Somerset link a straight line (rules post, "STATES, KINGDOMS…" and
"CONQUESTS…").  With a game: states in their owner's colour, capitals starred, each
state's output, devastated states marked, and the players listed with their grain.
"""

from __future__ import annotations

import math
from functools import lru_cache
from xml.sax.saxutils import escape

from realms.core.files import load_toml
from realms.core.position import apply

from .board import DATA, Board, MapError, load_board
from .tables import load_tables

K = 90.0                    # pixels per degree of latitude
COS = math.cos(math.radians(55.5))
LON0, LAT0 = -10.9, 59.6
WIDTH, HEIGHT = 660, 890
SEA = "#a9c9e4"
NEUTRAL = "#eadfc4"
Point = tuple[float, float]


def palette() -> tuple[str, ...]:
    """The seats' colours (``Game.palette``): the rules post's twelve, in its order, as a
    new game deals them (§ "A Player picks a State, a Color")."""
    tables = load_tables()
    return tuple(tables.colour_hex[c] for c in tables.colours)


def project(lon: float, lat: float) -> Point:
    return ((lon - LON0) * K * COS, (LAT0 - lat) * K)


def _n(v: float) -> str:
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _clip(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """The part of ``poly`` nearer ``a`` than ``b`` (Sutherland–Hodgman, one half-plane)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]

    def side(p: Point) -> float:
        return (p[0] - mx) * dx + (p[1] - my) * dy

    out: list[Point] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        sc, sp = side(cur), side(prev)
        if sc <= 0:
            if sp > 0:
                t = sp / (sp - sc)
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            out.append(cur)
        elif sp <= 0:
            t = sp / (sp - sc)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
    return out


@lru_cache(maxsize=None)
def shapes() -> tuple[dict[str, tuple[Point, ...]], tuple[tuple[tuple[str | None, tuple[Point, ...]], ...], ...]]:
    """The land outlines by id, and each state's shapes as ``(land id or None, polygon)``:
    a mainland state's shape is its convex Voronoi cell, drawn clipped to its land's
    outline (the id); an island's is its outline (None)."""
    board = load_board()
    lands = load_toml(DATA / "coast.toml", name="coast.toml").data["land"]
    hearts = [project(*s.at) for s in board.states]
    out: list[list[tuple[str | None, tuple[Point, ...]]]] = [[] for _ in board.states]
    outlines: dict[str, tuple[Point, ...]] = {}
    islands = {land["state"] for land in lands if "state" in land}
    for land in lands:
        poly = [project(lon, lat) for lon, lat in land["points"]]
        if "state" in land:
            if land["state"] not in board.index:
                raise MapError(f"coast.toml: land {land['id']!r}: state {land['state']!r} is not a state")
            out[board.index[land["state"]]].append((None, tuple(poly)))
            continue
        outlines[land["id"]] = tuple(poly)
        xs, ys = [x for x, _ in poly], [y for _, y in poly]
        box = [(min(xs) - 5, min(ys) - 5), (max(xs) + 5, min(ys) - 5), (max(xs) + 5, max(ys) + 5),
               (min(xs) - 5, max(ys) + 5)]
        sites = [s.index for s in board.states if s.id not in islands and _inside(hearts[s.index], poly)]
        for i in sites:
            cell = box
            for j in sites:
                if j != i:
                    cell = _clip(cell, hearts[i], hearts[j])
            out[i].append((land["id"], tuple(cell)))
    for s in board.states:
        if not out[s.index]:
            raise MapError(f"coast.toml: state {s.id!r}: its heart {s.at} lies in no land outline")
    return outlines, tuple(tuple(x) for x in out)


def _text(x: float, y: float, s: str, size: float = 9, weight: str = "normal", fill: str = "#111",
          underline: bool = False, anchor: str = "middle") -> str:
    deco = ' text-decoration="underline"' if underline else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}" font-family="sans-serif"{deco}>{escape(s)}</text>')


def draw(state=None) -> str:
    """The map (``state`` None) or a game's position on it (its :func:`board` drawn on the
    map), as SVG text."""
    if state is None:
        return _drawing(False)
    return apply(_drawing(True), board(state.view(None)))


def board(view: dict) -> dict:
    """The position of ``view`` (``Game.board``, ``core.position``): each state in its
    owner's colour (``data-seat``: the colour's place in the rules post's twelve, as
    :func:`palette` lists them) with its output, its capital starred, devastated in red;
    the turn and each player's grain as a layer."""
    tables = load_tables()
    capitals = {p["capital"] for p in view["players"]} - {None}
    areas = {}
    for sid, st in view["states"].items():
        o = st["owner"]
        value = st["output"]
        colour = view["players"][o]["colour"] if o is not None else None
        areas[sid] = {"fill": tables.colour_hex[colour] if colour else NEUTRAL,
                      "seat": tables.colours.index(colour) if colour else None,
                      "units": [("★ " if sid in capitals else "") + (str(value) if value else "devastated")],
                      "ink": "#7a1010" if value == 0 else "#333"}
    out = [_text(10, 20.0, f"Turn {view['turn']}", 12, "bold", anchor="start")]
    for p, player in enumerate(view["players"]):
        y = 34.0 + 14 * p
        out.append(f'<rect x="10" y="{_n(y - 9)}" width="10" height="10" fill="{tables.colour_hex[player["colour"]]}" '
                   f'data-seat="{tables.colours.index(player["colour"])}" stroke="#333"/>')
        alive = "" if player["alive"] else " (out)"
        out.append(_text(25, y, f"{player['name']}: {player['grain']} grain{alive}", 9, anchor="start"))
    return {"areas": areas, "layers": {"panel": "".join(out)}}


@lru_cache(maxsize=2)
def _drawing(slots: bool) -> str:
    """The map; ``slots``: with a slot for everything a position changes (each state's
    output under its name, the side panel)."""
    board: Board = load_board()
    outlines, polys = shapes()
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f"<title>{escape(board.name)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="{SEA}"/>',
    ]
    def points(poly) -> str:
        return " ".join(f"{_n(x)},{_n(y)}" for x, y in poly)

    out.append("<defs>" + "".join(f'<clipPath id="land-{k}"><polygon points="{points(v)}"/></clipPath>'
                                  for k, v in outlines.items()) + "</defs>")
    for s in board.states:
        for i, (land, poly) in enumerate(polys[s.index]):
            clip = f' clip-path="url(#land-{land})"' if land else ""
            # the page marks and clicks the first part; a position paints them all
            ident = f' id="area-{s.id}"' if i == 0 else f' data-part-of="{s.id}"'
            out.append(f'<polygon{ident} points="{points(poly)}" fill="{NEUTRAL}" stroke="#4a4a4a" '
                       f'stroke-width="0.8"{clip}><title>{escape(s.name)}</title></polygon>')
    for poly in outlines.values():
        out.append(f'<polygon points="{points(poly)}" fill="none" stroke="#333" stroke-width="1.2"/>')
    for a, b, kind in board.links:
        (x1, y1), (x2, y2) = project(*board.states[a].at), project(*board.states[b].at)
        dash = ' stroke-dasharray="3,3"' if kind == "kingdom" else ""
        out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="#222" '
                   f'stroke-width="1.4"{dash}/>')
    for sea in board.seas:
        x, y = project(*sea.label)
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="9" fill="#eef5fb" stroke="#2b5c8a"/>')
        out.append(_text(x, y + 4, str(sea.number), 11, "bold", "#2b5c8a"))
    for s in board.states:
        x, y = project(*s.at)
        out.append(_text(x, y, s.name, 7.5, "bold" if s.kingdom else "normal", underline=s.kingdom))
        if slots:
            out.append(_text(x, y + 9, "", 7, fill="#333").replace("<text ", f'<text id="units-{s.id}" ', 1))
    if slots:
        out.append('<g id="panel"/>')
    out.append("</svg>")
    return "\n".join(out)


def _routes_and_battles(ax, board: Board, state, colours: list[str], battles: list[dict]) -> None:
    for a, b in state.trades:
        if state.capital[a] >= 0 and state.capital[b] >= 0:
            (x1, y1), (x2, y2) = (project(*board.states[state.capital[p]].at) for p in (a, b))
            ax.plot([x1, x2], [y1, y2], color="#1d6b2a", linewidth=1.6, linestyle="--", zorder=5)
    for battle in battles:
        target = board.index[battle["state"]]
        p = battle["attacker"]
        tx, ty = project(*board.states[target].at)
        froms = [x for x in state.held(p) if x != target] or [target]
        fx, fy = min((project(*board.states[x].at) for x in froms), key=lambda q: (q[0] - tx) ** 2 + (q[1] - ty) ** 2)
        ax.annotate("", (tx, ty), (fx, fy), zorder=6, arrowprops={
            "arrowstyle": "-|>", "color": colours[p], "linewidth": 1.8, "ec": "#222",
            "linestyle": "-" if battle.get("won") else "--", "shrinkA": 4, "shrinkB": 4})


def draw_png(state, path, title: str | None = None, battles: list[dict] | None = None) -> None:
    """The position of :func:`draw` as a PNG at ``path``, drawn with matplotlib (the
    same shapes, colours, links, sea numbers and outputs; no SVG renderer needed), headed
    ``title`` (default: the turn).  Independent states are hatched, so that no player's
    light colour (White, Silver) looks like them; the trade routes join the partners'
    capitals; ``battles`` (the turn's battle events' data) are arrows from the attacker's
    nearest state, solid where the state was taken, dashed where it held."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Polygon, Rectangle

    board: Board = load_board()
    tables = load_tables()
    outlines, polys = shapes()
    colours = [tables.colour_hex[c] for c in state.colours]
    fig = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(HEIGHT, 0)
    ax.set_axis_off()
    ax.add_patch(Polygon([(0, 0), (WIDTH, 0), (WIDTH, HEIGHT), (0, HEIGHT)], facecolor=SEA))
    clips = {k: Polygon(v, transform=ax.transData) for k, v in outlines.items()}
    for s in board.states:
        o = state.owner[s.index]
        for land, poly in polys[s.index]:
            patch = ax.add_patch(Polygon(poly, facecolor=colours[o] if o >= 0 else NEUTRAL,
                                         edgecolor="#4a4a4a", linewidth=0.5, hatch=None if o >= 0 else "...."))
            if land:
                patch.set_clip_path(clips[land])
    for poly in outlines.values():
        ax.add_patch(Polygon(poly, fill=False, edgecolor="#333", linewidth=0.9))
    for a, b, kind in board.links:
        (x1, y1), (x2, y2) = project(*board.states[a].at), project(*board.states[b].at)
        ax.plot([x1, x2], [y1, y2], color="#222", linewidth=1.1, linestyle=":" if kind == "kingdom" else "-")
    for sea in board.seas:
        x, y = project(*sea.label)
        ax.text(x, y, str(sea.number), ha="center", va="center", fontsize=8, weight="bold", color="#2b5c8a",
                bbox={"boxstyle": "circle", "fc": "#eef5fb", "ec": "#2b5c8a"})
    for s in board.states:
        x, y = project(*s.at)
        ax.text(x, y, s.name, ha="center", va="bottom", fontsize=5, weight="bold" if s.kingdom else "normal")
        value = state.output[s.index]
        mark = ("* " if s.index in state.capital else "") + (str(value) if value else "devastated")
        ax.text(x, y + 2, mark, ha="center", va="top", fontsize=5, color="#7a1010" if value == 0 else "#333")
    _routes_and_battles(ax, board, state, colours, battles or [])
    ax.text(10, 20, title or f"Turn {state.turn}", fontsize=10, weight="bold")
    for p, name in enumerate(state.names):
        y = 30 + 13 * p
        ax.add_patch(Rectangle((10, y), 9, 9, facecolor=colours[p], edgecolor="#333", linewidth=0.6))
        ax.text(24, y + 8, f"{name}: {state.grain[p]} grain" + ("" if state.alive[p] else " (out)"), fontsize=7)
    fig.savefig(path, format="png")
