"""What a simulation measures: the figures over many games.

Two halves, joined by one plain-JSON line per game (``games.jsonl``):

* **Watching a game.**  :func:`realms.core.stats.watch` taps a state's append-only event
  list for a :class:`~realms.core.stats.Watcher`.  A game's own watcher
  (``Game.watcher``, :func:`watcher_for`) keeps the few numbers its report sections need
  under the line's ``"stats"`` key; the runner's score track keeps each seat's score at
  every turn end (``"turn_scores"``) and its design track what :mod:`realms.sim.design`
  needs (``"design"``).  Nothing in the rules code knows it is watched.
* **Figures.**  :func:`figures` turns a list of game lines into ``summary.json``'s
  figures: those every game has (win shares, scores, length, the outcome metrics of
  :func:`outcomes`, a designer's figures of :mod:`realms.sim.design`) and the game's own
  report sections.  Each figure is a small function of the lines, tested on hand-made
  inputs.

Intervals are 95%: Wilson's for shares (wins, rates), the normal approximation
(mean ± 1.96·sd/√n, clipped to the metric's range) for means.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from realms.core.stats import Watcher, counts, describe, mean_ci, rounded, wilson

# =========================================================================== watching


def watcher_for(game) -> Watcher:
    """A fresh watcher for one game of ``game`` (a :class:`~realms.core.game.Game`): its
    own, or the generic one (nothing beyond scores and seats)."""
    return game.watcher() if game.watcher is not None else Watcher()


# =========================================================================== figures


def win_share_by_seat(lines: list[dict]) -> list[dict]:
    """Per seat: games, wins (a shared victory split evenly), the share and its Wilson
    95% interval, and the bots that sat there."""
    seats: dict[int, dict] = {}
    for line in lines:
        winners = set(line["winners"])
        bots = line.get("bots") or []
        for i, name in enumerate(line["players"]):
            st = seats.setdefault(i, {"seat": i + 1, "games": 0, "wins": 0.0, "bots": Counter()})
            st["games"] += 1
            if name in winners:
                st["wins"] += 1 / len(winners)
            if i < len(bots):
                st["bots"][bots[i]] += 1
    out = []
    for i in sorted(seats):
        st = seats[i]
        lo, hi = wilson(st["wins"], st["games"])
        out.append({"seat": st["seat"], "games": st["games"], "wins": rounded(st["wins"]),
                    "share": rounded(st["wins"] / st["games"]), "ci95": [rounded(lo), rounded(hi)],
                    "bots": dict(sorted(st["bots"].items()))})
    return out


def score_distribution(lines: list[dict]) -> dict:
    """Per seat: the summary of final scores and their distribution (``{score: games}``);
    the same for the winner's score (the seat that won, not the top score: a mission may
    win with fewer points; a shared victory counts its lowest winner once) and the margin
    of victory, the winner's score less the best score of a seat that did not win
    (negative where a winner had fewer).  Games without a winner, or where every seat
    won, have neither."""
    by_seat: dict[int, list] = defaultdict(list)
    winning, margins = [], []
    for line in lines:
        scores = [line["scores"][name] for name in line["players"]]
        for i, v in enumerate(scores):
            by_seat[i].append(v)
        won = set(line.get("winners") or ())
        ours = [line["scores"][name] for name in line["players"] if name in won]
        theirs = [line["scores"][name] for name in line["players"] if name not in won]
        if ours:
            winning.append(min(ours))
            if theirs:
                margins.append(min(ours) - max(theirs))
    return {
        "by_seat": [{"seat": i + 1, **describe(v), "counts": counts(v)} for i, v in sorted(by_seat.items())],
        "winner": {**describe(winning), "counts": counts(winning)},
        "margin": {**describe(margins), "counts": counts(margins)},
    }


def game_length(lines: list[dict]) -> dict:
    """Turns and decisions per game, each summarised (:func:`describe`)."""
    return {"turns": describe([line.get("turns") or 0 for line in lines]),
            "decisions": describe([line.get("decisions", 0) for line in lines])}


# =========================================================================== outcome metrics

#: What each outcome metric means, in the words the report page shows (and
#: ``summary.json`` keeps).  In brackets, the metric of the Ludii general game system's
#: evaluation (``Evaluation/src/metrics``) each one follows, and how it differs.
OUTCOME_DEFINITIONS = {
    "balance": "1 − the largest gap in win share between two seats. 1: every seat wins equally "
               "often; 0: one seat always wins and another never does. A shared victory counts as a "
               "fraction of a win for each winner. (Ludii: Balance, which counts only outright wins.)",
    "seat_advantage": "Each seat's win share less its fair share, 1 / seats; flagged where the fair "
                      "share lies outside the seat's 95% Wilson interval. (Ludii: AdvantageP1, the "
                      "first seat's win rate, here for every seat.)",
    "completion": "Share of games that reached the game's own end with a single winner. (Ludii: "
                  "Completion.)",
    "shared": "Share of games that reached their end with the victory shared: a tie the game's "
              "tie-breaks left standing. (Ludii: Drawishness.)",
    "timeouts": "Share of games stopped before the game's own end by a limit on turns or decisions "
                "(a game line that is not over, or whose result says timed_out). (Ludii: Timeouts.)",
    "duration": "Turns and decisions per game: mean, standard deviation, range. Decisions are the "
                "answers players gave; what the engine settles alone is not counted. (Ludii: "
                "DurationTurns, DurationTurnsStdDev, DurationMoves.)",
    "lead_changes": "The leaders at a turn end are the seats with the highest score then. A lead "
                    "change is a turn end whose leaders differ from those at the previous turn end "
                    "where someone led; turn ends where every seat is level are passed over. Per game, "
                    "and per turn end after the first. (Ludii: LeadChange, which takes the leader from "
                    "a search's evaluation after every move rather than the score at every turn end.)",
    "decisiveness": "A seat's standing at a turn end is its score as a share of the leader's score "
                    "then: 1 for the leader and any seat level with it, a negative score counting 0; "
                    "turn ends where every seat is level or the leader's score is not positive have no "
                    "standings. A game's decisiveness threshold is the highest standing any seat that "
                    "did not win reached at a turn end: near 1, the losers were once level with the "
                    "lead; low, the winners were never challenged. “Non-winner led”: the share of games "
                    "in which a seat that did not win held or shared the lead at some turn end. "
                    "(Ludii: Decisiveness Threshold, with the standing in place of a search's "
                    "evaluation.) The threshold is near 1 in almost every game of every game here, "
                    "so it is kept in summary.json only; the table shows decisiveness moves, when the "
                    "winner's share first passed it (defined below).",
}


def leaders(scores: list[float]) -> frozenset | None:
    """The seats with the highest score, or ``None`` when every seat has it (nobody leads)."""
    top = max(scores)
    lead = frozenset(i for i, v in enumerate(scores) if v == top)
    return None if len(lead) == len(scores) else lead


def standings(scores: list[float]) -> list[float] | None:
    """Each seat's standing: its score as a share of the leader's (1 for the leader and a
    seat level with it; a negative score counts 0).  ``None`` when nobody leads (every
    seat level) or the leader's score is not positive: no share to take."""
    top = max(scores)
    if top <= 0 or leaders(scores) is None:
        return None
    return [max(v, 0) / top for v in scores]


def lead_changes(turn_scores: list) -> int:
    """How often the lead changed hands over ``turn_scores`` (``[[turn, [score of each
    seat]], …]``): turn ends whose leaders differ from those at the previous turn end at
    which someone led; turn ends where every seat is level are passed over."""
    changes = 0
    before = None
    for _, scores in turn_scores:
        now = leaders(scores)
        if now is None:
            continue
        if before is not None and now != before:
            changes += 1
        before = now
    return changes


def decisiveness(line: dict) -> float | None:
    """The highest standing (:func:`standings`) a seat that did not win reached at any turn
    end of the game ``line``; ``None`` for a game without a winner, where everyone won,
    or with no turn end that has standings."""
    winners = set(line.get("winners") or ())
    losers = [i for i, name in enumerate(line["players"]) if name not in winners]
    if not winners or not losers:
        return None
    best = None
    for _, scores in line.get("turn_scores") or ():
        st = standings(scores)
        if st is not None:
            top = max(st[i] for i in losers)
            best = top if best is None else max(best, top)
    return best


def balance(shares: list[float]) -> float:
    """1 − the largest gap between two seats' win shares (1 for fewer than two seats)."""
    return 1 - (max(shares) - min(shares)) if len(shares) > 1 else 1.0


def _share(k: float, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"games": k, "of": n, "share": rounded(k / n) if n else None, "ci95": [rounded(lo), rounded(hi)]}


def outcomes(lines: list[dict]) -> dict:
    """The outcome metrics every game has (:data:`OUTCOME_DEFINITIONS`), and the seat
    effect as one test (:func:`realms.sim.design.seat_effect`)."""
    from .design import DEFINITIONS, seat_effect

    n = len(lines)
    seats = win_share_by_seat(lines)
    fair = 1 / len(seats) if seats else None
    advantage = [{"seat": s["seat"], "share": s["share"], "fair_share": rounded(fair),
                  "advantage": rounded(s["share"] - fair), "ci95": s["ci95"],
                  "advantage_ci95": [rounded(s["ci95"][0] - fair), rounded(s["ci95"][1] - fair)],
                  "unfair": not (s["ci95"][0] <= fair <= s["ci95"][1])} for s in seats]
    ended = [ln for ln in lines if ln.get("over", True) and not ln.get("timed_out")]
    single = sum(1 for ln in ended if len(ln["winners"]) == 1)
    shared = sum(1 for ln in ended if len(ln["winners"]) > 1)
    tracked = [ln for ln in lines if ln.get("turn_scores")]
    changes = [lead_changes(ln["turn_scores"]) for ln in tracked]
    per_turn = [c / (len(ln["turn_scores"]) - 1) for c, ln in zip(changes, tracked) if len(ln["turn_scores"]) > 1]
    thresholds = [d for d in (decisiveness(ln) for ln in tracked) if d is not None]
    return {
        "games": n,
        "balance": rounded(balance([s["share"] for s in seats])) if seats else None,
        "seat_advantage": advantage,
        "completion": _share(single, n),
        "shared": _share(shared, n),
        "timeouts": _share(n - len(ended), n),
        "duration": game_length(lines),
        "lead_changes": {"games": len(tracked), "per_game": describe(changes), "per_turn_end": mean_ci(per_turn, bounds=(0, 1)),
                         "games_with_a_change": _share(sum(1 for c in changes if c), len(tracked))},
        "seat_effect": seat_effect(seats),
        "decisiveness": {"games": len(thresholds), "threshold": describe(thresholds, bounds=(0, 1)),
                         "non_winner_led": _share(sum(1 for d in thresholds if d >= 1), len(thresholds))},
        "definitions": {**OUTCOME_DEFINITIONS, "seat_effect": DEFINITIONS["seat_effect"]},
    }


# =========================================================================== all figures


def game_sections(lines: list[dict]) -> tuple:
    """The report sections (``Game.report_sections``) of the one game these lines are
    of; none for lines of several games or of no registered game."""
    ids = {ln.get("game") for ln in lines}
    if len(ids) != 1:
        return ()
    from realms.core.game import games

    game = games().get(str(ids.pop()))
    return tuple(game.report_sections()) if game is not None and game.report_sections else ()


def figures(lines: list[dict], sections: tuple | None = None) -> dict:
    """Every figure for these games (lines in any order: they are sorted by seed): those
    every game has, then each report section's (``sections``; default: the game's own)."""
    from .design import figures as design_figures

    lines = sorted(lines, key=lambda ln: ln["seed"])
    out: dict[str, Any] = {
        "games": len(lines),
        "win_share_by_seat": win_share_by_seat(lines),
        "scores": score_distribution(lines),
        "outcomes": outcomes(lines),
        "design": design_figures(lines),
    }
    for section in game_sections(lines) if sections is None else sections:
        figure = section.figure(lines)
        if figure is not None:
            out[section.key] = figure
    return out
