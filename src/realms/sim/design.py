"""A designer's questions, answered from ``games.jsonl``: results by what a seat was dealt,
when a game is decided, what a decision is, which rules are used, and whether the seats
matter as a whole.

Each figure is a function of the game lines (their ``turn_scores`` and ``design``, see
:mod:`realms.sim.track`), tested on hand-made lines and recomputed from a real report by
an independent path in the tests.  :data:`DEFINITIONS` says what each one means and where
it comes from: Ludii's metrics (Browne, Piette et al., the Ludii ``Evaluation/metrics``),
the TAG framework's game report (Gaina, Balla et al.), or ours.
"""

from __future__ import annotations

import math
from collections import defaultdict

from realms.core.stats import describe, mean_ci, rounded, wilson

from .stats import leaders

#: What each figure here means, as the report page shows it, with its source.
DEFINITIONS = {
    "seat_effect": "One test of “the seat makes no difference” over all seats together: Pearson's χ² of "
                   "each seat's wins (a shared victory split) against equal shares of the wins, seats−1 "
                   "degrees of freedom. p below 0.05: the seats differ somewhere. (Ours; Ludii's "
                   "AdvantageP1 looks at one seat.)",
    "by_faction": "For each thing a seat is dealt (the game's factions hook: a nation's race, a starting "
                  "state, a mission): the seats dealt each value, their win share (Wilson 95%), mean final "
                  "score (normal 95%) and the share still in the game at the end; and one χ² test of "
                  "independence between the value and winning (wins and non-wins by value). (Ours, in "
                  "the spirit of TAG's per-player results.)",
    "usage": "How often each rule, ability or event the game names was used: per game (mean, 95% "
             "interval) and the share of games using it at least once (Wilson). A rule gained but never "
             "used shows here. Without a usage hook, the game's event kinds. (Ours; TAG counts actions "
             "by type.)",
    "leader_wins": "At the end of turn t, the leaders are the seats with the highest score; the chance that "
                   "the leader at turn t wins is the share of games, among those that reached turn t with a "
                   "leader and ended with a winner, whose leader won (a lead or victory shared counts its "
                   "share). Wilson 95% intervals. By turn, and at a fraction of each game's length (by "
                   "half time: at the turn end halfway through the game). (Ours; Ludii's Drama and "
                   "LeadChange look at the same curve from other sides.)",
    "decisiveness_moves": "A seat's evaluation at a turn end is its share of all positive scores then "
                          "(the default evaluation of realms's search). The decisiveness threshold of a game "
                          "is the highest evaluation a seat that did not win reached; decisiveness moves is "
                          "the share of the game's turn ends that passed before a winner's evaluation first "
                          "exceeded that threshold (1 if it never did): low, the game was decided early; near "
                          "1, only at the end. (Ludii: DecisivenessMoves, whose description reads “one minus "
                          "the share of moves after…”, counted over turn ends rather than moves.)",
    "stability": "The variance of each seat's evaluation over the game's turn ends, averaged over the "
                 "seats: low when standings hardly move. (Ludii: Stability.)",
    "lead_change_by_turn": "The share of games whose leaders at the end of turn t differ from the leaders "
                           "at the last earlier turn end with a leader. (Ludii: LeadChange, per turn.)",
    "branching": "Options per decision: the number of answers offered, averaged over every decision "
                 "(the branching factor), and the share of decisions with a single option (forced). By "
                 "decision kind: decisions per game and their options. (Ludii: BranchingFactor, "
                 "DecisionMoves; TAG: action space size.)",
    "state_size": "The size of the state at a turn end: the scalar values of a spectator's view plus the "
                  "items hidden from a spectator; the hidden share is the items hidden from a seat over "
                  "that size, averaged over seats and turn ends. (TAG: state size and hidden information, "
                  "counted our way.)",
    "time_per_decision": "Wall time of the run × workers ÷ decisions answered: what a decision costs the "
                         "bots and the engine together on this machine (varies run to run; kept beside "
                         "the run, not among the figures). (TAG: time per action.)",
}


# =========================================================================== seat effect


def chi2_sf(stat: float, df: int) -> float:
    """P(χ²_df ≥ stat) (scipy's)."""
    from scipy.stats import chi2

    return float(chi2.sf(stat, df))


def seat_effect(seats: list[dict]) -> dict | None:
    """χ² of the seats' wins (:func:`realms.sim.stats.win_share_by_seat`) against wins
    shared in proportion to the games each seat played; ``None`` with fewer than two seats
    or no wins."""
    wins = [s["wins"] for s in seats]
    games = [s["games"] for s in seats]
    total = sum(wins)
    if len(seats) < 2 or total <= 0:
        return None
    expected = [total * g / sum(games) for g in games]
    stat = sum((w - e) ** 2 / e for w, e in zip(wins, expected) if e > 0)
    df = len(seats) - 1
    return {"chi2": rounded(stat, 3), "df": df, "p": rounded(chi2_sf(stat, df), 4),
            "significant": chi2_sf(stat, df) < 0.05}


# =========================================================================== factions


def _contingency(rows: list[tuple[float, float]]) -> dict | None:
    """χ² test of independence on ``[(wins, non-wins), …]`` (rows with no seats left out)."""
    rows = [r for r in rows if r[0] + r[1] > 0]
    if len(rows) < 2 or sum(r[0] for r in rows) <= 0 or sum(r[1] for r in rows) <= 0:
        return None
    total = sum(a + b for a, b in rows)
    col = [sum(r[0] for r in rows), sum(r[1] for r in rows)]
    stat = 0.0
    for a, b in rows:
        n = a + b
        for observed, c in ((a, col[0]), (b, col[1])):
            e = n * c / total
            stat += (observed - e) ** 2 / e
    df = len(rows) - 1
    p = chi2_sf(stat, df)
    return {"chi2": rounded(stat, 3), "df": df, "p": rounded(p, 4), "significant": p < 0.05}


def by_faction(lines: list[dict]) -> dict | None:
    """Per dimension of what seats were dealt, per value: seats, wins (a shared victory
    split), win share with its Wilson interval, final score (mean, interval), survival
    share with its interval; and the χ² test of value against winning.  ``None`` when
    the lines carry no factions."""
    acc: dict[str, dict[str, dict]] = defaultdict(lambda: defaultdict(lambda: {"seats": 0, "wins": 0.0,
                                                                                "scores": [], "survived": 0}))
    for line in lines:
        seats = (line.get("design") or {}).get("factions")
        if not seats:
            continue
        winners = set(line["winners"])
        for i, name in enumerate(line["players"]):
            if i >= len(seats):
                break
            won = 1 / len(winners) if name in winners else 0.0
            for dim, value in seats[i]["dealt"].items():
                a = acc[dim][value]
                a["seats"] += 1
                a["wins"] += won
                a["scores"].append(line["scores"][name])
                a["survived"] += bool(seats[i]["survives"])
    if not acc:
        return None
    out = {}
    for dim in sorted(acc):
        values = {}
        for value in sorted(acc[dim]):
            a = acc[dim][value]
            n = a["seats"]
            values[value] = {"seats": n, "wins": rounded(a["wins"]), "win_share": rounded(a["wins"] / n),
                             "win_ci95": [rounded(x) for x in wilson(a["wins"], n)],
                             "score": mean_ci(a["scores"]), "survival": rounded(a["survived"] / n),
                             "survival_ci95": [rounded(x) for x in wilson(a["survived"], n)]}
        test = _contingency([(a["wins"], a["seats"] - a["wins"]) for a in acc[dim].values()])
        out[dim] = {"values": values, "test": test}
    return out


# =========================================================================== usage


def usage(lines: list[dict]) -> dict:
    """Per rule, ability or event named (the lines' ``design.usage``, or their
    ``event_counts`` where no game names any): uses per game (mean, interval, over every
    game: one without it counts 0) and the share of games with a use.  ``source``:
    ``"usage"`` or ``"event kinds"``."""
    named = [ln for ln in lines if "usage" in (ln.get("design") or {})]
    source = "usage" if named else "event kinds"
    tallies = [ln["design"]["usage"] for ln in named] if named else [ln.get("event_counts") or {} for ln in lines]
    names = sorted({k for t in tallies for k in t})
    n = len(tallies)
    rows = {}
    for name in names:
        values = [t.get(name, 0) for t in tallies]
        used = sum(1 for v in values if v)
        rows[name] = {"per_game": mean_ci(values, bounds=(0, math.inf)), "games_used": used,
                      "share_used": rounded(used / n), "share_ci95": [rounded(x) for x in wilson(used, n)]}
    return {"games": n, "source": source, "names": rows}


# =========================================================================== when it is decided


def _leader_won(scores: list[float], winners: set[int]) -> float | None:
    """The share of the leaders at this turn end who won (``None`` when nobody leads)."""
    lead = leaders(scores)
    if lead is None:
        return None
    return sum(1 for i in lead if i in winners) / len(lead)


def _winner_seats(line: dict) -> set[int]:
    won = set(line.get("winners") or ())
    return {i for i, name in enumerate(line["players"]) if name in won}


def evaluations(scores: list[float]) -> list[float]:
    """Each seat's share of the positive scores (equal shares while nobody scores)."""
    pos = [max(0.0, float(s)) for s in scores]
    total = sum(pos)
    return [p / total for p in pos] if total > 0 else [1 / len(pos)] * len(pos)


def decisiveness_moves(line: dict) -> float | None:
    """Ludii's DecisivenessMoves over turn ends (:data:`DEFINITIONS`); ``None`` without a
    winner, without a loser or without turn ends."""
    winners = _winner_seats(line)
    rows = line.get("turn_scores") or []
    if not winners or len(winners) == len(line["players"]) or not rows:
        return None
    evals = [evaluations(s) for _, s in rows]
    threshold = max(e[i] for e in evals for i in range(len(e)) if i not in winners)
    for k, e in enumerate(evals):
        if max(e[i] for i in winners) > threshold:
            return k / len(evals)
    return 1.0


def stability(line: dict) -> float | None:
    """Ludii's Stability over turn ends: each seat's variance (population) of its
    evaluation, averaged over the seats; ``None`` with fewer than two turn ends."""
    rows = line.get("turn_scores") or []
    if len(rows) < 2:
        return None
    evals = [evaluations(s) for _, s in rows]
    seats = len(evals[0])
    out = 0.0
    for i in range(seats):
        xs = [e[i] for e in evals]
        m = sum(xs) / len(xs)
        out += sum((x - m) ** 2 for x in xs) / len(xs)
    return out / seats


FRACTIONS = (0.1, 0.25, 0.5, 0.75, 0.9)


def decided(lines: list[dict]) -> dict:
    """When the games were decided (:data:`DEFINITIONS`): the chance the leader at each
    turn end wins, by turn and at fractions of each game's length; lead changes by turn;
    decisiveness moves and stability per game."""
    by_turn: dict[int, list[float]] = defaultdict(list)
    by_fraction: dict[float, list[float]] = defaultdict(list)
    changed: dict[int, list[int]] = defaultdict(list)
    dm, st = [], []
    for line in lines:
        rows = line.get("turn_scores") or []
        winners = _winner_seats(line)
        before = None
        for turn, scores in rows:
            now = leaders(scores)
            if now is not None:
                if before is not None:
                    changed[turn].append(int(now != before))
                before = now
            if winners:
                won = _leader_won(scores, winners)
                if won is not None:
                    by_turn[turn].append(won)
        if winners and rows:
            for f in FRACTIONS:
                k = max(0, math.ceil(f * len(rows)) - 1)
                won = _leader_won(rows[k][1], winners)
                if won is not None:
                    by_fraction[f].append(won)
        d, s = decisiveness_moves(line), stability(line)
        if d is not None:
            dm.append(d)
        if s is not None:
            st.append(s)

    def share(values: list[float]) -> dict:
        k, n = sum(values), len(values)
        return {"games": n, "share": rounded(k / n), "ci95": [rounded(x) for x in wilson(k, n)]}

    return {
        "leader_wins_by_turn": [{"turn": t, **share(v)} for t, v in sorted(by_turn.items())],
        "leader_wins_by_fraction": [{"fraction": f, **share(by_fraction[f])} for f in FRACTIONS if by_fraction[f]],
        "lead_change_by_turn": [{"turn": t, **share([float(x) for x in v])} for t, v in sorted(changed.items())],
        "decisiveness_moves": describe(dm, bounds=(0, 1)),
        "stability": describe(st, bounds=(0, 1)),
    }


# =========================================================================== decisions


def decisions(lines: list[dict]) -> dict | None:
    """What a decision is (:data:`DEFINITIONS`): options per decision over all decisions
    and per game, the forced share, by kind; state size and the hidden share."""
    tracked = [ln["design"] for ln in lines if "decision_kinds" in (ln.get("design") or {})]
    if not tracked:
        return None
    n = len(tracked)
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    per_game_branching = []
    sizes, hidden = [], []
    for d in tracked:
        total = [0, 0, 0]
        for kind, row in d["decision_kinds"].items():
            for i in range(3):
                kinds[kind][i] += row[i]
                total[i] += row[i]
        if total[0]:
            per_game_branching.append(total[1] / total[0])
        views = d.get("views") or []
        if views:
            sizes.append(sum(v[1] for v in views) / len(views))
            hidden.append(sum(h / v[1] for v in views for h in v[2]) / sum(len(v[2]) for v in views)
                          if any(v[2] for v in views) else 0.0)
    all_dec = sum(r[0] for r in kinds.values())
    all_opt = sum(r[1] for r in kinds.values())
    forced = sum(r[2] for r in kinds.values())
    return {
        "games": n,
        "decisions": all_dec,
        "branching": rounded(all_opt / all_dec) if all_dec else None,
        "branching_per_game": describe(per_game_branching),
        "forced_share": rounded(forced / all_dec) if all_dec else None,
        "by_kind": {k: {"decisions": r[0], "per_game": rounded(r[0] / n, 3), "share": rounded(r[0] / all_dec),
                        "options": rounded(r[1] / r[0], 3) if r[0] else None,
                        "forced_share": rounded(r[2] / r[0]) if r[0] else None}
                    for k, r in sorted(kinds.items(), key=lambda kv: -kv[1][0])},
        "state_size": describe(sizes),
        "hidden_share": describe(hidden, bounds=(0, 1)),
    }


def figures(lines: list[dict]) -> dict:
    """Every figure of this module, as ``summary.json`` keeps them under ``design``."""
    out = {"decided": decided(lines), "usage": usage(lines)}
    dec = decisions(lines)
    if dec is not None:
        out["decisions"] = dec
    fac = by_faction(lines)
    if fac is not None:
        out["by_faction"] = fac
    out["definitions"] = DEFINITIONS
    return out
