"""The seeded board generator (V2-Q1): a hexagon of fields ringed by sea, cut into
continents separated by straits of sea and joined by fords.

Size and mix scale with the players: the hexagon's radius is ``3 + players // 2 + 1``
(91 fields for 2 players, 169 for 6, about 13 land fields a player after the sea), there
are ``2 + players // 2`` continents, and terrains cluster (a field takes a neighbour's
terrain half the time) so that meadows and mountains form areas where cavalry and
artillery can be recruited.  Production indices are 1, 2, 3 with weights 4:4:2.

Every passable field is reachable: continents are joined along the shortest sea path
between them, each field of that path becoming a ford, until all are connected; then a
few more fords are added so that no continent hangs on a single crossing.  The result
is the same for the same ``(players, seed)`` on any machine (the game's own
:class:`~realms.core.dice.Dice`).
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from realms.core.dice import Dice

from .board import DIRECTIONS, Board, build_board, hex_distance

TERRAIN_WEIGHTS = (("woodland", 4), ("meadows", 4), ("mountains", 3))
INDEX_WEIGHTS = ((1, 4), (2, 4), (3, 2))
LAKE_SHARE = 0.06


T = TypeVar("T")


def _weighted(dice: Dice, table: Sequence[tuple[T, int]]) -> T:
    total = sum(w for _, w in table)
    x = dice.below(total)
    for value, w in table:
        if x < w:
            return value
        x -= w
    raise AssertionError("unreachable")


def radius_for(players: int) -> int:
    return 3 + players // 2 + 1


def generate(players: int, seed: int, name: str | None = None) -> Board:
    """A board for ``players`` (2..6) from ``seed``; validated like a loaded one."""
    if not 2 <= players <= 6:
        raise ValueError(f"players must be 2..6, got {players}")
    dice = Dice(seed * 7 + players)
    radius = radius_for(players)
    cells = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if hex_distance((q, r), (0, 0)) <= radius]
    inner = [c for c in cells if hex_distance(c, (0, 0)) < radius]
    k = 2 + players // 2
    seeds: list[tuple[int, int]] = []
    candidates = dice.shuffled(inner)
    spacing = max(2, radius - 1)
    while len(seeds) < k:
        for c in candidates:
            if all(hex_distance(c, s) >= spacing for s in seeds):
                seeds.append(c)
                if len(seeds) == k:
                    break
        spacing -= 1
    continent: dict[tuple[int, int], int] = {}
    for c in inner:
        dist = [hex_distance(c, s) * 4 + dice.below(5) for s in seeds]
        continent[c] = dist.index(min(dist))
    kind: dict[tuple[int, int], str] = {c: "sea" for c in cells}
    for c in inner:
        q, r = c
        border = any(continent.get((q + dq, r + dr), continent[c]) < continent[c] for dq, dr in DIRECTIONS)
        if not border and dice.below(1000) >= LAKE_SHARE * 1000:
            kind[c] = "land"
    _join(kind, inner, dice)
    terrain: dict[tuple[int, int], str] = {}
    order = [c for c in dice.shuffled(inner) if kind[c] == "land"]
    for c in order:
        q, r = c
        near = [terrain[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in terrain]
        terrain[c] = dice.pick(near) if near and dice.below(2) else _weighted(dice, TERRAIN_WEIGHTS)
    rows = []
    for c in sorted(cells, key=lambda c: (c[1], c[0])):
        if kind[c] == "land":
            rows.append((c[0], c[1], terrain[c], _weighted(dice, INDEX_WEIGHTS)))
        else:
            rows.append((c[0], c[1], kind[c], 0))
    return build_board(name or f"version2-{players}-seed{seed}", rows, f"generated board ({players} players, seed {seed})")


def _components(kind: dict, inner: list) -> list[set]:
    seen: set = set()
    out = []
    for c in inner:
        if kind[c] == "sea" or c in seen:
            continue
        comp = {c}
        todo = [c]
        seen.add(c)
        while todo:
            q, r = todo.pop()
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if kind.get(n, "sea") != "sea" and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    todo.append(n)
        out.append(comp)
    return out


def _sea_path(kind: dict, inner_set: set, start: set) -> list | None:
    """The shortest path of inner sea fields from ``start`` to any other passable field."""
    prev: dict = {}
    frontier = []
    for q, r in sorted(start):
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n in inner_set and kind[n] == "sea" and n not in prev:
                prev[n] = None
                frontier.append(n)
    while frontier:
        nxt = []
        for c in frontier:
            q, r = c
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n not in inner_set:
                    continue
                if kind[n] != "sea" and n not in start:
                    path = [c]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return path
                if kind[n] == "sea" and n not in prev:
                    prev[n] = c
                    nxt.append(n)
        frontier = nxt
    return None


def _join(kind: dict, inner: list, dice: Dice) -> None:
    """Fords until every passable field is connected, then one extra crossing per
    continent where one can be found (I.1: "connected with at least some fords")."""
    inner_set = set(inner)
    comps = _components(kind, inner)
    while len(comps) > 1:
        smallest = min(comps, key=len)
        path = _sea_path(kind, inner_set, smallest)
        assert path is not None, "a continent with no sea path to another"
        for c in path:
            kind[c] = "ford"
        comps = _components(kind, inner)
    straits = [c for c in inner if kind[c] == "sea" and _touches_two_lands(kind, c)]
    for c in dice.shuffled(straits)[: max(2, len(straits) // 6)]:
        kind[c] = "ford"


def _touches_two_lands(kind: dict, c: tuple[int, int]) -> bool:
    """A sea field between two land fields that are not next to each other."""
    q, r = c
    ring = [kind.get((q + dq, r + dr), "sea") == "land" for dq, dr in DIRECTIONS]
    runs = sum(1 for i in range(6) if ring[i] and not ring[i - 1])
    return runs >= 2


def generator():
    """``realms map generate version2 --players N --seed X -o FILE``: a new board (V2-Q1)."""
    from realms.core.game import Argument, CalculatorError, MapGenerator

    def make(v: dict) -> tuple[str, str]:
        players, seed = v["players"], v["seed"]
        if not 2 <= players <= 6:
            raise CalculatorError(f"--players must be 2..6, got {players}")
        board = generate(players, seed)
        text = board.to_toml()
        return text, (f"A board for {players} players (seed {seed}): {board.size} fields, "
                      f"{len(board.passable)} passable, {len(board.land)} land.")

    return MapGenerator(
        arguments=(Argument("players", int, "Players the board is sized for (2-6).", 4),
                   Argument("seed", int, "The board's seed: one seed, one board.", 0)),
        generate=make,
        help="A new hex board of continents, straits and fords, valid by the game's board loader; "
             "play it with --option map=FILE (simulate, play).",
    )
