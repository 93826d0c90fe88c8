"""Decisions: everything a player must decide is a choice from a finite list.

A :class:`Decision` names who decides, a stable ``kind`` (``hb.move``), the option keys,
a prompt and the rulebook section.  Keys are stable strings kept in records; labels are
for people and are built only when asked for, because simulations never need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Callable, Final, NamedTuple

from mypy_extensions import i64, mypyc_attr


class IllegalAnswer(ValueError):
    """An answer that the current state does not accept; the state is left unchanged."""


class Option(NamedTuple):
    key: str
    label: str


@dataclass(slots=True, init=False)
class Decision:
    """One pending choice.

    ``keys`` holds the stable option keys; ``labeler`` (key → label) makes the human
    labels on demand.  ``section`` cites the rulebook (``"§6.3"``).
    """

    player: int
    kind: str
    keys: Sequence[str]
    prompt: str
    section: str = ""
    labeler: Callable[[str], str] | None = field(default=None, repr=False, compare=False)
    #: the facts behind the question, as plain JSON (the event offered, the nation at
    #: stake…), so that bots and clients need not read them out of the prompt
    info: dict | None = field(default=None, compare=False)

    def __init__(self, player: int, kind: str, keys: Sequence[str], prompt: str,
                 section: str = "", labeler: Callable[[str], str] | None = None,
                 info: dict | None = None) -> None:
        # written out, not the dataclass's: compiled (setup.py), the dataclass's own
        # ``__init__`` would stay interpreted, and one is made for every question
        self.player = player
        self.kind = kind
        self.keys = keys
        self.prompt = prompt
        self.section = section
        self.labeler = labeler
        self.info = info

    @property
    def options(self) -> tuple[Option, ...]:
        lab = self.labeler or (lambda k: k)
        return tuple(Option(k, lab(k)) for k in self.keys)

    def label(self, key: str) -> str:
        return self.labeler(key) if self.labeler else key

    def to_json(self) -> dict:
        return {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "section": self.section,
            "info": self.info or {},
            "options": [{"key": o.key, "label": o.label} for o in self.options],
        }


@mypyc_attr(allow_interpreted_subclasses=True)  # a game may keep its keys its own way
class LazyKeys:
    """Option keys built only when read in full: a subclass gives ``len``, a single
    lookup and :meth:`_build`; iteration, membership and ``repr`` build the list once (and
    membership a set), so a bot answering by index never makes the strings.

    A sequence (registered as one below), not derived from ``Sequence``: a compiled class
    derived from an abstract base class would share its registry (``setup.py``)."""

    __slots__ = ("_list", "_set")

    def __init__(self) -> None:
        self._list: list[str] | None = None
        self._set: frozenset[str] | None = None

    def __len__(self) -> int:
        raise NotImplementedError

    def __getitem__(self, i):
        raise NotImplementedError

    def _build(self) -> list[str]:
        raise NotImplementedError

    def _all(self) -> list[str]:
        if self._list is None:
            self._list = self._build()
        return self._list

    def __iter__(self):
        return iter(self._all())

    def __reversed__(self):
        return reversed(self._all())

    def __contains__(self, key: object) -> bool:
        if self._set is None:
            self._set = frozenset(self._all())
        return key in self._set

    def index(self, key: str) -> int:
        return self._all().index(key)

    def count(self, key: str) -> int:
        return self._all().count(key)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._all()!r})"


Sequence.register(LazyKeys)


#: whether this module runs compiled (setup.py): its file is then the extension
_COMPILED: Final = not __file__.endswith(".py")


def popcount(mask: int) -> int:
    """The bits set in ``mask``: ``int.bit_count``, which compiled code calls as a
    Python method (~310 instructions); there, for a mask of up to 62 bits, a few machine
    operations on a native 64-bit integer (the usual way of summing bits in parallel),
    which interpreted would cost 30 times the method."""
    if not _COMPILED or mask < 0 or mask >> 62:  # (a literal 1 << 62 would be boxed)
        return mask.bit_count()
    m: i64 = mask
    m = m - ((m >> 1) & 0x5555555555555555)
    m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
    m = m + (m >> 8)
    m = m + (m >> 16)
    m = m + (m >> 32)
    return int(m & 0x7F)


class MaskedKeys(LazyKeys):
    """Option keys taken from precomputed rows of keys by bitmask, built only when read.

    ``rows`` pairs a row of keys with a bitmask of the entries offered from it (bit i →
    ``row[i]``); ``extra`` keys follow.  Order: rows in order, bits ascending, then
    ``extra``.  A bot answering by index needs only ``len`` and one lookup, so the
    hot path of a simulation never builds the strings it does not use.
    """

    __slots__ = ("rows", "extra", "_n")

    def __init__(self, rows: list[tuple[Sequence[str], int]], extra: tuple[str, ...] = ()) -> None:
        self.rows = rows
        self.extra = extra
        n = len(extra)
        for _, mask in rows:
            n += popcount(mask)
        self._n = n
        self._list = None
        self._set = None

    def __len__(self) -> int:
        return self._n

    def _build(self) -> list[str]:
        out = []
        for row, mask in self.rows:
            while mask:
                low = mask & -mask
                out.append(row[low.bit_length() - 1])
                mask ^= low
        out.extend(self.extra)
        return out

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return self._all()[i]
        return self._at(i)

    def _at(self, i: int) -> str:
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        for row, mask in self.rows:
            c = popcount(mask)
            if i < c:
                for _ in range(i):
                    mask &= mask - 1
                return row[(mask & -mask).bit_length() - 1]
            i -= c
        return self.extra[i]
