"""Starting an attack (2.3.4, 2.3.4.1, 2.3.4.2) and conquest.

Any field not one's own that lies next to an own field with a unit able to attack may be
attacked (V2-Q14: entering an empty neutral or enemy field is an attack, a non-violent
conquest).  The attacker picks the units one by one, from any adjacent own fields and any
subset (V2-Q18), then starts the battle.  A unit attacks with a move point and spends it
(2.3.3: "for every move-point it has, either attack or move"; V2-Q15, V2-Q16), so
recruits of this turn (0 move points) cannot attack.

An empty field is conquered at once; otherwise a defending player chooses to face the
battle or to retreat all his units to another field he owns (V2-Q19), each losing a
move point; neutral armies always face it (V2-Q6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from . import missions
from .board import NOBODY, TERRAINS
from .rules import ARM_LETTER, ARMS
from .state import describe_units, parse_class, unit_class
from .steps import STEPS

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.4"

def spend_attack(u: tuple) -> tuple:
    """The unit after its attack: one move point spent (2.3.3, V2-Q16)."""
    return (u[0], u[1] - 1, u[2])



def label(s: "V2State", key: str) -> str:
    t = int(key.split(":")[1])
    o = s.owner[t]
    whose = "neutral" if o == NOBODY else s.names[o] + "'s"
    return f"Attack {whose} {s.field_name(t)} ({describe_units(s.units[t])})"


def available(s: "V2State", f: int) -> list[tuple]:
    """Units on ``f`` able to attack and not yet picked."""
    left = [u for u in s.units[f] if u[1] > 0]
    taken: dict[tuple, int] = {}
    for g, u in s.the_pick()[1]:
        if g == f:
            taken[u] = taken.get(u, 0) + 1
    if not taken:
        return left
    out = []
    for u in left:
        if taken.get(u):
            taken[u] -= 1
        else:
            out.append(u)
    return out


def pick_keys(s: "V2State", p: int) -> list[str]:
    """``go`` once a unit is picked, ``cancel``, then per own field beside the target
    ``all:F`` where two or more units are left to add and ``add:F:CLASS`` per class left
    (the classes in their sorted order).  Counted per class, not per unit."""
    t, picked = s.the_pick()
    out = ["go"] if picked else []
    out.append("cancel")
    taken: dict = {}
    for fu in picked:
        taken[fu] = taken.get(fu, 0) + 1
    owner, units = s.owner, s.units
    for f in s.board.adj[t]:
        if owner[f] != p or not units[f]:
            continue
        us = units[f]
        left = []
        total = 0
        for u in sorted(set(us)):
            if u[1] > 0:
                c = us.count(u) - taken.get((f, u), 0) if taken else us.count(u)
                if c > 0:
                    left.append(u)
                    total += c
        if total > 1:
            out.append(f"all:{f}")
        out.extend([f"add:{f}:{unit_class(u)}" for u in left])
    return out


def pick_label(s: "V2State", key: str) -> str:
    if key == "go":
        return f"Attack with {describe_units([u for _, u in s.the_pick()[1]])}"
    if key == "cancel":
        return "Call off the attack"
    parts = key.split(":")
    if parts[0] == "all":
        return f"Add every unit able to attack from {s.field_name(int(parts[1]))}"
    u = parse_class(parts[2])
    return f"Add {ARMS[u[0]]} ({u[1]} move points, experience {u[2]}) from {s.field_name(int(parts[1]))}"


@STEPS.step("pick")
def pick(s: "V2State", p: int) -> Decision:
    t = s.the_pick()[0]
    return Decision(p, "v2.attack-units", pick_keys(s, p),
                    f"{s.names[p]}: pick the units to attack {s.field_name(t)} with.", "2.3.4.2",
                    lambda k: pick_label(s, k), info={"target": t})


@STEPS.on_answer("pick")
def pick_answer(s: "V2State", player: int, key: str, p: int) -> None:
    if key == "cancel":
        s.pick = None
        s.then(("act", p))
        return
    if key == "go":
        launch(s, p)
        return
    parts = key.split(":")
    f = int(parts[1])
    if parts[0] == "all":
        s.the_pick()[1].extend((f, u) for u in available(s, f))
    else:
        s.the_pick()[1].append((f, parse_class(parts[2])))
    s.then(("pick", p))


def launch(s: "V2State", p: int) -> None:
    """The picked units leave their fields, paying for the attack; then the battle, or a
    non-violent conquest of an empty field (2.3.4.1)."""
    t, picked = s.the_pick()
    s.pick = None
    attackers = []
    for f, u in picked:
        s.take_unit(f, u)
        attackers.append((*spend_attack(u), f))
    dfd = s.owner[t]
    if not s.units[t]:
        whose = "neutral" if dfd == NOBODY else s.names[dfd] + "'s"
        s.log("conquest", f"{s.names[p]} takes {whose} undefended {s.field_name(t)} without a fight "
              f"({describe_units(attackers)}).", player=p, field=t, defender=dfd, peaceful=True,
              marks=taken_marks(t, p, dfd))
        conquer(s, p, t, attackers)
        s.then(("act", p))
        return
    defenders = [(*u, t) for u in s.units[t]]
    s.clear_units(t)
    s.battle = {"target": t, "att": p, "dfd": dfd, "side": [attackers, defenders], "round": 0,
                "orders": ["random", "random"], "retreat": [0, 0], "start": [len(attackers), len(defenders)],
                "dest": NOBODY, "fought": 0}
    whose = "the neutral army on" if dfd == NOBODY else s.names[dfd] + "'s"
    s.log("attack", f"{s.names[p]} attacks {whose} {s.field_name(t)} with {describe_units(attackers)} "
          f"against {describe_units(defenders)}.", player=p, field=t, defender=dfd,
          attackers=len(attackers), defenders=len(defenders),
          battle={"area": str(t), "open": True, "sides": [s.names[p], "the neutral army" if dfd == NOBODY else s.names[dfd]],
                  "units": [len(attackers), len(defenders)], "odds": odds_values(s, t, dfd, attackers, defenders)})
    frames = [("defend",)] if dfd != NOBODY and refuges(s, dfd, t) else []
    s.then(*frames, ("orders", 0), ("orders", 1), ("round",), ("act", p))


def taken_marks(t: int, p: int, loser: int) -> dict:
    """Field ``t`` taken by ``p`` from ``loser`` (``Event`` docstring: ``marks``)."""
    return {"taken": [str(t)], "seat": p, "from_seat": None if loser == NOBODY else loser}


def army_text(units: list) -> str:
    """Units as the calculator writes an army (``odds_cli``): ``3i,1c+2,2a``."""
    counts: dict = {}
    for u in units:
        counts[(u[0], u[2])] = counts.get((u[0], u[2]), 0) + 1
    return ",".join(f"{n}{ARM_LETTER[arm]}" + (f"+{exp}" if exp else "") for (arm, exp), n in sorted(counts.items()))


def odds_values(s: "V2State", t: int, dfd: int, attackers: list, defenders: list) -> dict:
    """The battle as it begins, as the game's calculator takes it (``odds_cli``): the
    page asks for its odds."""
    return {"attacker": army_text(attackers), "defender": army_text(defenders),
            "terrain": TERRAINS[s.board.terrain[t]], "capitol": dfd != NOBODY and s.capitol[t] == dfd,
            "warehouse": bool(s.warehouse[t])}


def refuges(s: "V2State", player: int, t: int) -> list[int]:
    """Where a defender may retreat before the battle: "to another hex-field he already
    owns" (2.3.4.2), near or far (V2-Q19)."""
    return [f for f in s.own_fields(player) if f != t]


def retreat_fields(s: "V2State", player: int, t: int) -> list[int]:
    """Where a defender may retreat during the battle: an own field next to it (V2-Q25)."""
    owner = s.owner
    return [f for f in s.board.adj[t] if owner[f] == player]


@STEPS.step("defend")
def defend(s: "V2State") -> Decision:
    b = s.the_battle()
    t, d = b["target"], b["dfd"]
    keys = ["face"] + [f"retreat:{f}" for f in refuges(s, d, t)]
    return Decision(d, "v2.defend", keys,
                    f"{s.names[d]}: {s.names[b['att']]} attacks {s.field_name(t)} with "
                    f"{describe_units(b['side'][0])}. Face the battle, or retreat (every unit loses a move point)?",
                    "2.3.4.2", lambda k: "Face the battle" if k == "face" else f"Retreat to {s.field_name(int(k[8:]))}",
                    info={"target": t})


@STEPS.on_answer("defend")
def defend_answer(s: "V2State", player: int, key: str) -> None:
    if key == "face":
        return
    b = s.the_battle()
    f = int(key.split(":")[1])
    units = [(u[0], u[1] - 1, u[2]) for u in b["side"][1]]
    s.add_units(f, units)
    b["side"][1] = []
    s.log("retreat", f"{s.names[player]} retreats from {s.field_name(b['target'])} to {s.field_name(f)} "
          "before the battle.", player=player, field=b["target"], to=f, before=True,
          battle={"area": str(b["target"]), "retreat": s.names[player], "round": 0})


def conquer(s: "V2State", p: int, t: int, attackers: list[tuple]) -> None:
    """The attacker takes ``t`` and every attacking unit moves in (2.3.4.2, V2-Q27).  A
    capitol falls (destroyed: its +3 is gone, V2-Q11) and the capitol's and warehouse's
    shares of the loser's treasure go to the attacker (2.3.5, V2-Q12); a warehouse stands
    and is the conqueror's now."""
    loser = s.owner[t]
    if loser != NOBODY:
        shares = s.shares(loser)
        here = s.warehouse[t] + (1 if s.capitol[t] == loser else 0)
        if here:
            loot = s.treasure[loser] * here // shares
            s.treasure[loser] -= loot
            s.treasure[p] += loot
            s.log("plunder", f"{s.names[p]} plunders {loot} of {s.names[loser]}'s treasure "
                  f"({here} of {shares} shares).", player=p, loser=loser, amount=loot, shares=here, of=shares)
    if s.capitol[t] != NOBODY:
        owner_of_capitol = s.capitol[t]
        s.capitol[t] = NOBODY
        if owner_of_capitol != p:
            s.capitols_taken[p] += 1
        s.log("capitol-falls", f"{s.names[owner_of_capitol]}'s capitol on {s.field_name(t)} falls to {s.names[p]}.",
              player=p, loser=owner_of_capitol, field=t)
    s.set_owner(t, p)
    s.add_units(t, [u[:3] for u in attackers])
    if loser != NOBODY and s.alive[loser] and loser not in s.owner:
        missions.eliminate(s, loser, p)
