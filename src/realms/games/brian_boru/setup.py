"""Setup (rulebook, Setup): coins, renown, discs on the marriage and score tracks, the
marriage deck with the Princess of Denmark last (the German Dänische Prinzessin removed:
RULINGS BB-Q13), the Viking deck, the starting player,
then the first placements: one disc each, clockwise, never in a region that already holds
another player's disc (RULINGS BB-Q29)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Setup"


@STEPS.step("setup")
def setup(s: "BBState") -> None:
    t = s.tables
    k = t.rules.marriage_cards[s.n]
    # "Remove the Dänische Prinzessin card from the game. Shuffle the other marriage cards.
    # Then, place [k] cards face down on top of the Princess of Denmark card, and remove
    # the remaining cards from the game" (t.ordinary leaves out both princesses).
    s.marriage_deck = [t.princess] + s.dice.shuffled(list(t.ordinary))[:k]
    s.viking_deck = s.dice.shuffled(list(t.vikings))
    s.first_player = s.marker = s.dice.below(s.n)
    s.log("setup", f"{s.names[s.first_player]} is the starting player and takes the active town marker; "
          f"the game lasts {s.rounds} rounds.", first=s.first_player, rounds=s.rounds)
    s.then(*[("first_town", (s.first_player + i) % s.n) for i in range(s.n)], ("round",))


def first_town_options(s: "BBState", p: int) -> list[int]:
    """Towns ``p`` may take first: empty, in a region with no other player's disc."""
    taken = {s.board.towns[t].region for t, o in enumerate(s.owner) if o not in (-1, p)}
    return [t for t in s.free_towns() if s.board.towns[t].region not in taken]


@STEPS.step("first_town")
def first_town(s: "BBState", p: int) -> Decision:
    keys = [s.town_key(t) for t in first_town_options(s, p)]
    return Decision(p, "bb.first-town", keys,
                    f"{s.names[p]}: place your first disc on a town (not in a region with another player's disc).",
                    SECTION, lambda k: s.town_name(s.town_of(k)))


@STEPS.on_answer("first_town")
def first_town_answer(s: "BBState", player: int, key: str, p: int) -> None:
    s.place(p, s.town_of(key), "first placement")
