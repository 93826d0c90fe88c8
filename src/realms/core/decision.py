"""Decisions: everything a player must decide is a choice from a finite list.

A :class:`Decision` names who decides, a stable ``kind`` (``hb.move``), the option keys,
a prompt and the rulebook section.  Keys are stable strings kept in records; labels are
for people and are built only when asked for, because simulations never need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence


class IllegalAnswer(ValueError):
    """An answer that the current state does not accept; the state is left unchanged."""


class Option(NamedTuple):
    key: str
    label: str


@dataclass(slots=True)
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


class LazyKeys(Sequence[str]):
    """Option keys built only when read in full: a subclass gives ``len``, a single
    lookup and :meth:`_build`; iteration, membership and ``repr`` build the list once (and
    membership a set), so a bot answering by index never makes the strings."""

    __slots__ = ("_list", "_set")

    def __init__(self) -> None:
        self._list: list[str] | None = None
        self._set: frozenset[str] | None = None

    def _build(self) -> list[str]:
        raise NotImplementedError

    def _all(self) -> list[str]:
        if self._list is None:
            self._list = self._build()
        return self._list

    def __iter__(self):
        return iter(self._all())

    def __contains__(self, key: object) -> bool:
        if self._set is None:
            self._set = frozenset(self._all())
        return key in self._set

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._all()!r})"


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
            n += mask.bit_count()
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
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        for row, mask in self.rows:
            c = mask.bit_count()
            if i < c:
                for _ in range(i):
                    mask &= mask - 1
                return row[(mask & -mask).bit_length() - 1]
            i -= c
        return self.extra[i]
