"""Conquest and defence (rules post, CONQUESTS, DEFENSE, AND THE DIE OF WAR; THE SCARY
SEAS; INDEPENDENT STATES; RULINGS BR-Q12, BR-Q19–Q25).

Every battle of a turn is fought from the position at the start of the turn, and the
conquests are applied together afterwards (BR-Q22): an attack launched from a state that
falls the same turn still happens, and a state's old owner defends it with the grain he
ordered for it.  For each attacked state, in map order:

1. The defence: an independent state's 10 grain, or what its owner ordered for it.
2. Split among the attackers (BR-Q21): each gets ``defence // attackers``; the leftover
   goes whole to the attacker who dedicated the most "raw" grain (the sea preparation
   included), a coin toss (die pick) among equals.  The capital's +5 and a leading
   king's CV are one defence's bonuses: they go with the leftover, counted once; a
   Defender/Unprepared king's ±2 is on "all Defense rolls".
3. A player's state with no grain ordered and no king leading its defence is walked
   into, the capital too ("If you do not dedicate any Grain to defense of a province";
   BR-Q101): every attacker takes it without a roll.
4. Otherwise each attacker rolls d10 + his grain (after the sea preparation) + his king's
   CV if the king leads + Conqueror/Weak ± 2 + Unifier 3 (against an independent state in
   his starting region), against d10 + the defence share + 5 for a capital + the
   defending king's CV if he leads + Defender/Unprepared ± 2.  "If you roll higher than
   the opponents' defending force, you win": a tie holds (BR-Q19).
5. Of several winners the one who dedicated the most "raw" grain takes the state, the
   sea preparation included (BR-Q21); a coin toss (die pick) on a draw.  The state's output is halved, rounded down (Just: 1 less lost,
   Cruel: 1 more; BR-Q25); a captured capital is lost to its owner (BR-Q14).
6. A king who led a failed attack, or the defence of a state that fell, tosses a coin:
   heads he returns home, tails he dies (BR-Q8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .kings import led_order_failed
from .state import INDEPENDENT, NONE

if TYPE_CHECKING:
    from .state import BRState


@dataclass(frozen=True)
class Attack:
    player: int
    grain: int        # the grain that fights (spent less the sea preparation)
    spent: int


def d10(s: "BRState") -> int:
    return 1 + s.dice.below(s.tables.n["die"])


def gather(s: "BRState") -> tuple[dict[int, list[Attack]], dict[int, int]]:
    """The turn's attacks by target (seats in order) and each state's ordered defence."""
    from .orders import conquer_targets

    attacks: dict[int, list[Attack]] = {}
    defence: dict[int, int] = {}
    for p in range(s.n):
        targets = None
        for kind, target, grain in s.orders[p]:
            if kind == "conquer":
                if targets is None:
                    targets = conquer_targets(s, p)
                attacks.setdefault(target, []).append(Attack(p, grain - targets[target], grain))
            elif kind == "defend":
                defence[target] = grain
    return attacks, defence


def split(s: "BRState", total: int, attackers: list[Attack], bonus: int = 0) -> tuple[list[int], int]:
    """Defence ``total`` spread "as equally as possible with any leftover spent against
    the Player with highest amount of Grain dedicated" (BR-Q21: raw grain, the sea
    preparation included); the shares and the part the leftover and the defence's
    one-off ``bonus`` go to."""
    k = len(attackers)
    shares = [total // k] * k
    left = total - shares[0] * k
    top = 0
    if k > 1 and (left or bonus):
        most = max(a.spent for a in attackers)
        tied = [i for i, a in enumerate(attackers) if a.spent == most]
        top = tied[0] if len(tied) == 1 else s.dice.pick(tied)
    shares[top] += left
    return shares, top


def attack_bonus(s: "BRState", a: Attack, target: int) -> int:
    p = a.player
    bonus = s.effect(p, "attack")
    if s.lead[p] == ("conquer", target):
        bonus += s.cv(p)
    if (s.owner[target] == INDEPENDENT and s.board.states[target].region == s.start_region[p]
            and s.tables.has(s.king_traits[p], "unify")):
        bonus += s.effect(p, "unify")
    return bonus


def defence_bonus(s: "BRState", target: int) -> tuple[int, int]:
    """The defence's bonuses: on every roll (Defender/Unprepared, "all Defense rolls"),
    and once (the capital's "+5 Grain bonus", the leading king's CV)."""
    o = s.owner[target]
    if o == INDEPENDENT:
        return 0, 0
    once = s.tables.n["capital_defence"] if s.capital[o] == target else 0
    if s.lead[o] == ("defend", target):
        once += s.cv(o)
    return s.effect(o, "defence"), once


def walked_into(s: "BRState", target: int, defence: int) -> bool:
    """"If you do not dedicate any Grain to defense of a province, any opportunistic Player
    can simply walk ... into it": no grain and no king leading, a capital too (its +5
    is a bonus to grain dedicated, BR-Q101)."""
    o = s.owner[target]
    return o != INDEPENDENT and defence == 0 and s.lead[o] != ("defend", target)


def _battle_data(s: "BRState", a: Attack, o: int, target: int, rolls: tuple[int, int], adds: tuple[int, int],
                 won: bool) -> dict:
    """One attack as a battle of one round (``Event`` docstring: ``battle``): each side's
    d10 and what it adds, the result, and the attacker's chance before the dice (the
    higher total wins, a tie holds)."""
    die = s.tables.n["die"]
    diff = adds[1] - adds[0]
    wins = sum(1 for x in range(1, die + 1) for y in range(1, die + 1) if x - y > diff) / die ** 2
    return {"area": s.board.states[target].id, "open": True, "close": True, "round": 1, "die": die,
            "sides": [s.names[a.player], s.who(o)], "dice": [[rolls[0]], [rolls[1]]], "adds": list(adds),
            "winner": 0 if won else 1, "chances": {"attacker takes it": wins, "defender holds": 1 - wins}}


def battle(s: "BRState", target: int, attackers: list[Attack], ordered: int) -> tuple[int, list[int]]:
    """Fight every attack on ``target``; the victor (or ``NONE``) and the failed leads."""
    o = s.owner[target]
    name = s.sname(target)
    total = s.tables.n["independent_defence"] if o == INDEPENDENT else ordered
    failed: list[int] = []
    winners: list[Attack] = []
    if walked_into(s, target, total):
        for a in attackers:
            s.log("battle", f"{s.names[a.player]} walks into undefended {name} with {a.grain} grain.",
                  attacker=a.player, defender=o, state=s.board.states[target].id, grain=a.grain, walk=True, won=True)
        winners = list(attackers)
    else:
        every, once = defence_bonus(s, target)
        shares, top = split(s, total, attackers, once)
        for i, (a, share) in enumerate(zip(attackers, shares)):
            dbonus = every + (once if i == top else 0)
            ar, dr = d10(s), d10(s)
            abonus = attack_bonus(s, a, target)
            att, dfn = ar + a.grain + abonus, dr + share + dbonus
            won = att > dfn
            s.log("battle",
                  f"{s.names[a.player]} attacks {name} ({s.who(o)}): {ar} + {a.grain} grain"
                  f"{f' {abonus:+d}' if abonus else ''} = {att} against {dr} + {share} grain"
                  f"{f' {dbonus:+d}' if dbonus else ''} = {dfn}: {'taken' if won else 'held'}.",
                  attacker=a.player, defender=o, state=s.board.states[target].id, grain=a.grain,
                  spent=a.spent, roll=ar, bonus=abonus, total=att, defence=share, defence_roll=dr,
                  defence_bonus=dbonus, defence_total=dfn, won=won,
                  battle=_battle_data(s, a, o, target, (ar, dr), (a.grain + abonus, share + dbonus), won))
            if won:
                winners.append(a)
            elif s.lead[a.player] == ("conquer", target):
                failed.append(a.player)
    if not winners:
        return NONE, failed
    top = max(a.spent for a in winners)
    best = [a.player for a in winners if a.spent == top]
    victor = best[0] if len(best) == 1 else s.dice.pick(best)
    if len(best) > 1:
        s.log("draw", f"{' and '.join(s.names[p] for p in best)} tie for {name} with {top} grain; "
              f"the coin gives it to {s.names[victor]}.", state=s.board.states[target].id, tied=best, victor=victor)
    if o != INDEPENDENT and s.lead[o] == ("defend", target):
        failed.append(o)
    return victor, failed


def pillage(s: "BRState", target: int, victor: int) -> None:
    """"The Grain output of the State is thus HALVED", rounded down; Just loses 1 less,
    Cruel 1 more (BR-Q25).  Output 0 is devastation."""
    before = s.output[target]
    loss = min(before, max(0, before - before // 2 + s.effect(victor, "pillage")))
    s.output[target] = before - loss
    if s.output[target] == 0:
        s.log("devastated", f"{s.sname(target)} is devastated.", state=s.board.states[target].id)


def fight(s: "BRState") -> None:
    """All the turn's battles, then the conquests together, then the led kings' tosses."""
    attacks, defence = gather(s)
    conquests: list[tuple[int, int]] = []
    failed: list[tuple[int, str]] = []
    for target in sorted(attacks):
        victor, lost = battle(s, target, attacks[target], defence.get(target, 0))
        for p in lost:  # a failed lead (battle): the player led
            lead = s.lead[p]
            failed.append((p, f"{'attack on' if lead and lead[0] == 'conquer' else 'defence of'} {s.sname(target)}"))
        if victor != NONE:
            conquests.append((target, victor))
    for target, victor in conquests:
        old = s.owner[target]
        before = s.output[target]
        pillage(s, target, victor)
        s.owner[target] = victor
        s.log("conquest", f"{s.names[victor]} conquers {s.sname(target)} from {s.who(old)}; "
              f"its output falls from {before} to {s.output[target]}.",
              player=victor, loser=old, state=s.board.states[target].id, before=before, after=s.output[target],
              marks={"taken": [s.board.states[target].id], "seat": victor,
                     "from_seat": None if old == INDEPENDENT else old})
        if old != INDEPENDENT and s.capital[old] == target:
            s.capital[old] = NONE
            s.log("capital-captured", f"{s.names[old]}'s capital {s.sname(target)} is captured.",
                  player=old, state=s.board.states[target].id)
    for p, what in failed:
        led_order_failed(s, p, what)
