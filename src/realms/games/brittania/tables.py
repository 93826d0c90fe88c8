"""The rules post's numbers, colours, traits, king names and High Kingdoms, read from
``data/rules.toml`` and validated at load; a bad file raises :class:`TableError` naming
the file, the entry and the problem."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from realms.core.files import DataFile, FileError, load_toml
from realms.core.options import shown

from .board import DATA, load_board


#: a rules file that cannot be used: the message names the file, entry and problem (the
#: shared error of data files, which says file, line and field as data too)
TableError = FileError


NUMBERS = ("start_grain", "start_output", "max_order", "max_output", "invest_cost",
           "capital_invest_discount", "capital_defence", "capital_move", "independent_defence",
           "kingdom_bonus", "high_kingdom_bonus", "kingdom_neighbours", "high_kingdom_states",
           "empire_kingdoms", "last_turn", "trade_bonus", "sea_preparation", "die", "cv_max", "warrior_factor")
EFFECTS = ("attack", "defence", "invest_cost", "pillage", "income", "sea_free", "trade", "unify", "command")


@dataclass(frozen=True)
class Trait:
    name: str
    positive: bool
    effect: str
    amount: int            # the positive trait's amount; the negative one has the opposite
    opposite: str          # the other trait of the pair ("" for none)


@dataclass(frozen=True)
class HighKingdom:
    region: str
    name: str
    need: int
    states: tuple[int, ...]


@dataclass(frozen=True)
class Tables:
    colours: tuple[str, ...]
    colour_hex: dict[str, str]
    n: dict[str, int]
    traits: dict[str, Trait]
    positive: tuple[str, ...]
    names: dict[str, tuple[str, ...]]
    high_kingdoms: tuple[HighKingdom, ...]

    def effect(self, traits: tuple[str, ...] | list[str], effect: str) -> int:
        """The sum of ``effect`` over a king's traits (a negative trait counts negated)."""
        total = 0
        for name in traits:
            t = self.traits[name]
            if t.effect == effect:
                total += t.amount if t.positive else -t.amount
        return total

    def has(self, traits, effect: str) -> bool:
        return any(self.traits[t].effect == effect and self.traits[t].positive for t in traits)

    def may_lead(self, traits) -> bool:
        """A Coward "cannot personally Attack or Defend"."""
        return self.effect(traits, "command") >= 0


def parse_tables(data: dict, source: str = "rules.toml", file: DataFile | None = None) -> Tables:
    """The tables of ``data`` (read from ``file`` when given: errors then name its lines)."""
    file = file or DataFile(data, "", source, TableError)
    board = load_board()
    colours = data.get("colours", {})
    if len(colours) != 12:
        raise file.fail("colours", f"{len(colours)} colours; the rules name 12")
    numbers = data.get("numbers", {})
    for key in NUMBERS:
        file.get(f"numbers.{key}", int)
    traits: dict[str, Trait] = {}
    for i, entry in enumerate(data.get("trait", [])):
        if entry.get("effect") not in EFFECTS:
            raise file.fail(f"trait[{i}].effect", f"{shown(entry.get('effect'))} is not one of {', '.join(EFFECTS)}")
        pos, neg = entry.get("positive"), entry.get("negative", "")
        if not isinstance(pos, str) or not isinstance(neg, str) or not isinstance(entry.get("amount"), int):
            raise file.fail(f"trait[{i}]", "needs 'positive', 'effect' and 'amount'")
        traits[pos] = Trait(pos, True, entry["effect"], entry["amount"], neg)
        if neg:
            traits[neg] = Trait(neg, False, entry["effect"], entry["amount"], pos)
    names = {}
    for region in board.regions:
        got = data.get("names", {}).get(region)
        if not got or not all(isinstance(x, str) for x in got):
            raise file.fail(f"names.{region}", "needs a list of king names")
        names[region] = tuple(got)
    hks = []
    for i, entry in enumerate(data.get("high_kingdom", [])):
        if entry.get("region") not in board.regions:
            raise file.fail(f"high_kingdom[{i}].region", f"{shown(entry.get('region'))} is not a region of the map")
        for sid in entry.get("states", []):
            if sid not in board.index or not board.state(sid).kingdom:
                raise file.fail(f"high_kingdom[{i}].states", f"{shown(sid)} is not a KINGDOM state of the map")
            if board.state(sid).region != entry["region"]:
                raise file.fail(f"high_kingdom[{i}].states", f"{shown(sid)} is not in region {entry['region']!r}")
        hks.append(HighKingdom(entry["region"], entry["name"], entry["need"],
                               tuple(board.index[s] for s in entry["states"])))
    return Tables(
        colours=tuple(colours),
        colour_hex=dict(colours),
        n=dict(numbers),
        traits=traits,
        positive=tuple(t for t in traits if traits[t].positive),
        names=names,
        high_kingdoms=tuple(hks),
    )


@lru_cache(maxsize=None)
def load_tables() -> Tables:
    path = DATA / "rules.toml"
    file = load_toml(path, error=TableError, name=path.name)
    return parse_tables(file.data, path.name, file)
