"""Typed events: the append-only story of a game, each also a readable sentence.

Every event carries its **audience**: who may read it while the game runs.
``EVERYONE`` (the default), a tuple of seats (a card dealt to one player), or ``NOBODY``
(a secret kept until the game ends, e.g. a hidden mission's details).  Views, the
chronicle, a seat's record and the web app filter by it (:meth:`Event.seen_by`), never by
matching the text.  Once the game is over every event is public.
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
