"""The ``general`` bot for version²: a heuristic that sees what a person sees — its
decision and ``view(player)``, with its own mission — plus the printed board.

Each turn it attacks where its odds are good (its surplus of units able to attack beside
the target against the defenders weighted by their ground, 2.3.4.4), the most valuable
target first: a capitol, a warehouse, the player its mission names, land for the land
and field missions; then it marches the units of quiet fields towards the frontier,
builds warehouses (for the warehouse mission, or a few in safe fields) and recruits
infantry on the frontier facing the best target.  It leaves a guard on fields that
enemy armies border, more on its capitol, defends its capitol and warehouses rather than
retreat from them, and breaks off a battle that turns clearly against it.
"""

from __future__ import annotations

import math
from operator import itemgetter

from realms.core.agents import ViewFn
from realms.core.decision import Decision
from realms.core.dice import Dice

from .board import NOBODY, load_board
from .rules import load_rules

#: a unit's experience (a unit is ``[arm, move points, experience]``)
_EXPERIENCE = itemgetter(2)


class _Look:
    """What the bot reads from a view, once per decision."""

    def __init__(self, view: dict, me: int) -> None:
        self.view = view
        self.me = me
        self.board = load_board(view["map"])
        self.rules = load_rules()
        self.owner = view["owner"]
        self.units = view["units"]
        self.capitol = view["capitol"]
        self.warehouse = view["warehouse"]
        self.mission = view.get("mission") or {}
        self.treasure = view["players"][me]["treasure"]
        b = self.board
        owner = self.owner
        self.mine = [f for f in b.passable if owner[f] == me]
        #: per own field, the largest enemy army next to it (neutral armies never move)
        self.threat = {}
        for f in self.mine:
            self.threat[f] = max((len(self.units[g]) for g in b.adj[f] if owner[g] not in (me, NOBODY)), default=0)
        self.dist = self._frontier_distance()
        #: per field, what :meth:`eligible`, :meth:`surplus`, :meth:`defence`, :meth:`value`
        #: and :meth:`first_mover` gave: the view is fixed for the decision, and one
        #: decision asks about the same field once per option it weighs
        self._eligible: dict[int, list] = {}
        self._surplus: dict[int, int] = {}
        self._defence: dict[int, float] = {}
        self._value: dict[int, float] = {}
        self._first: dict[int, tuple] = {}

    def _frontier_distance(self) -> dict[int, int]:
        b, owner, me = self.board, self.owner, self.me
        dist = {f: 0 for f in self.mine if any(owner[g] != me for g in b.adj[f])}
        todo = list(dist)
        while todo:
            nxt = []
            for f in todo:
                for g in b.adj[f]:
                    if owner[g] == me and g not in dist:
                        dist[g] = dist[f] + 1
                        nxt.append(g)
            todo = nxt
        return dist

    def guard(self, f: int) -> int:
        need = self.threat.get(f, 0)
        if self.capitol[f] == self.me:
            need = max(need + 2, 3 if need else 1)
        elif self.warehouse[f] and need:
            need += 1
        return need

    def eligible(self, f: int) -> list:
        out = self._eligible.get(f)
        if out is None:
            out = self._eligible[f] = [u for u in self.units[f] if u[1] > 0]   # 2.3.3: a move point
        return out

    def surplus(self, f: int) -> int:
        out = self._surplus.get(f)
        if out is None:
            ready = len(self.eligible(f))
            resting = len(self.units[f]) - ready
            out = self._surplus[f] = max(0, ready - max(0, self.guard(f) - resting))
        return out

    def first_mover(self, f: int) -> tuple:
        """The first of the field's units with moves left (as movement.first_mover orders
        them): the one a ``f>t`` key moves."""
        out = self._first.get(f)
        if out is None:
            out = self._first[f] = min(tuple(u) for u in self.units[f] if u[1] > 0)
        return out

    def defence(self, t: int) -> float:
        out = self._defence.get(t)
        if out is None:
            out = self._defence[t] = self._strength(t)
        return out

    def _strength(self, t: int) -> float:
        n = len(self.units[t])
        if not n:
            return 0.0
        r = self.rules
        mod = r.terrain_mod[self.board.terrain[t]]
        if self.capitol[t] not in (NOBODY,) and self.capitol[t] == self.owner[t]:
            mod += r.mod["capitol"]
        elif self.warehouse[t]:
            mod += r.mod["building"]
        exp = sum(map(_EXPERIENCE, self.units[t])) / n
        return n * (1 + mod / 100) * (1 + 0.1 * exp)

    def value(self, t: int) -> float:
        out = self._value.get(t)
        if out is None:
            out = self._value[t] = self._worth(t)
        return out

    def _worth(self, t: int) -> float:
        b, me = self.board, self.me
        o = self.owner[t]
        v = 1.0 + b.index[t]
        kind = self.mission.get("kind")
        if self.capitol[t] != NOBODY and o != me:
            v += 6 + (10 if kind == "capitols" else 0)
        if self.warehouse[t]:
            v += 3
        if kind == "free" and o == self.mission.get("target"):
            v += 8
        if kind in ("land", "warehouses") and b.terrain[t] >= 2:
            v += 2
        if kind == "fields":
            v += 1
        if o not in (NOBODY, me):
            v += 1
        return v


class GeneralBot:
    """A one-turn heuristic player (see the module docstring)."""

    name = "general"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)
        self.plan: list[str] = []
        #: the field the plan's units attack
        self.plan_for: int | None = None
        #: the fields attacked this turn (launched or called off: not attacked again), noted
        #: when their units are picked, so that an attack it proposed and a search did not
        #: play stays open to it
        self.called_off: set = set()
        self.turn_key: tuple[int, int] | None = None

    def choose(self, decision: Decision, view: ViewFn) -> int:
        keys = list(decision.keys)
        if len(keys) == 1:
            return 0
        kind = decision.kind
        if kind == "v2.orders":   # three foot units defend against a gun, one gun against it (2.3.4.2)
            return keys.index("foot")
        if kind == "v2.attack-units":
            target = int((decision.info or {})["target"])
            seen = view()
            self._turn((seen["turn"], decision.player))
            self.called_off.add(target)
            if target != self.plan_for:
                self.plan, self.plan_for = self._plan(_Look(seen, decision.player), target), target
            return keys.index(self._pick(keys))
        look = _Look(view(), decision.player)
        key = {"v2.action": self._action, "v2.move": self._action, "v2.defend": self._defend,
               "v2.offer": self._offer}[kind](look, keys, decision)
        return keys.index(key)

    # -- the turn ----------------------------------------------------------------------
    def _turn(self, turn_key: tuple[int, int]) -> None:
        """A new turn of its own (game turn, seat) attacks every field afresh."""
        if turn_key != self.turn_key:
            self.turn_key = turn_key
            self.called_off = set()

    def _action(self, look: _Look, keys: list[str], d: Decision) -> str:
        self._turn((look.view["turn"], look.me))
        for choose in (self._attack, self._move, self._build, self._recruit):
            key = choose(look, keys)
            if key is not None:
                return key
        return "end"

    def _attack(self, look: _Look, keys: list[str]) -> str | None:
        b = look.board
        best = None
        for k in keys:
            if not k.startswith("attack:"):
                continue
            t = int(k[7:])
            if t in self.called_off:
                continue
            sources = [f for f in b.adj[t] if look.owner[f] == look.me]
            avail = {f: look.surplus(f) for f in sources}
            total = sum(avail.values())
            d = look.defence(t)
            need = 1 if d == 0 else math.ceil(1.6 * d) + 1
            if total < need:
                continue
            score = look.value(t) - 0.3 * d
            if best is None or score > best[0]:
                best = (score, t, avail, d)
        if best is None:
            return None
        _, t, avail, d = best
        self.plan, self.plan_for = self._units(look, avail, d), t
        return f"attack:{t}"

    def _units(self, look: _Look, avail: dict[int, int], d: float) -> list[str]:
        """The picks of an attack: from each neighbouring field (the largest surplus first)
        its surplus of eligible units, infantry and the most experienced first; a single
        unit against an empty field."""
        plan = []
        for f in sorted(avail, key=lambda f: -avail[f]):
            ready = sorted(look.eligible(f), key=lambda u: (u[0] == 1, -u[2]))
            take = ready[: avail[f]] if d else ready[:1]
            if d and len(take) == len(ready) > 1:
                plan.append(f"all:{f}")
            else:
                for u in take:
                    plan.append(f"add:{f}:{'ica'[u[0]]}{u[1]}.{u[2]}")
            if not d and plan:
                break
        return plan

    def _plan(self, look: _Look, t: int) -> list[str]:
        """The picks of an attack on ``t`` it did not choose itself (a search chose it, or
        it was asked to pick without having chosen): as it would pick for its own."""
        sources = [f for f in look.board.adj[t] if look.owner[f] == look.me]
        return self._units(look, {f: look.surplus(f) for f in sources}, look.defence(t))

    def _move(self, look: _Look, keys: list[str]) -> str | None:
        dist = look.dist
        best: tuple[float, str] | None = None
        for k in keys:
            c: str | None
            if ">" in k:   # the first class of the field's movers (movement.first_mover)
                f, t = map(int, k.split(">"))
                c = None
            elif k.startswith("move:"):
                _, fs, ts, c = k.split(":")
                f, t = int(fs), int(ts)
            else:
                continue
            df, dt = dist.get(f, 99), dist.get(t, 99)
            if dt >= df:
                continue
            surplus = look.surplus(f)
            if surplus <= 0:
                continue
            if c is None:
                c = "ica"[look.first_mover(f)[0]]
            score: float
            if c == "all":
                if surplus < sum(1 for u in look.units[f] if u[1] > 0):
                    continue
                score = float(df - dt + 1)
            else:
                score = df - dt + (0.5 if c[0] == "c" else 0)
            if best is None or score > best[0]:
                best = (score, k)
        return best[1] if best else None

    def _build(self, look: _Look, keys: list[str]) -> str | None:
        builds = [k for k in keys if k.startswith("build:")]
        if not builds:
            return None
        mine = [f for f in look.mine if look.board.terrain[f] >= 2]
        have = sum(1 for f in mine if look.warehouse[f])
        if look.mission.get("kind") == "warehouses":
            if len(mine) < look.mission["target"] and look.treasure < 12:
                return None
        elif have >= 1 + len(mine) // 6 or look.treasure < 8:
            return None
        return max(builds, key=lambda k: (look.dist.get(int(k[6:]), 0), look.board.index[int(k[6:])]))

    def _recruit(self, look: _Look, keys: list[str]) -> str | None:
        recruits = [k for k in keys if k.startswith("recruit:") and k.endswith((":i", ":i:max"))]
        if not recruits:
            return None
        if look.mission.get("kind") == "warehouses" and look.treasure < 6 and look.view["turn"] > 3:
            return None

        def score(k: str) -> float:
            f = int(k.split(":")[1])
            s = float(-3 * look.dist.get(f, 9) + 2 * max(0, look.guard(f) - len(look.units[f])))
            s += max((look.value(g) for g in look.board.adj[f] if look.owner[g] != look.me), default=0) * 0.3
            return s

        best = max(recruits, key=score)
        bulk = best if best.endswith(":max") else best + ":max"
        return bulk if bulk in recruits else best

    # -- an attack -----------------------------------------------------------------------
    def _pick(self, keys: list[str]) -> str:
        while self.plan:
            k = self.plan.pop(0)
            if k in keys:
                return k
        return "go" if "go" in keys else "cancel"

    def _defend(self, look: _Look, keys: list[str], d: Decision) -> str:
        t = (d.info or {})["target"]
        if look.capitol[t] == look.me or look.warehouse[t]:
            return "face"
        attackers = len(look.view["battle"]["attackers"])
        if look.defence(t) * 1.3 >= attackers:
            return "face"
        return max((k for k in keys if k != "face"), key=lambda k: len(look.units[int(k[8:])]))

    def _offer(self, look: _Look, keys: list[str], d: Decision) -> str:
        b = look.view["battle"]
        side = (d.info or {})["side"]
        mine = len(b["attackers"] if side == 0 else b["defenders"])
        theirs = len(b["defenders"] if side == 0 else b["attackers"])
        if side == 1 and (look.capitol[b["target"]] == look.me or look.warehouse[b["target"]]):
            return "fight"
        if mine * 2 < theirs:
            retreat = [k for k in keys if k.startswith("complete")]
            if retreat:
                return retreat[0]
        return "fight"


__all__ = ["GeneralBot"]
