"""Games played over days: every game's table (its clocks, its host's link, bots for silent
seats, notices and table talk), beside the game itself.  No game is named here: what a
silent seat answers is the game's ``no_answer`` where it declares one, else its default
bot's choice.

A game's creator may send ``table`` with the game: ``{"clock": {kind, minutes, increment,
misses}, "talk": "full"|"public"|"none"}`` (``core.clock``, ``talk``); the 201 then
carries ``host``, the token of the host's link (kept as its SHA-256 only), which may pause,
resume and extend the clocks, give a seat a new link (the old one stops working), end the
game.  A game its host ended is over to its pages (``Live.done``): the state says
``over`` and ``ended``, with the result as it stands and nothing pending; its scores by
turn, its replay and a rematch are open as at the end of a game played out.

Clocks: a watcher looks at the games in memory every ``EVERY`` seconds.  A seat's turn
begins when it is first seen awaited and ends when it is seen no longer awaited, by the
watcher or at each move of the game (an answer, the bots' batch, a turn run out:
``Tables.moved``), so a turn the bots hand back at once is a new turn; a turn whose time ran out is a *miss*: the seat's pending decisions of that turn
get the game's ``no_answer``, or its default bot's answers (the bot made for that turn),
committed and pushed like a person's.  ``misses`` in a row and the default bot takes the
seat for good (it plays in the bots' process like any bot seat); the person takes it back
with the seat's link (``POST /api/games/{id}/seat/back``), or by answering with it (the
answer is then played if it is still one to the seat's decision), after which the clock
runs for them again.  Who played which answers for a seat is kept (``stand_ins``: seat, by whom,
from and to answer numbers) and shown with the table.

Everything a table keeps is in the ``tables`` row (``tabledb``), written through the
store's writer whenever it changes, so a restart keeps each turn's instant (clock time:
``core.clock``); the watcher loads, at start-up, the games whose clocks run.

In a cluster (``cluster``) only the game's owner writes its row, from its copy, which its
watcher changes too: a change asked through another process (the host's pause, resume,
extend or end, a seat's notice addresses, a seat taken back) is handed to the owner,
applied there as if asked there, and answered with the owner's outcome
(:meth:`Tables.hand`).  Handing the change over, rather than a compare-and-set of the row,
because a pause or an extension is an operation on a clock the owner changes too: a
writer that lost could not re-apply it to the other's row without re-running the
watcher's work.

API (token: a seat's, or the host's where said):

- ``GET /api/games/{id}/table`` → the table as the token sees it (clocks, talk, stand-ins,
  its own notice addresses); ``WS /api/games/{id}/table/ws``: it
  and each change, and each new message the token may read (``{"type": "talk", …}``).
- ``POST /api/games/{id}/talk`` ``{text, to}`` (a seat) → 201 the message.
- ``PUT /api/games/{id}/notices`` ``{webhook, email}`` (a seat) → the table.
- ``POST /api/games/{id}/seat/back`` (a seat a bot holds) → the table.
- ``POST /api/games/{id}/host`` ``{action: pause|resume|extend|reissue|end, minutes, seat}``
  (the host) → the table (``reissue``: and ``token``, the seat's new one).
- A rematch (``story``: ``POST /api/games/{id}/rematch``) keeps the table's settings.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from fastapi import APIRouter, Header, HTTPException, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field

from realms.core.clock import MAX_EXTEND_MINUTES, ClockError, ClockSpec, SeatClock, TableClock

from . import botworker, notices, tabledb, talk
from .notices import Outbox
from .store import hash_token

if TYPE_CHECKING:
    from .app import Live, Server

log = logging.getLogger("realms.server")

#: seconds between two looks at the games in memory
EVERY = 1.0
#: "one hour left" is said when a turn that had more than this has this left
WARN_SECONDS = 3600.0
#: answers a missed turn may be given at once
MAX_ANSWERS = 10_000
#: seconds a table socket may take to take a push before it is dropped
PUSH_SECONDS = 5.0
#: seconds a table change handed to the game's owner may take before the asker gives up
#: (503), and between two reads of its outcome while no notification says it
HAND_SECONDS = 10.0
HAND_LOOK = 0.5


def parse_settings(table: object) -> dict:
    """A creation's ``table`` checked: ``{"clock": ClockSpec JSON, "talk": mode}``, or a
    422 naming the field."""
    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise HTTPException(422, "table must be an object {clock, talk}")
    unknown = set(table) - {"clock", "talk"}
    if unknown:
        raise HTTPException(422, f"table: unknown field(s) {', '.join(sorted(map(str, unknown)))[:80]}")
    try:
        spec = ClockSpec.from_json(table.get("clock"))
    except ClockError as exc:
        raise HTTPException(422, f"table.{exc}") from None
    mode = table.get("talk", "full")
    if mode not in talk.MODES:
        raise HTTPException(422, f"table.talk must be one of {', '.join(talk.MODES)}")
    return {"clock": spec.to_json(), "talk": mode}


def default_bot(game) -> str:
    """The bot that plays a silent seat: the game's own first, as the lobby offers it."""
    return next(iter(game.bots), "random")


@dataclass
class Table:
    """A game's table in memory (see the module docstring)."""

    settings: dict
    host: str  # SHA-256 of the host's token; "" for a game made without one
    clock: TableClock
    #: seat -> {"webhook": url | None, "email": address | None}
    subs: dict = field(default_factory=dict)
    #: who played for a seat: [{"seat", "by", "from", "to"}], "to" None while it plays
    stand_ins: list = field(default_factory=list)
    ended: bool = False
    over_said: bool = False
    messages: list = field(default_factory=list)
    sockets: dict = field(default_factory=dict)  # websocket -> seat (None: spectator or host)
    #: the messages numbered below ``told`` have reached this process's table sockets
    #: (pushed, or in the view each was sent as it connected); ``ahead``: those past it
    #: pushed already (this process's own, pushed before another process's message
    #: before them was heard).  Each message is pushed once (:meth:`Tables.tell`)
    told: int = 0
    ahead: set = field(default_factory=set)
    #: the version and awaited seats the watcher saw last
    seen: tuple = (-1, frozenset())
    #: a turn began or ended at a move (:meth:`Tables.moved`): the next look saves and pushes
    moved: bool = False

    def state_json(self) -> dict:
        return {"clock": self.clock.to_json(), "subs": {str(k): v for k, v in self.subs.items()},
                "stand_ins": self.stand_ins, "ended": self.ended,
                "over_said": self.over_said}

    @classmethod
    def from_row(cls, settings: dict, host: str, state: dict) -> "Table":
        return cls(settings, host, TableClock.from_json(state["clock"]),
                   {int(k): v for k, v in state["subs"].items()}, state["stand_ins"], state["ended"],
                   state["over_said"])

    def held(self) -> dict[int, str]:
        """The seats a bot plays for good, with its kind."""
        return {s["seat"]: s["by"] for s in self.stand_ins if s["to"] is None}

    def keep(self, old: "Table") -> None:
        """Take over the pages of ``old`` (this game's table before it was read again) and
        what they were pushed."""
        self.sockets, self.told, self.ahead = old.sockets, old.told, old.ahead


class HostAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(description="pause, resume, extend, reissue or end")
    minutes: float | None = Field(default=None, description="extend: minutes added to every turn running")
    seat: int | None = Field(default=None, description="reissue: the seat (from 0) whose link is replaced")


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=5000)
    to: int | None = Field(default=None, description="a seat (from 0), or null for everyone")


class NoticeAddresses(BaseModel):
    model_config = ConfigDict(extra="forbid")
    webhook: str | None = Field(default=None, max_length=notices.MAX_URL)
    email: str | None = Field(default=None, max_length=320)


class Tables:
    """The tables of one :class:`Server`'s games, and their watcher."""

    def __init__(self, server: "Server", clock: Callable[[], float] = time.time,
                 settings: notices.Settings | None = None, every: float = EVERY) -> None:
        self.server = server
        self.clock = clock
        self.every = every
        self.settings = settings or notices.Settings()
        self.outbox = Outbox(server.store, self.settings, lambda: self.clock())
        self.rate = talk.Rate()
        self.task: asyncio.Task | None = None
        #: the table changes this process handed to their games' owners, by id: set once
        #: their outcome is notified (:meth:`hand`)
        self._handed: dict[str, asyncio.Event] = {}

    # -- a game's table ---------------------------------------------------------------
    async def created(self, live: "Live", settings: dict) -> str:
        """A new game's table, stored before the 201; the host's token."""
        token = secrets.token_urlsafe(24)
        t = Table(settings, hash_token(token), TableClock.new(ClockSpec(**settings["clock"]), len(live.row.seats)))
        await asyncio.to_thread(tabledb.put_table_now, self.server.store, live.row.id, settings, t.host,
                                t.state_json(), t.clock.spec.kind != "none")
        live.table = t  # only now: the watcher would otherwise write the row beside this insert
        return token

    async def attach(self, live: "Live", read: tuple | None = None) -> None:
        """Give a game loaded from the store its table (a default one if it has none) and
        its bots for seats they hold; ``read``: its row and talk read already
        (:func:`tabledb.tables_of`)."""
        if read is None:
            found = await asyncio.to_thread(tabledb.get_table, self.server.store, live.row.id)
        else:
            found = read[0]
        if found is None:
            live.table = Table(parse_settings(None), "", TableClock.new(ClockSpec(), len(live.row.seats)))
        else:
            live.table = Table.from_row(*found)
        live.table.messages = (await asyncio.to_thread(tabledb.messages, self.server.store, live.row.id)
                               if read is None else read[1])
        live.table.told = len(live.table.messages)
        for seat, kind in live.table.held().items():
            self._seat_bot(live, seat, kind)

    def save(self, live: "Live"):
        """Queue the table's row; the future of its commit."""
        t = live.table
        watch = t.clock.spec.kind != "none" and not t.ended and not live.state.is_over()
        return tabledb.put_table(self.server.store, live.row.id, t.settings, t.host, t.state_json(), watch)

    def _save_soon(self, live: "Live") -> None:
        """Queue the table's row without waiting; a failure is logged (the next change
        writes the whole row again)."""
        def written(f) -> None:
            if f.exception() is not None:
                log.error("game %s: its table was not stored: %r", live.row.id, f.exception())
        self.save(live).add_done_callback(written)

    # -- who asks ---------------------------------------------------------------------
    def who(self, live: "Live", token: str | None) -> tuple[int | None, bool]:
        """(seat or None, whether the token is the host's); 403 for a token of neither."""
        if token and live.table.host and hmac.compare_digest(hash_token(token), live.table.host):
            return None, True
        return live.seat_of(token), False

    def view(self, live: "Live", seat: int | None, host: bool) -> dict:
        """The table as ``seat`` (or the host, or a spectator) sees it."""
        t, now = live.table, self.clock()
        c, over = t.clock, live.state.is_over() or t.ended
        held = t.held()
        out: dict[str, Any] = {
            "now": now,
            "host": host,
            "talk": t.settings["talk"],
            "ended": t.ended,
            "over": over,
            "awaiting": [] if over else sorted({d.player for d in live.state.pending()}),
            "clock": None if c.spec.kind == "none" else {
                **c.spec.to_json(), "paused": c.paused_at is not None,
                "seats": [{"seat": i, "left": c.left(i, now), "due": c.wall_due(i), "misses": s.misses}
                          for i, s in enumerate(c.seats)]},
            "bots": {str(k): v for k, v in held.items()},
            "stand_ins": t.stand_ins,
            "messages": [m for m in t.messages if talk.visible(m, seat, over)][-talk.SHOWN:],
            "notices": t.subs.get(seat, {"webhook": None, "email": None}) if seat is not None else None,
        }
        return out

    async def push(self, live: "Live", message: dict | None = None) -> None:
        """Send each table socket its view, or ``message`` to those who may read it."""
        t = live.table
        over = live.state.is_over() or t.ended

        async def one(ws, seat, host) -> None:
            body = {"type": "talk", "message": message} if message else {"type": "table", **self.view(live, seat, host)}
            try:
                await asyncio.wait_for(ws.send_json(body), PUSH_SECONDS)
            except Exception:  # gone, or too slow to read: it reconnects and gets the table anew
                t.sockets.pop(ws, None)
        await asyncio.gather(*(one(ws, seat, host) for ws, (seat, host) in list(t.sockets.items())
                               if message is None or talk.visible(message, seat, over)))

    # -- table talk -------------------------------------------------------------------
    @staticmethod
    def tell(t: Table, n: int) -> bool:
        """Whether message ``n`` is still to be pushed to this process's table sockets;
        counted pushed from now (a message posted here is pushed by its post, and heard
        from another process by :meth:`heard`: whichever comes first pushes it)."""
        if n < t.told or n in t.ahead:
            return False
        t.ahead.add(n)
        while t.told in t.ahead:
            t.ahead.remove(t.told)
            t.told += 1
        return True

    async def heard(self, live: "Live", rows: list[dict]) -> None:
        """The game's messages as stored from ``told`` on (read when another process
        notified one: ``cluster``): those not yet here kept, those not yet pushed pushed,
        in order, each to the sockets that may read it."""
        t = live.table
        fresh = []
        for msg in rows:
            if msg["n"] == len(t.messages):
                t.messages.append(msg)
            if self.tell(t, msg["n"]):
                fresh.append(msg)
        for msg in fresh:
            await self.push(live, msg)

    async def stored_elsewhere(self, live: "Live", owner: bool) -> None:
        """Another process stored the game's table: read under the game's lock (after any
        change of this process's own, made under it, is stored).  A process that does not
        own the game takes it whole (clocks, stand-ins, notice addresses: the owner's
        watcher runs them and stores each change, and applies the changes handed to it);
        the owner takes only its end (a process that lost its lease and has not yet heard
        it may still write the row).  The table sockets are pushed the view, and
        the game's pages its end."""
        async with live.lock:
            found = await asyncio.to_thread(tabledb.get_table, self.server.store, live.row.id)
            if found is None:
                return
            new, t = Table.from_row(*found), live.table
            ended = new.ended and not t.ended
            if not owner:
                t.clock, t.subs, t.stand_ins, t.over_said = new.clock, new.subs, new.stand_ins, new.over_said
                self._held_as(live, new.held())
            if ended:
                t.ended = live.ended = True
        if ended and live.sockets:
            self.server.push(live)
        await self.push(live)

    def _held_as(self, live: "Live", held: dict[int, str]) -> None:
        """The seats a bot holds in this process's copy made those of the stored row
        (a process that does not own the game: it gives a seat back to its person's answer
        only if a bot holds it)."""
        for seat in [s for s in live.stand_ins if s not in held]:
            del live.stand_ins[seat]
            live.agents.pop(seat, None)
            live.mirrored = (0, 0)
        for seat, kind in held.items():
            if seat not in live.stand_ins:
                self._seat_bot(live, seat, kind)

    # -- a change handed to the game's owner --------------------------------------------
    def elsewhere(self, live: "Live") -> bool:
        """Whether a change of the game's table is to be handed to its owner: in a
        cluster, by a process that does not own the game (only the owner writes the row,
        from its copy: a row written by another would be overwritten at its next write)."""
        return self.server.cluster is not None and not self.server.owns(live.row.id)

    async def hand(self, live: "Live", body: dict) -> None:
        """Have the game's owner apply ``body`` (:meth:`apply`) and wait for its outcome:
        stored in ``table_actions`` and notified on the game's channel in one transaction,
        its outcome notified back (:meth:`answered`) and read at the latest every
        ``HAND_LOOK`` seconds (a notification may be missed, e.g. on a game just loaded).
        Its refusal is raised as the owner raised it; no outcome within ``HAND_SECONDS``
        and the change is withdrawn unless claimed, then 503: nothing is half-done.  The
        row as the owner stored it is then taken here and pushed to this process's pages."""
        store, gid = self.server.store, live.row.id
        action_id = secrets.token_hex(16)
        done = self._handed[action_id] = asyncio.Event()
        start = time.monotonic()
        try:
            await asyncio.to_thread(tabledb.ask_action, store, action_id, gid, body)
            while True:
                try:
                    await asyncio.wait_for(done.wait(), HAND_LOOK)
                except asyncio.TimeoutError:
                    pass
                status, detail = await asyncio.to_thread(tabledb.action_outcome, store, action_id)
                if status:
                    break
                waited = time.monotonic() - start
                if waited >= HAND_SECONDS and status is None and \
                        await asyncio.to_thread(tabledb.drop_action, store, action_id, True):
                    raise HTTPException(503, f"game {gid}: its owner process did not take the table's change "
                                             f"within {HAND_SECONDS:g} s; nothing was changed, send it again")
                if waited >= 2 * HAND_SECONDS:  # claimed, and its owner stuck applying it
                    raise HTTPException(503, f"game {gid}: its owner process took the table's change but did "
                                             f"not say its outcome within {2 * HAND_SECONDS:g} s; read the table")
        finally:
            self._handed.pop(action_id, None)
        await asyncio.to_thread(tabledb.drop_action, store, action_id, False)
        if status != 200:
            raise HTTPException(status, detail)
        await self.stored_elsewhere(live, False)

    def answered(self, action_id: str) -> None:
        """A handed change's outcome was notified: its asker, if this process, reads it."""
        done = self._handed.get(action_id)
        if done is not None:
            done.set()

    async def apply(self, gid: str, action_id: str) -> None:
        """Apply a change another process handed over (:meth:`hand`), as if asked here,
        and store its outcome: claimed first, so applied once, and never after its asker
        withdrew it."""
        store = self.server.store
        body = await asyncio.to_thread(tabledb.claim_action, store, action_id)
        if body is None:
            return
        status, detail = 200, None
        try:
            await self._make(await self.server.get(gid), body)
        except HTTPException as exc:
            status, detail = exc.status_code, str(exc.detail)
        except Exception as exc:
            log.exception("game %s: a table change handed over failed", gid)
            status, detail = 503, f"the table's change failed in its owner process: {type(exc).__name__}"
        await asyncio.to_thread(tabledb.settle_action, store, gid, action_id, status, detail)

    async def change(self, live: "Live", body: dict) -> None:
        """Make the table change ``body`` ({"kind": "act" | "notices" | "back", …}) where
        the game's owner makes it: here, or handed to it (:meth:`hand`)."""
        if self.elsewhere(live):
            await self.hand(live, body)
        else:
            await self._make(live, body)

    async def _make(self, live: "Live", body: dict) -> None:
        """The table change ``body`` made by this process, the game's owner."""
        if body["kind"] == "act":
            await self._act(live, HostAction(action=body["action"], minutes=body.get("minutes")))
        elif body["kind"] == "notices":
            await self._notices(live, body["seat"], body["subs"])
        elif body["kind"] == "back":
            await self._give_back(live, body["seat"], body["by"])
        else:
            raise HTTPException(422, f"a table change of an unknown kind: {body['kind']!r}")

    async def set_notices(self, live: "Live", seat: int, subs: dict) -> None:
        """``seat``'s notice addresses (checked already), stored by the game's owner."""
        await self.change(live, {"kind": "notices", "seat": seat, "subs": subs})

    async def _notices(self, live: "Live", seat: int, subs: dict) -> None:
        async with live.lock:
            live.table.subs[seat] = subs
            await self.server.committed(self.save(live))

    @staticmethod
    def joined(t: Table) -> None:
        """A table socket joins, its view made next: if it is the first, every message
        kept is in that view (told)."""
        if not t.sockets:
            t.told = max(t.told, len(t.messages))
            t.ahead = {n for n in t.ahead if n >= t.told}

    # -- seats played by bots ---------------------------------------------------------
    def _seat_bot(self, live: "Live", seat: int, kind: str) -> None:
        live.agents.update(botworker.make_agents(live.game, ["human"] * seat + [kind], live.row.seed))
        live.stand_ins[seat] = kind
        live.table.clock.hold(seat)
        live.mirrored = (0, 0)  # the bots' process rebuilds its mirror with this seat's bot

    def take(self, live: "Live", seat: int) -> None:
        """The default bot takes ``seat`` for good (held under the game's lock)."""
        kind = default_bot(live.game)
        live.table.stand_ins.append({"seat": seat, "by": kind, "from": live.version, "to": None})
        self._seat_bot(live, seat, kind)
        self._say(live, seat, "bot", f"a bot ({kind}) took your seat",
                  f"Your seat missed {live.table.clock.spec.misses} turns in a row; the bot plays it until you "
                  "take it back with your link, or answer with it.")

    async def give_back(self, live: "Live", seat: int | None, by: str = "button") -> None:
        """The bot holding ``seat`` leaves it to its person: by the page's button (409 if no
        bot holds it), or by the person's ``answer`` (then nothing to do if none does).  The
        stand-in's line says which (``back``)."""
        if seat is None:
            raise HTTPException(403, "only a seat's link takes the seat back")
        await self.change(live, {"kind": "back", "seat": seat, "by": by})

    async def _give_back(self, live: "Live", seat: int, by: str) -> None:
        async with live.lock:
            if seat not in live.stand_ins:
                if by == "answer":
                    return
                raise HTTPException(409, f"no bot plays seat {seat + 1}")
            del live.stand_ins[seat]
            live.agents.pop(seat, None)
            live.mirrored = (0, 0)
            live.table.clock.release(seat)
            for s in live.table.stand_ins:
                if s["seat"] == seat and s["to"] is None:
                    s["to"], s["back"] = live.version, by
            await self.server.committed(self.save(live))
        await self.push(live)

    def clock_of(self, live: "Live", seat: int) -> SeatClock | None:
        """``seat``'s clock as it stands, kept with an answer that may be taken back (None:
        the game has no clock)."""
        t = getattr(live, "table", None)
        return None if t is None or t.clock.spec.kind == "none" else t.clock.snapshot(seat)

    def taken_back(self, live: "Live", seat: int, before: SeatClock | None) -> None:
        """``seat``'s last answer was taken back (under the game's lock): its clock is again
        ``before``, so an answer and its undo renew no turn (``TableClock.take_back``);
        the clock then sees who is awaited now."""
        t = getattr(live, "table", None)
        if t is None or t.clock.spec.kind == "none":
            return
        if before is not None:
            t.clock.take_back(seat, before)
            t.moved = True
        self.moved(live)

    def moved(self, live: "Live") -> None:
        """The game moved (an answer, the bots' batch, a turn run out; under its lock): the
        clock sees who is awaited now.  The watcher only samples, and bots hand a turn back
        at once: a person's turn that ended (or ran out) and came back between two looks
        would otherwise go on as the old one, its time spent or its clock stopped."""
        t = getattr(live, "table", None)
        if t is None or t.clock.spec.kind == "none":
            return
        state = live.state
        awaited = set() if state.is_over() or t.ended else {d.player for d in state.pending()}
        began, ended = t.clock.observe(awaited, state.answers, self.clock())
        t.moved = t.moved or bool(began or ended)

    # -- the watcher ------------------------------------------------------------------
    async def look(self) -> None:
        """Load the games whose clocks run that are not in memory (after a restart)."""
        for gid in await asyncio.to_thread(tabledb.watched, self.server.store):
            if gid not in self.server.live and self.server.owns(gid):
                try:
                    await self.server.get(gid)
                except Exception:
                    log.exception("game %s: not loaded for its clocks", gid)

    async def sweep(self) -> None:
        """One look at every game this process owns; in a cluster, first the changes
        handed to it whose notification it missed (its channel not yet listened to when
        it took the game over, say)."""
        if self.server.cluster is not None:
            try:
                for action_id, gid in await asyncio.to_thread(tabledb.unclaimed_actions, self.server.store):
                    if self.server.owns(gid):
                        await self.apply(gid, action_id)
            except Exception:
                log.exception("the table watcher could not read the changes handed to it")
        for live in list(self.server.live.values()):
            if getattr(live, "table", None) is not None and self.server.owns(live.row.id):
                try:
                    await self.tend(live)
                except Exception:
                    log.exception("game %s: its clocks or notices failed a look", live.row.id)

    async def tend(self, live: "Live") -> None:
        """One look at a game: the turns begun and ended, the notices they call for, the
        turns run out."""
        t, now = live.table, self.clock()
        state = live.state
        over = state.is_over() or t.ended
        awaited = frozenset() if over else frozenset(d.player for d in state.pending())
        changed = False
        if (live.version, awaited) != t.seen:
            began, ended = t.clock.observe(set(awaited), state.answers, now)
            fresh = awaited - t.seen[1]
            t.seen = (live.version, awaited)
            for seat in sorted(fresh):
                if seat not in live.agents:
                    self._say(live, seat, f"turn:{live.version}", "your turn",
                              f"It is your turn in {live.game.name} (game {live.row.id}).")
            changed = bool(began or ended)
        if t.moved:
            t.moved, changed = False, True
        if over and not t.over_said:
            t.over_said = True
            for seat in range(len(live.row.seats)):
                self._say(live, seat, "over", "the game is over", f"The game of {live.game.name} "
                          f"(game {live.row.id}) is over." + (" Its host ended it." if t.ended else ""))
            changed = True
        for seat in t.clock.expired(now):
            await self.expire(live, seat)
            changed = True
        for seat, c in enumerate(t.clock.seats):
            left = t.clock.left(seat, now)
            if left is not None and left <= WARN_SECONDS and not c.warned and t.clock.running \
                    and (t.clock.due(seat) - c.since) > WARN_SECONDS:
                c.warned = True
                self._say(live, seat, f"warn:{c.from_n}", "one hour left",
                          f"Your turn in {live.game.name} (game {live.row.id}) runs out in an hour.")
                changed = True
        if changed:
            self._save_soon(live)
            await self.push(live)

    async def expire(self, live: "Live", seat: int) -> None:
        """``seat``'s turn ran out: its pending decisions answered as the game says for a
        silent seat (else by its default bot), committed and pushed; a miss counted, and
        the seat taken by the bot at the table's limit."""
        server = self.server
        async with live.lock:
            t = live.table
            if server.live.get(live.row.id) is not live or seat not in t.clock.expired(self.clock()):
                return  # paused or extended meanwhile
            if not live.state.pending_for(seat):
                return  # answered in time, before this look saw it: the next look ends the turn
            misses = t.clock.run_out(seat)
            before = live.state
            new = before.clone()
            start = live.version
            try:
                kind = default_bot(live.game)
                agent = botworker.make_agents(live.game, ["human"] * seat + [kind], live.row.seed)[seat]
                given = await asyncio.to_thread(_answer_for, live.game, new, seat, agent)
                await server.committed(server.store.submit(live.row.id, start, new.answers[start:]))
            except Exception:
                log.exception("game %s: seat %d's missed turn could not be played or stored", live.row.id, seat)
                server.live.pop(live.row.id, None)
                new.release()
                return
            by = "no answer" if live.game.no_answer is not None and all(
                live.game.no_answer(d) is not None for d in before.pending_for(seat)) else kind
            live.settle_bots(before, new)
            self.moved(live)
            if given:
                t.stand_ins.append({"seat": seat, "by": by, "from": start, "to": live.version})
            if misses >= t.clock.spec.misses and not live.state.is_over():
                self.take(live, seat)
            live.mirrored = (0, 0)
        server.continue_bots(live)
        if live.sockets:
            server.push(live)

    def _say(self, live: "Live", seat: int, what: str, subject: str, body: str) -> None:
        """Queue a notice to ``seat``'s addresses (keyed by the game, seat and ``what``)."""
        subs = live.table.subs.get(seat) or {}
        if self.settings.public_url:
            body += f"\n{self.settings.public_url.rstrip('/')}/games/{live.row.id}"
        for channel in ("webhook", "email"):
            target = subs.get(channel)
            if target:
                self.outbox.queue(f"{live.row.id}:{seat}:{what}:{channel}", live.row.id, channel, target,
                                  f"realms: {subject}", body)

    async def run(self) -> None:
        try:
            await self.look()
        except Exception:
            log.exception("the table watcher could not look for games with clocks")
        while True:
            await self.sweep()
            await asyncio.sleep(self.every)

    def start(self) -> None:
        """Start the watcher and the notice sender (once: see :meth:`Outbox.start`)."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        self.outbox.start()

    async def stop(self) -> None:
        """Stop the watcher, and the notice sender once it has sent what it claimed."""
        if self.task is not None:
            notices.call_on(self.task.get_loop(), self.task.cancel)
        await self.outbox.stop()

    # -- the host's tools -------------------------------------------------------------
    async def act(self, live: "Live", body: HostAction) -> dict:
        """The host's action (its view, and a reissued seat's token): a change of the table
        made by the game's owner (handed to it from another process: :meth:`hand`); a seat's
        new link, which changes the game's seats and not its table, by this process."""
        out: dict[str, Any] = {}
        if body.action == "reissue":
            async with live.lock:
                out["token"] = await self._reissue(live, body.seat)
            await self.push(live)
        else:
            await self.change(live, {"kind": "act", "action": body.action, "minutes": body.minutes})
        return {**self.view(live, None, True), **out}

    async def _act(self, live: "Live", body: HostAction) -> None:
        t, now = live.table, self.clock()
        async with live.lock:
            if body.action in ("pause", "resume", "extend") and t.clock.spec.kind == "none":
                raise HTTPException(422, f"{body.action}: this game has no clock")
            if body.action == "pause":
                t.clock.pause(now)
            elif body.action == "resume":
                t.clock.resume(now)
            elif body.action == "extend":
                m = body.minutes
                if m is None or not 0 < m <= MAX_EXTEND_MINUTES:
                    raise HTTPException(422, f"minutes: a number over 0 and at most {MAX_EXTEND_MINUTES}")
                t.clock.extend(m * 60)
            elif body.action == "end":
                if live.state.is_over() or t.ended:
                    raise HTTPException(409, "the game is over already")
                t.ended = True
                live.ended = True
            else:
                raise HTTPException(422, "action must be pause, resume, extend, reissue or end")
            await self.server.committed(self.save(live))
        if body.action == "end":
            await self.tend(live)
            if live.sockets:
                self.server.push(live)
        await self.push(live)

    async def _reissue(self, live: "Live", seat: int | None) -> str:
        seats = live.row.seats
        if seat is None or not 0 <= seat < len(seats) or seats[seat]["kind"] != "human":
            raise HTTPException(422, f"seat: a person's seat, from 0 to {len(seats) - 1}")
        token = secrets.token_urlsafe(24)
        new = [dict(s) for s in seats]
        new[seat]["token_hash"] = hash_token(token)  # the store keeps a link's hash only
        await self.server.committed(tabledb.put_seats(self.server.store, live.row.id, new))
        seats[seat]["token_hash"] = new[seat]["token_hash"]
        for box, s in list(live.sockets.items()):
            if s == seat:
                live.sockets.pop(box, None)
                await box.close(4403, "this seat's link was replaced by the game's host")
        for ws, (s, _) in list(live.table.sockets.items()):
            if s == seat:
                live.table.sockets.pop(ws, None)
                await _close(ws, 4403, "this seat's link was replaced by the game's host")
        return token


async def _close(ws, code: int, reason: str) -> None:
    try:
        await ws.close(code=code, reason=reason)
    except Exception:
        pass


def _answer_for(game, state, seat: int, agent) -> int:
    """Answer ``seat``'s pending decisions on ``state`` until it has none: the game's
    ``no_answer`` where it has one for the decision, else ``agent``'s choice.  The number
    of answers given."""
    given = 0
    while given < MAX_ANSWERS:
        mine = state.pending_for(seat)
        if not mine:
            return given
        d = mine[0]
        found = game.no_answer(d) if game.no_answer is not None else None
        if found is not None:
            state.apply(seat, found[1])
        else:
            state.answer_index(d, agent.choose(d, lambda: state.view(seat)))
        given += 1
    raise RuntimeError(f"seat {seat + 1}'s missed turn took {MAX_ANSWERS} answers and is still going")


def router(tables: Tables, token_of: Callable[[str | None], str | None]) -> APIRouter:
    """The table's routes (see the module docstring)."""
    api = APIRouter()
    server = tables.server

    async def table_of(game_id: str, authorization: str | None):
        live = await server.get(game_id)
        seat, host = tables.who(live, token_of(authorization))
        return live, seat, host

    async def talk_read(live) -> None:
        """In a cluster, the game's talk as stored: a message another process took may not
        be heard yet (or was taken before this process listened to the game), and a
        message is numbered after the last one stored."""
        if server.cluster is not None:
            live.table.messages = await asyncio.to_thread(tabledb.messages, server.store, live.row.id)

    @api.get("/api/games/{game_id}/table")
    async def get_table(game_id: str, authorization: str | None = Header(default=None)) -> dict:
        """The game's table as the token sees it: clocks, talk, bots holding seats, its own
        notice addresses."""
        live, seat, host = await table_of(game_id, authorization)
        await talk_read(live)
        return tables.view(live, seat, host)

    @api.post("/api/games/{game_id}/talk", status_code=201)
    async def post_talk(game_id: str, body: Message, authorization: str | None = Header(default=None)) -> dict:
        """A message to everyone (``to`` null) or to one seat, as the game's creator allows."""
        live, seat, _ = await table_of(game_id, authorization)
        t = live.table
        text, to = talk.check(body.text, body.to, seat, len(live.row.seats), t.settings["talk"])
        tables.rate.check((game_id, seat), tables.clock())
        await talk_read(live)
        t = live.table
        msg = {"n": len(t.messages), "at": tables.clock(), "seat": seat, "to": to, "text": text}
        t.messages.append(msg)
        try:
            await server.committed(tabledb.put_message(server.store, live.row.id, msg))
        except Exception as exc:
            if msg in t.messages:
                t.messages.remove(msg)
            raise HTTPException(503, f"the message could not be stored: {type(exc).__name__}") from None
        if tables.tell(t, msg["n"]):
            await tables.push(live, msg)
        return msg

    @api.put("/api/games/{game_id}/notices")
    async def put_notices(game_id: str, body: NoticeAddresses, authorization: str | None = Header(default=None)) -> dict:
        """The seat's notice addresses: a webhook (Discord, Slack…) and an e-mail address
        (null: none)."""
        live, seat, host = await table_of(game_id, authorization)
        if seat is None:
            raise HTTPException(403, "only a seat sets its notices")
        subs = {"webhook": None if not body.webhook else
                await asyncio.to_thread(notices.check_webhook, body.webhook, tables.settings.allow_local_webhooks),
                "email": None if not body.email else notices.check_email(body.email, tables.settings)}
        await tables.set_notices(live, seat, subs)
        return tables.view(live, seat, host)

    @api.post("/api/games/{game_id}/seat/back")
    async def seat_back(game_id: str, authorization: str | None = Header(default=None)) -> dict:
        """Take the seat back from the bot that plays it."""
        live, seat, host = await table_of(game_id, authorization)
        await tables.give_back(live, seat)
        return tables.view(live, seat, host)

    @api.post("/api/games/{game_id}/host")
    async def host_action(game_id: str, body: HostAction, authorization: str | None = Header(default=None)) -> dict:
        """The host's tools: pause, resume or extend the clocks; a seat's new link; end the game."""
        live, _, host = await table_of(game_id, authorization)
        if not host:
            raise HTTPException(403, "only the host's link may do this")
        return await tables.act(live, body)

    @api.websocket("/api/games/{game_id}/table/ws")
    async def table_ws(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        try:
            live = await server.get(game_id)
            seat, host = tables.who(live, token)
        except HTTPException as exc:
            await websocket.close(code=4000 + exc.status_code, reason=str(exc.detail)[:120])
            return
        await websocket.accept()
        await talk_read(live)
        tables.joined(live.table)
        live.table.sockets[websocket] = (seat, host)  # with its view made at once: no push between
        try:
            await websocket.send_json({"type": "table", **tables.view(live, seat, host)})
            while True:
                await websocket.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            live.table.sockets.pop(websocket, None)

    return api

