"""Invariants the conformance kit checks after every answer of every version² game
treasure never negative, no unit on the sea, units only where they may be
outside a battle, at most one warehouse per field and none on fords, a turn's production
equal to the sum of the fields, capitols on their owners' fields, and no mission in the
chronicle while the game runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FORD, NOBODY, SEA

if TYPE_CHECKING:
    from .state import V2State


def treasure_never_negative(s: "V2State", memory: dict) -> str | None:
    if min(s.treasure) < 0:
        return f"negative treasure: {s.treasure}"
    return None


def sea_stays_empty(s: "V2State", memory: dict) -> str | None:
    terrain = s.board.terrain
    for f, t in enumerate(terrain):
        if t == SEA and (s.units[f] or s.owner[f] != NOBODY or s.warehouse[f] or s.capitol[f] != NOBODY):
            return f"sea field {f} is owned, built on or holds units"
    return None


def units_where_they_may_be(s: "V2State", memory: dict) -> str | None:
    """Outside a battle a field's units are its owner's; neutral units only in Resistance,
    where they never move (so only on fields that were neutral from the start)."""
    full = s.rules.move
    for f, us in enumerate(s.units):
        if not us:
            continue
        if s.owner[f] == NOBODY and s.game_type != "resistance":
            return f"units on neutral field {f} in a {s.game_type} game"
        for u in us:
            if not (len(u) == 3 and 0 <= u[0] <= 2 and u[1] <= full[u[0]] and u[2] >= 0):
                return f"field {f} holds a malformed unit {u}"
        if us != sorted(us):
            return f"units on field {f} are not in order"
    if s.battle is None and s.pick is None and s.owner.count(NOBODY) and s.game_type == "abundance":
        land = [f for f in s.board.land if s.owner[f] == NOBODY and s.units[f]]
        if land:
            return f"neutral units on {land} in Abundance"
    return None


def warehouses_and_capitols(s: "V2State", memory: dict) -> str | None:
    terrain = s.board.terrain
    seen = set()
    for f, w in enumerate(s.warehouse):
        if w not in (0, 1):
            return f"field {f} has {w} warehouses"
        if w and (terrain[f] in (SEA, FORD) or s.owner[f] == NOBODY):
            return f"a warehouse on {'a ford or the sea' if terrain[f] in (SEA, FORD) else 'a neutral field'} ({f})"
        c = s.capitol[f]
        if c != NOBODY:
            if c in seen:
                return f"player {c} has two capitols"
            seen.add(c)
            if s.owner[f] != c or not w:
                return f"capitol of player {c} on field {f} owned by {s.owner[f]} (warehouse {w})"
    return None


def production_is_sum_of_fields(s: "V2State", memory: dict) -> str | None:
    """A turn's gain (2.3.1) equals the sum, over the player's fields, of index + 3 for a
    capitol + 1 for a warehouse, recounted here from the board."""
    seen = memory.get("events", 0)
    memory["events"] = len(s.events)
    r = s.rules
    for e in s.events[seen:]:
        if e.kind == "turn":
            p = e.data["player"]
            total = sum(s.board.index[f] + (r.capitol_bonus if s.capitol[f] != NOBODY else 0) + s.warehouse[f]
                        for f, o in enumerate(s.owner) if o == p)
            if total != e.data["gain"]:
                return f"player {p} gained {e.data['gain']} but his fields produce {total}"
        elif e.kind != "game-over" and e.audience is None:  # a seat's own events may name its mission
            for code in memory.setdefault("codes", []):
                if code in e.text or code in str(e.data):
                    return f"event {e.kind!r} reveals a mission"
    if not memory.get("codes"):
        from .missions import mission_code

        memory["codes"] = [mission_code(s, p) for p in range(s.n)]
    return None


def over_means_over(s: "V2State", memory: dict) -> str | None:
    """A finished game asks nothing more, and a running one always asks something."""
    pending = s.pending()
    if s.over == bool(pending):
        return f"game over is {s.over} with {len(pending)} decisions pending"
    if s.over and not s.winners:
        return "a finished game without a winner"
    return None


def move_cache_is_fresh(s: "V2State", memory: dict) -> str | None:
    """The per-field move options cached for speed (actions.py) equal a fresh count."""
    from .actions import field_moves

    adj = s.board.adj
    for f, cached in s._moves.items():
        if s.units[f] and cached != field_moves(s.units[f], adj[f], s.owner, s.owner[f]):
            return f"stale move options cached for field {f}"
    return None


def own_cache_is_fresh(s: "V2State", memory: dict) -> str | None:
    """The own fields cached per player (state.py) equal a fresh count."""
    for p, cached in s._own.items():
        if cached != [f for f in s.board.passable if s.owner[f] == p]:
            return f"stale own fields cached for player {p}"
    return None


INVARIANTS = (
    treasure_never_negative,
    sea_stays_empty,
    units_where_they_may_be,
    warehouses_and_capitols,
    production_is_sum_of_fields,
    move_cache_is_fresh,
    own_cache_is_fresh,
    over_means_over,
)
