"""Modifications of the dice rolls (2.3.4.4), with the numbers of ``data/rules.toml``
(the rulebook gives directions only: V2-Q28).

A unit's roll is ``d4 × value × factor``, the factor in percent: 100 plus the sum of
its modifiers, never below ``min_factor``.  Summing (rather than multiplying) keeps any
one modifier from dominating and lets them offset each other ("although this stands in
contrast to some preceding modifications", desperation against minority).

Per side and round: majority or minority (by units in the battle), desperation when far
outnumbered, morale once half the army is lost, tiredness from the third fight-turn on
both sides (any unit "fighting the twentieth turn"), and for the defender the terrain
and a building or his own capitol.

With a D4, rolls that differ stand at least a third apart (4 : 3), so a net modifier
under a third only decides equal rolls — which otherwise go to the defender (2.3.4.3) —
and larger stacks also turn 4 against 3: the side with the better sum wins the ties.  Per unit: its
experience, and superiority over an opponent with at least two experience levels fewer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import NOBODY

if TYPE_CHECKING:
    from .rules import Rules
    from .state import V2State


def side_modifiers(rules: "Rules", sizes: list[int], start: list[int], rnd: int, defence: int) -> list[int]:
    """The modifier of each side (0 attacker, 1 defender) for round ``rnd``;
    ``defence`` is what the defender's ground adds (terrain, building, capitol)."""
    m = rules.mod
    out = []
    for s in (0, 1):
        mine, theirs = sizes[s], sizes[1 - s]
        v = 0
        if theirs:
            ratio = mine / theirs
            if ratio >= m["majority_ratio"]:
                v += m["majority"]
            elif ratio <= m["minority_ratio"]:
                v += m["minority"]
                if ratio <= m["desperate_ratio"]:
                    v += m["desperation"]
        if 2 * mine <= start[s]:
            v += m["morale_loss"]
        if rnd >= m["tiredness_from"]:
            v += max(m["tiredness_max"], m["tiredness_per_round"] * (rnd - m["tiredness_from"] + 1))
        if s == 1:
            v += defence
        out.append(v)
    return out


def ground(s: "V2State", t: int, defender: int) -> int:
    """What field ``t`` adds to its defender: terrain, and his own capitol or a warehouse."""
    r = s.rules
    v = r.terrain_mod[s.board.terrain[t]]
    if defender != NOBODY and s.capitol[t] == defender:
        v += r.mod["capitol"]
    elif s.warehouse[t]:
        v += r.mod["building"]
    return v


def factor(rules: "Rules", side_mod: int, exp: int, opp_exp: int) -> int:
    m = rules.mod
    table = rules.experience
    v = 100 + side_mod + table[min(exp, len(table) - 1)]
    if exp - opp_exp >= m["superior_gap"]:
        v += m["superior"]
    return max(m["min_factor"], v)
