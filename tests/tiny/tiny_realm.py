"""Pebbles: a tiny game defined only in the tests, to prove that a game is a plug-in.

Each player is dealt a secret bonus (1–3) that only he may see; then, round by round,
each player in turn takes one or two pebbles from the pile.  When the pile is empty the
most pebbles plus bonus wins; players tied share the victory.  Registered through the
``realms.games`` entry point by ``conftest.py`` — no line of shared code names it.
"""

from __future__ import annotations

from realms.core.decision import Decision
from realms.core.engine import Field, GameState, Steps
from realms.core.events import Event
from realms.core.game import Game
from realms.core.options import Option

STEPS = Steps("pebbles")


class PebblesState(GameState):
    GAME_ID = "pebbles"
    STEPS = STEPS
    FIELDS = (Field("names", snap=False), Field("pile"), Field("taken", list), Field("bonus", list), Field("round"))

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.names = list(options["names"])
        self.pile = options["pile"]
        self.taken = [0] * len(self.names)
        self.bonus = [1 + self.dice.below(3) for _ in self.names]
        self.round = 1
        for p, b in enumerate(self.bonus):
            self.events.append(Event("bonus", 1, f"{self.names[p]} is dealt a bonus of {b}.", {"player": p}, (p,)))
        self.start(("take", 0))

    def redeal_hidden(self, player: int | None, dice) -> None:
        """The other players' bonuses, which ``player`` has not seen, dealt anew."""
        for q in range(len(self.bonus)):
            if q != player:
                self.bonus[q] = 1 + dice.below(3)

    def view(self, player: int | None) -> dict:
        return {"pile": self.pile, "taken": self.taken, "round": self.round,
                "bonus": self.bonus[player] if player is not None else None}

    def result(self) -> dict:
        totals = [t + b for t, b in zip(self.taken, self.bonus)]
        over = not self.pending()
        winners = [n for n, v in zip(self.names, totals) if v == max(totals)] if over else []
        return {"players": self.names, "scores": dict(zip(self.names, totals if over else self.taken)),
                "winners": winners, "winner": winners[0] if len(winners) == 1 else None, "turns": self.round}


@STEPS.step("take")
def take(s: PebblesState, p: int):
    keys = ["1", "2"] if s.pile >= 2 else ["1"]
    return Decision(p, "pebbles.take", keys, f"{s.names[p]}: take one or two pebbles ({s.pile} left)", "§1")


@STEPS.on_answer("take")
def took(s: PebblesState, p: int, key: str, *_):
    s.pile -= int(key)
    s.taken[p] += int(key)
    s.events.append(Event("take", s.round, f"{s.names[p]} takes {key}; {s.pile} left.", {"player": p}))
    if s.pile:
        nxt = (p + 1) % len(s.names)
        s.round += nxt == 0
        s.then(("take", nxt))


GAME = Game(
    id="pebbles",
    name="Pebbles",
    min_players=2,
    max_players=4,
    state_class=PebblesState,
    options=(Option("pile", "int", 15, "Pebbles in the pile at the start.", min=1, max=99, flag="--pile"),),
    default_players=2,
    hidden=lambda s, p: [f"bonus of {b}." for q, b in enumerate(s.bonus) if q != p and not s.is_over()],
    hidden_information=True,
)
