"""Pictures of Brian Boru: the board, or a position on it, as a standalone SVG document.

Standard library only.  Regions are drawn as padded hulls around their towns (the
printed board's outlines are unknown: RULINGS BB-Q28), roads as lines (only the known
ones: some towns have none), towns as circles in their colour with their number.  With a state: player discs
on towns, Viking control tokens, monasteries, the active town marker, and a side panel
with the marriage track, the battle and church areas, claim tokens and scores.
"""

from __future__ import annotations

import math
from functools import lru_cache
from xml.sax.saxutils import escape

from realms.core.position import apply

from .state import BBState
from .tables import Board, load_tables

TOWN_COLOURS = {"R": "#c0392b", "B": "#2f6fb5", "Y": "#e3b21c"}
REGION_TINTS = ("#d9e8c4", "#f1dfc0", "#e2d4ec", "#cfe5e1", "#f3d0cf", "#e6e2bf", "#d3ddf0", "#efe0d3")
PLAYER_COLOURS = ("#7b3fa0", "#1b9e77", "#d95f02", "#222222", "#e7298a")
SEA = "#a9c9e4"
PANEL = 250


def palette() -> tuple[str, ...]:
    """The seats' colours (``Game.palette``): the map's, the history page's and the report's."""
    return PLAYER_COLOURS


def _n(v: float) -> str:
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull (monotone chain), counter-clockwise."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def region_outline(board: Board, region: int, pad: float = 26.0) -> list[tuple[float, float]]:
    pts = []
    for t in board.region_towns[region]:
        town = board.towns[t]
        for k in range(12):
            a = 2 * math.pi * k / 12
            pts.append((round(town.x + pad * math.cos(a), 1), round(town.y + pad * math.sin(a), 1)))
    return _hull(pts)


def _text(x: float, y: float, s: str, size: float = 11, anchor: str = "middle", weight: str = "normal",
          fill: str = "#111") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}" font-family="sans-serif">{escape(s)}</text>')


def draw(state: BBState | None = None) -> str:
    """The board (``state`` None) or the position of ``state`` (its :func:`board` drawn on
    the board), as SVG text."""
    if state is None:
        return _drawing(False)
    return apply(_drawing(True), board(state.view(None)))


def board(view: dict) -> dict:
    """The position of ``view`` (``Game.board``, ``core.position``): each town's player
    disc, Viking token, monastery and the active town's ring; each region's claim; the
    side panel (track, round, battle area, players) as a layer."""
    t = load_tables()
    b = t.board
    names = [p["name"] for p in view["players"]]
    areas = {}
    for town_id, town in view["towns"].items():
        o = town["owner"]
        marks = (["monastery"] if town["monastery"] else []) + (["viking"] if town["vikings"] else []) + (
            ["active"] if town_id == view["active_town"] else [])
        areas[town_id] = {"owner": {"seat": o, "colour": PLAYER_COLOURS[o % len(PLAYER_COLOURS)]} if o is not None
                          else None, "marks": marks}
    texts = {}
    for reg in b.regions:
        claim = view["claims"][reg.id]
        holder = (" — " + names[claim["holder"]]) if claim["holder"] is not None else (
            " — face up" if claim["face_up"] else "")
        texts[f"claim-{reg.id}"] = f"({reg.threshold}/{reg.points}){holder}"
    return {"areas": areas, "texts": texts, "layers": {"panel": "".join(_panel(view, t, b.width + 12))}}


@lru_cache(maxsize=2)
def _drawing(slots: bool) -> str:
    """The board; ``slots``: with a slot for everything a position changes (each town's
    disc, token and rings hidden until a position shows them; the side panel)."""
    t = load_tables()
    b = t.board
    w, h = b.width + PANEL, b.height
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w)}" height="{_n(h)}" '
        f'viewBox="0 0 {_n(w)} {_n(h)}">',
        f"<title>Brian Boru — {escape(b.name)}</title>",
        f'<rect x="0" y="0" width="{_n(b.width)}" height="{_n(h)}" fill="{SEA}"/>',
        f'<rect x="{_n(b.width)}" y="0" width="{PANEL}" height="{_n(h)}" fill="#f7f4ec"/>',
    ]
    for reg in b.regions:
        poly = " ".join(f"{_n(x)},{_n(y)}" for x, y in region_outline(b, reg.index))
        out.append(f'<polygon id="region-{reg.id}" class="region" points="{poly}" '
                   f'fill="{REGION_TINTS[reg.index % len(REGION_TINTS)]}" stroke="#6b6b5a" stroke-width="1.5">'
                   f"<title>{escape(reg.name)}: threshold {reg.threshold}, {reg.points} points</title></polygon>")
    for reg in b.regions:
        towns = [b.towns[i] for i in b.region_towns[reg.index]]
        if reg.label is not None:
            cx, top = reg.label
        else:
            cx, top = sum(x.x for x in towns) / len(towns), min(x.y for x in towns) - 30
        out.append(_text(cx, max(top, 12), reg.name, 10, weight="bold"))
        claim = _text(cx, max(top, 12) + 12, f"({reg.threshold}/{reg.points})", 9)
        out.append(claim.replace("<text ", f'<text id="claim-{reg.id}" ', 1) if slots else claim)
    for i, j in b.roads:
        a, c = b.towns[i], b.towns[j]
        out.append(f'<line class="road" x1="{_n(a.x)}" y1="{_n(a.y)}" x2="{_n(c.x)}" y2="{_n(c.y)}" '
                   f'stroke="#7a5a2a" stroke-width="3"/>')
    for town in b.towns:
        tip = f"Town {town.id}, {b.regions[town.region].name}"
        out.append(f'<circle id="town-{town.id}" class="town" cx="{_n(town.x)}" cy="{_n(town.y)}" r="11" '
                   f'fill="{TOWN_COLOURS[town.colour]}" stroke="#222" stroke-width="1"><title>{escape(tip)}</title></circle>')
        if slots:
            hidden = f'data-area="{town.id}" display="none" pointer-events="none"'
            out.append(f'<circle data-mark="monastery" {hidden} cx="{_n(town.x)}" cy="{_n(town.y)}" r="15" '
                       f'fill="none" stroke="#8a6d3b" stroke-width="3"/>')
            out.append(f'<circle class="disc" id="owner-{town.id}" display="none" pointer-events="none" '
                       f'cx="{_n(town.x)}" cy="{_n(town.y)}" r="7" fill="#000000" stroke="#fff" stroke-width="1.5"/>')
            out.append(f'<rect class="viking" data-mark="viking" {hidden} x="{_n(town.x + 3)}" y="{_n(town.y - 15)}" '
                       f'width="11" height="11" fill="#333" stroke="#eee"><title>Viking control token</title></rect>')
            out.append(f'<circle data-mark="active" {hidden} cx="{_n(town.x)}" cy="{_n(town.y)}" r="18" fill="none" '
                       f'stroke="#000" stroke-width="2.5" stroke-dasharray="3,2"/>')
        out.append(_text(town.x, town.y + 24, str(town.id), 9))
    if slots:
        out.append('<g id="panel"/>')
    else:
        out.extend(_panel(None, t, b.width + 12))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@lru_cache(maxsize=4)
def _track(x0: float, y: float) -> tuple[str, ...]:
    """The marriage track's spaces, top first, each with its reward, from ``y`` down."""
    t = load_tables()
    out = []
    for space in range(t.top, 0, -1):
        reward = ", ".join(g[0] + (f"×{g[2]}" if g[2] > 1 else "") for g in t.track[space - 1]) or "—"
        out.append(f'<rect x="{_n(x0)}" y="{_n(y)}" width="110" height="20" fill="#fff" stroke="#888"/>'
                   + _text(x0 + 4, y + 14, f"{space}: {reward}", 10, anchor="start"))
        y += 22
    return tuple(out)


def _panel(view: dict | None, t, x0: float) -> list[str]:
    out = [_text(x0, 24, "Brian Boru", 16, anchor="start", weight="bold")]
    y = 48
    out.append(_text(x0, y, "Marriage track", 12, anchor="start", weight="bold"))
    y += 10
    for space, track in zip(range(t.top, 0, -1), _track(x0, y)):
        out.append(track)
        if view is not None:
            on = [p for p, player in enumerate(view["players"]) if player["track"] == space]
            for k, p in enumerate(on):
                out.append(f'<circle cx="{_n(x0 + 122 + 14 * k)}" cy="{_n(y + 10)}" r="6" data-seat="{p}" '
                           f'fill="{PLAYER_COLOURS[p % len(PLAYER_COLOURS)]}"/>')
        y += 22
    y += 14
    if view is None:
        out.append(_text(x0, y, "Regions: name (threshold/points)", 10, anchor="start"))
        y += 16
        pts = t.board.regions_points
        out.append(_text(x0, y, "Regions held → points: " + " ".join(f"{k}:{v}" for k, v in enumerate(pts) if k), 10,
                         anchor="start"))
        y += 16
        for colour, name in (("R", "battle (red)"), ("B", "church (blue)"), ("Y", "courtship (yellow)")):
            out.append(f'<circle cx="{_n(x0 + 6)}" cy="{_n(y - 4)}" r="6" fill="{TOWN_COLOURS[colour]}"/>')
            out.append(_text(x0 + 18, y, f"{name} town", 10, anchor="start"))
            y += 16
        return out
    out.append(_text(x0, y, f"Round {view['round']} of {view['rounds']} — {view['phase']}", 12, anchor="start",
                     weight="bold"))
    y += 18
    out.append(_text(x0, y, f"Battle area: {view['battle_area']} raiders", 11, anchor="start"))
    y += 16
    if view["marriage_card"] is not None:
        card = next(m for m in t.marriages if m.id == view["marriage_card"])
        out.append(_text(x0, y, f"Marriage: {card.name}", 10, anchor="start"))
        y += 16
    y += 6
    for p, player in enumerate(view["players"]):
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        out.append(f'<circle cx="{_n(x0 + 6)}" cy="{_n(y - 4)}" r="6" fill="{colour}" data-seat="{p}"/>')
        marker = " ★" if p == view["marker"] else ""
        out.append(_text(x0 + 18, y, f"{player['name']}{marker}: {player['points']} pts", 11, anchor="start",
                         weight="bold"))
        y += 14
        out.append(_text(x0 + 18, y, f"coins {player['coins']}, renown {player['renown']}, raiders {player['raiders']}, "
                         f"church {player['church']}", 9, anchor="start"))
        y += 18
    return out
