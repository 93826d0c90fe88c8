"""Phase 3 of the solitaire rules — movement — played one Hy Breasil move at a time.

Hy Breasil asks for one unit's move per decision (``hb.move``: ``src>dst``, ``fight``,
``done``), so the bot keeps, per movement phase, what the solitaire rules make you track
on the table: which armies have moved (§3.2.5 "Note"), the offensive action under way
(its target, the armies it takes), and which spaces have been moved into defensively
(§3.3 b).  At each decision it continues the action under way, or starts the next one:

1. Offensive movement actions (§3.1, §3.2): the reachable space with the highest AT
   (ties: empty, Mortal Enemy, plain, hills/forest, then the bot's die) whose MO the
   movable armies can reach (§3.2.1); an empty space takes exactly one army whatever the
   MO.  Armies move from "overstacked" spaces and the sea first, then the furthest
   (§3.2.2.1, AU-Q19, AU-Q22).  A space is never left empty (§3.2.2.1, AU-Q23).
2. Overpopulation attacks (§3.2.4): if the nation would still break the §6.4 support
   limit, it attacks the spaces with the lowest DV, sharing its movable armies evenly.
3. Defensive movement (§3.3) of every army still unmoved, in the §3.3 order, to the
   owned space of highest PVPV not yet moved into (ties: fewest armies, plain, rough).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from realms.core.decision import Decision, MaskedKeys

from . import tactics as T
from ..connect import bits, spread
from .chances import fewest_for
from .look import Look, NationView, components, distances, land_terrain, popcount
from .memory import support_limit
from ..board import EMPTY

if TYPE_CHECKING:
    from .auto import AutoBot


#: AU-Q13: denying another player a VP (one rival of several), and more when they lead
DENY, DENY_LEADER = 0.5, 0.5
#: AU-Q20 (normal, hard): the least chance an overpopulation attack with every free army must have
OVERPOPULATION_ODDS = 0.5
#: AU-Q13: joining two parts of the nation, or cutting an enemy nation in two (§6.4)
JOIN, CUT = 1.0, 1.0


def leader(look: Look) -> int:
    """The other player with the most VP (ties: the lowest seat)."""
    others = [(v, -i) for i, v in enumerate(look.vp) if i != look.me]
    return -max(others)[1] if others else EMPTY


# -- the decision's keys ------------------------------------------------------------------------


class MoveKeys:
    """The options of an ``hb.move`` decision as legal destinations per source area.

    With :class:`MaskedKeys` (the engine's fast path) the rows are read directly; a plain
    list of keys is parsed.  :meth:`index` finds an option's index without building the
    list of key strings.
    """

    __slots__ = ("decision", "rows", "order", "extra", "_offsets", "_index")

    def __init__(self, decision: Decision, look: Look) -> None:
        self.decision = decision
        b = look.board
        self._index = b.index
        keys = decision.keys
        self.rows: dict[int, int] = {}
        self.order: list[int] = []
        if isinstance(keys, MaskedKeys):
            for row, mask in keys.rows:
                src = b.index[row[0].split(">", 1)[0]]
                self.rows[src] = mask
                self.order.append(src)
            self.extra = tuple(keys.extra)
        else:
            extra = []
            for k in keys:
                if ">" in k:
                    src, dst = b.parse_move(k)
                    if src not in self.rows:
                        self.rows[src] = 0
                        self.order.append(src)
                    self.rows[src] |= 1 << dst
                else:
                    extra.append(k)
            self.extra = tuple(extra)
        self._offsets: dict[int, int] | None = None

    def can(self, src: int, dst: int) -> bool:
        return bool((self.rows.get(src, 0) >> dst) & 1)

    def index(self, key: str) -> int:
        keys = self.decision.keys
        if not isinstance(keys, MaskedKeys):
            return list(keys).index(key)
        if ">" not in key:
            return len(keys) - len(self.extra) + self.extra.index(key)
        if self._offsets is None:
            off, acc = {}, 0
            for src in self.order:
                off[src] = acc
                acc += popcount(self.rows[src])
            self._offsets = off
        a, b = key.split(">", 1)
        src, dst = self._index[a], self._index[b]
        return self._offsets[src] + popcount(self.rows[src] & ((1 << dst) - 1))


# -- the phase -----------------------------------------------------------------------------------


@dataclass
class Plan:
    """The offensive action under way."""

    target: int
    units: int
    kind: str  # "empty", "attack", "overpopulation", "landing"
    sent: int = 0
    engaged: bool = False


@dataclass
class Phase:
    """One movement and combat phase of one nation (§6.3; Strong leader has two)."""

    turn: int
    nid: int
    k: int
    moved: dict[int, int] = field(default_factory=dict)
    stayed: dict[int, int] = field(default_factory=dict)
    mode: str = "offence"
    defended: int = 0
    plan: Plan | None = None
    battle_sent: int = 0
    retreat_dest: int | None = None
    actions: int = 0


class Planner:
    """Chooses one ``hb.move`` answer for the bot's nation from the solitaire rules."""

    def __init__(self, bot: "AutoBot", look: Look, n: NationView, phase: Phase, keys: MoveKeys) -> None:
        self.bot = bot
        self.look = look
        self.n = n
        self.ph = phase
        self.keys = keys
        b = look.board
        self.board = b
        self.tables = b.tables
        self.dist = distances(b)
        self._tr: int | None = None
        #: per decision: the §6.4 parts of nations (AU-Q13's connection values) and the leader
        self._parts: dict = {}
        self._leader: int | None = None
        #: the passable areas bordering the nation's land (§6.4 links, :meth:`linked`)
        self._around: int | None = None

    @property
    def tr(self) -> int:
        if self._tr is None:
            self._tr = self.bot.tr_of(self.n.id)
        return self._tr

    # -- armies ------------------------------------------------------------------------------
    def unmoved(self, a: int) -> int:
        if a not in self.keys.rows:
            return 0
        ph = self.ph
        return max(0, self.n.units.get(a, 0) - ph.moved.get(a, 0) - ph.stayed.get(a, 0))

    def movers(self, a: int) -> int:
        """Armies of ``a`` free to move offensively: never the last one of a land space
        (§3.2.2.1: the nation does not leave a space empty, AU-Q23)."""
        u = self.unmoved(a)
        if self.board.is_sea[a]:
            return u
        return max(0, min(u, self.n.units.get(a, 0) - 1))

    def overstacked(self, a: int) -> bool:
        """AU-Q19: more than the per-area share of the §6.4 support limit; AU-Q4: the sea,
        where no army may stay, counts as overstacked."""
        if self.board.is_sea[a]:
            return True
        return self.n.units.get(a, 0) > 2

    def source_order(self, target: int, sources: list[int]) -> list[int]:
        """§3.2.2.1: overstacked spaces first, then the furthest armies, ties by die."""
        d = self.dist
        r = self.bot.rand
        return sorted(sources, key=lambda s: (0 if self.overstacked(s) else 1, -d[s][target], r()))

    # -- values ------------------------------------------------------------------------------
    def rough(self, a: int) -> bool:
        return self.board.terrain[a] in self.tables.rough

    def race_bonus(self, race: str | None, a: int) -> int:
        terrain = self.board.terrain[a]
        if race is None or terrain is None:  # no race, or a sea
            return 0
        return self.tables.races[race].combat_bonus.get(terrain, 0)

    def space_dv(self, a: int) -> float:
        holder = self.look.nations.get(self.look.area_nation[a])
        if holder is None:
            return 0.0
        return T.dv(holder.units.get(a, 0), self.rough(a), self.race_bonus(holder.race, a),
                    bool((self.look.cities >> a) & 1))

    def ov_per_unit(self, a: int) -> float:
        return T.unit_ov(int(self.n.fervour) + self.race_bonus(self.n.race, a))

    def own_value(self, a: int, n: NationView | None = None) -> int:
        """The VP a space gives its holder in a scoring round (§7; Capital §9.3.1)."""
        n = n or self.n
        t = self.tables
        return t.capital_vp if n.capital == a else t.vp_per_area

    def pvpv(self, a: int) -> float:
        """AU-Q13, AU-Q14: VP for the bot's seat in the next scoring round — the space's VP
        (3 for the nation's own capital), less what the seat loses if a sibling nation
        held it, plus, while a submission is possible (§9.2 on), the half share of the
        defender's VP that a submission would bring."""
        look = self.look
        gain: float = self.own_value(a)
        holder = look.nations.get(look.area_nation[a])
        if self.bot.level.hb_value and (holder is None or holder.owner != look.me):
            gain += self.hb_extra(a, holder)
        if holder is None:
            return gain
        if holder.owner == look.me:
            return gain - self.own_value(a, holder)
        if self.bot.submission_on(look) and holder.master is None and self.n.master is None:
            vp = holder.areas + (self.tables.capital_vp - 1 if holder.capital != EMPTY and (holder.land >> holder.capital) & 1 else 0)
            gain += math.ceil(vp / 2)
        return gain

    def battle_mods(self, holder: NationView, t: int) -> dict:
        """The solver's modifiers for the nation attacking ``holder`` in ``t`` (§6.1, §9.1, §9.3.1)."""
        return dict(fervour=bool(self.n.fervour), attacker_race=self.n.race, defender_race=holder.race,
                    city=bool((self.look.cities >> t) & 1))

    def hb_extra(self, t: int, holder: NationView | None) -> float:
        """AU-Q13 (normal, hard): what Hy Breasil pays for taking ``t`` beyond its VP — its
        PIPs as a share of a new unit (§6.2); against another player, the VP denied them
        (:data:`DENY`, more for the leader); joining two parts of the nation, or cutting
        the holder in two (§6.4: the smaller part is lost)."""
        look, b, n, tab = self.look, self.board, self.n, self.tables
        pips = tab.races[n.race].pips[land_terrain(b, t)] if n.race is not None else b.pips[t]
        g = pips / tab.pips_per_unit
        cache = self._parts
        if holder is not None and holder.owner != look.me:
            if self._leader is None:
                self._leader = leader(look)
            g += DENY + (DENY_LEADER if self._leader == holder.owner else 0.0)
            if holder.id not in cache:
                cache[holder.id] = len(components(look, holder.land))
            if cache[holder.id] < len(components(look, holder.land & ~(1 << t))):
                g += CUT
        if n.land:
            if n.id not in cache:
                cache[n.id] = components(look, n.land)
            if sum(1 for part in cache[n.id] if part & b.nbr_mask[t]) >= 2:
                g += JOIN
        return g

    def linked(self, t: int) -> bool:
        """§6.4 integrity (AU-Q23): the space joins the nation's land — adjacent to it, or
        both border one sea or empty land area (RULINGS HB-Q23).  A nation with no land
        yet (arriving from the sea) may land anywhere."""
        land = self.n.land
        if not land:
            return True
        nbr = self.board.nbr_mask
        if nbr[t] & land:
            return True
        if self._around is None:
            self._around = self.look.passable() & spread(land, nbr)
        return bool(nbr[t] & self._around & ~(1 << t))

    # -- the AT list -------------------------------------------------------------------------
    def targets(self, mortal_enemy: int | None, mask: int | None = None) -> list[tuple]:
        """Reachable spaces as (AT, tie rank, die, space, dv, pvpv), best first (§3.2)."""
        look = self.look
        rows = self.keys.rows
        reach = 0
        for src, dests in rows.items():
            if self.movers(src) > 0:
                reach |= dests
        if mask is not None:
            reach &= mask
        out = []
        r = self.bot.rand
        for t in bits(reach & self.board.land_mask):
            if not self.linked(t):
                continue
            holder = look.nations.get(look.area_nation[t])
            if holder is None:
                pv = self.pvpv(t)
                out.append((pv, T.TIE_EMPTY, r(), t, 0.0, pv))
                continue
            if holder.id == self.n.id:
                continue
            dv = self.space_dv(t)
            pv = self.pvpv(t)
            me = mortal_enemy is not None and holder.owner == mortal_enemy
            at = T.attractiveness(pv, dv, mortal_enemy=me, own_colour=holder.owner == look.me)
            out.append((at, T.tie_rank(False, me, self.rough(t)), r(), t, dv, pv))
        out.sort(key=lambda x: (-x[0], x[1], x[2]))
        return out

    def sources_for(self, t: int) -> list[int]:
        return [s for s, dests in self.keys.rows.items() if (dests >> t) & 1 and self.movers(s) > 0]

    # -- the decision --------------------------------------------------------------------------
    def choose(self) -> str:
        look, ph = self.look, self.ph
        bt = look.battle
        if bt is not None and bt.attacker == self.n.id:
            return self.reinforce(bt)
        self.settle_battle()
        if ph.mode == "offence":
            key = self.offensive_action()
            if key is not None:
                return key
            ph.mode = "overpopulation"
        if ph.mode == "overpopulation":
            key = self.overpopulation_action()
            if key is not None:
                return key
            ph.mode = "defence"
            self.bot.explain(self.n, self.defence_text())
        return self.defensive_move()

    def settle_battle(self) -> None:
        """After a battle: the surviving attackers in the space have moved (§6.3.3)."""
        plan = self.ph.plan
        if plan is None:
            return
        if plan.engaged and self.look.area_nation[plan.target] == self.n.id:
            self.ph.moved[plan.target] = self.n.units.get(plan.target, 0)
        self.ph.plan = None

    def move(self, src: int, dst: int) -> str:
        return self.board.move_keys[src][dst]

    # -- §3.2 offensive movement ----------------------------------------------------------------
    def offensive_action(self) -> str | None:
        me = self.bot.mortal_enemy(self.n.id)
        tr = self.tr
        for at, tie, _, t, dv, pv in self.targets(me):
            sources = self.sources_for(t)
            if not sources:
                continue
            if self.look.area_nation[t] == EMPTY:
                # §3.2 *) empty spaces: one single army, regardless of the MO
                src = self.source_order(t, sources)[0]
                self.ph.moved[t] = self.ph.moved.get(t, 0) + 1
                self.ph.actions += 1
                self.bot.explain(self.n, f"takes empty {self.board.names[t]} (AT {at:g}) with one army")
                return self.move(src, t)
            have = sum(self.movers(s) for s in sources)
            holder = self.look.nations[self.look.area_nation[t]]
            extra = " +1 Mortal Enemy" if me is not None and holder.owner == me else ""
            extra += " −2 own colour" if holder.owner == self.look.me else ""
            if self.bot.level.odds:
                # AU-Q33: the chance the TR's worst OR bought in Britannia, bought here
                want = T.or_chance(tr)
                mods = self.battle_mods(holder, t)
                k, p = fewest_for(want, holder.units.get(t, 0), have, land_terrain(self.board, t), **mods)
                if k == 0:
                    continue
                if self.bot.level.best_or:
                    # AU-Q38 (hard): Eggert's window reaches up to the best OR; its chance when the armies are there
                    best = fewest_for(T.or_chance(tr, 0), holder.units.get(t, 0), have, land_terrain(self.board, t), **mods)
                    if best[0]:
                        k, p = best
                self.bot.explain(
                    self.n,
                    f"attacks {self.board.names[t]} ({holder.name}): AT {at:g} = PVPV {pv:g} − DV {dv:g}{extra}; "
                    f"TR {tr} wants {want:.0%} (Britannia's OR {T.or_range(tr)[1]:g}): {k} armies "
                    f"take it {p:.0%}")
                return self.start(t, k, "attack", sources)
            off = T.offence(dv, tr, self.ov_per_unit(t))
            if have < off.units:
                continue
            self.bot.explain(
                self.n,
                f"attacks {self.board.names[t]} ({holder.name}): AT {at:g} = PVPV {pv:g} − DV {dv:g}{extra}; "
                f"TR {tr} MO {off.minimum:g} (max {off.maximum:g}) reached with {off.units} armies, OV {off.ov:g}")
            return self.start(t, off.units, "attack", sources)
        return None

    def start(self, t: int, units: int, kind: str, sources: list[int]) -> str:
        self.ph.plan = Plan(t, units, kind, sent=1, engaged=True)
        self.ph.battle_sent = 1
        self.ph.actions += 1
        return self.move(self.source_order(t, sources)[0], t)

    def reinforce(self, bt) -> str:
        """More armies into the contested space until the action's count, then the sea
        exception (§3.2 "armies from a sea space", §3.2.6, AU-Q4), then the battle."""
        ph = self.ph
        plan = ph.plan
        if plan is None or plan.target != bt.area:
            plan = ph.plan = self.adopt(bt)
        t = bt.area
        sources = self.sources_for(t)
        if plan.sent < plan.units and sources:
            src = self.source_order(t, sources)[0]
            plan.sent += 1
            ph.battle_sent = plan.sent
            return self.move(src, t)
        stranded = self.stranded_at_sea(t)
        if stranded is not None:
            plan.sent += 1
            ph.battle_sent = plan.sent
            return self.move(stranded, t)
        return "fight"

    def adopt(self, bt) -> Plan:
        """AU-Q39: an attack the bot did not plan (its first army sent by someone else: a
        search choosing for the seat, or a bot that starts mid-phase) gets the armies the
        bot would give its own attack on that space: the fewest that buy the TR's chance
        (AU-Q33, AU-Q38's best OR at ``hard``), or the MO's (``easy``), counting those
        already in; every free army when even all of them fall short."""
        t, sent = bt.area, bt.au + bt.aw
        have = sent + sum(self.movers(s) for s in self.sources_for(t))
        holder = self.look.nations.get(bt.defender)
        units = have
        if holder is not None and self.bot.level.odds:
            mods = self.battle_mods(holder, t)
            terrain = land_terrain(self.board, t)
            k, _ = fewest_for(T.or_chance(self.tr), holder.units.get(t, 0), have, terrain, **mods)
            if k and self.bot.level.best_or:
                k = fewest_for(T.or_chance(self.tr, 0), holder.units.get(t, 0), have, terrain, **mods)[0] or k
            units = k or have
        elif holder is not None:
            units = min(have, T.offence(self.space_dv(t), self.tr, self.ov_per_unit(t)).units)
        return Plan(t, max(units, sent), "attack", sent=sent, engaged=True)

    def stranded_at_sea(self, t: int) -> int | None:
        """A sea space whose armies can reach the contested space but no land of their own
        or empty land: "no defensive movement makes sense", so they join the attack."""
        sea = self.board.is_sea
        cands = [s for s in self.keys.rows if sea[s] and self.keys.can(s, t) and self.unmoved(s) > 0]
        if not cands:
            return None
        reach = self.look.reach(self.n)
        safe = self.n.land | self.look.empty_land()
        for s in cands:
            if not (reach.from_area(s) & safe):
                return s
        return None

    # -- §3.2.4 overpopulation -------------------------------------------------------------------
    def overpopulation_action(self) -> str | None:
        n = self.n
        if n.weak:
            return None
        limit = support_limit(n)
        excess = n.total - limit
        if excess <= 0:
            return None
        per_area = 2.5 if "taxation" in n.abilities else 2
        needed = max(1, math.ceil(excess / per_area))
        me = self.bot.mortal_enemy(n.id)
        cands = [x for x in self.targets(me) if self.look.area_nation[x[3]] != EMPTY]
        if not cands:
            return None
        # "the space with the lowest DV is preferred in all cases"; the AT list breaks ties
        cands.sort(key=lambda x: x[4])
        for at, tie, _, t, dv, pv in cands:
            sources = self.sources_for(t)
            have = sum(self.movers(s) for s in sources)
            if not have:
                continue
            units = max(1, math.ceil(have / needed))
            if self.bot.level.odds:
                units = self.overpopulation_units(t, have)
                if not units:
                    continue
            self.bot.explain(
                n, f"overpopulated ({n.total} armies, support {limit}): attacks {self.board.names[t]} "
                   f"(lowest DV {dv:g}) with {units} of {have} free armies, {needed} space(s) needed")
            return self.start(t, units, "overpopulation", sources)
        return None

    def overpopulation_units(self, t: int, have: int) -> int:
        """AU-Q20 (normal, hard): the armies an overpopulation attack on ``t`` takes, 0 for
        none.  Never a nation of the bot's own colour (taking a sibling's area gains the
        seat nothing, AU-Q14); the fewest armies that buy the TR's chance (AU-Q33), else all
        ``have`` if they reach an even chance; at worse odds the attack is not made (the
        armies the support phase takes would die for nothing: 1 v 2 takes the area 2%)."""
        holder = self.look.nations[self.look.area_nation[t]]
        if holder.owner == self.look.me:
            return 0
        mods = self.battle_mods(holder, t)
        k, p = fewest_for(T.or_chance(self.tr), holder.units.get(t, 0), have, land_terrain(self.board, t), **mods)
        if k:
            return k
        return have if p >= OVERPOPULATION_ODDS else 0

    # -- §3.3 defensive movement -----------------------------------------------------------------
    def defence_text(self) -> str:
        tr = self.tr
        best, worst = T.or_range(tr)
        return (f"no space reaches its MO at TR {tr} ({T.TR_NAMES[tr]}, OR {best:g}–{worst:g}) after "
                f"{self.ph.actions} offensive action(s): defensive movement")

    def defensive_move(self) -> str:
        ph, n, b = self.ph, self.n, self.board
        sea = b.is_sea
        r = self.bot.rand
        rows = self.keys.rows
        while True:
            pending = [a for a in rows if self.unmoved(a) > 0]
            if not pending:
                break
            # §3.3 order: overstacked spaces, the sea, most unmoved armies, mountain, plain
            a = min(pending, key=lambda s: (0 if (not sea[s] and self.overstacked(s)) else (1 if sea[s] else 2),
                                            -self.unmoved(s), 0 if (not sea[s] and self.rough(s)) else 1, r()))
            dst = self.defensive_destination(a)
            if dst is None or dst == a:
                ph.stayed[a] = ph.stayed.get(a, 0) + 1
                if not sea[a]:
                    ph.defended |= 1 << a
                continue
            ph.moved[dst] = ph.moved.get(dst, 0) + 1
            ph.defended |= 1 << dst
            if self.look.area_nation[dst] != EMPTY and self.look.area_nation[dst] != n.id:
                # a landing that must fight (AU-Q4: every coast is held by others)
                ph.plan = Plan(dst, self.unmoved(a), "landing", sent=1, engaged=True)
                ph.battle_sent = 1
            return self.move(a, dst)
        if "done" in self.keys.extra:
            return "done"
        return self.forced_landing()

    def defensive_destination(self, a: int) -> int | None:
        """§3.3: the owned space of highest PVPV the army reaches that no army has moved into
        defensively yet (all moved into: start again); ties fewest armies, plain, mountain.
        An army that would empty its space stays (§3.2.2.1)."""
        n, b = self.n, self.board
        sea = b.is_sea[a]
        if not sea and n.units.get(a, 0) <= 1:
            return a
        dests = self.keys.rows.get(a, 0)
        own = dests & n.land
        if sea and not own:
            return self.landing(a, dests)
        cands = bits(own)
        if not sea:
            cands.append(a)
        fresh = [d for d in cands if not (self.ph.defended >> d) & 1]
        if not fresh:
            fresh = cands
        r = self.bot.rand
        guard = self.bot.level.guard

        def key(d: int):
            armies = n.units.get(d, 0) - (1 if d == a else 0)
            # AU-Q36 (normal, hard): a space enemy armies border is the one whose VP is at stake
            at_stake = self.own_value(d) + (1 if guard and self.bot.threat(self.look, d) else 0)
            return (-at_stake, armies, 1 if self.rough(d) else 0, 0 if d == a else 1, r())

        return min(fresh, key=key)

    def landing(self, a: int, dests: int) -> int | None:
        """AU-Q4: an army at sea with no own land in reach takes an empty space (plain first),
        else attacks the reachable space of lowest DV (it may not stay at sea, HB-Q18)."""
        r = self.bot.rand
        empty = dests & self.look.empty_land()
        if empty:
            return min(bits(empty), key=lambda d: (1 if self.rough(d) else 0, r()))
        enemy = dests & self.board.land_mask & ~self.n.land
        if enemy:
            return min(bits(enemy), key=lambda d: (self.space_dv(d), r()))
        return None

    def forced_landing(self) -> str:
        """No "done" while armies at sea can still land (HB-Q18): land the next one."""
        sea = self.board.is_sea
        for a in self.keys.order:
            if sea[a]:
                dst = self.landing(a, self.keys.rows[a]) if not (self.keys.rows[a] & self.n.land) else \
                    min(bits(self.keys.rows[a] & self.n.land), key=lambda d: self.n.units.get(d, 0))
                if dst is not None:
                    return self.move(a, dst)
        a = self.keys.order[0]
        return self.move(a, bits(self.keys.rows[a])[0])
