"""The draft phase (rulebook, Draft phase).

Deal 8 / 6 / 5 cards (3 / 4 / 5 players); with 3 or 4 players the remaining card goes
face down near the board, unseen (RULINGS BB-Q9).  Everyone selects two cards at the same
time — two simultaneous single picks, several pending decisions at once (RULINGS BB-Q102)
— then passes the rest to the left.  Passed only one or two cards, a player puts them
straight into the face-down pile of picks.  Picks may be looked at, never swapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Draft phase"


@STEPS.step("deal")
def deal(s: "BBState") -> None:
    s.phase = "draft"
    s.discard = []          # "Shuffle all the action cards": the pile and the leftover too
    n_cards = len(s.tables.cards) - 1
    deck = s.dice.shuffled(list(range(1, n_cards + 1)))
    k = s.tables.rules.deal[s.n]
    for p in range(s.n):
        s.packets[p] = sorted(deck[p * k:(p + 1) * k])
        s.picks[p] = []
        s.hands[p] = []
    s.leftover = deck[s.n * k:]
    extra = f"; {len(s.leftover)} card{'s' if len(s.leftover) != 1 else ''} left face down" if s.leftover else ""
    s.log("deal", f"Each player is dealt {k} action cards{extra}.", cards=k, leftover=len(s.leftover))


@STEPS.step("pick")
def pick(s: "BBState", k: int) -> list[Decision] | None:
    """The ``k``-th pick (0-based) of a pass, for every player at once.  (Asked again with
    some picks made, as a determinized copy does, the packets not yet picked from decide.)"""
    if k == 0 and max(len(p) for p in s.packets) <= s.tables.rules.straight_to_pile:
        for p in range(s.n):
            s.picks[p].extend(s.packets[p])
            s.packets[p] = []
            s.hands[p] = sorted(s.picks[p])
            s.picks[p] = []
        s.log("draft", f"The draft is over: {len(s.hands[0])} cards in each hand.", hand=len(s.hands[0]))
        return None
    s.then(("pick_done", k))
    from .tricks import card_labeler

    label = s.tables.card_label
    labeler = card_labeler(s)

    return [
        Decision(p, "bb.draft", [label(c) for c in s.packets[p]],
                 f"{s.names[p]}: select a card to keep ({len(s.picks[p])} kept so far).", SECTION, labeler)
        for p in range(s.n)
    ]


@STEPS.on_answer("pick")
def pick_answer(s: "BBState", player: int, key: str, k: int) -> None:
    card = s.tables.card_by_label[key]
    s.packets[player].remove(card)
    s.picks[player].append(card)


@STEPS.step("pick_done")
def pick_done(s: "BBState", k: int) -> None:
    """After the two picks, pass the rest to the left (the next seat clockwise)."""
    if k + 1 < s.tables.rules.pick:
        s.then(("pick", k + 1))
        return
    s.packets = [s.packets[(p - 1) % s.n] for p in range(s.n)]
    s.then(("pick", 0))
