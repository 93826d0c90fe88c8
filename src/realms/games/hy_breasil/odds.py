"""Exact battle odds for Hy Breasil (§6.3.1 combat, §6.3.2 retreat).

A battle is a Markov chain over the two sides' unhurt and wounded counts.  Every round
each unit rolls one die; the hits a side scores are applied by that side (§6.3.1), then
the defender and, if it stayed, the attacker may retreat their unwounded units (§6.3.2).
A round in which nobody hits leaves the state as it was: that self-loop is summed in
closed form (divide by ``1 - p_stay``), so every answer is exact up to float rounding —
nothing here samples.

Modifiers: Religious fervour (§6.1) adds one to the attacker's dice; a troll adds one in
hills and a hogman in forest, attacking or defending (§9.1); a defending city (§9.3.1
City building) adds one die at the plain hit number, cannot be hit while a defending army
stands, is hit by the attacker's dice on the plain number too (no terrain benefit for a
city, RULINGS HB-Q42), and is taken over when it alone survives.  Hit numbers and race bonuses come from
the game's rule tables (``data/rules.toml`` via :func:`load_tables`).

Two solvers share the rules below and agree to rounding (the tests check it):

* ``_General`` — any policy: every (unhurt, wounded, retreated) state of both sides,
  solved backwards, so one pass answers every smaller battle too; the ``best`` policy's
  choices are made there by backward induction.  One such table is kept per set of
  modifiers and grown to the largest battle asked for: once warm, a query up to
  :data:`TABLE_UNITS` a side is a look-up.
* ``_GreedyGrid`` — policy ``greedy`` only, for larger battles: greedy never leaves more
  than one wounded unit, so a side's state is its health ``2·unhurt + wounded`` and a
  round moves probability mass down a rectangle of the health grid (forward propagation
  with numpy block updates).

:func:`monte_carlo` plays the same battles with the game's own combat code
(``combat.py``: the ``fight``/``battle_round``/``allocate``/``retreat`` steps), answering
its ``hb.assign-hits`` and ``hb.retreat`` decisions by the same policy, so that both can
be compared.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from .combat import hit_outcomes
from .steps import GAME_ID
from .tables import RACES, TERRAINS, Tables, load_tables

POLICIES = ("greedy", "best")
#: The largest battle the solver takes (a side of a real game has at most a set's tokens).
MAX_UNITS = 200
#: ``best`` solves every unhurt/wounded split of both sides: ~(n²/2)² states.
MAX_BEST_UNITS = 25
#: Two options whose values differ by no more than this are a tie (broken towards greedy).
TIE = 1e-12

OUTCOMES = ("attacker_wins", "defender_wins", "mutual", "attacker_retreats", "defender_retreats")


class OddsError(ValueError):
    """A battle the solver does not take; the message names the bad argument."""


# --------------------------------------------------------------------------- the query


@dataclass(frozen=True)
class Battle:
    """One battle to solve.  A retreat threshold ``N`` > 0 means: at the end of every
    round, a side with fewer than ``N`` units in the area retreats all its unwounded
    units (RULINGS HB-Q202); 0 never retreats.  ``attackers_wounded`` of the
    ``attackers`` (and likewise for the defenders) are wounded: a battle in progress,
    about to roll its next round."""

    attackers: int
    defenders: int
    terrain: str = "plains"
    fervour: bool = False
    attacker_race: str | None = None
    defender_race: str | None = None
    city: bool = False
    policy: str = "greedy"
    attacker_retreat_below: int = 0
    defender_retreat_below: int = 0
    attackers_wounded: int = 0
    defenders_wounded: int = 0

    def __post_init__(self) -> None:
        for name in ("attackers", "defenders", "attacker_retreat_below", "defender_retreat_below",
                     "attackers_wounded", "defenders_wounded"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise OddsError(f"{name} must be a whole number, got {v!r}")
            if v < 0:
                raise OddsError(f"{name} must not be negative, got {v}")
            if v > MAX_UNITS + 1:
                raise OddsError(f"{name} must be at most {MAX_UNITS}, got {v}")
        for name in ("attackers", "defenders"):
            if getattr(self, name) > MAX_UNITS:
                raise OddsError(f"{name} must be at most {MAX_UNITS}, got {getattr(self, name)}")
        for side in ("attackers", "defenders"):
            if getattr(self, f"{side}_wounded") > getattr(self, side):
                raise OddsError(f"{side}_wounded ({getattr(self, f'{side}_wounded')}) cannot exceed "
                                f"{side} ({getattr(self, side)})")
        if self.terrain not in TERRAINS:
            raise OddsError(f"unknown terrain {self.terrain!r} (known: {', '.join(TERRAINS)})")
        for name in ("attacker_race", "defender_race"):
            r = getattr(self, name)
            if r is not None and r not in RACES:
                raise OddsError(f"unknown {name.replace('_', ' ')} {r!r} (known: {', '.join(RACES)})")
        if self.policy not in POLICIES:
            raise OddsError(f"unknown policy {self.policy!r} (known: {', '.join(POLICIES)})")
        if self.city and self.defenders == 0:
            raise OddsError("a city needs at least one defending army (§9.3.1: a city alone is removed)")
        if self.policy == "best" and max(self.attackers, self.defenders) > MAX_BEST_UNITS:
            raise OddsError(
                f"policy 'best' is solved over every unhurt/wounded split and takes at most "
                f"{MAX_BEST_UNITS} units a side, got {max(self.attackers, self.defenders)}"
            )

    @property
    def attacker_start(self) -> tuple[int, int, int]:
        """(unhurt, wounded, retreated) of the attackers when the next round starts."""
        return (self.attackers - self.attackers_wounded, self.attackers_wounded, 0)

    @property
    def defender_start(self) -> tuple[int, int, int]:
        return (self.defenders - self.defenders_wounded, self.defenders_wounded, 0)


@dataclass(frozen=True)
class HitChances:
    """The chance that one die hits (§6.3.1, §6.1, §9.1, §9.3.1)."""

    attacker: float  # an attacking die against the armies
    defender: float  # a defending army's die
    city: float  # the city's die: the plain hit number, no terrain or race benefit
    attacker_on_city: float = 0.0  # an attacking die against the city: no terrain for it


def race_bonus(race: str | None, terrain: str, tables: Tables | None = None) -> int:
    """§9.1: +1 to a troll's dice in hills and a hogman's in forest, attacking or
    defending (the ``combat_bonus`` of the races in the rule tables)."""
    if race is None:
        return 0
    return int((tables or load_tables()).races[race].combat_bonus.get(terrain, 0))


def _p_die(need: int) -> float:
    """The chance that a d6 scores ``need`` or more; a 6 always hits (RULINGS HB-Q21)."""
    return min(max(7 - need, 1), 6) / 6


def hit_chances(battle: Battle, tables: Tables | None = None) -> HitChances:
    """Per-die hit chances, from the rule tables: both sides hit on ``hit_on`` (4+); the
    attacker needs ``attacker_hit_on_rough`` (5+) in ``rough`` terrain (§6.3.1); the
    bonuses add up (fervour and race, RULINGS HB-Q21).  A city gets no benefit from
    terrain (§9.3.1): its die hits on the plain number, and the attacker's dice hit it on
    the plain number too, with the attacker's own bonuses (RULINGS HB-Q42)."""
    t = tables or load_tables()
    army_need = t.attacker_hit_on_rough if battle.terrain in t.rough else t.hit_on
    mod_a = int(battle.fervour) + race_bonus(battle.attacker_race, battle.terrain, t)
    mod_d = race_bonus(battle.defender_race, battle.terrain, t)
    return HitChances(
        attacker=_p_die(army_need - mod_a),
        defender=_p_die(t.hit_on - mod_d),
        city=_p_die(t.hit_on),
        attacker_on_city=_p_die(t.hit_on - mod_a),
    )


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class OddsResult:
    """The outcome of a battle.

    The five outcomes partition every battle (they sum to 1): ``attacker_wins`` — the
    attacker holds the area and the defender never retreated; ``defender_retreats`` — the
    attacker holds it after the defender retreated; ``defender_wins`` and
    ``attacker_retreats`` likewise for the defender; ``mutual`` — nobody is left in the
    area.  Survivors count every unit alive after the battle, retreated ones included
    (wounded units heal, §6.3.1); ``attackers_left[k]`` is the chance of ``k``.
    ``city_captured``: the attacker holds the area and takes the city intact (§9.3.1).
    """

    battle: Battle
    attacker_wins: float
    defender_wins: float
    mutual: float
    attacker_retreats: float
    defender_retreats: float
    expected_attackers_left: float
    expected_defenders_left: float
    expected_rounds: float
    attackers_left: tuple[float, ...]
    defenders_left: tuple[float, ...]
    city_captured: float = 0.0
    method: str = "exact"
    runs: int = 0
    seed: int | None = None
    hit_chances: HitChances | None = field(default=None, compare=False)

    @property
    def attacker_takes_area(self) -> float:
        return self.attacker_wins + self.defender_retreats

    @property
    def defender_holds_area(self) -> float:
        return self.defender_wins + self.attacker_retreats

    def total(self) -> float:
        return sum(getattr(self, k) for k in OUTCOMES)

    def to_json(self) -> dict:
        out = {
            "game": GAME_ID,
            "method": self.method,
            **{k: v for k, v in asdict(self.battle).items()},
            "attacker_wins": self.attacker_wins,
            "defender_wins": self.defender_wins,
            "mutual": self.mutual,
            "attacker_retreats": self.attacker_retreats,
            "defender_retreats": self.defender_retreats,
            "attacker_takes_area": self.attacker_takes_area,
            "defender_holds_area": self.defender_holds_area,
            "expected_attackers_left": self.expected_attackers_left,
            "expected_defenders_left": self.expected_defenders_left,
            "expected_rounds": self.expected_rounds,
            "attackers_left": {str(k): p for k, p in enumerate(self.attackers_left) if p > 0},
            "defenders_left": {str(k): p for k, p in enumerate(self.defenders_left) if p > 0},
        }
        if self.battle.city:
            out["city_captured"] = self.city_captured
        if self.hit_chances is not None:
            out["hit_chances"] = asdict(self.hit_chances)
        if self.method != "exact":
            out["runs"] = self.runs
            out["seed"] = self.seed
        return out


# --------------------------------------------------------------------------- shared pieces

_AW, _DW, _MU, _AR, _DR = range(5)  # outcome classes, in OUTCOMES order


def _classify(a_in: int, a_ret: int, d_in: int, d_ret: int) -> int:
    """The outcome class of a finished battle: who is left in the area, and whether the
    side that lost it had retreated (RULINGS HB-Q203)."""
    if a_in and not d_in:
        return _DR if d_ret else _AW
    if d_in and not a_in:
        return _AR if a_ret else _DW
    return _MU


def _retreat(a: tuple, d: tuple, ta: int, td: int) -> tuple[tuple, tuple]:
    """§6.3.2 at the end of a round, for sides ``(unhurt, wounded, retreated)``: first the
    defender, then — only if the defender stayed — the attacker retreats every unwounded
    unit when it has fewer than its threshold of units in the area.  Wounded units cannot
    retreat and stay to fight (RULINGS HB-Q202).  Nothing happens once a side is gone."""
    if not (a[0] + a[1]) or not (d[0] + d[1]):
        return a, d
    if d[0] and d[0] + d[1] < td:
        return a, (0, d[1], d[2] + d[0])
    if a[0] and a[0] + a[1] < ta:
        return (0, a[1], a[2] + a[0]), d
    return a, d


@lru_cache(maxsize=4096)
def _binom(n: int, p: float) -> np.ndarray:
    """P(k hits) for k = 0..n dice that each hit with chance ``p``."""
    if p <= 0:
        out = np.zeros(n + 1)
        out[0] = 1.0
        return out
    if p >= 1:
        out = np.zeros(n + 1)
        out[n] = 1.0
        return out
    q = 1.0 - p
    out = np.array([math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)])
    out.flags.writeable = False
    return out


@lru_cache(maxsize=4096)
def _defender_hits(n: int, p: float, city: bool, p_city: float) -> np.ndarray:
    """The defender's hits: ``n`` armies plus the city's die while an army stands."""
    b = _binom(n, p)
    if not city or n == 0:
        return b
    out = np.zeros(n + 2)
    out[:-1] += b * (1 - p_city)
    out[1:] += b * p_city
    out.flags.writeable = False
    return out


def _side_round_stats(ch: HitChances, city: bool, a: tuple, d: tuple):
    """Hit distributions of one round from sides ``a`` and ``d``."""
    na = a[0] + a[1]
    nd = d[0] + d[1]
    pa = _binom(na, ch.attacker)
    pd = _defender_hits(nd, ch.defender, city, ch.city)
    return pa, pd


def _at_least(n: int, p: float, m: int) -> float:
    """P(at least ``m`` of ``n`` dice hit), each with chance ``p``."""
    return 1.0 - sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(min(m, n + 1)))


def _city_destroyed_round(ch: HitChances, pa, pd, a: tuple, d: tuple) -> float:
    """P(this round wipes out the armies, the attacker survives, and the city falls).

    §9.3.1: hits left once every army is dead must go to the city; two destroy it.  A
    die that misses the armies only for the terrain still hits the city (HB-Q42): given
    ``k`` army hits, each of the other dice hits the city with chance ``q``."""
    hd_health = 2 * d[0] + d[1]
    ha_health = 2 * a[0] + a[1]
    survive = float(pd[: min(ha_health, len(pd))].sum())
    if survive == 0.0:
        return 0.0
    n = len(pa) - 1
    p_army = ch.attacker
    q = (ch.attacker_on_city - p_army) / (1 - p_army) if p_army < 1 else 0.0
    falls = float(pa[hd_health + 2 :].sum())
    if q > 0:
        for spare in (0, 1):  # army hits left over for the city; the rest from other dice
            k = hd_health + spare
            if k <= n:
                falls += float(pa[k]) * _at_least(n - k, q, 2 - spare)
    return falls * survive


# --------------------------------------------------------------------------- greedy grid


class _GreedyGrid:
    """Policy ``greedy`` for one battle: forward propagation of probability mass.

    A side's index is its health ``h = 2·unhurt + wounded`` (0..2n) while it has not
    retreated — greedy kills wounded units first and wounds at most one more, so
    ``wounded = h % 2`` — and ``2n + 1 + 2(r - 1) + w`` after it retreated ``r`` units and
    kept ``w`` wounded ones in the area.  Hits move a side down a contiguous range of
    indices, so one round is one block update of a 2-D mass array.
    """

    def __init__(self, battle: Battle, ch: HitChances) -> None:
        self.b = battle
        self.ch = ch

    @staticmethod
    def _space(n: int, threshold: int):
        states = [(h // 2, h % 2, 0) for h in range(2 * n + 1)]
        health = list(range(2 * n + 1))
        for r in range(1, min(threshold - 1, n) + 1):
            for w in (0, 1):  # (0, 0, r) then (0, 1, r): one hit moves down by one
                states.append((0, w, r))
                health.append(w)
        index = {s: i for i, s in enumerate(states)}
        return states, index, health

    def solve(self) -> OddsResult:
        b, ch = self.b, self.ch
        sa, ia_of, hl_a = self._space(b.attackers, b.attacker_retreat_below)
        sd, id_of, hl_d = self._space(b.defenders, b.defender_retreat_below)
        na_, nd_ = len(sa), len(sd)
        P = np.zeros((na_, nd_))  # mass after a round, before §6.3.2 retreats
        C = np.zeros((na_, nd_))  # mass at the start of a round
        if max(b.attackers_wounded, b.defenders_wounded) > 1:
            raise OddsError("the grid engine starts with at most one wounded unit a side")
        start = (2 * b.attackers - b.attackers_wounded, 2 * b.defenders - b.defenders_wounded)
        C[start] = 1.0
        H = np.add.outer(np.array(hl_a), np.array(hl_d))
        order = np.argsort(-H, axis=None, kind="stable")
        terminal: dict[tuple[int, int, int], float] = {}
        rounds = 0.0
        destroyed = 0.0
        ta, td = b.attacker_retreat_below, b.defender_retreat_below
        Pf, Cf = P.ravel(), C.ravel()
        city = b.city
        for flat in order.tolist():
            mp = Pf[flat]
            ia, idd = divmod(flat, nd_)
            if mp:
                Pf[flat] = 0.0
                a2, d2 = _retreat(sa[ia], sd[idd], ta, td)
                C[ia_of[a2], id_of[d2]] += mp
            m = Cf[flat]
            if not m:
                continue
            Cf[flat] = 0.0
            a, d = sa[ia], sd[idd]
            a_in, d_in = a[0] + a[1], d[0] + d[1]
            if not a_in or not d_in:
                key = (_classify(a_in, a[2], d_in, d[2]), a_in + a[2], d_in + d[2])
                terminal[key] = terminal.get(key, 0.0) + m
                continue
            pa, pd = _side_round_stats(ch, city, a, d)
            kh_a = min(len(pa) - 1, hl_d[idd])  # most hits that still matter on the defender
            kh_d = min(len(pd) - 1, hl_a[ia])
            fa = np.array(pa[: kh_a + 1])
            fa[kh_a] += pa[kh_a + 1 :].sum()
            fd = np.array(pd[: kh_d + 1])
            fd[kh_d] += pd[kh_d + 1 :].sum()
            W = np.outer(fd, fa)
            stay = W[0, 0]
            W[0, 0] = 0.0
            a2, d2 = _retreat(a, d, ta, td)
            if a2 == a and d2 == d:
                scale = m / (1.0 - stay)
                rounds += scale
            else:  # the first round, or the attacker's retreat was blocked last round
                scale = m
                rounds += m
                C[ia_of[a2], id_of[d2]] += m * stay
            if city:
                destroyed += scale * _city_destroyed_round(ch, pa, pd, a, d)
            P[ia - kh_d : ia + 1, idd - kh_a : idd + 1] += scale * W[::-1, ::-1]
        return _result_from_terminal(b, ch, terminal, rounds, destroyed)


def _result_from_terminal(b: Battle, ch: HitChances, terminal: dict, rounds: float, destroyed: float,
                          method: str = "exact", runs: int = 0, seed: int | None = None) -> OddsResult:
    cls = [0.0] * 5
    att = [0.0] * (b.attackers + 1)
    dfd = [0.0] * (b.defenders + 1)
    for (c, al, dl), p in terminal.items():
        cls[c] += p
        att[al] += p
        dfd[dl] += p
    taken = cls[_AW] + cls[_DR]
    return OddsResult(
        battle=b,
        attacker_wins=float(cls[_AW]),
        defender_wins=float(cls[_DW]),
        mutual=float(cls[_MU]),
        attacker_retreats=float(cls[_AR]),
        defender_retreats=float(cls[_DR]),
        expected_attackers_left=float(sum(k * p for k, p in enumerate(att))),
        expected_defenders_left=float(sum(k * p for k, p in enumerate(dfd))),
        expected_rounds=float(rounds),
        attackers_left=tuple(float(x) for x in att),
        defenders_left=tuple(float(x) for x in dfd),
        city_captured=float(max(taken - destroyed, 0.0)) if b.city else 0.0,
        method=method,
        runs=runs,
        seed=seed,
        hit_chances=ch,
    )


# --------------------------------------------------------------------------- general solver


class _General:
    """Any policy, solved backwards over every reachable (unhurt, wounded, retreated)
    state of both sides up to ``n_att`` attackers and ``n_def`` defenders.

    ``V[pair]`` holds, for a battle whose next round starts in that pair of states: the
    five outcome chances, the expected rounds, the chance that the city is destroyed,
    and the distributions of the attackers' and the defenders' survivors.  Every smaller
    battle with the same modifiers is in the table too.

    The ``best`` policy (RULINGS HB-Q201): the attacker applies its hits first, knowing
    the defender's hits of the same roll (all dice are rolled before any hit is applied,
    §6.3.1); the defender then applies its hits knowing where the attacker's fell — the
    order of the game's ``allocate`` steps.  Each maximises its own chance of holding the
    area at the end of the battle; ties (within ``TIE``) go to the greedy choice.
    """

    ROUNDS, DESTROYED, SURV = 5, 6, 7

    def __init__(self, proto: Battle, ch: HitChances, dists: bool = True) -> None:
        self.proto = proto
        self.dists = dists
        self.ch = ch
        n_att, n_def = proto.attackers, proto.defenders
        self.n_att, self.n_def = n_att, n_def
        self.best = proto.policy == "best"
        self.sa = self._space(n_att, proto.attacker_retreat_below, self.best, proto.attacker_start)
        self.sd = self._space(n_def, proto.defender_retreat_below, self.best, proto.defender_start)
        self.ia = {s: i for i, s in enumerate(self.sa)}
        self.id = {s: i for i, s in enumerate(self.sd)}
        self.nA, self.nD = len(self.sa), len(self.sd)
        self.K = self.SURV + ((n_att + 1) + (n_def + 1) if dists else 0)
        self.out_a = [self._outcomes(s, self.ia, n_def + int(proto.city)) for s in self.sa]
        self.out_d = [self._outcomes(s, self.id, n_att) for s in self.sd]
        self.g_a = [np.array([o[0] for o in outs], dtype=np.int64) for outs in self.out_a]
        self.g_d = [np.array([o[0] for o in outs], dtype=np.int64) for outs in self.out_d]
        ta, td = proto.attacker_retreat_below, proto.defender_retreat_below
        R = np.empty((self.nA, self.nD), dtype=np.int64)
        for i, a in enumerate(self.sa):
            for j, d in enumerate(self.sd):
                a2, d2 = _retreat(a, d, ta, td)
                R[i, j] = self.ia[a2] * self.nD + self.id[d2]
        self.R = R
        self._seg_a: dict = {}
        self._seg_d: dict = {}
        self._solve()

    @staticmethod
    def _space(n: int, threshold: int, best: bool, start: tuple) -> list[tuple[int, int, int]]:
        """Side states (unhurt, wounded, retreated) a side of ``n`` units starting in
        ``start`` can reach.  Greedy kills wounded units first and leaves at most one
        more wounded; a side retreats once, with fewer than ``threshold`` units."""
        u0, w0, _ = start
        w_max = n if best else max(1, w0)
        out = []
        for u in range(n + 1):
            for w in range(min(w_max, n - u) + 1):
                if best or w <= 1 or u == u0:
                    out.append((u, w, 0))
        for r in range(1, min(threshold - 1, n) + 1):
            for w in range(min(w_max, n - r) + 1):
                out.append((0, w, r))
        return out

    def _outcomes(self, s: tuple, index: dict, max_hits: int) -> list[list[int]]:
        """For 0..max_hits hits on side state ``s``: the states it can be left in, greedy
        (fewest units left) first — the game's own :func:`combat.hit_outcomes`."""
        out = []
        for h in range(max_hits + 1):
            opts = hit_outcomes(s[0], s[1], h)
            if not self.best:
                opts = opts[:1]
            out.append([index[(u, w, s[2])] for u, w in opts])
        return out

    def _solve(self) -> None:
        ch, city = self.ch, self.proto.city
        nA, nD, K = self.nA, self.nD, self.K
        V = np.zeros((nA * nD, K))
        VA = np.zeros(nA * nD)  # the attacker's chance of holding the area
        VD = np.zeros(nA * nD)  # the defender's
        hA = np.array([2 * u + w for u, w, _ in self.sa])
        hD = np.array([2 * u + w for u, w, _ in self.sd])
        order = np.argsort(np.add.outer(hA, hD), axis=None, kind="stable")
        s_def = self.SURV + self.n_att + 1
        for flat in order.tolist():
            i, j = divmod(flat, nD)
            a, d = self.sa[i], self.sd[j]
            a_in, d_in = a[0] + a[1], d[0] + d[1]
            row = V[flat]
            if not a_in or not d_in:
                c = _classify(a_in, a[2], d_in, d[2])
                row[c] = 1.0
                if self.dists:
                    row[self.SURV + a_in + a[2]] = 1.0
                    row[s_def + d_in + d[2]] = 1.0
                VA[flat] = 1.0 if c in (_AW, _DR) else 0.0
                VD[flat] = 1.0 if c in (_DW, _AR) else 0.0
                continue
            pa, pd = _side_round_stats(ch, city, a, d)
            kA, kD = len(pa), len(pd)
            nxt = self._best_next(i, j, kA, kD, VA, VD) if self.best else None
            if nxt is None:
                nxt = self.R[self.g_a[i][:kD, None], self.g_d[j][None, :kA]]
            W = np.outer(pd, pa)
            self_loop = nxt == flat
            stay = float(W[self_loop].sum())
            W[self_loop] = 0.0
            vec = W.ravel() @ V[nxt.ravel()]
            vec[self.ROUNDS] += 1.0
            if city:
                vec[self.DESTROYED] += _city_destroyed_round(ch, pa, pd, a, d)
            vec /= 1.0 - stay
            row[:] = vec
            VA[flat] = vec[_AW] + vec[_DR]
            VD[flat] = vec[_DW] + vec[_AR]
        self.V, self.VA, self.VD = V, VA, VD

    def _segments(self, cache: dict, outs: list, key: tuple):
        """The options of every hit count laid end to end (greedy first in each segment):
        (options, segment starts, segment lengths, all segments single?)."""
        got = cache.get(key)
        if got is None:
            flat = [x for o in outs for x in o]
            lens = np.array([len(o) for o in outs])
            starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
            got = cache[key] = (np.array(flat, dtype=np.int64), starts, lens, bool((lens == 1).all()))
        return got

    def _best_next(self, i: int, j: int, kA: int, kD: int, VA, VD) -> np.ndarray | None:
        """The next pair for every (defender hits, attacker hits) under ``best``, or
        None when every choice is forced (then greedy is the only play)."""
        rows, r_st, r_len, r_one = self._segments(self._seg_a, self.out_a[i][:kD], (i, kD))
        cols, c_st, c_len, c_one = self._segments(self._seg_d, self.out_d[j][:kA], (j, kA))
        if r_one and c_one:
            return None
        M = self.R[rows[:, None], cols[None, :]]
        # The defender's best answer for each of its hit counts and each attacker choice:
        # the first option (greedy order) within TIE of the segment's best.
        vd = VD[M]
        seg = np.maximum.reduceat(vd, r_st, axis=0)
        ok = vd >= np.repeat(seg, r_len, axis=0) - TIE
        br = np.minimum.reduceat(np.where(ok, np.arange(len(rows))[:, None], len(rows)), r_st, axis=0)
        after = M[br, np.arange(len(cols))[None, :]]  # (kD, all attacker choices)
        # The attacker's choice for each (defender hits, attacker hits), foreseeing that.
        va = VA[after]
        seg2 = np.maximum.reduceat(va, c_st, axis=1)
        ok2 = va >= np.repeat(seg2, c_len, axis=1) - TIE
        pick = np.minimum.reduceat(np.where(ok2, np.arange(len(cols))[None, :], len(cols)), c_st, axis=1)
        return after[np.arange(kD)[:, None], pick]

    # -- single choices, for playing battles with the game's code ----------------------------
    def defender_choice(self, a: tuple, d_after: tuple, hd: int) -> tuple:
        """Where the defender puts ``hd`` hits on attacker state ``a``, the attacker's hits
        having left the defender in ``d_after`` (before any retreat)."""
        opts = self.out_a[self.ia[a]][hd]
        j = self.id[d_after]
        if not self.best or len(opts) == 1:
            return self.sa[opts[0]]
        vals = [self.VD[self.R[x, j]] for x in opts]
        top = max(vals)
        return self.sa[opts[next(k for k, v in enumerate(vals) if v >= top - TIE)]]

    def attacker_choice(self, a: tuple, d: tuple, ha: int, hd: int) -> tuple:
        """Where the attacker puts ``ha`` hits on defender state ``d``, the defender
        having scored ``hd`` hits on attacker state ``a`` in the same roll."""
        opts = self.out_d[self.id[d]][ha]
        if not self.best or len(opts) == 1:
            return self.sd[opts[0]]
        vals = []
        for x in opts:
            d2 = self.sd[x]
            a2 = self.defender_choice(a, d2, hd)
            vals.append(self.VA[self.R[self.ia[a2], x]])
        top = max(vals)
        return self.sd[opts[next(k for k, v in enumerate(vals) if v >= top - TIE)]]

    def result(self, battle: Battle) -> OddsResult:
        """The answer for ``battle`` (no larger than this table), read off ``V``."""
        assert self.dists, "a table without survivor distributions"
        flat = self.ia[battle.attacker_start] * self.nD + self.id[battle.defender_start]
        v = self.V[flat]
        s_def = self.SURV + self.n_att + 1
        att = tuple(float(x) for x in v[self.SURV : self.SURV + battle.attackers + 1])
        dfd = tuple(float(x) for x in v[s_def : s_def + battle.defenders + 1])
        taken = float(v[_AW] + v[_DR])
        return OddsResult(
            battle=battle,
            attacker_wins=float(v[_AW]),
            defender_wins=float(v[_DW]),
            mutual=float(v[_MU]),
            attacker_retreats=float(v[_AR]),
            defender_retreats=float(v[_DR]),
            expected_attackers_left=sum(k * p for k, p in enumerate(att)),
            expected_defenders_left=sum(k * p for k, p in enumerate(dfd)),
            expected_rounds=float(v[self.ROUNDS]),
            attackers_left=att,
            defenders_left=dfd,
            city_captured=max(taken - float(v[self.DESTROYED]), 0.0) if battle.city else 0.0,
            hit_chances=self.ch,
        )


@lru_cache(maxsize=8)
def _general(proto: Battle) -> _General:
    """A table of its own, for a greedy position with more than one wounded unit."""
    return _General(proto, hit_chances(proto))


#: Greedy battles up to this size a side are read off one table per set of modifiers
#: (``best`` ones always are), grown to the largest battle asked for so far: once warm,
#: a query is a look-up.  Larger greedy battles go to the grid solver.
TABLE_UNITS = 30
#: The largest --table heat map.
MAX_TABLE = 100
_TABLES: OrderedDict = OrderedDict()
_TABLES_KEPT = 16


def _modifiers(b: Battle) -> tuple:
    return (b.terrain, b.fervour, b.attacker_race, b.defender_race, b.city, b.policy,
            b.attacker_retreat_below, b.defender_retreat_below)


def _table_for(battle: Battle, dists: bool = True) -> _General:
    """The cached table for ``battle``'s modifiers, grown to hold ``battle``."""
    key = (_modifiers(battle), dists)
    g = _TABLES.get(key)
    if g is not None and g.n_att >= battle.attackers and g.n_def >= battle.defenders:
        _TABLES.move_to_end(key)
        return g
    n_att = max(battle.attackers, g.n_att if g is not None else 0)
    n_def = max(battle.defenders, g.n_def if g is not None else 0)
    proto = Battle(n_att, n_def, *_modifiers(battle))
    g = _TABLES[key] = _General(proto, hit_chances(proto), dists)
    _TABLES.move_to_end(key)
    while len(_TABLES) > _TABLES_KEPT:
        _TABLES.popitem(last=False)
    return g


@lru_cache(maxsize=256)
def _solve_cached(battle: Battle, engine: str) -> OddsResult:
    if engine == "grid":
        return _GreedyGrid(battle, hit_chances(battle)).solve()
    if battle.policy == "greedy" and max(battle.attackers_wounded, battle.defenders_wounded) > 1:
        return _general(battle).result(battle)
    return _table_for(battle).result(battle)


# --------------------------------------------------------------------------- public API


def solve(
    attackers: int,
    defenders: int,
    *,
    terrain: str = "plains",
    fervour: bool = False,
    attacker_race: str | None = None,
    defender_race: str | None = None,
    city: bool = False,
    policy: str = "greedy",
    attacker_retreat_below: int = 0,
    defender_retreat_below: int = 0,
    engine: str = "auto",
) -> OddsResult:
    """The exact odds of one battle (§6.3.1–6.3.2).  ``engine``: ``auto``, ``grid``
    (greedy only) or ``general``; they agree to rounding.  Raises :class:`OddsError`."""
    battle = Battle(attackers, defenders, terrain, fervour, attacker_race, defender_race, city,
                    policy, attacker_retreat_below, defender_retreat_below)
    return solve_battle(battle, engine)


def solve_position(
    attackers_unhurt: int,
    attackers_wounded: int,
    defenders_unhurt: int,
    defenders_wounded: int,
    **modifiers,
) -> OddsResult:
    """The exact odds of a battle in progress, before its next round (§6.3.1): the same
    keyword arguments as :func:`solve`.  Bots call this at every round."""
    fields = {k: modifiers.pop(k) for k in list(modifiers) if k in Battle.__dataclass_fields__}
    battle = Battle(attackers_unhurt + attackers_wounded, defenders_unhurt + defenders_wounded, **fields,
                    attackers_wounded=attackers_wounded, defenders_wounded=defenders_wounded)
    return solve_battle(battle, **modifiers)


def solve_battle(battle: Battle, engine: str = "auto") -> OddsResult:
    """:func:`solve` for a :class:`Battle`."""
    if engine == "auto":
        small_wounds = max(battle.attackers_wounded, battle.defenders_wounded) <= 1
        big = max(battle.attackers, battle.defenders) > TABLE_UNITS
        engine = "grid" if battle.policy == "greedy" and small_wounds and big else "general"
    if engine not in ("grid", "general"):
        raise OddsError(f"unknown engine {engine!r} (known: auto, grid, general)")
    if engine == "grid" and battle.policy != "greedy":
        raise OddsError("the grid engine solves policy 'greedy' only")
    return _solve_cached(battle, engine)


def odds_table(n: int, **modifiers) -> np.ndarray:
    """``table[a-1, d-1]``: the attacker's chance of taking the area (its wins plus the
    defender's retreats) with ``a`` attackers against ``d`` defenders, 1 ≤ a, d ≤ n."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_TABLE:
        raise OddsError(f"table size must be 1..{MAX_TABLE}, got {n!r}")
    g = _table_for(Battle(n, n, **modifiers), dists=False)  # one backward pass for all
    a_idx = np.array([g.ia[(a, 0, 0)] for a in range(1, n + 1)])
    d_idx = np.array([g.id[(d, 0, 0)] for d in range(1, n + 1)])
    return g.VA[a_idx[:, None] * g.nD + d_idx[None, :]].copy()


# --------------------------------------------------------------------------- Monte Carlo


@lru_cache(maxsize=1)
def _counting_state_class():
    """:class:`HBState` running the game's own steps, counting ``battle_round`` calls."""
    from realms.core.engine import Steps

    from .state import HBState
    from .steps import STEPS

    steps = Steps(STEPS.game_id)
    steps.run = dict(STEPS.run)
    steps.answer = STEPS.answer
    play_round = STEPS.run["battle_round"]

    def battle_round(s, *args):
        s.mc_rounds += 1
        return play_round(s, *args)

    steps.run["battle_round"] = battle_round
    return type("RoundCountingHBState", (HBState,), {"STEPS": steps})


def _battle_area(s, terrain: str) -> tuple[int, int]:
    """A land area of ``terrain`` with three land neighbours or more (one for the
    attackers to come from, two to retreat to), and the first of those neighbours."""
    b = s.board
    for a in b.land:
        if b.terrain[a] == terrain and len(b.land_nbrs[a]) >= 3:
            return a, b.land_nbrs[a][0]
    raise OddsError(f"the map has no {terrain} area with three land neighbours for a test battle")


def _arrange(battle: Battle, seed: int):
    """A game state paused at the attacker's "start the battle" decision, set up with the
    state's own primitives and the game's own movement code (§6.3.1: units move in, then
    the battle starts)."""
    from realms.core.game import OptionError

    from realms.games.hy_breasil import GAME

    opts: dict = {"players": 2, "turns": 1, "set_size": max(battle.attackers, battle.defenders, 10) + 3}
    races = battle.attacker_race is not None or battle.defender_race is not None
    if races:
        opts["rules"] = ["races"]
    try:
        options = GAME.normalize_options(opts)
    except OptionError:
        raise OddsError("monte-carlo: races (§9.1) are not in the game code yet; use --method exact") from None
    s = _counting_state_class()(options, seed)
    if races and not getattr(s, "races_on", False):
        raise OddsError("monte-carlo: races (§9.1) are not in the game code yet; use --method exact")
    if battle.city and not hasattr(s, "cities"):
        raise OddsError("monte-carlo: cities (§9.3.1) are not in the game code yet; use --method exact")
    area, src = _battle_area(s, battle.terrain)
    att = s.create_nation(owner=0)
    dfd = s.create_nation(owner=1)
    if races:
        att.race, dfd.race = battle.attacker_race, battle.defender_race
    att.fervour = battle.fervour
    s.current = att.id
    s.add_units(dfd, area, battle.defenders)
    # One more unit than attack: it stays behind, so the game asks before the battle starts.
    s.add_units(att, src, battle.attackers + 1)
    if battle.city:
        s.cities |= 1 << area
    s.moved = {}
    # Drop the opening of the game (the first invasion's questions): only the battle is played.
    s.restart(("move", att.id, 1))
    key = s.board.move_key(src, area)
    for _ in range(battle.attackers):
        s.apply(att.owner, key)
    d = s.pending()
    if not d or "fight" not in d[0].keys or s.battle is None:
        raise OddsError("monte-carlo: could not set up the battle with the game's movement code")
    return s


def monte_carlo(
    attackers: int,
    defenders: int,
    *,
    runs: int = 1000,
    seed: int = 0,
    terrain: str = "plains",
    fervour: bool = False,
    attacker_race: str | None = None,
    defender_race: str | None = None,
    city: bool = False,
    policy: str = "greedy",
    attacker_retreat_below: int = 0,
    defender_retreat_below: int = 0,
) -> OddsResult:
    """Play ``runs`` battles with the game's own combat code and count the outcomes.

    The board is arranged with the state's primitives, the attackers move in with the
    game's movement code, and ``combat.py`` plays every round; its ``hb.assign-hits`` and
    ``hb.retreat`` questions are answered by ``policy`` and the retreat thresholds, as
    the exact solver assumes.  Each run has its own dice, seeded from ``seed``.
    """
    battle = Battle(attackers, defenders, terrain, fervour, attacker_race, defender_race, city,
                    policy, attacker_retreat_below, defender_retreat_below)
    return monte_carlo_battle(battle, runs, seed)


def monte_carlo_battle(battle: Battle, runs: int = 1000, seed: int = 0) -> OddsResult:
    from .combat import AU, AW, DU, DW

    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise OddsError(f"runs must be a positive whole number, got {runs!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise OddsError(f"seed must be a whole number, got {seed!r}")
    ch = hit_chances(battle)
    if battle.attackers_wounded or battle.defenders_wounded:
        raise OddsError("monte-carlo plays whole battles: every unit starts unhurt")
    if battle.attackers == 0 or battle.defenders == 0:  # nothing to fight
        k = (_classify(battle.attackers, 0, battle.defenders, 0), battle.attackers, battle.defenders)
        return _result_from_terminal(battle, ch, {k: 1.0}, 0.0, 0.0, "monte-carlo", runs, seed)
    base = _arrange(battle, seed)
    solver = _table_for(battle) if battle.policy == "best" else None
    ta, td = battle.attacker_retreat_below, battle.defender_retreat_below
    master = random.Random(seed)
    terminal: dict[tuple[int, int, int], float] = {}
    rounds = 0
    destroyed = 0
    for _ in range(runs):
        s = base.clone()
        s.reseed(master.getrandbits(63))
        s.mc_rounds = 0
        n_events = len(s.events)
        s.apply(0, "fight")
        ra = rd = 0  # units retreated by each side
        while s.battle is not None:
            d = s.pending()[0]
            bt = s.battle
            if d.kind == "hb.assign-hits":
                side, hits = s.waiting_frame()[2:4]  # ("allocate", nation, side, hits[, city_only])
                a, dd = (bt[AU], bt[AW], ra), (bt[DU], bt[DW], rd)
                if solver is None:  # greedy: leave the fewest units (the most unhurt)
                    key = max(d.keys, key=lambda k: int(k[1:].split("w")[0]))
                elif side == 0:
                    hd = s.next_frames()[0][3]  # the defender's hits, rolled with the attacker's
                    u, w, _ = solver.attacker_choice(a, dd, hits, hd)
                    key = f"u{u}w{w}"
                else:
                    u, w, _ = solver.defender_choice(a, dd, hits)
                    key = f"u{u}w{w}"
            elif d.kind == "hb.retreat":
                side = 0 if d.player == 0 else 1
                in_area = bt[AU] + bt[AW] if side == 0 else bt[DU] + bt[DW]
                go = len(d.keys) > 1 and in_area < (ta if side == 0 else td)
                key = d.keys[1] if go else d.keys[0]
                if go:
                    if side == 0:
                        ra += 1
                    else:
                        rd += 1
            elif d.kind == "hb.submit" and "fight" in d.keys:  # §9.2: never submit
                key = "fight"
            else:
                raise RuntimeError(f"monte-carlo: unexpected decision {d.kind} during the battle")
            s.apply(d.player, key)
        result = next(e for e in reversed(s.events[n_events:]) if e.kind == "battle-result")
        a_in, d_in = result.data["attackers_left"], result.data["defenders_left"]
        k = (_classify(a_in, ra, d_in, rd), a_in + ra, d_in + rd)
        terminal[k] = terminal.get(k, 0) + 1
        rounds += s.mc_rounds
        if battle.city and a_in and not any(e.kind == "city-captured" for e in s.events[n_events:]):
            destroyed += 1
    return _result_from_terminal(battle, ch, {k: v / runs for k, v in terminal.items()}, rounds / runs,
                                 destroyed / runs, "monte-carlo", runs, seed)
