"""Typed events: the append-only story of a game, each also a readable sentence."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True, frozen=True)
class Event:
    kind: str
    turn: int
    text: str
    data: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, "turn": self.turn, "text": self.text, "data": self.data}
