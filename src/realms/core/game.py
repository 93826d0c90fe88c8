"""Game descriptors and the registry of games.

The core knows no game: games announce themselves through the ``realms.games`` entry
point group (see pyproject.toml), each pointing at a :class:`Game`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import entry_points
from typing import Any, Callable, Generic, Hashable, TypeVar

from .decision import Decision, IllegalAnswer
from .engine import GameState
from .options import Option, OptionError, player_options, validate
from .record import Record, RecordError

__all__ = ["Game", "GameMaster", "GMError", "Invariant", "Option", "OptionError", "UnknownGame", "games", "get_game", "replay"]


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


#: a game's own state class: the contract's functions are given states of that class
S = TypeVar("S", bound=GameState)

#: An invariant looks at the state after a step (and a scratch dict it may use to
#: remember earlier steps) and returns a description of what is wrong, or None.
Invariant = Callable[[S, dict], "str | None"]


@dataclass(frozen=True)
class Game(Generic[S]):
    """What the engine, bots, CLI and web app need to know about one game (``Game[S]``:
    one whose states are of class ``S``)."""

    id: str
    name: str
    min_players: int
    max_players: int
    state_class: type[S]
    invariants: tuple[Invariant[S], ...] = ()
    hidden: Callable[[S, "int | None"], list[Any]] = field(default=lambda s, p: [])
    bots: dict = field(default_factory=dict)
    #: ``{spec: label}``: the seat kinds a lobby offers by name, each a bot as ``--bots``
    #: writes it (``auto:level=hard``: a bot's levels) or a bot's plain name to label it;
    #: the web app accepts the plain names and these, no other parameters
    bot_variants: dict = field(default_factory=dict)
    #: decision kinds whose answers other players must not learn (a secret draft pick)
    private_kinds: frozenset = frozenset()
    #: ``open_from(state) -> n``: the answers from number ``n`` on belong to a round not
    #: yet resolved; a player's record leaves out the other seats' private answers among
    #: them, so not even their number (the rhythm of another's writing) shows
    open_from: Callable[[S], int] | None = None
    #: ``final(state, seat, key) -> bool``: whether ``seat``'s answer ``key`` to ``state``
    #: can never be taken back (a post of orders once sent)
    final: Callable[[S, int, str], bool] | None = None
    #: what the scores count, for people ("VP", "points")
    score_name: str = "VP"
    #: what one turn of the game is called, for people ("turn", "round")
    turn_word: str = "turn"
    #: ``draw(state_or_None, options) -> SVG text``: the board, or a position on it.
    draw: Callable[["S | None", dict], str] | None = None
    #: ``board(view) -> position``: the position of :attr:`draw`'s picture as the changes
    #: a page applies in place to the drawing it holds (``core.position`` says what each
    #: key sets: per area its owner's colour and seat, units, marks; a few texts and
    #: layers), from the viewer's view alone, so it shows nothing the seat may not see.
    #: The drawing is then sent once; :attr:`draw` of a state is its position applied.
    board: Callable[[dict], dict] | None = None
    #: ``advice(view, decisions) -> [{"kind", "text", …}]``: what a player should know
    #: before answering ``decisions`` (its own pending ones) in the position ``view``
    #: (``state.view(player)``), e.g. the exact odds of the battles at stake.  It reads
    #: nothing else, so it cannot show what the player may not see.  JSON-ready; each
    #: entry has a ``text`` line for people.
    advice: Callable[[dict, list[Decision]], list[dict]] | None = None
    #: the decision kinds :attr:`advice` can speak of (``None``: any): a seat with none of
    #: them pending gets no advice, so a server does not ask for it (the game's advice
    #: module reads the same set).
    advice_kinds: frozenset[str] | None = None
    #: ``warm()``: load what a server's first games would otherwise wait for inside their
    #: requests (heavy modules, boards, solver tables); ``realms serve`` calls it once at
    #: start-up.  It changes no result, only when the cost is paid.
    warm: Callable[[], None] | None = None
    #: ``panels(view) -> [{"title", "items": [str]}]``: what a page shows the viewer beside
    #: the board and the scores, from its view alone (a hand of cards, the cards kept in a
    #: draft, a secret mission); nothing for a spectator's view if the game shows nothing.
    panels: Callable[[dict], list[dict]] | None = None
    #: ``controls(view, decision) -> {…}``: hints for a page's controls of one pending
    #: decision, from the viewer's view alone; the decision stays as it is.  ``"moves"``:
    #: ``{"separator": ">", "units": {source: count}}`` says the kind is asked again after
    #: each answer while units can move, each key "SOURCE>DESTINATION" moving one unit, so
    #: a page may send one key up to ``count`` times in one gesture; ``"keep_in_view"``:
    #: the keys to keep at hand (end movement, start the battle).  ``"orders"``: an order
    #: form, ``{"form", "budget", "unit", "send", "send_label", "amount_kind", "items":
    #: {key: {"label", "group", "amount": {"min", "max", "step"} | "cost", "once",
    #: "requires"}}}``: the page writes several orders (each a key, its amount answered to
    #: the ``amount_kind`` decision asked next) within the budget, lists them, then sends
    #: them and the ``send`` key; ``form`` names the round the orders are for.
    #: ``"warn"``: ``{key: text}``, what an answer costs (units lost), asked before it is sent.
    controls: Callable[[dict, Decision], dict] | None = None
    #: ``no_answer(decision) -> (round, key) | None``: for a decision a deadline may end,
    #: the round it belongs to (its deadline runs from when the round is first seen) and
    #: the answer given for a seat that has not answered when the deadline passes (no
    #: orders); None for a decision no deadline ends.  The deadline is the game's
    #: ``deadline_minutes`` option (0: none), set by the game's creator; the web app keeps
    #: it (``server/deadlines.py``).
    no_answer: Callable[[Decision], tuple | None] | None = None
    #: where the game stands in lists (``realms games``, the lobby, which opens on the
    #: first): lower first, then by id
    rank: int = 100
    #: what the game is, in a line for people (the lobby)
    description: str = ""
    #: ``{label: options}``: ready-made option sets the lobby offers ("a quick game")
    presets: dict = field(default_factory=dict)
    #: ``describe(view) -> [line, …]``: the position as text for the terminal
    #: (``realms play``), from the viewer's view alone; the terminal prints the scores
    #: and the ``panels`` after it, so it does not repeat them
    describe: Callable[[dict], list[str]] | None = None

    # -- options: the declared schema (owner: options work) ----------------------------
    #: the game's own options; ``players`` and ``names`` come first in every game's
    #: :attr:`schema`, declared once in ``core.options``
    options: tuple[Option, ...] = ()
    #: the number of players when neither ``players`` nor ``names`` is given
    default_players: int = 4
    #: ``check_options(options, given) -> options``: what the schema cannot say, run on
    #: the validated options (defaults filled in) knowing which names were ``given``;
    #: raises ``OptionError`` naming the options at fault
    check_options: Callable[[dict, frozenset], dict] | None = None

    # -- traits, for search and learning (owner: engine API work) ------------------------
    #: the game rolls dice or shuffles (a state's future depends on its seed)
    chance: bool = True
    #: some seat may not see part of the state (``hidden`` lists what)
    hidden_information: bool = False
    #: several seats may decide at once (``pending()`` may hold several decisions)
    simultaneous: bool = False
    #: the most options one question may offer: the size of the fixed action space of the
    #: learning adapters (``realms.adapters``), which refuse a longer option list by name
    max_options: int = 1024
    #: ``evaluate(state) -> [value of seat 0, …]``: how good a running position is for each
    #: seat, each in 0..1 (a search cuts its rollouts short and scores them with it);
    #: default: each seat's share of :meth:`current_scores` (:meth:`evaluation`)
    evaluate: Callable[[S], list[float]] | None = None
    #: ``features(view) -> {name: [value for seat 0, …]}``: what a learned evaluation
    #: (``realms train``, ``realms.search.value``) reads of a position, from the deciding
    #: seat's view alone (``state.view(seat)``), so it can show nothing the seat may not
    #: see; every name present in every position, one finite number per seat.  A game
    #: without it has no learned evaluation.
    features: Callable[[dict], dict[str, list[float]]] | None = None
    #: decision kinds a search leaves to its policy bot: the sub-picks of a choice the
    #: search has made as one (the units of an attack whose target it chose), or questions
    #: with one sensible answer, so that its budget goes where answers differ; the game's
    #: bots answer such a sub-pick of a choice they did not make (the search's) as they
    #: would for their own, else the search weighs a choice it never sees played
    unsearched_kinds: frozenset = frozenset()
    #: ``unsearched(decision) -> bool``: a decision left to the policy as above though its
    #: kind is searched elsewhere, where one kind asks both the choice and its sub-picks
    #: (Hy Breasil: the moves into a pending battle, the force of an attack whose target
    #: the search chose with the first move).  None: the kinds alone say.
    unsearched: Callable[[Decision], bool] | None = None
    #: ``bot_view(state, seat) -> view``: what ``state.view(seat)`` shows, for a bot
    #: answering inside a search (at every answer of every rollout), sharing the state's
    #: own lists where the view would copy them; the bot reads it during that one decision
    #: and neither changes nor keeps it.  None: the view itself.
    bot_view: Callable[[GameState, int], dict] | None = None
    #: ``turn_of(state) -> key``: which turn is being played, as a value that changes when
    #: it ends (version²: the game turn and the player whose turn it is), so that a search
    #: can score a position where a turn ends (``ismcts:horizon=turn``) rather than
    #: part-way through one.  None: the game names no turns to a search.
    turn_of: Callable[[GameState], Hashable] | None = None

    # -- analysis through the contract (owner: analysis work) ---------------------------
    # Each hook is a function, so a game's analysis modules load only when used.
    #: ``scores_now(state) -> [score of seat 0, …]``: what each seat would be ranked by if
    #: the game ended now, higher is better (default: ``result()["scores"]`` in seat order).
    #: The simulation samples it at every turn end for the outcome metrics.
    scores_now: Callable[[S], list[float]] | None = None
    #: ``watcher() -> realms.core.stats.Watcher``: a fresh statistics watcher for one game;
    #: what it keeps goes under a game line's ``"stats"`` (default: nothing game-specific).
    watcher: Callable[[], Any] | None = None
    #: ``factions(state) -> [{dimension: value, …, "survives": bool} per seat]``: what each
    #: seat was dealt (a nation's race, a starting state, a mission), read at every turn end,
    #: its first value kept (``None``: not dealt yet); ``survives``: the seat is still in
    #: the game.  The report gives win share, score and survival by each.
    factions: Callable[[S], list[dict]] | None = None
    #: ``usage(event) -> name | None``: the rule, ability or event an event shows being
    #: used ("city built"), counted per game in a report (default: the event kinds);
    #: ``usage(None)`` lists every name it may give, so one never used shows as 0.
    usage: Callable[[Any], "str | list[str] | None"] | None = None
    #: ``report_sections() -> (ReportSection, …)``: what a simulation report adds for this
    #: game, computed from the games' lines.
    report_sections: Callable[[], tuple["ReportSection", ...]] | None = None
    #: ``palette() -> (colour of seat 0, …)``: the seats' colours (#rrggbb), the same on the
    #: map, the history page and the report's charts (:meth:`seat_colours`)
    palette: Callable[[], tuple[str, ...]] | None = None
    #: ``history_measure() -> HistoryMeasure``: what the histomap of ``realms history``
    #: shows (default: each player's share of the scores).
    history_measure: Callable[[], "HistoryMeasure"] | None = None
    #: ``calculator() -> Calculator``: the battle calculator of ``realms odds GAME …``.
    calculator: Callable[[], "Calculator"] | None = None
    #: ``map_generator() -> MapGenerator``: new maps, ``realms map generate GAME …``.
    map_generator: Callable[[], "MapGenerator"] | None = None

    # -- tools for people running a game -------------------------------------------------
    #: ``gm() -> GameMaster``: the game master's assistant of ``realms gm`` for a game
    #: played by posts on a forum (read the posts, adjudicate, write the turn report).
    gm: Callable[[], "GameMaster"] | None = None

    def current_scores(self, state: S) -> list[float]:
        """Each seat's score now (:attr:`scores_now`, or the result's scores)."""
        if self.scores_now is not None:
            return list(self.scores_now(state))
        res = state.result()
        return [res["scores"][name] for name in res["players"]]

    def seat_colours(self, n: int) -> list[str]:
        """The colours of seats 0..n-1: the game's :attr:`palette`, stretched with colours
        it lacks where it has fewer than ``n`` (no two seats alike)."""
        from .report import seat_colours

        return seat_colours(n, self.palette() if self.palette is not None else None)

    def evaluation(self, state: S) -> list[float]:
        """Each seat's value of a running position, in 0..1 (:attr:`evaluate`, or each
        seat's share of the current scores, negative scores counting as none; equal shares
        while nobody scores)."""
        if self.evaluate is not None:
            return list(self.evaluate(state))
        scores = [max(0.0, float(s)) for s in self.current_scores(state)]
        total = sum(scores)
        if total <= 0:
            return [1 / len(scores)] * len(scores)
        return [s / total for s in scores]

    def __post_init__(self) -> None:
        names = [o.name for o in self.schema]
        flags = [o.flag for o in self.schema if o.flag]
        if len(set(names)) != len(names) or len(set(flags)) != len(flags):
            raise ValueError(f"{self.id}: option names and flags must be unique")
        if not self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.id}: default_players must be within the player range")

    @cached_property
    def schema(self) -> tuple[Option, ...]:
        """Every option of the game: players and names, then the game's own."""
        return (*player_options(self.min_players, self.max_players, self.default_players), *self.options)

    def normalize_options(self, raw: dict, paths: bool = True) -> dict:
        """``raw`` checked against :attr:`schema` by the shared validator, then by the
        game's own :attr:`check_options`: the full options, defaults filled in.  A bad
        option raises :class:`OptionError` naming it.  ``paths=False`` (the web) accepts
        only bundled names for ``file`` options, never a path on the server."""
        options, given = validate(self.schema, raw, paths)
        if self.check_options is not None:
            options = self.check_options(options, given)
        return options

    def new_game(self, options: dict | None = None, seed: int = 0) -> S:
        """A new game with validated ``options`` (defaults filled in) and ``seed``."""
        return self.state_class(self.normalize_options(dict(options or {})), seed)

    def record_for(self, state: S, player: int | None) -> dict:
        """The record as ``player`` may have it (``None``: a spectator).

        A finished game's record is whole.  While a game runs, a player's copy leaves out
        the seed (it would reveal every future die and shuffle) and the keys of other
        players' private answers (``private_kinds``); it is a history to read, not to
        replay — the full record is the server's.  The other seats' private answers of a
        round still open (``open_from``) are left out altogether.
        """
        if state.is_over():
            return state.record().to_json()
        open_from = self.open_from(state) if self.open_from is not None else len(state.answers)
        answers = [
            [p, key if (p == player or kind not in self.private_kinds) else None]
            for i, ((p, key), kind) in enumerate(zip(state.answers, state.answer_kinds))
            if i < open_from or p == player or kind not in self.private_kinds
        ]
        return {
            "format": "realms-view-record",
            "version": state.RECORD_VERSION,
            "game": self.id,
            "options": state.options,
            "player": player,
            "answers": answers,
        }

    def replay(self, record: Record, source: str = "record",
               after_each: Callable[[S], None] | None = None) -> S:
        """The state a record leads to; a :class:`RecordError` names the first bad answer.
        ``after_each(state)`` is called on the new game and after every answer."""
        if record.game != self.id:
            raise RecordError(f"{source}: record is for {record.game!r}, not {self.id!r}")
        if record.version != self.state_class.RECORD_VERSION:
            raise RecordError(
                f"{source}: record version {record.version} is not supported "
                f"(expected {self.state_class.RECORD_VERSION})"
            )
        try:
            state = self.new_game(record.options, record.seed)
        except OptionError as exc:
            raise RecordError(f"{source}: bad options: {exc}") from None
        if after_each is not None:
            after_each(state)
        for i, (player, key) in enumerate(record.answers):
            try:
                state.apply(player, key)
            except IllegalAnswer as exc:
                raise RecordError(f"{source}: answer #{i + 1} [{player}, {key!r}]: {exc}") from None
            if after_each is not None:
                after_each(state)
        return state

    def turn_starts(self, record: Record, source: str = "record") -> list[tuple[int, int]]:
        """Where each turn of a recorded game begins, as ``(turn, answers)``: the number of
        answers after which the turn's first event was logged (its events carry the turn).
        A replay viewer steps through a game turn by turn with these.  A bad record raises
        :class:`RecordError`, as :meth:`replay` does."""
        starts: list[tuple[int, int]] = []
        seen: set[int] = set()
        logged = 0

        def note(state: GameState) -> None:
            nonlocal logged
            for e in state.events[logged:]:
                if e.turn not in seen:
                    seen.add(e.turn)
                    starts.append((e.turn, len(state.answers)))
            logged = len(state.events)

        self.replay(record, source, after_each=note)
        return starts


# =========================================================================== analysis hooks


@dataclass
class Share:
    """One stream of a history's histomap at one turn end: what one nation or player
    holds (``value``), drawn in ``colour``; ``parent``: the stream it split from."""

    key: str
    name: str
    detail: str  # the smaller line of the label (race, owner)
    colour: str
    value: float
    parent: str | None = None


class HistoryMeasure:
    """What a game's history page measures (``Game.history_measure``); one per replay.

    The page replays a record and calls :meth:`on_event` for every event and
    :meth:`shares` at every turn end.  This base measures each player's score.
    """

    #: what a stream's width measures, for people ("land areas held")
    name = "score"
    #: chronicle styling by event kind: ``battle``, ``rise``, ``fall`` or ``score``
    event_classes: dict[str, str] = {}
    #: event kinds that only mark where a turn begins (its heading says as much)
    marker_kinds: frozenset = frozenset()
    #: colours of seats 0, 1, … where a game has none of its own
    palette: tuple[str, ...] = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")

    def on_event(self, state: GameState, event) -> None:
        """``event`` is being logged (a measure may follow who split from whom)."""

    def shares(self, state: GameState) -> tuple[list[Share], float]:
        """The streams at this turn end (those holding nothing left out) and the whole
        they are shares of (the map's land, the board's towns)."""
        res = state.result()
        out = [Share(f"p{i}", name, "", self.palette[i % len(self.palette)], max(0, res["scores"][name]))
               for i, name in enumerate(res["players"])]
        return [s for s in out if s.value], max(1, sum(s.value for s in out))

    def snapshot(self, state: GameState, turn: int) -> GameState:
        """The state to draw as the map at the end of ``turn`` (a game whose turn
        counter has already moved on returns a copy showing ``turn``)."""
        return state


@dataclass(frozen=True)
class ReportSection:
    """One section a game adds to a simulation report (``realms simulate --report``).

    ``figure(lines)`` computes it from the games' lines (their ``stats`` come from the
    game's watcher): JSON kept as ``summary.json``'s ``figures[key]``, or ``None`` when
    these lines have nothing to show.  ``chart(figure)`` returns a matplotlib figure (or
    ``None``), saved as ``charts/<key>.svg``; ``html(figure, img)`` is the section as
    HTML, given the chart's ``<img>`` tag ("" without a chart).
    """

    key: str
    figure: Callable[[list[dict]], dict | None]
    html: Callable[[dict, str], str]
    chart: Callable[[dict], Any] | None = None


class CalculatorError(ValueError):
    """Bad calculator input; the message names the argument and the problem."""


@dataclass(frozen=True)
class Argument:
    """One command-line argument of a game's calculator: ``--<name>`` (underscores as
    dashes).  ``type``: ``int``, ``float``, ``str``, ``bool`` (a flag) or ``"path"``
    (a file to write)."""

    name: str
    type: Any
    help: str
    default: Any = None
    choices: tuple | None = None
    short: str | None = None  # "-a"
    metavar: str | None = None


@dataclass(frozen=True)
class MapGenerator:
    """A game's map generator (``realms map generate GAME … -o FILE``): the arguments it
    declares (as a calculator does), and ``generate(values) -> (text, summary)``: the map
    file, valid by the game's own loader, and a line for people.  Bad values, or no
    acceptable map from them, raise :class:`CalculatorError` naming the argument."""

    arguments: tuple[Argument, ...]
    generate: Callable[[dict], tuple[str, str]]
    help: str


@dataclass(frozen=True)
class Calculator:
    """A game's battle calculator (``realms odds GAME …``): the arguments it declares,
    and ``compute(values) -> (json, text)`` from the values by argument name — the JSON
    object of ``--json`` and the text for people.  Bad input raises
    :class:`CalculatorError`."""

    help: str
    arguments: tuple[Argument, ...]
    compute: Callable[[dict], tuple[dict, str]]


class GMError(ValueError):
    """A game master's command cannot go on; the message names the file and the problem."""


@dataclass(frozen=True)
class GameMaster:
    """A game's game-master's assistant (``realms gm``, ``Game.gm``) for a game whose
    players post their orders on a forum.  The game is kept in a folder: ``record.json``
    (the record so far, which ``realms replay`` replays) and the game's own files beside
    it.  Each function returns ``(json, text)``: the JSON of ``--json`` and the text for
    people; bad input raises :class:`GMError`.

    ``new(folder, players, seed)``: a new game from the ``--player`` values (what each
    holds is the game's :attr:`player_help`); ``orders(folder, posts)``: the orders read
    from a file of posts, each problem with its line and reason, kept for ``resolve``;
    ``resolve(folder, image_url)``: the turn adjudicated with the orders kept, its report
    written into the folder (its map linked at ``image_url`` when given); ``orders`` reads
    a list of pages (``add``: with the pages read before for this turn); ``alias(folder,
    name, player)``, if any: posts signed ``name`` are ``player``'s."""

    player_help: str
    new: Callable[[Any, list[str], int], tuple[dict, str]]
    orders: Callable[..., tuple[dict, str]]
    resolve: Callable[..., tuple[dict, str]]
    alias: Callable[[Any, str, str], tuple[dict, str]] | None = None


def lazy(spec: str, package: str) -> Callable:
    """A hook that imports what it calls only when first called: ``lazy(".draw:draw",
    __package__)`` in a game's ``__init__``.  Listing the games, or a command that never
    draws, then loads none of the game's drawing, odds or analysis modules (and their
    numpy or matplotlib)."""
    module, _, name = spec.partition(":")
    found: list[Callable] = []

    def hook(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(module, package), name))
        return found[0](*args, **kwargs)

    hook.__qualname__ = hook.__name__ = f"lazy({spec!r})"
    return hook


_GAMES: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    """All registered games by id, in list order (:attr:`Game.rank`, then id)."""
    global _GAMES
    if _GAMES is None:
        found: dict[str, Game] = {}
        for ep in entry_points(group="realms.games"):
            game = ep.load()
            found[game.id] = game
        _GAMES = dict(sorted(found.items(), key=lambda kv: (kv[1].rank, kv[0])))
    return _GAMES


def get_game(game_id: str) -> Game:
    registry = games()
    if game_id not in registry:
        known = ", ".join(registry) or "none"
        raise UnknownGame(f"unknown game {game_id!r} (known: {known})")
    return registry[game_id]


def replay(record: Record, source: str = "record") -> GameState:
    try:
        game = get_game(record.game)
    except UnknownGame as exc:
        raise RecordError(f"{source}: {exc}") from None
    return game.replay(record, source)
