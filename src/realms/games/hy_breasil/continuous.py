"""§10 Variant 1: continuous play — players join and leave at the start of a turn.

RULINGS HB-Q43: leavers go first, then newcomers arrive (each with a new nation as in
§5.1, before the invasion roll); then the leavers' nations, and any nations above the
new limits, are handed out by §5.3.  §10.2: each player's turn marker counts the turns
he has been in the game (the turn of entry is his turn 1, RULINGS HB-Q44).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .races import roll_race
from .steps import STEPS
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState


@STEPS.step("membership")
def membership(s: "HBState") -> None:
    """The start of a turn: leaves, joins, turn markers, then redistribution (§10.1)."""
    o = s.options
    index = {name: p for p, name in enumerate(s.names)}
    orphans = []
    for turn, name in o.get("leaves", []):
        if turn == s.turn:
            p = index[name]
            s.active[p] = False
            s.log("player-leaves", f"{name} leaves the game after {s.markers[p]} turns with {s.vp[p]} VP.",
                  player=p, vp=s.vp[p], turns=s.markers[p])
            for n in sorted(s.nations.values(), key=lambda n: n.id):
                if n.owner == p:
                    n.owner = EMPTY
                    orphans.append(n.id)
    joiners = []
    for turn, name in o.get("joins", []):
        if turn == s.turn:
            p = index[name]
            s.active[p] = True
            joiners.append(p)
            again = " returns" if s.markers[p] else " joins"
            s.log("player-joins", f"{name}{again} the game.", player=p, returning=bool(s.markers[p]))
    for p in s.players_in():
        s.markers[p] += 1
    if not joiners and not orphans:
        return
    s.redistributing = True
    frames: list[tuple] = []
    for p in joiners:
        frames.append(("newcomer", p))
    frames += [("assign", nid, ()) for nid in orphans]
    frames += [("excess",), ("redistributed",)]
    s.then(*frames)


@STEPS.step("newcomer")
def newcomer(s: "HBState", player: int) -> None:
    """§10.1: a newcomer gains one new nation as in §5.1 if a token set is free; its race
    roll adds his own turn count (§10.2)."""
    if not s.free_sets:
        s.log("no-nation", f"No token set is free for {s.names[player]} yet.", player=player)
        return
    n = s.create_nation(player)
    if s.races_on:
        roll_race(s, n, s.markers[player])
    s.then(("place_at_sea", n.id, s.tables.first_turn_units))


@STEPS.step("excess")
def excess(s: "HBState") -> Decision | None:
    """§10.1: a player above the new limit gives up nations of his choice, one at a time,
    each assigned by §5.3."""
    limit = s.nation_limit()
    for p in s.players_in():
        mine = sorted(n.id for n in s.nations.values() if n.owner == p)
        if len(mine) > limit:
            return Decision(p, "hb.excess-nation", tuple(f"give:{nid}" for nid in mine),
                            f"{s.names[p]} holds {len(mine)} nations, the limit is now {limit}: give up which?",
                            "§10.1", lambda k: f"Give up the {s.nations[int(k[5:])].name}")
    return None


@STEPS.on_answer("excess")
def excess_answer(s: "HBState", player: int, key: str) -> None:
    n = s.nations[int(key[5:])]
    n.owner = EMPTY
    s.log("nation-given-up", f"{s.names[player]} gives up the {n.name}.", nation=n.id, player=player)
    s.then(("assign", n.id, (player,)), ("excess",))


@STEPS.step("redistributed")
def redistributed(s: "HBState") -> None:
    s.redistributing = False
