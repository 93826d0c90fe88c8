"""Decisions: everything a player must decide is a choice from a finite list.

A :class:`Decision` names who decides, a stable ``kind`` (``hb.move``), the option keys,
a prompt and the rulebook section.  Keys are stable strings kept in records; labels are
for people and are built only when asked for, because simulations never need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple


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
    keys: tuple[str, ...]
    prompt: str
    section: str = ""
    labeler: Callable[[str], str] | None = field(default=None, repr=False, compare=False)

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
            "options": [{"key": o.key, "label": o.label} for o in self.options],
        }
