"""Reports side by side (``realms compare DIR DIR…``) and a grid of options played and
compared (``realms sweep GAME --option k=v1,v2 …``).

Each report is a folder written by ``realms simulate --report`` (``summary.json``).  The
page shows the metrics every game has, one column a report; where reports are of the
same game, each later report's difference from the first with its 95% interval and a
test of "no difference", marked where p < 0.05:

* a share (win share of a seat, completion, forced decisions…): the difference of two
  proportions, Newcombe's hybrid score interval (from the two Wilson intervals), and the
  two-proportion z test (pooled);
* a mean (turns, lead changes, decisiveness…): the difference of two means, Welch's
  normal interval d ± 1.96·√(sd₁²/n₁ + sd₂²/n₂), and the z test on the same.

Reports of different games show their common metrics together, in the spirit of the
Ludii portal's metric tables.  With many metrics compared, about one in twenty differs at
p < 0.05 by chance: the marks point where to look, they do not prove.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Callable

from realms.core.report import ci, ci_pp, num, pct, pp, table
from realms.core.stats import Z95, rounded, wilson


class CompareError(ValueError):
    """A folder that is not a report; the message names it."""


def load(folder: str | Path) -> dict:
    """A report's ``summary.json``, with ``folder`` added."""
    path = Path(folder) / "summary.json"
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompareError(f"{path}: no such file (write a report with realms simulate --report)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise CompareError(f"{path}: cannot read ({exc})") from None
    if summary.get("format") != "realms-simulation-summary" or "figures" not in summary:
        raise CompareError(f"{path}: not a realms simulation summary")
    summary["folder"] = str(folder)
    return summary


# =========================================================================== the metrics


@dataclass(frozen=True)
class Metric:
    """One metric read from a summary: a share ``(k, n)`` or a mean ``(mean, sd, n)``."""

    key: str
    label: str
    kind: str  # "share" or "mean"
    read: Callable[[dict], Any]  # summary -> (k, n) | (mean, sd, n, ci95) | None


def _share(path: tuple):
    def read(s: dict):
        v = _get(s["figures"], path)
        return None if not v or not v.get("of") else (v["games"], v["of"])
    return read


def _mean(path: tuple):
    def read(s: dict):
        v = _get(s["figures"], path)
        return None if not v or not v.get("n") or v.get("mean") is None else (v["mean"], v["sd"] or 0.0, v["n"], v["ci95"])
    return read


def _get(d, path: tuple):
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def _leader_half(s: dict):
    for row in _get(s["figures"], ("design", "decided", "leader_wins_by_fraction")) or ():
        if row["fraction"] == 0.5 and row["games"]:
            return (row["share"] * row["games"], row["games"])
    return None


def _forced(s: dict):
    d = _get(s["figures"], ("design", "decisions"))
    return None if not d or not d["decisions"] else (d["forced_share"] * d["decisions"], d["decisions"])


#: The metrics every game's report has, in page order.
COMMON = (
    Metric("completion", "completion", "share", _share(("outcomes", "completion"))),
    Metric("timeouts", "time-outs", "share", _share(("outcomes", "timeouts"))),
    Metric("shared", "shared victory", "share", _share(("outcomes", "shared"))),
    Metric("turns", "turns per game", "mean", _mean(("outcomes", "duration", "turns"))),
    Metric("decisions", "decisions per game", "mean", _mean(("outcomes", "duration", "decisions"))),
    Metric("lead_changes", "lead changes per game", "mean", _mean(("outcomes", "lead_changes", "per_game"))),
    Metric("leader_half", "leader at half time wins", "share", _leader_half),
    Metric("decisiveness_moves", "decisiveness moves", "mean", _mean(("design", "decided", "decisiveness_moves"))),
    Metric("stability", "stability", "mean", _mean(("design", "decided", "stability"))),
    Metric("branching", "options per decision (a game's mean)", "mean",
           _mean(("design", "decisions", "branching_per_game"))),
    Metric("forced", "decisions with one option", "share", _forced),
)


def seat_metrics(summaries: list[dict]) -> list[Metric]:
    """Win share and mean score of each seat the reports share."""
    seats = min(len(s["figures"]["win_share_by_seat"]) for s in summaries)

    def wins(i: int):
        return lambda s: (s["figures"]["win_share_by_seat"][i]["wins"], s["figures"]["win_share_by_seat"][i]["games"])

    def score(i: int):
        def read(s: dict):
            v = s["figures"]["scores"]["by_seat"][i]
            return (v["mean"], v["sd"] or 0.0, v["n"], v["ci95"]) if v["n"] else None
        return read

    return ([Metric(f"win_share_{i + 1}", f"win share, seat {i + 1}", "share", wins(i)) for i in range(seats)]
            + [Metric(f"score_{i + 1}", f"mean score, seat {i + 1}", "mean", score(i)) for i in range(seats)])


# =========================================================================== the tests


def normal_p(z: float) -> float:
    """Two-sided p of a standard normal ``z`` (scipy's)."""
    from scipy.stats import norm

    return float(2 * norm.sf(abs(z)))


def diff_shares(a: tuple, b: tuple) -> dict:
    """``b``'s share less ``a``'s (each ``(k, n)``): Newcombe's hybrid score interval and
    the pooled two-proportion z test."""
    (k1, n1), (k2, n2) = a, b
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pool = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    p = normal_p(d / se) if se > 0 else (1.0 if d == 0 else 0.0)
    return {"diff": rounded(d), "ci95": [rounded(lo), rounded(hi)], "p": rounded(p), "significant": p < 0.05}


def diff_means(a: tuple, b: tuple) -> dict:
    """``b``'s mean less ``a``'s (each ``(mean, sd, n, …)``): Welch's normal interval and z test."""
    (m1, s1, n1), (m2, s2, n2) = a[:3], b[:3]
    d = m2 - m1
    se = math.sqrt(s1 * s1 / n1 + s2 * s2 / n2)
    p = normal_p(d / se) if se > 0 else (1.0 if d == 0 else 0.0)
    return {"diff": rounded(d), "ci95": [rounded(d - Z95 * se), rounded(d + Z95 * se)], "p": rounded(p),
            "significant": p < 0.05}


def compare(summaries: list[dict]) -> dict:
    """The comparison of reports: per metric, each report's value and, for reports of the
    first one's game, the difference from the first with its interval and test."""
    if not summaries:
        raise CompareError("no report to compare")
    same = len({s.get("game") for s in summaries}) == 1
    metrics = list(COMMON) + (seat_metrics(summaries) if same else [])
    rows = []
    for m in metrics:
        values = [m.read(s) for s in summaries]
        if all(v is None for v in values):
            continue
        row: dict[str, Any] = {"key": m.key, "label": m.label, "kind": m.kind, "values": [], "diffs": []}
        for v in values:
            if v is None:
                row["values"].append(None)
            elif m.kind == "share":
                row["values"].append({"share": rounded(v[0] / v[1]), "ci95": [rounded(x) for x in wilson(*v)],
                                      "n": v[1]})
            else:  # the report's own interval (clipped to the metric's range)
                row["values"].append({"mean": v[0], "ci95": v[3], "n": v[2]})
        base = values[0]
        for s, v in zip(summaries[1:], values[1:]):
            ok = same and base is not None and v is not None
            row["diffs"].append((diff_shares if m.kind == "share" else diff_means)(base, v) if ok else None)
        rows.append(row)
    return {"same_game": same,
            "reports": [{"folder": s["folder"], "game": s.get("game"), "game_name": s.get("game_name", s.get("game")),
                         "options": s.get("options") or {}, "bots": s.get("bots") or [],
                         "games": s["figures"]["games"], "label": s.get("label")} for s in summaries],
            "metrics": rows}


# =========================================================================== the page

CSS = """
body{font-family:Georgia,'DejaVu Serif',serif;margin:0;background:#faf8f2;color:#222}
header{background:#2d3e50;color:#fff;padding:18px 32px} header h1{margin:0;font-size:24px}
main{padding:8px 32px 40px} table{border-collapse:collapse;font-size:13px;margin:8px 0;background:#fff}
th,td{border:1px solid #d5d0c4;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#ece7da} td.l,th.l{text-align:left} p.note{font-size:13px;color:#555;max-width:900px}
td.sig{background:#fde2c8;font-weight:bold}
"""


def _value(row: dict, v: dict | None) -> str:
    if v is None:
        return "–"
    if row["kind"] == "share":
        return f"{pct(v['share'])} ({ci(v['ci95'], True)})"
    return f"{num(v['mean'], 3)} ({ci(v['ci95'], nd=3)})"


def _diff(row: dict, d: dict | None) -> tuple[str, bool]:
    if d is None:
        return "–", False
    if row["kind"] == "share":
        text = f"{pp(d['diff'])} ({ci_pp(d['ci95'])}) p={num(d['p'], 3)}"
    else:
        text = f"{d['diff']:+.3f} ({ci(d['ci95'], nd=3)}) p={num(d['p'], 3)}"
    return text + (" *" if d["significant"] else ""), d["significant"]


def options_text(options: dict) -> str:
    """``players=3, rules=races, turns=10`` (unset options and lists left empty left out)."""
    return ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in sorted(options.items()) if v not in (None, [], ""))


def report_label(r: dict) -> str:
    """A report's column head: its label (a sweep's cell), or its game and folder."""
    return r.get("label") or f"{r['game_name']} · {Path(r['folder']).name}"


def render(comparison: dict, title: str = "Reports compared") -> str:
    """The comparison as one HTML page."""
    reports = comparison["reports"]
    head = "".join(f'<th class="l">{escape(report_label(r))}</th>' for r in reports)
    dhead = "".join(f'<th class="l">{escape(report_label(r))} − first</th>' for r in reports[1:]) \
        if comparison["same_game"] else ""
    body = []
    for row in comparison["metrics"]:
        cells = "".join(f"<td>{escape(_value(row, v))}</td>" for v in row["values"])
        for d in row["diffs"] if comparison["same_game"] else ():
            text, sig = _diff(row, d)
            cells += f'<td class="{"sig" if sig else ""}">{escape(text)}</td>'
        body.append(f'<tr><td class="l">{escape(row["label"])}</td>{cells}</tr>')
    runs = table(["report", "game", "games", "bots", "options"],
                 [[report_label(r), r["game_name"], r["games"], ",".join(r["bots"]),
                   options_text(r["options"])]
                  for r in reports], left=2)
    note = ("Each difference is the report's value less the first report's, with its 95% interval and the p "
            "of a test of no difference (shares: Newcombe's interval, two-proportion z test; means: Welch's "
            "normal interval and z test); * and shading: p < 0.05. With many metrics, about one in twenty "
            "is marked by chance." if comparison["same_game"] else
            "Reports of different games: the metrics they have in common, side by side (value and 95% "
            "interval); differences are tested only between reports of one game.")
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{CSS}</style></head><body><header><h1>{escape(title)}</h1></header><main>"
            f"<section><h2>Reports</h2>{runs}</section><section><h2>Metrics</h2>"
            f'<table><thead><tr><th class="l">metric</th>{head}{dhead}</tr></thead><tbody>{"".join(body)}'
            f'</tbody></table><p class="note">{escape(note)} Definitions: each report\'s own page.</p>'
            "</section></main></body></html>\n")


# =========================================================================== sweeps


def grid(axes: list[tuple[str, list]]) -> list[dict]:
    """Every combination of the ``axes`` (``[(option, [value, …]), …]``), first axis slowest."""
    cells: list[dict] = [{}]
    for name, values in axes:
        cells = [dict(c, **{name: v}) for c in cells for v in values]
    return cells


def cell_name(cell: dict) -> str:
    """A cell's label and folder name: ``turns=10 rules=races`` (an empty list as ``-``)."""
    def text(v) -> str:
        if isinstance(v, list):
            return "+".join(map(str, v)) or "-"
        return "none" if v is None else str(v)

    return " ".join(f"{k}={text(v)}" for k, v in cell.items())


def sweep(game, base: dict, axes: list[tuple[str, list]], bots: tuple[str, ...], seed: int, games: int,
          out: str | Path, workers: int = 1, progress: bool = False, on_cell=None) -> dict:
    """Play ``games`` games of every cell of the grid (``base`` options with the cell's
    values; every cell the same seeds, so cells differ only by their options), write a
    report per cell in ``out/<cell>/`` and the comparison of them all as ``out/index.html``
    (and ``out/sweep.json``).  ``on_cell(label, info)`` is told of each cell run."""
    from .batch import RunInfo, Simulation, run
    from .report import write_report

    folder = Path(out)
    summaries = []
    for cell in grid(axes):
        label = cell_name(cell)
        where = folder / label.replace(" ", "_").replace("/", "_")
        info = RunInfo()
        lines = run(Simulation(game.id, {**base, **cell}, bots, seed, games), workers=workers, out=where,
                    progress=progress, info=info)
        summary = write_report(where, lines, {"game": game.id, "game_name": game.name, "options": lines[0]["options"],
                                              "bots": list(bots), "seed": seed, "games": games, "label": label},
                               info.to_json())
        summary["folder"] = str(where)
        summaries.append(summary)
        if on_cell is not None:
            on_cell(label, info)
    comparison = compare(summaries)
    comparison["axes"] = [[name, values] for name, values in axes]
    (folder / "sweep.json").write_text(json.dumps(comparison, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    title = f"{game.name}: {' × '.join(name for name, _ in axes)} swept, {games} games a cell"
    (folder / "index.html").write_text(render(comparison, title), encoding="utf-8")
    return comparison
