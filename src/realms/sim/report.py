"""The report folder of a simulation: ``summary.json``, ``games.jsonl``, ``index.html``
and the charts it shows (``charts/*.svg``, drawn with matplotlib).

``summary.json`` holds the run's description (game, options, bots, seeds), how the run
went (``run``: workers, seconds, games/s — the one part that changes between equal
runs) and every figure of :func:`realms.sim.stats.figures`.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from .stats import figures as compute_figures

CHART_DIR = "charts"
SEAT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
TERRAIN_COLOURS = {"plains": "#d9c96b", "forest": "#5f9e4f", "hills": "#a88a64", "all": "#777777"}


def build_summary(lines: list[dict], simulation: dict, run: dict | None = None, exact=None) -> dict:
    return {"format": "realms-simulation-summary", "version": 1, **simulation,
            "run": run or {}, "figures": compute_figures(lines, exact)}


def write_report(folder: str | Path, lines: list[dict], simulation: dict, run: dict | None = None,
                 exact=None) -> dict:
    """Write ``summary.json``, the charts and ``index.html`` into ``folder`` (the games
    are already in ``games.jsonl``).  Returns the summary."""
    out = Path(folder)
    (out / CHART_DIR).mkdir(parents=True, exist_ok=True)
    summary = build_summary(lines, simulation, run, exact)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    charts = draw_charts(summary, out / CHART_DIR)
    (out / "index.html").write_text(render_html(summary, charts), encoding="utf-8")
    return summary


# =========================================================================== charts


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "realms", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "figure.dpi": 100})
    return plt


def _save(fig, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return f"{CHART_DIR}/{path.name}"


def _expand(counts: dict) -> list[float]:
    return [float(k) for k, n in counts.items() for _ in range(n)]


def draw_charts(summary: dict, folder: Path) -> dict[str, str]:
    """Every chart the figures allow; ``{name: path relative to the report}``."""
    plt = _plt()
    f = summary["figures"]
    unit = summary.get("score_name", "VP")
    charts: dict[str, str] = {}

    seats = f["win_share_by_seat"]
    if seats:
        fig, ax = plt.subplots(figsize=(6, 3.2))
        xs = [s["seat"] for s in seats]
        shares = [s["share"] for s in seats]
        err = [[s["share"] - s["ci95"][0] for s in seats], [s["ci95"][1] - s["share"] for s in seats]]
        ax.bar(xs, shares, color=[SEAT_COLOURS[(x - 1) % len(SEAT_COLOURS)] for x in xs], yerr=err, capsize=5)
        ax.axhline(1 / len(seats), color="#444", ls="--", lw=1, label=f"fair share 1/{len(seats)}")
        ax.set_xticks(xs, [f"seat {x}" for x in xs])
        ax.set_ylabel("win share (95% interval)")
        ax.set_title("Win share by seat")
        ax.legend(frameon=False)
        charts["win_share"] = _save(fig, folder / "win_share.svg")

    sc = f["scores"]["by_seat"]
    if sc:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4), gridspec_kw={"width_ratios": [1, 1.4]})
        data = [_expand(s["counts"]) for s in sc]
        box = ax1.boxplot(data, patch_artist=True, widths=0.6)
        for i, patch in enumerate(box["boxes"]):
            patch.set_facecolor(SEAT_COLOURS[i % len(SEAT_COLOURS)])
            patch.set_alpha(0.6)
        ax1.set_xticks(range(1, len(sc) + 1), [f"seat {s['seat']}" for s in sc])
        ax1.set_ylabel(f"final {unit}")
        ax1.set_title(f"Final {unit} by seat")
        lo = min(min(d) for d in data if d) if any(data) else 0
        hi = max(max(d) for d in data if d) if any(data) else 1
        bins = min(40, max(5, int(hi - lo) + 1))
        for i, d in enumerate(data):
            ax2.hist(d, bins=bins, range=(lo, hi + 1), histtype="step", lw=1.5,
                     color=SEAT_COLOURS[i % len(SEAT_COLOURS)], label=f"seat {i + 1}")
        ax2.hist(_expand(f["scores"]["winner"]["counts"]), bins=bins, range=(lo, hi + 1), histtype="stepfilled",
                 color="#999", alpha=0.35, label="winner")
        ax2.set_xlabel(f"final {unit}")
        ax2.set_ylabel("games")
        ax2.set_title(f"{unit} distribution")
        ax2.legend(frameon=False, fontsize=8)
        charts["scores"] = _save(fig, folder / "scores.svg")

    if "nations" in f:
        nat = f["nations"]
        ov = nat["overall"]
        if ov["nations"]:
            fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
            keys = sorted({int(k) for k in ov["counts"]})
            fallen = [ov["counts_fallen"].get(str(k), 0) for k in keys]
            standing = [ov["counts"].get(str(k), 0) - ov["counts_fallen"].get(str(k), 0) for k in keys]
            ax1.bar(keys, fallen, color="#8c564b", label="fell")
            ax1.bar(keys, standing, bottom=fallen, color="#c7b299", label="still standing at the end")
            ax1.set_xlabel("lifetime (turns)")
            ax1.set_ylabel("nations")
            ax1.set_title("Nation lifetimes")
            ax1.legend(frameon=False)
            races = [(r, v) for r, v in nat["by_race"].items() if v["nations"]]
            ys = range(len(races))
            means = [v["lifetime"]["mean"] for _, v in races]
            errs = [[v["lifetime"]["mean"] - v["lifetime"]["ci95"][0] for _, v in races],
                    [v["lifetime"]["ci95"][1] - v["lifetime"]["mean"] for _, v in races]]
            ax2.barh(list(ys), means, xerr=errs, color="#6b8e9b", capsize=4)
            ax2.set_yticks(list(ys), [f"{r} ({v['nations']})" for r, v in races])
            ax2.set_xlabel("mean lifetime, turns (95% interval)")
            ax2.set_title("Lifetime by race")
            for y, (_, v) in zip(ys, races):
                ax2.text(0.02, y, f"{v['survived_share']:.0%} survive", va="center", fontsize=7, color="white",
                         transform=ax2.get_yaxis_transform())
            charts["lifetimes"] = _save(fig, folder / "lifetimes.svg")

    if "table1_events" in f and f["table1_events"]["events"]:
        ev = f["table1_events"]
        names = list(ev["events"])
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
        came = [ev["events"][n]["came_up"] for n in names]
        rer = [ev["events"][n]["rerolled"] for n in names]
        ax1.barh(names, [c - r for c, r in zip(came, rer)], color="#4c72b0", label="accepted")
        ax1.barh(names, rer, left=[c - r for c, r in zip(came, rer)], color="#b0c4de", label="rerolled")
        ax1.set_xlabel("times rolled")
        ax1.set_title("Table 1 events")
        ax1.legend(frameon=False)
        ax1.invert_yaxis()
        eff = [ev["events"][n]["area_change"] for n in names]
        means = [e["mean"] if e["mean"] is not None else 0 for e in eff]
        errs = [[(e["mean"] - e["ci95"][0]) if e["n"] else 0 for e in eff],
                [(e["ci95"][1] - e["mean"]) if e["n"] else 0 for e in eff]]
        ax2.barh(names, means, xerr=errs, capsize=3, color=["#55a868" if m >= 0 else "#c44e52" for m in means])
        if ev["baseline"]["n"]:
            ax2.axvline(ev["baseline"]["mean"], color="#444", ls="--", lw=1, label="all events")
            ax2.legend(frameon=False, fontsize=8)
        ax2.axvline(0, color="#000", lw=0.6)
        ax2.set_xlabel("change in the nation's land areas that turn")
        ax2.set_title("Effect on the nation")
        ax2.invert_yaxis()
        charts["events"] = _save(fig, folder / "events.svg")

    if "areas_by_turn" in f and f["areas_by_turn"]["turns"]:
        rows = f["areas_by_turn"]["turns"]
        fig, ax = plt.subplots(figsize=(9, 3.8))
        ts = [r["turn"] for r in rows]
        n_seats = max(len(r["seat_areas"]) for r in rows)
        for i in range(n_seats):
            ax.plot(ts, [r["seat_areas"][i] if i < len(r["seat_areas"]) else 0 for r in rows], marker="o", ms=3,
                    color=SEAT_COLOURS[i % len(SEAT_COLOURS)], label=f"seat {i + 1}")
        ax.plot(ts, [r["all_nations"] for r in rows], color="#333", lw=2, label="all nations")
        ax.set_xlabel("turn")
        ax.set_ylabel("land areas held (mean)")
        ax2 = ax.twinx()
        ax2.plot(ts, [r["nations_holding_land"] for r in rows], color="#999", ls=":", label="nations holding land")
        ax2.set_ylabel("nations holding land", color="#777")
        ax2.spines["right"].set_visible(True)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, frameon=False, fontsize=8, ncol=min(8, n_seats + 2), loc="upper center",
                  bbox_to_anchor=(0.5, -0.16))
        ax.set_title("Areas held by turn")
        charts["areas_by_turn"] = _save(fig, folder / "areas_by_turn.svg")

    if "battles" in f and f["battles"]["by_terrain"]:
        bt = f["battles"]["by_terrain"]
        names = list(bt)
        fig, ax = plt.subplots(figsize=(6.5, 3.4))
        xs = range(len(names))
        rates = [bt[n]["rate"] or 0 for n in names]
        errs = [[r - bt[n]["ci95"][0] for r, n in zip(rates, names)],
                [bt[n]["ci95"][1] - r for r, n in zip(rates, names)]]
        ax.bar([x - 0.18 for x in xs], rates, width=0.36, yerr=errs, capsize=4,
               color=[TERRAIN_COLOURS.get(n, "#888") for n in names], label="simulated (95% interval)")
        ax.bar([x + 0.18 for x in xs], [bt[n]["expected_rate"] or 0 for n in names], width=0.36,
               color="white", edgecolor="#333", hatch="//", label="exact odds (greedy, no retreat)")
        ax.set_xticks(list(xs), [f"{n}\n{bt[n]['battles']} battles" for n in names])
        ax.set_ylim(0, 1)
        ax.set_ylabel("attacker takes the area")
        ax.set_title("Attacker win rate by terrain")
        ax.legend(frameon=False, fontsize=8, loc="upper right")
        charts["battles"] = _save(fig, folder / "battles.svg")

    if "points_by_source" in f and f["points_by_source"]["sources"]:
        src = f["points_by_source"]["sources"]
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
        charts["points_by_source"] = _save(fig, folder / "points_by_source.svg")
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


def _pct(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def _num(x, nd: int = 2) -> str:
    if x is None:
        return "–"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{nd}f}"


def _ci(ci, pct: bool = False) -> str:
    if ci is None or ci[0] is None:
        return "–"
    f = _pct if pct else _num
    return f"{f(ci[0])} – {f(ci[1])}"


def _table(head: list[str], rows: list[list], left: int = 1) -> str:
    h = "".join(f'<th class="l">{escape(c)}</th>' if i < left else f"<th>{escape(c)}</th>" for i, c in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="l">{escape(str(c))}</td>' if i < left else f"<td>{escape(str(c))}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def _img(charts: dict, name: str, alt: str) -> str:
    return f'<img class="chart" src="{escape(charts[name])}" alt="{escape(alt)}">' if name in charts else ""


def options_text(options: dict) -> str:
    """``players=4, rules=races, turns=15`` (empty and unset options left out)."""
    return ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in sorted(options.items()) if v not in (None, [], "", {}))


def render_html(summary: dict, charts: dict[str, str]) -> str:
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
                     f"{'; ' + str(run['resumed']) + ' kept from an earlier run' if run.get('resumed') else ''}</p>")
    parts.append("</header><main>")

    seats = f["win_share_by_seat"]
    parts.append("<section><h2>Win share by seat</h2>" + _img(charts, "win_share", "win share by seat"))
    parts.append(_table(["seat", "bots", "games", "wins", "share", "95% interval"],
                        [[s["seat"], ", ".join(f"{b}×{n}" for b, n in s["bots"].items()), s["games"],
                          _num(s["wins"], 1), _pct(s["share"]), _ci(s["ci95"], True)] for s in seats], left=2))
    parts.append('<p class="note">A shared victory counts as a fraction of a win for each winner. '
                 "Intervals are Wilson score intervals.</p></section>")

    sc = f["scores"]
    parts.append(f"<section><h2>{escape(unit[:1].upper() + unit[1:])} distributions</h2>" + _img(charts, "scores", "score distributions"))
    rows = [[f"seat {s['seat']}", _num(s["mean"]), _ci(s["ci95"]), _num(s["sd"]), s["min"], _num(s["q1"], 1),
             _num(s["median"], 1), _num(s["q3"], 1), s["max"]] for s in sc["by_seat"]]
    for label, key in (("winner", "winner"), ("winning margin", "margin")):
        s = sc[key]
        if s["n"]:
            rows.append([label, _num(s["mean"]), _ci(s["ci95"]), _num(s["sd"]), s["min"], _num(s["q1"], 1),
                         _num(s["median"], 1), _num(s["q3"], 1), s["max"]])
    parts.append(_table(["", "mean", "95% interval", "sd", "min", "q1", "median", "q3", "max"], rows))
    ln = f["length"]
    turns = "rounds" if summary.get("game") == "brian-boru" else "turns"
    parts.append(f'<p class="note">Games lasted {_num(ln["turns"]["mean"], 1)} {turns} on average '
                 f'({ln["turns"]["min"]}–{ln["turns"]["max"]}), with {_num(ln["decisions"]["mean"], 0)} '
                 "decisions each.</p></section>")

    if "nations" in f:
        nat = f["nations"]
        parts.append("<section><h2>How long nations last</h2>" + _img(charts, "lifetimes", "nation lifetimes"))
        head = ["", "nations", "fell", "survived to the end", "mean lifetime", "95% interval", "median",
                "mean lifetime of the fallen"]

        def row(label, v):
            return [label, v["nations"], v["fallen"], _pct(v["survived_share"]), _num(v["lifetime"]["mean"]),
                    _ci(v["lifetime"]["ci95"]), _num(v["lifetime"].get("median"), 1),
                    _num(v["lifetime_fallen"]["mean"])]

        rows = [row("all nations", nat["overall"])]
        rows += [row(f"race: {r}", v) for r, v in nat["by_race"].items()]
        rows += [row(f"origin: {o}", v) for o, v in nat["by_origin"].items()]
        parts.append(_table(head, rows))
        parts.append('<p class="note">A nation lives from the turn it appears (from the sea, by civil war, or '
                     "cut off from its land) to the turn it falls, both counted. Nations still standing at the "
                     "end count to the last turn. Race “none”: the races rule (§9.1) was off.</p></section>")

    if "table1_events" in f:
        ev = f["table1_events"]
        parts.append("<section><h2>Table 1 events</h2>" + _img(charts, "events", "table 1 events"))
        rows = [[name, v["came_up"], _pct(v["share"]), _num(v["per_game"]), v["rerolled"], v["accepted"],
                 _num(v["area_change"]["mean"]), _ci(v["area_change"]["ci95"]), _num(v["vs_baseline"])]
                for name, v in ev["events"].items()]
        parts.append(_table(["event", "came up", "share", "per game", "rerolled", "accepted",
                             "Δ areas that turn", "95% interval", "vs all events"], rows))
        parts.append(f'<p class="note">{ev["rolled"]} rolls on table 1 after nations\' first turns '
                     f'(and {ev["first_turn_strong_leader"]} automatic Strong leaders in first turns). '
                     "Δ areas: the nation's land areas at the end of the event's turn less those at the end "
                     f"of the turn before (0 once it has fallen). Over all accepted events: "
                     f'{_num(ev["baseline"]["mean"])}.</p></section>')

    if "areas_by_turn" in f:
        rows_t = f["areas_by_turn"]["turns"]
        parts.append("<section><h2>Areas held by turn</h2>" + _img(charts, "areas_by_turn", "areas held by turn"))
        n_seats = max((len(r["seat_areas"]) for r in rows_t), default=0)
        parts.append(_table(["turn", "games"] + [f"seat {i + 1}" for i in range(n_seats)]
                            + ["all nations", "nations holding land"],
                            [[r["turn"], r["games"]] + [_num(v, 1) for v in r["seat_areas"]]
                             + [_num(r["all_nations"], 1), _num(r["nations_holding_land"], 1)] for r in rows_t]))
        parts.append("</section>")

    if "battles" in f:
        b = f["battles"]
        parts.append("<section><h2>Battles</h2>" + _img(charts, "battles", "attacker win rate by terrain"))
        parts.append(_table(["terrain", "battles", "attacker won", "rate", "95% interval", "exact odds", "z",
                             "a side retreated", "hits off greedy"],
                            [[n, v["battles"], v["attacker_won"], _pct(v["rate"]), _ci(v["ci95"], True),
                              _pct(v["expected_rate"]), _num(v["z"]), v["retreated"], v["off_policy"]]
                             for n, v in b["by_terrain"].items()]))
        parts.append(f'<p class="note">{_num(b["per_game"]["mean"], 1)} battles a game. “Exact odds”: the mean, '
                     "over these battles, of the attacker's chance to take the area from the exact solver "
                     "(<code>realms odds</code>: same sizes, terrain, races, fervour and city; greedy hit "
                     "assignment, nobody retreating). z: the simulated wins less the expected, in standard "
                     "errors. Where bots retreat or spread hits (random bots do), the rates need not agree; "
                     "with bots that play the solver's policy they must.</p></section>")

    if "points_by_source" in f:
        src = f["points_by_source"]["sources"]
        parts.append("<section><h2>Points by source</h2>" + _img(charts, "points_by_source", "points by source"))
        n_seats = max((len(v["per_game_by_seat"]) for v in src.values()), default=0)
        parts.append(_table(["source", "per game", "share"] + [f"seat {i + 1}" for i in range(n_seats)],
                            [[s, _num(v["per_game"]), _pct(v["share"])] + [_num(x) for x in v["per_game_by_seat"]]
                             for s, v in src.items()]))
        parts.append('<p class="note">Mean points per game from each source: the starting points, each '
                     "scoring reason, and the points paid away for actions without coins (negative).</p></section>")

    parts.append('<section><h2>Files</h2><p class="note"><a href="summary.json">summary.json</a> (every figure) · '
                 '<a href="games.jsonl">games.jsonl</a> (one line per game; <code>realms history</code> '
                 "draws any of them)</p></section></main></body></html>\n")
    return "".join(parts)
