"""Playing a game to its end with a seat → agent mapping."""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from .agents import Agent
from .engine import GameState


def play(
    state: GameState,
    agents: Sequence[Agent],
    *,
    max_decisions: int | None = None,
    after_each: Callable[[GameState], None] | None = None,
) -> GameState:
    """Ask each pending decision of ``state`` from the agent of its seat until the game ends.

    ``max_decisions`` bounds the loop (a guard against a game that never ends);
    ``after_each`` is called after every applied answer (used by the conformance kit).
    """
    applied = 0
    views = [partial(state.view, seat) for seat in range(len(agents))]
    while True:
        pending = state._pending
        if not pending:
            return state
        decision = pending[0]
        seat = decision.player
        state.answer_index(decision, agents[seat].choose(decision, views[seat]))
        applied += 1
        if after_each is not None:
            after_each(state)
        if max_decisions is not None and applied >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")


def explained_chronicle(state: GameState, agents: Sequence[Agent]) -> list[str]:
    """Play ``state`` to its end and return its chronicle with each bot's reasons woven in.

    An agent that explains itself keeps an ``explanations`` list of ``(turn, text)``
    lines, appending while it chooses; each new line is placed in the chronicle just
    before the events its answer caused, indented as ``"  why: …"``.  Agents without
    that list add nothing, so any mix of bots can be explained.
    """
    seen = [len(getattr(a, "explanations", ()) or ()) for a in agents]
    notes: list[tuple[int, str]] = []
    before = len(state.events)

    def collect(st: GameState) -> None:
        nonlocal before
        for seat, agent in enumerate(agents):
            lines = getattr(agent, "explanations", None)
            if lines and len(lines) > seen[seat]:
                notes.extend((before, text) for _, text in lines[seen[seat]:])
                seen[seat] = len(lines)
        before = len(st.events)

    play(state, agents, after_each=collect)
    out: list[str] = []
    k = 0
    for i, event in enumerate(state.events):
        while k < len(notes) and notes[k][0] <= i:
            out.append(f"  why: {notes[k][1]}")
            k += 1
        out.append(event.text)
    out.extend(f"  why: {text}" for _, text in notes[k:])
    return out
