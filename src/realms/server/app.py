"""The web app: HTTP + WebSocket API over the game contract, and the browser client.

One process keeps every live game in memory (state rebuilt by replaying the stored
answers on first use) and each game's answers in the database.  A person's answer is
checked on a copy of the state and committed; only then does the copy become the game and
the 200 go out, at once: the bots whose turn follows play in the background (a task per
game, their thinking done in another process: ``botworker``), and each batch of their
answers is committed before the game's pages get it over the WebSocket, so what a page
sees is stored, and a reload shows it.  A refused or failed
answer leaves the game as it was.

API (OpenAPI at ``/docs``, its Swagger UI served from the installed ``fastapi-offline``
package, so the page works without internet):

- ``GET /api/health``
- ``POST /api/games`` ``{game, options, seed?, seats}`` → 201 ``{id, seats: [{seat, kind, token}]}``;
  429 with ``Retry-After`` when the address created too many games lately (``limits``).
  ``seed`` is refused (422) when more than one person plays a game whose seed decides
  what the players may not know (a deal: the ``hidden_information`` trait; the dice to
  come: ``chance``): the server draws a seed of its own that nobody learns before the game
  is over, when the record gives it (and replays exactly).  One person with bots may
  choose it.
- ``GET /api/games/{id}`` (``Authorization: Bearer TOKEN``; none: a spectator) → ``{view, pending, version, …}``
- ``POST /api/games/{id}/answers`` ``{key, version}`` → 200 the new state; 409 stale version
  (an earlier version is taken when the seat's decisions pending now were pending then:
  seats answering simultaneous decisions at once are applied in turn); 422 not an option;
  403 not the seat that must decide; 404 unknown game
- ``POST /api/games/{id}/undo`` ``{version}`` → 200 the state as it was before the seat's last
  answer, which is taken back (and deleted from the database before the 200).  Only a seat's
  own last decision, while nobody else has decided since, no die was rolled in applying
  it and it showed nobody anything hidden before (a card passed, drawn or played face up):
  an answer the bots are to reply to stands from the start, whether or not their replies
  are in yet.  403 a spectator, or the last answer is not the seat's (somebody decided
  since), or the bots are replying to it, or the game is over, or it is more than
  ``MAX_UNDO`` answers back; 409 stale version; 422 a die was rolled
  (chance drawn) by that answer, or it revealed something, or the game's rules make it
  final (``Game.final``: a post of orders once sent); 404 unknown game.  The state
  payload says ``can_undo``, and ``undos`` counts this game's undos in this process.
- ``GET /api/games/{id}/record``, ``GET /api/games/{id}/board.svg``
- ``WS /api/games/{id}/ws?token=…&socket=NAME``: the state, then each new state, but those
  of the page's own answers and undos that name its socket (``X-Realms-Socket: NAME``):
  their 200 carries them, and a second copy of 19 KB cost the server and the page

- a game's table (``host``): ``GET /api/games/{id}/table``, ``WS …/table/ws``, ``POST
  …/talk``, ``PUT …/notices``, ``POST …/seat/back``, ``POST …/host``

Who asks is checked before what is asked: a request without a seat's token that only a
seat may make is 403 whatever its version.  Every request body is at most 64 KiB (413),
and no error repeats the input it refuses (``limits``).

Work a request can cause (docs/architecture.md, "How work is bounded"): pushes are queued
per socket and sent by its own task (``sockets``); the odds before a decision and the
replays (``?at=N``, ``board.svg?at=N``, ``/turns``: 429 when the address has too many
waiting, 503 past their budget) are worked out in processes of their own (``heavy``); the
bots' turns are shared fairly (``fairshare``); a game's setup runs in one thread, one at a
time; finished games leave memory past ``FINISHED_KEPT``.  None of it by the bots.  A game's creation stores it and an answer
stores that answer; the bots play afterwards in the background, at most ``BOT_BATCH``
answers (or ``BOT_SECONDS`` of their thinking) per commit, the game held meanwhile.
A game whose bots were cut short by a restart goes on at its first request.

The state payload of a seat with a decision to make carries ``odds``: what the game's
``advice`` hook tells a player before deciding (Hy Breasil: the exact odds of the battles
at stake), computed from the seat's view alone.  A game not yet set up in the odds'
worker is set up there in the background: meanwhile ``odds`` is one entry of kind
``pending``, and the odds are pushed to the game's pages when worked out.

Latency: the bots think in a process of their own (``botworker``: ten times the cost of
applying their answers), so the event loop only applies, stores and pushes what they
answered, giving itself back every ``BOT_SLICE`` seconds, one game's batch at a time (a
shared lock): however many games' bots have answered, a request waits for at most one
slice each time it awaits; states dropped are
released at once (no reference cycles left for the garbage collector); ``realms serve``
warms every game (``Game.warm``: solver tables, boards) before it listens and freezes the
objects alive at start-up out of the collector's passes.  A person's answer, the request
a page sends most, is taken before FastAPI's routing (``fastpath``); a payload is encoded
once per state and seat, by orjson; SQLite commits without a disk sync (``store``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from contextlib import asynccontextmanager
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import orjson
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field

from realms.core.agents import Agent, parse_bot
from realms.core.decision import IllegalAnswer
from realms.core.engine import GameState
from realms.core.game import Game, OptionError, UnknownGame, games, get_game
from realms.core.match import bot_answers
from realms.core.mapgraph import MapError
from realms.core.options import shown

from starlette.middleware.gzip import GZipMiddleware

from . import botworker, cluster, fairshare, heavy, limits, notices, sockets, story
from .deadlines import Deadlines
from .host import Tables, parse_settings, router as table_router
from .fastpath import MAX_KEY, AnswerFastPath
from .store import GameRow, Store, UndoConflict, hash_token
from .tabledb import tables_of

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_SEED = 2**31 - 1
#: bots that play this many decisions in a row without awaiting anybody have a bug
#: (``bot_answers`` stops with an error); what a request may make them play is below
MAX_BOT_DECISIONS = 200_000
CHRONICLE_LINES = 200
#: the longest name a page may give its socket
SOCKET_ID = 64
SOCKET_HELP = ("the name this page gave its WebSocket (?socket=): the new state is in this response, "
               "and that socket is not sent it again")
#: how many of its own consecutive decisions a seat can take back, one by one
MAX_UNDO = 16
#: applying the bots' answers gives the event loop back after this many seconds
BOT_SLICE = 0.002
#: the bots' answers one background batch plays before they are committed and pushed
#: (about 0.6 s of the slowest bots); a bigger bot turn goes on in the next batch
BOT_BATCH = 1000
#: nor do they think longer than this for one batch: a page sees their turn go on
BOT_SECONDS = 0.25
#: finished games kept in memory, the most recently asked for (the others are rebuilt
#: from the store when asked for again): a finished game is about 14 KB and 2.4 KB an answer
FINISHED_KEPT = 32
#: a seed the server draws for a game whose seed no player may know: below 2**53, so that
#: a record read by JavaScript keeps it exact, and far too many to try one by one
SECRET_SEEDS = 2**53

log = logging.getLogger("realms.server")
#: this process's id in the state payload: with ``undos`` it orders states across undos
BOOT = secrets.token_hex(4)


# -- request bodies ----------------------------------------------------------------------
#: a bound on the body alone; the number of seats is the game's own (its player range,
#: checked on creation with an error naming the range)
MAX_SEATS = 64
#: request bodies as sent: no field converted (a version "0", 0.0 or false, a seed "5" or
#: true are refused, not taken for the numbers), no field unknown
STRICT = ConfigDict(extra="forbid", strict=True)


class NewGame(BaseModel):
    model_config = STRICT
    game: str = Field(description="a game id, as GET /api/catalog lists them")
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options by name, as GET /api/catalog "
                                    "declares them, e.g. {\"turns\": 15, \"rules\": [\"races\"]}")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description=(
        "the game's seed; refused when more than one person plays a game of chance or hidden "
        "information (the server then draws a secret one, given in the finished record)"))
    seats: list[str] = Field(min_length=1, max_length=MAX_SEATS, description=(
        "\"human\" or a bot name per seat, as many as the game's player range allows"))
    table: dict[str, Any] | None = Field(default=None, description=(
        "the table (server/host.py): {\"clock\": {\"kind\": \"none\"|\"turn\"|\"bank\", \"minutes\", "
        "\"increment\", \"misses\"}, \"talk\": \"full\"|\"public\"|\"none\"}"))


class Answer(BaseModel):
    model_config = STRICT
    key: str = Field(max_length=MAX_KEY, description="the key of one of the options pending")
    version: int = Field(ge=0, description="the version of the state the answer was chosen in")


class Undo(BaseModel):
    model_config = STRICT
    version: int = Field(ge=0, description="the version of the state shown (the undo takes back answer version - 1)")


class Created(BaseModel):
    id: str
    seats: list[dict]
    host: str | None = None


# -- live games ---------------------------------------------------------------------------
@dataclass
class Undoable:
    """An answer that can still be taken back: its number ``n``, the ``seat`` that gave it,
    the state just ``before`` it, and the seat's table clock then (None: no clock, or the
    game was rebuilt since)."""

    n: int
    seat: int
    before: GameState
    clock: Any = None


@dataclass
class Live:
    #: the game's row (its ``answers``: those it was rebuilt from; the game's are the state's)
    row: GameRow
    game: Game
    state: GameState
    agents: dict[int, Agent]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the pages watching: each socket's outbox (``sockets.Outbox``) -> its seat
    sockets: dict[Any, int | None] = field(default_factory=dict)
    #: the outboxes of the sockets their pages named (``?socket=``), by name: a page's
    #: answer names its socket (``X-Realms-Socket``), which is not sent the state its 200 carries
    named: dict[str, Any] = field(default_factory=dict)
    #: the last answers, oldest first, when each was a person's, drew no chance and had
    #: no reply from anybody else (``undo[-1].n == version - 1``); at most ``MAX_UNDO``
    undo: list[Undoable] = field(default_factory=list)
    #: the number of the last person's answer that drew chance (a die rolled), or -1
    chance_at: int = -1
    #: the number of the last person's answer that showed somebody something hidden, or -1
    revealed_at: int = -1
    #: the number of the last person's answer the game's rules make final (``Game.final``), or -1
    final_at: int = -1
    #: the undos of this game in this process: a page orders the states it gets by
    #: (boot, undos, version), since an undo goes back a version
    undos: int = 0
    #: the task playing this game's bots in the background (:meth:`Server.continue_bots`)
    bots: "asyncio.Task | None" = None
    #: (the bots' process's generation, the version its mirror of this game is at): the
    #: next job sends the answers since, or the whole record if that mirror is unknown
    mirrored: tuple = (0, 0)
    #: the advice last computed: (the state it is for, {seat: entries})
    _advice: tuple = (None, {})
    #: the payloads last made: (the state, undo count and end they are for, {seat: payload}),
    #: so that the push after an answer reuses the payload of its 200
    _payloads: tuple = (None, -1, False, {})
    #: (a state, its :func:`kept_hidden`): the last asked for by :meth:`settle`
    _hidden: tuple = (None, None)
    #: the views of the state now: (the state, {seat: view}) (:meth:`view`)
    _views: tuple = (None, {})
    #: the board last drawn: (the state and undo count it is of, its SVG)
    _board: tuple = (None, -1, None)
    #: the server's turn deadlines (server/deadlines.py), asked for the payload's deadline
    deadlines: "Deadlines | None" = None
    #: the game's table (server/host.py): clocks, talk, notices; the seats a bot plays for
    #: a person (seat -> bot kind, also in ``agents``); whether the host ended the game
    table: Any = None
    stand_ins: dict = field(default_factory=dict)
    ended: bool = False
    #: each seat awaited: (its pending decisions, the version they were first seen pending
    #: at), so that an answer chosen in an earlier version to a decision still pending is
    #: taken (:meth:`still_asked`)
    asked: dict = field(default_factory=dict)
    #: why the game's odds are no longer worked out (they went over their budget), or ""
    advice_off: str = ""
    #: the address that created the game (its bots' turns are shared by address:
    #: ``fairshare``); a game rebuilt from the store has none known
    owner: str = "restored"

    @property
    def people(self) -> bool:
        """Whether a person plays the game (else its bots play alone)."""
        return any(s["kind"] == "human" for s in self.row.seats)

    def __post_init__(self) -> None:
        self.note_asked()

    @property
    def version(self) -> int:
        return len(self.state.answers)

    def socket_of(self, name: str | None, seat: int | None) -> Any:
        """The outbox of the socket a page named ``name``, if it watches as ``seat``; else None."""
        box = self.named.get(name) if name else None
        return box if box is not None and self.sockets.get(box, -1) == seat else None

    def note_asked(self) -> None:
        """Note when each seat's pending decisions were first seen: a seat whose decisions
        are the same objects as before keeps its version, any other gets the version now."""
        mine: dict[int, list] = {}
        for d in self.state.pending():
            mine.setdefault(d.player, []).append(d)
        v = self.version
        asked = {}
        for seat, ds in mine.items():
            old = self.asked.get(seat)
            same = old is not None and len(old[0]) == len(ds) and all(a is b for a, b in zip(old[0], ds))
            asked[seat] = old if same else (ds, v)
        self.asked = asked

    def still_asked(self, seat: int, version: int) -> bool:
        """Whether ``seat``'s decisions pending now were already pending at ``version`` (an
        earlier one): its answer chosen then is an answer to them.  Simultaneous decisions
        (several seats answering one round at once, each its own) are answered so in turn;
        a seat that answered since, or was asked anew, is stale."""
        found = self.asked.get(seat)
        return found is not None and found[1] <= version < self.version

    @property
    def done(self) -> bool:
        """Whether nothing more is played: the game is over, or its host ended it (then its
        pages show it ended, with the results as they stand, and offer a rematch)."""
        return self.ended or self.state.is_over()

    def can_undo(self, seat: int | None) -> bool:
        return seat is not None and bool(self.undo) and self.undo[-1].seat == seat and not self.done

    def advice(self, seat: int | None, view: dict) -> list[dict]:
        """The game's advice for ``seat`` before its pending decisions, as
        :meth:`Server.advise` worked it out for the state now (none for spectators, seats
        with nothing to decide, or a state not advised yet)."""
        state, cache = self._advice
        if seat is None or state is not self.state:
            return []
        return cache.get(seat, [])

    async def board_now(self) -> str:
        """The board of the state now (SVG), drawn in a thread once per state: its cost is
        that of one position, which the game's own work bounds (a replay's is not:
        ``heavy``)."""
        state, undos, svg = self._board
        if state is not self.state or undos != self.undos:
            state, undos, draw = self.state, self.undos, self.game.draw
            assert draw is not None  # asked only of a game that draws its board
            svg = await asyncio.to_thread(draw, state, state.options)
            self._board = (state, undos, svg)
        return svg

    def view(self, seat: int | None) -> dict:
        """``seat``'s view of the state now, made once per state: the odds' job and the
        payload of a state both start from it (neither changes it)."""
        state, views = self._views
        if state is not self.state:
            views = {}
            self._views = (self.state, views)
        if seat not in views:
            views[seat] = self.state.view(seat)
        return views[seat]

    def asks(self, seats: set) -> list[tuple]:
        """What the advice of the state now is asked for: (seat, view, decisions as JSON)
        of each person's seat of ``seats`` with a decision pending of a kind the game
        advises on (:attr:`Game.advice_kinds`): no round trip to the odds' worker for the
        others."""
        state, kinds = self.state, self.game.advice_kinds
        advised = {d.player for d in state.pending() if kinds is None or d.kind in kinds}
        return [(seat, self.view(seat), [heavy.decision_json(d) for d in state.pending_for(seat)])
                for seat in sorted(advised & seats)
                if self.row.seats[seat]["kind"] == "human"]

    def watching(self, *seats: int | None) -> set:
        """``seats`` and the seats of the pages watching: those a payload is made for."""
        return {*seats, *self.sockets.values()}

    def settle(self, before: GameState, after: GameState, seat: int, start: int, clock: Any = None) -> None:
        """Make ``after`` the game: ``before`` was, when ``seat`` gave answer number ``start``.
        The answer can be taken back if no bot is to reply to it, it drew no chance and it
        showed nobody anything hidden; otherwise nothing before it can be (the bots' replies
        come in the background, so an answer they are to reply to stands from the start)."""
        self.state = after
        self.note_asked()
        if not bots_to_move(after, self.agents):
            was, now = self.kept_hidden(before), self.kept_hidden(after)
            if is_final(self.game, before, after.answers[start]):
                self.final_at = start
            elif was[0] != now[0]:
                self.chance_at = start
            elif reveals_between(was, now):
                self.revealed_at = start
            else:
                self.undo.append(Undoable(start, seat, before, clock))
                if len(self.undo) > MAX_UNDO:
                    self.undo.pop(0).before.release()
                return
        self.forget_undo()
        before.release()

    def kept_hidden(self, state: GameState) -> tuple:
        """:func:`kept_hidden` of ``state``, kept for the last state asked: the state after
        one answer is the state before the next."""
        if self._hidden[0] is not state:
            self._hidden = (state, kept_hidden(self.game, len(self.row.seats), state))
        return self._hidden[1]

    def settle_bots(self, before: GameState, after: GameState) -> None:
        """Make ``after``, ``before`` and bots' answers, the game: nothing before them can
        be taken back."""
        self.state = after
        self.note_asked()
        self.forget_undo()
        before.release()

    def forget_undo(self) -> None:
        for u in self.undo:
            u.before.release()
        self.undo.clear()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to (its hash compared, in constant time, with the
        hashes the store keeps: ``store.hash_token``), None for no token;
        raises 403 for a token of no seat."""
        if not token:
            return None
        found = None
        given = hash_token(token)
        for i, s in enumerate(self.row.seats):
            t = s.get("token_hash") or ""
            if t and hmac.compare_digest(t, given) and found is None:
                found = i
        if found is None:
            raise HTTPException(403, "this token is not a seat of this game")
        return found


def kept_hidden(game: Game, seats: int, state: GameState) -> tuple:
    """What an answer must leave as it was to be taken back: ``state``'s dice (their
    fingerprint) and what it hides from each seat and a spectator (``Game.hidden``, as
    text)."""
    return state.dice.fingerprint(), [set(map(str, game.hidden(state, seat))) for seat in (*range(seats), None)]


def reveals_between(before: tuple, after: tuple) -> bool:
    """Whether the state of :func:`kept_hidden` ``after`` shows a seat, or a spectator,
    something that the one of ``before`` hid from it: a packet passed on, a card drawn or
    played face up.  Such an answer cannot be taken back, or its seat could look at what
    comes next and choose again, and the others would have seen what it held."""
    return any(not hid <= still for hid, still in zip(before[1], after[1]))


def reveals(game: Game, seats: int, before: GameState, after: GameState) -> bool:
    """:func:`reveals_between` two states."""
    return reveals_between(kept_hidden(game, seats, before), kept_hidden(game, seats, after))


def seat_choices(game: Game) -> list[dict]:
    """The seat kinds a game may be created with, ``{kind, label}`` each: a person, every
    bot by its plain name, each followed by the variants the game declares of it
    (``Game.bot_variants``: a bot's levels, ``auto:level=hard``)."""
    variants = game.bot_variants
    out = [{"kind": "human", "label": "human"}]
    for name in sorted(botworker.bot_factories(game)):
        out.append({"kind": name, "label": variants.get(name, name)})
        out.extend({"kind": spec, "label": label} for spec, label in variants.items()
                   if spec != name and parse_bot(spec)[0] == name)
    return out


def make_agents(game: Game, seats: list[dict], seed: int) -> dict[int, Agent]:
    """The bots of ``seats`` by seat, each made from its kind (a name, or a variant with
    its parameters) with its own seed."""
    return botworker.make_agents(game, [s["kind"] for s in seats], seed)


def run_bots(state: GameState, agents: dict[int, Agent], limit: int = MAX_BOT_DECISIONS) -> None:
    """:func:`bot_answers` without a pause."""
    for _ in bot_answers(state, agents, limit):
        pass


def bots_to_move(state: GameState, agents: dict[int, Agent]) -> bool:
    return any(d.player in agents for d in state.pending())


def seed_is_secret(game: Game) -> bool:
    """Whether a game's seed decides what its players may not know: a deal (the
    ``hidden_information`` trait) or the dice to come (``chance``)."""
    return game.hidden_information or game.chance


def secret_seed() -> int:
    """A seed nobody outside the server knows."""
    return secrets.randbelow(SECRET_SEEDS)


def dealing_seed(game: Game, seats: list[str], seed: int | None) -> int:
    """The seed of a new game.  Where the seed decides what the players
    may not know (:func:`seed_is_secret`: a deal of cards, the dice to come) and more than
    one person plays, no player may choose or know it: a player who knew it could replay
    the game and see the others' cards or the dice to come.  There a seed sent is
    refused (422, rather than silently ignored, so that nobody believes they got the game
    of their seed) and the server draws a secret one; a running game's record leaves it
    out, a finished game's record gives it.  Elsewhere the seed sent, or a secret one."""
    if seed is not None and seats.count("human") > 1 and seed_is_secret(game):
        raise HTTPException(422, f"seed: the seed decides what the players of {game.name} may not know "
                                 "(the deal, the dice to come), so with more than one person the server "
                                 "draws a seed of its own, given in the record once the game is over; "
                                 "send no seed")
    return seed if seed is not None else secret_seed()


def is_final(game, before: GameState, answer: tuple[int, str]) -> bool:
    """Whether the game's rules forbid taking ``answer`` back (``Game.final``)."""
    return game.final is not None and game.final(before, answer[0], answer[1])


def rebuild(row: GameRow) -> Live:
    """The live game of a stored row: its answers replayed (its bots think in the bots'
    process, whose mirror of the game walks them through their own past answers:
    ``botworker``).  The states before the trailing answers of people are kept, so that an
    undo allowed before a restart is allowed after it."""
    game = get_game(row.game)
    state = game.new_game(row.options, row.seed)
    agents = make_agents(game, row.seats, row.seed)
    tail = len(row.answers)
    while tail > 0 and row.answers[tail - 1][0] not in agents and len(row.answers) - tail < MAX_UNDO:
        tail -= 1
    undo: list[Undoable] = []
    chance_at = revealed_at = final_at = -1
    for i, (p, key) in enumerate(row.answers):
        before = state.clone() if i >= tail else None
        try:
            state.apply(p, key)
        except IllegalAnswer as exc:
            raise RuntimeError(f"game {row.id}: stored answer #{i + 1} no longer replays: {exc}") from None
        if before is not None:
            chance = before.dice.fingerprint() != state.dice.fingerprint()
            final = is_final(game, before, (p, key))
            if not chance and not final and not reveals(game, len(row.seats), before, state):
                undo.append(Undoable(i, p, before))
            else:
                for u in undo:
                    u.before.release()
                undo.clear()
                before.release()
                if final:
                    final_at = i
                elif chance:
                    chance_at = i
                else:
                    revealed_at = i
    if bots_to_move(state, agents):  # a restart came before the bots' replies: the answer stands
        for u in undo:
            u.before.release()
        undo.clear()
    return Live(row=row, game=game, state=state, agents=agents, undo=undo, chance_at=chance_at,
                revealed_at=revealed_at, final_at=final_at)


def _chronicle(live: Live, seat: int | None) -> list[str]:
    """The last ``CHRONICLE_LINES`` of the chronicle that ``seat`` (None: a spectator) may
    read, by each event's audience (``Event.seen_by``, as ``GameState.chronicle_for``):
    looked for from the end, not filtered from the start (a long game has thousands)."""
    state = live.state
    over = state.is_over()
    lines = []
    for e in reversed(state.events):
        if e.seen_by(seat, over):
            lines.append(e.text)
            if len(lines) == CHRONICLE_LINES:
                break
    lines.reverse()
    return lines


def _pending_json(game: Game, view: dict, decision) -> dict:
    """A pending decision as a page gets it, with the game's hints for its controls
    (``Game.controls``: e.g. several units moved in one gesture)."""
    out = decision.to_json()
    if game.controls is not None:
        out["controls"] = game.controls(view, decision)
    return out


def _cached(live: Live, seat: int | None) -> list:
    """[payload, its JSON text or None] of ``seat`` for the state now, made once per state
    (and undo)."""
    state, undos, ended, cache = live._payloads
    if state is not live.state or undos != live.undos or ended != live.ended:
        cache = {}
        live._payloads = (live.state, live.undos, live.ended, cache)
    if seat not in cache:
        cache[seat] = [_make_payload(live, seat), None]
    return cache[seat]


def state_payload(live: Live, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) may see now: the view, its pending decisions, the
    version."""
    return _cached(live, seat)[0]


def payload_json(live: Live, seat: int | None) -> bytes:
    """:func:`state_payload` as JSON (UTF-8), encoded once per state for each seat (the
    push after an answer sends the bytes of its 200)."""
    entry = _cached(live, seat)
    if entry[1] is None:
        entry[1] = _encode(entry[0])
    return entry[1]


def _encode(payload: dict) -> bytes:
    """A payload as JSON: orjson, six times faster than ``json`` on Hy Breasil's 19 KB
    payloads (0.04 against 0.23 ms; two a person's answer, its 200 and the bots' push).
    Keys that are numbers become strings, as ``json`` makes them."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)


def json_response(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _make_payload(live: Live, seat: int | None) -> dict:
    state = live.state
    over = live.done
    names = state.options.get("names") or [f"P{i + 1}" for i in range(len(live.row.seats))]
    view = live.view(seat)
    labels = _labels(live.game)
    result = state.result()
    return {
        "id": live.row.id,
        "game": live.game.id,
        "version": live.version,
        "boot": BOOT,
        "undos": live.undos,
        "seat": seat,
        "view": view,
        "pending": [] if live.ended else [_pending_json(live.game, view, d) for d in state.pending_for(seat)],
        "can_undo": live.can_undo(seat),
        "odds": live.advice(seat, view),
        "awaiting": [] if live.ended else sorted({d.player for d in state.pending()}),
        "seats": [{"seat": i, "kind": s["kind"], "label": labels.get(s["kind"], s["kind"]),
                   "name": names[i] if i < len(names) else f"P{i + 1}"}
                  for i, s in enumerate(live.row.seats)],
        "over": over,
        "ended": live.ended,  # by its host: the result is the table as it stood
        "result": result if over else None,
        "score_name": live.game.score_name,
        "scores": [result["scores"].get(n) for n in names],
        "panels": live.game.panels(view) if live.game.panels is not None and seat is not None else [],
        # the board's position from this seat's view, applied in place to the drawing a page holds
        "board": live.game.board(view) if live.game.board is not None else None,
        "chronicle": _chronicle(live, seat),
        "deadline": live.deadlines.payload(live) if live.deadlines is not None else None,
    }


_LABELS: dict[str, dict] = {}


def _labels(game: Game) -> dict:
    """The label of each seat kind of ``game`` (:func:`seat_choices`), made once."""
    if game.id not in _LABELS:
        _LABELS[game.id] = {c["kind"]: c["label"] for c in seat_choices(game)}
    return _LABELS[game.id]


#: the errors of a request whose work goes to the heavy work's process (``heavy``)
HEAVY_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"description": "earlier positions are shown once the game is over"},
    429: {"description": "too much of this address's heavy work is waiting; Retry-After: 1"},
    503: {"description": "the work is over its budget of seconds (heavy.REPLAY_SECONDS)"},
}


def _replayed(live: Live, at: int) -> list:
    """The first ``at`` answers of a finished (or ended) game, for a replay (403 while it runs)."""
    if not live.done:
        raise HTTPException(403, "earlier positions are shown once the game is over")
    return [tuple(a) for a in live.state.answers[:at]]


def _token_from_header(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(403, "Authorization must be 'Bearer TOKEN'")
    return token.strip()


#: the worker of the apps of one process that are given none of their own (tests)
HEAVY = heavy.Lanes()
#: a seat's advice while its game is set up in the odds' worker (``Server.advise``): sent
#: at once, the odds pushed when worked out
ODDS_COMING = [{"kind": "pending", "text": "The odds are being worked out; they follow in a moment."}]


class Server:
    """The games of one database, live in memory."""

    def __init__(self, database: str | None = None, bots: "botworker.Bots | None" = None,
                 work: "heavy.Lanes | None" = None) -> None:
        self.store = Store(database)
        #: the processes that work out what a request may make costly (``heavy``)
        self.heavy = HEAVY if work is None else work
        self.live: dict[str, Live] = {}
        #: the games being loaded: a lock each and how many requests hold or wait for it
        #: (one load of a game at a time; loads of different games side by side: a process
        #: taking a dead one's games over loads many at once)
        self.loading: dict[str, list] = {}
        #: held by one game's bots while their answers are applied (:meth:`_apply_batch`)
        self.cpu = asyncio.Lock()
        #: the process the bots think in (shared by the apps of one process unless given)
        self.bots = botworker.BOTS if bots is None else bots
        #: the store's futures awaited, each with the loop's future its waiter awaits
        self._commits: list[tuple[Future, asyncio.Future]] = []
        #: each game's undos in this process, kept across a rebuild of the game (a page
        #: must still see the states after it as newer)
        self.undos: dict[str, int] = {}
        self.deadlines = Deadlines(self)
        #: the WebSockets open per address
        self.socket_count = sockets.PerAddress()
        #: the thread new games are set up in, one at a time: a game's setup may cost
        #: seconds of CPU (an island made from a seed), and however many are asked for at
        #: once, the event loop shares the interpreter with one of them
        self._setting_up = ThreadPoolExecutor(1, thread_name_prefix="realms-setup")
        #: the creations' token buckets (``limits``), charged the CPU a game's setup cost
        self.creations: "limits.TokenBucket | None" = None
        #: the bots' process, given out fairly between games and addresses
        self.fair = fairshare.FairShare()
        #: the finished games in memory, the least recently asked for first
        self.finished: "OrderedDict[str, None]" = OrderedDict()
        self.tables = Tables(self)
        #: this process's part in a cluster on one PostgreSQL database (``cluster``); None:
        #: the only process
        self.cluster: "cluster.Cluster | None" = None
        #: the games being set up in the odds' worker, each by its one task (:meth:`advise`)
        self.odds_tasks: dict[str, asyncio.Task] = {}

    def owns(self, game_id: str) -> bool:
        """Whether this process does the game's once-only work (bots, deadlines, clocks,
        notices): always alone, while it holds the game's lease in a cluster."""
        return self.cluster is None or self.cluster.owns(game_id)

    async def committed(self, done: Future) -> None:
        """Wait for a write of the store's to be committed (its exception if it failed).
        The store's writer wakes the event loop once per batch (:meth:`_wake_commits`)."""
        if not done.done():
            loop = asyncio.get_running_loop()
            if self.store.after_batch is None:
                def wake() -> None:
                    loop.call_soon_threadsafe(self._wake_commits)

                self.store.after_batch = wake
            waiter = loop.create_future()
            self._commits.append((done, waiter))
            await waiter
        done.result()

    def _wake_commits(self) -> None:
        """Wake the waiters of every write committed (or failed) by now."""
        waiting = []
        for done, waiter in self._commits:
            if not done.done():
                waiting.append((done, waiter))
            elif not waiter.done():
                waiter.set_result(None)
        self._commits = waiting

    async def get(self, game_id: str, read: tuple | None = None) -> Live:
        """The game in memory, loaded if it is not (from ``read``, its row and its table's
        read already, if given: a take-over's); one this process just took over is its
        take-over's load, let go ahead of the others' (``Cluster.wanted``)."""
        live = self.live.get(game_id)
        if live is not None:
            if game_id in self.finished:
                self.finished.move_to_end(game_id)
            return live
        if len(game_id) > 40:
            raise HTTPException(404, "no such game")
        if self.cluster is not None and (live := await self.cluster.wanted(game_id)) is not None:
            return live
        entry = self.loading.setdefault(game_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                live = self.live.get(game_id)
                if live is None:
                    live = await self._load(game_id, read)
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self.loading[game_id]
        return live

    async def _load(self, game_id: str, read: tuple | None = None) -> Live:
        """The game rebuilt from the store (or from ``read``: its row and its table's), in
        memory, its bots set going (its lock held)."""
        row, table = await asyncio.to_thread(self._read, game_id) if read is None else read
        if row is None:
            raise HTTPException(404, "no such game")
        # a take-over's game (read already) is replayed on the take-overs' own thread, not
        # behind the loads queued in the default pool by pages asking for other games
        pool = self.cluster.taker if read is not None and self.cluster is not None else None
        live = await asyncio.get_running_loop().run_in_executor(pool, rebuild, row)
        live.undos = self.undos.get(game_id, 0)
        live.deadlines = self.deadlines
        await self.tables.attach(live, table)
        live.ended = live.table.ended
        self.live[game_id] = live
        if self.cluster is not None:
            self.cluster.loaded(game_id)
        self.continue_bots(live)
        self.note_finished(live)
        return live

    def _read(self, game_id: str) -> tuple:
        """A game's row and its table's (row and talk), on one connection: a load's reads
        in one go rather than three, each a connection's checkout and round trips."""
        with self.store.engine.connect() as conn:
            row = self.store.load(game_id, conn)
            return row, None if row is None else tables_of(conn, [game_id])[game_id]

    def note_finished(self, live: Live) -> None:
        """Count ``live`` among the finished games if it is over, and let the least recently
        asked for of them leave memory past ``FINISHED_KEPT`` (but those pages watch:
        they leave once their pages have gone and newer games have finished)."""
        if not live.state.is_over():
            return
        self.finished[live.row.id] = None
        self.finished.move_to_end(live.row.id)
        for _ in range(len(self.finished) - FINISHED_KEPT):
            gid = next(iter(self.finished))
            del self.finished[gid]
            old = self.live.get(gid)
            if old is not None and old.sockets:
                self.finished[gid] = None  # watched: kept, asked again later
                continue
            self.live.pop(gid, None)
            self.undos.pop(gid, None)

    async def advise(self, live: Live, seats: set) -> None:
        """Work out the game's advice for the state now (the odds before a person's
        decision) for those of ``seats`` it is not known for, in the odds' process
        (``heavy``) within ``heavy.ADVICE_SECONDS``; a note in its place when the worker is
        busy, and for good once it went over a budget in this game.  A game not set up in
        that worker yet (new to this process: created, restored, or taken over from a dead
        one with many others) is set up in the background (:meth:`_odds_later`), within
        ``heavy.SETUP_SECONDS``, and meanwhile the seats get :data:`ODDS_COMING`: no
        request waits for a queue of other games' set-ups."""
        state = live.state
        if live.game.advice is None:
            return
        if live._advice[0] is not state:
            live._advice = (state, {})
        known = live._advice[1]
        asks = live.asks({s for s in seats if s is not None and (s not in known or known[s] is ODDS_COMING)})
        if not asks:
            return
        if live.advice_off:
            got = {seat: [{"kind": "unavailable", "text": live.advice_off}] for seat, _, _ in asks}
        elif not self.heavy.odds.holds(("setup", live.row.id)):
            self._odds_later(live)
            got = {seat: ODDS_COMING for seat, _, _ in asks}
        else:
            try:
                got = await self.heavy.odds.run(("advice", live.row.id, live.undos, live.version,
                                                 tuple(seat for seat, _, _ in asks)),
                                                heavy.ADVICE_SECONDS, f"game:{live.row.id}", heavy.advice,
                                                live.game.id, asks)
            except heavy.OverBudget as exc:
                live.advice_off = f"No odds in this game: {exc}."
                got = {seat: [{"kind": "unavailable", "text": live.advice_off}] for seat, _, _ in asks}
            except heavy.Busy as exc:
                got = {seat: [{"kind": "unavailable", "text": f"No odds: {exc}."}] for seat, _, _ in asks}
            except Exception:  # advice is a help: never let it fail a request
                log.exception("advice failed for game %s", live.row.id)
                got = {}
        if live.state is state and live._advice[0] is state:
            live._advice[1].update(got)
            live._payloads = (None, -1, False, {})

    def _odds_later(self, live: Live) -> None:
        """Set ``live``'s game up in the odds' worker in the background, one task a game
        however many requests found it not set up (:meth:`_set_up_odds`)."""
        gid = live.row.id
        if gid in self.odds_tasks:
            return
        task = asyncio.get_running_loop().create_task(self._set_up_odds(live), name=f"odds of {gid}")
        self.odds_tasks[gid] = task
        task.add_done_callback(lambda t: self.odds_tasks.pop(gid) if self.odds_tasks.get(gid) is t else None)

    async def _set_up_odds(self, live: Live) -> None:
        """The game set up in the odds' worker, then the advice of its state then worked out
        for the seats told :data:`ODDS_COMING` and those watching, and pushed to its pages
        (each its own seat's); nothing for a game that has left memory meanwhile.  Over its
        budget, the game's odds are off (the note pushed in their place); busy, the seats
        waiting get the busy note, and the game's next state asks again."""
        row = live.row
        try:
            await self.heavy.odds.run(("setup", row.id), heavy.SETUP_SECONDS, f"game:{row.id}", heavy.set_up,
                                      row.game, row.options, row.seed, keep=True, later=True)
            if self.live.get(row.id) is not live:
                return
            await self._advise_coming(live)
        except heavy.OverBudget as exc:
            live.advice_off = f"No odds in this game: {exc}."
            await self._advise_coming(live)
        except heavy.Busy as exc:
            self._tell_coming(live, [{"kind": "unavailable", "text": f"No odds: {exc}."}])
        except asyncio.CancelledError:
            raise
        except Exception:  # advice is a help: a failed set-up is logged, the pages told nothing
            log.exception("the odds' set-up failed for game %s", row.id)
            self._tell_coming(live, [])

    async def _advise_coming(self, live: Live) -> None:
        """Advise the state now for the seats told :data:`ODDS_COMING` and the pages watching,
        and push it if that changed a seat's advice and it is still the game's state."""
        state, known = live._advice
        coming = {seat for seat, got in known.items() if got is ODDS_COMING} if state is live.state else set()
        state, before = live.state, dict(known) if state is live.state else {}
        await self.advise(live, coming | live.watching())
        if live.state is state and self.live.get(live.row.id) is live \
                and any(got is not before.get(seat) for seat, got in live._advice[1].items()):
            self.push(live)

    def _tell_coming(self, live: Live, entries: list) -> None:
        """Put ``entries`` in place of :data:`ODDS_COMING` for the state now, and push it."""
        state, known = live._advice
        coming = [seat for seat, got in known.items() if got is ODDS_COMING]
        if state is live.state and coming and self.live.get(live.row.id) is live:
            known.update({seat: entries for seat in coming})
            live._payloads = (None, -1, False, {})
            self.push(live)

    async def stop_odds(self) -> None:
        """Cancel the games' set-ups in the odds' worker and wait for them to end."""
        tasks = list(self.odds_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- creating -----------------------------------------------------------------------
    def _timed_create(self, body: NewGame) -> tuple[Live, dict[int, str], float]:
        """:meth:`_create_sync`, and the CPU seconds its thread spent."""
        start = time.thread_time()
        live, tokens = self._create_sync(body)
        return live, tokens, time.thread_time() - start

    def _create_sync(self, body: NewGame) -> tuple[Live, dict[int, str]]:
        try:
            game = get_game(body.game)
        except UnknownGame:
            raise HTTPException(422, f"unknown game {shown(body.game)} (known: {', '.join(sorted(games()))})") from None
        n = len(body.seats)
        if not game.min_players <= n <= game.max_players:
            raise HTTPException(422, f"{game.name} is for {game.min_players} to {game.max_players} players, "
                                     f"got {n} seats")
        offered = [c["kind"] for c in seat_choices(game)]
        for kind in body.seats:
            if kind not in offered:  # no other parameters: a bot's work is the server's
                raise HTTPException(422, f"unknown seat kind {shown(kind)} (known: {', '.join(offered)})")
        options = dict(body.options)
        if "players" in options and (type(options["players"]) is not int or options["players"] != n):
            raise HTTPException(422, f"option 'players' ({shown(options['players'])}) must be the whole number "
                                     f"of seats ({n})")
        options["players"] = n
        try:
            # the game's schema, as the CLI checks it, but a file option only by a bundled name
            options = game.normalize_options(options, paths=False)
        except OptionError as exc:
            raise HTTPException(422, f"bad options: {exc}") from None
        seed = dealing_seed(game, body.seats, body.seed)
        try:
            state = game.state_class(options, seed)
        except (MapError, ValueError, KeyError):
            # a bundled file that does not load: the server's fault, and its message may hold a path
            log.exception("game %s could not be set up with options %s", game.id, options)
            raise HTTPException(422, "bad options: the game could not be set up with them") from None
        tokens = {i: secrets.token_urlsafe(24) for i, k in enumerate(body.seats) if k == "human"}
        seats = [{"kind": k, "token_hash": hash_token(tokens[i]) if i in tokens else None}
                 for i, k in enumerate(body.seats)]
        game_id = secrets.token_hex(8)
        row = GameRow(game_id, game.id, options, seed, seats, [], None if self.cluster is None else (0, 0))
        agents = make_agents(game, seats, seed)
        self.store.create(game_id, game.id, options, seed, seats, [])
        return Live(row=row, game=game, state=state, agents=agents), tokens

    async def create(self, body: NewGame, owner: str = "local") -> tuple[Live, dict[int, str]]:
        """A new game created by the address ``owner``, and its people's seats' tokens by
        seat (given once: the store keeps their hashes).  A game of bots alone is refused
        (429) past the bounds of ``fairshare``."""
        if "human" not in body.seats:
            playing = [g.owner for g in self.live.values() if not g.people and not g.state.is_over()]
            refused = fairshare.bots_only_refusal(playing, owner)
            if refused:
                raise HTTPException(429, refused, headers={"Retry-After": "60"})
        live, tokens, cpu = await asyncio.get_running_loop().run_in_executor(self._setting_up, self._timed_create,
                                                                             body)
        if self.creations is not None:
            self.creations.charge(owner, (cpu - limits.SETUP_FREE_SECONDS) * limits.SETUP_TOKENS_PER_SECOND)
        live.owner = owner
        live.deadlines = self.deadlines
        self.live[live.row.id] = live
        if self.cluster is not None:
            self.cluster.loaded(live.row.id)
        self.continue_bots(live)
        return live, tokens

    # -- answering ----------------------------------------------------------------------
    async def answer(self, live: Live, seat: int | None, body: Answer, socket: str | None = None) -> bytes:
        """:meth:`_answer`; in a cluster, once more on the game caught up from the database
        after a 409 if it had moved on in another process (``cluster.Cluster.answer``)."""
        if self.cluster is None:
            return await self._answer(live, seat, body, socket)
        return await self.cluster.answer(self._answer, live, seat, body, socket)

    async def _answer(self, live: Live, seat: int | None, body: Answer, socket: str | None = None) -> bytes:
        """Apply ``seat``'s answer, commit it and return the new state (JSON, UTF-8); the
        bots whose turn follows play on in the background (:meth:`continue_bots`).  The
        other pages get it over their sockets; ``socket``, the asking page's, not again."""
        if seat in live.stand_ins and not live.done:  # the person is back: the bot leaves (host.py)
            await self.tables.give_back(live, seat, by="answer")
        async with live.lock:
            if seat is None:  # who asks comes first: a spectator learns nothing of versions
                raise HTTPException(403, "spectators cannot answer; send the seat's token")
            if live.ended:
                raise HTTPException(403, "the game's host ended the game")
            if self.cluster is not None:
                self.cluster.current(live)
            if body.version != live.version and not live.still_asked(seat, body.version):
                raise HTTPException(409, f"stale version {body.version}: the game is at version {live.version}")
            if not any(d.player == seat for d in live.state.pending()):
                if live.state.is_over():
                    raise HTTPException(403, "the game is over; nobody must decide")
                raise HTTPException(403, f"seat {seat + 1} has no decision to make now")
            # on a copy: a refused answer, or one the database does not take, changes nothing
            before = live.state
            new = before.clone()
            try:
                new.apply(seat, body.key)
            except IllegalAnswer as exc:
                new.release()
                # the key is not repeated: an error never echoes the input
                # and seats are counted from 1, as the page counts them
                raise HTTPException(422, str(exc).replace(repr(body.key), "the key sent")
                                    .replace(f"for player {seat} ", f"for seat {seat + 1} ")) from None
            start = live.version
            try:
                await self.committed(self.store.submit(live.row.id, start, new.answers[start:]))
            except Exception as exc:
                # forget the cached game so that it is rebuilt from what was committed
                self.live.pop(live.row.id, None)
                new.release()
                if isinstance(exc, cluster.Conflict):
                    raise HTTPException(409, f"stale version {body.version}: another process answered it first") from None
                raise HTTPException(503, f"the answer could not be stored: {type(exc).__name__}") from None
            live.settle(before, new, seat, start, self.tables.clock_of(live, seat))
            self.tables.moved(live)
            self.continue_bots(live)
            await self.advise(live, live.watching(seat))
            payload = payload_json(live, seat)
        self.note_finished(live)
        self.push_soon(live, live.socket_of(socket, seat))
        return payload

    # -- taking an answer back ------------------------------------------------------------
    async def undo(self, live: Live, seat: int | None, body: Undo, socket: str | None = None) -> bytes:
        """Take back ``seat``'s last answer (see the module docstring for when); pushed as
        :meth:`answer` pushes."""
        async with live.lock:
            v = live.version
            if seat is None:
                raise HTTPException(403, "spectators cannot undo; send the seat's token")
            if live.ended:
                raise HTTPException(403, "the game's host ended the game")
            if self.cluster is not None:
                self.cluster.current(live)
            if body.version != v:
                raise HTTPException(409, f"stale version {body.version}: the game is at version {v}")
            if live.state.is_over():
                raise HTTPException(403, "the game is over; its answers stand")
            answers = live.state.answers
            if not answers or answers[-1][0] != seat:
                if seat in {p for p, _ in answers}:
                    raise HTTPException(403, "somebody else decided after your last decision: it stands")
                raise HTTPException(403, f"seat {seat + 1} has no decision to take back")
            if bots_to_move(live.state, live.agents):
                raise HTTPException(403, "the bots are answering your last decision: it stands")
            if not live.undo:
                if live.chance_at == v - 1:
                    raise HTTPException(422, "a die was rolled when your last decision was played: it stands")
                if live.revealed_at == v - 1:
                    raise HTTPException(422, "your last decision showed something hidden to a player: it stands")
                if live.final_at == v - 1:
                    raise HTTPException(422, "your last decision cannot be taken back by the game's rules: it stands")
                raise HTTPException(403, f"only your last {MAX_UNDO} decisions in a row can be taken back")
            last = live.undo[-1]
            assert last.n == v - 1 and last.seat == seat
            try:
                await self.committed(self.store.submit_undo(live.row.id, last.n, seat))
            except (UndoConflict, cluster.Conflict):
                self.live.pop(live.row.id, None)
                raise HTTPException(409, "the stored game differs from the one shown; reload it") from None
            except Exception as exc:
                self.live.pop(live.row.id, None)
                raise HTTPException(503, f"the undo could not be stored: {type(exc).__name__}") from None
            live.undo.pop()
            live.undos += 1
            self.undos[live.row.id] = live.undos
            dropped = live.state
            live.state = last.before
            live.asked = {}
            live.note_asked()
            dropped.release()
            self.tables.taken_back(live, seat, last.clock)
            await self.advise(live, live.watching(seat))
            payload = payload_json(live, seat)
        self.push_soon(live, live.socket_of(socket, seat))
        return payload

    # -- the bots, in the background ------------------------------------------------------
    def continue_bots(self, live: Live) -> None:
        """Start ``live``'s bots in the background if they are to move (after an answer, a
        game's creation, or a restart that found them mid-turn), unless they are already."""
        if (live.bots is None or live.bots.done()) and not live.ended and bots_to_move(live.state, live.agents) \
                and self.owns(live.row.id):
            live.bots = asyncio.get_running_loop().create_task(self._bots_in_batches(live))

    async def _bots_in_batches(self, live: Live) -> None:
        """Play ``live``'s bots until a person is awaited or the game is over: a batch at a
        time, thought in the bots' process (``botworker``) while the game is held, applied
        to a copy, committed, then made the game and pushed to its pages (so a bot's answer
        is durable before any page sees it, and a reload shows it)."""
        while True:
            async with live.lock:
                if self.live.get(live.row.id) is not live or live.ended or not bots_to_move(live.state, live.agents) \
                        or not self.owns(live.row.id):
                    return
                before = live.state
                new = before.clone()
                start = live.version
                try:
                    given = await self._think(live)
                    await self._apply_batch(new, given)
                    await self.committed(self.store.submit(live.row.id, start, new.answers[start:]))
                except Exception:
                    # rebuilt from what was committed at its next request, which starts them again
                    log.exception("game %s: the bots stopped", live.row.id)
                    self.live.pop(live.row.id, None)
                    new.release()
                    return
                live.settle_bots(before, new)
                self.tables.moved(live)
                live.mirrored = (self.bots.generation, live.version)
                await self.advise(live, live.watching())
            self.push(live)
            self.note_finished(live)

    async def _think(self, live: Live) -> tuple:
        """The bots' next batch for ``live``, from the bots' process: the answers since its
        mirror of the game, or the whole record where it has none."""
        row, state = live.row, live.state
        generation, since = live.mirrored
        for attempt in range(3):
            start = since if attempt == 0 and generation == self.bots.generation else 0
            kinds = tuple(live.stand_ins.get(i, s["kind"]) for i, s in enumerate(row.seats))  # bots for people
            job = botworker.Job(row.id, row.game, row.options, row.seed, kinds,
                                start, tuple(state.answers[start - 1]) if start else None,
                                tuple(state.answers[start:]), BOT_BATCH,
                                BOT_SECONDS if live.people else fairshare.BOTS_ONLY_SECONDS, MAX_BOT_DECISIONS)
            try:
                async with self.fair.turn(live.people, live.owner):
                    given = await self.bots.play(job)
            except BrokenProcessPool:
                if attempt:
                    raise
                log.warning("the bots' process died; a new one takes over")
                continue  # a new process, sent the whole record
            if given is not None:
                return given
        raise RuntimeError("the bots' process did not take the whole record")

    async def _apply_batch(self, state: GameState, given: tuple) -> None:
        """Apply the bots' answers ``given`` to ``state`` (a copy nobody sees), a slice of
        ``BOT_SLICE`` seconds at a time, giving the event loop back after each, and holding
        ``self.cpu`` for the whole batch: one slice of one game's batch per pass of the
        loop, so however many games' bots have answered, a request waits for at most one
        slice each time it awaits; and the games' batches go in the order they came."""
        clock = time.perf_counter
        async with self.cpu:
            due = clock() + BOT_SLICE
            for p, key in given:
                if clock() > due:
                    await asyncio.sleep(0)
                    due = clock() + BOT_SLICE
                state.apply(p, key)

    def stop_bots(self) -> None:
        for live in self.live.values():
            if live.bots is not None:
                live.bots.cancel()

    def push_soon(self, live: Live, skip: Any = None) -> None:
        """:meth:`push` once the running request has answered, if a page besides ``skip``
        watches the game (mostly none: a page's own answer comes back in its 200)."""
        if any(box is not skip for box in live.sockets):
            asyncio.get_running_loop().call_soon(self.push, live, skip)

    def push(self, live: Live, skip: Any = None) -> None:
        """Queue the new state for every page watching the game (but ``skip``: the page
        that has it in its 200), each as its seat sees it, all made before the first is
        queued so that every page gets the same version.  Nothing here waits for a page:
        each socket's own task sends (``sockets.Outbox``), and a socket too far behind is
        dropped."""
        boxes = [(box, seat) for box, seat in live.sockets.items() if box is not skip]
        cache = {seat: payload_json(live, seat).decode() for seat in {seat for _, seat in boxes}}
        for box, seat in boxes:
            if not box.offer(cache[seat]):
                live.sockets.pop(box, None)


def create_app(database: str | None = None, creations: limits.TokenBucket | None = None,
               clock: "Callable[[], float] | None" = None, bots: "botworker.Bots | None" = None,
               work: "heavy.Lanes | None" = None, notice_settings: "notices.Settings | None" = None,
               table_every: float | None = None, watch_tables: bool = True, several: bool = False,
               address: str = "") -> FastAPI:
    """The app over ``database``; ``creations`` bounds the games each client may create
    (default: ``limits.CREATE_BURST`` at once, ``limits.CREATE_PER_MINUTE`` a minute);
    ``clock`` is the turn deadlines' and the tables' clocks' (default: the wall clock;
    tests move it); ``bots``: a bots' process of the app's own, closed when the app shuts
    down (default: the process's shared one, ``botworker.BOTS``, left running for the next
    app); ``work`` likewise, the heavy work's (default: :data:`HEAVY`);
    ``notice_settings``: SMTP and webhooks (``notices``); ``table_every``: seconds between
    the table watcher's looks (``host.EVERY``); ``watch_tables`` False: no table watcher
    nor notice sender (tests run their passes themselves); ``several``: one of several
    processes on a PostgreSQL ``database`` (``cluster``), reached at ``address``."""
    server = Server(database, bots, work)
    if several:
        server.cluster = server.store.cluster = cluster.Cluster(server, address)
    creations = limits.TokenBucket() if creations is None else creations
    server.creations = creations
    deadlines = server.deadlines
    tables = server.tables
    if clock is not None:
        deadlines.clock = clock
        tables.clock = clock
    if notice_settings is not None:
        tables.settings = tables.outbox.settings = notice_settings
    if table_every is not None:
        tables.every = table_every

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if server.cluster is not None:
            server.cluster.start()
        deadlines.start()
        if watch_tables:
            tables.start()
        if server.cluster is not None:
            await server.cluster.serving()
        yield
        await server.stop_odds()
        await tables.stop()
        deadlines.stop()
        if server.cluster is not None:
            await server.cluster.stop()
        if bots is not None:
            bots.close()
        if work is not None:
            work.close()
        server.stop_bots()
        server._setting_up.shutdown(wait=False)
        server.store.close()

    # /docs with Swagger UI's scripts from an installed package, not a CDN: it works offline
    app = FastAPIOffline(title="realms", version="1", lifespan=lifespan,
                         description="Play realms games (Hy Breasil, Brian Boru…) against people and bots.")
    app.state.server = server
    app.state.deadlines = deadlines
    app.state.tables = tables
    app.state.creations = creations
    app.add_middleware(limits.BodyLimit, max_bytes=limits.MAX_BODY)
    app.add_exception_handler(RequestValidationError, limits.validation_error)

    @app.get("/api/health")
    async def health() -> dict:
        """``ok``; in a cluster also this process's id, the games it owns, whether it listens,
        and the odds' jobs its worker was sent and those it refused (busy)."""
        if server.cluster is None:
            return {"status": "ok"}
        odds = server.heavy.odds
        return {"status": "ok", **server.cluster.health(), "odds": {"sent": odds.sent, "refused": odds.refused}}

    @app.get("/api/catalog")
    async def catalog() -> dict:
        """The games that can be created: player counts, seat kinds (``seat_choices``: each
        kind with a label, a bot's declared variants such as its levels among them;
        ``default_bot``: the game's own first bot), and the options each declares (``options``: name, type, default,
        bounds or choices, help, group), which ``POST /api/games`` checks; a lobby draws its
        form from them."""
        return {"games": [
            {"id": g.id, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
             "seat_kinds": [c["kind"] for c in seat_choices(g)], "seat_choices": seat_choices(g),
             "default_bot": next(iter(g.bots), "random"),
             "score_name": g.score_name, "options": [o.to_json() for o in g.schema],
             "description": g.description, "presets": g.presets, "palette": g.seat_colours(g.max_players)}
            for g in games().values()
        ]}

    @app.get("/api/games")
    async def list_games() -> dict:
        """The newest games, for spectators, each with its ``status`` where it is live in
        this process (story.status: over, whose decision is awaited)."""
        found = await asyncio.to_thread(server.store.list_games)
        for g in found:
            live = server.live.get(g["id"])
            if live is not None:
                g["status"] = story.status(live)
        return {"games": found}

    @app.post("/api/games", status_code=201, response_model=Created,
              dependencies=[Depends(limits.creation_limit(creations))], responses={
                  413: {"description": "a body over 64 KiB"},
                  429: {"description": "this address created too many games lately; Retry-After says "
                                       "in how many seconds it may create the next"}})
    async def create_game(body: NewGame, request: Request) -> dict:
        settings = parse_settings(body.table)  # refused before anything is made
        live, tokens = await server.create(body, limits.client_address(request))
        host = await tables.created(live, settings)
        server.push_soon(live)
        return {"id": live.row.id,
                "seats": [{"seat": i, "kind": live.row.seats[i]["kind"], "token": t} for i, t in tokens.items()],
                "host": host}

    @app.get("/api/games/{game_id}", responses=HEAVY_ERRORS)
    async def get_state(request: Request, game_id: str, authorization: str | None = Header(default=None),
                        at: int | None = Query(default=None, ge=0)) -> Response:
        """The state as the token's seat sees it; ``at`` (finished games only): as it was
        after the first ``at`` answers, as a spectator sees it (the replay viewer's scores
        and chronicle), worked out within ``heavy.REPLAY_SECONDS``."""
        live = await server.get(game_id)
        seat = live.seat_of(_token_from_header(authorization))
        if at is None:
            await server.advise(live, {seat})
            return json_response(payload_json(live, seat))
        answers = _replayed(live, at)
        row = dataclasses.replace(live.row, answers=[])
        return json_response(await _heavy(request, ("at", game_id, len(answers)), heavy.past_payload, row, answers))

    async def _heavy(request: Request, key: tuple, fn, *args):
        """``fn(*args)`` in the heavy work's process (``heavy``), as :data:`HEAVY_ERRORS` says."""
        try:
            return await server.heavy.replays.run(key, heavy.REPLAY_SECONDS, limits.client_address(request), fn,
                                                  *args)
        except heavy.OverBudget as exc:
            raise HTTPException(503, str(exc)) from None
        except heavy.Busy as exc:
            raise HTTPException(429, str(exc), headers={"Retry-After": "1"}) from None

    async def answer_request(game_id: str, authorization: str | None, key: str, version: int,
                             socket: str | None) -> bytes:
        """A person's answer, the route's and the fast path's (``fastpath``)."""
        live = await server.get(game_id)
        seat = live.seat_of(_token_from_header(authorization))
        return await server.answer(live, seat, Answer.model_construct(key=key, version=version), socket)

    # a well-formed answer is taken before FastAPI's routing (fastpath.py), a malformed one
    # left to the route below, whose checks refuse it
    app.add_middleware(AnswerFastPath, handle=answer_request, max_body=limits.MAX_BODY, max_socket=SOCKET_ID)
    app.include_router(table_router(tables, _token_from_header))

    @app.post("/api/games/{game_id}/answers")
    async def post_answer(game_id: str, body: Answer, authorization: str | None = Header(default=None),
                          x_realms_socket: str | None = Header(default=None, max_length=SOCKET_ID,
                                                               description=SOCKET_HELP)) -> Response:
        return json_response(await answer_request(game_id, authorization, body.key, body.version, x_realms_socket))

    @app.post("/api/games/{game_id}/undo", responses={
        403: {"description": "a spectator; or the last answer is not the seat's (somebody decided "
                             "since: bots reply at once), the game is over, or it is too far back"},
        409: {"description": "stale version: the game moved on since the state shown"},
        422: {"description": "a die was rolled (chance drawn) by that answer; or a bad body"},
        404: {"description": "unknown game"},
    })
    async def post_undo(game_id: str, body: Undo, authorization: str | None = Header(default=None),
                        x_realms_socket: str | None = Header(default=None, max_length=SOCKET_ID,
                                                             description=SOCKET_HELP)) -> Response:
        """Take back the seat's own last decision, when nobody else has decided since and no
        die was rolled by it; the answer is deleted from the database before the 200, which
        carries the state as it was before that decision."""
        live = await server.get(game_id)
        seat = live.seat_of(_token_from_header(authorization))
        return json_response(await server.undo(live, seat, body, x_realms_socket))

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str, authorization: str | None = Header(default=None)) -> JSONResponse:
        """A finished game's full record (replayable by ``realms replay``); for a running one,
        only what the asking seat may see.  ``stand_ins``: the answers a bot or the game
        gave for a person's seat (``host``: ``[{seat, by, from, to}]``)."""
        live = await server.get(game_id)
        seat = live.seat_of(_token_from_header(authorization))
        record = live.game.record_for(live.state, seat)
        if live.table is not None and live.table.stand_ins:  # who played which answers for a person
            record["stand_ins"] = live.table.stand_ins
        return JSONResponse(record)

    @app.get("/api/games/{game_id}/board.svg", responses=HEAVY_ERRORS)
    async def board(request: Request, game_id: str, at: int | None = Query(default=None, ge=0)) -> Response:
        """The board now, or (finished games only) after the first ``at`` answers: the
        replay viewer's, worked out within ``heavy.REPLAY_SECONDS``."""
        live = await server.get(game_id)
        if live.game.draw is None:
            raise HTTPException(404, f"{live.game.name} has no board picture")
        if at is not None:
            answers = _replayed(live, at)
            row = live.row
            svg = await _heavy(request, ("svg", game_id, len(answers)), heavy.board_svg, row.game, row.options,
                               row.seed, answers)
        else:
            svg = await live.board_now()
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/turns", responses=HEAVY_ERRORS)
    async def turns(request: Request, game_id: str) -> dict:
        """A finished game's turns for the replay viewer: where each begins, as the number of
        answers to replay (``board.svg?at=``), and what the game calls a turn."""
        live = await server.get(game_id)
        state = live.state
        answers = _replayed(live, len(state.answers))
        row = live.row
        starts = await _heavy(request, ("turns", game_id), heavy.turn_starts, row.game, row.options, row.seed, answers)
        return {"word": live.game.turn_word, "answers": len(answers),
                "turns": [{"turn": t, "at": at} for t, at in starts]}

    @app.websocket("/api/games/{game_id}/ws")
    async def ws_state(websocket: WebSocket, game_id: str, token: str | None = None,
                       socket: str | None = Query(default=None, max_length=SOCKET_ID)) -> None:
        """The state, then each new state (``sockets``: sent by a task of the socket's own,
        the socket dropped when it is ``sockets.QUEUE`` states behind); at most
        ``sockets.PER_ADDRESS`` open at once from one address (close code 4429)."""
        address = sockets.address_of(websocket)
        if not server.socket_count.take(address):
            await websocket.close(code=sockets.TOO_MANY, reason="too many WebSockets from this address")
            return
        try:
            await _watch(websocket, game_id, token, socket)
        finally:
            server.socket_count.give_back(address)

    async def _watch(websocket: WebSocket, game_id: str, token: str | None, socket: str | None) -> None:
        try:
            live = await server.get(game_id)
            seat = live.seat_of(token)
        except HTTPException as exc:
            await websocket.close(code=4000 + exc.status_code, reason=str(exc.detail)[:120])
            return
        await websocket.accept()
        box = sockets.Outbox(websocket)
        live.sockets[box] = seat
        if socket:
            live.named[socket] = box
        await server.advise(live, {seat})
        box.offer(payload_json(live, seat).decode())

        async def hear() -> None:  # the page sends nothing we need; this notices it leaving
            while True:
                await websocket.receive_text()

        listening = asyncio.get_running_loop().create_task(hear())
        try:
            await asyncio.wait({box.task, listening}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            listening.cancel()
            for task in (listening, box.task):
                if task.done() and not task.cancelled():
                    task.exception()  # a page that left, or a send that failed: nothing to report
            live.sockets.pop(box, None)
            if socket and live.named.get(socket) is box:
                del live.named[socket]
            if box.dropped or box.task.done():
                await box.close(reason="this page fell too far behind; reload it")
            else:
                box.drop()

    async def remade(body: dict) -> tuple[Live, dict[int, str]]:
        """A game made by a rematch, with a table of the settings given (``host``), and its
        people's seats' tokens."""
        live, tokens = await server.create(NewGame(**body))
        await tables.created(live, parse_settings(body.get("table")))
        return live, tokens

    story.install(app, server, _token_from_header, remade)
    # every response over 1 KB compressed for a client that accepts it (a state, the board)
    app.add_middleware(GZipMiddleware, minimum_size=1000)

    # -- the browser client ---------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "game.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.exception_handler(RuntimeError)
    async def runtime_error(request: Request, exc: RuntimeError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=500)

    return app
