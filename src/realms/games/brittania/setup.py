"""Set-up and the start of each turn: each player picks a starting state and creates a
king (rules post, INTRODUCTION and PLAYER KINGS; RULINGS BR-Q5, BR-Q6), each turn's
income (BR-Q9) and newcomers in an eliminated player's colour (BR-Q30)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from realms.core.decision import Decision, LazyKeys

from .economy import collect_income
from .kings import NAME_MAX, name_problem, roll_cv
from .state import INDEPENDENT
from .steps import STEPS

if TYPE_CHECKING:
    from .state import BRState

SECTION = "INTRODUCTION; PLAYER KINGS"


@STEPS.step("setup")
def setup(s: "BRState") -> None:
    s.log("setup", f"{s.n} players: " + ", ".join(f"{n} ({c})" for n, c in zip(s.names, s.colours)) + ".",
          colours=s.colours)
    frames = [f for p in range(s.n) for f in (("start", p), ("king_trait", p), ("king_name", p))]
    s.then(*frames, ("turn",))


#: the answer to ``br.newcomer`` leaving the colour free this turn (BR-Q30)
NOBODY = "nobody"


def _free_states(s: "BRState") -> list[str]:
    return [st.id for st in s.board.states if s.owner[st.index] == INDEPENDENT]


def _state_label(s: "BRState"):
    return lambda k: s.board.state(k).name


@STEPS.step("start")
def start(s: "BRState", p: int) -> Decision:
    """First come, first served, in seat order: any independent state (BR-Q5)."""
    return Decision(p, "br.start", _free_states(s), f"{s.names[p]}: pick your starting state.",
                    "INTRODUCTION", _state_label(s))


@STEPS.on_answer("start")
def start_answer(s: "BRState", player: int, key: str, p: int) -> None:
    take_start(s, p, s.board.index[key])


def take_start(s: "BRState", p: int, state: int) -> None:
    """``p`` begins in ``state``: it becomes the capital, with the starting 10 grain."""
    s.owner[state] = p
    s.capital[p] = state
    s.start_region[p] = s.board.states[state].region
    s.grain[p] = s.tables.n["start_grain"]
    s.alive[p] = True
    s.kingdom[p] = False
    s.title[p] = ""
    s.log("start", f"{s.names[p]} begins in {s.sname(state)}, the capital.",
          player=p, state=s.board.states[state].id, seats=[p])


@STEPS.step("king_trait")
def king_trait(s: "BRState", p: int) -> Decision:
    return Decision(p, "br.trait", list(s.tables.positive), f"{s.names[p]}: choose your king's positive trait.",
                    "PLAYER KINGS")


@STEPS.on_answer("king_trait")
def king_trait_answer(s: "BRState", player: int, key: str, p: int) -> None:
    s.king_traits[p] = [key]
    s.king_cv[p] = roll_cv(s)


class KingNames(LazyKeys):
    """The answers to ``br.name``: "he needs a Name", any name the player gives
    (:func:`~.kings.name_problem` says which), so membership admits every such name; the
    options listed, and answered by index, are the starting region's names from the rules
    post, the suggestion that bots and the web app offer (BR-Q6)."""

    __slots__ = ("_names",)

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self._names = names

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, i):
        return self._names[i]

    def _build(self) -> list[str]:
        return list(self._names)

    def __contains__(self, key: object) -> bool:
        return key in self._names or name_problem(key) is None


@STEPS.step("king_name")
def king_name(s: "BRState", p: int) -> Decision:
    names = KingNames(list(dict.fromkeys(s.tables.names[s.start_region[p]])))
    # KingNames is a LazyKeys, registered as a Sequence (which mypy cannot see)
    return Decision(p, "br.name", cast("Sequence[str]", names), f"{s.names[p]}: name your king (one of these, or any name of up to "
                    f"{NAME_MAX} characters).", "PLAYER KINGS", info={"any_name": True, "max_length": NAME_MAX})


@STEPS.on_answer("king_name")
def king_name_answer(s: "BRState", player: int, key: str, p: int) -> None:
    s.king_name[p] = key
    s.log("king", f"{s.names[p]} crowns King {key} ({s.king_traits[p][0]}, CV {s.king_cv[p]}).",
          player=p, name=key, traits=list(s.king_traits[p]), cv=s.king_cv[p])


@STEPS.step("turn")
def turn(s: "BRState") -> None:
    """A new turn: income from the second turn on (turn 1 is played with the starting 10,
    BR-Q9), then newcomers for eliminated colours (BR-Q30), then everyone's orders."""
    s.turn += 1
    s.phase = "turn"
    s.log("turn", f"Turn {s.turn} begins.")
    if s.turn > 1:
        collect_income(s)
    newcomers = [("newcomer", p) for p in range(s.n) if not s.alive[p] and not s.out_for_good[p]]
    s.then(*newcomers, ("orders_open",), ("orders",), ("resolve",))


def newcomer_round(turn: int) -> str:
    """The round of a turn's newcomer questions, apart from the turn's orders (whose
    deadline runs from when they are first awaited, BR-Q102)."""
    return f"newcomers of turn {turn}"


@STEPS.step("newcomer")
def newcomer(s: "BRState", p: int) -> Decision | None:
    """"If any Player gets eliminated, another can take their color, pick an independent
    State": at the start of each turn after, the colour's seat answers for whoever may
    take it — an independent state, or :data:`NOBODY` (*can*, not must); with no
    independent state left, the colour stays out of the game (BR-Q30)."""
    free = _free_states(s)
    if not free:
        s.out_for_good[p] = True
        s.log("newcomer", f"No independent state is left: the colour left by {s.names[p]} stays out of the game.",
              player=p, seats=[p])
        return None
    label = _state_label(s)
    return Decision(p, "br.newcomer", [*free, NOBODY],
                    f"{s.names[p]} was eliminated: the colour left is free; a newcomer may take it and "
                    f"pick an independent state, or nobody takes it this turn.", "INTRODUCTION",
                    lambda k: "Nobody takes the colour this turn" if k == NOBODY else label(k),
                    info={"colour": s.colours[p], "round": newcomer_round(s.turn)})


@STEPS.on_answer("newcomer")
def newcomer_answer(s: "BRState", player: int, key: str, p: int) -> None:
    """A newcomer's starting state, or :data:`NOBODY`: "another *can* take their color", so
    a colour nobody takes stays free this turn and is offered again the next."""
    if key == NOBODY:
        s.log("newcomer", f"Nobody takes the colour left by {s.names[p]} this turn.", player=p, seats=[p])
        return
    s.log("newcomer", f"A newcomer takes the colour left by {s.names[p]}.", player=p, seats=[p])
    take_start(s, p, s.board.index[key])
    s.then(("king_trait", p), ("king_name", p))
