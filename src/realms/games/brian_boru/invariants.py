"""Invariants the conformance kit checks after every step of every Brian Boru game."""

from __future__ import annotations
from .tables import NOBODY

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BBState



def cards_conserved(s: "BBState", memory: dict) -> str | None:
    """Every action card is in exactly one place: a hand, picks, a packet, the leftover,
    the table (unresolved) or the discard pile — or, before the first deal, nowhere."""
    places = [*s.hands, *s.picks, *s.packets, s.leftover, s.discard,
              [c for _, c, done in s.table if not done]]
    cards = [c for place in places for c in place]
    if not cards:
        return None
    n = len(s.tables.cards) - 1
    if sorted(cards) != list(range(1, n + 1)):
        return f"cards in play are not 1..{n} exactly once: {sorted(cards)}"
    return None


def hands_even(s: "BBState", memory: dict) -> str | None:
    """All players hold as many cards (picks) as each other, but for cards played to the
    current trick; packets shrink together in the draft."""
    if s.phase == "draft":
        if len({len(p) for p in s.packets}) > 2 or len({len(p) for p in s.picks}) > 3:
            return f"uneven draft: packets {[len(p) for p in s.packets]}, picks {[len(p) for p in s.picks]}"
        return None
    played = {p for p, _, _ in s.table}
    sizes = {len(h) + (1 if p in played else 0) for p, h in enumerate(s.hands)}
    if len(sizes) > 1:
        return f"uneven hands {[len(h) for h in s.hands]} with {len(s.table)} cards on the table"
    return None


def counts_never_negative(s: "BBState", memory: dict) -> str | None:
    for what in ("coins", "renown", "points", "raiders", "church"):
        values = getattr(s, what)
        if min(values) < 0:
            return f"negative {what}: {values}"
    if s.battle < 0:
        return f"negative battle area {s.battle}"
    return None


def track_spaces(s: "BBState", memory: dict) -> str | None:
    """Discs stay on the track; outside an action, only the first space is shared."""
    top = s.tables.top
    if not all(1 <= x <= top for x in s.track):
        return f"marriage track off the board: {s.track}"
    waiting = s.waiting_frame()
    if waiting is not None and waiting[0] in ("sym", "act_done"):
        return None
    spaces = [x for x in s.track if x > 1]
    if len(spaces) != len(set(spaces)):
        return f"two discs share a marriage track space above the first: {s.track}"
    return None


def tokens_on_discs(s: "BBState", memory: dict) -> str | None:
    """Viking control tokens and monasteries stand only on towns with a disc."""
    owner = s.owner
    for t in [i for i, v in enumerate(s.viking) if v] + [i for i, m in enumerate(s.monastery) if m]:
        if owner[t] == NOBODY:
            return f"town {s.board.towns[t].id} has a token but no disc"
    if max(owner) >= s.n or min(owner) < NOBODY:
        return f"a town has an unknown owner: {owner}"
    return None


def claims_consistent(s: "BBState", memory: dict) -> str | None:
    """A claim token in front of a player is face up; face-up tokens never turn back."""
    for r, h in enumerate(s.claim_holder):
        if h >= 0 and not s.claim_up[r]:
            return f"region {s.board.regions[r].id} held face down by {h}"
    before = memory.get("claim_up")
    memory["claim_up"] = list(s.claim_up)
    if before is not None and any(b and not a for a, b in zip(s.claim_up, before)):
        return "a face-up claim token was turned face down"
    return None


def discs_never_leave(s: "BBState", memory: dict) -> str | None:
    """Discs on towns are never removed (Vikings cover them; 13W reveals them)."""
    before = memory.get("owner")
    if before == s.owner:
        return None
    memory["owner"] = list(s.owner)
    if before is not None and any(b != NOBODY and a != b for a, b in zip(s.owner, before)):
        return "a disc left its town"
    return None


INVARIANTS = (
    cards_conserved,
    hands_even,
    counts_never_negative,
    track_spaces,
    tokens_on_discs,
    claims_consistent,
    discs_never_leave,
)
