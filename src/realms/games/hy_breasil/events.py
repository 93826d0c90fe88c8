"""§6.1: the random events phase.

The die plus the nation's civilization tokens indexes table 1.  The owner sees the event
and may reroll it by taking a civilization token (RULINGS HB-Q8: any event, as often as
tokens allow, decided on the event's name before its own dice are rolled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .abilities import all_owned
from .races import ignores
from .submission import on_event
from .turn import award_vp
from .steps import STEPS
from .state import verb

if TYPE_CHECKING:
    from .state import HBState, Nation

#: the ``roll`` of an event a Prophecy foretold (§9.3.1): no die was rolled this turn
FORETOLD = 0

EVENT_NAMES = {
    "reinforcements": "Reinforcements",
    "strong-leader": "Strong leader",
    "weak-leader": "Weak leader",
    "religious-fervour": "Religious fervour",
    "plague": "Plague",
    "famine": "Famine",
    "civil-war": "Civil war",
    "civilization": "Civilization",
}

#: what each event does, in a line, for the question "accept or reroll?" (§6.1)
EVENT_EFFECTS = {
    "reinforcements": "a die's worth of new units at the sea the nation came from",
    "strong-leader": "two movement and combat phases this turn",
    "weak-leader": "the nation may not attack this turn",
    "religious-fervour": "+1 to the nation's dice in the battles it starts this turn",
    "plague": "a die's worth of its own units die, and as many of its neighbours' may",
    "famine": "no population increase this turn",
    "civil-war": "half its areas split off as a new nation, dealt to a random player",
    "civilization": "5 VP, but the nation sets a unit aside as a civilization token",
}


@STEPS.step("event")
def event(s: "HBState", nid: int) -> None:
    """§6.1: roll on table 1 — or, in a nation's first turn, Strong leader automatically."""
    n = s.alive(nid)
    if n is None:
        return
    if n.first_turn:
        name = s.tables.first_turn_event
        s.log_data("event", f"{s.Who(n)} arrive under a {EVENT_NAMES[name]} (first turn).",
                   {"nation": nid, "event": name, "roll": None, "first_turn": True})
        s.then(("do_event", nid, name))
        return
    if n.prophecy is not None:
        name, n.prophecy = n.prophecy, None
        roll = FORETOLD
        s.log_data("prophecy-fulfilled", f"The prophecy of the {n.name} comes true.",
                   {"nation": nid, "event": name})
    else:
        roll = s.dice.d6()
        name = s.tables.event_for(roll + n.civ)
    if name == "civil-war" and not civil_war_possible(s, n):
        if n.civ + 1 >= len(s.tables.event_table):
            s.log_data("event-void", f"{s.Who(n)} cannot fall into civil war; no event this turn.",
                       {"nation": nid})
            return
        s.log_data("event-reroll-free", f"Civil war is impossible for {s.who(n)}; the event is rolled again.",
                   {"nation": nid})
        s.then(("event", nid))
        return
    s.then(("event_choice", nid, name, roll))


def civil_war_possible(s: "HBState", n: "Nation") -> bool:
    """§6.1 Civil war: needs an unused token set and more than one occupied area."""
    return bool(s.free_sets) and len(s.land_areas(n)) > 1


def can_reroll(n: "Nation") -> bool:
    """A civilization token comes from the pool, else from the board (RULINGS HB-Q9: never the last unit)."""
    return n.pool > 0 or n.board > 1


def _effect(s: "HBState", name: str) -> str:
    """What the event does, in a line; with §9.3 abilities Civilization gives an ability."""
    if name == "civilization" and s.abilities_on:
        return "a new ability, but the nation sets a unit aside as a civilization token"
    return EVENT_EFFECTS[name]


@STEPS.step("event_choice")
def event_choice(s: "HBState", nid: int, name: str, roll: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    if not can_reroll(n):
        _announce(s, n, name, roll)
        s.then(("do_event", nid, name))
        return None
    how = (f"The prophecy of the {n.name} comes true" if roll == FORETOLD else
           f"The {n.name} rolled {roll} + {n.civ} civilization tokens")
    return Decision(n.owner, "hb.event", ("accept", "reroll"),
                    f"{how}: {EVENT_NAMES[name]} ({_effect(s, name)}). Accept or reroll?",
                    "§6.1", lambda key: _choice_label(name, key),
                    {"nation": nid, "event": name, "roll": roll, "civilization_tokens": n.civ})


def _choice_label(name: str, key: str) -> str:
    if key == "accept":
        return f"Accept {EVENT_NAMES[name]}"
    if key == "reroll":
        return ("Reroll it: set a unit aside as a civilization token (one unit fewer for good, "
                "+1 to this and later event rolls)")
    raise KeyError(key)


@STEPS.on_answer("event_choice")
def event_choice_answer(s: "HBState", player: int, key: str, nid: int, name: str, roll: int) -> None:
    n = s.nations[nid]
    if key == "accept":
        _announce(s, n, name, roll)
        s.then(("do_event", nid, name))
        return
    s.log_data("event-reroll", f"{s.Who(n)} turned away from {EVENT_NAMES[name]} ({_how(n, roll)}) "
               "and took a civilization token.", {"nation": nid, "event": name, "roll": roll})
    s.then(("civ_token", nid, "reroll"), ("event", nid))


def _announce(s: "HBState", n: "Nation", name: str, roll: int) -> None:
    s.log_data("event", f"{s.Who(n)}: {EVENT_NAMES[name]} ({_how(n, roll)}).",
               {"nation": n.id, "event": name, "roll": roll})


def _how(n: "Nation", roll: int) -> str:
    """How the event came: ``rolled 5+1`` (die + civilization tokens), or ``foretold``."""
    return "foretold" if roll == FORETOLD else f"rolled {roll}+{n.civ}"


@STEPS.step("civ_token")
def civ_token(s: "HBState", nid: int, why: str) -> Decision | None:
    """§6.1: a unit becomes a civilization token — from the pool, else from the board.

    RULINGS HB-Q9: the owner picks the area of a unit taken from the board.
    """
    n = s.alive(nid)
    if n is None:
        return None
    if n.pool > 0:
        n.pool -= 1
        n.civ += 1
        return None
    areas = sorted(a for a, c in n.units.items())
    keys = tuple(s.board.ids[a] for a in areas)
    return Decision(n.owner, "hb.civ-token-from-board", keys,
                    f"The {n.name} have no unused units: take the civilization token from which area?",
                    "§6.1", s.label_area)


@STEPS.on_answer("civ_token")
def civ_token_answer(s: "HBState", player: int, key: str, nid: int, why: str) -> None:
    _take_from_board(s, s.nations[nid], s.board.index[key])


def _take_from_board(s: "HBState", n: "Nation", area: int) -> None:
    s.remove_units(n, area, 1)
    n.pool -= 1
    n.civ += 1


@STEPS.step("do_event")
def do_event(s: "HBState", nid: int, name: str) -> None:
    n = s.alive(nid)
    if n is None:
        return
    if ignores(s, n, name):
        s.log_data("event-ignored", f"{s.Who(n)} shrug off {EVENT_NAMES[name]} ({n.race}s).",
                   {"nation": nid, "event": name})
        return
    if on_event(s, n, name):
        return
    if name == "strong-leader":
        n.phases = 2
    elif name == "weak-leader":
        n.weak = True
    elif name == "religious-fervour":
        n.fervour = True
    elif name == "famine":
        n.famine = True
    elif name == "reinforcements":
        s.then(("reinforcements", nid))
    elif name == "plague":
        s.then(("plague", nid))
    elif name == "civil-war":
        s.then(("civil_war", nid))
    elif name == "civilization":
        if s.abilities_on and all_owned(s, n):
            s.log_data("event-reroll-free", f"{s.Who(n)} have every ability; the event is rolled again.",
                       {"nation": nid})
            s.then(("event", nid))
            return
        s.then(("civ_token", nid, "civilization"), ("civilization", nid))


@STEPS.step("reinforcements")
def reinforcements(s: "HBState", nid: int) -> None:
    """§6.1 Reinforcements: a die's worth of units (as many as are unused) in the starting sea.

    RULINGS HB-Q11: a nation split off by civil war or disconnection keeps the starting
    sea of the nation it came from.
    """
    n = s.nations[nid]
    start_sea = n.start_sea
    assert start_sea is not None, "a nation in play has its starting sea (§6.1)"
    roll = s.dice.d6()
    count = min(roll, n.pool)
    s.add_units(n, start_sea, count)
    sea = s.board.names[start_sea]
    text = (f"Reinforcements: {count} more {'unit' if count == 1 else 'units'} of the {n.name} "
            f"{verb(count, 'arrive', 'arrives')} in {sea}." if count else
            f"No reinforcements reach the {n.name}: every unit is in use.")
    s.log_data("reinforcements", text, {"nation": nid, "roll": roll, "units": count})


@STEPS.step("civilization")
def civilization(s: "HBState", nid: int) -> None:
    """§6.1 Civilization: 5 VP for the owner (the token was taken by the previous step)."""
    n = s.alive(nid)
    if n is None:
        return
    if s.abilities_on:
        s.then(("choose_ability", nid))
        return
    vp = s.tables.civilization_vp
    award_vp(s, n, vp)
    s.log_data("civilization", f"{s.Who(n)} flourish: +{vp} VP.", {"nation": nid, "vp": vp, "owner": n.owner})


from . import plague, civil_war  # noqa: E402,F401
