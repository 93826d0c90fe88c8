"""The battle (2.3.4.2–2.3.4.4), fight-turn by fight-turn.

``s.battle`` holds the two sides (0 the attacker, 1 the defender) as lists of units
``(arm, move_points, experience, origin)`` — the origin is the field an attacker
came from, to which it retreats — with the artillery orders, the round, the sizes at the
start and each side's complete retreat (the round its foot troops leave, or 0).

A round (V2-Q21…Q24): in rounds 1, 3, 5 … the artillery of both sides fires as ordered
(at artillery: one duel; at foot troops: the gun's one attack roll against three foot
units, each defending itself and destroyed if its total is less; random: at the kind of
a unit of the enemy chosen at random).
Then the foot troops (infantry and cavalry) form fighting groups: one unit of the smaller
army each, the larger army's units shared out among the groups up to 3:1 in a new random
order each round, the rest in reserve (reserves so step in for the fallen).  In a group
every unit of the larger army attacks the one, and the one attacks the first of them;
all duels of a round are simultaneous (V2-Q23).  A reserve destroys ``reserve // 3`` of
the enemy's artillery a round (V2-Q24).  Artillery never fights in the foot battle, and
is lost once its own foot troops are gone while the enemy's are not.

In rounds 3, 6, 9 … each player's side may fight on, change its artillery orders, or
retreat — completely (the artillery leaves now, the foot after three more rounds) or
immediately (the foot leave now, the artillery is lost); infantry loses a third (rounded
down) on a retreat, cavalry none, and every retreating unit loses a move point (V2-Q25).
After 30 rounds the attacker breaks off (V2-Q26).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .attack import conquer, odds_values, retreat_fields, taken_marks
from .board import NOBODY
from .modifiers import factor, ground, side_modifiers
from .rules import ARTILLERY, INFANTRY
from .state import describe_units
from .steps import STEPS

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.4.2"
ORDERS = ("artillery", "foot", "random")


def has_both(units: list) -> bool:
    art = foot = False
    for u in units:
        if u[0] == ARTILLERY:
            art = True
        else:
            foot = True
    return art and foot


def side_player(b: dict, side: int) -> int:
    return b["att"] if side == 0 else b["dfd"]


def side_name(s: "V2State", b: dict, side: int) -> str:
    p = side_player(b, side)
    return "the neutral army" if p == NOBODY else s.names[p]


@STEPS.step("orders")
def orders(s: "V2State", side: int) -> Decision | None:
    """Artillery orders before the first round (2.3.4.2), asked only where they can differ:
    the side has artillery and the enemy both artillery and foot troops."""
    b = s.the_battle()
    mine, theirs = b["side"][side], b["side"][1 - side]
    if not mine or not theirs or not any(u[0] == ARTILLERY for u in mine) or not has_both(theirs):
        return None
    p = side_player(b, side)
    return Decision(p, "v2.orders", list(ORDERS),
                    f"{s.names[p]}: what should your artillery fire at — the enemy's artillery, his foot troops, "
                    "or targets at random?", SECTION, lambda k: f"Fire at {'random targets' if k == 'random' else 'the ' + k}",
                    info={"target": b["target"], "side": side})


@STEPS.on_answer("orders")
def orders_answer(s: "V2State", player: int, key: str, side: int) -> None:
    s.the_battle()["orders"][side] = key


def decided(b: dict) -> bool:
    return not b["side"][0] or not b["side"][1]


@STEPS.step("round")
def fight_round(s: "V2State") -> None:
    b = s.the_battle()
    if decided(b):
        s.then(("battle_end",))
        return
    rules = s.rules
    b["round"] += 1
    rnd = b["round"]
    b["fought"] = 1
    sides = b["side"]
    mods = side_modifiers(rules, [len(sides[0]), len(sides[1])], b["start"], rnd, ground(s, b["target"], b["dfd"]))
    kills: list[set] = [set(), set()]
    rolls = Rolls()
    if (rnd - 1) % rules.fire_every == 0:
        artillery_fire(s, b, mods, kills, rolls)
    foot_battle(s, b, mods, kills, rolls)
    before = [len(sides[0]), len(sides[1])]
    for side in (0, 1):
        if kills[side]:
            sides[side] = [u for i, u in enumerate(sides[side]) if i not in kills[side]]
    lost = [len(kills[0]), len(kills[1])]
    s.log("battle-round", f"Fight-turn {rnd} on {s.field_name(b['target'])}: {side_name(s, b, 0)} loses {lost[0]}, "
          f"{side_name(s, b, 1)} loses {lost[1]}.", field=b["target"],
          battle={"area": str(b["target"]), "round": rnd, "lost": lost, "units": before,
                  "dice": rolls.faces, "die": rules.die, "hit": rolls.hit,
                  **({} if decided(b) else {"odds": round_odds(s, b)})})
    lost_guns(s, b)
    for side in (0, 1):
        if b["retreat"][side] and rnd >= b["retreat"][side] and sides[side]:
            leave(s, b, side, b["dest"])
    if decided(b):
        s.then(("battle_end",))
    elif rnd >= rules.round_limit:
        s.log("break-off", f"After {rnd} fight-turns {s.names[b['att']]} breaks off the attack.",
              player=b["att"], field=b["target"])
        leave(s, b, 0, NOBODY)
        s.then(("battle_end",))
    elif rnd % rules.offer_every == 0:
        s.then(("offer", 0), ("offer", 1), ("round",))
    else:
        s.then(("round",))


def round_odds(s: "V2State", b: dict) -> dict:
    """The battle after a fight-turn, before the next, as the game's calculator takes it
    (``odds_cli``: the armies left, the fight-turns fought, the sizes it began with, each
    side's artillery orders): the page asks for its odds between rounds."""
    t = b["target"]
    values = odds_values(s, t, b["dfd"], *b["side"])
    return {**values, "orders": b["orders"][0], "defender_orders": b["orders"][1], "fought": b["round"],
            "start": f"{b['start'][0]},{b['start'][1]}"}


def factors(rules, mods: list[int]):
    """``f(side, exp, opp_exp)``: the factor of a unit of ``side`` this round, memoised
    (a round asks the same few combinations many times)."""
    memo: dict = {}

    def f(side: int, exp: int, opp: int) -> int:
        key = (side, exp, opp)
        v = memo.get(key)
        if v is None:
            v = memo[key] = factor(rules, mods[side], exp, opp)
        return v

    return f


class Rolls:
    """The dice of one fight-turn, for its chronicle line: each side's attack rolls
    (``faces[side]``) and whether each destroyed what it attacked (``hit[side]``); the
    defending rolls of a duel only decide it."""

    __slots__ = ("faces", "hit")

    def __init__(self) -> None:
        self.faces: list[list[int]] = [[], []]
        self.hit: list[list[bool]] = [[], []]

    def add(self, side: int, face: int, hit: bool) -> None:
        self.faces[side].append(face)
        self.hit[side].append(hit)


def duel(s: "V2State", att_value: int, att_factor: int, def_value: int, def_factor: int,
         rolls: Rolls | None = None, side: int = 0) -> bool:
    """2.3.4.3: the attacked unit is destroyed if its total is less than the attacker's;
    the attacker's roll is kept in ``rolls`` as ``side``'s."""
    die = s.rules.die
    r = s.dice.below
    face = r(die) + 1
    attack = face * att_value * att_factor
    won = (r(die) + 1) * def_value * def_factor < attack
    if rolls is not None:
        rolls.add(side, face, won)
    return won


def artillery_fire(s: "V2State", b: dict, mods: list[int], kills: list[set], rolls: Rolls | None = None) -> None:
    rules = s.rules
    fac = factors(rules, mods)
    sides = b["side"]
    for side in (0, 1):
        mine, theirs = sides[side], sides[1 - side]
        guns = [u for u in mine if u[0] == ARTILLERY]
        if not guns or not theirs:
            continue
        their_art = [j for j, u in enumerate(theirs) if u[0] == ARTILLERY]
        their_foot = [j for j, u in enumerate(theirs) if u[0] != ARTILLERY]
        order = b["orders"][side]
        for gun in guns:
            if not their_art or not their_foot:
                at_art = not their_foot
            elif order == "random":
                at_art = theirs[s.dice.below(len(theirs))][0] == ARTILLERY
            else:
                at_art = order == "artillery"
            if at_art:
                j = their_art[s.dice.below(len(their_art))]
                v = theirs[j]
                if duel(s, rules.attack[ARTILLERY], fac(side, gun[2], v[2]),
                        rules.defend[ARTILLERY], fac(1 - side, v[2], gun[2]), rolls, side):
                    kills[1 - side].add(j)
            else:
                at_foot(s, gun, side, theirs, their_foot, fac, kills[1 - side], rolls)


def at_foot(s: "V2State", gun: tuple, side: int, theirs: list, their_foot: list[int], fac,
            killed: set, rolls: Rolls | None = None) -> None:
    """2.3.4.2: "if it attacks the foot troops, three units have to defend themselves" —
    the gun attacks once (one roll, 2.3.4.3), and each of three random foot units (all
    there are, if fewer) defends itself against it: each whose total is less is
    destroyed (V2-Q20)."""
    rules = s.rules
    die = rules.die
    face = s.dice.below(die) + 1
    roll = face * rules.attack[ARTILLERY]
    hit = False
    for j in s.dice.shuffled(their_foot)[: rules.foot_targets]:
        v = theirs[j]
        if (s.dice.below(die) + 1) * rules.defend[v[0]] * fac(1 - side, v[2], gun[2]) < roll * fac(side, gun[2], v[2]):
            killed.add(j)
            hit = True
    if rolls is not None:
        rolls.add(side, face, hit)


def foot_battle(s: "V2State", b: dict, mods: list[int], kills: list[set], rolls: Rolls | None = None) -> None:
    rules = s.rules
    fac = factors(rules, mods)
    sides = b["side"]
    foot = [[i for i, u in enumerate(sides[side]) if u[0] != ARTILLERY] for side in (0, 1)]
    if not foot[0] or not foot[1]:
        return
    small = 0 if len(foot[0]) <= len(foot[1]) else 1
    big = 1 - small
    S = s.dice.shuffled(foot[small])
    L = s.dice.shuffled(foot[big])
    n = len(S)
    cap = n * rules.max_group
    fighting, reserve = L[:cap], L[cap:]
    su, bu = sides[small], sides[big]
    atk, dfn = rules.attack, rules.defend
    for g, i in enumerate(S):
        one = su[i]
        group = fighting[g::n]
        for j in group:
            x = bu[j]
            if duel(s, atk[x[0]], fac(big, x[2], one[2]), dfn[one[0]], fac(small, one[2], x[2]), rolls, big):
                kills[small].add(i)
        x = bu[group[0]]
        if duel(s, atk[one[0]], fac(small, one[2], x[2]), dfn[x[0]], fac(big, x[2], one[2]), rolls, small):
            kills[big].add(group[0])
    hits = len(reserve) // rules.foot_targets
    if hits:
        guns = [j for j, u in enumerate(su) if u[0] == ARTILLERY and j not in kills[small]]
        for j in s.dice.shuffled(guns)[:hits]:
            kills[small].add(j)


def lost_guns(s: "V2State", b: dict) -> None:
    """Artillery whose foot troops are all gone is destroyed while the enemy has foot
    troops (2.3.4.3, special case)."""
    sides = b["side"]
    for side in (0, 1):
        mine, theirs = sides[side], sides[1 - side]
        if mine and all(u[0] == ARTILLERY for u in mine) and any(u[0] != ARTILLERY for u in theirs):
            s.log("guns-lost", f"{side_name(s, b, side)}'s foot troops are gone: "
                  f"{len(mine)} artillery destroyed.", side=side, lost=len(mine))
            sides[side] = []


def leave(s: "V2State", b: dict, side: int, dest: int) -> None:
    """The foot troops (and any artillery still there) of ``side`` leave the battle: a
    third of the infantry, rounded down, is lost; the rest go to ``dest`` (the defender)
    or back to the fields they came from (the attacker), one move point poorer."""
    units = b["side"][side]
    inf = sorted((u for u in units if u[0] == INFANTRY), key=lambda u: u[2])
    lost = len(inf) // s.rules.infantry_loss_divisor
    gone = inf[:lost]
    for u in gone:
        units.remove(u)
    go_home(s, b, side, units, dest)
    b["side"][side] = []
    s.log("retreat", f"{side_name(s, b, side)} retreats from {s.field_name(b['target'])}"
          f"{', losing ' + f'{lost} infantry' if lost else ''}.",
          player=side_player(b, side), field=b["target"], lost=lost,
          battle={"area": str(b["target"]), "retreat": side_name(s, b, side), "round": b["round"]})


def go_home(s: "V2State", b: dict, side: int, units: list, dest: int) -> None:
    for u in units:
        f = u[3] if side == 0 else dest
        s.add_units(f, [(u[0], u[1] - 1, u[2])])


def offer_keys(s: "V2State", b: dict, side: int) -> list[str]:
    keys = ["fight"]
    if any(u[0] == ARTILLERY for u in b["side"][side]) and has_both(b["side"][1 - side]):
        keys += [f"orders:{o}" for o in ORDERS if o != b["orders"][side]]
    if side == 0:
        keys += ["complete", "immediate"]
    else:
        for f in retreat_fields(s, b["dfd"], b["target"]):
            keys += [f"complete:{f}", f"immediate:{f}"]
    return keys


def offer_label(s: "V2State", key: str) -> str:
    if key == "fight":
        return "Fight on"
    word, _, rest = key.partition(":")
    if word == "orders":
        return f"Fight on; the artillery fires at {'random targets' if rest == 'random' else 'the ' + rest}"
    where = f" to {s.field_name(int(rest))}" if rest else ""
    if word == "complete":
        return f"Retreat completely{where}: the artillery now, the foot troops after three more fight-turns"
    return f"Retreat immediately{where}: the foot troops now, the artillery is lost"


@STEPS.step("offer")
def offer(s: "V2State", side: int) -> Decision | None:
    """Every third fight-turn a player's side may retreat or change its orders (2.3.4.2)."""
    b = s.the_battle()
    p = side_player(b, side)
    if decided(b) or p == NOBODY or b["retreat"][side]:
        return None
    keys = offer_keys(s, b, side)
    if len(keys) == 1:
        return None
    return Decision(p, "v2.offer", keys,
                    f"{s.names[p]}: fight-turn {b['round']} at {s.field_name(b['target'])}: "
                    f"{describe_units(b['side'][side])} against {describe_units(b['side'][1 - side])}.",
                    SECTION, lambda k: offer_label(s, k), info={"target": b["target"], "side": side})


@STEPS.on_answer("offer")
def offer_answer(s: "V2State", player: int, key: str, side: int) -> None:
    b = s.the_battle()
    if key == "fight":
        return
    word, _, rest = key.partition(":")
    if word == "orders":
        b["orders"][side] = rest
        return
    dest = int(rest) if rest else NOBODY
    if side == 1:
        b["dest"] = dest
    units = b["side"][side]
    guns = [u for u in units if u[0] == ARTILLERY]
    b["side"][side] = [u for u in units if u[0] != ARTILLERY]
    if word == "complete":
        go_home(s, b, side, guns, dest)
        b["retreat"][side] = b["round"] + s.rules.complete_delay
        s.log("retreat-begins", f"{s.names[player]} begins a complete retreat from {s.field_name(b['target'])}"
              f"{': the artillery leaves first' if guns else ''}.", player=player, field=b["target"],
              battle={"area": str(b["target"]), "retreat": s.names[player], "round": b["round"]})
        if not b["side"][side]:
            b["retreat"][side] = 0
        return
    if guns:
        s.log("guns-lost", f"{s.names[player]} retreats immediately and leaves "
              f"{len(guns)} artillery behind, destroyed.", side=side, lost=len(guns))
    leave(s, b, side, dest)


@STEPS.step("battle_end")
def battle_end(s: "V2State") -> None:
    """The winner's surviving units gain experience if there was a fight (2.3.4.4); the
    attacker conquers the field if the defender is gone (2.3.4.2)."""
    b = s.the_battle()
    s.battle = None
    t, att, dfd = b["target"], b["att"], b["dfd"]
    A, D = b["side"]
    top = len(s.rules.experience) - 1
    fought = b["fought"]

    def seasoned(units):
        if not fought:
            return units
        return [(u[0], u[1], min(top, u[2] + 1), u[3]) for u in units]

    if A and not fought:
        s.log("conquest", f"{s.names[att]} takes {s.field_name(t)} with {describe_units(A)}.",
              player=att, field=t, defender=dfd, peaceful=True, marks=taken_marks(t, att, dfd),
              battle={"area": str(t), "close": True, "winner": 0, "units": [len(A), 0]})
        conquer(s, att, t, A)
    elif A:
        s.log("battle-won", f"{s.names[att]} wins the battle for {s.field_name(t)} with {describe_units(A)} left.",
              player=att, field=t, defender=dfd, survivors=len(A), rounds=b["round"], marks=taken_marks(t, att, dfd),
              battle={"area": str(t), "close": True, "winner": 0, "units": [len(A), 0]})
        conquer(s, att, t, seasoned(A))
    elif D:
        s.add_units(t, [u[:3] for u in seasoned(D)])
        s.log("battle-lost", f"{side_name(s, b, 1)} holds {s.field_name(t)} with {describe_units(D)} left.",
              player=att, field=t, defender=dfd, survivors=len(D), rounds=b["round"],
              battle={"area": str(t), "close": True, "winner": 1, "units": [0, len(D)]})
    else:
        whose = "neutral" if dfd == NOBODY else s.names[dfd] + "'s"
        s.log("battle-void", f"Both armies are gone from {s.field_name(t)}; it stays {whose}.",
              player=att, field=t, defender=dfd, rounds=b["round"],
              battle={"area": str(t), "close": True, "winner": None, "units": [0, 0]})
