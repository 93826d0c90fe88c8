"""The battle step and the spoils of battle (rulebook, Battle step; Spoils of battle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .steps import STEPS
from .tables import NOBODY

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Battle step"


@STEPS.step("battle")
def battle(s: "BBState") -> None:
    """With raiders in the battle area, every player with the fewest raiders loses a town
    to the Vikings.  The player with the most raiders picks the town — unless most is
    tied, then each loser picks its own (RULINGS BB-Q18, BB-Q19)."""
    if s.battle == 0:
        s.log("repelled", "No Viking raiders are left in the battle area: the Vikings have been repelled.")
        return
    lo, hi = min(s.raiders), max(s.raiders)
    losers = [p for p in s.clockwise(s.marker) if s.raiders[p] == lo]
    most = [p for p in range(s.n) if s.raiders[p] == hi]
    chooser = most[0] if len(most) == 1 else NOBODY
    names = ", ".join(s.names[p] for p in losers)
    s.log("incursion", f"Viking incursion: {names} (fewest raiders, {lo}) will lose a town.",
          losers=losers, chooser=chooser, battle=s.battle)
    s.then(*[("lose_town", p, chooser if chooser != NOBODY else p) for p in losers], ("battle_clear",))


@STEPS.step("lose_town")
def lose_town(s: "BBState", loser: int, chooser: int) -> Decision | None:
    towns = s.controlled(loser)
    if not towns:
        s.log("no-effect", f"{s.names[loser]} controls no town to lose.", player=loser)
        return None
    keys = [s.town_key(t) for t in towns]
    whose = "your" if loser == chooser else f"{s.names[loser]}'s"
    return Decision(chooser, "bb.lose-town", keys,
                    f"{s.names[chooser]}: choose which of {whose} towns the Vikings take.",
                    SECTION, lambda k: s.town_name(s.town_of(k)))


@STEPS.on_answer("lose_town")
def lose_town_answer(s: "BBState", player: int, key: str, loser: int, chooser: int) -> None:
    t = s.town_of(key)
    s.viking[t] = True
    s.log("town-lost", f"The Vikings take {s.town_name(t)} from {s.names[loser]}.",
          player=loser, town=int(key), chooser=chooser)


@STEPS.step("battle_clear")
def battle_clear(s: "BBState") -> None:
    s.battle = 0


@STEPS.step("spoils")
def spoils(s: "BBState") -> None:
    """First reward: a sole leader in raiders gains a renown token, scores one point per
    renown token and returns all its raiders (skipped on a tie).  Second: the players who
    now have the most raiders score one point each and return one raider.  Nobody with
    no raiders is rewarded (RULINGS BB-Q21).  Raiders not returned carry over."""
    r = s.tables.rules
    hi = max(s.raiders)
    if hi > 0:
        top = [p for p in range(s.n) if s.raiders[p] == hi]
        if len(top) == 1:
            p = top[0]
            s.renown[p] += 1
            s.log("spoils", f"{s.names[p]} has the most Viking raiders ({hi}): a renown token, "
                  f"{s.renown[p]} points for renown, and the raiders return to the supply.", player=p)
            s.score(p, s.renown[p] * r.per_renown, "spoils of battle")
            s.raiders[p] = 0
        else:
            s.log("spoils-tied", "The players with the most raiders are tied: no renown this round.", players=top)
    hi = max(s.raiders)
    if hi > 0:
        for p in range(s.n):
            if s.raiders[p] == hi:
                s.score(p, r.battle_most_points, "most Viking raiders")
                s.raiders[p] -= 1
