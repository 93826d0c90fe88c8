"""Typed events: the append-only story of a game, each also a readable sentence.

Every event carries its **audience**: who may read it while the game runs.
``EVERYONE`` (the default), a tuple of seats (a card dealt to one player), or ``NOBODY``
(a secret kept until the game ends, e.g. a hidden mission's details).  Views, the
chronicle, a seat's record and the web app filter by it (:meth:`Event.seen_by`), never by
matching the text.  Once the game is over every event is public.

A battle is told by the events that carry ``data["battle"]``, a dict that names the board
element fought over (``area``: the id of its ``area-…``/``town-…`` element) and what the
event adds to the battle; the web page draws its battle panel from these alone, naming no
game.  Its keys, each optional but ``area``: ``open`` (this event begins a battle: with
``sides`` [attacker's name, defender's name] and ``units`` [attackers, defenders]);
``round`` (the round's number), ``dice`` [attacker's dice, defender's dice] with ``die``
(the faces, default 6), ``need`` [the number each side hits on] or, for dice that each
decide a duel, ``hit`` [[whether each die hit], per side], ``hits`` [hits each
scored], ``adds`` [what each side adds to its roll], ``lost`` [units each lost];
``retreat`` (the name of the side retreating) with ``round`` (after which round; 0:
before the first); ``close`` (this event ends it: ``winner`` 0, 1 or None and ``units``
left); ``odds`` (the battle now, before its next round, as the values of the game's
``calculator`` by argument name: the page asks the server for its exact odds) or
``chances`` ({outcome: probability}, worked out by the game itself).

The seats a line names (by their names, never by a colour: a page may draw the seats in
another palette) are its ``data["seats"]`` [seat indices]; the page draws each one's swatch
beside the line, in the palette it shows.

What an event shows on the board is its ``data["marks"]``: ``from`` [element ids] and
``to`` (an element id): units moved (the page draws arrows); ``taken`` [element ids] with
``seat`` (who took them) and ``from_seat`` (whose they were, or None): areas taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

#: the audience of a public event
EVERYONE = None
#: the audience of an event nobody may read until the game ends
NOBODY: tuple[int, ...] = ()


@mypyc_attr(acyclic=True)  # compiled, not tracked by the garbage collector: no cycles
@dataclass(slots=True, init=False)
class Event:
    """One line of the chronicle.  Never changed once made: a line that grows (a run of
    moves, a repeated line's count) is replaced by a new event.  (Not a frozen dataclass
    only for speed: a frozen one sets each field through ``object.__setattr__`` and costs
    four times as much to make, and games make about one event per decision.)"""

    kind: str
    turn: int
    text: str
    data: dict = field(default_factory=dict)
    #: ``EVERYONE`` (None), the seats that may read it, or ``NOBODY`` (an empty tuple)
    audience: tuple[int, ...] | None = EVERYONE

    def __init__(self, kind: str, turn: int, text: str, data: dict | None = None,
                 audience: tuple[int, ...] | None = EVERYONE) -> None:
        # written out, not the dataclass's: compiled (setup.py), the dataclass's own
        # ``__init__`` would stay interpreted
        self.kind = kind
        self.turn = turn
        self.text = text
        self.data = {} if data is None else data
        self.audience = audience

    def seen_by(self, player: int | None, over: bool = False) -> bool:
        """Whether ``player`` (None: a spectator) may read this event now; ``over``: the
        game has ended, and with it every secret."""
        return over or self.audience is None or (player is not None and player in self.audience)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "turn": self.turn, "text": self.text, "data": self.data}
        if self.audience is not None:
            out["audience"] = list(self.audience)
        return out
