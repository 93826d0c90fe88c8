"""The numbers of version², read from ``data/rules.toml`` and validated at load.

Units (I.3), the economy (I.1, 2.3.1, 2.3.5), the battle's rhythm (2.3.4.2) and the
modifiers (2.3.4.4, whose numbers the rulebook does not give: V2-Q28) live in one data
file; a bad file raises :class:`RulesError` naming the file, the entry and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from realms.core.files import DataFile, FileError, parse_toml, read_text
from realms.core.options import shown

from .board import TERRAIN_CODE, TERRAINS

RULES_FILE = Path(__file__).parent / "data" / "rules.toml"
INFANTRY, CAVALRY, ARTILLERY = range(3)
ARMS = ("infantry", "cavalry", "artillery")
ARM_LETTER = "ica"
GAME_TYPES = ("capitol", "resistance", "abundance")


#: a rules file that cannot be used: names the file, the entry and the problem (the
#: shared error of data files, which says file, line and field as data too)
RulesError = FileError


@dataclass(frozen=True)
class Rules:
    attack: tuple[int, ...]
    defend: tuple[int, ...]
    move: tuple[int, ...]
    cost: tuple[int, ...]
    #: per arm, the terrain codes it may be recruited on
    recruit_on: tuple[frozenset, ...]
    capitol_bonus: int
    warehouse_bonus: int
    warehouse_cost: int
    treasure: dict
    die: int
    max_group: int
    fire_every: int
    offer_every: int
    complete_delay: int
    foot_targets: int
    round_limit: int
    infantry_loss_divisor: int
    mod: dict
    terrain_mod: tuple[int, ...]
    experience: tuple[int, ...]
    capitols: int
    first_turn: int


def parse_rules(text: str, source: str = "rules.toml") -> Rules:
    data = parse_toml(text, source, RulesError)
    file = DataFile(data, text, source, RulesError)

    def need(field: str, kind: type = int):
        """A whole number (``kind`` float: any number) at ``field``; errors name the line."""
        return file.get(field, int if kind is int else (int, float))

    for section in ("units", "economy", "battle", "modifiers", "missions"):
        if not isinstance(data.get(section), dict):
            raise RulesError(f"{source}: missing [{section}]")
    units = data["units"]
    per: dict[str, list[int]] = {k: [] for k in ("attack", "defend", "move", "cost")}
    recruit_on = []
    for arm in ARMS:
        u = units.get(arm)
        if not isinstance(u, dict):
            raise RulesError(f"{source}: missing [units.{arm}]")
        for k in per:
            v = need(f"units.{arm}.{k}")
            if v < 1:
                raise file.fail(f"units.{arm}.{k}", f"must be at least 1, got {v}")
            per[k].append(v)
        ts = u.get("terrains")
        if not isinstance(ts, list) or not ts:
            raise file.fail(f"units.{arm}.terrains", "must be a non-empty list")
        for t in ts:
            if t not in TERRAINS[2:]:
                raise file.fail(f"units.{arm}.terrains", f"unknown land terrain {shown(t)}")
        recruit_on.append(frozenset(TERRAIN_CODE[t] for t in ts))
    treasure = data["economy"].get("treasure")
    if not isinstance(treasure, dict) or set(treasure) != set(GAME_TYPES):
        raise file.fail("economy.treasure", f"must give {', '.join(GAME_TYPES)}")
    for k in treasure:
        need(f"economy.treasure.{k}")
    m = data["modifiers"]
    mod = {}
    for k in ("min_factor", "majority", "minority", "desperation", "morale_loss", "superior_gap", "superior",
              "tiredness_from", "tiredness_per_round", "tiredness_max", "building", "capitol"):
        mod[k] = need(f"modifiers.{k}")
    for k in ("majority_ratio", "minority_ratio", "desperate_ratio"):
        mod[k] = float(need(f"modifiers.{k}", float))
    if not mod["desperate_ratio"] < mod["minority_ratio"] < 1 < mod["majority_ratio"]:
        raise file.fail("modifiers.desperate_ratio", "ratios must be desperate < minority < 1 < majority")
    tm = m.get("terrain")
    if not isinstance(tm, dict):
        raise file.fail("modifiers.terrain", "missing")
    terrain_mod = [0] * len(TERRAINS)
    for t in TERRAINS[1:]:
        terrain_mod[TERRAIN_CODE[t]] = need(f"modifiers.terrain.{t}")
    exp = m.get("experience")
    if not isinstance(exp, list) or not exp or exp[0] != 0 or any(not isinstance(x, int) for x in exp):
        raise file.fail("modifiers.experience", "must be a list of whole numbers starting at 0")
    gains = [b2 - a for a, b2 in zip(exp, exp[1:])]
    if any(g < 0 for g in gains) or gains != sorted(gains, reverse=True):
        raise file.fail("modifiers.experience", "must grow, most at the first battle and less ever after (2.3.4.4)")
    return Rules(
        attack=tuple(per["attack"]), defend=tuple(per["defend"]), move=tuple(per["move"]), cost=tuple(per["cost"]),
        recruit_on=tuple(recruit_on),
        capitol_bonus=need("economy.capitol_bonus"), warehouse_bonus=need("economy.warehouse_bonus"),
        warehouse_cost=need("economy.warehouse_cost"), treasure=dict(treasure),
        die=need("battle.die"), max_group=need("battle.max_group"), fire_every=need("battle.fire_every"),
        offer_every=need("battle.offer_every"), complete_delay=need("battle.complete_delay"),
        foot_targets=need("battle.foot_targets"), round_limit=need("battle.round_limit"),
        infantry_loss_divisor=need("battle.infantry_loss_divisor"),
        mod=mod, terrain_mod=tuple(terrain_mod), experience=tuple(exp),
        capitols=need("missions.capitols"), first_turn=need("missions.first_turn"),
    )


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    return parse_rules(read_text(RULES_FILE, error=RulesError, name=RULES_FILE.name), RULES_FILE.name)
