"""Agents: anything that answers decisions — bots here, people through the CLI or web app.

Bots see what a person sees: the decision and, when they ask for it, ``view(player)``.
They answer with an option index; records keep the stable key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from mypy_extensions import mypyc_attr

from .decision import Decision
from .dice import Dice

if TYPE_CHECKING:
    from .engine import GameState

ViewFn = Callable[[], dict]


class SeatView:
    """A seat's view function (``view()`` is ``state.view(seat)``) that also names the
    state and the seat, for the bots that search: they determinize ``state`` for ``seat``
    (:meth:`GameState.determinize`), so they use only what the seat may know."""

    __slots__ = ("state", "seat")

    def __init__(self, state: "GameState", seat: int) -> None:
        self.state = state
        self.seat = seat

    def __call__(self) -> dict:
        return self.state.view(self.seat)


def state_behind(view: ViewFn) -> "GameState":
    """The game state a view function looks at: a :class:`SeatView`'s, or the one a
    ``lambda: state.view(seat)`` (or ``partial(state.view, seat)``) closes over, as the
    play loops pass them.  Raises ``TypeError`` if ``view`` shows none, naming it."""
    from .engine import GameState

    found = getattr(view, "state", None)
    if isinstance(found, GameState):
        return found
    bound = getattr(getattr(view, "func", None), "__self__", None)
    if isinstance(bound, GameState):
        return bound
    for cell in getattr(view, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, GameState):
            return value
        inner = getattr(value, "state", None)
        if isinstance(inner, GameState):
            return inner
    raise TypeError(
        f"a searching bot needs the game state behind its view function, and {view!r} shows "
        "none (pass core.agents.SeatView(state, seat))"
    )


class Agent(Protocol):
    name: str

    def choose(self, decision: Decision, view: ViewFn) -> int:
        """The index into ``decision.keys`` of the chosen option."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot may start from it
class RandomBot:
    """Uniform over the options of every decision, from its own seeded dice."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)

    def choose(self, decision: Decision, view: ViewFn) -> int:
        return self.dice.below(len(decision.keys))


AgentFactory = Callable[..., Agent]


#: Bots that work for every game and come with the core; a game adds its own through
#: ``Game.bots``, and other packages add generic ones through the ``realms.bots`` entry
#: point group (the search bot does: ``ismcts``), as games register through
#: ``realms.games``.  A factory takes the bot's seed, and a bot with parameters takes them
#: as keywords (strings, as written in ``--bots NAME:KEY=VALUE:…``).
GENERIC_BOTS: dict[str, AgentFactory] = {"random": RandomBot}

_REGISTERED: dict[str, AgentFactory] | None = None


def _entry_point_factory(ep) -> AgentFactory:
    """A factory that imports the registered bot only when a bot is first made, so that
    listing the bots loads no search module."""
    found: list = []

    def make(seed: int = 0, **params: str) -> Agent:
        if not found:
            found.append(ep.load())
        return found[0](seed, **params)

    make.__qualname__ = make.__name__ = f"bot({ep.value})"
    return make


def generic_bots() -> dict[str, AgentFactory]:
    """Every generic bot by name: the core's (:data:`GENERIC_BOTS`) and those registered
    in the ``realms.bots`` entry point group.  A game's own bots come from ``Game.bots``."""
    global _REGISTERED
    if _REGISTERED is None:
        from importlib.metadata import entry_points

        _REGISTERED = {ep.name: _entry_point_factory(ep) for ep in entry_points(group="realms.bots")}
    return {**_REGISTERED, **GENERIC_BOTS}


def parse_bot(spec: str) -> tuple[str, dict[str, str]]:
    """A bot as written on the command line, ``NAME`` or ``NAME:KEY=VALUE:KEY=VALUE``
    (``ismcts:iters=400:policy=greedy``; colons, because commas separate the seats of
    ``--bots``): its name and its parameters as text, which the bot's factory reads.  A
    malformed parameter raises ``ValueError`` naming it."""
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    for part in filter(None, rest.split(":")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot {spec[:60]!r}: parameter {part[:30]!r} is not KEY=VALUE")
        params[key.strip()] = value.strip()
    return name.strip(), params


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed, derived from the game's so that a simulation is reproducible."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) & 0xFFFFFFFFFFFF
