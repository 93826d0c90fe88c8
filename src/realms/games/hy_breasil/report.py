"""Hy Breasil's sections of a simulation report: how long nations last, table-1 events,
areas held by turn, and battles against the exact odds (figures from ``stats.py``).

:func:`sections` is ``Game.report_sections``; each section draws its chart with the
report's matplotlib set-up and writes its HTML with the report's table helpers.
"""

from __future__ import annotations

from html import escape

from realms.core.game import ReportSection
from realms.core.report import ci, seat_colours, num, pct, pyplot, table

from . import stats
from .draw import palette

TERRAIN_COLOURS = {"plains": "#d9c96b", "forest": "#5f9e4f", "hills": "#a88a64", "all": "#777777"}


def sections() -> tuple[ReportSection, ...]:
    """The report sections, in page order."""
    return (
        ReportSection("nations", _hb_figure(stats.nation_lifetimes), _nations_html, _nations_chart),
        ReportSection("table1_events", _hb_figure(stats.table1_events), _table1_events_html,
                      _table1_events_chart),
        ReportSection("areas_by_turn", _hb_figure(stats.areas_by_turn), _areas_by_turn_html,
                      _areas_by_turn_chart),
        ReportSection("battles", _hb_figure(stats.battles), _battles_html, _battles_chart),
    )


def _hb_figure(compute):
    """``compute`` over the lines that carry Hy Breasil's stats (none: no section)."""
    def figure(lines: list[dict]) -> dict | None:
        return compute(lines) if stats.hb_stats(lines) else None

    return figure


# =========================================================================== charts


def _nations_chart(figure: dict):
    nat = figure
    ov = nat["overall"]
    if not ov["nations"]:
        return None
    plt = pyplot()
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
    return fig


def _table1_events_chart(figure: dict):
    if not figure["events"]:
        return None
    plt = pyplot()
    ev = figure
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
    return fig


def _areas_by_turn_chart(figure: dict):
    if not figure["turns"]:
        return None
    plt = pyplot()
    rows = figure["turns"]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    ts = [r["turn"] for r in rows]
    n_seats = max(len(r["seat_areas"]) for r in rows)
    colours = seat_colours(n_seats, palette())
    for i in range(n_seats):
        ax.plot(ts, [r["seat_areas"][i] if i < len(r["seat_areas"]) else 0 for r in rows], marker="o", ms=3,
                color=colours[i], label=f"seat {i + 1}")
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
    return fig


def _battles_chart(figure: dict):
    if not figure["by_terrain"]:
        return None
    plt = pyplot()
    bt = figure["by_terrain"]
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
    return fig


# =========================================================================== the page


def _nations_html(figure: dict, img: str) -> str:
    parts = []
    nat = figure
    parts.append("<section><h2>How long nations last</h2>" + img)
    head = ["", "nations", "fell", "survived to the end", "mean lifetime", "95% interval", "median",
            "mean lifetime of the fallen"]

    def row(label, v):
        return [label, v["nations"], v["fallen"], pct(v["survived_share"]), num(v["lifetime"]["mean"]),
                ci(v["lifetime"]["ci95"]), num(v["lifetime"].get("median"), 1),
                num(v["lifetime_fallen"]["mean"])]

    rows = [row("all nations", nat["overall"])]
    rows += [row(f"race: {r}", v) for r, v in nat["by_race"].items()]
    rows += [row(f"origin: {o}", v) for o, v in nat["by_origin"].items()]
    parts.append(table(head, rows))
    parts.append('<p class="note">A nation lives from the turn it appears (from the sea, by civil war, or '
                 "cut off from its land) to the turn it falls, both counted. Nations still standing at the "
                 f"end count to the last turn. {escape(_no_race_note(nat))}</p></section>")
    return "".join(parts)


def _no_race_note(nat: dict) -> str:
    """What race “none” means in these games: the races rule (§9.1) off in some or all of
    them (nothing when every nation has a race)."""
    if "none" not in nat["by_race"]:
        return ""
    on, games = nat.get("races_on", 0), nat.get("games", 0)
    if on == 0:
        return "Race “none”: the races rule (§9.1) was off."
    return f"Race “none”: nations with no race drawn; the races rule (§9.1) was on in {on} of {games} games."


def _table1_events_html(figure: dict, img: str) -> str:
    parts = []
    ev = figure
    parts.append("<section><h2>Table 1 events</h2>" + img)
    rows = [[name, v["came_up"], pct(v["share"]), num(v["per_game"]), v["rerolled"], v["accepted"],
             num(v["area_change"]["mean"]), ci(v["area_change"]["ci95"]), num(v["vs_baseline"])]
            for name, v in ev["events"].items()]
    parts.append(table(["event", "came up", "share", "per game", "rerolled", "accepted",
                        "Δ areas that turn", "95% interval", "vs all events"], rows))
    parts.append(f'<p class="note">{ev["rolled"]} rolls on table 1 after nations\' first turns '
                 f'(and {ev["first_turn_strong_leader"]} automatic Strong leaders in first turns). '
                 "Δ areas: the nation's land areas at the end of the event's turn less those at the end "
                 f"of the turn before (0 once it has fallen). Over all accepted events: "
                 f'{num(ev["baseline"]["mean"])}.</p></section>')
    return "".join(parts)


def _areas_by_turn_html(figure: dict, img: str) -> str:
    parts = []
    rows_t = figure["turns"]
    parts.append("<section><h2>Areas held by turn</h2>" + img)
    n_seats = max((len(r["seat_areas"]) for r in rows_t), default=0)
    parts.append(table(["turn", "games"] + [f"seat {i + 1}" for i in range(n_seats)]
                        + ["all nations", "nations holding land"],
                        [[r["turn"], r["games"]] + [num(v, 1) for v in r["seat_areas"]]
                        + [num(r["all_nations"], 1), num(r["nations_holding_land"], 1)] for r in rows_t]))
    parts.append("</section>")
    return "".join(parts)


def _battles_html(figure: dict, img: str) -> str:
    parts = []
    b = figure
    parts.append("<section><h2>Battles</h2>" + img)
    parts.append(table(["terrain", "battles", "attacker won", "rate", "95% interval", "a side retreated",
                        "hits off greedy", "fought out", "rate", "95% interval", "exact odds", "z"],
                        [[n, v["battles"], v["attacker_won"], pct(v["rate"]), ci(v["ci95"], True),
                          v["retreated"], v["off_policy"], v.get("fought_out", "–"), pct(v.get("fought_out_rate")),
                          ci(v.get("fought_out_ci95"), True), pct(v["expected_rate"]), num(v["z"])]
                         for n, v in b["by_terrain"].items()]))
    parts.append(f'<p class="note">{num(b["per_game"]["mean"], 1)} battles a game. Like with like: the '
                 "exact odds (<code>realms odds</code>: same sizes, terrain, races, fervour and city) assume "
                 "nobody retreats and every hit is assigned greedily, so they are compared only with the "
                 "battles <em>fought out</em> that way. “Exact odds”: the mean, over those battles, of the "
                 "attacker's chance to take the area; z: their wins less the expected, in standard errors "
                 "(|z| above 2 is worth a look). The first rate is over every battle, retreats and all."
                 "</p></section>")
    return "".join(parts)

