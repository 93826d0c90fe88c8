"""The report folder of a simulation: ``summary.json``, ``games.jsonl``, ``index.html``
and the charts it shows (``charts/*.svg``, drawn with matplotlib).

``summary.json`` holds the run's description (game, options, bots, seeds, what a score
and a turn are called), how the run went (``run``: workers, seconds, games/s — the one
part that changes between equal runs) and every figure of
:func:`realms.sim.stats.figures`.  The page shows what every game has (win shares,
scores, the outcome metrics with their definitions), then the game's own report
sections (``Game.report_sections``), each drawing its chart and writing its HTML with
the helpers here (:func:`pyplot`, :func:`table`, :func:`pct`, :func:`num`, :func:`ci`).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from realms.core.game import games
from realms.core.report import (CHART_DIR, ci, ci_pp, expand, img, num, pct, pp, pyplot, save, seat_colours,
                                seat_labels, span, table)

from . import design_page
from .stats import figures as compute_figures
from .stats import game_sections



def build_summary(lines: list[dict], simulation: dict, run: dict | None = None,
                  sections: tuple | None = None) -> dict:
    """The summary of these games: ``simulation`` (what was run), ``run`` (how), the
    game's ``score_name`` and ``turn_word`` (unless ``simulation`` says), and every
    figure, with the report ``sections`` (default: those of the game the lines are of)."""
    game = games().get(simulation.get("game") or (lines[0].get("game", "") if lines else ""))
    words = {"score_name": game.score_name, "turn_word": game.turn_word} if game else {}
    return {"format": "realms-simulation-summary", "version": 2, **words, **simulation,
            "run": run or {}, "figures": compute_figures(lines, sections)}


def write_report(folder: str | Path, lines: list[dict], simulation: dict, run: dict | None = None,
                 sections: tuple | None = None) -> dict:
    """Write ``summary.json``, the charts and ``index.html`` into ``folder`` (the games
    are already in ``games.jsonl``).  Returns the summary."""
    out = Path(folder)
    (out / CHART_DIR).mkdir(parents=True, exist_ok=True)
    sections = game_sections(lines) if sections is None else sections
    summary = build_summary(lines, simulation, run, sections)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    charts = draw_charts(summary, out / CHART_DIR, sections)
    (out / "index.html").write_text(render_html(summary, charts, sections), encoding="utf-8")
    return summary


# =========================================================================== charts


def draw_charts(summary: dict, folder: Path, sections: tuple = ()) -> dict[str, str]:
    """Every chart the figures allow, the report ``sections``' too (``charts/<key>.svg``);
    ``{name: path relative to the report}``."""
    plt = pyplot()
    f = summary["figures"]
    unit = summary.get("score_name", "VP")
    charts: dict[str, str] = {}
    game = games().get(summary.get("game") or "")
    n_seats = len(f["win_share_by_seat"])
    colours = game.seat_colours(n_seats) if game else seat_colours(n_seats)

    seats = f["win_share_by_seat"]
    if seats:
        fig, ax = plt.subplots(figsize=(6 if n_seats <= 6 else 8, 3.2))
        xs = [s["seat"] for s in seats]
        shares = [s["share"] for s in seats]
        err = [[s["share"] - s["ci95"][0] for s in seats], [s["ci95"][1] - s["share"] for s in seats]]
        ax.bar(xs, shares, color=[colours[x - 1] for x in xs], edgecolor="#333", lw=0.5, yerr=err, capsize=5)
        ax.axhline(1 / len(seats), color="#444", ls="--", lw=1, label=f"fair share 1/{len(seats)}")
        ax.set_xticks(xs, seat_labels(xs))
        if n_seats > 6:
            ax.set_xlabel("seat")
        ax.set_ylabel("win share (95% interval)")
        ax.set_title("Win share by seat")
        ax.legend(frameon=False)
        charts["win_share"] = save(fig, folder / "win_share.svg")

    sc = f["scores"]["by_seat"]
    if sc:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4), gridspec_kw={"width_ratios": [1, 1.4]})
        data = [expand(s["counts"]) for s in sc]
        box = ax1.boxplot(data, patch_artist=True, widths=0.6)
        for i, patch in enumerate(box["boxes"]):
            patch.set_facecolor(colours[i])
            patch.set_alpha(0.6)
        ax1.set_xticks(range(1, len(sc) + 1), seat_labels([s["seat"] for s in sc]))
        if len(sc) > 6:
            ax1.set_xlabel("seat")
        ax1.set_ylabel(f"final {unit}")
        ax1.set_title(f"Final {unit} by seat")
        lo = min(min(d) for d in data if d) if any(data) else 0
        hi = max(max(d) for d in data if d) if any(data) else 1
        bins = min(40, max(5, int(hi - lo) + 1))
        for i, d in enumerate(data):
            ax2.hist(d, bins=bins, range=(lo, hi + 1), histtype="step", lw=1.5,
                     color=colours[i], label=f"seat {i + 1}")
        ax2.hist(expand(f["scores"]["winner"]["counts"]), bins=bins, range=(lo, hi + 1), histtype="stepfilled",
                 color="#999", alpha=0.35, label="winner")
        ax2.set_xlabel(f"final {unit}")
        ax2.set_ylabel("games")
        ax2.set_title(f"{unit} distribution")
        ax2.legend(frameon=False, fontsize=7 if len(sc) > 6 else 8, ncol=2 if len(sc) > 6 else 1)
        charts["scores"] = save(fig, folder / "scores.svg")

    if "design" in f:
        charts.update(design_page.draw(f["design"], folder, summary.get("turn_word", "turn")))
    for section in sections:
        if section.chart is not None and section.key in f:
            fig = section.chart(f[section.key])
            if fig is not None:
                charts[section.key] = save(fig, folder / f"{section.key}.svg")
    return charts


# =========================================================================== the page

CSS = """
body{font-family:Georgia,'DejaVu Serif',serif;margin:0;background:#faf8f2;color:#222}
header{background:#2d3e50;color:#fff;padding:18px 32px}
header h1{margin:0 0 4px;font-size:26px} header p{margin:2px 0;color:#d8dee6}
main{padding:8px 32px 40px;max-width:1200px}
section{margin-top:26px} h2{border-bottom:2px solid #2d3e50;padding-bottom:3px;font-size:20px}
img.chart{max-width:100%;background:#fff;border:1px solid #ddd;margin:6px 0}
table{border-collapse:collapse;font-size:13px;margin:8px 0;background:#fff}
th,td{border:1px solid #d5d0c4;padding:3px 8px;text-align:right}
th{background:#ece7da} td.l,th.l{text-align:left}
p.note{font-size:13px;color:#555;max-width:900px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px;font-size:14px} dt{font-weight:bold}
"""


def options_text(options: dict) -> str:
    """``players=4, rules=races, turns=15`` (empty and unset options left out)."""
    return ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in sorted(options.items()) if v not in (None, [], "", {}))


def outcomes_html(o: dict, turn_word: str = "turn", design: dict | None = None) -> str:
    """The outcome metrics (:func:`realms.sim.stats.outcomes`): a table, and below it what
    each one means."""
    def share_row(label: str, v: dict) -> list:
        return [label, pct(v["share"]), ci(v["ci95"], True), f"{v['games']} of {v['of']} games"]

    def spread(label: str, d: dict, nd: int = 1) -> list:
        return [label, num(d["mean"], nd), ci(d["ci95"], nd=max(nd, 2)),
                f"sd {num(d['sd'], nd)}, {span(d.get('min'), d.get('max'), nd)}" if d["n"] else "no games"]

    rows = [["balance", num(o["balance"], 3), "–", f"{len(o['seat_advantage'])} seats"]]
    rows += [[f"advantage of seat {a['seat']}", pp(a["advantage"]), ci_pp(a.get("advantage_ci95")),
              f"win share {pct(a['share'])} against a fair {pct(a['fair_share'])}"
              + (" — fair share outside the interval" if a["unfair"] else "")] for a in o["seat_advantage"]]
    se = o.get("seat_effect")
    if se:
        rows.append(["seat effect, all seats", f"χ² {num(se['chi2'])}", f"p = {num(se['p'], 4)}",
                     f"{se['df']} df" + (" — the seats differ (5%)" if se["significant"] else "")])
    rows += [share_row("completion", o["completion"]), share_row("shared victory", o["shared"]),
             share_row("time-outs", o["timeouts"])]
    rows += [spread(f"{turn_word}s per game", o["duration"]["turns"]),
             spread("decisions per game", o["duration"]["decisions"], 0)]
    lc, dc = o["lead_changes"], o["decisiveness"]
    rows += [spread("lead changes per game", lc["per_game"]),
             [f"lead changes per {turn_word} end", num(lc["per_turn_end"]["mean"], 3),
              ci(lc["per_turn_end"]["ci95"]), f"over {lc['games']} games with scores by {turn_word}"],
             share_row("games with a lead change", lc["games_with_a_change"]),
             *([spread("decisiveness moves", design["decided"]["decisiveness_moves"], 3)] if design else []),
             share_row("non-winner led", dc["non_winner_led"])]
    words = {"balance": "Balance", "seat_advantage": "Seat advantage", "completion": "Completion",
             "shared": "Shared victory", "timeouts": "Time-outs", "duration": "Duration",
             "lead_changes": "Lead changes", "decisiveness": "Decisiveness", "seat_effect": "Seat effect"}
    defs = "".join(f"<dt>{escape(words.get(k, k))}</dt><dd>{escape(text)}</dd>"
                   for k, text in o["definitions"].items())
    return ("<section><h2>Outcome metrics</h2>"
            + table(["metric", "value", "95% interval", ""], rows)
            + f'<p class="note">A turn here is a {escape(turn_word)}; scores are sampled at the end of '
              "every one. Shares with no games behind them show “–”.</p>"
            + f"<dl>{defs}</dl></section>")


def time_per_decision(run: dict, f: dict) -> float | None:
    """Seconds a decision took: the run's wall time × its workers ÷ the decisions of the
    games it played (``realms.sim.design.DEFINITIONS["time_per_decision"]``)."""
    mean = f["outcomes"]["duration"]["decisions"]["mean"]
    if not run.get("seconds") or not run.get("played") or not mean:
        return None
    return run["seconds"] * max(1, run.get("workers") or 1) / (mean * run["played"])


def _per_decision(run: dict, f: dict) -> str:
    t = time_per_decision(run, f)
    return "" if t is None else f"; {1000 * t:.2f} ms a decision (wall time × workers ÷ decisions)"


def render_html(summary: dict, charts: dict[str, str], sections: tuple = ()) -> str:
    """The report page: the run, what every game has, then the game's ``sections``."""
    f = summary["figures"]
    unit = summary.get("score_name", "VP")
    run = summary.get("run") or {}
    opts = options_text(summary.get("options") or {})
    bots = ",".join(summary.get("bots") or [])
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(summary.get('game_name', ''))} "
             f"— {f['games']} simulated games</title><style>{CSS}</style></head><body>",
             f"<header><h1>{escape(summary.get('game_name', summary.get('game', '')))}: {f['games']} simulated games</h1>",
             f"<p>bots: {escape(bots)} · seeds {summary.get('seed')}–{summary.get('seed', 0) + f['games'] - 1}"
             f" · options: {escape(opts)}</p>"]
    if run:
        parts.append(f"<p>{run.get('played', 0)} games played in {run.get('seconds', 0):.1f} s "
                     f"({run.get('games_per_second', 0):.1f} games/s) on "
                     f"{escape(str(run.get('cluster') or str(run.get('workers', 1)) + ' worker(s)'))}"
                     f"{'; ' + str(run['resumed']) + ' kept from an earlier run' if run.get('resumed') else ''}"
                     f"{_per_decision(run, f)}</p>")
    parts.append("</header><main>")

    seats = f["win_share_by_seat"]
    parts.append("<section><h2>Win share by seat</h2>" + img(charts, "win_share", "win share by seat"))
    parts.append(table(["seat", "bots", "games", "wins", "share", "95% interval"],
                        [[s["seat"], ", ".join(f"{b}×{n}" for b, n in s["bots"].items()), s["games"],
                          num(s["wins"], 1), pct(s["share"]), ci(s["ci95"], True)] for s in seats], left=2))
    parts.append('<p class="note">A shared victory counts as a fraction of a win for each winner. '
                 "Intervals are Wilson score intervals.</p></section>")

    sc = f["scores"]
    parts.append(f"<section><h2>{escape(unit[:1].upper() + unit[1:])} distributions</h2>" + img(charts, "scores", "score distributions"))
    rows = [[f"seat {s['seat']}", num(s["mean"]), ci(s["ci95"]), num(s["sd"]), s["min"], num(s["q1"], 1),
             num(s["median"], 1), num(s["q3"], 1), s["max"]] for s in sc["by_seat"]]
    for label, key in (("winner", "winner"), ("winning margin", "margin")):
        s = sc[key]
        if s["n"]:
            rows.append([label, num(s["mean"]), ci(s["ci95"]), num(s["sd"]), s["min"], num(s["q1"], 1),
                         num(s["median"], 1), num(s["q3"], 1), s["max"]])
    parts.append(table(["", "mean", "95% interval", "sd", "min", "q1", "median", "q3", "max"], rows))
    ln = f["outcomes"]["duration"]
    turns = summary.get("turn_word", "turn") + "s"
    parts.append(f'<p class="note">Games lasted {num(ln["turns"]["mean"], 1)} {turns} on average '
                 f'({ln["turns"]["min"]}–{ln["turns"]["max"]}), with {num(ln["decisions"]["mean"], 0)} '
                 "decisions each.</p></section>")
    parts.append(outcomes_html(f["outcomes"], summary.get("turn_word", "turn"), f.get("design")))
    if "design" in f:
        parts.append(design_page.html(f["design"], charts, unit, summary.get("turn_word", "turn")))

    for section in sections:
        if section.key in f:
            parts.append(section.html(f[section.key], img(charts, section.key, section.key.replace("_", " "))))

    parts.append('<section><h2>Files</h2><p class="note"><a href="summary.json">summary.json</a> (every figure) · '
                 '<a href="games.jsonl">games.jsonl</a> (one line per game; <code>realms history</code> '
                 "draws any of them)</p></section></main></body></html>\n")
    return "".join(parts)
