"""Battle chances for the Hy Breasil bots, from the exact odds solver (:mod:`..odds`).

Two measures of one thing — how likely an attack is to take the area:

* :func:`take_chance` — Hy Breasil's exact chance (§6.3.1–6.3.2) that ``k`` attackers
  take an area from ``d`` defenders (terrain, fervour, races and a city included), or
  that a battle in progress ends with the attacker holding the area;
* :func:`britannia_chance` — the same chance in Britannia II, whose battles Eggert's
  Offence Ratios were written for: both sides hit on 5–6 (a third), every hit kills,
  rounds until one side is gone, mutual destruction taking nothing.  AUTO.md AU-Q33
  turns each TR's worst Offence Ratio into the chance it buys there (the rulebook's own
  example: two defending armies on plains) and asks Hy Breasil's solver for the fewest
  armies that buy at least as much.

Everything is cached: a bot asks the same few small battles over and over.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb


#: Britannia II: an army hits on 5 or 6, attacking or defending (clear terrain).
BRITANNIA_HIT = 1 / 3
#: The rulebook's example of the odds ("a space defended by two armies in plains").
REFERENCE_DEFENDERS = 2


def health_split(units: int, wounded: int) -> tuple[int, int]:
    """(units, wounded) with the same health and at most one wounded unit: two wounded
    units are one unhurt one (each has one hit left).  The solver answers such a position
    from its shared table at once; the odds hardly change."""
    if wounded <= 1:
        return units, wounded
    health = 2 * (units - wounded) + wounded
    return (health + 1) // 2, health % 2


@lru_cache(maxsize=4096)
def take_chance(attackers: int, defenders: int, terrain: str = "plains", *, fervour: bool = False,
                attacker_race: str | None = None, defender_race: str | None = None, city: bool = False,
                attackers_wounded: int = 0, defenders_wounded: int = 0) -> float:
    """Hy Breasil's exact chance that the attacker ends holding the area (§6.3.1): it wins,
    or the defender retreats (both sides fight to the end under the solver's greedy
    policy).  ``defenders`` 0 is an empty area: 1."""
    if attackers <= 0:
        return 0.0
    if defenders <= 0:
        return 1.0
    from ..odds import solve_position  # numpy: loaded by the first battle a bot weighs, not by listing games

    a, aw = health_split(attackers, attackers_wounded)
    d, dw = health_split(defenders, defenders_wounded)
    r = solve_position(a - aw, aw, d - dw, dw, terrain=terrain, fervour=fervour, attacker_race=attacker_race,
                       defender_race=defender_race, city=city and d > 0)
    return r.attacker_takes_area


@lru_cache(maxsize=None)
def _britannia(a: int, d: int) -> float:
    if d == 0:
        return 1.0 if a > 0 else 0.0
    if a == 0:
        return 0.0
    p = BRITANNIA_HIT
    total = stay = 0.0
    for ha in range(a + 1):
        pa = comb(a, ha) * p ** ha * (1 - p) ** (a - ha)
        for hd in range(d + 1):
            pd = comb(d, hd) * p ** hd * (1 - p) ** (d - hd)
            if ha == 0 and hd == 0:
                stay = pa * pd
            else:
                total += pa * pd * _britannia(max(0, a - hd), max(0, d - ha))
    return total / (1 - stay)


def britannia_chance(offence: float, defenders: int = REFERENCE_DEFENDERS) -> float:
    """The chance that ``offence`` armies (a fraction is read between the two whole
    numbers) take a clear space from ``defenders`` in Britannia II, fought to the end."""
    lo = int(offence)
    f = offence - lo
    return (1 - f) * _britannia(lo, defenders) + f * _britannia(lo + 1, defenders)


def fewest_for(chance: float, defenders: int, most: int, terrain: str = "plains", **mods) -> tuple[int, float]:
    """The fewest attackers (at most ``most``) whose :func:`take_chance` reaches ``chance``,
    with that chance; ``(0, best chance)`` when even ``most`` falls short."""
    best = 0.0
    for k in range(1, most + 1):
        p = take_chance(k, defenders, terrain, **mods)
        if p >= chance:
            return k, p
        best = p
    return 0, best
