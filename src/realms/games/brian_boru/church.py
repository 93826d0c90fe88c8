"""The church step (rulebook, Church step; Monasteries)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Church step"


@STEPS.step("church")
def church(s: "BBState") -> None:
    """First: the sole leader in church discs places a monastery (if it can), takes the
    active town marker and retrieves all its discs (RULINGS BB-Q22: the marker and discs
    even when no monastery can be placed).  Skipped on a tie."""
    hi = max(s.church)
    if hi == 0:
        return
    top = [p for p in range(s.n) if s.church[p] == hi]
    if len(top) > 1:
        s.log("church-tied", "The players with the most church discs are tied: no monastery for the most.", players=top)
        return
    s.then(("monastery", top[0], 1))


def monastery_towns(s: "BBState", p: int) -> list[int]:
    """Towns ``p`` controls without a monastery (RULINGS BB-Q24: never a Viking-held town)."""
    return [t for t in s.controlled(p) if not s.monastery[t]]


@STEPS.step("monastery")
def monastery(s: "BBState", p: int, leader: int) -> Decision | None:
    towns = monastery_towns(s, p)
    if not towns:
        s.log("no-monastery", f"{s.names[p]} controls no town that can take a monastery.", player=p)
        _finish(s, p, leader, False)
        return None
    keys = [s.town_key(t) for t in towns]
    return Decision(p, "bb.monastery", keys, f"{s.names[p]}: place a monastery around a town you control.",
                    SECTION, lambda k: s.town_name(s.town_of(k)))


@STEPS.on_answer("monastery")
def monastery_answer(s: "BBState", player: int, key: str, p: int, leader: int) -> None:
    t = s.town_of(key)
    s.monastery[t] = True
    s.log("monastery", f"{s.names[p]} builds a monastery around {s.town_name(t)}.", player=p, town=int(key))
    _finish(s, p, leader, True)


def _finish(s: "BBState", p: int, leader: int, placed: bool) -> None:
    if leader:
        s.marker = p
        s.log("church-leader", f"{s.names[p]} takes the active town marker and retrieves all church discs.", player=p)
        s.church[p] = 0
    elif placed:
        s.church[p] = 0


@STEPS.step("church_points")
def church_points(s: "BBState") -> None:
    """Second: the players who now have the most discs score a point and retrieve one
    (RULINGS BB-Q23: nobody with no disc)."""
    hi = max(s.church)
    if hi == 0:
        return
    for p in range(s.n):
        if s.church[p] == hi:
            s.score(p, s.tables.rules.church_most_points, "most church discs")
            s.church[p] -= 1


@STEPS.step("church_monasteries")
def church_monasteries(s: "BBState") -> None:
    """Finally, clockwise from the marker holder, every player with at least four discs
    places a monastery if it can and then retrieves all its discs (BB-Q24: a player who
    cannot keeps them)."""
    need = s.tables.rules.monastery_discs
    s.then(*[("monastery", p, 0) for p in s.clockwise(s.marker) if s.church[p] >= need])
