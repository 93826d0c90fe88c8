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

A question with a single option is never asked: the machine applies that option
itself, here and nowhere else, and records keep only real choices.  A step whose
options a re-deal of hidden cards may change must be safe to run again (what it
scheduled or logged first, :meth:`GameState.ask_again` discards), so that a
determinized copy can ask anew.

A game state declares its fields once (:attr:`GameState.FIELDS`): construction checks
it set them all (and the conformance kit that it set no other),
:meth:`GameState.clone` copies each as declared and :meth:`GameState.snapshot` hashes
those it names.
"""

from __future__ import annotations

import hashlib
import json
import random
from types import GetSetDescriptorType
from typing import Any, Callable, ClassVar, Iterable, MutableSequence, NamedTuple

from mypy_extensions import mypyc_attr

from .decision import Decision, IllegalAnswer
from .dice import Dice
from .events import Event
from .record import Record

StepFn = Callable[..., "Decision | list[Decision] | None"]
AnswerFn = Callable[..., None]


@mypyc_attr(allow_interpreted_subclasses=True)  # a game may extend its registry
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


class Field(NamedTuple):
    """One field of a game state, declared once.

    ``copy``: how a clone copies the value (``None``: the same object — numbers, strings,
    frozen sets, tables that never change); ``snap``: ``True`` if the snapshot holds the
    value as it is, ``False`` if not at all (static data, caches), or a function of the
    state giving the plain JSON to hash under ``key`` (the field's name by default).
    """

    name: str
    copy: Callable[[Any], Any] | None = None
    snap: "bool | Callable[[Any], Any]" = True
    key: str | None = None


def copy_lists(value: list) -> list:
    """A list of lists, copied two levels deep."""
    return [list(x) for x in value]


def copy_optional_list(value: list | None) -> list | None:
    return None if value is None else list(value)


def _copier(fields: "tuple[Field, ...]") -> Callable:
    """``copy_fields(state, other)``: each declared field copied as declared, written out
    as plain assignments (as a dataclass writes its ``__init__``), so a clone costs what a
    hand-written copy costs."""
    namespace: dict[str, Any] = {}
    lines = ["def copy_fields(self, other):", "    pass"]
    for i, f in enumerate(fields):
        if f.copy is None:
            lines.append(f"    other.{f.name} = self.{f.name}")
        else:
            namespace[f"copy_{i}"] = f.copy
            lines.append(f"    other.{f.name} = copy_{i}(self.{f.name})")
    exec("\n".join(lines), namespace)
    return namespace["copy_fields"]


def run_step(fn: StepFn, state: "GameState", frame: tuple) -> "Decision | list[Decision] | None":
    """``fn(state, *frame[1:])``: a frame's step, called with the frame's arguments.  The
    usual lengths are spelled out: compiled, the starred call builds two tuples a step."""
    n = len(frame)
    if n == 3:
        return fn(state, frame[1], frame[2])
    if n == 2:
        return fn(state, frame[1])
    if n == 4:
        return fn(state, frame[1], frame[2], frame[3])
    if n == 5:
        return fn(state, frame[1], frame[2], frame[3], frame[4])
    if n == 1:
        return fn(state)
    return fn(state, *frame[1:])


def run_answer(fn: AnswerFn, state: "GameState", player: Any, key: Any, frame: tuple) -> None:
    """``fn(state, player, key, *frame[1:])``: a step's answer handler (as :func:`run_step`)."""
    n = len(frame)
    if n == 3:
        fn(state, player, key, frame[1], frame[2])
    elif n == 2:
        fn(state, player, key, frame[1])
    elif n == 4:
        fn(state, player, key, frame[1], frame[2], frame[3])
    elif n == 5:
        fn(state, player, key, frame[1], frame[2], frame[3], frame[4])
    elif n == 1:
        fn(state, player, key)
    else:
        fn(state, player, key, *frame[1:])


#: the fields every state has, kept by the engine itself
ENGINE_FIELDS = frozenset(
    ("options", "seed", "dice", "events", "answers", "answer_kinds", "_stack", "_pending", "_waiting")
)


@mypyc_attr(allow_interpreted_subclasses=True)  # every game's state is a subclass
class GameState:
    """The parts of a game state that every game shares.

    Subclasses set ``GAME_ID``, ``STEPS`` and ``FIELDS`` (their own data, declared once),
    build that data in ``__init__`` and end it with :meth:`start`; they implement
    :meth:`view` and :meth:`result`, and a game with hidden information
    :meth:`redeal_hidden`.
    """

    GAME_ID: ClassVar[str] = ""
    STEPS: ClassVar[Steps]
    RECORD_VERSION: ClassVar[int] = 1
    #: the game's own fields: what construction sets, a clone copies, a snapshot hashes
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    _SNAP: ClassVar[tuple[tuple[str, str, Any], ...]] = ()
    _NAMES: ClassVar[tuple[str, ...]] = ()
    _copy_fields: ClassVar[Callable[["GameState", "GameState"], None]] = staticmethod(lambda self, other: None)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = [f.name for f in cls.FIELDS]
        if len(set(names)) != len(names) or ENGINE_FIELDS & set(names):
            raise TypeError(f"{cls.__name__}: FIELDS names a field twice, or one the engine keeps")
        bad = [n for n in names if not n.isidentifier()]
        if bad:
            raise TypeError(f"{cls.__name__}: FIELDS names that are not identifiers: {bad}")
        cls._NAMES = tuple(names)
        cls._SNAP = tuple((f.name, f.key or f.name, f.snap) for f in cls.FIELDS if f.snap is not False)
        cls._copy_fields = staticmethod(_copier(cls.FIELDS))

    def __init__(self, options: dict, seed: int) -> None:
        self.options = options
        self.seed = seed
        # not typed as Dice: tests put scripted dice in their place, which compiled code
        # would refuse
        self.dice: Any = Dice(seed)
        # not typed as a list: a watcher may tap it with a list whose append it overrides
        # (sim.stats.Watch), which compiled code would bypass for a list's own append
        self.events: MutableSequence[Event] = []
        self.answers: list[tuple[int, str]] = []
        self.answer_kinds: list[str] = []
        self._stack: list[tuple] = []
        self._pending: list[Decision] = []
        self._waiting: tuple | None = None

    def start(self, *frames: tuple) -> None:
        """End of construction: check that it set every declared field (:attr:`FIELDS`),
        then run ``frames`` to the first question.  (That it set no other is
        :meth:`undeclared_fields`' to say, for the conformance kit: looking at the
        instance's ``__dict__`` here would slow every attribute read of the game.)"""
        missing = [name for name in self._NAMES if not hasattr(self, name)]
        if missing:
            raise TypeError(f"{type(self).__name__}: declared in FIELDS but not set: {missing}")
        self.then(*frames)
        self._run()

    def undeclared_fields(self) -> list[str]:
        """The state's attributes that neither the engine nor :attr:`FIELDS` declares (a
        clone would drop them, a hash miss them); empty when the declaration is whole.
        A compiled state (``setup.py``) has no ``__dict__``: its attributes are its
        classes' attribute descriptors, those it set."""
        names = set(getattr(self, "__dict__", ()))
        for cls in type(self).__mro__:
            names.update(name for name, value in vars(cls).items()
                         if isinstance(value, GetSetDescriptorType) and not name.startswith("__")
                         and hasattr(self, name))
        return sorted(names - ENGINE_FIELDS - set(self._NAMES))

    # -- the machine -------------------------------------------------------------
    def then(self, *frames: tuple) -> None:
        """Schedule ``frames`` to run next, in the order given."""
        stack = self._stack
        for i in range(len(frames) - 1, -1, -1):  # compiled, cheaper than extend(reversed())
            stack.append(frames[i])

    def _run(self) -> None:
        registry = self.STEPS
        steps = registry.run
        stack = self._stack
        while stack:
            frame = stack.pop()  # compiled, a native pop (a bound ``pop`` is a Python call)
            asked = run_step(steps[frame[0]], self, frame)
            if asked is None:
                continue
            if isinstance(asked, Decision):
                n = len(asked.keys)
                if n == 1:  # a single option: applied here, never asked
                    run_answer(registry.answer[frame[0]], self, asked.player, asked.keys[0], frame)
                    continue
                if not n:
                    raise RuntimeError(f"step {frame[0]!r} asked {asked.kind} with no options")
                self._pending = [asked]
                self._waiting = frame
                return
            pending = self._settle(frame, asked)
            if pending:
                self._pending = pending
                self._waiting = frame
                return
        self._waiting = None

    def _settle(self, frame: tuple, asked: Iterable[Decision]) -> list[Decision]:
        """Decisions asked at once: those with a single option are applied now; the rest
        are pending."""
        asked = list(asked)
        if not asked:
            raise RuntimeError(f"step {frame[0]!r} asked an empty list of decisions")
        pending = []
        for d in asked:
            n = len(d.keys)
            if n == 1:
                run_answer(self.STEPS.answer[frame[0]], self, d.player, d.keys[0], frame)
            elif not n:
                raise RuntimeError(f"step {frame[0]!r} asked {d.kind} with no options")
            else:
                pending.append(d)
        return pending

    def restart(self, *frames: tuple) -> None:
        """Drop the pending question and every frame still to run, then run ``frames``:
        for playing one phase from a position arranged by hand (tests, the battle
        calculator's Monte Carlo)."""
        self._stack.clear()
        self._pending = []
        self._waiting = None
        self.then(*frames)
        self._run()

    def waiting_frame(self) -> tuple | None:
        """The frame whose question is pending (``(step_name, *args)``), or None."""
        return self._waiting

    def next_frames(self) -> tuple[tuple, ...]:
        """The frames still to run, the next first."""
        return tuple(reversed(self._stack))

    def ask_again(self) -> None:
        """Ask the pending question anew from the state as it is now (after what it offers
        was re-dealt by :meth:`redeal_hidden`): the waiting step runs again; what it
        schedules or logs is dropped (it did that the first time), and only players still
        awaited are asked.  A decision now down to one option is applied."""
        frame = self._waiting
        if frame is None:
            return
        awaited = {d.player for d in self._pending}
        stack, n_events = self._stack, len(self.events)
        self._stack = []
        asked = self.STEPS.run[frame[0]](self, *frame[1:])
        self._stack = stack
        del self.events[n_events:]
        if asked is None:
            raise RuntimeError(f"step {frame[0]!r} asked nothing when asked again")
        asked = [asked] if isinstance(asked, Decision) else list(asked)
        self._pending = []
        pending = self._settle(frame, [d for d in asked if d.player in awaited])
        if pending:
            self._pending = pending
        else:
            self._run()

    def ask_also(self, decision: Decision) -> None:
        """Ask ``decision`` beside the decisions still pending: for an answer handler of a
        simultaneous question whose player is asked his next question at once while the
        others are still deciding (orders written decision by decision, nobody waiting for
        another).  A decision with a single option is applied at once, never asked.  Only
        while another decision is pending: once none is, the machine runs on, so the
        waiting step (scheduled again) asks instead."""
        frame = self._waiting
        if frame is None or not self._pending:
            raise RuntimeError("ask_also: no decision of a simultaneous question is still pending")
        n = len(decision.keys)
        if n == 1:
            self.STEPS.answer[frame[0]](self, decision.player, decision.keys[0], *frame[1:])
        elif not n:
            raise RuntimeError(f"step {frame[0]!r} asked {decision.kind} with no options")
        else:
            self._pending.append(decision)

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

    def first_pending(self, players: "Iterable[int] | None" = None) -> Decision | None:
        """The first pending decision (of one of ``players``, a set or mapping by seat), or
        None: the play loops' way to the next question without copying the list."""
        for d in self._pending:
            if players is None or d.player in players:
                return d
        return None

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
            run_answer(self.STEPS.answer[frame[0]], self, decision.player, key, frame)
            self._run()
        else:
            self._pending = [d for d in self._pending if d is not decision]
            run_answer(self.STEPS.answer[frame[0]], self, decision.player, key, frame)
            if not self._pending:
                self._run()

    # -- copies, hashes, records ---------------------------------------------------------
    def clone(self) -> "GameState":
        """An independent copy: applying answers to it never touches this state.  Each
        declared field is copied as :attr:`FIELDS` says."""
        cls = self.__class__
        other = cls.__new__(cls)
        other.options = self.options
        other.seed = self.seed
        other.dice = self.dice.clone()
        other.events = list(self.events)
        other.answers = list(self.answers)
        other.answer_kinds = list(self.answer_kinds)
        other._stack = list(self._stack)
        other._pending = list(self._pending)
        other._waiting = self._waiting
        cls._copy_fields(self, other)
        return other

    # -- search and learning ---------------------------------------------------------------
    def reseed(self, seed: int) -> None:
        """New future chance (dice, shuffles) from ``seed``; nothing else changes.  The
        state's record still names the game's own seed, so it no longer replays to this
        state: a reseeded state is for search, not for saving."""
        self.dice = Dice(seed)

    def determinize(self, player: int | None, rng: random.Random) -> "GameState":
        """A copy that ``player`` (None: a spectator) cannot tell from this state: what it
        has not seen re-dealt, consistently with everything it has seen
        (:meth:`redeal_hidden`), and the dice re-seeded.  ``rng`` drives both, so the same
        ``rng`` state gives the same copy.  Its ``view(player)`` equals this state's."""
        other = self.clone()
        deal_seed = int(rng.random() * 2**53)
        other.reseed(int(rng.random() * 2**53))
        if type(self).redeal_hidden is not GameState.redeal_hidden:  # seeding costs ~10 µs
            other.redeal_hidden(player, Dice(deal_seed))
        return other

    def redeal_hidden(self, player: int | None, dice: Dice) -> None:
        """Re-deal, with ``dice``, what ``player`` cannot know, consistently with what it
        has seen, and :meth:`ask_again` if that changes a pending question.  A game
        without hidden information has nothing to re-deal."""

    def returns(self) -> list[float]:
        """What each seat gets from a finished game: 1 for a win, 0 for a loss, winners
        sharing one (two winners: 0.5 each); all 0 if nobody won.  Raises ``ValueError``
        while the game runs."""
        if self._pending:
            raise ValueError(f"{self.GAME_ID}: the game is not over; returns are for a finished game")
        res = self.result()
        players = res["players"]
        winners = [i for i, name in enumerate(players) if name in res["winners"]]
        out = [0.0] * len(players)
        for i in winners:
            out[i] = 1 / len(winners)
        return out

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
        """All game data as plain JSON values (the game's part): the declared fields that
        :attr:`FIELDS` says the snapshot holds."""
        out = {}
        for name, key, snap in self._SNAP:
            out[key] = getattr(self, name) if snap is True else snap(self)
        return out

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
        """``players``, ``scores`` (by name), ``winners``, ``winner``, ``over``, ``turns``;
        a game may add ``how``: how it ended, in words for a newcomer (the results panel
        shows it rather than a code of the game's, such as ``end`` or ``victory``)."""
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
