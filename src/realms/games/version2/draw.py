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
from xml.sax.saxutils import escape

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
    """The board of ``state`` (a position) or, without one, the board ``options`` name
    (``board``, or ``map`` as ``realms map show --map`` passes it; by default the board
    for ``players``, 4)."""
    options = options or {}
    if state is not None:
        board: Board = state.board
    else:
        name = options.get("map") or f"board-{options.get('players', 4)}"
        board = load_board(name)
    xs, ys = zip(*(centre(q, r) for q, r in board.coords))
    x0, y0 = min(xs) - SIZE, min(ys) - SIZE
    width = max(xs) - x0 + SIZE + (PANEL if state is not None else 0)
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
        if state is None:
            continue
        o = state.owner[f]
        if o >= 0:
            out.append(f'<polygon class="owner" pointer-events="none" data-player="{o}" data-seat="{o}" points="{corners(x, y, SIZE * 0.86)}" fill="none" '
                       f'stroke="{PLAYER_COLOURS[o % len(PLAYER_COLOURS)]}" stroke-width="3.5"/>')
        if state.capitol[f] >= 0:
            out.append(f'<text class="capitol" pointer-events="none" x="{_n(x - SIZE * 0.45)}" y="{_n(y + 4)}" font-size="13" '
                       f'text-anchor="middle" fill="#8a1c1c">★</text>')
        if state.warehouse[f]:
            out.append(f'<rect class="warehouse" pointer-events="none" x="{_n(x + SIZE * 0.3)}" y="{_n(y - 6)}" width="8" height="8" '
                       'fill="#6b4f2a" stroke="#fff" stroke-width="0.8"/>')
        counts = [0, 0, 0]
        for u in state.units[f]:
            counts[u[0]] += 1
        lines = [(a, c) for a, c in enumerate(counts) if c]
        seat = f' data-seat="{o}"' if o >= 0 else ""
        for k, (a, c) in enumerate(lines):
            out.append(f'<text class="unit" pointer-events="none" data-arm="{ARM_MARK[a]}" data-count="{c}"{seat} x="{_n(x)}" '
                       f'y="{_n(y - 1 + 9 * (k - (len(lines) - 1) / 2) + 3)}" font-size="9" font-weight="bold" '
                       f'text-anchor="middle" fill="{"#000" if o < 0 else PLAYER_COLOURS[o % len(PLAYER_COLOURS)]}">'
                       f'{c} {ARM_MARK[a]}</text>')
    if state is not None:
        px = width - PANEL + 10
        out.append(f'<text x="{_n(px)}" y="22" font-size="13" font-weight="bold">Turn {state.turn}</text>')
        for p, name in enumerate(state.names):
            y = 44 + 34 * p
            colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
            out.append(f'<rect class="player" x="{_n(px)}" y="{y - 10}" width="12" height="12" fill="{colour}" data-seat="{p}"/>')
            status = "" if state.alive[p] else " (out)"
            out.append(f'<text x="{_n(px + 18)}" y="{y}" font-size="11">{escape(name)}{status}</text>')
            out.append(f'<text x="{_n(px + 18)}" y="{y + 13}" font-size="9" fill="#444">'
                       f'{state.field_count(p)} fields · production {state.production(p)} · '
                       f'treasure {state.treasure[p]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
