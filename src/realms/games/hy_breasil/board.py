"""The map as the rules use it: precomputed tables over a :class:`MapGraph`.

Everything here is static for a game (terrain PIPs, rough terrain, neighbours, option
keys), so the hot paths of §6.3 and §6.4 look values up instead of recomputing them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

from realms.core.mapgraph import MapGraph, load_map, parse_map

from .tables import TERRAINS, Tables, load_tables

MAPS = Path(__file__).parent / "data" / "maps"
#: The bundled map a game is played on unless its options name another.
DEFAULT_MAP: Final = "hy-breasil"

#: no nation: an area nobody holds, a nation without a capital or a master, no nation drawn
EMPTY: Final = -1  # Final: compiled, a constant in place, not a module global looked up


class Board:
    def __init__(self, graph: MapGraph, tables: Tables) -> None:
        self.graph = graph
        self.tables = tables
        areas = graph.areas
        self.n = len(areas)
        self.ids = tuple(a.id for a in areas)
        self.names = tuple(a.name for a in areas)
        self.is_sea = tuple(a.kind == "sea" for a in areas)
        self.land = graph.land
        self.seas = graph.seas
        #: §5.1, §5.2: seas where entering nations may be placed (not inland seas).
        self.entry_seas = tuple(i for i in graph.seas if not areas[i].inland)
        self.nbrs = tuple(a.neighbours for a in areas)
        self.land_nbrs = tuple(tuple(j for j in a.neighbours if not self.is_sea[j]) for a in areas)
        self.terrain = tuple(a.terrain for a in areas)
        #: §6.2: PIPs each area yields.
        self.pips = tuple(tables.pips[a.terrain] if a.terrain else 0 for a in areas)
        #: §6.3.1: the attacker's hit number in each area.
        self.attack_hit = tuple(
            tables.attacker_hit_on_rough if a.terrain in tables.rough else tables.hit_on
            for a in areas
        )
        self.index = dict(graph.index)
        #: each area's name by its id (the chronicle's data names areas by id)
        self.name_of = {a.id: a.name for a in areas}
        self.sea_mask = 0
        for i in graph.seas:
            self.sea_mask |= 1 << i
        self.land_mask = 0
        for i in graph.land:
            self.land_mask |= 1 << i
        self.nbr_mask = graph.nbr_mask
        #: own-land mask → its territories (see connect.territories)
        self.territory_memo: dict[int, list[int]] = {}
        #: the movement.Reach made last on this board (movement.Reach.of)
        self.reach_last: object = None
        #: §6.3 option keys, ``move_keys[src][dst] == "src-id>dst-id"``.
        self.move_keys = tuple(tuple(f"{a}>{b}" for b in self.ids) for a in self.ids)
        #: each move key's (source, destination), the reverse of ``move_keys``
        self.move_of = {key: (i, j) for i, row in enumerate(self.move_keys) for j, key in enumerate(row)}

    def move_key(self, src: int, dst: int) -> str:
        return self.move_keys[src][dst]

    def parse_move(self, key: str) -> tuple[int, int]:
        """A move key's (source, destination) area indices."""
        return self.move_of[key]


#: how a map name says "the island ``mapgen`` makes from this seed" (option ``map_seed``)
SEEDED = "seed:"


def map_name(options: dict) -> str:
    """The map a game's ``options`` play on: the island generated from ``map_seed`` when
    it is set (not 0), else the bundled map or file that ``map`` names.  Views carry it,
    so whatever reads a view (bots, advice) loads the same board."""
    seed = options.get("map_seed") or 0
    return f"{SEEDED}{seed}" if seed else options.get("map", DEFAULT_MAP)


@lru_cache(maxsize=8)
def load_board(map_name: str) -> Board:
    """The bundled map by id (``hy-breasil``), a TOML file by path, or the island of a
    seed (``seed:N``, :func:`map_name`), made by ``mapgen`` at the bundled map's size."""
    if map_name.startswith(SEEDED):
        import tomllib

        from .mapgen import BASE_AREAS, SEA_SECTORS, generate_text

        text, _ = generate_text(BASE_AREAS, len(SEA_SECTORS), int(map_name[len(SEEDED):]))
        return Board(parse_map(tomllib.loads(text), map_name, TERRAINS), load_tables())
    path = Path(map_name)
    if not path.suffix:
        path = MAPS / f"{map_name}.toml"
    return Board(load_map(path, TERRAINS), load_tables())
