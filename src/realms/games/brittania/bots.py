"""The ``steward`` bot: a careful ruler (issue 16, part 6).

It reads only its own view and decisions.  At its first order of a turn it writes a plan
— the orders of its post — and then answers the order form from it:

1. Attack at good odds: each state it may attack is valued (output, +15 for a KINGDOM
   state, +10 more when it completes a Kingdom) and given the least grain that wins
   four times in five against the expected defence (10 for an independent state; a
   player's state: a third of his grain, at most 30, +5 for a capital); the best value
   per grain first, the king leading the largest attack.
2. Defend threatened states: each of its states next to a hostile player (not a trade
   partner) gets a share of what is left, the capital less (it has its +5).
3. Invest the rest, in the capital first (it costs less), then the richest states.
4. Trade with quiet neighbours: every neighbouring player who took none of its states
   in the last three turns is offered a route.

It never touches the game's dice: its own (seeded from the game's seed and its seat)
break its ties when it picks a starting state.
"""

from __future__ import annotations

from realms.core.dice import Dice

from .board import load_board
from .tables import load_tables

#: P(d10 + x > d10) for x = -10..10, by x + 10
_BEAT = [sum(1 for a in range(1, 11) for b in range(1, 11) if a + x > b) / 100 for x in range(-10, 11)]


def beat(x: int) -> float:
    """The chance that d10 + ``x`` beats d10."""
    return _BEAT[max(-10, min(10, x)) + 10]


class Steward:
    name = "steward"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)
        self.board = load_board()
        self.tables = load_tables()
        self.plan: list[tuple[str, str]] = []
        self.plan_turn = -1
        self.seen: dict[str, int] | None = None
        self.hostile: dict[int, int] = {}

    # -- decisions -------------------------------------------------------------------
    def choose(self, decision, view) -> int:
        keys = list(decision.keys)
        kind = decision.kind
        if kind in ("br.start", "br.newcomer"):
            return keys.index(self.best_start(view(), keys))
        if kind == "br.trait":
            return keys.index("Rich") if "Rich" in keys else 0
        if kind == "br.name":
            return 0
        if kind == "br.capital":
            v = view()
            return max(range(len(keys)), key=lambda i: v["states"][keys[i]]["output"])
        turn = (decision.info or {}).get("turn", self.plan_turn)
        if kind == "br.order" and self.plan_turn != turn:
            self.plan_turn = turn
            self.plan = self.make_plan(view(), keys)
        if kind == "br.grain":
            want = self.plan.pop(0)[1] if self.plan and self.plan[0][0] == "grain" else keys[0]
            if want in keys:
                return keys.index(want)
            below = [i for i, k in enumerate(keys) if int(k) <= int(want)]
            return below[-1] if below else 0
        while self.plan:
            step, key = self.plan.pop(0)
            if step == "order" and key in keys:
                return keys.index(key)
            if step == "order" and self.plan and self.plan[0][0] == "grain":
                self.plan.pop(0)
        return keys.index("done")

    # -- set-up ----------------------------------------------------------------------
    def best_start(self, v: dict, keys: list[str]) -> str:
        """A free KINGDOM state whose neighbours are free, far from other players."""
        b = self.board
        owner = {sid: st["owner"] for sid, st in v["states"].items()}

        def score(sid: str) -> float:
            x = b.index[sid]
            near = [b.states[y].id for y in b.adj[x]]
            free = sum(1 for y in near if owner[y] is None)
            crowded = sum(1 for y in near if owner[y] is not None)
            return (10 if b.states[x].kingdom else 0) + free - 6 * crowded + self.dice.below(3) / 10

        return max(keys, key=score)

    # -- the turn's plan --------------------------------------------------------------
    def make_plan(self, v: dict, keys: list[str]) -> list[tuple[str, str]]:
        b = self.board
        me = v["you"]
        states = v["states"]
        mine = [sid for sid, st in states.items() if st["owner"] == me]
        self.note_hostility(v, mine)
        players = v["players"]
        my = players[me]
        traits = my["king"]["traits"]
        left = v["grain_left"]
        plan: list[tuple[str, str]] = []
        partners = {p for p, pl in enumerate(players) if pl["name"] in my["trades"]}
        held_idx = {b.index[s] for s in mine}

        attacks = []
        for key in keys:
            if not key.startswith("conquer:"):
                continue
            sid = key[8:]
            x = b.index[sid]
            owner = states[sid]["owner"]
            land = any(y in held_idx and states[b.states[y].id]["output"] > 0 for y in b.adj[x])
            prep = 0 if land or "Sailor" in traits else self.tables.n["sea_preparation"]
            if owner is None:
                defence = 10
            else:
                defence = min(30, players[owner]["grain"] // 3)
                if players[owner]["capital"] == sid:
                    defence += 5
            bonus = self.tables.effect(traits, "attack")
            grain = next((g for g in range(1, 31) if beat(g + bonus - defence) >= 0.8), None)
            if grain is None:
                continue
            value = states[sid]["output"] + (15 if b.states[x].kingdom else 0)
            value += 10 * self.completes_kingdom(held_idx, x)
            attacks.append((value / (grain + prep), sid, grain + prep))
        attacks.sort(reverse=True)
        chosen = []
        for _, sid, cost in attacks:
            if cost <= left * 0.7 and len(chosen) < 3:
                chosen.append((sid, cost))
                left -= cost
                plan += [("order", f"conquer:{sid}"), ("grain", str(cost))]

        threatened = []
        for sid in mine:
            x = b.index[sid]
            near = b.adj_mask[x] | b.across_mask[x]
            for y in range(len(b.states)):
                o = states[b.states[y].id]["owner"]
                if near >> y & 1 and o is not None and o != me and o not in partners:
                    threatened.append(sid)
                    break
        for sid in threatened:
            share = min(30, left // max(1, len(threatened)) // (2 if my["capital"] == sid else 1))
            if share > 0:
                plan += [("order", f"defend:{sid}"), ("grain", str(share))]
                left -= share

        for sid in sorted(mine, key=lambda s: (s != my["capital"], -states[s]["output"])):
            if left < 3:
                break
            room = 30 - states[sid]["output"]
            if room > 0:
                amount = min(left, room * 5)
                plan += [("order", f"invest:{sid}"), ("grain", str(amount))]
                left -= amount

        for p, pl in enumerate(players):
            if p != me and pl["alive"] and p not in partners and self.hostile.get(p, -99) < v["turn"] - 3:
                plan.append(("order", f"trade:{p}"))
        if chosen and self.tables.effect(traits, "command") >= 0:
            plan.append(("order", f"lead:conquer:{max(chosen, key=lambda c: c[1])[0]}"))
        return plan

    def completes_kingdom(self, held: set[int], x: int) -> int:
        """Whether taking ``x`` gives some KINGDOM state 3 held neighbours."""
        b = self.board
        after = held | {x}
        for k in b.kingdoms:
            if k in after and sum(1 for y in b.kingdom_adj[k] if y in after) >= 3:
                if not (k in held and sum(1 for y in b.kingdom_adj[k] if y in held) >= 3):
                    return 1
        return 0

    def note_hostility(self, v: dict, mine: list[str]) -> None:
        """Remember who took our states since the last plan."""
        now = {sid: st["owner"] for sid, st in v["states"].items()}
        if self.seen is not None:
            for sid, before in self.seen.items():
                if before == v["you"] and now[sid] not in (None, v["you"]):
                    self.hostile[now[sid]] = v["turn"]
        self.seen = now
