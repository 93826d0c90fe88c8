"""Clocks for games played over days: a deadline per turn, or a time bank per player with
an increment per decision.  Plain arithmetic on instants given by the caller (no clock is
read here), so the web app, ``realms play`` and the tests drive it with any time source.

A seat's *turn* is a stretch in which it is awaited: it begins when the seat first has a
decision pending and ends when it has none (a nation's turn of many decisions in a
sequential game; a round of orders in a simultaneous one).  The clock of that turn is
``minutes`` from its start (``turn``), or the seat's bank (``bank``: ``minutes`` at the
start of the game, less the time its turns took, plus ``increment`` seconds for every
decision the person made).  When it runs out the turn is *missed*; ``misses`` in a row
and a bot takes the seat (the caller decides who answers; here only the count).  A turn
that ran out leaves a bank as it was at the start of the game (the next turn is not lost
before it begins).

Time stops while the clocks are paused: every instant kept is in *clock time*, the wall
time less the pauses so far, so that a pause and a resume move no deadline by hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

KINDS = ("none", "turn", "bank")
#: bounds a table's creator may choose within
MIN_MINUTES, MAX_MINUTES = 1, 30 * 24 * 60
MAX_INCREMENT = 24 * 3600
MIN_MISSES, MAX_MISSES = 1, 20
#: the longest a host may add to the turns running at once
MAX_EXTEND_MINUTES = 7 * 24 * 60


class ClockError(ValueError):
    """A clock setting out of bounds; the message names the field and its bounds."""


def _number(data: dict, name: str, lo: float, hi: float, default: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise ClockError(f"clock.{name} must be a number from {lo} to {hi}")
    return float(value)


@dataclass(frozen=True)
class ClockSpec:
    """A game's clock as its creator set it: ``kind`` (none, turn, bank), ``minutes`` (the
    turn's deadline, or the bank at the start), ``increment`` (seconds a bank gains per
    decision), ``misses`` (turns run out in a row before a bot takes the seat)."""

    kind: str = "none"
    minutes: float = 0.0
    increment: float = 0.0
    misses: int = 2

    @classmethod
    def from_json(cls, data: object) -> "ClockSpec":
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ClockError("clock must be an object {kind, minutes, increment, misses}")
        unknown = set(data) - {"kind", "minutes", "increment", "misses"}
        if unknown:
            raise ClockError(f"clock: unknown field(s) {', '.join(sorted(map(str, unknown)))[:80]}")
        kind = data.get("kind", "none")
        if kind not in KINDS:
            raise ClockError(f"clock.kind must be one of {', '.join(KINDS)}")
        misses = data.get("misses", 2)
        if isinstance(misses, bool) or not isinstance(misses, int) or not MIN_MISSES <= misses <= MAX_MISSES:
            raise ClockError(f"clock.misses must be a whole number from {MIN_MISSES} to {MAX_MISSES}")
        if kind == "none":
            return cls(misses=misses)
        minutes = _number(data, "minutes", MIN_MINUTES, MAX_MINUTES, 0)
        increment = _number(data, "increment", 0, MAX_INCREMENT, 0) if kind == "bank" else 0.0
        if kind == "turn" and data.get("increment"):
            raise ClockError("clock.increment is for a bank (kind 'bank'), not a deadline per turn")
        return cls(kind, minutes, increment, misses)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class SeatClock:
    """One seat's clock: when its turn began (clock time; None: not awaited), the bank
    at that instant, seconds a host added to this turn, the turns run out in a row, the
    number of answers when the turn began, whether the turn ran out, and whether "one
    hour left" was said this turn."""

    since: float | None = None
    bank: float = 0.0
    extra: float = 0.0
    misses: int = 0
    from_n: int = 0
    ran_out: bool = False
    warned: bool = False


@dataclass
class TableClock:
    """The clocks of one game's seats."""

    spec: ClockSpec
    seats: list[SeatClock]
    #: seconds paused before the current pause (or before now, when running)
    paused_total: float = 0.0
    #: the wall instant the clocks were paused, or None
    paused_at: float | None = None
    #: seats a bot plays for good (their clocks stand still)
    held: set = field(default_factory=set)

    @classmethod
    def new(cls, spec: ClockSpec, seats: int) -> "TableClock":
        return cls(spec, [SeatClock(bank=spec.minutes * 60) for _ in range(seats)])

    # -- time ------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.spec.kind != "none" and self.paused_at is None

    def now(self, wall: float) -> float:
        """Clock time at the wall instant ``wall``."""
        return (self.paused_at if self.paused_at is not None else wall) - self.paused_total

    def due(self, seat: int) -> float | None:
        """The clock instant ``seat``'s turn runs out (None: not awaited, or no clock)."""
        c = self.seats[seat]
        if self.spec.kind == "none" or c.since is None or c.ran_out:
            return None
        budget = self.spec.minutes * 60 if self.spec.kind == "turn" else c.bank
        return c.since + budget + c.extra

    def left(self, seat: int, wall: float) -> float | None:
        """Seconds ``seat`` has left at ``wall`` (None: its clock does not run now)."""
        due = self.due(seat)
        return None if due is None else max(0.0, due - self.now(wall))

    def wall_due(self, seat: int) -> float | None:
        """The wall instant ``seat``'s turn runs out if nobody pauses (None: paused, or no
        turn running)."""
        due = self.due(seat)
        return None if due is None or self.paused_at is not None else due + self.paused_total

    # -- turns -----------------------------------------------------------------------
    def observe(self, awaited: set[int], answers: list, wall: float) -> tuple[list[int], list[int]]:
        """The seats ``awaited`` now, after ``answers``: the turns that began and those that
        ended since the last look, as (began, ended) seat lists; a bank is charged the
        turn's time and credited the increment of each decision the seat made in it."""
        now = self.now(wall)
        began, ended = [], []
        for seat, c in enumerate(self.seats):
            wants = seat in awaited and seat not in self.held
            if wants and c.since is None:
                c.since, c.from_n, c.extra, c.ran_out, c.warned = now, len(answers), 0.0, False, False
                began.append(seat)
            elif not wants and c.since is not None:
                self._end(seat, c, answers, now)
                ended.append(seat)
        return began, ended

    def _end(self, seat: int, c: SeatClock, answers: list, now: float) -> None:
        assert c.since is not None
        if self.spec.kind == "bank":
            if c.ran_out:
                c.bank = self.spec.minutes * 60
            else:
                made = sum(1 for p, _ in answers[c.from_n:] if p == seat)
                c.bank = max(0.0, c.bank + c.extra - (now - c.since)) + self.spec.increment * made
        if not c.ran_out:
            c.misses = 0
        c.since, c.extra = None, 0.0

    def expired(self, wall: float) -> list[int]:
        """The seats whose turn ran out by ``wall`` (not yet marked so)."""
        if not self.running:
            return []
        now = self.now(wall)
        return [s for s in range(len(self.seats)) if (d := self.due(s)) is not None and now >= d]

    def run_out(self, seat: int) -> int:
        """Mark ``seat``'s turn run out; its misses in a row now."""
        c = self.seats[seat]
        c.ran_out = True
        c.misses += 1
        return c.misses

    def snapshot(self, seat: int) -> SeatClock:
        """A copy of ``seat``'s clock, to give to :meth:`take_back`."""
        return replace(self.seats[seat])

    def take_back(self, seat: int, before: SeatClock) -> None:
        """``seat``'s last decision was taken back: its clock is again ``before``, as it
        was just before that decision, so a turn the decision ended goes on from the
        instant it began (the time since is spent, a bank gains no increment for the
        decision, and its deadline is not renewed).  A seat a bot took meanwhile keeps
        its clock still."""
        if seat not in self.held:
            self.seats[seat] = replace(before)

    # -- the host's tools ------------------------------------------------------------
    def pause(self, wall: float) -> None:
        if self.paused_at is None:
            self.paused_at = wall

    def resume(self, wall: float) -> None:
        if self.paused_at is not None:
            self.paused_total += max(0.0, wall - self.paused_at)
            self.paused_at = None

    def extend(self, seconds: float) -> list[int]:
        """Add ``seconds`` to every turn running; the seats extended."""
        out = []
        for seat, c in enumerate(self.seats):
            if c.since is not None and not c.ran_out:
                c.extra += seconds
                out.append(seat)
        return out

    def hold(self, seat: int) -> None:
        """A bot plays ``seat`` for good: its clock stands still."""
        self.held.add(seat)

    def release(self, seat: int) -> None:
        """The person takes ``seat`` back: a fresh count of misses and, for a bank, the
        bank of the game's start."""
        self.held.discard(seat)
        c = self.seats[seat]
        c.misses, c.since, c.extra, c.ran_out = 0, None, 0.0, False
        if self.spec.kind == "bank":
            c.bank = self.spec.minutes * 60

    # -- kept as JSON ----------------------------------------------------------------
    def to_json(self) -> dict:
        return {"spec": self.spec.to_json(), "seats": [asdict(c) for c in self.seats],
                "paused_total": self.paused_total, "paused_at": self.paused_at, "held": sorted(self.held)}

    @classmethod
    def from_json(cls, data: dict) -> "TableClock":
        return cls(ClockSpec(**data["spec"]), [SeatClock(**c) for c in data["seats"]],
                   data["paused_total"], data["paused_at"], set(data["held"]))
