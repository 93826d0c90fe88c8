"""Hy Breasil's statistics: what a simulation watches in each game, and the figures the
report shows from it (nations' lives, table-1 events, land by turn, battles against the
exact odds of ``odds.py``).

:class:`HyBreasilWatcher` keeps a game line's ``stats``; the figure functions read
those of many lines; ``report.py`` draws and describes them.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Callable

from realms.core.stats import Watcher, counts, describe, mean_ci, rounded, wilson

from .steps import GAME_ID


def scores_now(state) -> list[float]:
    """Each seat's VP now; in continuous play (§10.3) the corrected score the result
    ranks by (VP per turn played, RULINGS HB-Q45)."""
    if state.variant == "continuous":
        res = state.result()
        return [res["corrected_scores"][name] for name in res["players"]]
    return list(state.vp)


def factions(state) -> list[dict]:
    """What each seat was dealt (``Game.factions``): the race (§9.1) and the starting sea
    (§5) of its first nation; it survives while one of its nations holds land."""
    out = []
    for p in range(len(state.names)):
        mine = [n for nid, n in sorted(state.nations.items()) if n.owner == p]
        first = mine[0] if mine else None
        sea = first.start_sea if first is not None else None
        out.append({"race": (first.race or "none") if first is not None and state.races_on else None,
                    "starting sea": state.board.names[sea] if sea is not None else None,
                    "survives": any(n.land for n in mine)})
    return out


#: the events that show a rule or ability used, and what to call the use
USAGE = {"city-built": "city built (§9.3.1 City building)", "capital": "capital chosen (§9.3.1 Capital)",
         "civil-war": "civil war (§6.1)", "nation-splits": "nation cut off (§6.4)", "plague": "plague (§9.4)",
         "submission": "submission (§9.5)", "prophecy": "prophecy (§9.3.1)", "absorption": "absorption"}


def usage(event) -> str | list[str] | None:
    """The rule or ability ``event`` shows used (``Game.usage``): an ability gained by
    name (§9.3.1), a city built, a capital chosen, a civil war…; ``None``: every name."""
    from .abilities import NAMES

    if event is None:
        return [f"ability gained: {name}" for name in NAMES.values()] + list(USAGE.values())
    if event.kind == "ability":
        return f"ability gained: {NAMES.get(event.data.get('ability'), event.data.get('ability'))}"
    return USAGE.get(event.kind)


#: Field order of one row of a Hy Breasil line's ``battles`` tally.
BATTLE_FIELDS = ("terrain", "attackers", "defenders", "attacker_race", "defender_race", "fervour",
                 "city", "battles", "attacker_won", "retreated", "off_policy", "fought_out", "fought_out_won")


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
      ``greedy`` policy the exact odds assume), and how many were fought out as the exact
      odds assume (nobody retreating, every hit greedy) and won by the attacker.
    """

    kind = GAME_ID

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
            row = self.tally.setdefault(key, [0, 0, 0, 0, 0, 0])
            won = d["winner"] == "attacker"
            row[0] += 1
            row[1] += won
            row[2] += retreated
            row[3] += off
            if not retreated and not off:
                row[4] += 1
                row[5] += won
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


# =========================================================================== figures


def hb_stats(lines: list[dict]) -> list[dict]:
    """The ``stats`` of the lines that carry Hy Breasil's (its watcher's)."""
    return [line["stats"] for line in lines if line.get("stats", {}).get("kind") == GAME_ID]


def nation_lifetimes(lines: list[dict]) -> dict:
    """How many turns nations last: a nation lives from the turn it appears to the turn it
    falls, both counted (1 = gone in its first turn); one still standing at the end
    counts to the last turn and is *censored* (its lifetime is at least that).

    ``games`` and ``races_on``: the games, and those played with the races rule (§9.1).
    ``overall``, ``by_race`` and ``by_origin``: nations, fallen, the share surviving
    to the end, the summary of lifetimes (all nations, censored at the end), the same for
    the fallen only, and the distribution ``{turns: nations}`` of each.
    """
    groups: dict[str, dict[str, list]] = defaultdict(lambda: {"all": [], "fallen": []})
    games = races_on = 0
    for line in lines:
        st = line.get("stats", {})
        if st.get("kind") != GAME_ID:
            continue
        games += 1
        races_on += "races" in ((line.get("options") or {}).get("rules") or ())
        last = line.get("turns") or (st["turns"][-1]["turn"] if st["turns"] else 0)
        for nid, name, race, owner, born, died, origin in st["nations"]:
            life = (died if died is not None else last) - born + 1
            for key in ("overall", f"race:{race or 'none'}", f"origin:{origin}"):
                groups[key]["all"].append(life)
                if died is not None:
                    groups[key]["fallen"].append(life)

    def summarise(g: dict) -> dict:
        n, fallen = len(g["all"]), len(g["fallen"])
        return {"nations": n, "fallen": fallen, "survived_share": rounded((n - fallen) / n) if n else None,
                "lifetime": describe(g["all"]), "lifetime_fallen": describe(g["fallen"]),
                "counts": counts(g["all"]), "counts_fallen": counts(g["fallen"])}

    return {
        "games": games,
        "races_on": races_on,
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
    stats = hb_stats(lines)
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
        out[name] = {"came_up": came[name], "share": rounded(came[name] / total) if total else None,
                     "per_game": rounded(came[name] / games) if games else None,
                     "rerolled": rerolled[name], "accepted": len(deltas[name]),
                     "area_change": eff,
                     "vs_baseline": rounded(eff["mean"] - base["mean"]) if eff["n"] and base["n"] else None}
    return {"games": games, "rolled": total, "first_turn_strong_leader": first, "baseline": base,
            "events": out}


def areas_by_turn(lines: list[dict]) -> dict:
    """Per turn: mean land areas held by each seat's nations, by all nations, and the mean
    number of nations holding land (over the games that reached the turn)."""
    per: dict[int, dict] = {}
    for st in hb_stats(lines):
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
        {"turn": t, "games": a["games"], "seat_areas": [rounded(v / a["games"], 3) for v in a["seat"]],
         "all_nations": rounded(a["total"] / a["games"], 3), "nations_holding_land": rounded(a["nations"] / a["games"], 3)}
        for t, a in sorted(per.items())]}


def _exact_cache() -> Callable[[tuple], float | None]:
    from .odds import OddsError, solve

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
    """Battles and the attacker's win rate by terrain, against the exact odds, like with
    like.

    ``exact(key)`` is the attacker's chance of taking the area for a battle of that kind
    (default: :func:`realms.games.hy_breasil.odds.solve`, policy ``greedy``, nobody
    retreating).  Per terrain: battles, the attacker's wins (took the area) and the rate
    with its Wilson interval, over all battles; then the battles *fought out* as the
    solver assumes (no side retreated, every hit greedy), their rate and interval, the
    expected rate over those same battles (mean exact chance) and ``z``, the gap in
    standard errors of the expected count.  A battle someone left early is not one the
    exact odds describe, so it is counted (``retreated``, ``off_policy``) but not tested.
    """
    exact = exact or _exact_cache()
    stats = hb_stats(lines)
    by: dict[str, dict] = {}
    sizes: list[int] = []
    for st in stats:
        total = 0
        for row in st["battles"]:
            rec = dict(zip(BATTLE_FIELDS, row))
            if "fought_out" not in rec:  # a line from before the tally kept it: clean only if wholly so
                clean = not rec["retreated"] and not rec["off_policy"]
                rec["fought_out"] = rec["battles"] if clean else 0
                rec["fought_out_won"] = rec["attacker_won"] if clean else 0
            key = tuple(row[:7])
            p = exact(key)
            for name in (rec["terrain"], "all"):
                acc = by.setdefault(name, {"battles": 0, "won": 0, "retreated": 0, "off_policy": 0, "fought": 0,
                                           "fought_won": 0, "expected": 0.0, "variance": 0.0, "unsolved": 0})
                acc["battles"] += rec["battles"]
                acc["won"] += rec["attacker_won"]
                acc["retreated"] += rec["retreated"]
                acc["off_policy"] += rec["off_policy"]
                acc["fought"] += rec["fought_out"]
                acc["fought_won"] += rec["fought_out_won"]
                if p is None:
                    acc["unsolved"] += rec["fought_out"]
                else:
                    acc["expected"] += p * rec["fought_out"]
                    acc["variance"] += p * (1 - p) * rec["fought_out"]
            total += rec["battles"]
        sizes.append(total)
    out = {}
    for name in sorted(by, key=lambda k: (k == "all", k)):
        a = by[name]
        n, m = a["battles"], a["fought"]
        lo, hi = wilson(a["won"], n)
        flo, fhi = wilson(a["fought_won"], m)
        solved = m - a["unsolved"]
        out[name] = {"battles": n, "attacker_won": a["won"], "rate": rounded(a["won"] / n) if n else None,
                     "ci95": [rounded(lo), rounded(hi)],
                     "fought_out": m, "fought_out_won": a["fought_won"],
                     "fought_out_rate": rounded(a["fought_won"] / m) if m else None,
                     "fought_out_ci95": [rounded(flo), rounded(fhi)],
                     "expected_rate": rounded(a["expected"] / solved) if solved else None,
                     "z": rounded((a["fought_won"] - a["expected"]) / math.sqrt(a["variance"]), 2)
                     if a["variance"] > 0 and not a["unsolved"] else None,
                     "retreated": a["retreated"], "off_policy": a["off_policy"], "unsolved": a["unsolved"]}
    return {"per_game": describe(sizes), "by_terrain": out}


