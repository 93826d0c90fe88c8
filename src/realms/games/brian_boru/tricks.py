"""The action phase: tricks (rulebook, Action phase; Tricks).

The holder of the active town marker places it on a town without a disc — the active
town — and leads a card of the town's colour or a royal (white) card.  The others play
any card, clockwise.  The highest card in the town's colour wins, whites counting as that
colour.  Then every player, lowest card first, takes an action: the winner the card's
primary action, the others one of its secondary actions (actions.py).  Tricks go on until
every player has one card left; that card is discarded unseen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .actions import action_frames, describe
from .steps import STEPS
from .tables import NOBODY

if TYPE_CHECKING:
    from .state import BBState

SECTION = "Tricks"


def leader_towns(s: "BBState", p: int) -> list[int]:
    """Free towns the leader may make active (RULINGS BB-Q7): those whose colour it can
    follow with a card of that colour or a white; if none, any free town."""
    free = s.free_towns()
    colours = {s.tables.cards[c].colour for c in s.hands[p]}
    if "W" in colours:
        return free
    ok = [t for t in free if s.board.towns[t].colour in colours]
    return ok or free


def lead_cards(s: "BBState", p: int) -> list[int]:
    """Cards the leader may play: the active town's colour or white (if it holds none —
    only possible when no town could be matched, BB-Q7 — any card)."""
    hand = s.hands[p]
    if s.active == NOBODY:
        return sorted(hand)
    colour = s.board.towns[s.active].colour
    cards = s.tables.cards
    ok = [c for c in hand if cards[c].colour in (colour, "W")]
    return sorted(ok or hand)


def card_text(s: "BBState", key: str) -> str:
    """A card for people: ``"17Y (yellow 17) — wins: … | loses: … or …"``."""
    from .tables import COLOUR_NAMES

    c = s.tables.cards[s.tables.card_by_label[key]]
    lose = " or ".join(describe(g) for g in c.secondary)
    return f"{c.label} ({COLOUR_NAMES[c.colour]} {c.value}) — wins: {describe(c.primary)} | loses: {lose}"


def card_labeler(s: "BBState"):
    return lambda key: card_text(s, key)


@STEPS.step("trick")
def trick(s: "BBState") -> Decision | None:
    if max(len(h) for h in s.hands) <= 1:
        for p in range(s.n):
            s.discard.extend(s.hands[p])
            s.hands[p] = []
        s.leader = NOBODY
        s.log("action-end", "Every player has one card left: those cards are discarded unseen.")
        return None
    s.phase = "action"
    p = s.leader = s.marker
    s.table = []
    s.winner = NOBODY
    towns = leader_towns(s, p)
    if not towns:
        # RULINGS BB-Q7: no town is free — the trick is played without an active town.
        s.active = NOBODY
        s.log("no-town", f"No town is free: {s.names[p]} leads a trick that nobody can win.", leader=p)
        s.then(("lead",))
        return None
    keys = [s.town_key(t) for t in towns]
    return Decision(p, "bb.active-town", keys,
                    f"{s.names[p]}: place the active town marker on a town without a disc.",
                    SECTION, lambda k: s.town_name(s.town_of(k)))


@STEPS.on_answer("trick")
def trick_answer(s: "BBState", player: int, key: str) -> None:
    s.active = s.town_of(key)
    s.log("active-town", f"{s.names[player]} places the active town marker on {s.town_name(s.active)}.",
          player=player, town=int(key))
    s.then(("lead",))


def play(s: "BBState", p: int, card: int) -> None:
    s.hands[p].remove(card)
    s.table.append([p, card, 0])
    s.log("play", f"{s.names[p]} plays {s.tables.card_label(card)}.", player=p, card=s.tables.card_label(card))


@STEPS.step("lead")
def lead(s: "BBState") -> Decision | None:
    p = s.leader
    cards = lead_cards(s, p)
    keys = [s.tables.card_label(c) for c in cards]
    return Decision(p, "bb.lead", keys,
                    f"{s.names[p]}: lead a card of the active town's colour or a royal (white) card.",
                    SECTION, card_labeler(s))


@STEPS.on_answer("lead")
def lead_answer(s: "BBState", player: int, key: str) -> None:
    play(s, player, s.tables.card_by_label[key])
    s.then(("follow", 1))


@STEPS.step("follow")
def follow(s: "BBState", i: int) -> Decision | None:
    if i >= s.n:
        s.then(("resolve",))
        return None
    p = (s.leader + i) % s.n
    keys = [s.tables.card_label(c) for c in sorted(s.hands[p])]
    return Decision(p, "bb.play", keys, f"{s.names[p]}: play any card.", SECTION, card_labeler(s))


@STEPS.on_answer("follow")
def follow_answer(s: "BBState", player: int, key: str, i: int) -> None:
    play(s, player, s.tables.card_by_label[key])
    s.then(("follow", i + 1))


def trick_winner(s: "BBState") -> int:
    """The player with the highest card in the active town's colour, whites wild; nobody
    when no card matches or there is no active town (BB-Q7)."""
    if s.active == NOBODY:
        return NOBODY
    colour = s.board.towns[s.active].colour
    cards = s.tables.cards
    best, who = 0, NOBODY
    for p, c, _ in s.table:
        if cards[c].colour in (colour, "W") and c > best:
            best, who = c, p
    return who


@STEPS.step("resolve")
def resolve(s: "BBState") -> None:
    s.winner = trick_winner(s)
    if s.winner != NOBODY:
        s.log("trick-won", f"{s.names[s.winner]} wins the trick.", player=s.winner)
    else:
        s.log("trick-lost", "Nobody wins the trick.")
    order = sorted(s.table, key=lambda e: e[1])
    s.then(*[("act", p, c) for p, c, _ in order], ("trick_end",))


@STEPS.step("act")
def act(s: "BBState", p: int, card: int) -> Decision | None:
    """The winner takes the primary action; a loser chooses one secondary action."""
    c = s.tables.cards[card]
    if p == s.winner:
        s.then(*action_frames(p, c.primary), ("act_done", p, card))
        return None
    keys = [str(i + 1) for i in range(len(c.secondary))]

    def label(key: str) -> str:
        return describe(c.secondary[int(key) - 1])

    return Decision(p, "bb.secondary", keys,
                    f"{s.names[p]}: you lost the trick with {c.label}; choose a secondary action.",
                    "Actions", label)


@STEPS.on_answer("act")
def act_answer(s: "BBState", player: int, key: str, p: int, card: int) -> None:
    groups = s.tables.cards[card].secondary[int(key) - 1]
    s.then(*action_frames(p, groups), ("act_done", p, card))


@STEPS.step("act_done")
def act_done(s: "BBState", p: int, card: int) -> None:
    """After the action is fully resolved: the marriage-track collision rule, then the card
    goes to the shared discard pile."""
    top = s.track[p]
    start = s.tables.rules.start_track
    if top > start and any(q != p and s.track[q] == top for q in range(s.n)):
        pos = top
        while pos > start and any(q != p and s.track[q] == pos for q in range(s.n)):
            pos -= 1
        s.track[p] = pos
        s.log("track-collision", f"{s.names[p]} shares a marriage track space and moves back down to space {pos}.",
              player=p, space=pos)
    for entry in s.table:
        if entry[1] == card:
            entry[2] = 1
    s.discard.append(card)


@STEPS.step("trick_end")
def trick_end(s: "BBState") -> None:
    """The trick is over; the holder of the marker begins the next one (BB-Q8: when nobody
    claimed the town, the marker returns to the player who placed it)."""
    s.active = NOBODY
    s.table = []
    s.winner = NOBODY
    s.then(("trick",))
