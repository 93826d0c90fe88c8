"""``realms play``: a person plays any game in the terminal, against bots or with friends
taking turns at one keyboard.

The screen shows what the web page shows, as text: the position as the game describes it
(``Game.describe``, or the scores), the viewer's panels (``Game.panels``), the chronicle
lines that seat may read, what the game advises before the decision (``Game.advice``: the
exact odds of the battles at stake), and the decision with numbered options.  At the prompt:

- a number answers with that option; after a filter, the numbers are those of the
  filtered list (``1``: the first option listed);
- ``N xK`` (``12 x3``) answers option N K times, while the game asks the same again and
  offers it: several units moved in one answer (the game's ``controls`` "moves");
- ``b``: the board again, each nation's or player's areas and units (``Game.describe``);
- an option's whole label answers it (``muir lir``); any other text filters the options
  (``north`` lists the options naming North…);
- ``u`` undoes your own last decision while no die has been rolled, nobody else has
  decided and nothing hidden was shown since (the web app's rule);
- ``s FILE`` saves the game's record (resume with ``--resume FILE``; ``s`` alone: to the
  autosave file); ``q``, Ctrl-D and Ctrl-C save to the autosave file and quit;
- ``h``, ``help``, ``?`` or an empty line list these keys;
- a question of an amount (its options all whole numbers: how much grain) takes the amount
  itself, never its place in the list.

When friends share the keyboard in a game with hidden information, the screen (and its
scroll-back) is cleared before the next person is called, so nobody reads another's hand.
Output to a file or a pipe is a transcript: no terminal codes, and piped keys are written
after their prompts.

With a clock (``--clock turn:30`` a turn, ``--clock bank:60+10`` a bank and an increment a
decision; ``core.clock``) each prompt shows the person's time left; an answer typed after
it ran out is not taken: the game's default bot (``stand_in``) plays the rest of that
turn, as the web app does for a silent seat.  The person at the keyboard keeps the seat
(the web app's bot that takes a seat for good is for people who are away).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable, TextIO

from realms.core.agents import Agent
from realms.core.clock import TableClock
from realms.core.decision import Decision
from realms.core.engine import GameState
from realms.core.game import Game
from realms.core.record import Record

PAGE = 20  # options listed at once; a filter narrows longer lists
#: clears the screen and its scroll-back: a person's hand leaves it before another looks
CLEAR = "\033[H\033[2J\033[3J"


def keyboard() -> Callable[[str], str]:
    """The person's keys: ``input``, which writes its prompt on stdout.  Keys piped in
    (a script, a file) are not echoed as typed ones are, so the line read is written after
    the prompt: the output reads as a transcript and what follows starts its own line."""
    if sys.stdin is None or sys.stdin.isatty():
        return input

    def piped(prompt: str) -> str:
        line = input(prompt)
        print(line, flush=True)
        return line
    return piped


@dataclass
class Seat:
    """A person's seat and the undo point of its last answer."""

    seat: int
    shown: int = 0  # chronicle lines of this seat already printed
    undo: "tuple[GameState, tuple, frozenset] | None" = None


@dataclass
class Terminal:
    """One game at one keyboard: ``people`` are the seats typed for, ``agents`` the bots."""

    game: Game
    state: GameState
    people: dict[int, Seat]
    agents: dict[int, Agent]
    read: Callable[[str], str] = field(default_factory=keyboard)
    out: TextIO | None = None
    autosave: str | None = None
    #: the people's clocks (None: none), read at ``now``; ``stand_in`` plays a turn run out
    clock: TableClock | None = None
    now: Callable[[], float] = time.time
    stand_in: Agent | None = None
    _last_person: int | None = field(default=None, init=False)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def write(self, text: str) -> None:
        print(text, end="", file=self.out, flush=True)

    def on_screen(self) -> bool:
        """Whether the output is a terminal, which takes the screen-clearing codes; a file
        or a pipe gets none, as it gets no other terminal code."""
        stream = self.out if self.out is not None else sys.stdout
        isatty = getattr(stream, "isatty", None)
        return bool(isatty is not None and isatty())

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> GameState:
        """Play until the game ends or the person quits; returns the state."""
        while self.state.pending():
            decision = self.state.pending()[0]
            seat = decision.player
            if seat in self.agents:
                view = lambda s=seat: self.state.view(s)  # noqa: E731
                self.state.answer_index(decision, self.agents[seat].choose(decision, view))
                continue
            self.tick()
            if not self.ask(decision):
                return self.state
            if self.clock is not None and seat in self.clock.expired(self.now()):
                self.ran_out(seat)
        self.show_end()
        return self.state

    # -- the clock ---------------------------------------------------------------------
    def tick(self) -> None:
        """The clock sees who is awaited now (a person's turn begins or ends)."""
        if self.clock is not None:
            awaited = {d.player for d in self.state.pending() if d.player in self.people}
            self.clock.observe(awaited, self.state.answers, self.now())

    def time_left(self, seat: int) -> str | None:
        """"12:34 left" for ``seat``'s turn, None without a clock."""
        left = None if self.clock is None else self.clock.left(seat, self.now())
        if left is None:
            return None
        s = int(left + 0.999)
        return f"{s // 3600}:{s // 60 % 60:02}:{s % 60:02} left" if s >= 3600 else f"{s // 60}:{s % 60:02} left"

    def ran_out(self, seat: int) -> None:
        """``seat``'s time ran out: the answer typed after it is taken back (the clock is
        read when an answer comes) and the stand-in plays the rest of the turn."""
        if self.clock is None:
            raise RuntimeError("a time runs out only on a clock")
        self.clock.run_out(seat)
        self.say(f"{self.names[seat]}: your time ran out; the bot plays the rest of your turn.")
        person = self.people[seat]
        if person.undo is not None and len(self.state.answers) == len(person.undo[0].answers) + 1:
            self.state = person.undo[0]
        person.undo = None
        agent = self.stand_in
        while agent is not None and (mine := self.state.pending_for(seat)):
            found = self.game.no_answer(mine[0]) if self.game.no_answer is not None else None
            if found is not None:
                self.state.apply(seat, found[1])
            else:
                self.state.answer_index(mine[0], agent.choose(mine[0], lambda: self.state.view(seat)))
        self.tick()

    def ask(self, decision: Decision) -> bool:
        """Show the position to the deciding person and take one answer; False: quit."""
        person = self.people[decision.player]
        if len(self.people) > 1 and self._last_person not in (None, decision.player) and self.game.hidden_information:
            if self.on_screen():
                self.write(CLEAR)  # the last person's hand leaves the screen before the next one looks
            try:
                self.read(f"{self.names[decision.player]}, your turn: press Enter (others look away) ")
            except (EOFError, KeyboardInterrupt):
                self.say("")
                self.save(self.autosave)
                return False
        self._last_person = decision.player
        self.show(person)
        left = self.time_left(decision.player)
        if left is not None:
            self.say(f"  {self.names[decision.player]}: {left}" + (" (this turn)" if self.clock is not None and self.clock.spec.kind == "turn" else ""))
        self.advise(person, decision)
        options = decision.options
        shown = list(range(len(options)))
        amounts = _amounts(options)
        while True:
            self.list_options(decision, options, shown)
            try:
                text = self.read(f"{self.names[decision.player]}> ").strip()
            except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C: as q, the game kept
                self.say("")
                text = "q"
            number, times = _number_and_times(text)
            if amounts is not None and number is not None:
                if number not in amounts or times != 1:
                    self.say(f"No {text[:20]!r}: type one number of {_span(list(amounts))}.")
                    continue
                self.answer(person, decision, amounts[number])
                return True
            if number is not None and times < 1:
                self.say(f"{text[:20]!r}: N xK answers option N K times, K from 1.")
                continue
            if number is not None and 1 <= number <= len(shown):
                self.answer(person, decision, shown[number - 1])
                if times > 1:
                    self.repeat(person, decision, options[shown[number - 1]].key, times - 1)
                return True
            if number is not None:
                self.say(f"No option {number}: the options listed are 1 to {len(shown)}.")
                continue
            if text == "b":
                self.show(person, board=True)
                continue
            if text == "q":
                self.save(self.autosave)
                return False
            if text == "u":
                if self.undo(person):
                    return True
                continue
            if text == "s" or text.startswith("s "):
                where = text[2:].strip() or self.autosave
                if where:
                    self.save(where)
                else:
                    self.say("s FILE: name the file to save the game to.")
                continue
            if text.lower() in ("", "?", "h", "help"):
                shown = list(range(len(options)))
                first = "Type an amount listed" if amounts is not None else \
                    "Type a number to answer (N xK: K times), words to filter"
                self.say(f"{first}, b for the board, u to undo, s FILE to save, q to save and quit.")
                continue
            exact = [i for i, o in enumerate(options) if o.label.strip().lower() == text.lower()]
            if len(exact) == 1:  # an option's whole label (Muir Lir, End movement) answers it
                self.answer(person, decision, exact[0])
                return True
            words = text.lower().split()
            shown = [i for i, o in enumerate(options) if all(w in o.label.lower() for w in words)]
            if not shown:
                self.say(f"No option matches {text[:40]!r}.")
                shown = list(range(len(options)))

    def repeat(self, person: Seat, first: Decision, key: str, more: int) -> None:
        """Answer ``key`` ``more`` times again while the same seat is asked the same kind
        of question and it is still offered (the units left to move); the undo point is the
        last answer's."""
        for _ in range(more):
            pending = self.state.pending()
            d = pending[0] if pending else None
            if d is None or d.player != first.player or d.kind != first.kind:
                break
            index = next((i for i, o in enumerate(d.options) if o.key == key), None)
            if index is None:
                break
            self.answer(person, d, index)

    def advise(self, person: Seat, decision: Decision) -> None:
        """What the game advises before the decision (the odds of the battles at stake),
        from the seat's view alone."""
        if self.game.advice is None:
            return
        try:
            entries = self.game.advice(self.state.view(person.seat), [decision])
        except Exception as exc:  # advice is a help: it never stops the game
            self.say(f"  (no odds: {type(exc).__name__})")
            return
        for e in entries[:3]:
            self.say(f"  Odds: {e['text']}")

    def answer(self, person: Seat, decision: Decision, index: int) -> None:
        before = self.state.clone()
        person.undo = (before, self.state.dice.fingerprint(), self.secrets(person.seat))
        self.state.answer_index(decision, index)

    # -- undo ----------------------------------------------------------------------------
    def secrets(self, seat: int) -> frozenset:
        return frozenset(map(str, self.game.hidden(self.state, seat)))

    def undo(self, person: Seat) -> bool:
        """Take back ``person``'s last answer if nothing has happened since that it could
        have learnt from: no die rolled, nobody else decided, nothing hidden shown."""
        if person.undo is None:
            self.say("Nothing to undo.")
            return False
        before, dice, hidden = person.undo
        if len(self.state.answers) != len(before.answers) + 1:
            self.say("Cannot undo: somebody else has decided since.")
        elif self.state.dice.fingerprint() != dice:
            self.say("Cannot undo: a die was rolled since.")
        elif not hidden <= self.secrets(person.seat):
            self.say("Cannot undo: you were shown something hidden since.")
        else:
            self.state = before
            person.undo = None
            person.shown = min(person.shown, len(self.state.chronicle_for(person.seat)))
            self.say("Undone.")
            return True
        return False

    # -- drawing -------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return list(self.state.result()["players"])

    def show(self, person: Seat, board: bool = False) -> None:
        view = self.state.view(person.seat)
        lines = self.state.chronicle_for(person.seat)
        fresh = [] if board else lines[person.shown:]
        person.shown = len(lines)
        if fresh:
            self.say("")
            for line in fresh[-40:]:
                self.say(f"  {line}")
        self.say("")
        self.say(f"== {self.game.name} — {self.names[person.seat]} ==")
        if self.game.describe is not None:
            for line in self.game.describe(view):
                self.say(line)
        scores = self.state.result()["scores"]
        self.say("  " + "   ".join(f"{n}: {scores.get(n)}" for n in self.names) + f"  ({self.game.score_name})")
        if self.game.panels is not None:
            for panel in self.game.panels(view):
                self.say(f"  {panel['title']}: {', '.join(map(str, panel['items'])) or 'none'}")

    def list_options(self, decision: Decision, options, shown: list[int]) -> None:
        self.say("")
        self.say(f"{decision.prompt}" + (f"  ({decision.section})" if decision.section else ""))
        amounts = _amounts(options)
        if amounts is not None:
            self.say(f"  Type the number: {_span(list(amounts))}")
            return
        for k, i in enumerate(shown[:PAGE]):
            self.say(f"  {k + 1:3}. {options[i].label}")
        if len(shown) > PAGE:
            self.say(f"  … {len(shown) - PAGE} more: type words to filter")

    def show_end(self) -> None:
        for person in self.people.values():
            self.show(person)
            break
        res = self.state.result()
        winners = [res["winner"]] if res["winner"] else list(res["winners"])
        label = "Winners" if len(winners) > 1 else "Winner"
        self.say(f"\nThe game is over. {label}: {', '.join(winners) or 'nobody'}.")
        self.save(self.autosave)

    def save(self, path: str | None) -> None:
        if not path:
            return
        try:
            self.state.record().save(path)
        except OSError as exc:
            self.say(f"Cannot save {path}: {exc.strerror}")
            return
        self.say(f"Saved the record to {path} (realms play … --resume {path}).")


def _number_and_times(text: str) -> tuple[int | None, int]:
    """``"12"`` → (12, 1); ``"12 x3"`` or ``"12x3"`` → (12, 3); anything else (None, 1)."""
    head, sep, tail = text.replace(" ", "").partition("x")
    if head.isdigit() and (not sep or tail.isdigit()):
        return int(head), int(tail) if sep else 1
    return None, 1


def _amounts(options) -> dict[int, int] | None:
    """A question whose options are all whole numbers (how much grain, how many units) as
    {number: option index}: the person types the amount itself, never its place in a list
    (where "4" would have answered the fourth amount offered).  None for any other question."""
    labels = [o.label.strip() for o in options]
    if not labels or not all(t.isdigit() for t in labels):
        return None
    amounts = {int(t): i for i, t in enumerate(labels)}
    return amounts if len(amounts) == len(labels) else None


def _span(numbers: list[int]) -> str:
    """``4 to 15`` for a run without gaps, else the numbers listed."""
    numbers = sorted(numbers)
    if len(numbers) > 2 and numbers[-1] - numbers[0] == len(numbers) - 1:
        return f"{numbers[0]} to {numbers[-1]}"
    return ", ".join(map(str, numbers))


def resume(game: Game, record: Record, source: str) -> GameState:
    """The state a saved record leads to (a :class:`RecordError` names what is wrong)."""
    return game.replay(record, source)
