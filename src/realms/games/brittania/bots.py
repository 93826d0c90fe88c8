"""The ``steward`` bot: a careful ruler.

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

It finishes an order it did not plan itself (inside a search: the search chose it, at
the root or in the tree, and the bot answers its grain) as it would its own: the grain
its plan would give it (:meth:`Steward.grain`).  An order leaves the plan when its grain
is picked, so one it proposed and a search did not play is proposed again.

When its colour is free after an elimination it stands for whoever may take it: a
newcomer comes only to a state that no player can reach at once (:meth:`newcomer`).

It never touches the game's dice: its own (seeded from the game's seed and its seat)
break its ties when it picks a starting state.
"""

from __future__ import annotations

from realms.core.dice import Dice

from .advice import beat
from .board import load_board
from .setup import NOBODY
from .tables import load_tables


#: the least lead of grain over the defence that wins four times in five (``beat`` rises
#: with the lead: the least grain that does so is this lead over the defence)
SURE_LEAD = next(x for x in range(-10, 11) if beat(x) >= 0.8)


class Steward:
    name = "steward"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)
        self.board = load_board()
        self.tables = load_tables()
        self.plan: list[tuple[str, str]] = []
        self.plan_turn = -1
        self.seen: dict[str, int | None] | None = None  # each state's owner (None: independent)
        self.hostile: dict[int, int] = {}

    # -- decisions -------------------------------------------------------------------
    def choose(self, decision, view) -> int:
        keys = list(decision.keys)
        kind = decision.kind
        if kind == "br.start":
            return keys.index(self.best_start(view(), keys))
        if kind == "br.newcomer":
            return keys.index(self.newcomer(view(), keys))
        if kind == "br.trait":
            return keys.index("Rich") if "Rich" in keys else 0
        if kind == "br.name":
            return 0
        if kind == "br.capital":
            v = view()
            return max(range(len(keys)), key=lambda i: v["states"][keys[i]]["output"])
        turn = (decision.info or {}).get("turn", self.plan_turn)
        if kind == "br.grain":
            return self.grain(decision, view, keys, turn)
        if kind == "br.order" and self.plan_turn != turn:
            self.plan_turn = turn
            self.plan = self.make_plan(view(), keys)
        while self.plan:
            step, key = self.plan[0]
            grain_next = len(self.plan) > 1 and self.plan[1][0] == "grain"
            if step == "order" and key in keys:
                if not grain_next:
                    self.plan.pop(0)
                return keys.index(key)
            del self.plan[:2 if step == "order" and grain_next else 1]
        return keys.index("done")

    def grain(self, decision, view, keys: list[str], turn: int) -> int:
        """The grain of the order just chosen: what the plan gives it, the order and its
        grain then leaving the plan; for an order it did not plan (a search chose it, at
        the root or inside its rollouts), what it would give it had it planned it
        (:meth:`unplanned_grain`), not the least.  An order it planned and that was not
        played stays in the plan, to be proposed again.  The amount is the nearest option
        at or below it."""
        if self.plan_turn != turn:
            self.plan = []
        info = decision.info or {}
        want = self.planned_grain(f"{info.get('order')}:{info.get('target')}")
        if want is None:
            want = self.unplanned_grain(view(), info)
        if want in keys:
            return keys.index(want)
        below = [i for i, k in enumerate(keys) if int(k) <= int(want)]
        return below[-1] if below else 0

    def planned_grain(self, order: str) -> str | None:
        """The grain the plan gives ``order`` (taking both out of the plan), or None."""
        plan = self.plan
        for i in range(len(plan) - 1):
            if plan[i] == ("order", order) and plan[i + 1][0] == "grain":
                grain = plan[i + 1][1]
                del plan[i:i + 2]
                return grain
        return None

    def unplanned_grain(self, v: dict, info: dict) -> str:
        """The grain of an order it did not plan, reckoned as its plan would: an attack
        the least that wins four times in five (:meth:`sure_grain`) and its sea
        preparation; a defence a share of the grain left among the states it would
        defend, this one counted, half a share for the capital; an investment what fills
        the state's room, within the grain left."""
        kind, sid = info.get("order"), str(info.get("target"))
        me = v["you"]
        my = v["players"][me]
        left = v["grain_left"]
        if kind == "conquer":
            return str(self.sure_grain(v, sid) + int(info.get("preparation", 0)))
        if kind == "defend":
            mine = [x for x, st in v["states"].items() if st["owner"] == me]
            threatened = set(self.threatened(v, mine)) | {sid}
            return str(max(1, min(30, left // len(threatened) // (2 if my["capital"] == sid else 1))))
        room = self.tables.n["max_output"] - v["states"][sid]["output"]
        return str(min(left, room * self.tables.n["invest_cost"]))

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

    def newcomer(self, v: dict, keys: list[str]) -> str:
        """Whether a newcomer takes the free colour, and where (BR-Q30: another *can* take
        it): only in an independent state that no player can attack, by land or across a
        sea, at once — a newcomer with 10 grain beside a grown player is walked into or
        conquered the next turn — the best of them as at the start; else ``nobody``,
        and the colour is offered again the next turn."""
        b = self.board
        players = 0
        for sid, st in v["states"].items():
            if st["owner"] is not None:
                players |= 1 << b.index[sid]
        safe = [k for k in keys if k != NOBODY
                and not (b.adj_mask[b.index[k]] | b.across_mask[b.index[k]]) & players]
        return self.best_start(v, safe) if safe else NOBODY

    # -- the turn's plan --------------------------------------------------------------
    def make_plan(self, v: dict, keys: list[str]) -> list[tuple[str, str]]:
        """The post for this turn as ``(step, key)`` pairs: ``order`` keys, each followed
        by its ``grain`` where it takes some."""
        me = v["you"]
        mine = [sid for sid, st in v["states"].items() if st["owner"] == me]
        self.note_hostility(v, mine)
        left = v["grain_left"]
        plan: list[tuple[str, str]] = []
        chosen, left = self.attacks(v, keys, mine, left, plan)
        left = self.defences(v, mine, left, plan)
        self.investments(v, mine, left, plan)
        my = v["players"][me]
        for p, pl in enumerate(v["players"]):
            if p != me and pl["alive"] and pl["name"] not in my["trades"] and self.hostile.get(p, -99) < v["turn"] - 3:
                plan.append(("order", f"trade:{p}"))
        if chosen and self.tables.effect(my["king"]["traits"], "command") >= 0:
            plan.append(("order", f"lead:conquer:{max(chosen, key=lambda c: c[1])[0]}"))
        return plan

    def attacks(self, v: dict, keys: list[str], mine: list[str], left: int,
                plan: list[tuple[str, str]]) -> tuple[list[tuple[str, int]], int]:
        """The best attacks by value per grain, each with the least grain that wins four
        times in five against the expected defence; at most three, within 70% of the grain."""
        b = self.board
        states, players = v["states"], v["players"]
        traits = players[v["you"]]["king"]["traits"]
        held = {b.index[x] for x in mine}
        options = []
        for key in keys:
            if not key.startswith("conquer:"):
                continue
            sid = key[8:]
            x = b.index[sid]
            land = any(y in held and states[b.states[y].id]["output"] > 0 for y in b.adj[x])
            prep = 0 if land or self.tables.has(traits, "sea_free") else self.tables.n["sea_preparation"]
            grain = self.sure_grain(v, sid)
            if grain >= 31 - prep:
                continue
            value = states[sid]["output"] + (15 if b.states[x].kingdom else 0) + 10 * self.completes_kingdom(held, x)
            options.append((value / (grain + prep), sid, grain + prep))
        chosen: list[tuple[str, int]] = []
        for _, sid, cost in sorted(options, reverse=True):
            if cost <= left * 0.7 and len(chosen) < 3:
                chosen.append((sid, cost))
                left -= cost
                plan += [("order", f"conquer:{sid}"), ("grain", str(cost))]
        return chosen, left

    def sure_grain(self, v: dict, sid: str) -> int:
        """The least grain (its sea preparation aside) that wins an attack on ``sid`` four
        times in five against the expected defence: 10 for an independent state; a
        player's state a third of his grain, at most 30, +5 for his capital."""
        players = v["players"]
        owner = v["states"][sid]["owner"]
        if owner is None:
            defence = self.tables.n["independent_defence"]
        else:
            defence = min(30, players[owner]["grain"] // 3)
            defence += self.tables.n["capital_defence"] if players[owner]["capital"] == sid else 0
        bonus = self.tables.effect(players[v["you"]]["king"]["traits"], "attack")
        return max(1, SURE_LEAD - bonus + defence)

    def threatened(self, v: dict, mine: list[str]) -> list[str]:
        """Its states next to a hostile player (not a trade partner), by land or sea."""
        b = self.board
        me = v["you"]
        my = v["players"][me]
        partners = {p for p, pl in enumerate(v["players"]) if pl["name"] in my["trades"]}
        others = 0
        for sid, st in v["states"].items():
            if st["owner"] is not None and st["owner"] != me and st["owner"] not in partners:
                others |= 1 << b.index[sid]
        return [sid for sid in mine if (b.adj_mask[b.index[sid]] | b.across_mask[b.index[sid]]) & others]

    def defences(self, v: dict, mine: list[str], left: int, plan: list[tuple[str, str]]) -> int:
        """A share of the grain left for each state next to a hostile player (not a
        trade partner), half a share for the capital, which has its +5."""
        my = v["players"][v["you"]]
        threatened = self.threatened(v, mine)
        for sid in threatened:
            share = min(30, left // len(threatened) // (2 if my["capital"] == sid else 1))
            if share > 0:
                plan += [("order", f"defend:{sid}"), ("grain", str(share))]
                left -= share
        return left

    def investments(self, v: dict, mine: list[str], left: int, plan: list[tuple[str, str]]) -> None:
        """The rest into the capital first (cheaper), then the richest states, up to 30."""
        states = v["states"]
        capital = v["players"][v["you"]]["capital"]
        for sid in sorted(mine, key=lambda x: (x != capital, -states[x]["output"])):
            room = self.tables.n["max_output"] - states[sid]["output"]
            if left < 3:
                break
            if room > 0:
                amount = min(left, room * self.tables.n["invest_cost"])
                plan += [("order", f"invest:{sid}"), ("grain", str(amount))]
                left -= amount

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
