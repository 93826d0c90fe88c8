"""Playing a game with agents: the one loop that lets bots answer, for simulations and
the web app alike."""

from __future__ import annotations

from functools import partial
from typing import Callable, Iterator, Mapping, Sequence

from .agents import Agent
from .decision import Decision
from .engine import GameState


def bot_answers(
    state: GameState,
    agents: Mapping[int, Agent] | Sequence[Agent],
    limit: int | None = None,
) -> Iterator[Decision]:
    """Let the agents answer their seats' pending decisions until someone else is awaited
    (a person, in the web app) or the game ends, yielding each decision once answered, so
    a caller may look, pause or stop between answers.

    ``agents``: by seat, a mapping (some seats) or a sequence (every seat).  ``limit``
    bounds the answers (a guard against a game that never ends): one more awaited raises
    ``RuntimeError``.
    """
    seats = agents if isinstance(agents, Mapping) else dict(enumerate(agents))
    views = {seat: partial(state.view, seat) for seat in seats}
    #: each seat's ``choose``, bound once (compiled, a method looked up on an agent of any
    #: class costs ~300 instructions a decision)
    choosers = {seat: seats[seat].choose for seat in seats}
    answered = 0
    while True:
        decision = state.first_pending(seats)
        if decision is None:
            return
        if limit is not None and answered >= limit:
            raise RuntimeError(f"bots did not finish within {limit} decisions")
        seat = decision.player
        state.answer_index(decision, choosers[seat](decision, views[seat]))
        answered += 1
        yield decision


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
    for _ in bot_answers(state, agents, max_decisions):
        if after_each is not None:
            after_each(state)
    return state


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
