"""What the batch runner notes of every game beside the scores, for a designer's questions
(:mod:`realms.sim.design` turns it into figures):

* ``decision_kinds``: per decision kind, ``[decisions, options offered in all, decisions
  with a single option]`` — the branching factor and the forced moves;
* ``factions``: per seat, what it was dealt (``Game.factions``: the first value each
  dimension took at a turn end) and whether it was still in the game at the end;
* ``usage``: how often each rule, ability or event a game names (``Game.usage``) was used;
* ``views``: per turn end, the size of the state (scalar values in a spectator's view, plus
  what is hidden from a spectator) and, per seat, the items hidden from it.

All plain JSON, the same on any worker: no clock is read here.
"""

from __future__ import annotations

from collections import Counter

from realms.core.game import Game
from realms.core.stats import Watcher


def leaves(value) -> int:
    """The scalar values in a JSON value (a list or dict counts what it holds)."""
    if isinstance(value, dict):
        return sum(leaves(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(leaves(v) for v in value)
    return 1


class DesignTrack(Watcher):
    """Decisions by kind, factions dealt, usage and the views' sizes of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kinds: dict[str, list[int]] = {}
        self.dealt: list[dict] | None = None
        self.survives: list[bool] | None = None
        self.usage: Counter = Counter({name: 0 for name in ((game.usage(None) or ()) if game.usage else ())})
        self.views: list[list] = []

    def on_event(self, state, event) -> None:
        if self.game.usage is not None and event is not None:
            name = self.game.usage(event)
            if name:
                self.usage[name] += 1

    def on_decision(self, state, decision, index: int) -> None:
        row = self.kinds.setdefault(decision.kind, [0, 0, 0])
        row[0] += 1
        row[1] += len(decision.keys)
        row[2] += len(decision.keys) == 1

    def on_turn_end(self, state, turn: int) -> None:
        self._factions(state)
        n = len(state.result()["players"])
        public = leaves(state.view(None))
        hidden_all = len(self.game.hidden(state, None))
        self.views.append([turn, public + hidden_all, [len(self.game.hidden(state, p)) for p in range(n)]])

    def _factions(self, state) -> None:
        if self.game.factions is None:
            return
        now = self.game.factions(state)
        if self.dealt is None:
            self.dealt = [{} for _ in now]
        for mine, seat in zip(self.dealt, now):
            for key, value in seat.items():
                if key != "survives" and value is not None and key not in mine:
                    mine[key] = str(value)
        self.survives = [bool(seat.get("survives", True)) for seat in now]

    def finish(self, state) -> None:
        self._factions(state)

    def data(self) -> dict:
        out: dict = {"decision_kinds": {k: v for k, v in sorted(self.kinds.items())}, "views": self.views}
        if self.dealt is not None:
            out["factions"] = [{"dealt": d, "survives": s} for d, s in zip(self.dealt, self.survives or [])]
        if self.game.usage is not None:
            out["usage"] = dict(sorted(self.usage.items()))
        return out
