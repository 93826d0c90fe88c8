"""The marriage step and the Princess of Denmark (rulebook, Marriage step; Princess of
Denmark).

The player whose disc is highest on the marriage track takes the marriage card, gains its
benefits and returns to the first space.  If everyone is on the first space the card is
removed from the game.  Then every player gains the reward of the space its disc is on
(the winner, back on space 1, gains nothing) — RULINGS BB-Q11, BB-Q14.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .actions import action_frames
from .steps import STEPS
from .tables import NOBODY

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Marriage step"
PRINCESS_CHOICES = ("military", "trade", "spurn")
PRINCESS_LABELS = {
    "military": "Military support: Viking towns count as yours when claiming regions and for claim tokens",
    "trade": "Establish trade: Viking towns count as yours for the number of regions at the end",
    "spurn": "Spurn her: discard the card and gain 4 points",
}


@STEPS.step("marriage")
def marriage(s: "BBState") -> Decision | None:
    start = s.tables.rules.start_track
    card = s.tables.marriages[s.marriage_card]
    top = max(s.track)
    if top == start:
        s.log("marriage-removed", f"Nobody has climbed the marriage track: {card.name} is removed from the game.",
              card=card.id)
        s.marriage_card = NOBODY
        s.then(("track_rewards",))
        return None
    w = s.track.index(top)  # only the first space may be shared (act_done), so w is unique
    s.log("marriage", f"{s.names[w]}, highest on the marriage track, arranges a marriage with {card.name}.",
          player=w, card=card.id)
    if card.princess:
        return Decision(w, "bb.princess", list(PRINCESS_CHOICES),
                        f"{s.names[w]}: you married the Princess of Denmark — choose her alliance.",
                        "Princess of Denmark", PRINCESS_LABELS.__getitem__)
    s.marriages[w].append(s.marriage_card)
    s.marriage_card = NOBODY
    s.then(*action_frames(w, card.benefits), ("marriage_done", w))
    return None


@STEPS.on_answer("marriage")
def princess_answer(s: "BBState", player: int, key: str) -> None:
    """RULINGS BB-Q16: a kept Princess is a marriage card in front of you; a spurned one is not."""
    if key == "spurn":
        s.log("princess", f"{s.names[player]} spurns the Princess of Denmark.", player=player, side=key)
        s.score(player, s.tables.rules.spurn_points, "spurned the Princess of Denmark")
    else:
        s.marriages[player].append(s.marriage_card)
        s.princess_holder = player
        s.princess_side = key
        what = "military support" if key == "military" else "trade"
        s.log("princess", f"{s.names[player]} allies with the Vikings through the Princess of Denmark: {what}.",
              player=player, side=key)
    s.marriage_card = NOBODY
    s.then(("marriage_done", player))


@STEPS.step("marriage_done")
def marriage_done(s: "BBState", w: int) -> None:
    s.track[w] = s.tables.rules.start_track
    s.then(("track_rewards",))


@STEPS.step("track_rewards")
def track_rewards(s: "BBState") -> None:
    """Each player gains the reward of its track space, clockwise from the marker holder."""
    frames = []
    for p in s.clockwise(s.marker):
        frames.extend(action_frames(p, s.tables.track[s.track[p] - 1]))
    s.then(*frames)
