"""Table talk: messages between the seats of a game, to everyone or to one seat.

The game's creator chooses what may be said (``MODES``): ``full`` (to everyone and to one
seat), ``public`` (to everyone only) or ``none``.  A message is at most ``MAX_TEXT``
characters of text (no control characters but line breaks and tabs, at most
``MAX_LINES`` lines; pages show it as text, never as markup), and a seat sends at most
``RATE`` messages in ``RATE_SECONDS``.  Who may read one (:func:`visible`): everyone, if it
was to everyone; else its sender and its addressee; a spectator reads public messages
only; once the game is over, everyone reads everything.
"""

from __future__ import annotations

from collections import deque

from fastapi import HTTPException

MODES = ("full", "public", "none")
MAX_TEXT = 500
MAX_LINES = 10
RATE = 5
RATE_SECONDS = 30.0
#: messages a page is sent at once (the newest); older ones stay stored
SHOWN = 200


def check(text: object, to: object, seat: int | None, seats: int, mode: str) -> tuple[str, int | None]:
    """The message's text and addressee, or a 403/422 naming what is wrong."""
    if seat is None:
        raise HTTPException(403, "spectators cannot talk; send a seat's token")
    if mode == "none":
        raise HTTPException(403, "the game's creator turned table talk off")
    if not isinstance(text, str) or not text.strip():
        raise HTTPException(422, "text: a message needs some text")
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise HTTPException(422, f"text: a message is at most {MAX_TEXT} characters (this one has {len(text)})")
    if text.count("\n") >= MAX_LINES:
        raise HTTPException(422, f"text: a message is at most {MAX_LINES} lines")
    if any(ord(c) < 32 and c not in "\n\t" or ord(c) == 127 for c in text):
        raise HTTPException(422, "text: control characters are not allowed (line breaks and tabs are)")
    if to is not None:
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < seats or to == seat:
            raise HTTPException(422, f"to: a seat from 0 to {seats - 1} other than your own, or null for everyone")
        if mode != "full":
            raise HTTPException(422, "to: the game's creator allows messages to everyone only")
    return text, to


def visible(msg: dict, seat: int | None, over: bool) -> bool:
    """Whether ``seat`` (None: a spectator) may read ``msg``."""
    return over or msg["to"] is None or (seat is not None and seat in (msg["seat"], msg["to"]))


class Rate:
    """At most ``RATE`` messages in ``RATE_SECONDS`` per (game, seat), by the instants
    given (the table's clock)."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], deque] = {}

    def check(self, key: tuple[str, int], now: float) -> None:
        """422 if ``key`` sent too many lately; else count this message."""
        q = self.sent.setdefault(key, deque())
        while q and now - q[0] >= RATE_SECONDS:
            q.popleft()
        if len(q) >= RATE:
            wait = max(1, int(RATE_SECONDS - (now - q[0]) + 0.999))
            raise HTTPException(422, f"text: too fast, at most {RATE} messages in {int(RATE_SECONDS)} seconds; "
                                     f"wait {wait} s")
        q.append(now)
