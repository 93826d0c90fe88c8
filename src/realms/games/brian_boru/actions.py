"""Actions and their symbols (rulebook, Actions; Marriage step benefits; quick reference).

An action is a tuple of symbol groups ``(symbol, argument, count)`` resolved left to
right, each group one frame ``("sym", player, symbol, argument, count)``.  The same
frames resolve card actions, marriage cards and marriage-track rewards.

Step symbols (church, raider, marriage) take their free steps, then offer to spend two
coins per extra step — one offer per group of equal symbols (RULINGS BB-Q2), made after
the free steps so that a player sees where it landed (BB-Q5, the action phase example).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from realms.core.decision import Decision

from .steps import STEPS
from .tables import NOBODY, Group

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Actions"


_WORDS = {
    "town": ("claim the active town", "claim the active town"),
    "coin": ("take a coin", "take {n} coins"),
    "pay": ("pay a coin", "pay {n} coins"),
    "renown": ("take a renown token", "take {n} renown tokens"),
    "church": ("place a church disc", "place {n} church discs"),
    "raider": ("take a Viking raider", "take {n} Viking raiders"),
    "marriage": ("climb a marriage track space", "climb {n} marriage track spaces"),
    "expand": ("you may expand for 5 coins", "you may expand for 5 coins"),
    "unviking": ("remove a Viking control token", "remove a Viking control token"),
    "any-town": ("a disc in any empty town", "a disc in any empty town"),
    "points": ("{a} points", "{a}×{n} points"),
    "region-town": ("a disc in an empty town of a region", "a disc in an empty town of a region"),
}


def describe(groups: tuple[Group, ...]) -> str:
    """An action in words: ``"take 3 coins, you may expand for 5 coins"``."""
    parts = []
    for name, arg, count in groups:
        one, many = _WORDS[name]
        parts.append((one if count == 1 else many).format(n=count, a=arg))
    return ", ".join(parts)


def action_frames(p: int, groups: tuple[Group, ...]) -> list[tuple]:
    return [("sym", p, g[0], g[1], g[2]) for g in groups]


def expand_targets(s: "BBState", p: int) -> list[int]:
    """Towns ``p`` may expand into: no disc, joined by a road to a town ``p`` controls
    (not a Viking-held one), and not the active town while a trick is resolved (BB-Q6)."""
    adj = s.board.adj
    owner = s.owner
    out: set[int] = set()
    for t in s.controlled(p):
        for u in adj[t]:
            if owner[u] == NOBODY and u != s.active:
                out.add(u)
    return sorted(out)


def free_for_placing(s: "BBState", region: int | None = None) -> list[int]:
    """Towns without a disc (in ``region``), never the active town of a trick."""
    towns = s.free_towns() if region is None else [t for t in s.board.region_towns[region] if s.owner[t] == NOBODY]
    return [t for t in towns if t != s.active]


def spend_decision(s: "BBState", p: int, most: int, what: str, name: str, arg: int, count: int) -> Decision | None:
    """Offer 0..``most`` extra steps at ``step_cost`` coins each (None if nothing to offer)."""
    cost = s.tables.rules.step_cost
    most = min(most, s.coins[p] // cost)
    if most <= 0:
        return None
    keys = [str(i) for i in range(most + 1)]
    return Decision(p, "bb.spend", keys,
                    f"{s.names[p]}: spend {cost} coins for each extra {what} (you have {s.coins[p]} coins)?",
                    SECTION, lambda k: f"{k} extra ({int(k) * cost} coins)")


# -- resolving each symbol ----------------------------------------------------------------
def _town(s: "BBState", p: int, arg: int, count: int) -> None:
    """Take the active town marker and place a disc on the active town."""
    t = s.active
    s.marker = p
    if t == NOBODY or s.owner[t] != NOBODY:  # cannot happen under BB-Q6/BB-Q7; kept safe
        s.log("no-effect", f"{s.names[p]} takes the active town marker but the town cannot be claimed.", player=p)
        return
    s.place(p, t, "won the trick")


def _coin(s: "BBState", p: int, arg: int, count: int) -> None:
    s.coins[p] += count
    s.log("coins", f"{s.names[p]} takes {count} coin{'s' if count > 1 else ''}.", player=p, coins=count)


def _pay(s: "BBState", p: int, arg: int, count: int) -> None:
    """Return a coin; with none, lose two points; with no points either, nothing
    (RULINGS BB-Q4: each symbol separately, scores never go below zero)."""
    penalty = s.tables.rules.pay_penalty
    for _ in range(count):
        if s.coins[p] > 0:
            s.coins[p] -= 1
            s.log("pay", f"{s.names[p]} returns a coin.", player=p, coins=1)
        elif s.points[p] > 0:
            lost = min(penalty, s.points[p])
            s.points[p] -= lost
            s.log("pay", f"{s.names[p]} has no coin to return and loses {lost} point{'s' if lost > 1 else ''}.",
                  player=p, points=lost)
        else:
            s.log("no-effect", f"{s.names[p]} has neither coins nor points to pay.", player=p)


def _renown(s: "BBState", p: int, arg: int, count: int) -> None:
    s.renown[p] += count
    s.log("renown", f"{s.names[p]} takes {count} renown token{'s' if count > 1 else ''}.", player=p, renown=count)


def _points(s: "BBState", p: int, arg: int, count: int) -> None:
    s.score(p, arg * count, "benefit")


def _church(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    s.church[p] += count
    s.log("church", f"{s.names[p]} places {count} disc{'s' if count > 1 else ''} in the church area.",
          player=p, discs=count)
    return spend_decision(s, p, 10**6, "church disc", "church", arg, count)


def _raider(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    take = min(count, s.battle)
    if take == 0:
        s.log("no-effect", f"{s.names[p]} finds no Viking raider left in the battle area.", player=p)
        return None
    s.battle -= take
    s.raiders[p] += take
    s.log("raiders", f"{s.names[p]} takes {take} Viking raider{'s' if take > 1 else ''}.", player=p, raiders=take)
    return spend_decision(s, p, s.battle, "Viking raider", "raider", arg, count)


def _marriage(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    top = s.tables.top
    up = min(count, top - s.track[p])
    if up <= 0:
        s.log("no-effect", f"{s.names[p]} is already on the top space of the marriage track.", player=p)
        return None
    s.track[p] += up
    s.log("track", f"{s.names[p]} moves up the marriage track to space {s.track[p]}.", player=p, space=s.track[p])
    return spend_decision(s, p, top - s.track[p], "marriage track space", "marriage", arg, count)


def _expand(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    cost = s.tables.rules.expand_cost
    if s.coins[p] < cost:
        return None
    targets = expand_targets(s, p)
    if not targets:
        return None
    keys = ["none"] + [s.town_key(t) for t in targets]
    return Decision(p, "bb.expand", keys,
                    f"{s.names[p]}: spend {cost} coins to expand along a road into a town?",
                    SECTION, lambda k: "Do not expand" if k == "none" else f"Expand into {s.town_name(s.town_of(k))}")


def _unviking(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    towns = [t for t, v in enumerate(s.viking) if v]
    if not towns:
        s.log("no-effect", f"{s.names[p]} finds no Viking control token to remove.", player=p)
        return None
    keys = [s.town_key(t) for t in towns]
    return Decision(p, "bb.unviking", keys, f"{s.names[p]}: remove which Viking control token?", SECTION,
                    lambda k: f"{s.town_name(s.town_of(k))}, {s.names[s.owner[s.town_of(k)]]}'s disc beneath")


def _place_choice(s: "BBState", p: int, towns: list[int], why: str, section: str) -> Decision | None:
    if not towns:
        s.log("no-effect", f"{s.names[p]} finds no town without a disc ({why}).", player=p)
        return None
    keys = [s.town_key(t) for t in towns]
    return Decision(p, "bb.place-town", keys, f"{s.names[p]}: place a disc on a town without a disc ({why}).",
                    section, lambda k: s.town_name(s.town_of(k)))


def _any_town(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    return _place_choice(s, p, free_for_placing(s), "a disc in any town", "Marriage step")


def _region_town(s: "BBState", p: int, arg: int, count: int) -> Decision | None:
    name = s.board.regions[arg].name
    return _place_choice(s, p, free_for_placing(s, arg), f"a disc in {name}", "Marriage step")


RESOLVE: dict[str, Callable] = {
    "town": _town, "coin": _coin, "pay": _pay, "renown": _renown, "points": _points,
    "church": _church, "raider": _raider, "marriage": _marriage, "expand": _expand,
    "unviking": _unviking, "any-town": _any_town, "region-town": _region_town,
}


@STEPS.step("sym")
def sym(s: "BBState", p: int, name: str, arg: int, count: int) -> Decision | None:
    return RESOLVE[name](s, p, arg, count)


# -- answers -----------------------------------------------------------------------------
def _spend_answer(s: "BBState", p: int, key: str, name: str) -> None:
    extra = int(key)
    if not extra:
        return
    cost = extra * s.tables.rules.step_cost
    s.coins[p] -= cost
    if name == "church":
        s.church[p] += extra
        s.log("church", f"{s.names[p]} spends {cost} coins for {extra} more church disc{'s' if extra > 1 else ''}.",
              player=p, discs=extra)
    elif name == "raider":
        s.battle -= extra
        s.raiders[p] += extra
        s.log("raiders", f"{s.names[p]} spends {cost} coins for {extra} more Viking raider{'s' if extra > 1 else ''}.",
              player=p, raiders=extra)
    else:
        s.track[p] += extra
        s.log("track", f"{s.names[p]} spends {cost} coins to climb to space {s.track[p]} of the marriage track.",
              player=p, space=s.track[p])


def _unviking_answer(s: "BBState", p: int, key: str, arg: int, count: int) -> None:
    """BB-Q20: the actor chooses; the town goes back to whoever's disc is revealed."""
    t = s.town_of(key)
    s.viking[t] = False
    s.log("unviking", f"{s.names[p]} removes the Viking control token from {s.town_name(t)}: "
          f"{s.names[s.owner[t]]} controls it again.", player=p, town=int(key), owner=s.owner[t])


@STEPS.on_answer("sym")
def sym_answer(s: "BBState", player: int, key: str, p: int, name: str, arg: int, count: int) -> None:
    if name in ("church", "raider", "marriage"):
        _spend_answer(s, p, key, name)
    elif name == "expand":
        if key != "none":
            s.coins[p] -= s.tables.rules.expand_cost
            s.place(p, s.town_of(key), f"expanded along a road for {s.tables.rules.expand_cost} coins")
    elif name == "unviking":
        _unviking_answer(s, p, key, arg, count)
    else:  # any-town, region-town
        s.place(p, s.town_of(key), "a disc in any town" if name == "any-town"
                else f"a disc in {s.board.regions[arg].name}")
