"""The state of a game of Hy Breasil and the primitives the phase modules share.

Units are counts per area (not objects per token): ``Nation.units`` maps an area index
to a count, sea areas included, and ``area_nation`` says which nation holds each land
area.  A nation is known by a serial number that is never reused, so a frame that names
a nation can always tell whether that nation still lives (§8), even after its token set
has gone to a new nation.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from realms.core.engine import Field, GameState, copy_optional_list
from realms.core.events import EVERYONE, Event

from .board import EMPTY, Board, load_board, map_name
from .steps import GAME_ID, STEPS
from .tables import Tables



class Nation:
    """One nation: a token set in play, owned by a player.

    ``board`` counts every unit on the map, those fighting as attackers in a battle
    (kept in ``HBState.battle``, not in ``units``) included.  ``land`` is the bitmask of
    the land areas the nation holds.
    """

    __slots__ = (
        "id", "set", "name", "owner", "units", "land", "board", "pool", "civ", "start_sea",
        "first_turn", "phases", "weak", "fervour", "famine",
        # advanced rules (§9): race, submission, abilities and their markers
        "race", "master", "abilities", "capital", "saved", "prophecy", "permits", "spared",
    )
    # the slots' types (what the compiled modules, setup.py, check and read natively)
    id: int
    set: int
    name: str
    owner: int
    units: dict[int, int]
    land: int
    board: int
    pool: int
    civ: int
    start_sea: int | None
    first_turn: bool
    phases: int
    weak: bool
    fervour: bool
    famine: bool
    race: str | None
    master: int
    abilities: frozenset[str]
    capital: int
    saved: int
    prophecy: str | None
    permits: frozenset[int]
    spared: frozenset[int]

    def copy(self) -> "Nation":
        """An independent copy (its own ``units``; the other fields are numbers, strings
        and frozen sets, shared), written out field by field: a loop of ``setattr`` per
        slot cost most of a state's clone (a test checks it copies every slot)."""
        n = Nation()
        n.id, n.set, n.name, n.owner = self.id, self.set, self.name, self.owner
        n.units, n.land, n.board, n.pool = dict(self.units), self.land, self.board, self.pool
        n.civ, n.start_sea, n.first_turn = self.civ, self.start_sea, self.first_turn
        n.phases, n.weak, n.fervour, n.famine = self.phases, self.weak, self.fervour, self.famine
        n.race, n.master, n.abilities, n.capital = self.race, self.master, self.abilities, self.capital
        n.saved, n.prophecy, n.permits, n.spared = self.saved, self.prophecy, self.permits, self.spared
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
            "race": self.race,
            "submitted_to": self.master if self.master != EMPTY else None,
            "abilities": sorted(self.abilities),
            "capital": board.ids[self.capital] if self.capital != EMPTY else None,
            "saved_pips": self.saved,
            "prophecy": self.prophecy,
            "permits": sorted(self.permits),
            "spared": sorted(self.spared),
        }


@mypyc_attr(allow_interpreted_subclasses=True)  # the odds calculator counts its rounds
class HBState(GameState):
    GAME_ID = GAME_ID
    STEPS = STEPS
    FIELDS = (
        # static for the game: shared by clones, not hashed (the options say them)
        Field("board", snap=False), Field("tables", snap=False), Field("names", snap=False),
        Field("races_on", snap=False), Field("submission_on", snap=False),
        Field("abilities_on", snap=False), Field("variant", snap=False),
        Field("set_size", snap=False), Field("n_sets", snap=False),
        # the position
        Field("turn"), Field("vp", list), Field("active", list), Field("markers", list),
        Field("cities"), Field("redistributing"),
        Field("nations", lambda ns: {k: n.copy() for k, n in ns.items()},
              lambda s: [n.to_json(s.board) for _, n in sorted(s.nations.items())]),
        Field("area_nation", list), Field("occupied", snap=False),
        Field("free_sets", list), Field("set_uses", list), Field("cup", list),
        Field("next_id"), Field("current"),
        Field("moved", dict, lambda s: sorted(s.moved.items())),
        Field("contested"), Field("asked", None, lambda s: sorted(s.asked)),
        Field("battle", copy_optional_list), Field("over"),
        # civil war's fewest groups for the position it was worked out for (civil_war.py)
        Field("_split_cache", lambda cache: None, snap=False),
        # :meth:`who`'s phrases by nation name, shared by clones (names never change)
        Field("_who_texts", snap=False),
    )

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.board: Board = load_board(map_name(options))
        self.tables: Tables = self.board.tables
        rules = options.get("rules", [])
        self.races_on = "races" in rules
        self.submission_on = "submission" in rules
        self.abilities_on = "abilities" in rules
        self.variant = options.get("variant")
        names = list(options["names"])
        for _, name in options.get("joins", []):
            if name not in names:
                names.append(name)
        #: every player who ever plays (§10: joiners are added, inactive until they join)
        self.names: list[str] = names
        self.active = [name in options["names"] for name in names]
        #: §10.2: each player's own turn marker (turns played)
        self.markers = [0] * len(names)
        self.vp = [0] * len(self.names)
        self.turn = 1
        self.set_size: int = options["set_size"]
        #: §9.3 City building: one set is put aside as city tokens
        self.n_sets: int = options["sets"] - (1 if self.abilities_on else 0)
        self.cities = 0
        self.redistributing = False
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
        self.asked: frozenset[int] = frozenset()
        self.battle: list[int] | None = None
        self.over = False
        self._split_cache: tuple[tuple[int, int, int], int] | None = None
        self._who_texts: dict[str, tuple[str, ...]] = {}
        self.start(("turn",))

    # -- what players see ----------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        """Everything on the table: Hy Breasil hides nothing but the future dice."""
        b = self.board
        o = self.options
        return {
            "game": self.GAME_ID,
            "options": {"map": map_name(o),
                        **{k: o[k] for k in ("turns", "vp_target", "rules", "variant", "sets", "set_size")}},
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
            "moved": {b.ids[a]: c for a, c in sorted(self.moved.items())} if self.current != EMPTY else {},
            "battle": self.battle_json(),
            "free_sets": len(self.free_sets),
            "cities": [b.ids[a] for a in b.land if (self.cities >> a) & 1],
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
            "city": {2: "unhurt", 1: "wounded", 0: None}[self.battle[10]],
        }

    def timed_out(self) -> bool:
        """Whether the game stopped at ``max_turns`` short of its own end: a VP target (§3)
        nobody reached, with no turn count agreed (RULINGS HB-Q1's cap)."""
        target = self.options["vp_target"]
        return (self.over and target is not None and self.options["turns"] is None
                and max(self.vp) < target)

    def result(self) -> dict:
        """Scores and winners (RULINGS HB-Q1: most VP, then most land areas, then most units).

        In continuous play (§10.3) players are ranked by corrected score, VP per turn
        played (RULINGS HB-Q45).
        """
        n_players = len(self.names)
        land = [0] * n_players
        units = [0] * n_players
        for n in self.nations.values():
            if n.owner >= 0:
                units[n.owner] += n.board
                land[n.owner] += bin(n.land).count("1")
        out = {
            "players": list(self.names),
            "scores": dict(zip(self.names, self.vp)),
            "turns": self.turn,
            "over": self.over,
            "timed_out": self.timed_out(),
        }
        if self.variant == "continuous":
            corrected = [self.vp[p] / self.markers[p] if self.markers[p] else 0.0 for p in range(n_players)]
            out["corrected_scores"] = {name: round(corrected[p], 4) for p, name in enumerate(self.names)}
            out["turns_played"] = dict(zip(self.names, self.markers))
            keys = [(corrected[p], land[p], units[p]) for p in range(n_players)]
        else:
            keys = [(self.vp[p], land[p], units[p]) for p in range(n_players)]
        best = max(keys)
        winners = [self.names[p] for p in range(n_players) if keys[p] == best]
        out["winners"] = winners if self.over else []
        out["winner"] = winners[0] if self.over and len(winners) == 1 else None
        if self.races_on or self.submission_on or self.abilities_on:
            out.update(self.advanced_summary())
        return out

    def advanced_summary(self) -> dict:
        """What the advanced rules did this game, from the chronicle."""
        races: dict[str, list[str]] = {}
        abilities: dict[str, int] = {}
        counts = {"submission": 0, "absorption": 0, "city-built": 0}
        for e in self.events:
            if e.kind == "race":
                races.setdefault(e.data["race"], []).append(e.data["name"])
            elif e.kind == "ability":
                abilities[e.data["ability"]] = abilities.get(e.data["ability"], 0) + 1
            elif e.kind in counts:
                counts[e.kind] += 1
        return {
            "races": dict(sorted(races.items())),
            "abilities": dict(sorted(abilities.items())),
            "submissions": counts["submission"],
            "absorptions": counts["absorption"],
            "cities_built": counts["city-built"],
        }

    # -- shared primitives -----------------------------------------------------------------
    def log(self, kind: str, text: str, audience: "tuple[int, ...] | None" = EVERYONE, **data) -> None:
        """Add an event to the chronicle; ``audience``: who may read it while the game runs.
        A line identical to the one before it (kind, turn, text, data and audience) is not
        repeated: that line counts it (``times`` in its data, "(×3)" in its text), so a run
        of free rerolls reads as one line."""
        self.log_data(kind, text, data, audience)

    def log_data(self, kind: str, text: str, data: dict, audience: "tuple[int, ...] | None" = EVERYONE) -> None:
        """:meth:`log` with its data as a dict, for callers that hold one: compiled, a call
        spreading a dict (``log(..., **data)``) goes through Python's calling convention
        (~4k instructions), where this one is a direct call."""
        events = self.events
        if events:
            last = events[-1]
            if last.kind == kind and last.turn == self.turn and last.audience == audience:
                times = last.data.get("times", 1)
                if last.text == counted(text, times) and {**data, "times": times} == {"times": 1, **last.data}:
                    events[-1] = Event(kind, self.turn, counted(text, times + 1), {**data, "times": times + 1},
                                       audience)
                    return
        event = Event(kind, self.turn, text, data, audience)
        if type(events) is list:  # compiled, a list's own append (~200 instructions less)
            events.append(event)
        else:  # a watcher's tap (sim.stats), whose append is its own
            events.append(event)

    def amend_data(self, kind: str, text: str, data: dict) -> bool:
        """Rewrite the last event if it is of ``kind`` (a line that grows as the nation
        goes on, such as the areas it takes); False if the last event is another.  The data
        as a dict: a direct call, see :meth:`log_data`."""
        events = self.events
        if not events or events[-1].kind != kind or events[-1].turn != self.turn:
            return False
        events[-1] = Event(kind, self.turn, text, data, events[-1].audience)
        return True

    def who(self, nation: Nation) -> str:
        """The nation and its owner, "the Saxons (Ann)", as the chronicle names them."""
        return self._who_phrases(nation)[nation.owner + 1]

    def Who(self, nation: Nation) -> str:
        """:meth:`who` at the start of a sentence: "The Saxons (Ann)"."""
        return self._who_phrases(nation)[len(self.names) + nation.owner + 2]

    def _who_phrases(self, nation: Nation) -> tuple[str, ...]:
        """:meth:`who` for each owner (none, then each player), then the same capitalised:
        made once per nation name, since the chronicle names a nation at most decisions."""
        texts = self._who_texts.get(nation.name)
        if texts is None:
            plain = [f"the {nation.name}"] + [f"the {nation.name} ({p})" for p in self.names]
            texts = self._who_texts[nation.name] = tuple(plain + ["T" + w[1:] for w in plain])
        return texts

    def alive(self, nid: int) -> Nation | None:
        return self.nations.get(nid)

    def players_in(self) -> list[int]:
        """The players in the game now (all of them, except in continuous play, §10)."""
        return [p for p, on in enumerate(self.active) if on]

    def nation_limit(self) -> int:
        """§5.3: N token sets and P players allow N/P nations each, rounded up (HB-Q5:
        N excludes the city set; P counts the players in the game now)."""
        p = sum(self.active)
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

    def permitted_land(self, nation: Nation) -> int:
        """§9.3.1 Diplomacy: land of the nations that let ``nation`` through this phase."""
        mask = 0
        for nid in nation.permits:
            other = self.nations.get(nid)
            if other is not None:
                mask |= other.land
        return mask

    def protected_land(self, nation: Nation) -> int:
        """Land ``nation`` may not attack: its submission partners' (§9.2, RULINGS HB-Q33)
        and that of nations that gave it passage this turn (§9.3.1 Diplomacy)."""
        if not (self.submission_on or nation.spared):
            return 0
        mask = 0
        for other in self.nations.values():
            if (other.master == nation.id or nation.master == other.id or other.id in nation.spared):
                mask |= other.land
        return mask

    def occupy(self, area: int, nation: Nation) -> None:
        """Mark land ``area`` as held by ``nation`` (no-op for seas)."""
        if not self.board.is_sea[area]:
            self.area_nation[area] = nation.id
            bit = 1 << area
            self.occupied |= bit
            nation.land |= bit

    def vacate(self, area: int, nation: Nation) -> None:
        """Mark land ``area`` as no longer held by ``nation``.

        §9.3.1: a city left alone in an area is removed at once — except in the area of a
        battle, where the city fights on and is settled when the battle ends.
        """
        if not self.board.is_sea[area] and self.area_nation[area] == nation.id:
            self.area_nation[area] = EMPTY
            bit = 1 << area
            self.occupied &= ~bit
            nation.land &= ~bit
            if self.cities & bit and (self.battle is None or self.battle[0] != area):
                self.remove_city(area)

    def remove_city(self, area: int) -> None:
        self.cities &= ~(1 << area)
        self.log("city-removed", f"The city of {self.board.names[area]} is abandoned.", area=self.board.ids[area])

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
        # HB-Q27, §9.3: a split-off nation keeps the race, abilities and capital; its
        # saved PIPs start at 0 and it makes its own prophecy (HB-Q38, HB-Q40).
        n.race = like.race if like is not None else None
        n.master = EMPTY
        n.abilities = like.abilities if like is not None else frozenset()
        n.capital = like.capital if like is not None else EMPTY
        n.saved = 0
        n.prophecy = None
        n.permits = frozenset()
        n.spared = frozenset()
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

    def transfer(self, old: Nation, new: Nation, area: int, count: int) -> None:
        """Hand land ``area`` from ``old`` to ``new``: old's units there go back to its pool,
        ``count`` of new's take their place.  The area (and any city in it) changes hands
        without ever standing empty (civil war, disconnection, absorption)."""
        gone = old.units.pop(area)
        old.board -= gone
        old.pool += gone
        old.land &= ~(1 << area)
        if count:
            self.add_units(new, area, count)
        else:
            self.area_nation[area] = old.id
            old.land |= 1 << area
            self.vacate(area, old)
        if old.board == 0:
            self.eliminate(old)

    def lift(self, nation: Nation, src: int) -> None:
        """Take one unit of ``nation`` off ``src`` (it is moving; ``board`` is unchanged)."""
        left = nation.units[src] - 1
        if left:
            nation.units[src] = left
        else:
            del nation.units[src]
            self.vacate(src, nation)

    def shift(self, nation: Nation, src: int, dst: int) -> None:
        """Move one unit of ``nation`` from ``src`` to ``dst`` (both on the map)."""
        self.lift(nation, src)
        nation.units[dst] = nation.units.get(dst, 0) + 1
        self.occupy(dst, nation)

    def eliminate(self, nation: Nation) -> None:
        """§8: a nation with no units on the board is removed; its set is free again at once."""
        for area in list(nation.units):
            self.vacate(area, nation)
        nation.units.clear()
        nation.board = 0
        del self.nations[nation.id]
        for other in self.nations.values():
            if other.master == nation.id:
                other.master = EMPTY  # §9.2: submission ends when the master is eliminated
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


def verb(count: int, plural: str, singular: str) -> str:
    """The verb that agrees with ``count`` things: ``verb(1, "perish", "perishes")``."""
    return singular if count == 1 else plural


def and_list(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def counted(text: str, times: int) -> str:
    """A chronicle line said ``times`` times in a row: ``… again (×3).``"""
    if times == 1:
        return text
    return f"{text[:-1]} (×{times})." if text.endswith(".") else f"{text} (×{times})"


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


# Register every phase's steps (rulebook order).
from . import turn, continuous, invasion, events, population, movement, combat, support  # noqa: E402,F401
