"""Invariants the conformance kit checks after every step of every Hy Breasil game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState


def tokens_conserved(s: "HBState", memory: dict) -> str | None:
    """Per nation: units on the map + pool + civilization tokens + the cup token = set size (HB-Q2)."""
    bt = s.battle
    for n in s.nations.values():
        in_battle = bt[3] + bt[4] if bt is not None and bt[1] == n.id else 0
        if n.board != sum(n.units.values()) + in_battle:
            return f"{n.name}: board count {n.board} != units {sum(n.units.values())} + {in_battle} in battle"
        if n.board + n.pool + n.civ + 1 != s.set_size:
            return f"{n.name}: {n.board} on map + {n.pool} pool + {n.civ} civ + 1 cup != {s.set_size}"
        if n.pool < 0 or n.civ < 0 or any(c <= 0 for c in n.units.values()):
            return f"{n.name}: negative or empty counts"
    return None


def one_nation_per_area(s: "HBState", memory: dict) -> str | None:
    """Outside battle, at most one nation in each land area, and ``area_nation`` agrees."""
    sea = s.board.is_sea
    seen: dict[int, int] = {}
    for n in s.nations.values():
        for a in n.units:
            if sea[a]:
                continue
            if a in seen:
                return f"area {s.board.ids[a]} holds two nations ({seen[a]}, {n.id})"
            seen[a] = n.id
            if s.area_nation[a] != n.id:
                return f"area {s.board.ids[a]} is marked for {s.area_nation[a]} but holds {n.name}"
    for a in s.board.land:
        if s.area_nation[a] != EMPTY and a not in seen:
            return f"area {s.board.ids[a]} is marked for nation {s.area_nation[a]} but holds no units"
    occupied = 0
    for n in s.nations.values():
        mask = sum(1 << a for a in n.units if not sea[a])
        if n.land != mask:
            return f"{n.name}: land mask {n.land:#x} != areas held {mask:#x}"
        occupied |= mask
    if s.occupied != occupied:
        return f"occupied mask {s.occupied:#x} != {occupied:#x}"
    return None


def sets_accounted(s: "HBState", memory: dict) -> str | None:
    used = sorted(n.set for n in s.nations.values())
    if len(set(used)) != len(used):
        return f"a token set is used twice: {used}"
    if sorted(used + s.free_sets) != list(range(s.n_sets)):
        return f"sets in use {used} and free {s.free_sets} do not make up all {s.n_sets}"
    return None


def nobody_at_sea_after_turn(s: "HBState", memory: dict) -> str | None:
    """No unit of the nation whose turn just ended is at sea (§6.3, HB-Q18)."""
    last = memory.get("current", EMPTY)
    memory["current"] = s.current
    if last != EMPTY and s.current != last:
        n = s.nations.get(last)
        if n is not None and any(s.board.is_sea[a] for a in n.units):
            return f"{n.name} ended its turn with units at sea"
    return None


def vp_never_decrease(s: "HBState", memory: dict) -> str | None:
    before = memory.get("vp")
    memory["vp"] = list(s.vp)
    if before is not None and any(a < b for a, b in zip(s.vp, before)):
        return f"VP went down from {before} to {s.vp}"
    return None


def nation_limit_kept(s: "HBState", memory: dict) -> str | None:
    """§5.3: outside a cascade (when every nation has an owner) nobody exceeds the limit."""
    if s.redistributing or any(n.owner == EMPTY for n in s.nations.values()):
        return None
    limit = s.nation_limit()
    for p in range(len(s.names)):
        if s.owned_count(p) > limit:
            return f"{s.names[p]} owns {s.owned_count(p)} nations, limit {limit}"
    return None


def cities_conserved(s: "HBState", memory: dict) -> str | None:
    """§9.3: the cities on the map are those built less those removed, never more than
    the one set of city tokens, all on land; no city stands alone (outside the area of a
    battle, where a city fights on)."""
    count = bin(s.cities).count("1")
    if "city_balance" not in memory:  # first look: the cities already there are the baseline
        memory["city_balance"], memory["city_events"] = count, len(s.events)
    start = memory["city_events"]
    memory["city_events"] = len(s.events)
    balance = memory["city_balance"]
    for e in s.events[start:]:
        if e.kind == "city-built":
            balance += 1
        elif e.kind == "city-removed":
            balance -= 1
    memory["city_balance"] = balance
    if count != balance:
        return f"{count} cities on the map, but {balance} built and not removed"
    if count > s.set_size or s.cities & ~s.board.land_mask:
        return f"{count} cities for {s.set_size} city tokens, or a city at sea"
    if s.cities and not s.abilities_on:
        return "cities on the map without the abilities rule"
    battle_area = s.battle[0] if s.battle is not None else EMPTY
    for a in s.board.land:
        if (s.cities >> a) & 1 and s.area_nation[a] == EMPTY and a != battle_area:
            return f"a city stands alone in {s.board.ids[a]}"
    return None


def submitted_never_fight(s: "HBState", memory: dict) -> str | None:
    """§9.2: once submitted, neither nation attacks the other; a submitted nation has a
    living master."""
    for n in s.nations.values():
        if n.master != EMPTY and n.master not in s.nations:
            return f"{n.name} is submitted to a nation no longer in play"
    start = memory.get("events_seen", 0)
    memory["events_seen"] = len(s.events)
    for e in s.events[start:]:
        if e.kind == "battle":
            att, dfd = s.nations.get(e.data["nation"]), s.nations.get(e.data["defender"])
            if att is not None and dfd is not None and (att.master == dfd.id or dfd.master == att.id):
                return f"{att.name} and {dfd.name} fight though one submitted to the other"
    return None


INVARIANTS = (
    tokens_conserved,
    one_nation_per_area,
    sets_accounted,
    nobody_at_sea_after_turn,
    vp_never_decrease,
    nation_limit_kept,
    cities_conserved,
    submitted_never_fight,
)
