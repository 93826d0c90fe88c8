"""Pictures of version²: the board, or a position on it, as a standalone SVG document
(the Game's ``draw`` hook).  Standard library only.

Each field is a pointy-top hexagon (``<polygon class="field" id="area-N">``, the id a game
page reads an option key's field numbers as; what is drawn over it lets clicks through) filled with
its terrain's colour and labelled with its number and production index; with a state,
an owned field gets a ring in its owner's colour, a capitol a star, a warehouse a small
square, and the units a line per arm (``3 I``, ``1 C``, ``2 A``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from xml.sax.saxutils import escape

from realms.core.position import apply

from .board import FORD, SEA, TERRAINS, Board, load_board

TERRAIN_COLOURS = ("#9cc3e6", "#c9e3ef", "#7fae6b", "#d8e59a", "#b9a58c")
PLAYER_COLOURS = ("#c0392b", "#2f6fb5", "#e3a21c", "#7b3fa0", "#1b9e77", "#333333")
ARM_MARK = ("I", "C", "A")
SIZE = 30.0
PANEL = 210


def palette() -> tuple[str, ...]:
    """The seats' colours (``Game.palette``): the map's, the history page's and the report's."""
    return PLAYER_COLOURS


def _n(v: float) -> str:
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def corners(x: float, y: float, size: float = SIZE) -> str:
    pts = []
    for k in range(6):
        a = math.radians(60 * k - 30)
        pts.append(f"{_n(x + size * math.cos(a))},{_n(y + size * math.sin(a))}")
    return " ".join(pts)


def draw(state=None, options: dict | None = None) -> str:
    """The board of ``state`` (its :func:`board` position drawn on it) or, without one,
    the board ``options`` name (``board``, or ``map`` as ``realms map show --map`` passes
    it; by default the board for ``players``, 4)."""
    options = options or {}
    if state is None:
        name = options.get("map") or f"board-{options.get('players', 4)}"
        return _drawing(load_board(name), False)
    return apply(_slotted(state.options["map"]), board(state.view(None), state.board))


def board(view: dict, b: Board | None = None) -> dict:
    """The position of ``view`` (``Game.board``, ``core.position``): each field's owner
    ring, capitol, warehouse and units (a line per arm: ``3 I``, ``1 C``, ``2 A``); the
    side panel (the turn, each player's fields, production and treasure) as a layer."""
    b = b or load_board(view["map"])
    areas = {}
    for f in b.land:
        o = view["owner"][f]
        counts = [0, 0, 0]
        for u in view["units"][f]:
            counts[u[0]] += 1
        marks = (["capitol"] if view["capitol"][f] >= 0 else []) + (["warehouse"] if view["warehouse"][f] else [])
        areas[str(f)] = {"owner": {"seat": o, "colour": PLAYER_COLOURS[o % len(PLAYER_COLOURS)]} if o >= 0 else None,
                         "units": [f"{c} {ARM_MARK[a]}" for a, c in enumerate(counts) if c], "marks": marks}
    return {"areas": areas, "layers": {"panel": _panel(view)}}


def _panel(view: dict) -> str:
    out = [f'<text x="10" y="22" font-size="13" font-weight="bold">Turn {view["turn"]}</text>']
    for p, player in enumerate(view["players"]):
        y = 44 + 34 * p
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        out.append(f'<rect class="player" x="10" y="{y - 10}" width="12" height="12" fill="{colour}" data-seat="{p}"/>')
        status = "" if player["alive"] else " (out)"
        out.append(f'<text x="28" y="{y}" font-size="11">{escape(player["name"])}{status}</text>')
        out.append(f'<text x="28" y="{y + 13}" font-size="9" fill="#444">'
                   f'{player["fields"]} fields · production {player["production"]} · '
                   f'treasure {player["treasure"]}</text>')
    return "".join(out)


@lru_cache(maxsize=8)
def _slotted(map_name: str) -> str:
    return _drawing(load_board(map_name), True)


def _drawing(board: Board, slots: bool) -> str:
    """The board's fields; ``slots``: with a slot for everything a position changes (an
    owner ring, a capitol, a warehouse and the units of every land field, hidden until
    a position fills them in, and the side panel)."""
    xs, ys = zip(*(centre(q, r) for q, r in board.coords))
    x0, y0 = min(xs) - SIZE, min(ys) - SIZE
    width = max(xs) - x0 + SIZE + (PANEL if slots else 0)
    height = max(ys) - y0 + SIZE
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
           f'width="{_n(width)}" height="{_n(height)}" font-family="sans-serif">',
           f'<title>{escape(board.name)}</title>',
           f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="{TERRAIN_COLOURS[SEA]}"/>']
    for f, (q, r) in enumerate(board.coords):
        x, y = centre(q, r)
        x, y = x - x0, y - y0
        t = board.terrain[f]
        tip = f"Field {f} ({TERRAINS[t]}" + (f", index {board.index[f]})" if t > FORD else ")")
        out.append(f'<polygon class="field {TERRAINS[t]}" id="area-{f}" points="{corners(x, y)}" '
                   f'fill="{TERRAIN_COLOURS[t]}" stroke="#556" stroke-width="0.6"><title>{escape(tip)}</title></polygon>')
        if t == SEA:
            continue
        out.append(f'<text class="label" pointer-events="none" x="{_n(x)}" y="{_n(y - SIZE * 0.52)}" font-size="8" text-anchor="middle" '
                   f'fill="#333">{f}{"·" + str(board.index[f]) if t > FORD else ""}</text>')
        if not slots:
            continue
        out.append(f'<polygon class="owner" id="owner-{f}" pointer-events="none" points="{corners(x, y, SIZE * 0.86)}" '
                   f'fill="none" stroke="#000000" stroke-width="3.5" display="none"/>')
        out.append(f'<text class="capitol" data-mark="capitol" data-area="{f}" display="none" pointer-events="none" '
                   f'x="{_n(x - SIZE * 0.45)}" y="{_n(y + 4)}" font-size="13" text-anchor="middle" fill="#8a1c1c">★</text>')
        out.append(f'<rect class="warehouse" data-mark="warehouse" data-area="{f}" display="none" pointer-events="none" '
                   f'x="{_n(x + SIZE * 0.3)}" y="{_n(y - 6)}" width="8" height="8" fill="#6b4f2a" stroke="#fff" stroke-width="0.8"/>')
        out.append(f'<text class="unit" id="units-{f}" pointer-events="none" x="{_n(x)}" y="{_n(y + 2)}" '
                   f'font-size="9" font-weight="bold" text-anchor="middle" fill="#111"/>')
    if slots:
        out.append(f'<g id="panel" transform="translate({_n(width - PANEL)},0)"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
