"""The report page's sections for a designer's questions (:mod:`realms.sim.design`):
results by faction, when the game is decided, what a decision is, and the rules used;
with the charts they show and each figure's definition and source."""

from __future__ import annotations

from html import escape
from pathlib import Path

from realms.core.report import ci, img, num, pct, pyplot, save, table


def draw(design: dict, folder: Path, turn_word: str = "turn") -> dict[str, str]:
    """The charts of these sections (``charts/decided.svg``, ``charts/decisions.svg``)."""
    charts: dict[str, str] = {}
    plt = pyplot()
    rows = design["decided"]["leader_wins_by_turn"]
    if rows:
        fig, ax = plt.subplots(figsize=(7, 3.2))
        ts = [r["turn"] for r in rows]
        ax.fill_between(ts, [r["ci95"][0] for r in rows], [r["ci95"][1] for r in rows], color="#9ecae1", alpha=0.6,
                        label="95% interval")
        ax.plot(ts, [r["share"] for r in rows], marker="o", ms=3, color="#08519c", label="leader then wins")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(turn_word)
        ax.set_ylabel("chance")
        ax.set_title(f"Chance the leader at the end of a {turn_word} wins")
        ax.legend(frameon=False, loc="lower right")
        charts["decided"] = save(fig, folder / "decided.svg")
    dec = design.get("decisions")
    if dec and dec["by_kind"]:
        kinds = list(dec["by_kind"].items())[:12]
        fig, ax = plt.subplots(figsize=(7, 0.4 * len(kinds) + 1.2))
        ys = range(len(kinds))
        ax.barh(list(ys), [v["per_game"] for _, v in kinds], color="#6b8e9b")
        ax.set_yticks(list(ys), [f"{k} ({num(v['options'], 1)} options)" for k, v in kinds])
        ax.invert_yaxis()
        ax.set_xlabel("decisions per game")
        ax.set_title("Decisions by kind")
        charts["decisions"] = save(fig, folder / "decisions.svg")
    return charts


def _test(t: dict | None) -> str:
    if not t:
        return "no test (fewer than two values, or no wins)"
    mark = " — significant at 5%" if t["significant"] else ""
    return f"χ² = {num(t['chi2'])}, {t['df']} df, p = {num(t['p'], 4)}{mark}"


def html(design: dict, charts: dict, score_name: str = "VP", turn_word: str = "turn") -> str:
    """The sections, in page order."""
    parts = []
    fac = design.get("by_faction")
    if fac:
        parts.append("<section><h2>Results by what a seat was dealt</h2>")
        for dim, f in fac.items():
            rows = [[v, s["seats"], num(s["wins"], 1), pct(s["win_share"]), ci(s["win_ci95"], True),
                     num(s["score"]["mean"]), ci(s["score"]["ci95"]), pct(s["survival"]), ci(s["survival_ci95"], True)]
                    for v, s in f["values"].items()]
            parts.append(f"<h3>{escape(dim)}</h3>" + table(
                [dim, "seats", "wins", "win share", "95% interval", f"mean {score_name}", "95% interval",
                 "survived", "95% interval"], rows)
                + f'<p class="note">No difference by {escape(dim)}? {escape(_test(f["test"]))}.</p>')
        parts.append("</section>")
    d = design["decided"]
    parts.append("<section><h2>When is it decided</h2>" + img(charts, "decided", "leader wins by turn"))
    rows = [[f"{pct(r['fraction'], 0)} of the way", r["games"], pct(r["share"]), ci(r["ci95"], True)]
            for r in d["leader_wins_by_fraction"]]
    parts.append(table(["leader at", "games", "leader wins", "95% interval"], rows))
    rows = [[r["turn"], r["games"], pct(r["share"]), ci(r["ci95"], True)] for r in d["leader_wins_by_turn"]]
    lc = {r["turn"]: r for r in d["lead_change_by_turn"]}
    rows = [row + ([pct(lc[row[0]]["share"]), ci(lc[row[0]]["ci95"], True)] if row[0] in lc else ["–", "–"])
            for row in rows]
    parts.append(table([turn_word, "games", "leader wins", "95% interval", "lead changed", "95% interval"], rows))
    for label, key, nd in (("decisiveness moves", "decisiveness_moves", 3), ("stability", "stability", 4)):
        v = d[key]
        parts.append(f'<p class="note">{label}: {num(v["mean"], nd)} (95% interval {ci(v["ci95"], nd=nd)}, '
                     f'{v["n"]} games).</p>')
    parts.append("</section>")
    dec = design.get("decisions")
    if dec:
        parts.append("<section><h2>What a decision is</h2>" + img(charts, "decisions", "decisions by kind"))
        bpg = dec["branching_per_game"]
        parts.append(f'<p class="note">{dec["decisions"]} decisions in {dec["games"]} games; '
                     f'{num(dec["branching"])} options per decision (a game’s mean: {num(bpg["mean"])}, 95% '
                     f'interval {ci(bpg["ci95"])}); {pct(dec["forced_share"])} had a single option. State size '
                     f'{num(dec["state_size"]["mean"], 0)} values; hidden from a seat: '
                     f'{pct(dec["hidden_share"]["mean"])}.</p>')
        parts.append(table(["kind", "decisions", "per game", "share", "options each", "single option"],
                           [[k, v["decisions"], num(v["per_game"], 1), pct(v["share"]), num(v["options"], 1),
                             pct(v["forced_share"])] for k, v in dec["by_kind"].items()]))
        parts.append("</section>")
    u = design["usage"]
    if u["names"]:
        parts.append("<section><h2>Rules used</h2>")
        parts.append(table(["rule, ability or event" if u["source"] == "usage" else "event kind", "per game",
                            "95% interval", "games using it", "95% interval"],
                           [[k, num(v["per_game"]["mean"]), ci(v["per_game"]["ci95"]), pct(v["share_used"]),
                             ci(v["share_ci95"], True)] for k, v in u["names"].items()]))
        parts.append("</section>")
    defs = "".join(f"<dt>{escape(k.replace('_', ' '))}</dt><dd>{escape(v)}</dd>"
                   for k, v in design["definitions"].items())
    parts.append(f"<section><h2>What these figures mean</h2><dl>{defs}</dl></section>")
    return "".join(parts)
