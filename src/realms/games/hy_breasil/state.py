"""The state of a game of Hy Breasil and the primitives the phase modules share.

Units are counts per area (not objects per token): ``Nation.units`` maps an area index
to a count, sea areas included, and ``area_nation`` says which nation holds each land
area.  A nation is known by a serial number that is never reused, so a frame that names
a nation can always tell whether that nation still lives (§8), even after its token set
has gone to a new nation.
"""

from __future__ import annotations

from realms.core.engine import GameState
from realms.core.events import Event

from .board import Board, load_board
from .steps import STEPS
from .tables import Tables

EMPTY = -1


class Nation:
    """One nation: a token set in play, owned by a player.

    ``board`` counts every unit on the map, those fighting as attackers in a battle
    (kept in ``HBState.battle``, not in ``units``) included.  ``land`` is the bitmask of
    the land areas the nation holds.
    """

    __slots__ = (
        "id", "set", "name", "owner", "units", "land", "board", "pool", "civ", "start_sea",
        "first_turn", "phases", "weak", "fervour", "famine",
    )

    def copy(self) -> "Nation":
        n = Nation.__new__(Nation)
        for slot in Nation.__slots__:
            setattr(n, slot, getattr(self, slot))
        n.units = dict(self.units)
        return n

    def to_json(self, board: Board) -> dict:
        return {
            "id": self.id,
            "set": self.set,
            "name": self.name,
            "owner": self.owner,
            "units": {board.ids[a]: c for a, c in sorted(self.units.items())},
            "pool": self.pool,
            "civilization_tokens": self.civ,
            "start_sea": board.ids[self.start_sea] if self.start_sea is not None else None,
            "first_turn": self.first_turn,
            "event_flags": {
                "movement_phases": self.phases,
                "weak_leader": self.weak,
                "religious_fervour": self.fervour,
                "famine": self.famine,
            },
        }


class HBState(GameState):
    GAME_ID = "hy-breasil"
    STEPS = STEPS

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.board: Board = load_board(options["map"])
        self.tables: Tables = self.board.tables
        self.names: list[str] = list(options["names"])
        self.vp = [0] * len(self.names)
        self.turn = 1
        self.set_size: int = options["set_size"]
        self.n_sets: int = options["sets"]
        self.nations: dict[int, Nation] = {}
        self.area_nation = [EMPTY] * self.board.n
        self.occupied = 0
        self.free_sets = list(range(self.n_sets))
        self.set_uses = [0] * self.n_sets
        self.cup: list[int] = []
        self.next_id = 1
        self.current = EMPTY
        self.moved: dict[int, int] = {}
        self.contested = EMPTY
        self.battle: list[int] | None = None
        self.over = False
        self.then(("turn",))
        self._run()

    # -- copies and hashes -------------------------------------------------------------
    def _copy_into(self, other: "HBState") -> None:  # type: ignore[override]
        other.board = self.board
        other.tables = self.tables
        other.names = self.names
        other.vp = list(self.vp)
        other.turn = self.turn
        other.set_size = self.set_size
        other.n_sets = self.n_sets
        other.nations = {k: n.copy() for k, n in self.nations.items()}
        other.area_nation = list(self.area_nation)
        other.occupied = self.occupied
        other.free_sets = list(self.free_sets)
        other.set_uses = list(self.set_uses)
        other.cup = list(self.cup)
        other.next_id = self.next_id
        other.current = self.current
        other.moved = dict(self.moved)
        other.contested = self.contested
        other.battle = list(self.battle) if self.battle is not None else None
        other.over = self.over

    def snapshot(self) -> dict:
        return {
            "turn": self.turn,
            "vp": self.vp,
            "nations": [n.to_json(self.board) for _, n in sorted(self.nations.items())],
            "area_nation": self.area_nation,
            "free_sets": self.free_sets,
            "set_uses": self.set_uses,
            "cup": self.cup,
            "next_id": self.next_id,
            "current": self.current,
            "moved": sorted(self.moved.items()),
            "contested": self.contested,
            "battle": self.battle,
            "over": self.over,
        }

    # -- what players see ----------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        """Everything on the table: Hy Breasil hides nothing but the future dice."""
        b = self.board
        return {
            "game": self.GAME_ID,
            "turn": self.turn,
            "you": player,
            "players": [
                {
                    "name": name,
                    "vp": self.vp[p],
                    "nations": sorted(n.id for n in self.nations.values() if n.owner == p),
                }
                for p, name in enumerate(self.names)
            ],
            "nations": [n.to_json(b) for _, n in sorted(self.nations.items())],
            "areas": {
                b.ids[a]: {"nation": self.area_nation[a], "units": self.nations[self.area_nation[a]].units.get(a, 0)}
                for a in b.land
                if self.area_nation[a] != EMPTY
            },
            "cup": sorted(self.cup),
            "current_nation": self.current if self.current != EMPTY else None,
            "battle": self.battle_json(),
            "free_sets": len(self.free_sets),
            "over": self.over,
        }

    def battle_json(self) -> dict | None:
        if self.battle is None:
            return None
        area, att, dfd, au, aw, du, dw = self.battle[:7]
        return {
            "area": self.board.ids[area],
            "attacker": att,
            "defender": dfd,
            "attacker_units": {"unhurt": au, "wounded": aw},
            "defender_units": {"unhurt": du, "wounded": dw},
        }

    def result(self) -> dict:
        """Scores and winners (RULINGS HB-Q1: most VP, then most land areas, then most units)."""
        land = [0] * len(self.names)
        units = [0] * len(self.names)
        for n in self.nations.values():
            units[n.owner] += n.board
            land[n.owner] += sum(1 for a in n.units if not self.board.is_sea[a])
        keys = [(self.vp[p], land[p], units[p]) for p in range(len(self.names))]
        best = max(keys)
        winners = [self.names[p] for p in range(len(self.names)) if keys[p] == best]
        return {
            "players": list(self.names),
            "scores": dict(zip(self.names, self.vp)),
            "winners": winners if self.over else [],
            "winner": winners[0] if self.over and len(winners) == 1 else None,
            "turns": self.turn,
            "over": self.over,
        }

    # -- shared primitives -----------------------------------------------------------------
    def log(self, kind: str, text: str, **data) -> None:
        self.events.append(Event(kind, self.turn, text, data))

    def who(self, nation: Nation) -> str:
        return f"the {nation.name} ({self.names[nation.owner]})" if nation.owner >= 0 else f"the {nation.name}"

    def Who(self, nation: Nation) -> str:
        """:meth:`who` at the start of a sentence."""
        text = self.who(nation)
        return text[0].upper() + text[1:]

    def alive(self, nid: int) -> Nation | None:
        return self.nations.get(nid)

    def nation_limit(self) -> int:
        """§5.3: N token sets and P players allow N/P nations each, rounded up."""
        p = len(self.names)
        return -(-self.n_sets // p)

    def owned_count(self, player: int) -> int:
        return sum(1 for n in self.nations.values() if n.owner == player)

    def land_areas(self, nation: Nation) -> list[int]:
        """The land areas the nation holds, ascending."""
        out = []
        mask = nation.land
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def occupy(self, area: int, nation: Nation) -> None:
        """Mark land ``area`` as held by ``nation`` (no-op for seas)."""
        if not self.board.is_sea[area]:
            self.area_nation[area] = nation.id
            bit = 1 << area
            self.occupied |= bit
            nation.land |= bit

    def vacate(self, area: int, nation: Nation) -> None:
        """Mark land ``area`` as no longer held by ``nation``."""
        if not self.board.is_sea[area] and self.area_nation[area] == nation.id:
            self.area_nation[area] = EMPTY
            bit = 1 << area
            self.occupied &= ~bit
            nation.land &= ~bit

    def create_nation(self, owner: int = EMPTY, like: Nation | None = None) -> Nation:
        """Take the lowest free token set for a new nation; one token goes in the cup (§5.1).

        RULINGS HB-Q2: the cup token is one of the set's tokens.  RULINGS HB-Q101: the set
        is the lowest-numbered free one (the choice of colour changes nothing in play).
        """
        s = self.free_sets.pop(0)
        self.set_uses[s] += 1
        base = self.tables.nation_sets[s].name
        n = Nation()
        n.id = self.next_id
        self.next_id += 1
        n.set = s
        n.name = base if self.set_uses[s] == 1 else f"{base} {_roman(self.set_uses[s])}"
        n.owner = owner
        n.units = {}
        n.land = 0
        n.board = 0
        n.civ = like.civ if like is not None else 0
        n.pool = self.set_size - 1 - n.civ
        n.start_sea = like.start_sea if like is not None else None
        n.first_turn = like is None
        n.phases, n.weak, n.fervour, n.famine = 1, False, False, False
        self.nations[n.id] = n
        return n

    def add_units(self, nation: Nation, area: int, count: int) -> None:
        """Place ``count`` units from the nation's pool in ``area``."""
        if count <= 0:
            return
        nation.units[area] = nation.units.get(area, 0) + count
        nation.board += count
        nation.pool -= count
        self.occupy(area, nation)

    def remove_units(self, nation: Nation, area: int, count: int) -> None:
        """Return ``count`` units in ``area`` to the pool; a nation left with none is removed (§8)."""
        left = nation.units[area] - count
        if left:
            nation.units[area] = left
        else:
            del nation.units[area]
            self.vacate(area, nation)
        nation.board -= count
        nation.pool += count
        if nation.board == 0:
            self.eliminate(nation)

    def shift(self, nation: Nation, src: int, dst: int) -> None:
        """Move one unit of ``nation`` from ``src`` to ``dst`` (both on the map)."""
        left = nation.units[src] - 1
        if left:
            nation.units[src] = left
        else:
            del nation.units[src]
            self.vacate(src, nation)
        nation.units[dst] = nation.units.get(dst, 0) + 1
        self.occupy(dst, nation)

    def eliminate(self, nation: Nation) -> None:
        """§8: a nation with no units on the board is removed; its set is free again at once."""
        for area in list(nation.units):
            self.vacate(area, nation)
        nation.units.clear()
        nation.board = 0
        del self.nations[nation.id]
        self.free_sets.append(nation.set)
        self.free_sets.sort()
        if nation.id in self.cup:
            self.cup.remove(nation.id)
        self.log("nation-removed", f"{self.Who(nation)} vanished from Hy Breasil.",
                 nation=nation.id, owner=nation.owner)

    def label_area(self, key: str) -> str:
        return self.board.names[self.board.index[key]]


def units(count: int) -> str:
    """``1 unit``, ``3 units``."""
    return f"{count} unit" if count == 1 else f"{count} units"


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


# Register every phase's steps (rulebook order).
from . import turn, invasion, events, population, movement, combat, support  # noqa: E402,F401
