"""The map of Brittania, read from ``data/map.toml`` and validated at load (RULINGS BR-Q1).

The rules post has no map: the 81 states, their borders and the seas are designed from
history (data/MAP.md).  Loading checks what the rules need of a map and raises
:class:`MapError` naming the file, the state and the problem, e.g.
``map.toml: state 'kent': adjacent 'essex' does not list 'kent' back``.

Precomputed for the rules: land neighbours (with the Glywysing–Somerset link), the
neighbours that count for making a Kingdom (with The Isles–Ross and Galaibh–Moirebh),
the seas on each state's coast, and for each state the states across a sea from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from realms.core.files import FileError, load_toml

DATA = Path(__file__).parent / "data"
MAP_FILE = DATA / "map.toml"

STATES = 81                 # "The map is divided into 81 States"
KINGDOM_STATES = 18         # "out of total of 18"
SEAS = 7                    # "Seas are numbered 1 to 7"
REGION_MINIMUM = 10         # each High Kingdom needs "10 Provinces" of its region (BR-Q3)
KINGDOM_NEIGHBOURS = 3      # "plus minimum of 3 States adjacent to it"
LINK_KINDS = ("kingdom", "adjacent")


#: a map file that cannot be used: the message names the file, state and problem (the
#: shared error of data files, which says file, line and field as data too)
MapError = FileError


@dataclass(frozen=True)
class State:
    index: int
    id: str
    name: str
    region: str
    kingdom: bool
    at: tuple[float, float]
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class Sea:
    number: int
    name: str
    label: tuple[float, float]
    coasts: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    name: str
    states: tuple[State, ...]
    #: the states' ids in board order
    ids: tuple[str, ...]
    index: dict[str, int]
    regions: tuple[str, ...]
    region_names: dict[str, str]
    region_states: dict[str, tuple[int, ...]]
    #: land neighbours, with the "adjacent" links (Glywysing–Somerset)
    adj: tuple[tuple[int, ...], ...]
    adj_mask: tuple[int, ...]
    #: neighbours for Kingdom-making: land neighbours and the "kingdom" links
    kingdom_adj: tuple[tuple[int, ...], ...]
    seas: tuple[Sea, ...]
    #: the sea numbers on each state's coast
    state_seas: tuple[tuple[int, ...], ...]
    #: the states that share a sea with each state (itself excluded)
    across_mask: tuple[int, ...]
    kingdoms: tuple[int, ...]
    links: tuple[tuple[int, int, str], ...]

    def state(self, key: str) -> State:
        return self.states[self.index[key]]


def _fail(source: str, where: str, problem: str) -> MapError:
    return MapError(f"{source}: {where}: {problem}" if where else f"{source}: {problem}", file=source)


def _point(value: object, source: str, where: str, field: str) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise _fail(source, where, f"{field!r} must be [longitude, latitude], got {value!r}")
    return (float(value[0]), float(value[1]))


def _names(value: object, source: str, where: str, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(source, where, f"{field!r} must be a list of state ids, got {value!r}")
    return list(value)


def _read_states(raw: list, source: str, regions: set[str]) -> list[dict]:
    seen: dict[str, int] = {}
    out = []
    for i, entry in enumerate(raw):
        where = f"[[state]] #{i + 1}"
        if not isinstance(entry, dict):
            raise _fail(source, where, "must be a table")
        sid = entry.get("id")
        if not isinstance(sid, str) or not sid:
            raise _fail(source, where, "missing 'id'")
        where = f"state {sid!r}"
        if sid in seen:
            raise _fail(source, where, f"listed twice (entries #{seen[sid] + 1} and #{i + 1})")
        seen[sid] = i
        unknown = sorted(set(entry) - {"id", "name", "region", "kingdom", "at", "adjacent", "aliases"})
        if unknown:
            raise _fail(source, where, f"unknown field(s) {', '.join(unknown)}")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, where, "missing 'name'")
        region = entry.get("region")
        if region not in regions:
            raise _fail(source, where, f"region {region!r} is not one of {', '.join(sorted(regions))}")
        kingdom = entry.get("kingdom", False)
        if not isinstance(kingdom, bool):
            raise _fail(source, where, f"'kingdom' must be true or false, got {kingdom!r}")
        out.append({
            "id": sid, "name": name.strip(), "region": region, "kingdom": kingdom,
            "at": _point(entry.get("at"), source, where, "at"),
            "adjacent": _names(entry.get("adjacent", []), source, where, "adjacent"),
            "aliases": tuple(_names(entry.get("aliases", []), source, where, "aliases")),
        })
    return out


def _read_regions(data: dict, source: str) -> dict[str, str]:
    regions_raw = data.get("region", [])
    if not regions_raw:
        raise _fail(source, "", "no [[region]] entries")
    names = {}
    for i, r in enumerate(regions_raw):
        if not isinstance(r, dict) or not isinstance(r.get("id"), str) or not isinstance(r.get("name"), str):
            raise _fail(source, f"[[region]] #{i + 1}", "needs 'id' and 'name'")
        names[r["id"]] = r["name"]
    return names


def _check_names(raw: list[dict], source: str) -> None:
    """No name or alias is used by two states (orders name states)."""
    seen: dict[str, str] = {}
    for s in raw:
        for name in (s["name"], *s["aliases"]):
            other = seen.setdefault(name.casefold(), s["id"])
            if other != s["id"]:
                raise _fail(source, f"state {s['id']!r}", f"name {name!r} is also used by {other!r}")


def _read_borders(raw: list[dict], index: dict[str, int], source: str) -> list[set[int]]:
    """Land borders, each listed on both sides."""
    adj: list[set[int]] = [set() for _ in raw]
    for s in raw:
        where = f"state {s['id']!r}"
        for other in s["adjacent"]:
            if other not in index:
                raise _fail(source, where, f"adjacent {other!r} is not a state")
            if other == s["id"]:
                raise _fail(source, where, "is listed as adjacent to itself")
            if s["id"] not in raw[index[other]]["adjacent"]:
                raise _fail(source, where, f"adjacent {other!r} does not list {s['id']!r} back")
            adj[index[s["id"]]].add(index[other])
    return adj


def _read_links(data: dict, index: dict[str, int], adj: list[set[int]], source: str
                ) -> tuple[list[set[int]], list[tuple[int, int, str]]]:
    """The special links: each counts for Kingdom-making; an "adjacent" one (Glywysing–
    Somerset) is added to ``adj`` as a border too.  Returns the Kingdom neighbours."""
    kingdom_adj = [set(a) for a in adj]
    links = []
    for i, link in enumerate(data.get("link", [])):
        where = f"[[link]] #{i + 1}"
        a, b, kind = link.get("a"), link.get("b"), link.get("kind")
        for end in (a, b):
            if end not in index:
                raise _fail(source, where, f"{end!r} is not a state")
        if kind not in LINK_KINDS:
            raise _fail(source, where, f"kind {kind!r} is not one of {', '.join(LINK_KINDS)}")
        ia, ib = index[a], index[b]
        if ib in adj[ia]:
            raise _fail(source, where, f"{a!r} and {b!r} already share a border")
        kingdom_adj[ia].add(ib)
        kingdom_adj[ib].add(ia)
        if kind == "adjacent":
            adj[ia].add(ib)
            adj[ib].add(ia)
        links.append((ia, ib, kind))
    return kingdom_adj, links


def _read_seas(data: dict, index: dict[str, int], source: str) -> list[Sea]:
    seas: list[Sea] = []
    for i, sea in enumerate(data.get("sea", [])):
        number = sea.get("number")
        where = f"sea {number!r}"
        if not isinstance(number, int) or not 1 <= number <= SEAS or any(x.number == number for x in seas):
            raise _fail(source, f"[[sea]] #{i + 1}", f"number must be 1..{SEAS}, each once, got {number!r}")
        coasts = _names(sea.get("coasts"), source, where, "coasts")
        for c in coasts:
            if c not in index:
                raise _fail(source, where, f"coast {c!r} is not a state")
        if len(set(coasts)) != len(coasts):
            raise _fail(source, where, "a state is listed twice on its coasts")
        seas.append(Sea(number, str(sea.get("name", f"Sea {number}")),
                        _point(sea.get("label"), source, where, "label"), tuple(index[c] for c in coasts)))
    if len(seas) != SEAS:
        raise _fail(source, "", f"{len(seas)} seas; the rules number them 1 to {SEAS}")
    return sorted(seas, key=lambda x: x.number)


def _check_rules_needs(states: tuple[State, ...], adj, kingdom_adj, state_seas, region_states, source: str) -> None:
    """What the rules need of a map: every state reachable, every region big enough for
    its High Kingdom, the 18 KINGDOM states each able to make a Kingdom."""
    for st in states:
        if not adj[st.index] and not state_seas[st.index]:
            raise _fail(source, f"state {st.id!r}", "has no border and no sea: it could never be reached")
    for r, members in region_states.items():
        if len(members) < REGION_MINIMUM:
            raise _fail(source, f"region {r!r}", f"has {len(members)} states; a High Kingdom needs {REGION_MINIMUM}")
    kingdoms = [st.index for st in states if st.kingdom]
    if len(kingdoms) != KINGDOM_STATES:
        raise _fail(source, "", f"{len(kingdoms)} KINGDOM states; the rules name {KINGDOM_STATES}")
    for k in kingdoms:
        if len(kingdom_adj[k]) < KINGDOM_NEIGHBOURS:
            raise _fail(source, f"state {states[k].id!r}",
                        f"a KINGDOM state with {len(kingdom_adj[k])} neighbours; a Kingdom needs {KINGDOM_NEIGHBOURS}")


def parse_board(data: dict, source: str = "map.toml") -> Board:
    """A :class:`Board` from the parsed TOML ``data``; ``source`` names it in errors."""
    region_names = _read_regions(data, source)
    raw = _read_states(data.get("state", []), source, set(region_names))
    if len(raw) != STATES:
        raise _fail(source, "", f"{len(raw)} states; the rules need {STATES}")
    _check_names(raw, source)
    index = {s["id"]: i for i, s in enumerate(raw)}
    adj = _read_borders(raw, index, source)
    kingdom_adj, links = _read_links(data, index, adj, source)
    seas = _read_seas(data, index, source)
    state_seas: list[list[int]] = [[] for _ in raw]
    across = [0] * len(raw)
    for sea in seas:
        mask = sum(1 << c for c in sea.coasts)
        for c in sea.coasts:
            state_seas[c].append(sea.number)
            across[c] |= mask & ~(1 << c)
    states = tuple(State(i, s["id"], s["name"], s["region"], s["kingdom"], s["at"], s["aliases"])
                   for i, s in enumerate(raw))
    region_states = {r: tuple(st.index for st in states if st.region == r) for r in region_names}
    _check_rules_needs(states, adj, kingdom_adj, state_seas, region_states, source)
    return Board(
        name=str(data.get("map", {}).get("name", "Brittania")),
        states=states,
        ids=tuple(st.id for st in states),
        index=index,
        regions=tuple(region_names),
        region_names=region_names,
        region_states=region_states,
        adj=tuple(tuple(sorted(a)) for a in adj),
        adj_mask=tuple(sum(1 << j for j in a) for a in adj),
        kingdom_adj=tuple(tuple(sorted(a)) for a in kingdom_adj),
        seas=tuple(seas),
        state_seas=tuple(tuple(x) for x in state_seas),
        across_mask=tuple(across),
        kingdoms=tuple(st.index for st in states if st.kingdom),
        links=tuple(links),
    )


def read_board(path: Path) -> Board:
    return parse_board(load_toml(path, error=MapError, name=path.name).data, path.name)


@lru_cache(maxsize=None)
def load_board() -> Board:
    """The game's map, read once."""
    return read_board(MAP_FILE)
