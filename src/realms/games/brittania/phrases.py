"""Orders as players write them (RULINGS BR-Q28), one bold sentence each, case and a final
full stop aside.  Both ways of the forum are read:

===============================  =======================================================
order                            written
===============================  =======================================================
conquer                          ``10 Grain to Conquer Kent.`` / ``10 Grain for Conquest of Kent.``
defend                           ``5 Grain to Defend Essex.`` / ``5 Grain for Defense of Essex.``
                                 (or Defence)
invest                           ``5 Grain to Invest in Essex.`` / ``5 Grain for Investing of Essex.``
                                 (or Investment in)
move the capital (20 grain)      ``Move Capital to Essex.`` / ``20 Grain to Move Capital to Essex.``
declare a captured capital anew  ``New Capital: Essex.`` / ``Declare New Capital in Essex.``
establish a trade route          ``Trade Route with Bob.`` / ``Establish Trade Route with Bob.``
cancel a trade route             ``Cancel Trade Route with Bob.``
the king leads                   ``King leads Conquest of Kent.`` / ``King Alfred leads the Attack
                                 on Kent.`` / ``King leads Defense of Essex.``
===============================  =======================================================

A state is matched by its name or id; a misspelt one leniently with RapidFuzz, but only
when one name is clearly nearest: otherwise the closest names are offered and nothing is
guessed.  Players (trade routes) are matched by name the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils

from .orders import Order

#: a misspelling is taken when its best match scores at least this (RapidFuzz's ratio,
#: 0..100: "Kentt" scores 89 for Kent) …
GOOD = 75
#: … and the next best scores at least this much less ("Essx": Essex 89, Wessex 80, so
#: neither is taken)
CLEAR = 10

GRAIN = re.compile(r"^(\d+)\s+grain\s+(?:to|for)\s+(conquer|conquest\s+of|defend|defen[cs]e\s+of|"
                   r"invest\s+in|investing\s+(?:of|in)|investment\s+in)\s+(.+)$", re.I)
MOVE = re.compile(r"^(?:(\d+)\s+grain\s+to\s+)?move\s+(?:the\s+|my\s+)?capital\s+to\s+(.+)$", re.I)
NEW_CAPITAL = re.compile(r"^(?:declare\s+(?:a\s+)?)?new\s+capital(?:\s*:\s*|\s+in\s+|\s+)(.+)$", re.I)
TRADE = re.compile(r"^(cancel\s+(?:the\s+)?|(?:establish\s+(?:a\s+)?))?trade\s+route\s+with\s+(.+)$", re.I)
LEAD = re.compile(r"^(?:the\s+|my\s+)?king(?:\s+[^\s].*?)?\s+leads\s+(?:the\s+)?"
                  r"(conquest\s+of|attack\s+on|defen[cs]e\s+of)\s+(.+)$", re.I)
KIND = {"conquer": "conquer", "conquest": "conquer", "defend": "defend", "defense": "defend",
        "defence": "defend", "invest": "invest", "investing": "invest", "investment": "invest",
        "attack": "conquer"}


class Unreadable(ValueError):
    """A line that is no order, or names no state or player clearly; the message says why."""


@dataclass(frozen=True)
class Names:
    """What a post's names are matched against: state names and ids by state id, and
    the players by seat."""

    states: dict[str, str]     # name or id, casefolded -> state id
    labels: dict[str, str]     # state id -> name, for messages
    players: list[str]

    def state(self, text: str) -> str:
        key = " ".join(text.split()).casefold()
        if key in self.states:
            return self.states[key]
        return _fuzzy(text, self.labels, "state")

    def player(self, text: str) -> int:
        key = " ".join(text.split()).casefold()
        for i, name in enumerate(self.players):
            if name.casefold() == key:
                return i
        return int(_fuzzy(text, {str(i): n for i, n in enumerate(self.players)}, "player"))


def _fuzzy(text: str, choices: dict[str, str], what: str) -> str:
    """The key of the choice ``text`` clearly means, or :class:`Unreadable` offering the
    closest names."""
    found = process.extract(text, choices, scorer=fuzz.ratio, processor=utils.default_process, limit=3)
    if not found:
        raise Unreadable(f"unknown {what} {text!r}")
    best = found[0]
    near = ", ".join(name for name, _, _ in found)
    if best[1] < GOOD:
        raise Unreadable(f"unknown {what} {text!r} (closest: {near})")
    if len(found) > 1 and found[1][1] > best[1] - CLEAR:
        raise Unreadable(f"{what} {text!r} is close to more than one (closest: {near}); write it out")
    return best[2]


def read_order(line: str, names: Names) -> Order:
    """The order a bold sentence gives, or :class:`Unreadable` saying why not."""
    text = " ".join(line.split()).rstrip(".!;").strip()
    if m := GRAIN.match(text):
        kind = KIND[m.group(2).split()[0].casefold()]
        return Order(kind, names.state(m.group(3)), int(m.group(1)))
    if m := MOVE.match(text):
        grain = int(m.group(1) or 20)
        if grain != 20:
            raise Unreadable(f"moving the capital costs 20 grain, not {grain}")
        return Order("capital", names.state(m.group(2)), 20)
    if m := NEW_CAPITAL.match(text):
        return Order("capital", names.state(m.group(1)), 0)
    if m := TRADE.match(text):
        kind = "cancel" if (m.group(1) or "").casefold().startswith("cancel") else "trade"
        return Order(kind, str(names.player(m.group(2))))
    if m := LEAD.match(text):
        kind = KIND[m.group(1).split()[0].casefold()]
        return Order("lead", f"{kind}:{names.state(m.group(2))}")
    raise Unreadable("not readable as an order (e.g. '10 Grain to Conquer Kent.')")
