"""§6.3 and §6.3.3: the movement and combat phase.

Units move one at a time.  A step between two land areas both occupied by the nation
is type A (free); every other step — into or out of a sea, into empty or enemy land —
is type B, at most two per move (RULINGS HB-Q16).  Occupation is judged on the board as
it stands when the unit starts its move (RULINGS HB-Q17).  A unit stops on entering
another nation's land, which starts a battle there (§6.3.1); while that battle is
pending only more units for it may move.  No unit may end its phase at sea: units at
sea must land while they can, and those that cannot are lost (RULINGS HB-Q18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence, cast

from mypy_extensions import mypyc_attr

from realms.core.decision import Decision, MaskedKeys

from .connect import spread, territories_in
from .steps import STEPS
from .state import and_list, units
from .board import EMPTY

if TYPE_CHECKING:
    from .board import Board
    from .state import HBState, Nation


class Position(Protocol):
    """What :class:`Reach` reads of a game state: an :class:`HBState`, or a bot's table
    made from a view (``bots.look.TableTop``).  (A protocol, so that the compiled module
    does not insist on an ``HBState``.)"""

    board: "Board"
    occupied: int
    abilities_on: bool

    def permitted_land(self, n: Any) -> int: ...  # a Mover: the state's takes its Nation


class Mover(Protocol):
    """What :class:`Reach` reads of a nation: a :class:`Nation`, or a bot's ``NationView``."""

    land: int
    permits: frozenset[int]
    abilities: frozenset[str]


@mypyc_attr(acyclic=True)  # compiled, not tracked by the garbage collector: no cycles
class Reach:
    """Where a unit of one nation can go from each area, on the board as it stands.

    Bitmask levels instead of a search per unit: ``own`` land is crossed freely (type A);
    the areas one type-B step away form level 1; from the seas, empty land and own land
    of level 1 a second type-B step reaches level 2; own land reached on either level
    opens its whole own territory at no further cost.  Another nation's land is entered
    but never left (the unit stops there).
    """

    __slots__ = ("nbr", "own", "enemy", "land", "comps", "seas", "_by_comp", "_by_area")

    def __init__(self, s: Position, n: Mover, masks: tuple[int, int, int] | None = None,
                 comps: list[int] | None = None) -> None:
        """``masks``: :meth:`_inputs` already worked out, and ``comps`` the own territories
        (by :meth:`of`)."""
        own, enemy, seas = self._inputs(s, n) if masks is None else masks
        self._setup(s.board, own, enemy, seas, comps)  # compiled, a direct call (a starred one is not)

    @staticmethod
    def _inputs(s: Position, n: Mover) -> tuple[int, int, int]:
        navigation = s.abilities_on and "navigation" in n.abilities
        return Reach._masks(s.board, s.occupied, n.land, s.permitted_land(n) if n.permits else 0,
                            navigation)

    @staticmethod
    def _masks(b: "Board", occupied: int, land: int, permitted: int,
               navigation: bool) -> tuple[int, int, int]:
        """(own, enemy, seas): the masks a reach depends on."""
        # §9.3.1 Diplomacy: permitted nations' areas are crossed as if they were the
        # nation's own (type A), but never ended in.
        own = land | permitted
        #: §9.3.1 Navigation: a sea reached brings its neighbouring seas along (two as one)
        seas = b.sea_mask if navigation else 0
        return own, occupied & ~own, seas

    def _setup(self, b: "Board", own: int, enemy: int, seas: int, comps: list[int] | None) -> None:
        self.nbr = b.nbr_mask
        self.own, self.enemy, self.land = own, enemy, b.land_mask
        self.comps = territories_in(own, b.nbr_mask, b.territory_memo) if comps is None else comps
        self.seas = seas
        #: the areas reached from each own territory (-1: not worked out yet), by its
        #: place in ``comps``: every unit of a territory reaches the same areas
        self._by_comp = [-1] * len(self.comps)
        #: :meth:`from_area`'s answers for units outside own land (at sea), by area
        self._by_area: dict[int, int] | None = None

    @classmethod
    def of(cls, s: "HBState", n: "Nation") -> "Reach":
        """The reach for ``n`` now, kept on the board until another is made: it depends
        on who holds which areas only, so the next question of a move that left them as
        they were (inside the nation's own land) finds it, with the destinations it
        worked out.  (One, not a memo of many: a memo's tuple keys and hashing cost more
        than the rare older position it finds.)"""
        # The masks read here, typed as a state and a nation, where :meth:`_inputs` reads
        # them through the protocols (compiled, a slower attribute lookup each).
        b = s.board
        navigation = s.abilities_on and "navigation" in n.abilities
        masks = cls._masks(b, s.occupied, n.land, s.permitted_land(n) if n.permits else 0,
                           navigation)
        own, enemy, seas = masks
        last = b.reach_last
        comps: list[int] | None = None
        if isinstance(last, Reach):
            if last.own == own and last.enemy == enemy and last.seas == seas:
                return last
            added = own & ~last.own
            if added and not added & (added - 1) and not last.own & ~own:
                comps = _joined(last.comps, added, b.nbr_mask[added.bit_length() - 1])
        hit = Reach(s, n, masks, comps)  # compiled, a direct call, where cls() is not
        b.reach_last = hit
        return hit

    def _sea_pairs(self, mask: int) -> int:
        if self.seas and mask & self.seas:
            return mask | (spread(mask & self.seas, self.nbr) & self.seas)
        return mask

    def _territory(self, mask: int) -> int:
        """``mask`` widened by the whole own territory of any own area in it."""
        out = mask
        if mask & self.own:
            for comp in self.comps:
                if comp & mask:
                    out |= comp
        return out

    def _reached(self, start: int) -> int:
        """The land areas reached from ``start`` (an own territory, or one area outside
        own land with its Navigation seas), ``start`` included."""
        nbr = self.nbr
        level1 = spread(start, nbr) & ~start
        if self.seas:
            level1 = self._sea_pairs(level1)
        level1 = self._territory(level1)
        level2 = self._territory(spread(level1 & ~self.enemy, nbr) & ~start & ~level1)
        return (start | level1 | level2) & self.land

    def from_area(self, src: int) -> int:
        """Bitmask of land areas a unit in ``src`` can end its move in (``src`` excluded)."""
        bit = 1 << src
        if bit & self.own:
            i = 0
            for comp in self.comps:
                if comp & bit:
                    break
                i += 1
            hit = self._by_comp[i]
            if hit < 0:
                hit = self._by_comp[i] = self._reached(comp)
            return hit & ~bit
        by_area = self._by_area
        if by_area is None:
            by_area = self._by_area = {}
        done = by_area.get(src)
        if done is None:
            start = self._sea_pairs(bit) if self.seas else bit
            done = by_area[src] = self._reached(start) & ~bit
        return done


def _joined(comps: list[int], area: int, nbr: int) -> list[int]:
    """The own territories once the land ``area`` (a bit; ``nbr`` its neighbours) joins
    the nation's land: it merges with every territory it borders.  In the order
    :func:`.connect.territories` gives (by lowest area): most moves into empty land
    change the territories so, and this costs less than finding them again."""
    joined = area
    out = []
    for comp in comps:
        if comp & nbr:
            joined |= comp
        else:
            out.append(comp)
    low = joined & -joined
    i = 0
    while i < len(out) and out[i] & -out[i] < low:
        i += 1
    out.insert(i, joined)
    return out


def move_options(s: "HBState", n: "Nation") -> tuple[list[tuple[tuple[str, ...], int]], bool]:
    """The legal moves as (row of ``src>dst`` keys, bitmask of destinations) per source,
    and whether the phase may end now.

    Sources are areas holding units that have not moved yet this phase.  Under Weak
    leader no move may enter another nation's land (§6.1).  With a battle pending, only
    moves into its area are legal (§6.3.1).
    """
    b = s.board
    sea = b.is_sea
    moved = s.moved
    keys = b.move_keys
    reach = Reach.of(s, n)
    if s.battle is not None:
        allowed = 1 << s.battle[0]
    elif n.weak:
        allowed = ~reach.enemy
    else:
        allowed = ~s.protected_land(n)
    if n.permits:
        allowed &= ~s.permitted_land(n)
    rows: list[tuple[tuple[str, ...], int]] = []
    may_end = True
    units = n.units
    sources = 0
    for a in units:
        sources |= 1 << a
    while sources:  # the areas ascending, without sorting the dict's keys
        low = sources & -sources
        sources ^= low
        src = low.bit_length() - 1
        if moved and units[src] <= moved.get(src, 0):
            continue
        dests = reach.from_area(src) & allowed
        if dests:
            rows.append((keys[src], dests))
            if sea[src]:
                may_end = False
    return rows, may_end


@STEPS.step("movement_phase")
def movement_phase(s: "HBState", nid: int, k: int) -> None:
    n = s.alive(nid)
    if n is None:
        return
    s.moved = {}
    s.asked = frozenset()
    n.permits = frozenset()  # RULINGS HB-Q39: a permission lasts one movement phase
    s.then(("move", nid, k), ("end_movement", nid, k))


@STEPS.step("diplomacy")
def diplomacy(s: "HBState", nid: int, other: int) -> Decision | None:
    """§9.3.1 Diplomacy: the other nation's owner grants or refuses passage."""
    n, o = s.alive(nid), s.alive(other)
    if n is None or o is None:
        return None
    labels = {"grant": f"Let the {n.name} pass (they may not attack the {o.name} this turn)",
              "refuse": "Refuse passage"}
    return Decision(o.owner, "hb.diplomacy", ("grant", "refuse"),
                    f"The {n.name} ask the {o.name} for passage through their land.", "§9.3.1",
                    labels.__getitem__, {"asker": nid, "nation": other})


@STEPS.on_answer("diplomacy")
def diplomacy_answer(s: "HBState", player: int, key: str, nid: int, other: int) -> None:
    n, o = s.nations[nid], s.nations[other]
    if key == "grant":
        n.permits = n.permits | {other}
        n.spared = n.spared | {other}
    s.log_data("diplomacy", f"The {o.name} {'grant' if key == 'grant' else 'refuse'} the {n.name} passage.",
               {"nation": nid, "other": other, "granted": key == "grant"})


def _label(s: "HBState", key: str) -> str:
    if key == "done":
        return "End movement"
    if key == "fight":
        return "Start the battle"
    if key.startswith("ask:"):
        return f"Ask the {s.nations[int(key[4:])].name} for passage (Diplomacy)"
    b = s.board
    src, dst = b.parse_move(key)
    owner = s.area_nation[dst]
    text = f"{b.names[src]} → {b.names[dst]}"
    if owner != EMPTY and s.current != owner and owner in s.nations and s.nations[owner].id != s.current:
        text += f" (attack the {s.nations[owner].name})"
    return text


@STEPS.step("move")
def move(s: "HBState", nid: int, k: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    rows, may_end = move_options(s, n)
    b = s.board
    if s.battle is not None:
        if not rows:
            s.then(("fight", nid), ("move", nid, k))
            return None
        keys = MaskedKeys(cast("list[tuple[Sequence[str], int]]", rows), ("fight",))
        prompt = f"Move more units of the {n.name} into {b.names[s.battle[0]]}, or start the battle."
    else:
        asks = diplomacy_asks(s, n)
        if not rows and not asks:
            return None
        keys = MaskedKeys(cast("list[tuple[Sequence[str], int]]", rows), (("done",) if may_end else ()) + asks)
        prompt = _move_prompt(n.name, k)
    return Decision(n.owner, "hb.move", cast("Sequence[str]", keys), prompt, "§6.3", lambda key: _label(s, key),
                    _move_info(nid, k))


def reinforcement(d: Decision) -> bool:
    """Whether ``d`` asks for more units into a pending battle, or its start (§6.3.1): the
    force of an attack whose target the first move into the area chose, which a search
    leaves to its policy bot (``Game.unsearched``)."""
    keys = d.keys
    return d.kind == "hb.move" and len(keys) > 0 and keys[len(keys) - 1] == "fight"


#: the move question's prompts by nation name (first phase, second), made once: half the
#: decisions of a game are moves
_PROMPTS: dict[str, tuple[str, str]] = {}
#: the move question's ``info`` by nation and phase, made once and shared: read, never
#: changed (as every decision's ``info``)
_INFOS: dict[int, dict] = {}


def _move_prompt(name: str, k: int) -> str:
    texts = _PROMPTS.get(name)
    if texts is None:
        texts = _PROMPTS[name] = (f"Move a unit of the {name}.",
                                  f"Move a unit of the {name} (strong leader, second phase).")
    return texts[1] if k == 2 else texts[0]


def _move_info(nid: int, k: int) -> dict:
    key = nid * 4 + k
    info = _INFOS.get(key)
    if info is None:
        info = _INFOS[key] = {"nation": nid, "phase": k}
    return info


def diplomacy_asks(s: "HBState", n: "Nation") -> tuple[str, ...]:
    """§9.3.1 Diplomacy: ask a nation on the map for passage, once per nation and phase."""
    if not s.abilities_on or "diplomacy" not in n.abilities:
        return ()
    asked = set(n.permits) | set(s.asked)
    return tuple(f"ask:{o.id}" for o in sorted(s.nations.values(), key=lambda o: o.id)
                 if o.id != n.id and o.land and o.id not in asked)


@STEPS.on_answer("move")
def move_answer(s: "HBState", player: int, key: str, nid: int, k: int) -> None:
    move = s.board.move_of.get(key)
    if move is None:
        _command(s, key, nid, k)
        return
    n = s.nations[nid]
    src, dst = move
    owner = s.area_nation[dst]
    if owner != EMPTY and owner != nid:
        if s.battle is None:
            defender = s.nations[owner]
            s.battle = [dst, nid, owner, 0, 0, defender.units[dst], 0, 0, n.owner, defender.owner,
                        2 if (s.cities >> dst) & 1 else 0]
        s.lift(n, src)
        s.battle[3] += 1
        s.battle.append(src)  # where the unit stays should the defender submit (HB-Q30)
    else:
        taken = owner == EMPTY and not s.board.is_sea[dst]
        s.shift(n, src, dst)
        moved = s.moved
        moved[dst] = moved.get(dst, 0) + 1
        if taken:
            _log_taken(s, n, src, dst)
    s.then(("move", nid, k))


def _command(s: "HBState", key: str, nid: int, k: int) -> None:
    """The answers to a move question that move no unit: end the movement, ask for
    passage (§9.3.1 Diplomacy), start the pending battle."""
    if key == "done":
        return
    if key.startswith("ask:"):
        other = int(key[4:])
        s.asked = s.asked | {other}
        s.then(("diplomacy", nid, other), ("move", nid, k))
        return
    if key == "fight":
        s.then(("fight", nid), ("move", nid, k))
        return
    raise ValueError(f"hb.move: unknown answer {key!r}")


def _log_taken(s: "HBState", n: "Nation", src: int, dst: int) -> None:
    """Land taken without a fight is told too, one line for a run of such moves: the
    sea the nation came ashore from, if any, and the areas it took (``expansion``)."""
    b = s.board
    ids, name_of = b.ids, b.name_of
    events = s.events
    last = events[-1] if events else None
    areas: list[str] = [ids[dst]]
    seas: list[str] = []
    grow = False
    if last is not None and last.kind == "expansion":
        told = last.data
        nation: int = told["nation"]
        if nation == n.id:
            grow = True
            before: list[str] = told["areas"]
            areas = before + areas
            seas = told["seas"]
    if b.is_sea[src] and ids[src] not in seas:
        seas = seas + [ids[src]]
    took = and_list([name_of[a] for a in areas])
    if seas:
        text = f"{s.Who(n)} come ashore from {and_list([name_of[a] for a in seas])} and take {took}."
    else:
        text = f"{s.Who(n)} spread into {took}."
    data = {"nation": n.id, "areas": areas, "seas": seas, "marks": {"taken": areas, "seat": n.owner}}
    if not (grow and s.amend_data("expansion", text, data)):
        s.log_data("expansion", text, data)


@STEPS.step("end_movement")
def end_movement(s: "HBState", nid: int, k: int) -> None:
    """§6.3: units left at sea are lost (RULINGS HB-Q18); Strong leader moves again (§6.1)."""
    n = s.alive(nid)
    if n is None:
        return
    for a in [a for a in n.units if s.board.is_sea[a]]:
        count = n.units[a]
        s.log_data("lost-at-sea", f"The sea swallows {units(count)} of {s.who(n)} in {s.board.names[a]}.",
                   {"nation": nid, "area": s.board.ids[a], "units": count})
        s.remove_units(n, a, count)
        if s.alive(nid) is None:
            return
    if k < n.phases:
        s.then(("movement_phase", nid, k + 1))
