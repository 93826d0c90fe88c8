"""The state of a game of version² and the primitives the phase modules share.

Everything is a flat list indexed by field or player, so a clone is a handful of shallow
copies.  ``owner[f]`` is the player holding field ``f`` (``NOBODY`` for neutral fields and
the sea); ``capitol[f]`` is the player whose capitol stands there; ``warehouse[f]`` is 1
where a warehouse stands.  Units are individuals (V2-Q29) kept as compact records, the
tuple ``(arm, move_points, experience)``, in a sorted list per field, so that equal units
are interchangeable and decisions name a unit by its class (``i1.0``: an infantry with 1
move point and no experience).  ``order`` is the turn order, the seats mixed up at the
start (2.2).

Missions (2.4.1) are secret: a seat's :meth:`view` shows its own mission only, until the
game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import cast

from mypy_extensions import mypyc_attr

from realms.core.engine import Field, GameState, copy_lists
from realms.core.events import EVERYONE, Event

from .board import NOBODY, TERRAINS, Board, load_board
from .rules import ARM_LETTER, ARMS, Rules, load_rules
from .steps import GAME_ID, STEPS


_CLASSES: dict = {}


def unit_class(u: tuple) -> str:
    """The key of a unit's class: arm letter, move points, ``.`` experience."""
    c = _CLASSES.get(u)
    if c is None:
        c = _CLASSES[u] = f"{ARM_LETTER[u[0]]}{u[1]}.{u[2]}"
    return c


def parse_class(key: str) -> tuple:
    mp, exp = key[1:].split(".")
    return (ARM_LETTER.index(key[0]), int(mp), int(exp))


def describe_units(units) -> str:
    """``"3 infantry, 1 artillery"`` (the arms' names serve as their plurals)."""
    counts = [0, 0, 0]
    for u in units:
        counts[u[0]] += 1
    return ", ".join(f"{c} {ARMS[a]}" for a, c in enumerate(counts) if c) or "no units"


def copy_pick(pick: list | None) -> list | None:
    return [pick[0], list(pick[1])] if pick else None


def copy_battle(b: dict | None) -> dict | None:
    """The battle's dict: its lists copied, each side's units list too."""
    if not b:
        return None
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in b.items()}
    out["side"] = [list(x) for x in b["side"]]
    return out


# compiled, a class that takes none makes its instances only through ``__init__``; a
# clone (GameState.clone) makes its copy with ``__new__`` alone
@mypyc_attr(allow_interpreted_subclasses=True)
class V2State(GameState):
    GAME_ID = GAME_ID
    STEPS = STEPS
    FIELDS = (
        # static for the game: shared by clones, not hashed (the options say them)
        Field("rules", snap=False), Field("board", snap=False), Field("names", snap=False),
        Field("n", snap=False), Field("game_type", snap=False), Field("turn_limit", snap=False),
        # the position
        Field("turn"), Field("order", list), Field("first"), Field("active"),
        Field("owner", list), Field("capitol", list), Field("warehouse", list),
        Field("units", copy_lists), Field("treasure", list), Field("alive", list),
        Field("missions", list), Field("helped", list), Field("capitols_taken", list),
        Field("eliminated_by", list),
        Field("pick", copy_pick), Field("battle", copy_battle),
        Field("over"), Field("winners", list), Field("end_reason"),
        # a cache of move options per field (actions.py), dropped where things change
        Field("_moves", dict, snap=False),
        # a cache of each player's own passable fields in board order, dropped on a change
        Field("_own", dict, snap=False),
    )

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.rules: Rules = load_rules()
        self.board: Board = load_board(options["map"])
        self.names: list[str] = list(options["names"])
        n = self.n = len(self.names)
        size = self.board.size
        self.game_type: str = options["type"]
        self.turn_limit: int = options["turn_limit"]
        self.turn = 0
        #: the turn order (2.2: "the players now get mixed up"), ``first`` its head
        self.order = list(range(n))
        self.first = 0
        self.active = NOBODY
        self.owner = [NOBODY] * size
        self.capitol = [NOBODY] * size
        self.warehouse = [0] * size
        self.units: list[list[tuple]] = [[] for _ in range(size)]
        self.treasure = [0] * n
        self.alive = [True] * n
        self.missions: list[tuple] = [("none",)] * n
        #: the players whose mission was found fulfilled during the active player's turn
        #: (2.4: they win at its end unless he fulfils his own), in the order found
        self.helped: list[int] = []
        self.capitols_taken = [0] * n
        self.eliminated_by = [NOBODY] * n
        #: the attack being prepared: [target, [(field, unit), ...]] or None
        self.pick: list | None = None
        #: the battle under way (see battle.py) or None
        self.battle: dict | None = None
        self.over = False
        self.winners: list[int] = []
        self.end_reason = ""
        #: per field, its movers, own neighbours and foreign neighbours (actions.py); a
        #: cache, dropped for a field whenever its units or a neighbour's owner change
        self._moves: dict[int, tuple] = {}
        #: per player, the passable fields he holds (board order); a cache, dropped for
        #: both players whenever a field changes hands
        self._own: dict[int, list[int]] = {}
        self.start(("setup",))

    def the_pick(self) -> list:
        """The attack being prepared (2.3.4.2): its steps run only while there is one."""
        if self.pick is None:
            raise RuntimeError("no attack is being prepared")
        return self.pick

    def the_battle(self) -> dict:
        """The battle under way (battle.py): its steps run only during one."""
        if self.battle is None:
            raise RuntimeError("no battle is under way")
        return self.battle

    def redeal_hidden(self, player: int | None, dice) -> None:
        """The other seats' missions dealt anew (:func:`.missions.redeal`)."""
        from .missions import redeal

        redeal(self, player, dice)

    # -- what players see ----------------------------------------------------------------
    def view(self, player: int | None, shared: bool = False) -> dict:
        """The game as ``player`` sees it (``None``: a spectator): everything on the board
        and every treasure; the viewer's own mission, and every mission once the game is
        over (2.4: "every player knows his mission"; the others' stay secret).

        ``shared``: the units (each a tuple) in the state's own lists, not copied into
        lists of lists, and each player's row counted when first read: the same view for
        a bot inside a search (``Game.bot_view``), which only reads it, during its
        decision; a rollout's bot reads its own row alone, and copying every unit at
        every answer of a rollout was much of a search's time."""
        from .missions import mission_json

        me = player if player is not None and 0 <= player < self.n else None
        out = {
            "game": self.GAME_ID,
            "type": self.game_type,
            "map": self.options["map"],
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "first": self.first,
            "order": list(self.order),
            "active": self.active if self.active != NOBODY else None,
            "you": me,
            "players": _Rows(self) if shared else [self.player_row(p) for p in range(self.n)],
            "owner": self.owner,
            "capitol": self.capitol,
            "warehouse": self.warehouse,
            "units": self.units if shared else [[list(u) for u in us] for us in self.units],
            "pick": {"target": self.pick[0], "units": [[f, list(u)] for f, u in self.pick[1]]} if self.pick else None,
            "battle": self._battle_view(shared),
            "over": self.over,
        }
        if me is not None:
            out["mission"] = mission_json(self, me)
        if self.over:
            out["missions"] = [mission_json(self, p) for p in range(self.n)]
            out["result"] = self.result()
        return out

    def player_row(self, p: int) -> dict:
        """Player ``p`` as every view shows him: treasure, fields, production, army."""
        return {"name": self.names[p], "treasure": self.treasure[p], "alive": self.alive[p],
                "fields": self.field_count(p), "production": self.production(p),
                "units": self.army_size(p), "capitols_taken": self.capitols_taken[p]}

    def _battle_view(self, shared: bool = False) -> dict | None:
        b = self.battle
        if not b:
            return None
        side = b["side"]
        if shared:
            return {"target": b["target"], "attacker": b["att"], "defender": b["dfd"], "round": b["round"],
                    "attackers": side[0], "defenders": side[1], "orders": b["orders"], "retreat": b["retreat"]}
        return {"target": b["target"], "attacker": b["att"], "defender": b["dfd"], "round": b["round"],
                "attackers": [list(u) for u in side[0]], "defenders": [list(u) for u in side[1]],
                "orders": list(b["orders"]), "retreat": list(b["retreat"])}

    def result(self) -> dict:
        """Scores are the fields each player holds (the history measure); the winner is who
        fulfilled his mission (2.4), or at the turn limit who holds most fields (V2-Q35)."""
        names = self.names
        winners = [names[p] for p in self.winners] if self.over else []
        return {
            "players": list(names),
            "scores": {names[p]: self.field_count(p) for p in range(self.n)},
            "winners": winners,
            "winner": winners[0] if len(winners) == 1 else None,
            "turns": self.turn,
            "over": self.over,
            "end": self.end_reason,
            "how": self.end_words(),
        }

    def end_words(self) -> str:
        """How the game ended, in words (V2-Q34, V2-Q35, 2.4): a turn limit's with its
        tie-break."""
        if not self.over:
            return ""
        if self.end_reason == "limit":
            return f"{missions.END_WORDS['limit']}: {missions.limit_standing(self)[1]}"
        return missions.END_WORDS.get(self.end_reason, self.end_reason)

    # -- counting --------------------------------------------------------------------------
    def field_value(self, f: int) -> int:
        """I.1: the natural production index, +3 for a standing capitol, +1 for a warehouse."""
        r = self.rules
        return (self.board.index[f] + (r.capitol_bonus if self.capitol[f] != NOBODY else 0)
                + (r.warehouse_bonus if self.warehouse[f] else 0))

    def production(self, p: int) -> int:
        fv = self.field_value
        return sum(map(fv, self.own_fields(p)))

    def field_count(self, p: int) -> int:
        return self.owner.count(p)

    def land_count(self, p: int) -> int:
        """Fields held but fords (sea is never held)."""
        owner = self.owner
        return owner.count(p) - sum(1 for f in self.board.fords if owner[f] == p)

    def army_size(self, p: int) -> int:
        n = sum(map(len, compress(self.units, map(p.__eq__, self.owner))))
        b = self.battle
        if b:
            if b["att"] == p:
                n += len(b["side"][0])
            if b["dfd"] == p:
                n += len(b["side"][1])
        return n

    def shares(self, p: int) -> int:
        """2.3.5: the shares a player's treasure is stored in: one per warehouse, and one
        more for his standing capitol (V2-Q12)."""
        owner, wh, cap = self.owner, self.warehouse, self.capitol
        return sum(wh[f] + (1 if cap[f] == p else 0) for f, o in enumerate(owner) if o == p)

    # -- shared primitives -----------------------------------------------------------------
    def log(self, kind: str, text: str, audience: tuple[int, ...] | None = EVERYONE, **data) -> None:
        """An event for the chronicle; ``audience``: the seats that may read it while the
        game runs (a mission is its holder's alone, 2.4)."""
        self.events.append(Event(kind, self.turn, text, data, audience))

    def add_units(self, f: int, new) -> None:
        us = self.units[f]
        us.extend(new)
        us.sort()
        self._moves.pop(f, None)

    def take_unit(self, f: int, u: tuple) -> None:
        self.units[f].remove(u)
        self._moves.pop(f, None)

    def clear_units(self, f: int) -> None:
        self.units[f] = []
        self._moves.pop(f, None)

    def set_units(self, f: int, units: list[tuple]) -> None:
        self.units[f] = sorted(units)
        self._moves.pop(f, None)

    def set_owner(self, f: int, p: int) -> None:
        """Field ``f`` changes hands: the move options of it and its neighbours change."""
        own = self._own
        own.pop(self.owner[f], None)
        own.pop(p, None)
        self.owner[f] = p
        moves = self._moves
        moves.pop(f, None)
        for g in self.board.adj[f]:
            moves.pop(g, None)

    def own_fields(self, p: int) -> list[int]:
        """The passable fields ``p`` holds, in board order (cached until one changes hands)."""
        fs = self._own.get(p)
        if fs is None:
            owner = self.owner
            fs = self._own[p] = [f for f in self.board.passable if owner[f] == p]
        return fs

    def field_name(self, f: int) -> str:
        return f"field {f} ({TERRAINS[self.board.terrain[f]]})"


class _Rows(Sequence):
    """The players' rows of a bot's view (:meth:`V2State.view`, ``shared``), each made
    from the state when first read: valid while the state stands still."""

    __slots__ = ("state", "rows")

    def __init__(self, state: V2State) -> None:
        self.state = state
        self.rows: list = [None] * state.n

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, p):
        if isinstance(p, slice):
            return [self[i] for i in range(*p.indices(len(self.rows)))]
        row = self.rows[p]
        if row is None:
            row = self.rows[p] = self.state.player_row(p % len(self.rows))
        return row


def bot_view(state: GameState, player: int | None) -> dict:
    """:meth:`V2State.view` with the state's own unit lists (``Game.bot_view``)."""
    return cast(V2State, state).view(player, shared=True)


def turn_of(state: GameState) -> tuple[int, int]:
    """The game turn and the player whose turn it is (2.3: one player acts at a time;
    ``Game.turn_of``)."""
    s = cast(V2State, state)
    return s.turn, s.active


# Register every phase's steps (rulebook order).
from . import setup, turn, recruit, movement, warehouse, attack, battle, missions  # noqa: E402,F401
