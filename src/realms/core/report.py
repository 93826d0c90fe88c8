"""What games may use to draw and write their sections of a simulation report
(``Game.report_sections``): matplotlib off screen, the seats' colours, and the
formatting of numbers, shares, intervals and tables.

One palette per game: a game that declares ``Game.palette`` has its seats drawn in those
colours on every page (report charts, history page, map); :func:`seat_colours` stretches
any palette to as many seats as a game has, distinct each (Brittania's twelve).
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

CHART_DIR = "charts"
#: the seats' colours where a game declares none (matplotlib's ``tab10``)
DEFAULT_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                   "#bcbd22", "#17becf")
#: more colours, distinct from the default's, for seats past a palette's end (``tab20``'s light half)
EXTRA_COLOURS = ("#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7",
                 "#dbdb8d", "#9edae5")


def seat_colours(n: int, palette: tuple[str, ...] | None = None) -> list[str]:
    """The colours of seats 0..n-1: ``palette`` (default :data:`DEFAULT_PALETTE`), then
    colours it does not hold, so no two seats share one (up to 20 seats and more)."""
    base = list(palette or DEFAULT_PALETTE)
    extra = [c for c in (*DEFAULT_PALETTE, *EXTRA_COLOURS) if c.lower() not in {b.lower() for b in base}]
    out = (base + extra)[:n]
    while len(out) < n:  # past every named colour: evenly spaced hues
        h = (len(out) * 0.618034) % 1
        out.append(_hsv(h, 0.55, 0.75))
    return out


def _hsv(h: float, s: float, v: float) -> str:
    import colorsys

    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def pyplot():
    """matplotlib's pyplot, off screen (``Agg``), with the report's style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "realms", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "figure.dpi": 100})
    return plt


def save(fig, path: Path) -> str:
    """Write ``fig`` as SVG to ``path`` and close it; the path as the page links it."""
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return f"{CHART_DIR}/{path.name}"


def seat_labels(seats: list[int]) -> list[str]:
    """Tick labels of seats: "seat k" for up to six, the bare numbers past that, so that
    twelve labels do not overlap (the axis is then titled "seat")."""
    return [f"seat {s}" for s in seats] if len(seats) <= 6 else [str(s) for s in seats]


def pct(x, nd: int = 1) -> str:
    """A share as a percentage ("–" for none)."""
    return "–" if x is None else f"{x:.{nd}%}"


def num(x, nd: int = 2) -> str:
    """A number with ``nd`` decimals (integers as they are; "–" for none)."""
    if x is None:
        return "–"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and nd == 0):
        return str(int(x))
    return f"{x:.{nd}f}"


def decimals(value, interval, nd: int = 2, as_pct: bool = False) -> int:
    """Enough decimals that ``value`` and its ``interval`` read apart: a value of 0.997
    in 0.991–1.000 shows three, not "1.00 – 1.00" (at most ``nd`` + 3)."""
    if value is None or interval is None or interval[0] is None:
        return nd
    scale = 100 if as_pct else 1
    width = abs(interval[1] - interval[0]) * scale
    if width <= 0:
        return nd
    need = max(0, 1 - math.floor(math.log10(width)))
    return max(nd, min(nd + 3, need))


def ci(interval, as_pct: bool = False, nd: int | None = None) -> str:
    """An interval ``[lo, hi]`` as "lo – hi" (``nd`` decimals: by default enough to tell
    the ends apart)."""
    if interval is None or interval[0] is None:
        return "–"
    places = decimals(interval[0], interval, 1 if as_pct else 2, as_pct) if nd is None else nd
    return f"{pct(interval[0], places)} – {pct(interval[1], places)}" if as_pct else \
        f"{num(float(interval[0]), places)} – {num(float(interval[1]), places)}"


def pp(x, nd: int = 1) -> str:
    """A difference of shares in percentage points, signed ("+3.2 pp")."""
    if x is None:
        return "–"
    v = 100 * x
    return f"{0.0 if abs(v) < 0.5 * 10 ** -nd else v:+.{nd}f} pp"


def ci_pp(interval, nd: int = 1) -> str:
    """An interval of a difference of shares in percentage points ("−1.0 – +4.2 pp")."""
    if interval is None or interval[0] is None:
        return "–"
    return f"{100 * interval[0]:+.{nd}f} – {100 * interval[1]:+.{nd}f} pp"


def span(lo, hi, nd: int = 2) -> str:
    """A range "lo–hi" with ``nd`` decimals for fractions, integers as they are."""
    def one(x) -> str:
        if isinstance(x, float) and not x.is_integer():
            return f"{x:.{nd}f}"
        return str(int(x)) if isinstance(x, (int, float)) else str(x)

    return "–" if lo is None else f"{one(lo)}–{one(hi)}"


def table(head: list[str], rows: list[list], left: int = 1) -> str:
    """An HTML table; the first ``left`` columns align left (text), the rest right."""
    h = "".join(f'<th class="l">{escape(c)}</th>' if i < left else f"<th>{escape(c)}</th>" for i, c in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="l">{escape(str(c))}</td>' if i < left else f"<td>{escape(str(c))}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def img(charts: dict, name: str, alt: str) -> str:
    """The ``<img>`` of chart ``name`` ("" when it was not drawn)."""
    return f'<img class="chart" src="{escape(charts[name])}" alt="{escape(alt)}">' if name in charts else ""


def expand(counts: dict) -> list[float]:
    """``{value: how often}`` back into the list of values."""
    return [float(k) for k, n in counts.items() for _ in range(n)]
