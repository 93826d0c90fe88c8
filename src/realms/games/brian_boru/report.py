"""Brian Boru's section of a simulation report: points by source (``stats.py``)."""

from __future__ import annotations

from realms.core.game import ReportSection
from realms.core.report import num, pct, pyplot, table

from . import stats


def sections() -> tuple[ReportSection, ...]:
    """The report sections, in page order."""
    return (ReportSection("points_by_source", _points_by_source, _points_by_source_html, _points_by_source_chart),)


def _points_by_source(lines: list[dict]) -> dict | None:
    figure = stats.points_by_source(lines)
    return figure if figure["games"] else None


def _points_by_source_chart(figure: dict):
    if not figure["sources"]:
        return None
    plt = pyplot()
    src = figure["sources"]
    n_seats = max(len(v["per_game_by_seat"]) for v in src.values())
    fig, ax = plt.subplots(figsize=(9, 3.6))
    pos = [0.0] * n_seats
    neg = [0.0] * n_seats
    cmap = plt.get_cmap("tab20")
    for i, (name, v) in enumerate(src.items()):
        vals = v["per_game_by_seat"] + [0] * (n_seats - len(v["per_game_by_seat"]))
        left = [n if x < 0 else p for x, p, n in zip(vals, pos, neg)]
        ax.barh([f"seat {s + 1}" for s in range(n_seats)], vals, left=left, color=cmap(i % 20), label=name)
        pos = [p + max(x, 0) for p, x in zip(pos, vals)]
        neg = [n + min(x, 0) for n, x in zip(neg, vals)]
    ax.axvline(0, color="#000", lw=0.6)
    ax.invert_yaxis()
    ax.set_xlabel("points per game (mean)")
    ax.set_title("Points by source")
    ax.legend(frameon=False, fontsize=7, ncol=1, bbox_to_anchor=(1.01, 1), loc="upper left")
    return fig


def _points_by_source_html(figure: dict, img: str) -> str:
    parts = []
    src = figure["sources"]
    parts.append("<section><h2>Points by source</h2>" + img)
    n_seats = max((len(v["per_game_by_seat"]) for v in src.values()), default=0)
    parts.append(table(["source", "per game", "share"] + [f"seat {i + 1}" for i in range(n_seats)],
                       [[s, num(v["per_game"]), pct(v["share"])] + [num(x) for x in v["per_game_by_seat"]]
                        for s, v in src.items()]))
    parts.append('<p class="note">Mean points per game from each source: the starting points, each '
                 "scoring reason, and the points paid away for actions without coins (negative).</p></section>")
    return "".join(parts)

