"""What a player cannot know, dealt anew consistently with what it has seen (for search).

A player knows its own cards, every card played face up, and each draft packet as it saw
it (Draft phase: packets pass to the left, so a packet it saw and passed on is later held
by the players to its left, each keeping two cards from it).  Everything else about the
current deal is unknown: which cards the others kept before the packet reached it, which
of the cards it passed each of them kept, the face-down leftover card.  The faces of the
marriage deck (but for the Princess of Denmark at its bottom) and the order of the Viking
deck are unknown too.

A packet's history is read from the draft answers of this deal: at stage ``j`` the packet
dealt to seat ``pk`` is held by seat ``pk + j`` (mod n), who keeps ``pick`` cards from it.
Cards are grouped by what the player knows of them — those it never saw, and, for each
packet, those it saw and passed on (until it sees that packet again) — and each group is
dealt afresh into the same places (the same number of cards per player, stage and packet,
the leftover), a card seen played by a seat always into that seat's places.

Not used: what a leader's choice of town or card says about its hand (a lead off the
active town's colour shows it held none of that colour).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.dice import Dice
from realms.core.engine import copy_lists

if TYPE_CHECKING:
    from .state import BBState

#: decisions whose options come from a hand or a packet: asked anew after a re-deal
HAND_KINDS = frozenset({"bb.draft", "bb.lead", "bb.play", "bb.active-town"})
#: re-deals tried before giving up on one that leaves every awaited player a choice
TRIES = 1000


def redeal(s: "BBState", me: int | None, dice: Dice) -> None:
    """Re-deal in ``s`` what seat ``me`` (None: a spectator) cannot know, with ``dice``."""
    if me is not None and not 0 <= me < s.n:
        me = None
    _decks(s, dice)
    if not (any(s.packets) or any(s.picks) or any(s.hands)):
        _unseen_piles(s, dice)
        return
    saved = [list(s.answers), copy_lists(s.hands), copy_lists(s.picks), copy_lists(s.packets), list(s.leftover)]
    for _ in range(TRIES):
        _current_deal(s, me, dice)
        if _still_asked(s, me):
            break
        s.answers, s.hands, s.picks, s.packets, s.leftover = (
            list(saved[0]), copy_lists(saved[1]), copy_lists(saved[2]), copy_lists(saved[3]), list(saved[4]))
    else:
        raise RuntimeError(f"brian-boru: no re-deal in {TRIES} left every awaited player a choice")
    if any(d.kind in HAND_KINDS and d.player != me for d in s.pending()):
        s.ask_again()


def _still_asked(s: "BBState", me: int | None) -> bool:
    """Every player awaited still has two options or more: the player sees that the game
    waits for them, which a single option would not (the engine applies it at once)."""
    from .tricks import lead_cards, leader_towns

    for d in s.pending():
        if d.player == me or d.kind not in HAND_KINDS:
            continue
        p = d.player
        count = {"bb.draft": lambda: len(s.packets[p]), "bb.play": lambda: len(s.hands[p]),
                 "bb.lead": lambda: len(lead_cards(s, p)), "bb.active-town": lambda: len(leader_towns(s, p))}
        if count[d.kind]() < 2:
            return False
    return True


def _decks(s: "BBState", dice: Dice) -> None:
    """The Viking deck in a new order; the marriage deck's unrevealed cards drawn anew from
    those not yet revealed (Setup: a random few were put on the Princess, the rest removed)."""
    s.viking_deck = dice.shuffled(s.viking_deck)
    if len(s.marriage_deck) > 1:
        t = s.tables
        revealed = {e.data["card"] for e in s.events if e.kind == "marriage-card"}
        pool = [i for i, m in enumerate(t.marriages) if i != t.princess and m.id not in revealed]
        s.marriage_deck = [s.marriage_deck[0]] + dice.shuffled(pool)[:len(s.marriage_deck) - 1]


def _unseen_piles(s: "BBState", dice: Dice) -> None:
    """Between deals: the leftover card and the discards nobody saw change places."""
    played = _played(s)
    seen = {c for cards in played.values() for c in cards}
    spots = [i for i, c in enumerate(s.discard) if c not in seen]
    cards = dice.shuffled([s.discard[i] for i in spots] + s.leftover)
    for i, c in zip(spots, cards):
        s.discard[i] = c
    s.leftover = sorted(cards[len(spots):])


def _played(s: "BBState") -> dict[int, set[int]]:
    """The cards each seat played face up since the last deal."""
    out: dict[int, set[int]] = {p: set() for p in range(s.n)}
    for e in reversed(s.events):
        if e.kind == "deal":
            break
        if e.kind == "play":
            out[e.data["player"]].add(s.tables.card_by_label[e.data["card"]])
    return out


def _current_deal(s: "BBState", me: int | None, dice: Dice) -> None:
    n = s.n
    r = s.tables.rules
    per_stage = n * r.pick
    stages = 0
    size = r.deal[n]
    while size > r.straight_to_pile:
        stages += 1
        size -= r.pick
    drafted = [i for i, kind in enumerate(s.answer_kinds) if kind == "bb.draft"]
    deals = sum(1 for e in s.events if e.kind == "deal")
    mine = drafted[(deals - 1) * per_stage * stages:]
    label = s.tables.card_by_label
    drafting = any(s.packets)
    now = len(mine) // per_stage  # the stage in play (the straight pile's, once drafted)
    # took[pk][j]: (seat, answer index, card) for each card kept from packet pk at stage j
    took: list[list[list[tuple[int, int, int]]]] = [[[] for _ in range(now + 1)] for _ in range(n)]
    for k, i in enumerate(mine):
        j = k // per_stage
        p, key = s.answers[i]
        took[(p - j) % n][j].append((p, i, label[key]))
    played = _played(s)
    # what is left of each packet now: a packet in hand, or the cards passed straight to
    # the pile (a seat's cards this deal, less those it kept by answer)
    rest: list[list[int]] = []
    for pk in range(n):
        holder = (pk + now) % n
        if drafting:
            rest.append(list(s.packets[holder]))
        else:
            kept = {c for j in range(now) for _, _, c in took[(holder - j) % n][j]}
            whole = set(s.hands[holder]) | played[holder] | set(s.picks[holder])
            rest.append(sorted(whole - kept))
    # places: (owner seat or -1, capacity, where) — where: ("took", pk, j), ("rest", pk), ("leftover",)
    groups: list[tuple[set[int], list[list]]] = []
    unseen_places: list[list] = [[-1, len(s.leftover), ("leftover",), []]]
    known: set[int] = set()
    for pk in range(n):
        sights = [j for j in range(now + 1) if (pk + j) % n == me]
        first = sights[0] if sights else now + 1
        for j in range(min(first, now + 1)):
            if took[pk][j]:
                unseen_places.append([(pk + j) % n, len(took[pk][j]), ("took", pk, j), []])
        if not sights:
            unseen_places.append([(pk + now) % n, len(rest[pk]), ("rest", pk), []])
            continue
        for a, b in zip(sights, sights[1:] + [None]):
            contents = _contents(took, rest, pk, a)
            known |= contents
            end = now if b is None else b - 1
            places = [[(pk + j) % n, len(took[pk][j]), ("took", pk, j), []]
                      for j in range(a + 1, end + 1) if took[pk][j]]
            passed = contents - {c for _, _, c in took[pk][a]}
            if b is None:
                places.append([(pk + now) % n, len(rest[pk]), ("rest", pk), []])
            else:
                passed -= _contents(took, rest, pk, b)
            groups.append((passed, places))
    deck = set(range(1, len(s.tables.cards)))
    groups.append((deck - known, unseen_places))
    owner_of = {c: p for p, cards in played.items() for c in cards}
    for cards, places in groups:
        _deal_group(cards, places, owner_of, me, dice)
    _write(s, me, took, places=[pl for _, ps in groups for pl in ps], drafting=drafting, played=played, now=now)


def _contents(took: list, rest: list, pk: int, j: int) -> set[int]:
    """Packet ``pk`` as its holder at stage ``j`` received it."""
    out = set(rest[pk])
    for jj in range(j, len(took[pk])):
        out.update(c for _, _, c in took[pk][jj])
    return out


def _deal_group(cards: set[int], places: list[list], owner_of: dict, me: int | None, dice: Dice) -> None:
    """Deal ``cards`` into ``places`` (each ``[owner, capacity, where, dealt]``): a card
    seen played by a seat into one of that seat's places first, the rest at random.  The
    viewer's own places keep what it knows it holds."""
    free = sorted(cards)
    for c in sorted(c for c in cards if c in owner_of):
        room = [pl for pl in places if pl[0] == owner_of[c] and len(pl[3]) < pl[1]]
        dice.pick(room)[3].append(c)
        free.remove(c)
    free = dice.shuffled(free)
    for pl in places:
        while len(pl[3]) < pl[1]:
            pl[3].append(free.pop())


def _write(s: "BBState", me: int | None, took: list, places: list[list], drafting: bool,
           played: dict, now: int) -> None:
    """Put the cards dealt to each place into the state: picks (and the answers that kept
    them), packets or hands, the leftover."""
    label = s.tables.card_label
    new_took = {}
    for owner, _, where, dealt in places:
        if where[0] == "leftover":
            s.leftover = sorted(dealt)
        else:
            new_took[where] = dealt
    kept_by: dict[int, list[tuple[int, int]]] = {p: [] for p in range(s.n)}  # (answer index, card)
    for pk in range(s.n):
        for j, kept in enumerate(took[pk]):
            dealt = new_took.get(("took", pk, j))
            for k, (p, i, c) in enumerate(kept):
                if dealt is not None and p != me:
                    c = dealt[k]
                    s.answers[i] = (p, label(c))
                kept_by[p].append((i, c))
    full = {p: [c for _, c in sorted(kept_by[p])] for p in range(s.n)}  # in the order kept
    for pk in range(s.n):
        holder = (pk + now) % s.n
        if holder == me:
            continue
        rest = new_took.get(("rest", pk))
        if rest is None:
            continue
        if drafting:
            s.packets[holder] = sorted(rest)
        else:
            full[holder].extend(rest)
    for p in range(s.n):
        if p == me:
            continue
        if drafting:
            s.picks[p] = full[p]
        else:
            s.hands[p] = sorted(set(full[p]) - played[p])
