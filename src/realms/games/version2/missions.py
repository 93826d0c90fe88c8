"""Missions and the end of the game (2.4, 2.4.1).

Each player gets one mission, dealt at random and secretly, no kind twice (V2-Q30), each
adapted to the number of players (V2-Q31):

- ``free``: free the world from a player (never oneself): he must lose his last field
  to you; if someone else takes it, the mission becomes ``land`` (V2-Q32).
- ``land``: hold ``ceil(2/N × land fields)`` land fields (fords excluded): with two
  players, every land field.
- ``capitols``: conquer two capitols over the game (not dealt with 2 players, who have
  one enemy capitol only).
- ``warehouses``: warehouses on ``ceil(land fields / N)`` land fields of one's own.
- ``army``: an army at least as big as the two biggest other armies together (with two
  players, twice the other's).
- ``fields``: as many fields as the two players with the largest lands together (with
  two players, twice the other's).

Missions are checked from the beginning of the fourth game turn, at the start of every
player's turn and after each of his actions: the active player's own wins at once; any
other player's found fulfilled is noted, and if the active player has not fulfilled his
own by the end of his turn, the first noted player in turn order after him wins — even if
the active player has undone that mission since (2.4, V2-Q33).  The game also
ends when one player is left (V2-Q34) and at the turn limit (V2-Q35).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import NOBODY


if TYPE_CHECKING:
    from .state import V2State

KINDS = ("free", "land", "capitols", "warehouses", "army", "fields")

def deal_missions(s: "V2State") -> None:
    kinds = [k for k in KINDS if not (k == "capitols" and s.n < 3)]
    dealt = s.dice.shuffled(kinds)[: s.n]
    L = len(s.board.land)
    out: list[tuple] = []
    for p, kind in enumerate(dealt):
        if kind == "free":
            target = s.dice.below(s.n - 1)
            out.append(("free", target + (target >= p)))
        elif kind == "land":
            out.append(("land", land_target(s)))
        elif kind == "capitols":
            out.append(("capitols", s.rules.capitols))
        elif kind == "warehouses":
            out.append(("warehouses", math.ceil(L / s.n)))
        else:
            out.append((kind,))
    s.missions = out
    for p in range(s.n):
        s.log("mission", f"{s.names[p]}'s secret mission: {mission_text(s, p)}", audience=(p,),
              player=p, code=mission_code(s, p))


def land_target(s: "V2State") -> int:
    """2.4.1: "Conquer 2/Number of players land hex-fields!" (V2-Q31)."""
    return math.ceil(2 * len(s.board.land) / s.n)


def _two_largest(values: list[int]) -> int:
    if len(values) == 1:
        return 2 * values[0]
    top = sorted(values, reverse=True)
    return top[0] + top[1]


def fulfilled(s: "V2State", p: int) -> bool:
    """Whether player ``p``'s mission is fulfilled now."""
    m = s.missions[p]
    kind = m[0]
    if kind == "free":
        return not s.alive[m[1]] and s.eliminated_by[m[1]] == p
    if kind == "land":
        return s.land_count(p) >= m[1]
    if kind == "capitols":
        return s.capitols_taken[p] >= m[1]
    if kind == "warehouses":
        wh, owner = s.warehouse, s.owner
        return sum(1 for f in s.board.land if owner[f] == p and wh[f]) >= m[1]
    others = [q for q in range(s.n) if q != p and s.alive[q]]
    if kind == "army":
        mine = s.army_size(p)
        return mine > 0 and mine >= _two_largest([s.army_size(q) for q in others] or [0])
    if kind == "fields":
        return s.field_count(p) >= _two_largest([s.field_count(q) for q in others] or [0])
    return False


def mission_text(s: "V2State", p: int) -> str:
    m = s.missions[p]
    kind = m[0]
    if kind == "free":
        return f"Free the world from {s.names[m[1]]}!"
    if kind == "land":
        return f"Conquer {m[1]} land fields!"
    if kind == "capitols":
        return f"Conquer {m[1]} capitols of your choice!"
    if kind == "warehouses":
        return f"Construct a warehouse in {m[1]} land fields of your own!"
    if kind == "army":
        return "Recruit as many units as the two players with the biggest armies!"
    if kind == "fields":
        return "Conquer as many fields as the two players with the largest lands!"
    return "No mission."


def mission_code(s: "V2State", p: int) -> str:
    """A token naming ``p``'s mission and nothing else: what other seats must never see."""
    m = s.missions[p]
    return "mission:" + ":".join([m[0], *(s.names[m[1]] if m[0] == "free" else str(x) for x in m[1:])])


def mission_json(s: "V2State", p: int) -> dict:
    m = s.missions[p]
    return {"player": p, "kind": m[0], "code": mission_code(s, p), "text": mission_text(s, p),
            "target": (m[1] if len(m) > 1 else None), "fulfilled": fulfilled(s, p)}


def hidden(s: "V2State", player: int | None) -> list[str]:
    """The mission codes ``player`` may not see: everyone else's while the game runs, but
    for one that is also his own (a mission that became another's by V2-Q32 may read the
    same: his own tells him nothing of theirs)."""
    if s.over:
        return []
    own = mission_code(s, player) if player is not None else None
    return [code for code in (mission_code(s, p) for p in range(s.n) if p != player) if code != own]


def checking(s: "V2State") -> bool:
    return s.turn >= s.rules.first_turn and not s.over


def finish(s: "V2State", winners: list[int], reason: str, text: str) -> None:
    s.over = True
    s.winners = winners
    s.end_reason = reason
    s.active = NOBODY
    s.pick = None
    s.log("game-over", text, winners=winners, reason=reason)


def win_by_mission(s: "V2State", p: int, helped_by: int | None = None) -> None:
    how = f" (helped by {s.names[helped_by]})" if helped_by is not None else ""
    finish(s, [p], "mission", f"{s.names[p]} has fulfilled the mission \u201c{mission_text(s, p)}\u201d{how} and wins.")


def check_active(s: "V2State", p: int) -> bool:
    """After each of the active player's actions: his own mission wins at once."""
    if checking(s) and fulfilled(s, p):
        win_by_mission(s, p)
        return True
    return False


def note_others(s: "V2State", p: int) -> None:
    """At the start of ``p``'s turn and after each of his actions: the other players whose
    mission is fulfilled now are noted (2.4: "If this takes place, the active player has
    the opportunity to fulfil his own mission in his turn")."""
    if not checking(s):
        return
    helped = s.helped
    for q in range(s.n):
        if q != p and q not in helped and s.alive[q] and fulfilled(s, q):
            helped.append(q)


def check_others(s: "V2State", p: int) -> bool:
    """At the end of ``p``'s turn, his own mission unfulfilled: a player noted fulfilled
    during it wins ("If he fails the other player whose mission has been 'fulfilled',
    wins"); several → "the player that would be next in turn" (2.4)."""
    if not checking(s):
        return False
    note_others(s, p)
    if not s.helped:
        return False
    order = s.order
    pos = order.index(p)
    for i in range(1, s.n):
        q = order[(pos + i) % s.n]
        if q in s.helped and s.alive[q]:
            win_by_mission(s, q, helped_by=p)
            return True
    return False


def eliminate(s: "V2State", victim: int, by: int) -> None:
    """V2-Q34: a player without fields is out.  A ``free`` mission against him that
    someone else completed turns into ``land`` (V2-Q32)."""
    s.alive[victim] = False
    s.eliminated_by[victim] = by
    s.log("eliminated", f"{s.names[victim]} has lost his last field to {s.names[by]} and is out of the game.",
          player=victim, by=by)
    for q in range(s.n):
        m = s.missions[q]
        if m[0] == "free" and m[1] == victim and by != q:
            s.missions[q] = ("land", land_target(s))
            s.log("mission", f"{s.names[q]}'s mission becomes: {mission_text(s, q)} (V2-Q32)", audience=(q,),
                  player=q, code=mission_code(s, q))
    alive = [q for q in range(s.n) if s.alive[q]]
    if len(alive) == 1:
        finish(s, alive, "last", f"{s.names[alive[0]]} is the last player left and wins.")


def end_by_limit(s: "V2State") -> None:
    """V2-Q35: at the turn limit, who holds most fields wins, then most production; a tie
    on both is a shared victory."""
    key = [(s.field_count(p), s.production(p)) if s.alive[p] else (-1, -1) for p in range(s.n)]
    best = max(key)
    winners = [p for p in range(s.n) if key[p] == best]
    names = ", ".join(s.names[p] for p in winners)
    finish(s, winners, "limit", f"The turn limit ({s.turn_limit} game turns) is reached: {names} "
           f"{'holds' if len(winners) == 1 else 'hold'} the most fields ({best[0]}).")



def redeal(s: "V2State", player: int | None, dice) -> None:
    """Re-deal the missions ``player`` has not seen (everyone's for a spectator): the other
    seats get kinds other than his own, no kind twice (V2-Q30), adapted as dealt (V2-Q31);
    a ``free`` mission against a player already gone becomes ``land`` (V2-Q32).  For the
    search's determinized copies; a finished game shows every mission, so nothing moves.
    The players noted fulfilled this turn (2.4) are noted anew from the new missions: who
    was noted tells of a hidden mission."""
    if s.over:
        return
    others = [p for p in range(s.n) if p != player]
    mine = s.missions[player][0] if player is not None else None
    kinds = [k for k in KINDS if k != mine and not (k == "capitols" and s.n < 3)]
    dealt = dice.shuffled(kinds)[: len(others)]
    L = len(s.board.land)
    for p, kind in zip(others, dealt):
        m: tuple
        if kind == "free":
            rivals = [q for q in range(s.n) if q != p and s.alive[q]]
            m = ("free", rivals[dice.below(len(rivals))]) if rivals else ("land", land_target(s))
        elif kind == "land":
            m = ("land", land_target(s))
        elif kind == "capitols":
            m = ("capitols", s.rules.capitols)
        elif kind == "warehouses":
            m = ("warehouses", math.ceil(L / s.n))
        else:
            m = (kind,)
        s.missions[p] = m
    s.helped = [q for q in s.helped if q == player]
    if s.active in range(s.n):
        note_others(s, s.active)
