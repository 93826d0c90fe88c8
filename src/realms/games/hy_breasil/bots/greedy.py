"""The ``greedy`` bot for Hy Breasil: an odds-aware one-ply heuristic.

At every move it takes the best single action it sees, scored by what Hy Breasil pays
now, with no plan beyond it:

* an area is worth its VP next round (§7; 3 for the nation's capital, §9.3.1), its PIPs
  as a share of a new unit (§6.2), what taking it denies another player (one VP of
  theirs, more when they lead) and what it does to connection (§6.4): joining two of
  the nation's parts, or cutting an enemy nation in two;
* empty land is taken with one unit; an enemy area is attacked with the fewest units
  whose exact chance of taking it (:mod:`.chances`, the solver of §6.3.1–6.3.2) reaches
  :data:`GOOD_ODDS`, or with every free unit when those still reach :data:`FAIR_ODDS`;
  never at worse odds, never a nation of its own seat;
* it never empties an area and only takes land that joins the nation (§6.4);
* in battle it retreats only when the odds have turned clearly against it;
* a new nation lands where the most free land is in reach that no nation already at
  sea reaches too (so first-turn nations spread out).

Every other decision (placement, events, removals, abilities …) and its defensive moves
are the auto bot's preference lists as first transcribed (AUTO.md, level ``easy``).  Deterministic for a seed: its own dice break ties.

>>> from realms.core.agents import RandomBot
>>> from realms.core.match import play
>>> from realms.games.hy_breasil import GAME
>>> state = GAME.new_game({"players": 2, "turns": 2}, seed=3)
>>> _ = play(state, [GreedyBot(1), RandomBot(2)])
>>> state.result()["winner"] is not None
True
"""

from __future__ import annotations

from realms.core.decision import Decision

from ..connect import bits
from .auto import AutoBot
from .chances import fewest_for, take_chance
from .look import Look, NationView, Newcomer, land_terrain
from .moves import MoveKeys, Phase, Planner

#: attack with the fewest units whose chance of taking the area is at least this
GOOD_ODDS = 0.8
#: … or with every free unit if that is all there is and the chance is at least this
FAIR_ODDS = 0.65
#: the value of a unit committed to an attack (it may die; it leaves its area thinner)
UNIT_COST = 0.1
#: a defender retreats below this chance of holding, an attacker below this chance of taking
DEFENDER_RETREAT, ATTACKER_RETREAT = 0.2, 0.25


class GreedyBot(AutoBot):
    """One-ply odds-aware Hy Breasil player; ``GreedyBot(seed)``."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        # the auto bot's preference lists as first transcribed (level easy) for the
        # decisions greedy does not make itself: a fixed sparring partner
        super().__init__(seed, level="easy")

    def move(self, decision: Decision, look: Look) -> str:
        n = look.current_nation()
        k = (decision.info or {}).get("phase", 1)
        ph = self.phase
        if ph is None or (ph.turn, ph.nid) != (look.turn, n.id) or (k == 2 and ph.k == 1):
            ph = self.phase = Phase(look.turn, n.id, k)
            self._retreat_dest.pop(n.id, None)
        keys = self._move_keys = MoveKeys(decision, look)
        return GreedyPlanner(self, look, n, ph, keys).choose()

    def retreat(self, decision: Decision, look: Look) -> str:
        """Stay while the odds hold; retreat (to own land first) once they have turned."""
        bt = look.fight()
        n = self.battle_nation(decision, look)
        keys = list(decision.keys)
        areas = [look.board.index[k] for k in keys[1:]]
        if keys[0] == "stop":
            return self.retreat_to(look, n, areas, self.safe_retreat)
        p = battle_take_chance(self, look)
        if n.id == bt.attacker:
            if p >= ATTACKER_RETREAT:
                return "stay"
        elif 1 - p >= DEFENDER_RETREAT:
            return "stay"
        dest = self.safe_retreat(look, n, areas)
        self._retreat_dest[n.id] = dest
        self.note_moved(n, dest)
        return look.board.ids[dest]

    def safe_retreat(self, look: Look, n: NationView, areas: list[int]) -> int:
        """Own land first (the nation stays joined, §6.4), then the §4.2 list."""
        own = [a for a in areas if (n.land >> a) & 1]
        return self.retreat_destination(look, n, own or areas)

    def submit(self, decision: Decision, look: Look) -> str:
        """Submit (§9.2) only in the last area and against odds it cannot hold."""
        n = look.nations[look.fight().defender]
        if n.areas == 1 and battle_take_chance(self, look) > 0.7:
            return "submit"
        return "fight"

    def entry_sea(self, decision: Decision, look: Look) -> str:
        return spread_entry(self, decision, look)


def battle_take_chance(bot: AutoBot, look: Look) -> float:
    """The exact chance that the attacker of the battle under way ends holding its area."""
    bt = look.fight()
    b = look.board
    a = bt.area
    att = look.nations.get(bt.attacker)
    dfd = look.nations.get(bt.defender)
    return take_chance(bt.au + bt.aw, bt.du + bt.dw, b.terrain[a], fervour=bool(att and att.fervour),
                       attacker_race=att.race if att else None, defender_race=dfd.race if dfd else None,
                       city=bt.city > 0, attackers_wounded=bt.aw, defenders_wounded=bt.dw)


def spread_entry(bot: AutoBot, decision: Decision, look: Look) -> str:
    """A landing sea (§5): the most empty land in reach (plains a little more), counting
    at a third the land a nation already at sea also reaches, less the land of the bot's
    own colour in reach; ties by die.  First-turn nations so spread over the map."""
    b = look.board
    arriving = (decision.info or {}).get("units", 10)
    reach = look.reach(Newcomer())
    contested = bot.contested_land(look, reach)
    own = look.colour_land(look.me)
    empty = look.empty_land()

    def key(k: str) -> tuple[float, float]:
        r = reach.from_area(b.index[k])
        free = r & empty
        score = 0.0
        for t in bits(free):
            w = 1.2 if not bot.rough(look, t) else 1.0
            score += w / 3 if (contested >> t) & 1 else w
        score = min(score, arriving) - 2 * bin(r & own).count("1")
        return (-score, bot.rand())

    return min(decision.keys, key=key)


class GreedyPlanner(Planner):
    """The auto planner with the greedy choice of action (defensive moves are auto's)."""

    def gain(self, t: int, holder: NationView | None) -> float:
        """What taking ``t`` is worth now: its VP and what Hy Breasil pays beyond (PIPs,
        denial, connection: the auto bot's AU-Q13 values)."""
        return self.own_value(t) + self.hb_extra(t, holder)

    def offensive_action(self) -> str | None:
        look, b = self.look, self.board
        rows = self.keys.rows
        reach = 0
        for src, dests in rows.items():
            if self.movers(src) > 0:
                reach |= dests
        best = None
        r = self.bot.rand
        for t in bits(reach & b.land_mask):
            if not self.linked(t):
                continue
            holder = look.nations.get(look.area_nation[t])
            sources = self.sources_for(t)
            if not sources:
                continue
            if holder is None:
                score, k, p = self.gain(t, None), 1, 1.0
            elif holder.id == self.n.id or holder.owner == look.me:
                continue
            else:
                have = sum(self.movers(s) for s in sources)
                d = holder.units.get(t, 0)
                mods = self.battle_mods(holder, t)
                k, p = fewest_for(GOOD_ODDS, d, have, land_terrain(b, t), **mods)
                if k == 0:
                    if p < FAIR_ODDS:
                        continue
                    k = have
                score = p * self.gain(t, holder) - UNIT_COST * k
            key = (-score, r())
            if best is None or key < best[0]:
                best = (key, t, k, p, holder, sources)
        if best is None:
            return None
        _, t, k, p, holder, sources = best
        if holder is None:
            src = self.source_order(t, sources)[0]
            self.ph.moved[t] = self.ph.moved.get(t, 0) + 1
            self.ph.actions += 1
            return self.move(src, t)
        self.bot.explain(self.n, f"attacks {b.names[t]} ({holder.name}) with {k} against "
                                 f"{holder.units.get(t, 0)}: {p:.0%} to take it")
        return self.start(t, k, "attack", sources)


