"""§6.3.1 combat and §6.3.2 retreat.

``HBState.battle`` is ``[area, attacker, defender, att_unhurt, att_wounded, def_unhurt,
def_wounded, defender_retreated, attacker_owner, defender_owner, city, *starts]``:
``city`` is the defending city's strength (2 unhurt, 1 wounded, 0 none; §9.3.1),
``starts`` the area each attacking unit began its move in (where it stays if the
defender submits and it has no land to withdraw to, §9.2, RULINGS HB-Q30).  The
attacker's units in the battle are counted there; the defender's stay in its ``units``
(kept equal to unhurt + wounded).  Each round every unit rolls; 4+ hits, but the
attacker needs 5+ in hills or forest (not against a city, which gets no benefit from
terrain, §9.3.1, RULINGS HB-Q42); Religious fervour adds one to the attacker's dice.
The side that rolled decides how its hits fall, and all hits must be applied (§6.3.1).
After a round the defender may retreat unwounded units first; only if it does not may
the attacker (§6.3.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final

from realms.core.decision import Decision
from realms.core.dice import Dice

from .races import combat_bonus
from .submission import may_submit, submit
from .steps import STEPS
from .state import and_list, units, verb
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation

# the indices of ``HBState.battle`` (Final: compiled, a constant, not a lookup of a global)
AREA: Final = 0
ATT: Final = 1
DEF: Final = 2
AU: Final = 3
AW: Final = 4
DU: Final = 5
DW: Final = 6
DEF_RETREATED: Final = 7
ATT_OWNER: Final = 8
DEF_OWNER: Final = 9
CITY: Final = 10
STARTS: Final = 11


def hit_outcomes(unhurt: int, wounded: int, hits: int) -> list[tuple[int, int]]:
    """Every (unhurt, wounded) the target side can be left with after ``hits`` hits.

    A hit wounds an unhurt unit or kills a wounded one (also one wounded this round);
    all hits must be applied while any target is left (§6.3.1).
    """
    if hits >= 2 * unhurt + wounded:
        return [(0, 0)]
    out = set()
    for kill2 in range(unhurt + 1):
        for wound in range(unhurt - kill2 + 1):
            kill1 = hits - 2 * kill2 - wound
            if 0 <= kill1 <= wounded:
                out.add((unhurt - kill2 - wound, wounded - kill1 + wound))
    return sorted(out, reverse=True)


def outcome_keys(unhurt: int, wounded: int, hits: int) -> tuple[str, ...]:
    """The option keys of :func:`hit_outcomes` (``"u1w0"``), made once per battle size."""
    size = (unhurt << 40) | (wounded << 20) | hits  # far below 2**20 units or hits a side
    keys = _KEYS.get(size)
    if keys is None:
        outcomes = hit_outcomes(unhurt, wounded, hits)
        keys = tuple([_outcome_key(u, w) for u, w in outcomes])
        OUTCOME_OF.update(zip(keys, outcomes))
        _KEYS[size] = keys
    return keys


#: :func:`outcome_keys`' answers by unhurt, wounded and hits packed in an int (a dict,
#: not ``lru_cache``: compiled, a call through the cache's wrapper costs ~1k
#: instructions, and a tuple key ~500 more)
_KEYS: Final[dict[int, tuple[str, ...]]] = {}

#: an outcome key's (unhurt, wounded), for every key :func:`outcome_keys` has made
OUTCOME_OF: Final[dict[str, tuple[int, int]]] = {}


def attacker_needs(s: "HBState", area: int, attacker: "Nation") -> int:
    """§6.3.1, §6.1 Religious fervour, §9.1 races: the attacker's hit number in ``area``.

    RULINGS HB-Q21: the +1 bonuses add up.
    """
    need = s.board.attack_hit[area] - combat_bonus(s, attacker, area)
    if attacker.fervour:
        need -= 1
    return need


def attacker_needs_on_city(s: "HBState", area: int, attacker: "Nation") -> int:
    """§9.3.1: a city "does not get benefits from terrain", so the attacker's dice hit it
    on the plain number (4+) even in hills and forest; its own race bonus and Religious
    fervour still count (RULINGS HB-Q42)."""
    need = s.tables.hit_on - combat_bonus(s, attacker, area)
    if attacker.fervour:
        need -= 1
    return need


def defender_needs(s: "HBState", area: int, defender: "Nation") -> int:
    """§6.3.1: the defender hits on 4+ anywhere; §9.1 races add their terrain bonus."""
    return s.tables.hit_on - combat_bonus(s, defender, area)


@STEPS.step("fight")
def fight(s: "HBState", nid: int) -> Decision | None:
    """§6.3.1: the battle begins — after the defender's chance to submit (§9.2)."""
    bt = s.battle
    assert bt is not None
    att = s.nations[nid]
    dfd = s.nations[bt[DEF]]
    if may_submit(s, att, dfd):
        labels = {"fight": "Fight", "submit": f"Submit to the {att.name}"}
        return Decision(dfd.owner, "hb.submit", ("fight", "submit"),
                        f"The {att.name} attack the {dfd.name} in {s.board.names[bt[AREA]]} with {units(bt[AU])}: "
                        "fight, or submit to them?", "§9.2", labels.__getitem__,
                        {"nation": dfd.id, "attacker": nid, "area": s.board.ids[bt[AREA]]})
    begin(s, nid)
    return None


@STEPS.on_answer("fight")
def fight_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    if key == "fight":
        begin(s, nid)
    else:
        bt = s.battle
        assert bt is not None
        submit(s, s.nations[nid], s.nations[bt[DEF]])


def begin(s: "HBState", nid: int) -> None:
    bt = s.battle
    assert bt is not None
    att = s.nations[nid]
    dfd = s.nations[bt[DEF]]
    s.log("battle", f"{s.Who(att)} attack {s.who(dfd)} in {s.board.names[bt[AREA]]} "
          f"with {bt[AU]} against {bt[DU]}.", nation=nid, defender=dfd.id, area=s.board.ids[bt[AREA]],
          attackers=bt[AU], defenders=bt[DU], terrain=s.board.terrain[bt[AREA]],
          battle={"area": s.board.ids[bt[AREA]], "open": True, "sides": [att.name, dfd.name],
                  "units": [bt[AU], bt[DU]], "odds": _odds_values(s, bt, att, dfd)},
          marks={"from": sorted({s.board.ids[a] for a in bt[STARTS:]}), "to": s.board.ids[bt[AREA]]})
    s.then(("battle_round", nid))


@STEPS.step("battle_round")
def battle_round(s: "HBState", nid: int) -> None:
    bt = s.battle
    assert bt is not None
    att = s.nations[nid]
    dfd = s.nations[bt[DEF]]
    area = bt[AREA]
    dice = s.dice
    need_a = attacker_needs(s, area, att)
    need_d = defender_needs(s, area, dfd)
    dice_a = _rolls(dice, bt[AU] + bt[AW])
    hits_a = 0
    for d in dice_a:
        if d >= need_a:
            hits_a += 1
    hits_d = 0
    dice_d = _rolls(dice, bt[DU] + bt[DW])
    for d in dice_d:
        if d >= need_d:
            hits_d += 1
    city = bt[CITY]
    if city:
        city_die = _rolls(dice, 1)[0]
        dice_d.append(city_die)
        if city_die >= s.tables.hit_on:
            hits_d += 1  # §9.3.1: the city fights like an army, without terrain or race benefit
    # §9.3.1: dice that miss the armies for the terrain still hit the city (HB-Q42)
    need_c = attacker_needs_on_city(s, area, att)
    city_only = 0
    if city:
        for d in dice_a:
            if need_c <= d < need_a:
                city_only += 1
    bt[DEF_RETREATED] = 0
    _log_round(s, bt, att, dfd, dice_a, dice_d, (need_a, need_d), (hits_a, hits_d))
    # Hits that can fall only one way fall now (as the engine would apply a question with
    # one answer); a question is asked from its frame, the defender's hits in the next.
    if _fall(s, 0, hits_a, city_only) is not None:
        first = ("allocate", nid, 0, hits_a, city_only) if city_only else ("allocate", nid, 0, hits_a)
        s.then(first, ("allocate", nid, 1, hits_d), ("after_round", nid))
    elif _fall(s, 1, hits_d, 0) is not None:
        s.then(("allocate", nid, 1, hits_d), ("after_round", nid))
    else:
        _after_round(s, nid)


def _log_round(s: "HBState", bt: list[int], att: "Nation", dfd: "Nation", dice_a: list[int], dice_d: list[int],
               need: tuple[int, int], hits: tuple[int, int]) -> None:
    """A round's dice in the chronicle (§6.3.1), as a line and as the battle's data
    (``Event`` docstring: ``battle``): the page shows them as dice beside the odds."""
    n = battle_round_number(s) + 1
    area = s.board.ids[bt[AREA]]
    s.log("battle-round", f"Round {n} in {s.board.names[bt[AREA]]}: the {att.name} roll "
          f"{' '.join(map(str, dice_a))} ({hits[0]} {verb(hits[0], 'hits', 'hit')} on {need[0]}+), the {dfd.name} "
          f"{' '.join(map(str, dice_d)) or 'nothing'} ({hits[1]} {verb(hits[1], 'hits', 'hit')} on {need[1]}+).",
          battle={"area": area, "round": n, "dice": [dice_a, dice_d], "need": list(need), "hits": list(hits),
                  "units": [bt[AU] + bt[AW], bt[DU] + bt[DW]], "odds": _odds_values(s, bt, att, dfd)})


def battle_round_number(s: "HBState") -> int:
    """The rounds fought so far in the battle going on: its round lines since it began."""
    n = 0
    events = s.events
    for i in range(len(events) - 1, -1, -1):
        kind = events[i].kind
        if kind == "battle":
            return n
        if kind == "battle-round":
            n += 1
    return n


def _odds_values(s: "HBState", bt: list[int], att: "Nation", dfd: "Nation | None") -> dict:
    """The battle now, before its next round, as the game's calculator takes it
    (``odds_cli``): the page asks for its exact odds."""
    area = bt[AREA]
    races = s.races_on
    return {"attackers": bt[AU] + bt[AW], "attackers_wounded": bt[AW], "defenders": bt[DU] + bt[DW],
            "defenders_wounded": bt[DW], "terrain": s.board.terrain[area], "fervour": bool(att.fervour),
            "attacker_race": att.race if races else None,
            "defender_race": dfd.race if races and dfd is not None else None, "city": bool(bt[CITY])}


def _rolls(dice: Any, n: int) -> list[int]:
    """``n`` combat dice, each ``int(r() * 6) + 1`` of the dice's one uniform draw ``r``
    (:meth:`Dice.roll`); dice scripted by tests are read through their ``_random``.
    (Compiled, a :class:`Dice` is rolled by a direct call, each ``r()`` of any other
    object goes through Python's calling convention.)"""
    if isinstance(dice, Dice):
        return dice.roll(n)
    r: Callable[[], float] = dice._random
    return [int(r() * 6) + 1 for _ in range(n)]


def _name(s: "HBState", bt: list[int], side: int) -> str:
    """The name of the attacker (side 0) or defender (side 1), removed from play or not."""
    n = s.nations.get(bt[ATT] if side == 0 else bt[DEF])
    return n.name if n is not None else "fallen"


def _outcome_key(u: int, w: int) -> str:
    return f"u{u}w{w}"


@STEPS.step("allocate")
def allocate(s: "HBState", nid: int, side: int, hits: int, city_only: int = 0) -> Decision | None:
    """``side`` 0: the attacker's hits on the defender; 1: the defender's on the attacker.

    ``city_only``: the attacker's dice that hit a city but not its armies (HB-Q42)."""
    keys = _fall(s, side, hits, city_only)
    if keys is None:
        return None
    bt = s.battle
    assert bt is not None
    u, w = (bt[DU], bt[DW]) if side == 0 else (bt[AU], bt[AW])
    return _ask_hits(s, bt, side, hits, u, w, keys)


def _fall(s: "HBState", side: int, hits: int, city_only: int) -> tuple[str, ...] | None:
    """:func:`allocate`'s hits applied where they can fall only one way (None); otherwise
    nothing changed and the ways they may fall, as option keys."""
    bt = s.battle
    assert bt is not None
    if hits == 0:
        return None
    u, w = (bt[DU], bt[DW]) if side == 0 else (bt[AU], bt[AW])
    if side == 0 and bt[CITY] and hits >= 2 * u + w:
        # §9.3.1: hits reach a city only once the defending armies are gone; the rest must.
        bt[CITY] = max(0, bt[CITY] - (hits - 2 * u - w) - city_only)
        _apply_hits(s, 0, 0, 0)
        return None
    if u + w == 0:
        return None
    keys = outcome_keys(u, w, hits)
    if len(keys) == 1:  # the hits can fall only one way: applied, as the engine would
        left_u, left_w = OUTCOME_OF[keys[0]]
        _apply_hits(s, side, left_u, left_w)
        return None
    return keys


def _ask_hits(s: "HBState", bt: list[int], side: int, hits: int, u: int, w: int,
              keys: tuple[str, ...]) -> Decision:
    """The question of :func:`allocate` (its own function: compiled, a function holding
    a closure makes the closure's frame on every call, asked or not)."""
    # The defender's dice were rolled with the attacker's: its hits count even if the
    # attacker's hits just removed it from play (§8); its former owner applies them.
    roller_owner = bt[ATT_OWNER] if side == 0 else bt[DEF_OWNER]
    roller = _name(s, bt, side)
    target = _name(s, bt, 1 - side)

    def label(key: str) -> str:
        uu, ww = key[1:].split("w")
        return f"Leave the {target} with {uu} unhurt and {ww} wounded"

    return Decision(roller_owner, "hb.assign-hits", keys,
                    f"The {roller} scored {hits} {verb(hits, 'hits', 'hit')} on {u} unhurt and {w} wounded "
                    f"{target}: how do they fall?",
                    "§6.3.1", label)


@STEPS.on_answer("allocate")
def allocate_answer(s: "HBState", player: int, key: str, nid: int, side: int, hits: int,
                    city_only: int = 0) -> None:
    u, w = OUTCOME_OF[key]
    _apply_hits(s, side, u, w)


def _apply_hits(s: "HBState", side: int, u: int, w: int) -> None:
    bt = s.battle
    assert bt is not None
    if side == 0:
        dead = bt[DU] + bt[DW] - u - w
        bt[DU], bt[DW] = u, w
        if dead:
            s.remove_units(s.nations[bt[DEF]], bt[AREA], dead)
    else:
        dead = bt[AU] + bt[AW] - u - w
        bt[AU], bt[AW] = u, w
        att = s.nations[bt[ATT]]
        att.board -= dead
        att.pool += dead


def _fighting(bt: list[int]) -> bool:
    """Both sides still fight: attackers, and defending armies (a city alone is taken)."""
    return bool(bt[AU] + bt[AW]) and bool(bt[DU] + bt[DW])


@STEPS.step("after_round")
def after_round(s: "HBState", nid: int) -> None:
    _after_round(s, nid)


def _after_round(s: "HBState", nid: int) -> None:
    """The round's hits have fallen: retreats (§6.3.2), or the end of the battle.  (Steps
    run by each other call the undecorated functions: compiled, a decorated function is
    called through Python's calling convention.)"""
    bt = s.battle
    assert bt is not None
    if _fighting(bt):
        s.then(("retreat", nid, 1, 0), ("retreat", nid, 0, 0), ("battle_continue", nid))
    else:
        _battle_end(s, nid)


def _hold_removals(s: "HBState") -> list:
    """Take out of the chronicle the removals from play (§8) logged since the battle
    began, so that they can follow its result: the defender removed at once (RULINGS
    HB-Q25) reads "vanished" after the battle that caused it.  (Watchers saw them when
    they were logged; only the order of the lines changes.)"""
    events = s.events
    fallen: list = []
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "battle":
            if fallen:
                fallen.reverse()
                events[i:] = [x for x in events[i:] if x.kind != "nation-removed"]
            return fallen
        if e.kind == "nation-removed":
            fallen.append(e)
    return []


def log_retreat(s: "HBState", nation: "Nation", kind: str, src: int, dst: int) -> None:
    """One line per nation and area left, however many units go: ``The X retreat 3 units
    from A to B and C.`` (``kind`` "retreat", §6.3.2, or "withdraw", §9.2)."""
    b = s.board
    to = [b.ids[dst]]
    events = s.events
    if events:
        last = events[-1].data if events[-1].kind == kind else None
        if last is not None and last["nation"] == nation.id and last["area"] == b.ids[src]:
            to = last["to"] + to
    places: list[str] = []
    for key in to:
        if key not in places:
            places.append(key)
    names = and_list([b.names[b.index[a]] for a in places])
    text = f"{s.Who(nation)} {kind} {units(len(to))} from {b.names[src]} to {names}."
    data: dict = {"nation": nation.id, "area": b.ids[src], "to": to}
    if kind == "retreat" and s.battle is not None:
        data["battle"] = {"area": b.ids[src], "retreat": nation.name, "round": battle_round_number(s)}
    if not (len(to) > 1 and s.amend_data(kind, text, data)):
        s.log_data(kind, text, data)


def retreat_targets(s: "HBState", side: int) -> list[int]:
    """§6.3.2: neighbouring land areas, empty or held by the retreating nation."""
    bt = s.battle
    assert bt is not None
    mine = bt[ATT] if side == 0 else bt[DEF]
    an = s.area_nation
    empty = EMPTY
    out = []
    for a in s.board.land_nbrs[bt[AREA]]:
        held = an[a]
        if held == empty or held == mine:
            out.append(a)
    return out


@STEPS.step("retreat")
def retreat(s: "HBState", nid: int, side: int, count: int) -> Decision | None:
    """§6.3.2: the defender (side 1) first; the attacker only if the defender stayed."""
    bt = s.battle
    assert bt is not None
    if not (bt[AU] + bt[AW]) or not (bt[DU] + bt[DW]):
        return None
    if side == 0 and bt[DEF_RETREATED]:
        return None
    unhurt = bt[AU] if side == 0 else bt[DU]
    if unhurt == 0:
        return None
    targets = retreat_targets(s, side)
    if not targets:
        return None
    nation = s.nations[bt[ATT] if side == 0 else bt[DEF]]
    first = "stay" if count == 0 else "stop"
    b = s.board

    def label(key: str) -> str:
        if key == "stay":
            return "Stay and fight"
        if key == "stop":
            return "No more retreats"
        return f"Retreat a unit to {s.label_area(key)}"

    return Decision(nation.owner, "hb.retreat", (first,) + tuple(b.ids[a] for a in targets),
                    f"After round {battle_round_number(s)}, the {nation.name} may retreat unwounded units from "
                    f"{b.names[bt[AREA]]} ({unhurt} unwounded).",
                    "§6.3.2", label, {"nation": nation.id, "area": b.ids[bt[AREA]], "unwounded": unhurt})


@STEPS.on_answer("retreat")
def retreat_answer(s: "HBState", player: int, key: str, nid: int, side: int, count: int) -> None:
    if key == "stay" or key == "stop":
        return
    bt = s.battle
    assert bt is not None
    dst = s.board.index[key]
    if side == 1:
        s.shift(s.nations[bt[DEF]], bt[AREA], dst)
        bt[DU] -= 1
        bt[DEF_RETREATED] = 1
        log_retreat(s, s.nations[bt[DEF]], "retreat", bt[AREA], dst)
    else:
        att = s.nations[bt[ATT]]
        att.units[dst] = att.units.get(dst, 0) + 1
        s.occupy(dst, att)
        s.moved[dst] = s.moved.get(dst, 0) + 1
        bt[AU] -= 1
        log_retreat(s, att, "retreat", bt[AREA], dst)
    s.then(("retreat", nid, side, count + 1))


@STEPS.step("battle_continue")
def battle_continue(s: "HBState", nid: int) -> None:
    bt = s.battle
    assert bt is not None
    if _fighting(bt):
        s.then(("battle_round", nid))
    else:
        _battle_end(s, nid)


@STEPS.step("battle_end")
def battle_end(s: "HBState", nid: int) -> None:
    _battle_end(s, nid)


def _battle_end(s: "HBState", nid: int) -> None:
    """The battle is over: wounded units heal; a surviving attacker takes the area."""
    bt = s.battle
    assert bt is not None
    s.battle = None
    area = bt[AREA]
    att = s.nations[nid]
    dfd = s.alive(bt[DEF])
    survivors = bt[AU] + bt[AW]
    b = s.board
    if survivors:
        att.units[area] = survivors
        s.occupy(area, att)
        s.moved[area] = s.moved.get(area, 0) + survivors
        text = f"{s.Who(att)} take {b.names[area]} with {units(survivors)} left."
        winner = "attacker"
        if bt[CITY]:
            text += " The city is theirs."
            s.log("city-captured", f"{s.Who(att)} capture the city of {b.names[area]}.", nation=nid,
                  area=b.ids[area])
    elif bt[DU] + bt[DW]:
        assert dfd is not None, "defenders left are a nation's"
        text = f"{s.Who(dfd)} hold {b.names[area]} with {units(bt[DU] + bt[DW])} left."
        winner = "defender"
    else:
        text = f"Both sides fall in {b.names[area]}; it lies empty."
        winner = "none"
    fallen = _hold_removals(s)
    s.log("battle-result", text, nation=nid, defender=bt[DEF], area=b.ids[area], winner=winner,
          attackers_left=survivors, defenders_left=bt[DU] + bt[DW],
          battle={"area": b.ids[area], "close": True, "winner": {"attacker": 0, "defender": 1}.get(winner),
                  "units": [survivors, bt[DU] + bt[DW]]},
          marks={"taken": [b.ids[area]], "seat": bt[ATT_OWNER], "from_seat": bt[DEF_OWNER]} if survivors else {})
    if fallen:
        s.events.extend(fallen)
    if (s.cities >> area) & 1 and (not bt[CITY] or s.area_nation[area] == EMPTY):
        s.remove_city(area)  # destroyed, or left alone (§9.3.1)
    if att.board == 0:
        s.eliminate(att)
