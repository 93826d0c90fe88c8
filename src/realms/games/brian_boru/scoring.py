"""Game end and scoring (rulebook, Game end; Scoring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import STEPS
from .tables import NOBODY

if TYPE_CHECKING:
    from .state import BBState



@STEPS.step("round_end")
def round_end(s: "BBState") -> None:
    """If there are no marriage cards left at the end of the upkeep phase, the game is over."""
    if s.marriage_deck:
        s.then(("round",))
        return
    final_scoring(s)
    s.over = True
    s.phase = "over"
    res = s.result()
    who = " and ".join(res["winners"])
    verb = "wins" if len(res["winners"]) == 1 else "share the victory"
    s.log("game-over", f"The game ends after round {s.round}: {who} {verb}.", winners=res["winners"])


def regions_controlled(s: "BBState", p: int) -> int:
    """Different regions where ``p`` controls a town; with the Princess on the establish
    trade side, Viking-held towns count as ``p``'s (rulebook, Scoring)."""
    trade = s.princess_side == "trade" and s.princess_holder == p
    regions = set()
    for t, o in enumerate(s.owner):
        if o == NOBODY:
            continue
        if (o == p and not s.viking[t]) or (trade and s.viking[t]):
            regions.add(s.board.towns[t].region)
    return len(regions)


def board_token_shares(s: "BBState", r: int) -> list[int]:
    """The players who score half a face-up claim token left on the board in region ``r``:
    "all players tied for the most towns in that region" (rulebook, Scoring).  The most is
    counted among the players only, the Vikings not being a player; one player or several,
    never one without a town there (RULINGS BB-Q26).  Towns count as in the claim step:
    monasteries two, Viking towns the military ally's (BB-Q103, BB-Q15)."""
    per, _ = s.weights(r)
    top = max(per)
    return [p for p in range(s.n) if per[p] == top] if top > 0 else []


def final_scoring(s: "BBState") -> None:
    """Most coins (sole), the active town marker, renown, claim tokens in front of you,
    half of each face-up token left on the board for the players with the most towns
    there (:func:`board_token_shares`), and the regions table."""
    r = s.tables.rules
    b = s.board
    parts: dict[str, dict[str, int]] = {name: {} for name in s.names}

    def add(p: int, what: str, amount: int) -> None:
        if amount:
            parts[s.names[p]][what] = parts[s.names[p]].get(what, 0) + amount
            s.score(p, amount, what)

    hi = max(s.coins)
    rich = [p for p in range(s.n) if s.coins[p] == hi]
    if hi > 0 and len(rich) == 1:
        add(rich[0], "most coins", r.most_coins)
    if s.marker != NOBODY:
        add(s.marker, "active town marker", r.marker)
    for p in range(s.n):
        add(p, "renown", s.renown[p] * r.per_renown)
    for reg in b.regions:
        h = s.claim_holder[reg.index]
        if h >= 0:
            add(h, f"claim token of {reg.name}", reg.points)
        elif s.claim_up[reg.index]:
            for p in board_token_shares(s, reg.index):
                add(p, f"half the claim token of {reg.name}", reg.points // 2)
    for p in range(s.n):
        k = regions_controlled(s, p)
        add(p, f"towns in {k} regions", b.regions_points[k])
    s.final = parts
