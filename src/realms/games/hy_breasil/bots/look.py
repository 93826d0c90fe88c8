"""What the auto bot reads from ``view(player)``, parsed once per decision.

The view names areas by id; the bot works on area indices and bitmasks of the static
board (``load_board(map)``: public knowledge, like the printed map).  Nothing here
touches a game state: :class:`TableTop` rebuilds, from the view alone, the few things
the game's own movement rules (:class:`..movement.Reach`) read, so the bot plans with
exactly the rules a person at the table applies.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from ..board import DEFAULT_MAP, Board, load_board
from ..connect import components as connected_groups, links
from ..movement import Mover, Reach
from ..board import EMPTY


class NationView:
    """One nation as the view shows it."""

    __slots__ = ("id", "name", "owner", "units", "land", "pool", "civ", "start_sea", "first_turn",
                 "phases", "weak", "fervour", "famine", "race", "master", "abilities", "capital",
                 "permits", "spared", "total")

    def __init__(self, raw: dict, index: dict[str, int], is_sea: tuple) -> None:
        self.id = raw["id"]
        self.name = raw["name"]
        self.owner = raw["owner"]
        units = {index[k]: c for k, c in raw["units"].items()}
        self.units = units
        land = 0
        for a in units:
            if not is_sea[a]:
                land |= 1 << a
        self.land = land
        self.pool = raw["pool"]
        self.civ = raw["civilization_tokens"]
        ss = raw.get("start_sea")
        self.start_sea = index[ss] if ss is not None else None
        self.first_turn = raw["first_turn"]
        flags = raw["event_flags"]
        self.phases = flags["movement_phases"]
        self.weak = flags["weak_leader"]
        self.fervour = flags["religious_fervour"]
        self.famine = flags["famine"]
        self.race = raw.get("race")
        self.master = raw.get("submitted_to")
        self.abilities = frozenset(raw.get("abilities") or ())
        cap = raw.get("capital")
        self.capital = index[cap] if cap is not None else EMPTY
        self.permits = frozenset(raw.get("permits") or ())
        self.spared = frozenset(raw.get("spared") or ())
        self.total = sum(units.values())

    @property
    def areas(self) -> int:
        return bin(self.land).count("1")


class Battle:
    __slots__ = ("area", "attacker", "defender", "au", "aw", "du", "dw", "city")

    def __init__(self, raw: dict, index: dict[str, int]) -> None:
        self.area = index[raw["area"]]
        self.attacker = raw["attacker"]
        self.defender = raw["defender"]
        self.au = raw["attacker_units"]["unhurt"]
        self.aw = raw["attacker_units"]["wounded"]
        self.du = raw["defender_units"]["unhurt"]
        self.dw = raw["defender_units"]["wounded"]
        self.city = {"unhurt": 2, "wounded": 1, None: 0}[raw.get("city")]


class Look:
    """The parsed view: who holds which area, the nations, the battle, the cup."""

    __slots__ = ("view", "me", "turn", "board", "nations", "area_nation", "occupied", "battle", "cup",
                 "current", "cities", "free_sets", "vp", "names", "rules")

    def __init__(self, view: dict, board: Board | None = None, seen: dict | None = None) -> None:
        self.view = view
        self.board = b = board or load_board(view["options"].get("map", DEFAULT_MAP))
        self.me = view["you"]
        self.turn = view["turn"]
        index = b.index
        nations: dict[int, NationView] = {}
        # ``seen``: the bot's nations as last parsed, id → (raw, NationView); a nation whose
        # view is unchanged is not parsed again (most nations do not change between looks)
        for raw in view["nations"]:
            if seen is not None:
                old = seen.get(raw["id"])
                if old is not None and old[0] == raw:
                    nations[raw["id"]] = old[1]
                    continue
                nv = NationView(raw, index, b.is_sea)
                seen[nv.id] = (raw, nv)
            else:
                nv = NationView(raw, index, b.is_sea)
            nations[nv.id] = nv
        self.nations = nations
        an = [EMPTY] * b.n
        occ = 0
        for aid, info in view["areas"].items():
            a = index[aid]
            an[a] = info["nation"]
            occ |= 1 << a
        self.area_nation = an
        self.occupied = occ
        bt = view.get("battle")
        self.battle: Battle | None = Battle(bt, index) if bt else None
        self.cup = frozenset(view.get("cup") or ())
        self.current: int | None = view.get("current_nation")
        cities = 0
        for aid in view.get("cities") or ():
            cities |= 1 << index[aid]
        self.cities = cities
        self.free_sets = view.get("free_sets", 0)
        players = view["players"]
        self.vp = [p["vp"] for p in players]
        self.names = [p["name"] for p in players]
        #: the advanced rules in play, from the game's options in the view
        opts = view.get("options") or {}
        self.rules = frozenset(view.get("rules") or opts.get("rules") or ())

    # -- ownership -----------------------------------------------------------------------
    def colour_land(self, player: int) -> int:
        """Land held by any nation of ``player`` (a "colour")."""
        mask = 0
        for n in self.nations.values():
            if n.owner == player:
                mask |= n.land
        return mask

    def mine(self) -> list[NationView]:
        return [n for n in self.nations.values() if n.owner == self.me]

    def nation(self, nid: int | None) -> NationView | None:
        """The nation ``nid``, or None (also for no id: a view's or a decision's field left out)."""
        return self.nations.get(nid) if nid is not None else None

    def current_nation(self) -> NationView:
        """The nation whose turn it is: every decision of a nation turn has one."""
        if self.current is None:
            raise KeyError("the view names no current nation")
        return self.nations[self.current]

    def fight(self) -> Battle:
        """The battle under way: every decision of a battle (§4) has one."""
        if self.battle is None:
            raise KeyError("the view shows no battle under way")
        return self.battle

    # -- movement --------------------------------------------------------------------------
    def reach(self, n: Mover) -> Reach:
        """The game's own §6.3 reach for ``n`` on the board as the view shows it."""
        return Reach(TableTop(self, n), n)

    def empty_land(self) -> int:
        return self.board.land_mask & ~self.occupied

    def passable(self) -> int:
        """Seas and empty land: what a §6.4 connection may cross (RULINGS HB-Q23)."""
        return self.board.sea_mask | self.empty_land()


class Newcomer:
    """A nation with no land yet: what a new arrival reaches from a sea (§5)."""

    land = 0
    abilities: frozenset[str] = frozenset()
    permits: frozenset[int] = frozenset()


class TableTop:
    """The parts of a game state that :class:`..movement.Reach` reads, from a view."""

    __slots__ = ("board", "occupied", "abilities_on", "_permitted")

    def __init__(self, look: Look, n: Mover) -> None:
        self.board = look.board
        self.occupied = look.occupied
        self.abilities_on = bool(n.abilities)
        permitted = 0
        for nid in n.permits:
            o = look.nations.get(nid)
            if o is not None:
                permitted |= o.land
        self._permitted = permitted

    def permitted_land(self, n) -> int:
        return self._permitted


def land_terrain(board: Board, a: int) -> str:
    """The terrain of the land area ``a`` (a sea has none)."""
    terrain = board.terrain[a]
    if terrain is None:
        raise ValueError(f"{board.ids[a]} is a sea: it has no terrain")
    return terrain


def popcount(mask: int) -> int:
    return bin(mask).count("1")


@lru_cache(maxsize=8)
def distances(board: Board) -> tuple[tuple[int, ...], ...]:
    """Steps between every two areas over the whole map (land and sea): how "far" an army
    is from the space it attacks (§3.2.2.1, AU-Q22)."""
    n = board.n
    rows = []
    for src in range(n):
        d = [n + 1] * n
        d[src] = 0
        q = deque([src])
        while q:
            u = q.popleft()
            for v in board.nbrs[u]:
                if d[v] > d[u] + 1:
                    d[v] = d[u] + 1
                    q.append(v)
        rows.append(tuple(d))
    return tuple(rows)


#: :func:`components` already worked out: (neighbour table's id, land, passable) → parts
_PARTS: dict[tuple[int, int, int], list[int]] = {}


def components(look: Look, land: int) -> list[int]:
    """The §6.4 connected parts of a nation's ``land`` (bitmasks): two areas are linked when
    adjacent or when both border one sea or empty land area (RULINGS HB-Q23).  The same
    land on the same board comes back often within a movement phase: remembered."""
    nbr = look.board.nbr_mask
    hop = look.passable()
    key = (id(nbr), land, hop)
    parts = _PARTS.get(key)
    if parts is None:
        if len(_PARTS) > 50_000:
            _PARTS.clear()
        parts = _PARTS[key] = connected_groups(land, links(land, nbr, hop))
    return parts
