"""The data of Brian Boru, read from ``data/*.toml`` and validated at load.

No component is retyped in code: the board (regions, towns, roads, thresholds, points),
the 25 action cards, the marriage cards, the Viking cards, the marriage track and the
rulebook's numbers all come from the data files.  A bad file raises :class:`TableError`
naming the file, the entry and the problem, e.g.
``cards.toml: [[card]] #7 (value 7): unknown symbol 'coins'``.

Actions are compiled to tuples of *symbol groups* ``(symbol, argument, count)``: equal
consecutive symbols are resolved together (RULINGS BB-Q2), so ``["raider", "raider"]``
becomes ``(("raider", 0, 2),)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from functools import lru_cache
from pathlib import Path

from realms.core.files import FileError, load_toml

DATA = Path(__file__).parent / "data"

#: The player index meaning "no player": a town nobody holds, a trick nobody has led.
NOBODY = -1

COLOURS = ("R", "B", "Y")
CARD_COLOURS = ("R", "B", "Y", "W")
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "W": "white"}
#: Symbols that need no argument.
PLAIN = ("town", "coin", "pay", "renown", "church", "raider", "marriage", "expand", "unviking", "any-town")
#: Symbols with an argument (``points:2``, ``region-town:munster``).
WITH_ARG = ("points", "region-town")
#: The symbols of the rulebook's action table (Actions), in its order: "Each primary and
#: secondary action shows one or more symbols", so each appears on some action card.
ACTION_TABLE = ("town", "coin", "pay", "renown", "church", "raider", "marriage", "expand", "unviking")
#: Symbols whose repeats form one group with a count (resolved together, BB-Q2).
GROUPED = ("coin", "pay", "renown", "church", "raider", "marriage", "points")
#: The step symbols: one free step, then optional spending (rulebook, Actions).
STEP_SYMBOLS = ("church", "raider", "marriage")
#: Which track a coloured card's steps climb (brian-boru-data.md).
COLOUR_STEP = {"Y": "marriage", "R": "raider", "B": "church"}
#: The edition realms plays (the rulebook in rules/ is the English one): set-up removes
#: the marriage cards of any other language, i.e. the Dänische Prinzessin (RULINGS BB-Q13).
EDITION = "en"

Group = tuple[str, int, int]


#: a data file that cannot be used: the message names the file, entry and problem (the
#: shared error of data files, which says file, line and field as data too)
TableError = FileError


@dataclass(frozen=True)
class Region:
    index: int
    id: str
    name: str
    threshold: int
    points: int
    label: tuple[float, float] | None = None   # drawing position of the name


@dataclass(frozen=True)
class Town:
    index: int
    id: int
    region: int
    colour: str
    x: float
    y: float


@dataclass(frozen=True)
class Board:
    name: str
    width: float
    height: float
    regions: tuple[Region, ...]
    towns: tuple[Town, ...]
    town_index: dict[int, int]
    region_index: dict[str, int]
    region_towns: tuple[tuple[int, ...], ...]
    #: neighbours by road, per town index (empty for a town no road reaches: BB-Q28)
    adj: tuple[tuple[int, ...], ...]
    roads: tuple[tuple[int, int], ...]
    regions_points: tuple[int, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """Option keys of the towns (their printed numbers), by town index."""
        return _town_keys(self.towns)


@lru_cache(maxsize=None)
def _town_keys(towns: tuple) -> tuple[str, ...]:
    return tuple(str(t.id) for t in towns)


@dataclass(frozen=True)
class Card:
    value: int
    colour: str
    label: str
    primary: tuple[Group, ...]
    secondary: tuple[tuple[Group, ...], ...]
    uncertain: str = ""


@dataclass(frozen=True)
class MarriageCard:
    id: str
    name: str
    benefits: tuple[Group, ...]
    princess: bool
    language: str = EDITION


@dataclass(frozen=True)
class Rules:
    start_coins: int
    start_renown: int
    start_points: int
    start_track: int
    marriage_cards: dict[int, int]
    deal: dict[int, int]
    pick: int
    straight_to_pile: int
    step_cost: int
    expand_cost: int
    pay_penalty: int
    monastery_discs: int
    church_most_points: int
    monastery_weight: int
    battle_most_points: int
    spurn_points: int
    most_coins: int
    marker: int
    per_renown: int


@dataclass(frozen=True)
class Tables:
    board: Board
    cards: tuple[Card, ...]           # index = value; cards[0] is unused (None)
    card_by_label: dict[str, int]
    marriages: tuple[MarriageCard, ...]
    marriage_index: dict[str, int]
    princess: int                      # index of the Princess of Denmark in ``marriages``
    ordinary: tuple[int, ...]          # the edition's other marriage cards, shuffled at set-up
    track: tuple[tuple[Group, ...], ...]   # index = space - 1
    vikings: tuple[int, ...]
    rules: Rules

    @property
    def top(self) -> int:
        """The top space of the marriage track."""
        return len(self.track)

    def card_label(self, value: int) -> str:
        return self.cards[value].label


# -- helpers ------------------------------------------------------------------------------
def _read(name: str, directory: Path) -> dict:
    return load_toml(directory / name, error=TableError, name=name).data


def _int(value, where: str, lo: int | None = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError(f"{where} must be a whole number, got {value!r}")
    if lo is not None and value < lo:
        raise TableError(f"{where} must be at least {lo}, got {value}")
    return value


def _num(value, where: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TableError(f"{where} must be a number, got {value!r}")
    return float(value)


def _str(value, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise TableError(f"{where} must be a non-empty string, got {value!r}")
    return value


def _get(data: dict, key: str, where: str):
    if not isinstance(data, dict) or key not in data:
        raise TableError(f"{where}: missing {key!r}")
    return data[key]


def _entries(data: dict, key: str, source: str) -> list[dict]:
    items = _get(data, key, source)
    if not isinstance(items, list) or not items:
        raise TableError(f"{source}: [[{key}]] must be a non-empty list of tables")
    for i, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise TableError(f"{source}: [[{key}]] #{i} must be a table")
    return items


def parse_symbols(items, where: str, regions: dict[str, int], *, allow_town: bool) -> tuple[Group, ...]:
    """Symbols (strings) → groups ``(symbol, arg, count)``, checking every name."""
    if not isinstance(items, list):
        raise TableError(f"{where}: must be a list of symbols, got {items!r}")
    groups: list[list] = []
    for sym in items:
        if not isinstance(sym, str):
            raise TableError(f"{where}: symbol {sym!r} must be a string")
        name, _, arg_text = sym.partition(":")
        arg = 0
        if name in PLAIN:
            if arg_text:
                raise TableError(f"{where}: symbol {name!r} takes no argument ({sym!r})")
            if name == "town" and not allow_town:
                raise TableError(f"{where}: the 'town' symbol appears in primary actions only")
        elif name == "points":
            if not arg_text.isdigit() or int(arg_text) < 1:
                raise TableError(f"{where}: {sym!r} needs a positive number of points (points:2)")
            arg = int(arg_text)
        elif name == "region-town":
            if arg_text not in regions:
                raise TableError(f"{where}: {sym!r} names unknown region {arg_text!r}")
            arg = regions[arg_text]
        else:
            raise TableError(f"{where}: unknown symbol {sym!r}")
        if groups and name in GROUPED and groups[-1][0] == name and groups[-1][1] == arg:
            groups[-1][2] += 1
        else:
            groups.append([name, arg, 1])
    return tuple((g[0], g[1], g[2]) for g in groups)


# -- the files ----------------------------------------------------------------------------
def parse_board(data: dict, source: str = "board.toml") -> Board:
    regions: list[Region] = []
    region_index: dict[str, int] = {}
    for i, r in enumerate(_entries(data, "region", source), 1):
        where = f"{source}: [[region]] #{i}"
        rid = _str(_get(r, "id", where), f"{where} id")
        where = f"{source}: [[region]] {rid!r}"
        if rid in region_index:
            raise TableError(f"{where}: duplicate region id")
        label = r.get("label")
        if label is not None:
            if not isinstance(label, list) or len(label) != 2:
                raise TableError(f"{where}: label must be a position [x, y], got {label!r}")
            label = (_num(label[0], f"{where} label x"), _num(label[1], f"{where} label y"))
        region_index[rid] = len(regions)
        regions.append(Region(len(regions), rid, _str(_get(r, "name", where), f"{where} name"),
                              _int(_get(r, "threshold", where), f"{where} threshold", 1),
                              _int(_get(r, "points", where), f"{where} points", 0), label))
    towns: list[Town] = []
    town_index: dict[int, int] = {}
    width = _num(_get(data, "width", source), f"{source}: width")
    height = _num(_get(data, "height", source), f"{source}: height")
    for i, t in enumerate(_entries(data, "town", source), 1):
        where = f"{source}: [[town]] #{i}"
        tid = _int(_get(t, "id", where), f"{where} id", 1)
        where = f"{source}: [[town]] {tid}"
        if tid in town_index:
            raise TableError(f"{where}: duplicate town id")
        reg = _str(_get(t, "region", where), f"{where} region")
        if reg not in region_index:
            raise TableError(f"{where}: unknown region {reg!r}")
        colour = _get(t, "colour", where)
        if colour not in COLOURS:
            raise TableError(f"{where}: colour must be one of {', '.join(COLOURS)}, got {colour!r}")
        x = _num(_get(t, "x", where), f"{where} x")
        y = _num(_get(t, "y", where), f"{where} y")
        if not (0 <= x <= width and 0 <= y <= height):
            raise TableError(f"{where}: position ({x:g}, {y:g}) lies outside the board")
        town_index[tid] = len(towns)
        towns.append(Town(len(towns), tid, region_index[reg], colour, x, y))
    region_towns: list[list[int]] = [[] for _ in regions]
    for town in towns:
        region_towns[town.region].append(town.index)
    for region in regions:
        if not region_towns[region.index]:
            raise TableError(f"{source}: [[region]] {region.id!r}: has no towns")
    adj: list[set[int]] = [set() for _ in towns]
    seen: set[frozenset[int]] = set()

    road_table = _get(data, "roads", source)
    if isinstance(road_table, dict) and set(road_table) - {"source"}:
        extra = ", ".join(sorted(set(road_table) - {"source"}))
        raise TableError(f"{source}: [roads] has unknown key(s) {extra}: roads are listed in 'source' only "
                         f"(no road is invented, BB-Q28)")

    def roads(key: str) -> tuple[tuple[int, int], ...]:
        out = []
        items = road_table.get(key, []) if isinstance(road_table, dict) else None
        if not isinstance(items, list):
            raise TableError(f"{source}: [roads] {key} must be a list of [town, town] pairs")
        for k, pair in enumerate(items, 1):
            where = f"{source}: [roads] {key} #{k}"
            if not isinstance(pair, list) or len(pair) != 2:
                raise TableError(f"{where}: a road is a pair [town, town], got {pair!r}")
            a, b = pair
            for tid in (a, b):
                if tid not in town_index:
                    raise TableError(f"{where}: unknown town {tid!r} in road {pair}")
            if a == b:
                raise TableError(f"{where}: road {pair} joins a town to itself")
            key2 = frozenset((a, b))
            if key2 in seen:
                raise TableError(f"{where}: road {pair} is listed twice")
            seen.add(key2)
            ia, ib = town_index[a], town_index[b]
            adj[ia].add(ib)
            adj[ib].add(ia)
            out.append((ia, ib))
        return tuple(out)

    known = roads("source")
    scoring = _get(data, "scoring", source)
    pts = _get(scoring, "regions_points", f"{source}: [scoring]")
    if not isinstance(pts, list) or len(pts) != len(regions) + 1:
        raise TableError(f"{source}: [scoring] regions_points must give {len(regions) + 1} values (0..{len(regions)} regions)")
    for k, v in enumerate(pts):
        _int(v, f"{source}: [scoring] regions_points[{k}]")
    return Board(
        name=_str(_get(data, "name", source), f"{source}: name"), width=width, height=height,
        regions=tuple(regions), towns=tuple(towns), town_index=town_index, region_index=region_index,
        region_towns=tuple(tuple(x) for x in region_towns),
        adj=tuple(tuple(sorted(a)) for a in adj), roads=known,
        regions_points=tuple(pts),
    )


def parse_cards(data: dict, board: Board, source: str = "cards.toml") -> tuple[tuple, dict[str, int]]:
    cards: list = [None]
    by_value: dict[int, Card] = {}
    for i, c in enumerate(_entries(data, "card", source), 1):
        where = f"{source}: [[card]] #{i}"
        value = _int(_get(c, "value", where), f"{where} value", 1)
        where = f"{source}: [[card]] #{i} (value {value})"
        if value in by_value:
            raise TableError(f"{where}: duplicate card value (values are all different)")
        colour = _get(c, "colour", where)
        if colour not in CARD_COLOURS:
            raise TableError(f"{where}: colour must be one of {', '.join(CARD_COLOURS)}, got {colour!r}")
        primary = parse_symbols(_get(c, "primary", where), f"{where} primary", board.region_index, allow_town=True)
        if not primary or primary[0][0] != "town":
            raise TableError(f"{where} primary: must start with 'town' (winning a trick claims the active town)")
        if any(g[0] == "town" for g in primary[1:]):
            raise TableError(f"{where} primary: 'town' may appear only once")
        secs = _get(c, "secondary", where)
        if not isinstance(secs, list) or not secs:
            raise TableError(f"{where} secondary: must be a non-empty list of actions")
        secondary = tuple(
            parse_symbols(s, f"{where} secondary #{k}", board.region_index, allow_town=False)
            for k, s in enumerate(secs, 1)
        )
        if any(not s for s in secondary):
            raise TableError(f"{where} secondary: an action has no symbols")
        uncertain = c.get("uncertain", "")
        by_value[value] = Card(value, colour, f"{value}{colour}", primary, secondary, str(uncertain))
    n = len(by_value)
    if sorted(by_value) != list(range(1, n + 1)):
        raise TableError(f"{source}: card values must be 1..{n} without gaps, got {sorted(by_value)}")
    shown = {g[0] for c in by_value.values() for action in (c.primary, *c.secondary) for g in action}
    for sym in ACTION_TABLE:
        if sym not in shown:
            raise TableError(f"{source}: no card shows {sym!r}, a symbol of the rulebook's action table (Actions)")
    cards.extend(by_value[v] for v in range(1, n + 1))
    return tuple(cards), {c.label: c.value for c in cards[1:]}


def parse_marriages(data: dict, board: Board, source: str = "marriage.toml") -> tuple[tuple[MarriageCard, ...], int]:
    """All the marriage cards, and the index of the edition's Princess of Denmark.  Each
    language has at most one Princess; the edition (:data:`EDITION`) must have one."""
    out: list[MarriageCard] = []
    ids: set[str] = set()
    princesses: dict[str, int] = {}
    for i, m in enumerate(_entries(data, "marriage", source), 1):
        where = f"{source}: [[marriage]] #{i}"
        mid = _str(_get(m, "id", where), f"{where} id")
        where = f"{source}: [[marriage]] {mid!r}"
        if mid in ids:
            raise TableError(f"{where}: duplicate marriage card id")
        ids.add(mid)
        is_princess = m.get("princess", False)
        if not isinstance(is_princess, bool):
            raise TableError(f"{where}: princess must be true or false")
        language = _str(m.get("language", EDITION), f"{where} language")
        benefits = parse_symbols(_get(m, "benefits", where), f"{where} benefits", board.region_index, allow_town=False)
        for g in benefits:
            if g[0] not in ("points", "renown", "region-town", "any-town", "coin"):
                raise TableError(f"{where} benefits: {g[0]!r} is not a marriage benefit")
        if is_princess:
            if language in princesses:
                raise TableError(f"{where}: a second Princess of Denmark in language {language!r}")
            princesses[language] = len(out)
        out.append(MarriageCard(mid, _str(_get(m, "name", where), f"{where} name"), benefits, is_princess, language))
    if EDITION not in princesses:
        raise TableError(f"{source}: no card has princess = true in language {EDITION!r} (the Princess of Denmark)")
    return tuple(out), princesses[EDITION]


def parse_track(data: dict, source: str = "track.toml") -> tuple[tuple[Group, ...], ...]:
    spaces = _entries(data, "space", source)
    out = []
    for i, sp in enumerate(spaces, 1):
        where = f"{source}: [[space]] #{i}"
        n = _int(_get(sp, "space", where), f"{where} space", 1)
        if n != i:
            raise TableError(f"{where}: spaces must be numbered 1, 2, 3 … in order, got {n}")
        reward = parse_symbols(_get(sp, "reward", where), f"{where} reward", {}, allow_town=False)
        for g in reward:
            if g[0] not in ("coin", "renown", "any-town", "points"):
                raise TableError(f"{where} reward: {g[0]!r} is not a marriage track reward")
        out.append(reward)
    if len(out) < 2:
        raise TableError(f"{source}: the marriage track needs at least 2 spaces")
    if out[0]:
        raise TableError(f"{source}: [[space]] #1: the first space has no reward (everyone starts there)")
    return tuple(out)


def parse_vikings(data: dict, source: str = "vikings.toml") -> tuple[int, ...]:
    return tuple(
        _int(_get(v, "strength", f"{source}: [[viking]] #{i}"), f"{source}: [[viking]] #{i} strength", 0)
        for i, v in enumerate(_entries(data, "viking", source), 1)
    )


def parse_rules(data: dict, source: str = "rules.toml") -> Rules:
    def g(path: str, lo: int = 0) -> int:
        node: Any = data  # a table, then what it holds: compiled, a dict-typed name takes no int
        for part in path.split("."):
            node = _get(node, part, f"{source}: [{path}]")
        return _int(node, f"{source}: [{path}]", lo)

    def by_players(path: str) -> dict[int, int]:
        node: Any = data
        for part in path.split("."):
            node = _get(node, part, f"{source}: [{path}]")
        if not isinstance(node, dict) or set(node) != {"3", "4", "5"}:
            raise TableError(f"{source}: [{path}] must give a value for 3, 4 and 5 players")
        return {int(k): _int(v, f"{source}: [{path}] {k}", 1) for k, v in node.items()}

    return Rules(
        start_coins=g("setup.coins"), start_renown=g("setup.renown"), start_points=g("setup.points"),
        start_track=g("setup.track_space", 1), marriage_cards=by_players("setup.marriage_cards"),
        deal=by_players("draft.deal"), pick=g("draft.pick", 1), straight_to_pile=g("draft.straight_to_pile", 1),
        step_cost=g("actions.step_cost", 1), expand_cost=g("actions.expand_cost", 1),
        pay_penalty=g("actions.pay_penalty"), monastery_discs=g("church.monastery_discs", 1),
        church_most_points=g("church.most_points"), monastery_weight=g("church.monastery_weight", 1),
        battle_most_points=g("battle.most_points"), spurn_points=g("princess.spurn_points"),
        most_coins=g("scoring.most_coins"), marker=g("scoring.marker"), per_renown=g("scoring.per_renown"),
    )


def build_tables(directory: Path = DATA) -> Tables:
    board = parse_board(_read("board.toml", directory))
    cards, by_label = parse_cards(_read("cards.toml", directory), board)
    marriages, princess = parse_marriages(_read("marriage.toml", directory), board)
    track = parse_track(_read("track.toml", directory))
    vikings = parse_vikings(_read("vikings.toml", directory))
    rules = parse_rules(_read("rules.toml", directory))
    n_cards = len(cards) - 1
    ordinary = tuple(i for i, m in enumerate(marriages) if m.language == EDITION and not m.princess)
    for players in (3, 4, 5):
        deal = rules.deal[players]
        if deal * players > n_cards:
            raise TableError(f"rules.toml: [draft.deal] {players}: {players} × {deal} cards exceeds the {n_cards} action cards")
        if deal <= 1:
            raise TableError(f"rules.toml: [draft.deal] {players}: a hand needs at least 2 cards")
        k = rules.marriage_cards[players]
        if k > len(ordinary):
            raise TableError(f"rules.toml: [setup.marriage_cards] {players}: {k} cards, but marriage.toml has only "
                             f"{len(ordinary)} besides the Princess")
        if k + 1 > len(vikings):
            raise TableError(f"vikings.toml: {len(vikings)} Viking cards cannot last {k + 1} rounds ({players} players)")
    return Tables(board, cards, by_label, marriages, {m.id: i for i, m in enumerate(marriages)}, princess,
                  ordinary, track, vikings, rules)


@lru_cache(maxsize=None)
def load_tables(directory: str = str(DATA)) -> Tables:
    """The validated data of the game (cached)."""
    return build_tables(Path(directory))
