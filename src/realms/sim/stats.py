"""What a simulation measures: per-game watchers, and the figures over many games.

Two halves, joined by one plain-JSON line per game (``games.jsonl``):

* **Watching a game.**  :func:`watch` taps a state's append-only event list: a
  :class:`Watcher` sees every event as it is logged, with the live state beside it, the
  end of every turn (the state just before the first event of the next turn, and the
  final state), and — when the batch runner plays the game — every decision and the
  index answered.  A game's watcher (:data:`WATCHERS`) keeps the few numbers the figures
  need under the line's ``"stats"`` key; nothing in the rules code knows it is watched.
* **Figures.**  :func:`figures` turns a list of game lines into ``summary.json``'s
  figures.  Each figure is a small function of the lines, tested on hand-made inputs.

Intervals are 95%: Wilson's for shares (wins, rates), the normal approximation
(mean ± 1.96·sd/√n) for means.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import Any, Callable, Iterable

Z95 = 1.96


# =========================================================================== arithmetic


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the share ``successes / n`` (fractional successes allowed:
    a shared victory counts as a fraction of a win)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: list[float], z: float = Z95) -> dict:
    """``n``, ``mean``, ``sd`` (sample) and the 95% interval ``ci95`` of the mean."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "ci95": [None, None]}
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else 0.0
    return {"n": n, "mean": _r(m), "sd": _r(sd), "ci95": [_r(m - half), _r(m + half)]}


def quantile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default) of already sorted values."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: list[float]) -> dict:
    """Mean with its interval, and the five-number summary of ``values``."""
    out = mean_ci(values)
    if values:
        s = sorted(values)
        out.update({"min": s[0], "q1": _r(quantile(s, 0.25)), "median": _r(quantile(s, 0.5)),
                    "q3": _r(quantile(s, 0.75)), "max": s[-1]})
    return out


def counts(values: Iterable) -> dict:
    """``{value: how often}``, keys as strings in ascending value order (JSON objects)."""
    c = Counter(values)
    return {str(k): c[k] for k in sorted(c)}


def _r(x: float | None, nd: int = 4) -> float | None:
    return None if x is None else round(x, nd)


# =========================================================================== watching


class Watcher:
    """Sees one game being played; :meth:`data` is what its line keeps under ``"stats"``."""

    kind = "generic"

    def on_event(self, state, event) -> None:
        """``event`` is about to be appended to ``state.events``."""

    def on_decision(self, state, decision, index: int) -> None:
        """``decision`` is about to be answered with option ``index``."""

    def on_turn_end(self, state, turn: int) -> None:
        """Turn ``turn`` is over; ``state`` is as it ended (its own turn counter may
        already show the next turn)."""

    def finish(self, state) -> None:
        """The game is over (after the last :meth:`on_turn_end`)."""

    def data(self) -> dict:
        return {"kind": self.kind}


class _Tap(list):
    """An event list that tells a callback about each event before appending it."""

    __slots__ = ("callback",)

    def append(self, event) -> None:  # noqa: D401 - list API
        self.callback(event)
        list.append(self, event)


class Watch:
    """The tap on one state; :func:`watch` makes it, :meth:`close` ends it."""

    def __init__(self, state, watcher: Watcher) -> None:
        self.state = state
        self.watcher = watcher
        self.turn = None
        self.closed = False
        earlier = list(state.events)
        tap = _Tap(earlier)
        tap.callback = self._event
        state.events = tap
        for e in earlier:  # events logged before the tap (the game's opening)
            self._event(e)

    def _event(self, event) -> None:
        if self.turn is not None and event.turn != self.turn:
            self.watcher.on_turn_end(self.state, self.turn)
        self.turn = event.turn
        self.watcher.on_event(self.state, event)

    def close(self) -> None:
        """The game is over: the last turn ends and the watcher finishes."""
        if self.closed:
            return
        self.closed = True
        if self.turn is not None:
            self.watcher.on_turn_end(self.state, self.turn)
        self.watcher.finish(self.state)
        self.state.events = list(self.state.events)


def watch(state, watcher: Watcher) -> Watch:
    """Tap ``state``'s events for ``watcher`` (events already logged are shown first)."""
    return Watch(state, watcher)


# --------------------------------------------------------------------------- Hy Breasil

#: Field order of one row of a Hy Breasil line's ``battles`` tally.
BATTLE_FIELDS = ("terrain", "attackers", "defenders", "attacker_race", "defender_race", "fervour",
                 "city", "battles", "attacker_won", "retreated", "off_policy")


class HyBreasilWatcher(Watcher):
    """Nations (birth, fall, race, origin), land by turn, table-1 events, battles.

    * ``nations``: ``[id, name, race, owner, born, died, origin]`` — ``died`` is ``None``
      for a nation still on the board at the end; ``origin`` is ``enters`` (from the sea,
      §5), ``civil-war`` (§6.1) or ``split`` (cut off, §6.4).
    * ``turns``: per turn end, ``seat_areas`` (land areas of each seat's nations) and
      ``nations`` (``{id: land areas}``, nations holding land).
    * ``events``: per table-1 event rolled after a nation's first turn, how often it
      ``came_up``, how often the owner ``rerolled`` it away (§6.1), and for those
      accepted the ``delta`` distribution (``{change: times}``): the nation's land areas
      at the end of that turn less those at the end of the turn before (0 once fallen).
      ``first_turn`` counts the automatic Strong leaders of first turns.
    * ``battles``: a tally, one row per kind of battle (:data:`BATTLE_FIELDS`): how
      many, how many the attacker won (took the area), in how many a side retreated, in
      how many a hit assignment left the enemy with more than the fewest units (off the
      ``greedy`` policy the exact odds assume).
    """

    kind = "hy-breasil"

    def __init__(self) -> None:
        self.nations: dict[int, list] = {}
        self.turns: list[dict] = []
        self.areas: dict[int, dict[int, int]] = {}
        self.events: list[list] = []
        self.first_turn = 0
        self.tally: dict[tuple, list[int]] = {}
        self.battle: list | None = None  # [key, retreated, off_policy]

    def _born(self, state, nid: int, turn: int, origin: str) -> None:
        n = state.nations.get(nid)
        if nid not in self.nations and n is not None:
            self.nations[nid] = [nid, n.name, n.race, n.owner, turn, None, origin]

    def on_event(self, state, e) -> None:
        k = e.kind
        d = e.data
        if k == "nation-enters":
            self._born(state, d["nation"], e.turn, "enters")
        elif k == "civil-war":
            self._born(state, d["new_nation"], e.turn, "civil-war")
        elif k == "nation-splits":
            self._born(state, d["new_nation"], e.turn, "split")
        elif k == "nation-removed":
            rec = self.nations.get(d["nation"])
            if rec is not None:
                rec[5] = e.turn
        elif k == "race":
            rec = self.nations.get(d["nation"])
            if rec is not None:
                rec[2] = d["race"]
        elif k == "event":
            if d.get("first_turn"):
                self.first_turn += 1
            else:
                self.events.append([e.turn, d["nation"], d["event"], True, None])
        elif k == "event-reroll":
            self.events.append([e.turn, d["nation"], d["event"], False, None])
        elif k == "battle":
            att = state.nations[d["nation"]]
            dfd = state.nations[d["defender"]]
            city = bool(state.battle and state.battle_json()["city"])
            key = (d["terrain"], d["attackers"], d["defenders"], att.race or "", dfd.race or "",
                   int(bool(att.fervour)), int(city))
            self.battle = [key, False, False]
        elif k == "battle-result" and self.battle is not None:
            key, retreated, off = self.battle
            row = self.tally.setdefault(key, [0, 0, 0, 0])
            row[0] += 1
            row[1] += d["winner"] == "attacker"
            row[2] += retreated
            row[3] += off
            self.battle = None

    def on_decision(self, state, decision, index: int) -> None:
        if self.battle is None:
            return
        if decision.kind == "hb.retreat" and index > 0:
            self.battle[1] = True
        elif decision.kind == "hb.assign-hits":
            keys = decision.keys
            greedy = max(range(len(keys)), key=lambda i: int(keys[i][1:].split("w")[0]))
            if index != greedy:
                self.battle[2] = True

    def on_turn_end(self, state, turn: int) -> None:
        seat_areas = [0] * len(state.names)
        areas = {}
        for nid, n in state.nations.items():
            held = bin(n.land).count("1")
            rec = self.nations.get(nid)
            if rec is not None:
                rec[2] = n.race if n.race is not None else rec[2]
                rec[3] = n.owner
            if held:
                areas[nid] = held
                if n.owner >= 0:
                    seat_areas[n.owner] += held
        self.areas[turn] = areas
        self.turns.append({"turn": turn, "seat_areas": seat_areas,
                           "nations": {str(k): v for k, v in sorted(areas.items())}})

    def finish(self, state) -> None:
        tally: dict[str, dict] = {}
        for turn, nid, name, accepted, _ in self.events:
            row = tally.setdefault(name, {"came_up": 0, "rerolled": 0, "delta": Counter()})
            row["came_up"] += 1
            if accepted:
                row["delta"][self.areas.get(turn, {}).get(nid, 0) - self.areas.get(turn - 1, {}).get(nid, 0)] += 1
            else:
                row["rerolled"] += 1
        self.event_tally = {name: {**row, "delta": counts(row["delta"].elements())}
                            for name, row in sorted(tally.items())}

    def data(self) -> dict:
        return {
            "kind": self.kind,
            "nations": [self.nations[k] for k in sorted(self.nations)],
            "turns": self.turns,
            "events": getattr(self, "event_tally", {}),
            "first_turn": self.first_turn,
            "battles": [[*key, *row] for key, row in sorted(self.tally.items())],
        }


# --------------------------------------------------------------------------- Brian Boru


def point_source(why: str) -> str:
    """A Brian Boru scoring reason as a source: ``claim token of Munster`` → ``claim
    tokens``, ``towns in 5 regions`` → ``regions``; other reasons are their own source."""
    if why.startswith("half the claim token"):
        return "claim tokens (shared)"
    if why.startswith("claim token"):
        return "claim tokens"
    if re.fullmatch(r"towns in \d+ regions?", why):
        return "regions"
    return why


class BrianBoruWatcher(Watcher):
    """Points by source and seat (``points``: ``{source: [points of seat 0, …]}``):
    ``starting points`` (what players hold before anything is scored), each scoring
    reason (:func:`point_source`), ``paid away`` (points lost paying for an action
    without coins), and ``other`` for anything these do not explain (none so far)."""

    kind = "brian-boru"

    def __init__(self) -> None:
        self.points: dict[str, list[int]] = {}
        self.start: list[int] | None = None

    def on_event(self, state, e) -> None:
        if self.start is None:
            self.start = list(state.points)
        if e.kind == "points":
            row = self.points.setdefault(point_source(e.data["why"]), [0] * len(state.names))
            row[e.data["player"]] += e.data["points"]
        elif e.kind == "pay" and "points" in e.data:
            row = self.points.setdefault("paid away", [0] * len(state.names))
            row[e.data["player"]] -= e.data["points"]

    def finish(self, state) -> None:
        res = state.result()
        n = len(res["players"])
        start = (self.start or []) + [0] * (n - len(self.start or []))
        if any(start):
            self.points["starting points"] = start
        totals = [0] * n
        for row in self.points.values():
            row.extend([0] * (n - len(row)))
            for p in range(n):
                totals[p] += row[p]
        rest = [res["scores"][name] - totals[p] for p, name in enumerate(res["players"])]
        if any(rest):
            self.points["other"] = rest

    def data(self) -> dict:
        return {"kind": self.kind, "points": dict(sorted(self.points.items()))}


#: A game's watcher by game id; other games get the generic one (scores and seats only).
WATCHERS: dict[str, Callable[[], Watcher]] = {
    "hy-breasil": HyBreasilWatcher,
    "brian-boru": BrianBoruWatcher,
}


def watcher_for(game_id: str) -> Watcher:
    return WATCHERS.get(game_id, Watcher)()


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
        out.append({"seat": st["seat"], "games": st["games"], "wins": _r(st["wins"]),
                    "share": _r(st["wins"] / st["games"]), "ci95": [_r(lo), _r(hi)],
                    "bots": dict(sorted(st["bots"].items()))})
    return out


def score_distribution(lines: list[dict]) -> dict:
    """Per seat: the summary of final scores and their distribution (``{score: games}``);
    the same for the winners' scores and the margin of victory over the runner-up."""
    by_seat: dict[int, list] = defaultdict(list)
    winning, margins = [], []
    for line in lines:
        scores = [line["scores"][name] for name in line["players"]]
        for i, v in enumerate(scores):
            by_seat[i].append(v)
        top = sorted(scores, reverse=True)
        winning.append(top[0])
        margins.append(top[0] - top[1] if len(top) > 1 else top[0])
    return {
        "by_seat": [{"seat": i + 1, **describe(v), "counts": counts(v)} for i, v in sorted(by_seat.items())],
        "winner": {**describe(winning), "counts": counts(winning)},
        "margin": {**describe(margins), "counts": counts(margins)},
    }


def game_length(lines: list[dict]) -> dict:
    return {"turns": describe([line.get("turns") or 0 for line in lines]),
            "decisions": describe([line.get("decisions", 0) for line in lines])}


def _hb(lines: list[dict]) -> list[dict]:
    return [line["stats"] for line in lines if line.get("stats", {}).get("kind") == "hy-breasil"]


def nation_lifetimes(lines: list[dict]) -> dict:
    """How many turns nations last: a nation lives from the turn it appears to the turn it
    falls, both counted (1 = gone in its first turn); one still standing at the end
    counts to the last turn and is *censored* (its lifetime is at least that).

    ``overall``, ``by_race`` and ``by_origin``: nations, fallen, the share surviving
    to the end, the summary of lifetimes (all nations, censored at the end), the same for
    the fallen only, and the distribution ``{turns: nations}`` of each.
    """
    groups: dict[str, dict[str, list]] = defaultdict(lambda: {"all": [], "fallen": []})
    for line in lines:
        st = line.get("stats", {})
        if st.get("kind") != "hy-breasil":
            continue
        last = line.get("turns") or (st["turns"][-1]["turn"] if st["turns"] else 0)
        for nid, name, race, owner, born, died, origin in st["nations"]:
            life = (died if died is not None else last) - born + 1
            for key in ("overall", f"race:{race or 'none'}", f"origin:{origin}"):
                groups[key]["all"].append(life)
                if died is not None:
                    groups[key]["fallen"].append(life)

    def summarise(g: dict) -> dict:
        n, fallen = len(g["all"]), len(g["fallen"])
        return {"nations": n, "fallen": fallen, "survived_share": _r((n - fallen) / n) if n else None,
                "lifetime": describe(g["all"]), "lifetime_fallen": describe(g["fallen"]),
                "counts": counts(g["all"]), "counts_fallen": counts(g["fallen"])}

    return {
        "overall": summarise(groups["overall"]),
        "by_race": {k[5:]: summarise(v) for k, v in sorted(groups.items()) if k.startswith("race:")},
        "by_origin": {k[7:]: summarise(v) for k, v in sorted(groups.items()) if k.startswith("origin:")},
    }


def table1_events(lines: list[dict]) -> dict:
    """Table 1 (§6.1): how often each event came up after a nation's first turn, how often
    its owner turned it away (reroll), and — for those accepted — the change in the
    nation's land areas over that turn (areas at its end less areas at the end of the turn
    before; a nation that fell ends with 0).  ``baseline`` is that change over all accepted
    events; ``vs_baseline`` an event's mean less the baseline."""
    stats = _hb(lines)
    games = len(stats)
    came: Counter = Counter()
    rerolled: Counter = Counter()
    deltas: dict[str, list[int]] = defaultdict(list)
    first = 0
    for st in stats:
        first += st.get("first_turn", 0)
        for name, row in st["events"].items():
            came[name] += row["came_up"]
            rerolled[name] += row["rerolled"]
            for change, times in row["delta"].items():
                deltas[name].extend([int(change)] * times)
    every = [d for v in deltas.values() for d in v]
    base = mean_ci(every)
    out = {}
    total = sum(came.values())
    for name in sorted(came):
        eff = mean_ci(deltas[name])
        out[name] = {"came_up": came[name], "share": _r(came[name] / total) if total else None,
                     "per_game": _r(came[name] / games) if games else None,
                     "rerolled": rerolled[name], "accepted": len(deltas[name]),
                     "area_change": eff,
                     "vs_baseline": _r(eff["mean"] - base["mean"]) if eff["n"] and base["n"] else None}
    return {"games": games, "rolled": total, "first_turn_strong_leader": first, "baseline": base,
            "events": out}


def areas_by_turn(lines: list[dict]) -> dict:
    """Per turn: mean land areas held by each seat's nations, by all nations, and the mean
    number of nations holding land (over the games that reached the turn)."""
    per: dict[int, dict] = {}
    for st in _hb(lines):
        for row in st["turns"]:
            t = row["turn"]
            if t < 1:
                continue
            acc = per.setdefault(t, {"games": 0, "seat": [], "total": 0, "nations": 0})
            acc["games"] += 1
            seats = row["seat_areas"]
            if len(acc["seat"]) < len(seats):
                acc["seat"].extend([0] * (len(seats) - len(acc["seat"])))
            for i, v in enumerate(seats):
                acc["seat"][i] += v
            acc["total"] += sum(row["nations"].values())
            acc["nations"] += len(row["nations"])
    return {"turns": [
        {"turn": t, "games": a["games"], "seat_areas": [_r(v / a["games"], 3) for v in a["seat"]],
         "all_nations": _r(a["total"] / a["games"], 3), "nations_holding_land": _r(a["nations"] / a["games"], 3)}
        for t, a in sorted(per.items())]}


def _exact_cache() -> Callable[[tuple], float | None]:
    from realms.games.hy_breasil.odds import OddsError, solve

    cache: dict[tuple, float | None] = {}

    def p(key: tuple) -> float | None:
        if key not in cache:
            terrain, a, d, ar, dr, fervour, city = key
            try:
                cache[key] = solve(a, d, terrain=terrain, fervour=bool(fervour), attacker_race=ar or None,
                                   defender_race=dr or None, city=bool(city)).attacker_takes_area
            except OddsError:
                cache[key] = None
        return cache[key]

    return p


def battles(lines: list[dict], exact: Callable[[tuple], float | None] | None = None) -> dict:
    """Battles and the attacker's win rate by terrain, against the exact odds.

    ``exact(key)`` is the attacker's chance of taking the area for a battle of that kind
    (default: :func:`realms.games.hy_breasil.odds.solve`, policy ``greedy``, nobody
    retreating).  Per terrain: battles, the attacker's wins (took the area), the observed
    rate with its Wilson interval, the expected rate (mean exact chance), and ``z``, the
    gap in standard errors of the expected count.  The exact odds assume greedy hit
    assignment and no retreat; ``retreated`` and ``off_policy`` count the battles where
    the bots did otherwise (random bots do, and then the rates need not agree).
    """
    exact = exact or _exact_cache()
    stats = _hb(lines)
    by: dict[str, dict] = {}
    sizes: list[int] = []
    for st in stats:
        total = 0
        for row in st["battles"]:
            rec = dict(zip(BATTLE_FIELDS, row))
            key = tuple(row[:7])
            p = exact(key)
            for name in (rec["terrain"], "all"):
                acc = by.setdefault(name, {"battles": 0, "won": 0, "retreated": 0, "off_policy": 0,
                                           "expected": 0.0, "variance": 0.0, "unsolved": 0})
                acc["battles"] += rec["battles"]
                acc["won"] += rec["attacker_won"]
                acc["retreated"] += rec["retreated"]
                acc["off_policy"] += rec["off_policy"]
                if p is None:
                    acc["unsolved"] += rec["battles"]
                else:
                    acc["expected"] += p * rec["battles"]
                    acc["variance"] += p * (1 - p) * rec["battles"]
            total += rec["battles"]
        sizes.append(total)
    out = {}
    for name in sorted(by, key=lambda k: (k == "all", k)):
        a = by[name]
        n = a["battles"]
        lo, hi = wilson(a["won"], n)
        solved = n - a["unsolved"]
        out[name] = {"battles": n, "attacker_won": a["won"], "rate": _r(a["won"] / n) if n else None,
                     "ci95": [_r(lo), _r(hi)],
                     "expected_rate": _r(a["expected"] / solved) if solved else None,
                     "z": _r((a["won"] - a["expected"]) / math.sqrt(a["variance"]), 2)
                     if a["variance"] > 0 and not a["unsolved"] else None,
                     "retreated": a["retreated"], "off_policy": a["off_policy"], "unsolved": a["unsolved"]}
    return {"per_game": describe(sizes), "by_terrain": out}


def points_by_source(lines: list[dict]) -> dict:
    """Brian Boru: mean points per game from each source, by seat and in all, and each
    source's share of all points scored."""
    stats = [ln["stats"] for ln in lines if ln.get("stats", {}).get("kind") == "brian-boru"]
    games = len(stats)
    sums: dict[str, list[float]] = {}
    for st in stats:
        for source, row in st["points"].items():
            acc = sums.setdefault(source, [])
            if len(acc) < len(row):
                acc.extend([0] * (len(row) - len(acc)))
            for i, v in enumerate(row):
                acc[i] += v
    grand = sum(sum(v) for v in sums.values())
    return {"games": games, "sources": {
        s: {"per_game_by_seat": [_r(v / games, 3) for v in row], "per_game": _r(sum(row) / games, 3),
            "share": _r(sum(row) / grand) if grand else None}
        for s, row in sorted(sums.items(), key=lambda kv: -sum(kv[1]))} if games else {}}


def figures(lines: list[dict], exact: Callable[[tuple], float | None] | None = None) -> dict:
    """Every figure for these games (lines in any order: they are sorted by seed)."""
    lines = sorted(lines, key=lambda ln: ln["seed"])
    out: dict[str, Any] = {
        "games": len(lines),
        "win_share_by_seat": win_share_by_seat(lines),
        "scores": score_distribution(lines),
        "length": game_length(lines),
    }
    kinds = {ln.get("stats", {}).get("kind") for ln in lines}
    if "hy-breasil" in kinds:
        out["nations"] = nation_lifetimes(lines)
        out["table1_events"] = table1_events(lines)
        out["areas_by_turn"] = areas_by_turn(lines)
        out["battles"] = battles(lines, exact)
    if "brian-boru" in kinds:
        out["points_by_source"] = points_by_source(lines)
    return out
