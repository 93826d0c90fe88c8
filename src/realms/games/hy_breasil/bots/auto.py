"""The ``auto`` bot: Moritz Eggert's Britannia II solitaire rules playing Hy Breasil.

Each Hy Breasil decision is answered by the solitaire rule it corresponds to (the
adaptation and its rulings are in ``AUTO.md`` next to this file):

=========================  ==========================================================
decision                   rule
=========================  ==========================================================
hb.move                    Phase 3: offensive actions in AT order with the MO test,
                           overpopulation attacks, defensive movement (:mod:`.moves`)
hb.assign-hits             Phase IV: hits where they kill (AU-Q6)
hb.retreat, hb.withdraw    §4.1–4.2 retreat checks and the retreat preference list
hb.submit                  §4.3 submission check (§9.2 on)
hb.place                   §1.1 placement preference list
hb.event                   a reroll preference list (the TR decides about Weak leader)
hb.entry-sea               the landing with the most attractive spaces in reach
others                     preference lists in the same spirit (AUTO.md)
=========================  ==========================================================

The bot sees only the decision and ``view(player)``; its own dice (``Dice(seed)``) make
its rolls (TR, retreat and submission checks) and break its ties (AU-Q30).  Its memory —
TR, Mortal Enemy cubes and deadpile per nation — is in :class:`.memory.Memory`, and
``explanations`` is the list of ``(turn, text)`` lines saying why each of its nations
did what it did (TR, the AT of the chosen target, the MO reached).

>>> from realms.core.agents import RandomBot
>>> from realms.core.match import play
>>> from realms.games.hy_breasil import GAME
>>> state = GAME.new_game({"players": 2, "turns": 2}, seed=3)
>>> bot = AutoBot(1)
>>> _ = play(state, [bot, RandomBot(2)])
>>> any("TR" in text for _, text in bot.explanations)
True
"""

from __future__ import annotations

from typing import Callable

from realms.core.decision import Decision
from realms.core.dice import Dice

from ..events import EVENT_NAMES
from . import tactics as T
from ..connect import bits
from .look import EMPTY, Look, NationView, Newcomer, components, land_terrain
from .chances import take_chance
from .levels import level_named
from .memory import Memory, support_limit
from .moves import MoveKeys, Phase, Planner

ViewFn = Callable[[], dict]

#: §9.3 abilities in order of preference: the Capital's 3 VP a turn first (PVPV), then what
#: keeps more armies (Taxation, Food preservation), then movement, cities, the rest.
ABILITY_PREFERENCE = ("capital", "taxation", "food-preservation", "navigation", "city-building",
                      "diplomacy", "prophecy")
#: AUTO.md "Event rerolls": a nation rerolls at most this many times a turn (tokens are the price)
REROLLS_PER_TURN = 1
#: the VP an event must cost before a civilization token is spent on a reroll
REROLL_PVPV = 2
#: a plague die, rounded up, for the reroll list
PLAGUE_GUESS = 4
#: AUTO.md "Nation limit" (§5.3): what a nation arriving from the sea is worth before it lands (≈ half of the
#: 5–10 units it brings, each taking one space)
INVADER_VALUE = 4
#: AU-Q35: empty land another nation at sea also reaches counts this many times less
CONTESTED = 3


class AutoBot:
    """Britannia II solitaire rules for any Hy Breasil seat; ``AutoBot(seed)``."""

    name = "auto"

    def __init__(self, seed: int = 0, level: str = "normal") -> None:
        #: the difficulty (:mod:`.levels`): which of AUTO.md's recalibrations are on
        self.level = level_named(level)
        self.dice = Dice(seed)
        self.rand = self.dice._random
        self.memory = Memory()
        #: why each auto nation did what it did: ``(turn, text)`` lines, oldest first
        self.explanations: list[tuple[int, str]] = []
        self.look: Look | None = None
        #: the nations of the last view as parsed (:class:`.look.Look` reuses the unchanged)
        self._seen: dict = {}
        #: the options of the ``hb.move`` decision being answered (read once, :class:`.moves.MoveKeys`)
        self._move_keys: MoveKeys | None = None
        self.phase: Phase | None = None
        self._rerolls: dict[tuple[int, int], int] = {}
        self._submission_seen = False
        self._retreat_dest: dict[int, int] = {}
        #: the TR each of the bot's nations played each nation turn with (benchmarks)
        self.tr_log: list[int] = []

    # -- the agent ------------------------------------------------------------------------------
    def choose(self, decision: Decision, view: ViewFn) -> int:
        look = Look(view(), seen=self._seen)
        self.look = look
        kind = decision.kind
        if kind == "hb.submit":
            self._submission_seen = True
        self.memory.observe(look, kind)
        cur = look.nations.get(look.current) if look.current is not None else None
        if cur is not None and cur.owner == look.me and (look.turn, cur.id) not in self.memory.started:
            self.start_nation_turn(cur, decision)
        handler = HANDLERS.get(kind)
        if handler is None:
            return self.dice.below(len(decision.keys))
        answer = getattr(self, handler)(decision, look)
        if isinstance(answer, int):
            return answer
        keys = decision.keys
        if kind == "hb.move":
            mk = self._move_keys
            return (mk if mk is not None and mk.decision is decision else MoveKeys(decision, look)).index(answer)
        return list(keys).index(answer)

    # -- explanations -----------------------------------------------------------------------------
    def explain(self, n: NationView, text: str) -> None:
        look = self.look
        who = look.names[n.owner] if look is not None and 0 <= n.owner < len(look.names) else "?"
        self.explanations.append((look.turn if look else 0, f"The {n.name} ({who}): {text}"))

    # -- Phases 1–2: cubes and tactics ----------------------------------------------------------------
    def start_nation_turn(self, n: NationView, decision: Decision) -> None:
        """Phase 1 "Attack Cube removal" and Phase 2 tactics, at the first decision of the
        nation's turn (AU-Q1: before its random event), on the view being answered."""
        look = self.look
        if look is None:
            raise ValueError("a nation turn starts at a decision: the bot has no view yet")
        self.memory.started.add((look.turn, n.id))
        m = self.memory.sheet(n.id, look.turn)
        removed = m.decay(look.turn)
        parts = []
        if removed:
            parts.append(f"{removed} cube(s) removed")
        if m.tr is None:
            roll = self.dice.d6()
            m.tr = T.initial_tr(roll, invading=n.first_turn)
            parts.append(f"initial TR {m.tr} ({T.TR_NAMES[m.tr]}; d6 {roll}"
                         + (" +2 invasion" if n.first_turn else "") + ")")
        else:
            invasion = decision.kind == "hb.event" and self.event_of(decision) == "reinforcements"
            roll = self.dice.d6()
            scoring = self.level.scoring_rise and T.is_scoring_round(look.turn)
            if self.level.recent_dead:  # AU-Q12: pulled to moderate, careful after heavy losses
                dead = round(m.recent)
                ch = T.change_tr_recalibrated(m.tr, roll, m.recent, invasion=invasion, scoring=scoring)
            else:
                dead = m.dead
                ch = T.change_tr(m.tr, roll, dead, invasion=invasion, scoring=scoring)
            m.tr = ch.after
            m.recent /= 2
            rise = " (scoring round +1)" if ch.raised != ch.before else ""
            parts.append(f"TR {ch.before}→{ch.after} ({T.TR_NAMES[ch.after]}){rise}: d6 {roll} {ch.modifier:+d} "
                         f"[{'recent dead' if self.level.recent_dead else 'deadpile'} {dead}"
                         + (", invasion +2" if invasion else "") + "]")
        lo, hi = self.level.tr_band
        m.tr = max(lo, min(hi, m.tr))
        self.tr_log.append(m.tr)
        best, worst = T.or_range(m.tr)
        parts.append(f"OR {best:g}–{worst:g}")
        if m.cubes:
            cubes = ", ".join(f"{look.names[c]} {k}" for c, k in sorted(m.cubes.items()))
            parts.append(f"cubes {cubes}")
        self.explain(n, "; ".join(parts))

    def tr_of(self, nid: int) -> int:
        m = self.memory.sheet(nid, self.look.turn if self.look else 0)
        if m.tr is None:
            m.tr = T.initial_tr(self.dice.d6(), invading=False)
        return m.tr

    def mortal_enemy(self, nid: int) -> int | None:
        """§ "Mortal Enemy": the colour with the most cubes; a tie is decided by die each time."""
        m = self.memory.sheets.get(nid)
        if m is None:
            return None
        tied = m.mortal_enemies()
        if not tied:
            return None
        return tied[self.dice.below(len(tied))] if len(tied) > 1 else tied[0]

    def submission_on(self, look: Look) -> bool:
        """§9.2 in play: the options say so (when the view carries them), or it showed."""
        if "submission" in look.rules or self._submission_seen:
            return True
        return any(n.master is not None for n in look.nations.values())

    # -- helpers -----------------------------------------------------------------------------------
    def rough(self, look: Look, a: int) -> bool:
        return look.board.terrain[a] in look.board.tables.rough

    def race_bonus(self, look: Look, race: str | None, a: int) -> int:
        terrain = look.board.terrain[a]
        if race is None or terrain is None:  # no race, or a sea
            return 0
        return look.board.tables.races[race].combat_bonus.get(terrain, 0)

    def unit_dv(self, look: Look, n: NationView, a: int) -> float:
        return T.unit_dv(self.rough(look, a), self.race_bonus(look, n.race, a))

    def value(self, look: Look, n: NationView, a: int) -> int:
        t = look.board.tables
        return t.capital_vp if n.capital == a else t.vp_per_area

    def nation_vp(self, look: Look, n: NationView) -> int:
        """The VP a nation brings in the next scoring round (§7, §9.3.1): its PVPV."""
        vp = n.areas
        if n.capital != EMPTY and (n.land >> n.capital) & 1:
            vp += look.board.tables.capital_vp - 1
        return vp

    def areas_of_keys(self, look: Look, decision: Decision) -> list[int]:
        return [look.board.index[k] for k in decision.keys]

    def holder(self, look: Look, decision: Decision) -> NationView:
        """The nation whose areas a decision lists (the current nation, except when a
        master's token is taken in its servant's turn, §9.3)."""
        for k in decision.keys:
            a = look.board.index.get(k)
            if a is not None:
                n = look.nations.get(look.area_nation[a])
                if n is not None and n.owner == look.me:
                    return n
        return look.current_nation()

    @staticmethod
    def event_of(decision: Decision) -> str | None:
        """The table 1 event a §6.1 decision offers (``Decision.info``)."""
        return (decision.info or {}).get("event")

    # -- §4 combat ---------------------------------------------------------------------------------
    def assign_hits(self, decision: Decision, look: Look) -> str:
        """Phase IV: hits are placed to kill ("use 6's to kill"): fewest armies left, then
        the least health (a wounded army cannot retreat and dies to the next hit)."""
        def key(k: str):
            u, w = map(int, k[1:].split("w"))
            return (u + w, 2 * u + w)
        return min(decision.keys, key=key)

    def side_values(self, look: Look, n: NationView) -> tuple[float, float, float]:
        """(mine, theirs, space PVPV) of the battle for ``n`` (OV for the attacker, DV for
        the defender, AU-Q6)."""
        bt = look.fight()
        a = bt.area
        att = look.nations.get(bt.attacker)
        dfd = look.nations.get(bt.defender)
        ov_unit = T.unit_ov((int(att.fervour) if att else 0) + self.race_bonus(look, att.race if att else None, a))
        dv_unit = T.unit_dv(self.rough(look, a), self.race_bonus(look, dfd.race if dfd else None, a))
        ov = T.side_value(bt.au, bt.aw, ov_unit)
        dv = T.side_value(bt.du, bt.dw, dv_unit, bt.city)
        pv = self.value(look, n, a)
        return (ov, dv, pv) if n.id == bt.attacker else (dv, ov, pv)

    def retreat_to(self, look: Look, n, areas: list[int], choose) -> str:
        """The area a retreating nation's units go to, one at a time: where its first unit
        went (so they stay together), or ``choose(look, n, areas)`` for the first."""
        dest = self._retreat_dest.get(n.id)
        if dest is None or dest not in areas:
            dest = choose(look, n, areas)
        self.note_moved(n, dest)
        return look.board.ids[dest]

    def retreat(self, decision: Decision, look: Look) -> str:
        """§4.1–4.2: the retreat check, and where to go (the retreat preference list)."""
        bt = look.fight()
        n = self.battle_nation(decision, look)
        keys = list(decision.keys)
        areas = [look.board.index[k] for k in keys[1:]]
        if keys[0] == "stop":
            return self.retreat_to(look, n, areas, self.retreat_destination)
        if n.id == bt.attacker:
            sent = self.phase.battle_sent if self.phase is not None and self.phase.nid == n.id else bt.au + bt.aw
            if sent <= bt.au + bt.aw:
                return "stay"  # §4.1.1: the attacker checks only after losing an army (AU-Q25)
        mine, theirs, pv = self.side_values(look, n)
        strength = None
        if self.level.real_retreat:
            # AU-Q26 (normal, hard): the strength modifier from the exact odds
            p = self.battle_chance(look)
            strength = T.odds_modifier(p if n.id == bt.attacker else 1 - p)
        roll = 3 if self.level.sure_retreat else self.dice.d6()  # hard: retreat iff the modifiers favour it
        check = T.retreat_check(roll, mine, theirs, space_pvpv=pv, strength=strength)
        side = "attacking" if n.id == bt.attacker else "defending"
        if not check.passed:
            self.explain(n, f"retreat check {side} in {look.board.names[bt.area]} ({mine:g} v {theirs:g}): {check.text()}")
            return "stay"
        dest = self.retreat_destination(look, n, areas)
        self._retreat_dest[n.id] = dest
        self.explain(n, f"retreat check {side} in {look.board.names[bt.area]} ({mine:g} v {theirs:g}): "
                        f"{check.text()} to {look.board.names[dest]}")
        self.note_moved(n, dest)
        return look.board.ids[dest]

    def battle_chance(self, look: Look) -> float:
        """The exact chance that the attacker of the battle under way ends holding the area."""
        bt = look.fight()
        att = look.nations.get(bt.attacker)
        dfd = look.nations.get(bt.defender)
        return take_chance(bt.au + bt.aw, bt.du + bt.dw, look.board.terrain[bt.area],
                           fervour=bool(att and att.fervour), attacker_race=att.race if att else None,
                           defender_race=dfd.race if dfd else None, city=bt.city > 0,
                           attackers_wounded=bt.aw, defenders_wounded=bt.dw)

    def note_moved(self, n: NationView, dest: int) -> None:
        ph = self.phase
        if ph is not None and ph.nid == n.id and self.look is not None and self.look.current == n.id:
            ph.moved[dest] = ph.moved.get(dest, 0) + 1

    def battle_nation(self, decision: Decision, look: Look) -> NationView:
        bt = look.fight()
        named = look.nation((decision.info or {}).get("nation"))
        if named is not None and named.id in (bt.attacker, bt.defender) and named.owner == look.me:
            return named
        for nid in (bt.defender, bt.attacker):
            n = look.nations.get(nid)
            if n is not None and n.owner == look.me:
                return n
        return look.nations[bt.attacker]

    def retreat_destination(self, look: Look, n: NationView, areas: list[int]) -> int:
        """§4.2 "Where to retreat": most friendly or empty adjacent spaces, then the highest
        PVPV, then the most friendly DV; the bot's die breaks what is left."""
        b = look.board
        friendly = n.land | look.empty_land()
        joined = self.level.connected and n.land
        rest = n.land & ~(1 << look.battle.area) if look.battle is not None else n.land

        def key(d: int):
            adj = bin(b.nbr_mask[d] & b.land_mask & friendly).count("1")
            fdv = n.units.get(d, 0) * self.unit_dv(look, n, d)
            # AU-Q34 (normal, hard): own land first, then land touching it (§6.4)
            apart = 0 if not joined else (0 if (rest >> d) & 1 else (1 if b.nbr_mask[d] & rest else 2))
            return (apart, -adj, -self.value(look, n, d), -fdv, self.rand())

        return min(areas, key=key)

    def withdraw(self, decision: Decision, look: Look) -> str:
        """§9.2: the withdrawing attacker goes where a retreat would (§4.2 list)."""
        n = look.nation(look.current) or look.nations[look.fight().attacker]
        dest = self.retreat_destination(look, n, self.areas_of_keys(look, decision))
        self.note_moved(n, dest)
        return look.board.ids[dest]

    def submit(self, decision: Decision, look: Look) -> str:
        """§4.3 submission check, before the battle (AU-Q27)."""
        bt = look.fight()
        n = look.nations[bt.defender]
        att = look.nations[bt.attacker]
        if not T.submission_possible(n.areas, att.areas):
            return "fight"
        m = self.memory.sheets.get(n.id)
        check = T.submission_check(self.dice.d6(), defender_areas=n.areas, attacker_areas=att.areas,
                                   tr=m.tr if m else None, last_space=n.areas == 1)
        self.explain(n, f"submission check against the {att.name}: {check.text()}")
        return "submit" if check.passed else "fight"

    # -- movement ----------------------------------------------------------------------------------
    def move(self, decision: Decision, look: Look) -> str:
        n = look.current_nation()
        k = (decision.info or {}).get("phase", 1)
        ph = self.phase
        if ph is None or (ph.turn, ph.nid) != (look.turn, n.id) or (k == 2 and ph.k == 1):
            ph = self.phase = Phase(look.turn, n.id, k)
            self._retreat_dest.pop(n.id, None)
        keys = self._move_keys = MoveKeys(decision, look)
        return Planner(self, look, n, ph, keys).choose()

    # -- §1.1 placement ----------------------------------------------------------------------------
    def place(self, decision: Decision, look: Look) -> str:
        """§1.1: the space giving the most VP, with the fewest armies; in doubt a plain
        before a mountain (AU-Q21: lower DV per army first); then the die."""
        n = look.current_nation()
        areas = self.areas_of_keys(look, decision)
        guard = self.level.guard

        def key(x: int):
            # AU-Q36 (normal, hard): a space enemy armies border is the one whose VP is at stake
            vp = self.value(look, n, x) + (1 if guard and self.threat(look, x) else 0)
            return (-vp, n.units.get(x, 0), self.unit_dv(look, n, x), self.rand())

        return look.board.ids[min(areas, key=key)]

    def threat(self, look: Look, a: int) -> int:
        """AU-Q36: the armies of other players' nations next to ``a`` (land or sea)."""
        mine = look.me
        total = 0
        for b in bits(look.board.nbr_mask[a] & look.occupied):
            holder = look.nations.get(look.area_nation[b])
            if holder is not None and holder.owner != mine:
                total += holder.units.get(b, 0)
        return total

    # -- §5 entry and the nation limit ------------------------------------------------------------
    def entry_sea(self, decision: Decision, look: Look) -> str:
        """The sea whose reachable spaces are most attractive: each space's AT above zero
        adds up (empty land 1, capped by the armies landing; AU-Q35, normal and hard: a
        third for land a nation already at sea reaches too), −2 for each space of the
        bot's own colour in reach (Special Rule B); ties: most empty plains, then die."""
        b = look.board
        arriving = (decision.info or {}).get("units", 10)
        own_colour = look.colour_land(look.me)
        reach = look.reach(Newcomer())
        empty = look.empty_land()
        contested = self.contested_land(look, reach) if self.level.spread else 0

        def key(k: str) -> tuple[float, int, float]:
            sea = b.index[k]
            r = reach.from_area(sea)
            n_empty = bin(r & empty & ~contested).count("1") + bin(r & empty & contested).count("1") / CONTESTED
            score = min(n_empty, arriving)
            for t in bits(r & look.occupied & ~own_colour):
                holder = look.nations.get(look.area_nation[t])
                if holder is None:
                    continue
                at = 1 - T.dv(holder.units.get(t, 0), self.rough(look, t), self.race_bonus(look, holder.race, t))
                if at > 0:
                    score += at
            score -= T.OWN_COLOUR_MALUS * bin(r & own_colour).count("1")
            plains = sum(1 for t in bits(r & empty) if not self.rough(look, t))
            return (-score, -plains, self.rand())

        return min(decision.keys, key=key)

    @staticmethod
    def contested_land(look: Look, reach) -> int:
        """AU-Q35: the land that nations already at sea (not yet landed) can reach."""
        b = look.board
        out = 0
        for other in look.nations.values():
            if other.land:
                continue
            for s in other.units:
                if b.is_sea[s]:
                    out |= reach.from_area(s)
        return out

    def nation_limit(self, decision: Decision, look: Look) -> str:
        """§5.3: relinquish the own nation with the lowest PVPV (VP next round) if the new
        one promises more (its land, or ≈4 for one arriving from the sea), else refuse."""
        new = look.nation((decision.info or {}).get("nation"))
        new_value = (self.nation_vp(look, new) if new is not None and new.land else INVADER_VALUE)
        mine = [look.nations[int(k.split(":")[1])] for k in decision.keys if k.startswith("relinquish:")]
        if not mine:
            return "refuse"
        worst = min(mine, key=lambda x: (self.nation_vp(look, x), x.total, self.rand()))
        if self.nation_vp(look, worst) < new_value:
            return f"relinquish:{worst.id}"
        return "refuse"

    def excess_nation(self, decision: Decision, look: Look) -> str:
        """§10.1: give up the nation with the lowest PVPV, then the fewest armies."""
        mine = [look.nations[int(k[5:])] for k in decision.keys]
        worst = min(mine, key=lambda x: (self.nation_vp(look, x), x.total, self.rand()))
        return f"give:{worst.id}"

    # -- §6.1 events -----------------------------------------------------------------------------
    def event(self, decision: Decision, look: Look) -> str:
        """The reroll preference list (AUTO.md "Events"): a civilization token is rerolled
        for only when the event would cost the seat at least :data:`REROLL_PVPV` VP in the
        next scoring round (its PVPV), and at most once a turn:

        1. the nation already rerolled this turn → accept (tokens are the price);
        2. Weak leader for a nation submitted to another colour → its VP (it is absorbed);
        3. Civil war → half its land, rounded down, unless it may come back to the seat
           (counted as lost with the chance (P−1)/P that another player draws it);
        4. Plague (not for lizardmen) → the spaces a die of 4 would empty, the extra armies
           going first;
        5. anything else → accept (Famine and Weak leader cost armies or a turn, no VP).
        """
        n = look.current_nation()
        ev = self.event_of(decision)
        if ev is None:
            return "accept"
        key = (look.turn, n.id)
        if self._rerolls.get(key, 0) >= REROLLS_PER_TURN:
            return "accept"
        loss = self.event_loss(look, n, ev)
        if loss >= REROLL_PVPV:
            self._rerolls[key] = self._rerolls.get(key, 0) + 1
            self.explain(n, f"rerolls {EVENT_NAMES.get(ev, ev)}: it would cost {loss:g} VP next round")
            return "reroll"
        return "accept"

    def event_loss(self, look: Look, n: NationView, ev: str | None) -> float:
        """The VP an event would cost the seat in the next scoring round (its PVPV loss)."""
        races = look.board.tables.races
        if n.race is not None and ev in races[n.race].ignores:
            return 0.0
        if ev == "weak-leader" and n.master is not None:
            master = look.nations.get(n.master)
            return float(self.nation_vp(look, n)) if master is None or master.owner != look.me else 0.0
        if ev == "civil-war":
            players = max(1, len(look.names))
            return (n.areas // 2) * (players - 1) / players
        if ev == "plague":
            return float(max(0, PLAGUE_GUESS - (n.total - n.areas)))
        return 0.0

    def pips(self, look: Look, n: NationView) -> int:
        t = look.board.tables
        total = 0
        for a in bits(n.land):
            if n.race is not None:
                total += t.races[n.race].pips[land_terrain(look.board, a)]
            else:
                total += look.board.pips[a]
        return min(total // t.pips_per_unit, n.areas, n.pool) * t.pips_per_unit

    # -- removals --------------------------------------------------------------------------------
    def removal_key(self, look: Look, n: NationView, a: int):
        """Where losing an army hurts least — §1.1's list read backwards: never the last army
        of a space if avoidable, the lowest PVPV, the most armies, rough before plain."""
        return (n.units.get(a, 0) <= 1, self.value(look, n, a), -n.units.get(a, 0), -self.unit_dv(look, n, a), self.rand())

    def plague_own(self, decision: Decision, look: Look) -> str:
        """Plague: as a removal; among equals the space bordering most enemy armies (the
        plague spreads from the spaces where the nation lost armies)."""
        n = self.holder(look, decision)
        nbr = look.board.nbr_mask
        enemy = look.occupied & ~look.colour_land(look.me)

        def key(a: int):
            k = self.removal_key(look, n, a)
            return k[:4] + (-bin(nbr[a] & enemy).count("1"), k[4])

        return look.board.ids[min(self.areas_of_keys(look, decision), key=key)]

    def plague_neighbour(self, decision: Decision, look: Look) -> str:
        """Plague spreading: never the bot's own colour (Special Rule B); the Mortal Enemy's
        armies first, then the spaces with the fewest armies (emptied spaces are AT 1)."""
        n = look.nation(look.current)
        me = self.mortal_enemy(n.id) if n is not None else None
        cands = []
        for k in decision.keys[1:]:
            a = look.board.index[k]
            holder = look.nations.get(look.area_nation[a])
            if holder is None or holder.owner == look.me:
                continue
            cands.append(((0 if holder.owner == me else 1, holder.units.get(a, 0), self.rand()), k))
        if not cands:
            return "stop"
        return min(cands)[1]

    def support_remove(self, decision: Decision, look: Look) -> str:
        n = self.holder(look, decision)
        return look.board.ids[min(self.areas_of_keys(look, decision), key=lambda a: self.removal_key(look, n, a))]

    def civ_token(self, decision: Decision, look: Look) -> str:
        n = self.holder(look, decision)
        return look.board.ids[min(self.areas_of_keys(look, decision), key=lambda a: self.removal_key(look, n, a))]

    def civil_war_area(self, decision: Decision, look: Look) -> str:
        """Civil war: the breakaway takes the spaces of lowest PVPV with the fewest armies,
        hills and forest before plains (the nation keeps its strength and its PIPs)."""
        n = self.holder(look, decision)
        return look.board.ids[min(self.areas_of_keys(look, decision),
                                  key=lambda a: (self.value(look, n, a), n.units.get(a, 0),
                                                 0 if self.rough(look, a) else 1, self.rand()))]

    def keep_part(self, decision: Decision, look: Look) -> str:
        """§6.4 tie: keep the part with the highest PVPV (its VP next round), then the die."""
        n = self.holder(look, decision)
        parts = components(look, n.land)
        cap = look.board.tables.capital_vp - 1

        def key(k: str):
            a = look.board.index[k]
            part = next((p for p in parts if (p >> a) & 1), 1 << a)
            vp = bin(part).count("1") + (cap if n.capital != EMPTY and (part >> n.capital) & 1 else 0)
            return (-vp, self.rand())

        return min(decision.keys, key=key)

    # -- §9.3 abilities, capital, cities ------------------------------------------------------------
    def ability(self, decision: Decision, look: Look) -> str:
        for a in ABILITY_PREFERENCE:
            if a in decision.keys:
                return a
        return decision.keys[0]

    def capital(self, decision: Decision, look: Look) -> str:
        """Capital: where a leader would go (§1.2): the space with the most armies, ties the
        highest DV, then the die."""
        n = look.nations[look.current] if look.current in look.nations else None
        areas = self.areas_of_keys(look, decision)
        if n is None or not all((n.land >> a) & 1 for a in areas):
            n = next(x for x in look.mine() if all((x.land >> a) & 1 for a in areas))
        return look.board.ids[min(areas, key=lambda a: (-n.units.get(a, 0), -self.unit_dv(look, n, a), self.rand()))]

    def city(self, decision: Decision, look: Look) -> str:
        """City building as overpopulation relief (§3.2.4's aim): three armies become a city
        only where the nation would otherwise lose them to the support limit."""
        n = look.current_nation()
        if n.total - support_limit(n) < 3:
            return "done"
        sites = [look.board.index[k] for k in decision.keys if k != "done"]
        a = min(sites, key=lambda x: (-n.units.get(x, 0), self.rand()))
        return look.board.ids[a]

    def diplomacy(self, decision: Decision, look: Look) -> str:
        """Passage: refused to a nation of the Mortal Enemy's colour, granted to the rest
        (a nation let through may not attack the one that let it, §9.3.1)."""
        info = decision.info or {}
        asker = look.nation(info.get("asker"))
        asked = look.nation(info.get("nation"))
        if asker is None or asked is None:
            return "grant"
        me = self.mortal_enemy(asked.id)
        if me is not None and asker.owner == me:
            return "refuse"
        return "grant"

    def absorb_area(self, decision: Decision, look: Look) -> str:
        """§9.2 absorption: take first the spaces worth most VP, then with most armies."""
        areas = self.areas_of_keys(look, decision)
        holder = look.nations.get(look.area_nation[areas[0]])
        master = look.nations.get(holder.master) if holder and holder.master is not None else None

        def key(a: int):
            vp = self.value(look, master, a) if master is not None else 1
            return (-vp, -(holder.units.get(a, 0) if holder else 0), self.rand())

        return look.board.ids[min(areas, key=key)]


#: the method answering each decision kind (looked up on the bot, so subclasses may override)
HANDLERS = {
    "hb.move": "move",
    "hb.assign-hits": "assign_hits",
    "hb.retreat": "retreat",
    "hb.withdraw": "withdraw",
    "hb.submit": "submit",
    "hb.place": "place",
    "hb.entry-sea": "entry_sea",
    "hb.nation-limit": "nation_limit",
    "hb.excess-nation": "excess_nation",
    "hb.event": "event",
    "hb.plague-own": "plague_own",
    "hb.plague-neighbour": "plague_neighbour",
    "hb.support-remove": "support_remove",
    "hb.civ-token-from-board": "civ_token",
    "hb.civil-war-area": "civil_war_area",
    "hb.keep-part": "keep_part",
    "hb.ability": "ability",
    "hb.capital": "capital",
    "hb.city": "city",
    "hb.diplomacy": "diplomacy",
    "hb.absorb-area": "absorb_area",
}
