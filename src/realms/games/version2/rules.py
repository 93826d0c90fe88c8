"""The numbers of version², read from ``data/rules.toml`` and validated at load.

Units (I.3), the economy (I.1, 2.3.1, 2.3.5), the battle's rhythm (2.3.4.2) and the
modifiers (2.3.4.4, whose numbers the rulebook does not give: V2-Q28) live in one data
file; a bad file raises :class:`RulesError` naming the file, the entry and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .board import TERRAIN_CODE, TERRAINS

RULES_FILE = Path(__file__).parent / "data" / "rules.toml"
INFANTRY, CAVALRY, ARTILLERY = range(3)
ARMS = ("infantry", "cavalry", "artillery")
ARM_LETTER = "ica"
GAME_TYPES = ("capitol", "resistance", "abundance")


class RulesError(ValueError):
    """A rules file that cannot be used; names the file, the entry and the problem."""


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


def _need(table: dict, key: str, where: str, kind=int):
    if key not in table:
        raise RulesError(f"{where}: missing {key!r}")
    v = table[key]
    ok = isinstance(v, kind) and not isinstance(v, bool) if kind is int else isinstance(v, (int, float)) and not isinstance(v, bool)
    if not ok:
        raise RulesError(f"{where}: {key!r} must be a {'whole number' if kind is int else 'number'}, got {v!r}")
    return v


def parse_rules(text: str, source: str = "rules.toml") -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{source}: not valid TOML ({exc})") from None
    for section in ("units", "economy", "battle", "modifiers", "missions"):
        if not isinstance(data.get(section), dict):
            raise RulesError(f"{source}: missing [{section}]")
    units = data["units"]
    per = {k: [] for k in ("attack", "defend", "move", "cost")}
    recruit_on = []
    for arm in ARMS:
        u = units.get(arm)
        if not isinstance(u, dict):
            raise RulesError(f"{source}: missing [units.{arm}]")
        for k in per:
            v = _need(u, k, f"{source}: [units.{arm}]")
            if v < 1:
                raise RulesError(f"{source}: [units.{arm}] {k} must be at least 1, got {v}")
            per[k].append(v)
        ts = u.get("terrains")
        if not isinstance(ts, list) or not ts:
            raise RulesError(f"{source}: [units.{arm}] terrains must be a non-empty list")
        for t in ts:
            if t not in TERRAINS[2:]:
                raise RulesError(f"{source}: [units.{arm}] unknown land terrain {t!r}")
        recruit_on.append(frozenset(TERRAIN_CODE[t] for t in ts))
    eco = data["economy"]
    w = f"{source}: [economy]"
    treasure = eco.get("treasure")
    if not isinstance(treasure, dict) or set(treasure) != set(GAME_TYPES):
        raise RulesError(f"{w} treasure must give {', '.join(GAME_TYPES)}")
    for k, v in treasure.items():
        _need(treasure, k, f"{w} treasure")
    b = data["battle"]
    wb = f"{source}: [battle]"
    m = data["modifiers"]
    wm = f"{source}: [modifiers]"
    mod = {}
    for k in ("min_factor", "majority", "minority", "desperation", "morale_loss", "superior_gap", "superior",
              "tiredness_from", "tiredness_per_round", "tiredness_max", "building", "capitol"):
        mod[k] = _need(m, k, wm)
    for k in ("majority_ratio", "minority_ratio", "desperate_ratio"):
        mod[k] = float(_need(m, k, wm, float))
    if not mod["desperate_ratio"] < mod["minority_ratio"] < 1 < mod["majority_ratio"]:
        raise RulesError(f"{wm}: ratios must be desperate < minority < 1 < majority")
    tm = m.get("terrain")
    if not isinstance(tm, dict):
        raise RulesError(f"{wm}: missing [modifiers.terrain]")
    terrain_mod = [0] * len(TERRAINS)
    for t in TERRAINS[1:]:
        terrain_mod[TERRAIN_CODE[t]] = _need(tm, t, f"{wm}.terrain")
    exp = m.get("experience")
    if not isinstance(exp, list) or not exp or exp[0] != 0 or any(not isinstance(x, int) for x in exp):
        raise RulesError(f"{wm}: experience must be a list of whole numbers starting at 0")
    gains = [b2 - a for a, b2 in zip(exp, exp[1:])]
    if any(g < 0 for g in gains) or gains != sorted(gains, reverse=True):
        raise RulesError(f"{wm}: experience must grow, most at the first battle and less ever after (2.3.4.4)")
    mi = data["missions"]
    wi = f"{source}: [missions]"
    return Rules(
        attack=tuple(per["attack"]), defend=tuple(per["defend"]), move=tuple(per["move"]), cost=tuple(per["cost"]),
        recruit_on=tuple(recruit_on),
        capitol_bonus=_need(eco, "capitol_bonus", w), warehouse_bonus=_need(eco, "warehouse_bonus", w),
        warehouse_cost=_need(eco, "warehouse_cost", w), treasure=dict(treasure),
        die=_need(b, "die", wb), max_group=_need(b, "max_group", wb), fire_every=_need(b, "fire_every", wb),
        offer_every=_need(b, "offer_every", wb), complete_delay=_need(b, "complete_delay", wb),
        foot_targets=_need(b, "foot_targets", wb), round_limit=_need(b, "round_limit", wb),
        infantry_loss_divisor=_need(b, "infantry_loss_divisor", wb),
        mod=mod, terrain_mod=tuple(terrain_mod), experience=tuple(exp),
        capitols=_need(mi, "capitols", wi),
        first_turn=_need(mi, "first_turn", wi),
    )


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    try:
        text = RULES_FILE.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"{RULES_FILE.name}: cannot read ({exc.strerror})") from None
    return parse_rules(text, RULES_FILE.name)
