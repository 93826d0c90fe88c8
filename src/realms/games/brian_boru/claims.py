"""The claim regions step (rulebook, Claim regions step; Monasteries; Vikings and the
Princess of Denmark)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState

BOARD = -1


def region_total(s: "BBState", r: int) -> int:
    """Towns controlled in region ``r`` by anyone, Vikings included; monasteries count two."""
    per, vikings = s.weights(r)
    return sum(per) + vikings


@STEPS.step("claims")
def claims(s: "BBState") -> None:
    b = s.board
    for reg in b.regions:
        r = reg.index
        if not s.claim_up[r] and region_total(s, r) >= reg.threshold:
            s.claim_up[r] = True
            s.log("claim-flipped", f"The claim token of {reg.name} is turned face up.", region=reg.id)
    for reg in b.regions:
        r = reg.index
        if not s.claim_up[r]:
            continue
        per, vikings = s.weights(r)
        hi = max(max(per), vikings)
        if hi == 0:
            continue
        top = [p for p in range(s.n) if per[p] == hi]
        if vikings == hi:
            top.append(BOARD)
        if len(top) > 1:
            continue  # RULINGS BB-Q25: a tie leaves the token where it is
        new = top[0]
        if new == s.claim_holder[r]:
            continue
        s.claim_holder[r] = new
        if new == BOARD:
            s.log("claim-vikings", f"The Vikings control the most towns in {reg.name}: its claim token returns to the board.",
                  region=reg.id)
        else:
            s.log("claim", f"{s.names[new]} controls the most towns in {reg.name} and takes its claim token.",
                  player=new, region=reg.id)
