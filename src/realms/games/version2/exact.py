"""Exact battle odds (2.3.4): a Markov chain over the counts of a battle.

Policy assumed for the battle's choices: the defender faces the battle, both sides fight
on at every retreat offer (no retreat before the round limit, V2-Q26), and each side's
artillery keeps the orders given (``random`` by default) throughout.  Under that policy the
battle's state after a fight-turn is the count of each side's foot troops and artillery,
and the next fight-turn depends on the state and the round only (fire in rounds 1, 3, 5
…, tiredness, the round limit) — provided that within each side every
unit has the same experience and infantry and cavalry fight with the same values, so
that the units of an arm are interchangeable.  Then a fight-turn of :mod:`.battle` is, in
counts:

* artillery fire (V2-Q20): the guns fire one after another at a random enemy unit's kind
  (or as ordered); a shot at artillery kills its random target if it wins the duel, a
  shot at foot troops is one attack roll against ``min(3, foot)`` random foot units, each
  killed if its defence falls short (given the roll, independently); several shots may
  fall on the same unit, so the distinct kills are counted as the shots go (the
  targets already hit are a hypergeometric share of a shot's);
* the foot battle (V2-Q22, Q23): ``n`` units of the smaller side each head a group, the
  larger side's units dealt round to at most 3 a group (sizes ``m // n`` or one more);
  a head dies if any of its group's attacks succeeds, and each head kills its group's
  first unit if its own attack succeeds; ``reserve // 3`` of the smaller side's guns that
  the fire spared are destroyed (V2-Q24);
* a unit hit both by the fire and in the foot battle dies once: the two kill sets are
  independent random subsets, so their overlap is hypergeometric;
* guns without their foot troops facing enemy foot are lost (V2-Q27, Q103); after
  ``round_limit`` rounds the attacker breaks off, losing a third of his infantry.

Infantry and cavalry are then told apart only by the count of each a side started with:
the survivors of a side's foot troops are a uniform random subset of them
(hypergeometric), and a break-off costs ``infantry // 3`` of the infantry among them.

The chain is walked forward round by round, each distinct transition computed once; the
tests check it against the game's own battle steps (:func:`.odds.monte_carlo`) on many
armies.

>>> r = exact_odds([(0, 1, 0)] * 3, [(0, 1, 0)], "meadows")
>>> round(r["conquest"], 4) > 0.9
True
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from .board import TERRAIN_CODE
from .modifiers import factor, side_modifiers
from .rules import ARMS, ARTILLERY, CAVALRY, INFANTRY

if TYPE_CHECKING:
    from .rules import Rules


#: a battle state less likely than this is not followed further (its mass is reported)
NEGLIGIBLE = 1e-9


class NotExact(ValueError):
    """The armies leave the battle's state too large for the chain (mixed experience)."""


@lru_cache(maxsize=None)
def duel_chance(die: int, att: int, att_factor: int, dfn: int, def_factor: int) -> float:
    """2.3.4.3: the chance the attacked unit is destroyed (its total below the attack)."""
    wins = sum(1 for a in range(1, die + 1) for d in range(1, die + 1) if d * dfn * def_factor < a * att * att_factor)
    return wins / (die * die)


@lru_cache(maxsize=None)
def shot_at_foot(die: int, att: int, att_factor: int, dfn: int, def_factor: int, k: int) -> tuple[float, ...]:
    """V2-Q20: the chances that a gun's one attack roll destroys 0 … ``k`` of ``k``
    defending foot units, each rolling its own defence against it."""
    out = [0.0] * (k + 1)
    for a in range(1, die + 1):
        below = sum(1 for d in range(1, die + 1) if d * dfn * def_factor < a * att * att_factor) / die
        for j, p in enumerate(binomial(k, below)):
            out[j] += p / die
    return tuple(out)


def binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def overlap(n: int, a: int, b: int) -> list[tuple[int, float]]:
    """``(x, P)``: the size of the overlap of a fixed ``a``-subset and a uniformly random
    ``b``-subset of ``n`` units (hypergeometric)."""
    if not a or not b:
        return [(0, 1.0)]
    whole = comb(n, b)
    return [(x, comb(a, x) * comb(n - a, b - x) / whole) for x in range(max(0, a + b - n), min(a, b) + 1)]


class Chain:
    """The battle of two uniform armies on one ground (see the module).

    A side's outcome is indexed ``foot * (guns0 + 1) + guns`` with the side's starting
    guns; a fight-turn from a state gives each side's outcome distribution (independent
    given the state), and a round of the whole distribution is one matrix product."""

    def __init__(self, rules: "Rules", start: tuple[int, int, int, int], exp: tuple[int, int], defence: int,
                 orders: tuple[str, str], begun: tuple[int, int] | None = None) -> None:
        self.rules = rules
        # each side's size when the battle began (its morale, 2.3.4.4): ``begun`` for a battle under way
        self.start = list(begun) if begun else [start[0] + start[1], start[2] + start[3]]
        self.shape = (start[0] + 1, start[1] + 1, start[2] + 1, start[3] + 1)
        self.exp = exp
        self.defence = defence
        self.orders = orders
        self.memo: dict = {}
        self.parts: dict = {}
        self.factors: dict = {}
        foot_att = {rules.attack[INFANTRY], rules.attack[CAVALRY]}
        foot_def = {rules.defend[INFANTRY], rules.defend[CAVALRY]}
        if len(foot_att) > 1 or len(foot_def) > 1:
            raise NotExact("infantry and cavalry fight with different values")
        self.foot_att, self.foot_def = foot_att.pop(), foot_def.pop()

    def round_key(self, rnd: int) -> tuple:
        """What of the round number a fight-turn depends on: fire, and tiredness
        (constant once at its most, 2.3.4.4)."""
        m = self.rules.mod
        tired = 0
        if rnd >= m["tiredness_from"]:
            tired = max(m["tiredness_max"], m["tiredness_per_round"] * (rnd - m["tiredness_from"] + 1))
        return ((rnd - 1) % self.rules.fire_every == 0, tired)

    def step(self, state: tuple[int, ...], rnd: int) -> list:
        """Each side's outcome distribution after fight-turn ``rnd`` from ``state`` (foot 0,
        guns 0, foot 1, guns 1), before guns without foot troops are lost."""
        key = (state, self.round_key(rnd))
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._step(state, rnd)
        return hit

    def _cached(self, key: tuple, make):
        v = self.parts.get(key)
        if v is None:
            v = self.parts[key] = make()
        return v

    def _step(self, state: tuple, rnd: int) -> list:
        r = self.rules
        foot, guns = [state[0], state[2]], [state[1], state[3]]
        mods = side_modifiers(r, [foot[0] + guns[0], foot[1] + guns[1]], self.start, rnd, self.defence)
        fac = self.factors.get((mods[0], mods[1]))
        if fac is None:
            fac = self.factors[(mods[0], mods[1])] = [factor(r, mods[s], self.exp[s], self.exp[1 - s]) for s in (0, 1)]
        fire: list = [None, None]
        if (rnd - 1) % r.fire_every == 0:
            for s in (0, 1):
                e = 1 - s
                if guns[s] and foot[e] + guns[e]:
                    args = (guns[s], foot[e], guns[e], fac[s], fac[e], self.orders[s])
                    fire[e] = self._cached(("fire", *args), lambda: self._fire(*args))
        battle: list = [None, None]
        hits = [0, 0]
        if foot[0] and foot[1]:
            small = 0 if foot[0] <= foot[1] else 1
            big = 1 - small
            n, m = foot[small], foot[big]
            fighting = min(m, n * r.max_group)
            battle[small], battle[big] = self._cached(("foot", n, fighting, fac[small], fac[big]),
                                                      lambda: self._foot(n, fighting, fac[small], fac[big]))
            hits[small] = (m - fighting) // r.foot_targets
        out = []
        parts = self.parts
        for s in (0, 1):
            key = (s, foot[s], guns[s], id(fire[s]), id(battle[s]), hits[s])
            v = parts.get(key)
            if v is None:
                v = parts[key] = self._side(s, foot[s], guns[s], fire[s], battle[s], hits[s])
            out.append(v)
        return out

    def _foot(self, n: int, fighting: int, fac_small: int, fac_big: int) -> tuple:
        """The foot battle's kills: of the smaller side's ``n`` heads, of the larger's."""
        r = self.rules
        p_big = duel_chance(r.die, self.foot_att, fac_big, self.foot_def, fac_small)
        p_small = duel_chance(r.die, self.foot_att, fac_small, self.foot_def, fac_big)
        low = fighting // n
        more = fighting - low * n  # groups with one unit more
        heads = [1.0]
        for size, count in ((low, n - more), (low + 1, more)):
            if count:
                heads = convolve(heads, binomial(count, 1 - (1 - p_big) ** size))
        return np.array(heads), np.array(binomial(n, p_small))

    def _side(self, s: int, foot: int, guns: int, fire, battle, hits: int):
        """A side's outcome distribution: the fire's kills (``fire[guns killed, foot
        killed]``) and the foot battle's, a unit hit by both dying once (hypergeometric
        overlap), and the reserve's hits on the guns the fire spared."""
        if fire is None:
            fire = NO_FIRE
        width = self.shape[2 * s + 1]
        out = np.zeros(self.shape[2 * s] * width)
        if battle is None:
            for ka, kf in zip(*np.nonzero(fire)):
                out[(foot - kf) * width + guns - ka] += fire[ka, kf]
            return out
        key = (id(battle), foot, fire.shape[1])
        by_kf = self.parts.get(key)
        if by_kf is None:
            by_kf = self.parts[key] = battle @ union_stack(foot, fire.shape[1] - 1, len(battle) - 1)
        lost = by_kf if fire is NO_FIRE else fire @ by_kf
        top = foot * width
        for ka in range(fire.shape[0]):
            g = guns - ka - min(hits, guns - ka)
            out[top + g::-width] += lost[ka]
        return out

    def _fire(self, shots: int, foot: int, guns: int, fac_s: int, fac_e: int, order: str) -> np.ndarray:
        """The enemy's (guns killed, foot killed) after ``shots`` shots, one after another."""
        r = self.rules
        if not guns or not foot:
            p_art = 0.0 if foot else 1.0
        elif order == "random":
            p_art = guns / (guns + foot)
        else:
            p_art = 1.0 if order == "artillery" else 0.0
        kill_art = duel_chance(r.die, r.attack[ARTILLERY], fac_s, r.defend[ARTILLERY], fac_e)
        k = min(r.foot_targets, foot)
        dist = {(0, 0): 1.0}
        for _ in range(shots):
            nxt: dict = {}

            def add(key: tuple[int, int], q: float) -> None:
                if q:
                    nxt[key] = nxt.get(key, 0.0) + q

            for (ka, kf), p in dist.items():
                a = p_art * (guns - ka) / guns * kill_art if guns else 0.0
                add((ka + 1, kf), p * a)
                add((ka, kf), p * (p_art - a))
                if foot:
                    for x, h in overlap(foot, kf, k):   # x of the targets already hit
                        for j, q in enumerate(shot_at_foot(r.die, r.attack[ARTILLERY], fac_s, self.foot_def,
                                                           fac_e, k - x)):
                            add((ka, kf + j), p * (1 - p_art) * h * q)
            dist = nxt
        out = np.zeros((min(shots, guns) + 1, min(shots * k, foot) + 1))
        for (ka, kf), p in dist.items():
            out[ka, kf] += p
        return out


#: no fire: nothing killed
NO_FIRE = np.ones((1, 1))


@lru_cache(maxsize=None)
def union_stack(n: int, amax: int, bmax: int) -> np.ndarray:
    """``U[a, b, k]``: :func:`union_matrix` for ``a`` up to ``amax``."""
    return np.stack([union_matrix(n, a, bmax) for a in range(amax + 1)])


@lru_cache(maxsize=None)
def union_matrix(n: int, a: int, bmax: int) -> np.ndarray:
    """``U[b, k]``: the chance that a fixed ``a``-subset and a uniformly random ``b``-subset
    of ``n`` units together hold ``k`` units (``b`` up to ``bmax``)."""
    u = np.zeros((bmax + 1, n + 1))
    for b in range(bmax + 1):
        for x, p in overlap(n, a, b):
            u[b, a + b - x] += p
    return u


def _uniform(units: list[tuple], where: str) -> int:
    exps = {u[2] for u in units}
    if len(exps) > 1:
        raise NotExact(f"the {where}'s units differ in experience")
    return exps.pop()


def exact_odds(attacker: list[tuple], defender: list[tuple], terrain: str = "meadows", *, capitol: bool = False,
               warehouse: bool = False, orders: str = "random", rules: "Rules | None" = None,
               defender_orders: str | None = None, fought: int = 0, begun: tuple[int, int] | None = None) -> dict:
    """The odds of a battle by the chain (see the module), in the form of
    :func:`.odds.battle_odds`; raises :class:`NotExact` where the chain does not apply.
    A battle under way: ``fought`` fight-turns fought, the sides ``begun`` so large."""
    from .rules import load_rules

    r = rules or load_rules()
    counts = [[sum(1 for u in army if u[0] == a) for a in range(3)] for army in (attacker, defender)]
    exp = (_uniform(attacker, "attacker"), _uniform(defender, "defender"))
    defence = r.terrain_mod[TERRAIN_CODE[terrain]]
    if capitol:
        defence += r.mod["capitol"]
    elif warehouse:
        defence += r.mod["building"]
    start = (counts[0][0] + counts[0][1], counts[0][2], counts[1][0] + counts[1][1], counts[1][2])
    chain = Chain(r, start, exp, defence, (orders, defender_orders or orders), begun)
    ends = np.zeros(chain.shape)      # the final states of battles decided in a fight-turn
    broken = np.zeros(chain.shape)    # … and of those the attacker broke off (V2-Q26)
    rounds = dropped = 0.0
    live: list[tuple[tuple[int, ...], float]] = [(start, 1.0)]
    rnd = fought
    while live:
        rnd += 1
        steps = [chain.step(state, rnd) for state, _ in live]
        p = np.array([q for _, q in live])
        m = ((np.array([a for a, _ in steps]) * p[:, None]).T @ np.array([b for _, b in steps])).reshape(chain.shape)
        # guns without their foot troops facing enemy foot troops are lost (2.3.4.3)
        m[0, 0, 1:, :] += m[0, 1:, 1:, :].sum(axis=0)
        m[0, 1:, 1:, :] = 0.0
        m[1:, :, 0, 0] += m[1:, :, 0, 1:].sum(axis=2)
        m[1:, :, 0, 1:] = 0.0
        done = m.copy()
        done[1:, :, 1:, :] = 0.0
        done[:1, 1:, 1:, :] = 0.0
        done[1:, :, :1, 1:] = 0.0
        done[0, 1:, 0, 1:] = 0.0
        ends += done
        rounds += rnd * done.sum()
        m -= done
        if rnd >= r.round_limit:
            broken += m
            rounds += rnd * m.sum()
            break
        keep = m >= NEGLIGIBLE
        values = m[keep]
        dropped += float(m.sum() - values.sum())
        live = list(zip(map(tuple, np.argwhere(keep).tolist()), values.tolist()))
    return _summary(r, ends, broken, counts, rounds, len(chain.memo), orders, dropped)


def _foot_split(total: int, inf: int, left: int, breaks: bool, divisor: int) -> tuple[float, float]:
    """Expected infantry and cavalry among ``left`` survivors of ``total`` foot troops that
    began with ``inf`` infantry (a uniform random subset); on a break-off a third of the
    infantry, rounded down, is lost."""
    if not total:
        return 0.0, 0.0
    e_inf = e_cav = 0.0
    for i, p in overlap(total, inf, left):
        kept = i - i // divisor if breaks else i
        e_inf += p * kept
        e_cav += p * (left - i)
    return e_inf, e_cav


def _summary(r: "Rules", ends: np.ndarray, broken: np.ndarray, counts: list, rounds: float, transitions: int,
             orders: str, dropped: float) -> dict:
    conquest = float(ends[:, :, 0, 0].sum() - ends[0, 0, 0, 0])
    void = float(ends[0, 0, 0, 0])
    survivors = [[0.0] * 3, [0.0] * 3]
    foot = [counts[0][0] + counts[0][1], counts[1][0] + counts[1][1]]
    for table, breaks in ((ends, False), (broken, True)):
        for f0, g0, f1, g1 in np.argwhere(table > 0).tolist():
            p = float(table[f0, g0, f1, g1])
            i, c = _foot_split(foot[0], counts[0][0], f0, breaks, r.infantry_loss_divisor)
            for arm, v in ((INFANTRY, i), (CAVALRY, c), (ARTILLERY, g0)):
                survivors[0][arm] += p * v
            if f1 + g1:  # the defender holds the field
                i, c = _foot_split(foot[1], counts[1][0], f1, False, r.infantry_loss_divisor)
                for arm, v in ((INFANTRY, i), (CAVALRY, c), (ARTILLERY, g1)):
                    survivors[1][arm] += p * v
    return {
        "method": (f"exact: a Markov chain over the battle's counts ({transitions} distinct fight-turns), "
                   f"both sides fighting on, artillery orders {orders}"),
        "exact": True,
        "conquest": conquest, "conquest_95": [conquest, conquest],
        "attacker_breaks_off": float(broken.sum()), "both_destroyed": void,
        "defender_holds": 1 - conquest,
        "attacker_survivors": {ARMS[k]: survivors[0][k] for k in range(3)},
        "defender_survivors": {ARMS[k]: survivors[1][k] for k in range(3)},
        "mean_rounds": float(rounds),
        "unresolved": dropped,
    }
