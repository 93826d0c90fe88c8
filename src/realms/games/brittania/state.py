"""The state of a game of Brittania and the primitives the phase modules share.

Everything is small lists indexed by state or player, so a clone is a handful of shallow
copies.  ``owner[s]`` is the player holding state ``s`` or ``INDEPENDENT``; ``output[s]``
its grain per turn (0: devastated).  Per player: ``grain`` (the stockpile, which carries
over, BR-Q10), ``capital`` (a state, or ``NONE`` when lost and not yet re-declared), the
king (``king_name``, ``king_cv``, ``king_traits``), ``kingdom`` (the lasting Kingdom
status, BR-Q15) and ``title`` (a region whose High Kingdom the player holds).  Trade
routes are sorted seat pairs.

While orders are being written (``phase == "orders"``), ``orders[p]`` holds player p's
orders as ``(kind, target, grain)``: hidden from every other seat until the turn resolves
(rules post, TURN ORDER; RULINGS BR-Q29).
"""

from __future__ import annotations

from typing import cast

from mypy_extensions import mypyc_attr

from realms.core.engine import Field, GameState, copy_lists
from realms.core.events import EVERYONE, Event

from .board import Board, load_board
from .steps import GAME_ID, STEPS
from .tables import Tables, load_tables

INDEPENDENT = -1
NONE = -1


def _pairs(value: list) -> list:
    return [list(x) if x else None for x in value]


def bot_view(state: GameState, player: int | None) -> dict:
    """:meth:`BRState.view` for a bot inside a search (``Game.bot_view``)."""
    return cast(BRState, state).view(player, shared=True)


def turn_of(state: GameState) -> int:
    """The turn being played (``Game.turn_of``): every player writes his orders at once
    and the turn ends when they resolve (TURN ORDER), the next beginning at once."""
    return cast(BRState, state).turn


# compiled, a class that takes none makes its instances only through ``__init__``; a
# clone (GameState.clone) makes its copy with ``__new__`` alone
@mypyc_attr(allow_interpreted_subclasses=True)
class BRState(GameState):
    GAME_ID = GAME_ID
    STEPS = STEPS
    #: static data and names are shared by clones and left out of the hash; the king's
    #: three lists are hashed together under "king"
    FIELDS = (
        Field("board", snap=False), Field("tables", snap=False), Field("names", snap=False),
        Field("n", snap=False), Field("last_turn", snap=False), Field("colours", snap=False),
        Field("turn"), Field("phase"),
        Field("owner", list), Field("output", list), Field("grain", list), Field("capital", list),
        Field("alive", list), Field("out_for_good", list), Field("start_region", list),
        Field("king_name", list, lambda s: [s.king_name, s.king_cv, s.king_traits], key="king"),
        Field("king_cv", list, False), Field("king_traits", copy_lists, False),
        Field("kingdom", list), Field("title", list),
        Field("trades", list, lambda s: [list(t) for t in s.trades]),
        Field("orders", copy_lists, lambda s: [[list(o) for o in x] for x in s.orders]),
        Field("picking", list, lambda s: _pairs(s.picking)), Field("done", list),
        Field("lead", list, lambda s: _pairs(s.lead)),
        Field("over"), Field("winners", list), Field("victory"),
        Field("orders_from", snap=False),
    )

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.board: Board = load_board()
        self.tables: Tables = load_tables()
        self.names: list[str] = list(options["names"])
        n = self.n = len(self.names)
        self.last_turn: int = options["turns"]
        self.colours = list(self.tables.colours[:n])
        k = len(self.board.states)
        start = self.tables.n
        self.turn = 0
        self.phase = "setup"
        #: the number of answers when this turn's orders opened: the answers after it are
        #: a turn not yet resolved (``Game.open_from``)
        self.orders_from = 0
        self.owner = [INDEPENDENT] * k
        self.output = [start["start_output"]] * k
        self.grain = [start["start_grain"]] * n
        self.capital = [NONE] * n
        self.alive = [True] * n
        self.out_for_good = [False] * n
        self.start_region = [""] * n
        self.king_name = [""] * n
        self.king_cv = [0] * n
        self.king_traits: list[list[str]] = [[] for _ in range(n)]
        self.kingdom = [False] * n
        self.title = [""] * n
        self.trades: list[tuple[int, int]] = []
        self.orders: list[list[tuple[str, int, int]]] = [[] for _ in range(n)]
        self.picking: list[tuple[str, int] | None] = [None] * n
        self.done = [False] * n
        self.lead: list[tuple[str, int] | None] = [None] * n
        self.over = False
        self.winners: list[int] = []
        self.victory = ""
        self.start(("setup",))

    # -- search: what a player cannot know --------------------------------------------------
    def clone(self) -> "BRState":
        """An independent copy (:meth:`GameState.clone`), typed as this game's state."""
        return cast("BRState", super().clone())

    def redeal_hidden(self, player: int | None, dice) -> None:
        """The other players' orders this turn, which ``player`` cannot see (BR-Q29),
        forgotten: one who has sent his gives none, one still writing starts again (his
        question asked anew).  A search on the copy sees no other's orders; it does not
        guess them (``dice`` unused)."""
        if self.phase != "orders":
            return
        for q in range(self.n):
            if q != player:
                self.orders[q] = []
                self.picking[q] = None
                self.lead[q] = None
        self.ask_again()

    # -- what players see ----------------------------------------------------------------
    def order_json(self, p: int, order: tuple[str, int, int]) -> dict:
        """An order as views show it (and as ``Game.hidden`` names other seats' orders)."""
        kind, target, grain = order
        name = self.board.states[target].id if kind not in ("trade", "cancel") else self.names[target]
        return {"by": p, "grain": grain, "kind": kind, "target": name}

    def view(self, player: int | None, shared: bool = False) -> dict:
        """The game as ``player`` sees it (``None``: a spectator).

        Public, as the game master's turn report shows it: the map (owners, outputs,
        capitals), every player's grain, king, titles and trade routes, and whether each has
        sent orders.  Private: the viewer's own orders for this turn, never another's.

        ``shared``: the same view for a bot inside a search (``Game.bot_view``), which only
        reads it during its decision: the kings' traits are the state's own lists, and the
        states each player holds are counted in one pass over the map, not one a player.
        """
        me = player if player is not None and 0 <= player < self.n else None
        return self._view(me, shared)

    def _view(self, me: int | None, shared: bool) -> dict:
        """:meth:`view`, built with the fewest passes over the map; the kings' traits
        copied unless ``shared``."""
        b = self.board
        ids = b.ids
        n = self.n
        owner, output = self.owner, self.output
        held = [0] * n
        states = {}
        for sid, o, g in zip(ids, owner, output):
            if o == INDEPENDENT:
                states[sid] = {"owner": None, "output": g}
            else:
                held[o] += 1
                states[sid] = {"owner": o, "output": g}
        names, capital = self.names, self.capital
        partners: list[list[str]] = [[] for _ in range(n)]
        for a, c in self.trades:
            partners[a].append(names[c])
            partners[c].append(names[a])
        out = {
            "game": self.GAME_ID,
            "turn": self.turn,
            "last_turn": self.last_turn,
            "phase": self.phase,
            "you": me,
            "players": [
                {"name": names[p], "colour": self.colours[p], "alive": self.alive[p], "grain": self.grain[p],
                 "king": {"name": self.king_name[p], "cv": self.king_cv[p],
                          "traits": self.king_traits[p] if shared else list(self.king_traits[p])},
                 "capital": ids[capital[p]] if capital[p] != NONE else None,
                 "kingdom": self.kingdom[p], "title": self.title[p] or None, "trades": partners[p],
                 "states": held[p], "sent": self.done[p]}
                for p in range(n)
            ],
            "states": states,
            "over": self.over,
            "winners": [names[p] for p in self.winners],
        }
        if me is not None:
            out["start_region"] = self.start_region[me]
            out["orders"] = [self.order_json(me, o) for o in self.orders[me]]
            lead = self.lead[me]
            out["lead"] = [lead[0], ids[lead[1]]] if lead else None
            out["grain_left"] = self.grain_left(me)
        return out

    def result(self) -> dict:
        """Scores (the economic victory's: grain of the player's states × KINGDOM states
        held, BR-Q18) and winners: the Emperor, or the best economic score after the last
        turn, ties sharing the victory."""
        scores = {self.names[p]: self.economic_score(p) for p in range(self.n)}
        winners = [self.names[p] for p in self.winners]
        return {
            "players": list(self.names),
            "scores": scores,
            "winners": winners,
            "winner": winners[0] if len(winners) == 1 else None,
            "turns": self.turn,
            "over": self.over,
            "victory": self.victory,
            "how": self.end_words(),
            "states_held": {self.names[p]: sum(1 for o in self.owner if o == p) for p in range(self.n)},
        }

    def end_words(self) -> str:
        """How the game ended, in words (the rules post's two victories: the Empire of
        Britannia, else the economic victory after the last turn, BR-Q17, BR-Q18)."""
        if self.victory == "empire":
            return (f"the Empire of Britannia: {self.tables.n['empire_kingdoms']} KINGDOM states "
                    "in one continuous dominion")
        if self.victory == "economic":
            return "the economic victory after the last turn: the most grain of one's states × KINGDOM states"
        return ""

    # -- shared primitives -----------------------------------------------------------------
    def log(self, kind: str, text: str, audience: tuple[int, ...] | None = EVERYONE, **data) -> None:
        """An event of this turn; ``audience``: the seats that may read it before the game
        ends (default everyone), e.g. a player's own orders while they are hidden."""
        self.events.append(Event(kind, self.turn, text, data, audience))

    def sname(self, s: int) -> str:
        return self.board.states[s].name

    def who(self, p: int) -> str:
        return self.names[p] if p != INDEPENDENT else "the independent state"

    def held(self, p: int) -> list[int]:
        return [s for s, o in enumerate(self.owner) if o == p]

    def partners(self, p: int) -> list[int]:
        return [b if a == p else a for a, b in self.trades if p in (a, b)]

    def committed(self, p: int) -> int:
        """Grain ``p``'s orders this turn spend (a capital move is 20)."""
        return sum(g for _, _, g in self.orders[p])

    def grain_left(self, p: int) -> int:
        return self.grain[p] - self.committed(p)

    def cv(self, p: int) -> int:
        """The king's Command Value, doubled for a Warrior ("Doubles CV value of King")."""
        return self.king_cv[p] * (self.tables.n["warrior_factor"] if self.effect(p, "command") > 0 else 1)

    def may_lead(self, p: int) -> bool:
        return self.tables.may_lead(self.king_traits[p])

    def effect(self, p: int, effect: str) -> int:
        return self.tables.effect(self.king_traits[p], effect)

    def masks(self) -> list[int]:
        """Each player's states as a bitmask, in one pass over the map."""
        out = [0] * self.n
        for x, o in enumerate(self.owner):
            if o != INDEPENDENT:
                out[o] |= 1 << x
        return out

    def reach(self, mask: int) -> int:
        """The states next to those of ``mask`` by land or across one sea."""
        b = self.board
        out = 0
        while mask:
            low = mask & -mask
            x = low.bit_length() - 1
            out |= b.adj_mask[x] | b.across_mask[x]
            mask ^= low
        return out

    def neighbours(self, p: int, q: int) -> bool:
        """Whether players ``p`` and ``q`` share a land border or a sea (trade routes)."""
        masks = self.masks()
        return bool(self.reach(masks[p]) & masks[q])

    def economic_score(self, p: int) -> int:
        """"Grain from your States only is multiplied by amount of KINGDOM-type States you own.\""""
        held = self.held(p)
        kingdoms = sum(1 for s in held if self.board.states[s].kingdom)
        return sum(self.output[s] for s in held) * kingdoms


# Register every phase's steps (turn order).
from . import setup, orders, resolve  # noqa: E402,F401
