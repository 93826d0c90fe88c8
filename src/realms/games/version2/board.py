"""The board of version² (I.1): hex fields in axial coordinates ``(q, r)``.

Every field has a terrain — ``sea`` (impassable, never owned), ``ford`` (passable and
conquerable, produces nothing, nothing built or recruited there) or one of the land
terrains ``woodland``, ``meadows``, ``mountains`` with a production index of 1–3.  The
rulebook gives no map (V2-Q1): boards come from :mod:`.generate` and a default board
per player count is shipped in ``data/maps/board-N.toml``.

A board file is TOML::

    name = "version2-4"
    fields = [
      {q = 0, r = 0, terrain = "woodland", index = 2},
      ...
    ]

Fields are numbered in file order; that number is the field's key in decisions and
records.  :func:`load_board` validates the file (known terrain, index in range, no field
twice, every passable field reachable from every other) and raises :class:`BoardError`
naming the file, the field and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from realms.core.files import FileError, parse_toml, read_text

#: The player index of nobody: a field no player owns (the neutral armies' and the sea's).
NOBODY = -1

MAPS = Path(__file__).parent / "data" / "maps"

SEA, FORD, WOODLAND, MEADOWS, MOUNTAINS = range(5)
TERRAINS = ("sea", "ford", "woodland", "meadows", "mountains")
TERRAIN_CODE = {name: i for i, name in enumerate(TERRAINS)}
LAND = (WOODLAND, MEADOWS, MOUNTAINS)
#: the six axial directions, in order round the hex
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


#: a board that cannot be played: the message names the file, the field and the problem
#: (the shared error of data files, which the CLI reports as it reports any bad file)
BoardError = FileError


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True)
class Board:
    """A validated board: per-field tuples indexed by field number."""

    name: str
    coords: tuple[tuple[int, int], ...]
    terrain: tuple[int, ...]
    index: tuple[int, ...]
    #: passable neighbours of each field (sea fields have none and are no one's neighbour)
    adj: tuple[tuple[int, ...], ...]
    #: passable field numbers, land field numbers
    passable: tuple[int, ...]
    land: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.coords)

    @cached_property
    def fords(self) -> tuple[int, ...]:
        """Passable fields that are not land."""
        land = set(self.land)
        return tuple(f for f in self.passable if f not in land)

    def is_land(self, f: int) -> bool:
        return self.terrain[f] >= WOODLAND

    def to_toml(self) -> str:
        lines = [f'name = "{self.name}"', "fields = ["]
        for (q, r), t, i in zip(self.coords, self.terrain, self.index):
            lines.append(f'  {{q = {q}, r = {r}, terrain = "{TERRAINS[t]}", index = {i}}},')
        lines.append("]")
        return "\n".join(lines) + "\n"


def build_board(name: str, fields: list[tuple[int, int, str, int]], source: str = "board") -> Board:
    """A :class:`Board` from ``(q, r, terrain, index)`` rows, validated (see the module)."""
    coords: list[tuple[int, int]] = []
    terrain: list[int] = []
    index: list[int] = []
    where: dict[tuple[int, int], int] = {}
    for n, (q, r, t, i) in enumerate(fields):
        at = f"{source}: field #{n} (q={q}, r={r})"
        if (q, r) in where:
            raise BoardError(f"{at}: same place as field #{where[(q, r)]}")
        if t not in TERRAIN_CODE:
            raise BoardError(f"{at}: unknown terrain {t!r} (known: {', '.join(TERRAINS)})")
        code = TERRAIN_CODE[t]
        if code >= WOODLAND:
            if not 1 <= i <= 3:
                raise BoardError(f"{at}: production index {i} of {t} must be 1..3")
        elif i != 0:
            raise BoardError(f"{at}: a {t} field has production index 0, not {i}")
        where[(q, r)] = n
        coords.append((q, r))
        terrain.append(code)
        index.append(i)
    adj: list[tuple[int, ...]] = []
    for n, (q, r) in enumerate(coords):
        if terrain[n] == SEA:
            adj.append(())
            continue
        near = [where[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in where]
        adj.append(tuple(m for m in near if terrain[m] != SEA))
    passable = tuple(n for n, t in enumerate(terrain) if t != SEA)
    land = tuple(n for n, t in enumerate(terrain) if t >= WOODLAND)
    if not land:
        raise BoardError(f"{source}: the board has no land field")
    seen = {passable[0]}
    todo = [passable[0]]
    while todo:
        for m in adj[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    if len(seen) != len(passable):
        lost = min(set(passable) - seen)
        q, r = coords[lost]
        raise BoardError(f"{source}: field #{lost} (q={q}, r={r}) cannot be reached from field #{passable[0]} "
                         "(every field must be reachable over land and fords, I.1)")
    return Board(name, tuple(coords), tuple(terrain), tuple(index), tuple(adj), passable, land)


def parse_board(text: str, source: str) -> Board:
    """A board from TOML text; errors name ``source``."""
    data = parse_toml(text, source, BoardError)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise BoardError(f"{source}: missing 'name' (a non-empty string)")
    raw = data.get("fields")
    if not isinstance(raw, list) or not raw:
        raise BoardError(f"{source}: missing 'fields' (a non-empty list of {{q, r, terrain, index}})")
    rows = []
    for n, f in enumerate(raw):
        if not isinstance(f, dict):
            raise BoardError(f"{source}: field #{n} must be a table {{q, r, terrain, index}}")
        unknown = sorted(set(f) - {"q", "r", "terrain", "index"})
        if unknown:
            raise BoardError(f"{source}: field #{n}: unknown key(s) {', '.join(unknown)}")
        for k in ("q", "r", "index"):
            v = f.get(k, 0 if k == "index" else None)
            if not isinstance(v, int) or isinstance(v, bool):
                raise BoardError(f"{source}: field #{n}: {k!r} must be a whole number, got {v!r}")
        t = f.get("terrain")
        if not isinstance(t, str):
            raise BoardError(f"{source}: field #{n}: 'terrain' must be a string, got {t!r}")
        rows.append((f["q"], f["r"], t, f.get("index", 0)))
    return build_board(name, rows, source)


def load_board_file(path: str | Path) -> Board:
    path = Path(path)
    source = str(path.name if path.parent == MAPS else path)
    return parse_board(read_text(path, error=BoardError, name=source), source)


@lru_cache(maxsize=None)
def default_board(players: int) -> Board:
    """The shipped board for ``players`` (2..6): ``data/maps/board-<players>.toml``."""
    return load_board_file(MAPS / f"board-{players}.toml")


@lru_cache(maxsize=8)
def load_board(name: str) -> Board:
    """A board by name (``board-4``) from the shipped maps, or by path to a TOML file."""
    if "/" not in name and not name.endswith(".toml"):
        return load_board_file(MAPS / f"{name}.toml")
    return load_board_file(name)
