"""Player kings (rules post, PLAYER KINGS): the king a player creates, the random kings
that follow a death, the coin toss after a failed led order, and the yearly death of
natural causes (RULINGS BR-Q6–Q8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BRState


#: the longest name a player may give his king: a name, not a speech (BR-Q6)
NAME_MAX = 30
#: characters a king's name may not hold: the forum's and the web page's markup
MARKUP = "[]<>"


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be the name a player gives his king, or None (BR-Q6: "he
    needs a Name", any name): printable text of 1 to :data:`NAME_MAX` characters, single
    spaces between its words, no markup (it is written into the results post and the
    page)."""
    if not isinstance(name, str) or not name.strip():
        return "a king needs a name (it is empty)"
    if name != " ".join(name.split()):
        return f"the king's name {name[:NAME_MAX + 2]!r} has spaces at its ends or doubled"
    if len(name) > NAME_MAX:
        return f"the king's name {name[:NAME_MAX]!r}… is {len(name)} characters long; at most {NAME_MAX}"
    bad = next((c for c in name if not c.isprintable() or c in MARKUP), None)
    if bad is not None:
        return f"the king's name {name!r} holds {bad!r}: printable text without {MARKUP}"
    return None


def heads(s: "BRState") -> bool:
    """One coin toss from the game's dice."""
    return s.dice.below(2) == 0


def roll_cv(s: "BRState") -> int:
    """"Command Value (CV) randomly set between 1 and 3": a d3 (BR-Q6)."""
    return 1 + s.dice.below(s.tables.n["cv_max"])


def name_region(s: "BRState", p: int) -> str:
    """The region whose name list a king's name comes from: the capital's, or the
    starting state's while no capital is declared (BR-Q6)."""
    if s.capital[p] >= 0:
        return s.board.states[s.capital[p]].region
    return s.start_region[p]


def random_king(s: "BRState", p: int) -> None:
    """A king "immediately created for the Player", one of the "randomly generated Kings",
    so nobody names him: a name drawn from the region's list (BR-Q6), "1 Positive Trait
    and 50% chance (via Coin Toss) to get 1 extra Trait, which can be Positive or
    Negative" (never the first trait's opposite or itself)."""
    t = s.tables
    first = s.dice.pick(t.positive)
    traits = [first]
    if heads(s):
        pool = [x for x in t.traits if x != first and x != t.traits[first].opposite]
        traits.append(s.dice.pick(pool))
    s.king_name[p] = s.dice.pick(t.names[name_region(s, p)])
    s.king_traits[p] = traits
    s.king_cv[p] = roll_cv(s)
    s.log("king", f"{s.names[p]} has a new king, {s.king_name[p]} ({', '.join(traits)}, CV {s.king_cv[p]}).",
          player=p, name=s.king_name[p], traits=traits, cv=s.king_cv[p])


def king_dies(s: "BRState", p: int, why: str) -> None:
    s.log("king-death", f"King {s.king_name[p]} of {s.names[p]} dies {why}.", player=p, name=s.king_name[p], why=why)
    random_king(s, p)


def led_order_failed(s: "BRState", p: int, what: str) -> None:
    """"If the Attack/Defense they were Leading fails, a Coin Toss ...; on Heads, your King
    returns home; on Tails, he dies.\""""
    if heads(s):
        s.log("king-home", f"King {s.king_name[p]} of {s.names[p]} led the failed {what} and returns home (heads).",
              player=p)
    else:
        king_dies(s, p, f"leading the failed {what} (tails)")


def natural_causes(s: "BRState") -> None:
    """"Every Turn, a Coin Toss is made; if its Tails, a randomly chosen King dies 'of
    natural causes'": one toss for the whole game, after the turn's orders (BR-Q7)."""
    if heads(s):
        s.log("death-toss", "The coin for the kings falls heads: no king dies this turn.")
        return
    living = [p for p in range(s.n) if s.alive[p]]
    if not living:
        return
    p = s.dice.pick(living)
    king_dies(s, p, "of natural causes")
