"""The step machine that every game's rules run on.

A game's turn structure is a stack of *frames*: small tuples ``(step_name, *args)``.
Running the state pops a frame and calls the step registered under its name.  A step
does its work (rolling the state's dice, pushing further frames with
:meth:`GameState.then`) and returns ``None``, or it asks: it returns a
:class:`Decision` (or several, for players acting at the same time).  The answer goes
to the handler registered for the same step, with the frame's arguments, and the
machine runs on until the next question.  Frames are plain tuples, so a state clones
with shallow copies and hashes from plain data — this is what boardgame.io calls
phases and stages, kept as data instead of a generator that could not be copied.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, ClassVar

from .decision import Decision, IllegalAnswer
from .dice import Dice
from .record import Record

StepFn = Callable[..., "Decision | list[Decision] | None"]
AnswerFn = Callable[..., None]


class Steps:
    """The registry of a game's steps and their answer handlers."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.run: dict[str, StepFn] = {}
        self.answer: dict[str, AnswerFn] = {}

    def step(self, name: str) -> Callable[[StepFn], StepFn]:
        def deco(fn: StepFn) -> StepFn:
            if name in self.run:
                raise ValueError(f"step {name!r} registered twice")
            self.run[name] = fn
            return fn

        return deco

    def on_answer(self, name: str) -> Callable[[AnswerFn], AnswerFn]:
        def deco(fn: AnswerFn) -> AnswerFn:
            self.answer[name] = fn
            return fn

        return deco


class GameState:
    """The parts of a game state that every game shares.

    Subclasses set ``GAME_ID`` and ``STEPS``, build their own data in ``__init__``, push
    the first frames and call :meth:`_run`; they implement :meth:`_copy_into`,
    :meth:`snapshot`, :meth:`view` and :meth:`result`.
    """

    GAME_ID: ClassVar[str] = ""
    STEPS: ClassVar[Steps]
    RECORD_VERSION: ClassVar[int] = 1

    def __init__(self, options: dict, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.dice = Dice(seed)
        self.events: list = []
        self.answers: list[tuple[int, str]] = []
        self.answer_kinds: list[str] = []
        self._stack: list[tuple] = []
        self._pending: list[Decision] = []
        self._waiting: tuple | None = None

    # -- the machine -------------------------------------------------------------
    def then(self, *frames: tuple) -> None:
        """Schedule ``frames`` to run next, in the order given."""
        self._stack.extend(reversed(frames))

    def _run(self) -> None:
        steps = self.STEPS.run
        stack = self._stack
        while stack:
            frame = stack.pop()
            asked = steps[frame[0]](self, *frame[1:])
            if asked is not None:
                pending = [asked] if isinstance(asked, Decision) else list(asked)
                if not pending:
                    raise RuntimeError(f"step {frame[0]!r} asked an empty list of decisions")
                for d in pending:
                    if not len(d.keys):
                        raise RuntimeError(f"step {frame[0]!r} asked {d.kind} with no options")
                self._pending = pending
                self._waiting = frame
                return
        self._waiting = None

    # -- the contract --------------------------------------------------------------
    def pending(self) -> list[Decision]:
        """What must be decided now; empty once the game is over."""
        return list(self._pending)

    def pending_for(self, player: int | None) -> list[Decision]:
        """The decisions ``player`` may see: only his own (a simultaneous draft shows each
        player his own packet, never another's); none for spectators."""
        return [d for d in self._pending if d.player == player]

    def is_over(self) -> bool:
        return not self._pending

    def decision_for(self, player: int) -> Decision:
        """The decision ``player`` owes now, or :class:`IllegalAnswer` naming who is awaited."""
        for d in self._pending:
            if d.player == player:
                return d
        if not self._pending:
            raise IllegalAnswer(f"{self.GAME_ID}: the game is over; no answer is expected")
        waiting = ", ".join(f"player {d.player} ({d.kind})" for d in self._pending)
        raise IllegalAnswer(
            f"{self.GAME_ID}: player {player} has no decision pending; waiting for {waiting}"
        )

    def apply(self, player: int, key: str) -> None:
        """Answer ``player``'s pending decision with option ``key`` and advance.

        An illegal answer raises :class:`IllegalAnswer` before anything changes.
        """
        decision = self.decision_for(player)
        if key not in decision.keys:
            shown = ", ".join(decision.keys[:8]) + (" …" if len(decision.keys) > 8 else "")
            raise IllegalAnswer(
                f"{self.GAME_ID}: {key!r} is not an option of {decision.kind} "
                f"for player {player} (options: {shown})"
            )
        self._accept(decision, key)

    def apply_index(self, player: int, index: int) -> str:
        """Answer by option index (fast path for bots); returns the key applied."""
        decision = self.decision_for(player)
        if not 0 <= index < len(decision.keys):
            raise IllegalAnswer(
                f"{self.GAME_ID}: option index {index} out of range for {decision.kind} "
                f"(0..{len(decision.keys) - 1})"
            )
        key = decision.keys[index]
        self._accept(decision, key)
        return key

    def answer_index(self, decision: Decision, index: int) -> str:
        """Answer ``decision``, one of :meth:`pending` now, by option index: the simulation
        loop's path (no search for the player's decision).  A decision no longer pending,
        or an index out of range, raises :class:`IllegalAnswer` before anything changes."""
        for d in self._pending:
            if d is decision:
                break
        else:
            raise IllegalAnswer(
                f"{self.GAME_ID}: {decision.kind} for player {decision.player} is no longer pending"
            )
        keys = decision.keys
        if not 0 <= index < len(keys):
            raise IllegalAnswer(
                f"{self.GAME_ID}: option index {index} out of range for {decision.kind} "
                f"(0..{len(keys) - 1})"
            )
        key = keys[index]
        self._accept(decision, key)
        return key

    def _accept(self, decision: Decision, key: str) -> None:
        frame = self._waiting
        assert frame is not None
        self.answers.append((decision.player, key))
        self.answer_kinds.append(decision.kind)
        if len(self._pending) == 1:
            self._pending = []
            self.STEPS.answer[frame[0]](self, decision.player, key, *frame[1:])
            self._run()
        else:
            self._pending = [d for d in self._pending if d is not decision]
            self.STEPS.answer[frame[0]](self, decision.player, key, *frame[1:])
            if not self._pending:
                self._run()

    # -- copies, hashes, records ---------------------------------------------------------
    def clone(self) -> "GameState":
        """An independent copy: applying answers to it never touches this state."""
        other = self.__class__.__new__(self.__class__)
        other.options = self.options
        other.seed = self.seed
        other.dice = self.dice.clone()
        other.events = list(self.events)
        other.answers = list(self.answers)
        other.answer_kinds = list(self.answer_kinds)
        other._stack = list(self._stack)
        other._pending = list(self._pending)
        other._waiting = self._waiting
        self._copy_into(other)
        return other

    def _copy_into(self, other: "GameState") -> None:
        raise NotImplementedError

    def release(self) -> None:
        """Let go of the pending decisions before dropping this state for good.

        A decision's labels are made by a function that refers back to the state that
        asked it, so a state and its pending decisions form a reference cycle: dropped, it
        waits for the cyclic garbage collector, whose full passes grow with the heap.  A
        server that replaces a game's state at every answer releases the old one instead,
        and it is freed at once.  The state must not be used afterwards (decisions already
        handed out, or shared with a clone, keep working).
        """
        self._pending = []
        self._waiting = None

    def snapshot(self) -> dict:
        """All game data as plain JSON values (the game's part)."""
        raise NotImplementedError

    def full_snapshot(self) -> dict:
        return {
            "game": self.GAME_ID,
            "data": self.snapshot(),
            "stack": [list(f) for f in self._stack],
            "waiting": list(self._waiting) if self._waiting else None,
            "pending": [[d.player, d.kind, list(d.keys)] for d in self._pending],
            "dice": self.dice.fingerprint(),
            "events": len(self.events),
        }

    def state_hash(self) -> str:
        """A SHA-256 of the whole state; equal states give equal hashes on any machine."""
        text = json.dumps(self.full_snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def record(self) -> Record:
        return Record(
            game=self.GAME_ID,
            options=self.options,
            seed=self.seed,
            answers=list(self.answers),
            version=self.RECORD_VERSION,
        )

    def view(self, player: int | None) -> dict:
        raise NotImplementedError

    def result(self) -> dict:
        raise NotImplementedError

    def chronicle(self) -> list[str]:
        """All the events as readable sentences (the omniscient story: simulations, finished
        games).  :meth:`chronicle_for` is what one seat may read."""
        return [e.text for e in self.events]

    def events_for(self, player: int | None) -> list:
        """The events ``player`` (None: a spectator) may read now, by each event's
        audience; all of them once the game is over."""
        over = self.is_over()
        return [e for e in self.events if e.seen_by(player, over)]

    def chronicle_for(self, player: int | None) -> list[str]:
        """The chronicle as ``player`` (None: a spectator) may read it now."""
        return [e.text for e in self.events_for(player)]

    def event_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for e in self.events:
            counts[e.kind] = counts.get(e.kind, 0) + 1
        return dict(sorted(counts.items()))


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
