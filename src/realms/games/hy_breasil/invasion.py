"""§5: the invasion phase — new nations enter from the sea — and the nation limit (§5.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .races import first_turn_races, roll_race
from .steps import STEPS
from .state import units as plural
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation


@STEPS.step("invasion")
def invasion(s: "HBState") -> None:
    """§5.1 in turn 1 (one nation per player, random order), §5.2 afterwards."""
    if s.turn == 1:
        order = s.dice.shuffled(s.players_in())
        s.then(*[("enter_first", p) for p in order])
        return
    roll: int = s.dice.d6()
    wanted = s.tables.new_nations_by_die[roll - 1]
    count = min(wanted, len(s.free_sets))
    s.log("invasion-roll", f"Invasion roll {roll}: {_count_text(count, wanted)}.",
          roll=roll, nations=count)
    s.then(*[("new_nation",) for _ in range(count)])


def invader_turn(s: "HBState") -> int:
    """§9.1, §10.2: the turn added to a new invader's race roll (in continuous play the
    highest turn count of the players in the game)."""
    if s.variant == "continuous":
        return max(s.markers[p] for p in s.players_in())
    return s.turn


def _count_text(count: int, wanted: int) -> str:
    text = {0: "no new nations", 1: "one new nation", 2: "two new nations"}[count]
    if count < wanted:
        text += " (no more free token sets)"
    return text


@STEPS.step("enter_first")
def enter_first(s: "HBState", player: int) -> None:
    """§5.1: the player receives a nation of 10 units, to be placed in a sea area."""
    if not s.free_sets:
        return
    n = s.create_nation(player)
    if s.races_on:
        roll_race(s, n, s.turn, first_turn_races(s))
    s.then(("place_at_sea", n.id, s.tables.first_turn_units))


@STEPS.step("new_nation")
def new_nation(s: "HBState") -> None:
    """§5.2 steps 1–3: a set, d6+4 units, a random player (with the §5.3 cascade)."""
    if not s.free_sets:
        return
    n = s.create_nation()
    if s.races_on:
        roll_race(s, n, invader_turn(s))
    units: int = s.dice.d6() + s.tables.later_units_plus
    s.then(("assign", n.id, ()), ("place_at_sea", n.id, units))


@STEPS.step("assign")
def assign(s: "HBState", nid: int, asked: tuple) -> Decision | None:
    """§5.3: give the nation to a random player; one at the limit refuses or relinquishes.

    RULINGS HB-Q3: "a new player" is drawn from the players not yet drawn in this cascade.
    A player below the limit must exist among them (N sets never exceed P × ⌈N/P⌉), so
    the cascade ends; should none be left, the nation leaves play (§8).
    """
    n = s.alive(nid)
    if n is None:
        return None
    candidates = [p for p in s.players_in() if p not in asked]
    if not candidates:
        s.log("nation-unclaimed", f"No player could take the {n.name}; they leave Hy Breasil.", nation=nid)
        s.eliminate(n)
        return None
    player: int = s.dice.pick(candidates)
    limit = s.nation_limit()
    if s.owned_count(player) < limit:
        _give(s, n, player)
        return None
    keys = ["refuse"] + [f"relinquish:{i}" for i in sorted([m.id for m in s.nations.values() if m.owner == player])]

    def label(key: str) -> str:
        if key == "refuse":
            return f"Refuse the {n.name}"
        return f"Relinquish the {s.nations[int(key.split(':')[1])].name} and take the {n.name}"

    return Decision(player, "hb.nation-limit", tuple(keys),
                    f"{s.names[player]} is at the nation limit ({limit}): refuse the {n.name}, or relinquish a nation for it?",
                    "§5.3", label, {"nation": nid, "limit": limit})


@STEPS.on_answer("assign")
def assign_answer(s: "HBState", player: int, key: str, nid: int, asked: tuple) -> None:
    n = s.nations[nid]
    asked = asked + (player,)
    if key == "refuse":
        s.log("nation-refused", f"{s.names[player]} refused the {n.name}.", nation=nid, player=player)
        s.then(("assign", nid, asked))
        return
    other = s.nations[int(key.split(":")[1])]
    other.owner = EMPTY
    s.log("nation-relinquished", f"{s.names[player]} relinquished the {other.name} to take the {n.name}.",
          nation=other.id, player=player)
    _give(s, n, player)
    s.then(("assign", other.id, asked))


def _give(s: "HBState", n: "Nation", player: int) -> None:
    n.owner = player
    s.log("nation-assigned", f"The {n.name} go to {s.names[player]}.", nation=n.id, player=player)


@STEPS.step("place_at_sea")
def place_at_sea(s: "HBState", nid: int, units: int) -> Decision | None:
    """§5.1, §5.2 step 3: the owner places the units in a sea area, never an inland sea."""
    n = s.alive(nid)
    if n is None:
        return None
    b = s.board
    keys = tuple(b.ids[i] for i in b.entry_seas)
    return Decision(n.owner, "hb.entry-sea", keys,
                    f"Where do the {n.name} ({units} units) arrive? Choose a sea area.",
                    "§5.1" if s.turn == 1 else "§5.2", s.label_area, {"nation": nid, "units": units})


@STEPS.on_answer("place_at_sea")
def place_at_sea_answer(s: "HBState", player: int, key: str, nid: int, units: int) -> None:
    n = s.nations[nid]
    sea = s.board.index[key]
    n.start_sea = sea
    s.add_units(n, sea, min(units, n.pool))
    s.log("nation-enters", f"{s.Who(n)} arrive in {s.board.names[sea]} with {plural(units)}.",
          nation=nid, owner=n.owner, sea=key, units=units)
