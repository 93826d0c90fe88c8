"""Kingdoms, High Kingdoms, the Empire and the economic victory (rules post, STATES,
KINGDOMS, HIGH KINGDOMS, AND THE EMPIRE; RULINGS BR-Q15–Q18), checked at the end of
every turn after the battles."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BRState


def makes_kingdom(s: "BRState", p: int) -> int | None:
    """A KINGDOM state ``p`` holds with at least 3 of its neighbours (The Isles counting
    for Ross, Galaibh for Moirebh), or None."""
    b = s.board
    need = s.tables.n["kingdom_neighbours"]
    for k in b.kingdoms:
        if s.owner[k] == p and sum(1 for x in b.kingdom_adj[k] if s.owner[x] == p) >= need:
            return k
    return None


def kingdoms(s: "BRState") -> None:
    """A player becomes a Kingdom as soon as he meets the requirement at the end of a
    turn; the +5 "persists until end of the game (or your early demise)" (BR-Q15)."""
    for p in range(s.n):
        if s.alive[p] and not s.kingdom[p]:
            k = makes_kingdom(s, p)
            if k is not None:
                s.kingdom[p] = True
                s.log("kingdom", f"{s.names[p]} forms the Kingdom of {s.sname(k)}.", player=p,
                      state=s.board.states[k].id)


def meets_high_kingdom(s: "BRState", p: int, hk) -> bool:
    held = set(s.held(p))
    region = s.board.region_states[hk.region]
    return (s.kingdom[p] and sum(1 for x in region if x in held) >= s.tables.n["high_kingdom_states"]
            and sum(1 for x in hk.states if x in held) >= hk.need)


def high_kingdoms(s: "BRState") -> None:
    """A Kingdom meeting a High Kingdom's requirement takes its title, unless he already
    holds another ("a High Kingdom cannot create or take over another High Kingdom").
    The holder keeps it, and its +10, until another player meets the requirement
    (BR-Q16)."""
    for hk in s.tables.high_kingdoms:
        holder = next((p for p in range(s.n) if s.title[p] == hk.region), None)
        for p in range(s.n):
            if p == holder or not s.alive[p] or s.title[p] or not meets_high_kingdom(s, p, hk):
                continue
            if holder is not None and meets_high_kingdom(s, holder, hk):
                continue
            if holder is not None:
                s.title[holder] = ""
                s.log("title-lost", f"{s.names[holder]} loses the title of {hk.name}.", player=holder, region=hk.region)
            s.title[p] = hk.region
            s.log("title", f"{s.names[p]} becomes the {hk.name}.", player=p, region=hk.region)
            break


def dominion_connected(s: "BRState", p: int) -> bool:
    """"Your dominion must be continuous; Provinces across Seas are treated as connected":
    all the player's states form one group by land borders and shared seas (BR-Q17)."""
    b = s.board
    held = s.held(p)
    mine = sum(1 << x for x in held)
    reached = 1 << held[0]
    frontier = [held[0]]
    while frontier:
        x = frontier.pop()
        new = (b.adj_mask[x] | b.across_mask[x]) & mine & ~reached
        reached |= new
        while new:
            low = new & -new
            frontier.append(low.bit_length() - 1)
            new ^= low
    return reached == mine


def kingdom_states(s: "BRState", p: int) -> int:
    return sum(1 for k in s.board.kingdoms if s.owner[k] == p)


def empire(s: "BRState") -> bool:
    """The Empire of Britannia: 12 of the 18 KINGDOM states and a continuous dominion
    (BR-Q17).  Two players can never meet it at once (12 + 12 > 18)."""
    need = s.tables.n["empire_kingdoms"]
    emperors = [p for p in range(s.n) if s.alive[p] and kingdom_states(s, p) >= need and dominion_connected(s, p)]
    if not emperors:
        return False
    s.winners = emperors
    s.victory = "empire"
    s.log("empire", f"{s.names[emperors[0]]} forges the Empire of Britannia!", player=emperors[0])
    return True


def economic_victory(s: "BRState") -> None:
    """After the last turn: "Grain from your States only is multiplied by amount of
    KINGDOM-type States you own. The Player with highest score is declared winner";
    equal best scores share the victory, among the players still in the game, even when
    every score is 0 (BR-Q18)."""
    scores = [s.economic_score(p) for p in range(s.n)]
    alive = [p for p in range(s.n) if s.alive[p]]
    best = max((scores[p] for p in alive), default=0)
    s.winners = [p for p in alive if scores[p] == best]
    s.victory = "economic"
    s.log("economic-victory", "Economic victory: " + ", ".join(f"{s.names[p]} {scores[p]}" for p in range(s.n))
          + (f"; {' and '.join(s.names[p] for p in s.winners)} win{'s' if len(s.winners) == 1 else ''}."
             if s.winners else "; nobody scores."), scores=scores, winners=s.winners)
