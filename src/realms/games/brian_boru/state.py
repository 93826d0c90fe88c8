"""The state of a game of Brian Boru and the primitives the phase modules share.

Everything is small lists indexed by player, town or region, so a clone is a handful of
shallow copies.  Towns: ``owner[t]`` is the player whose disc stands on town ``t`` (or
``NOBODY``); ``viking[t]`` says a Viking control token covers that disc, so the Vikings
control the town (rulebook, Battle step); ``monastery[t]`` marks a monastery.  Claim
tokens: ``claim_up[r]`` (face up) and ``claim_holder[r]`` (a player, or ``BOARD``).

Cards are their values 1..25; ``tables.cards[v].label`` is the name shown (``"17Y"``).
Hidden information (rulebook, Draft phase): hands, picks, the packets being drafted and
the face-down leftover card are never in another player's :meth:`view`.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from realms.core.engine import Field, GameState, copy_lists
from realms.core.events import EVERYONE, Event

from .steps import GAME_ID, STEPS
from .tables import COLOUR_NAMES, NOBODY, Tables, load_tables

BOARD = -1
VIKINGS = -2


# compiled, a class that takes none makes its instances only through ``__init__``; a
# clone (GameState.clone) makes its copy with ``__new__`` alone
@mypyc_attr(allow_interpreted_subclasses=True)
class BBState(GameState):
    GAME_ID = GAME_ID
    STEPS = STEPS
    FIELDS = (
        # static for the game: shared by clones, not hashed
        Field("tables", snap=False), Field("board", snap=False), Field("town_keys", snap=False),
        Field("names", snap=False), Field("n", snap=False), Field("rounds", snap=False),
        # the position
        Field("round"), Field("phase"),
        Field("coins", list), Field("renown", list), Field("points", list), Field("raiders", list),
        Field("church", list), Field("track", list),
        Field("owner", list), Field("viking", list), Field("monastery", list),
        Field("claim_up", list), Field("claim_holder", list),
        Field("marker"), Field("first_player"), Field("active"),
        Field("marriage_deck", list), Field("marriage_card"), Field("marriages", copy_lists),
        Field("princess_holder", key="princess", snap=lambda s: [s.princess_holder, s.princess_side]),
        Field("princess_side", snap=False),  # hashed with the holder, as "princess"
        Field("viking_deck", list), Field("battle"),
        Field("hands", copy_lists), Field("picks", copy_lists), Field("packets", copy_lists),
        Field("leftover", list), Field("discard", list),
        Field("leader"), Field("table", copy_lists), Field("winner"),
        Field("over"), Field("final"),
    )

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        t = self.tables = load_tables()
        b = self.board = t.board
        self.town_keys = b.keys
        r = t.rules
        self.names: list[str] = list(options["names"])
        n = self.n = len(self.names)
        self.round = 0
        self.rounds = r.marriage_cards[n] + 1
        self.phase = "setup"
        self.coins = [r.start_coins] * n
        self.renown = [r.start_renown] * n
        self.points = [r.start_points] * n
        self.raiders = [0] * n
        self.church = [0] * n
        self.track = [r.start_track] * n
        self.owner = [NOBODY] * len(b.towns)
        self.viking = [False] * len(b.towns)
        self.monastery = [False] * len(b.towns)
        self.claim_up = [False] * len(b.regions)
        self.claim_holder = [BOARD] * len(b.regions)
        self.marker = NOBODY
        self.first_player = NOBODY
        self.active = NOBODY
        self.marriage_deck: list[int] = []       # the last element is the top card
        self.marriage_card = NOBODY             # the card at the top of the marriage track
        self.marriages: list[list[int]] = [[] for _ in range(n)]
        self.princess_holder = NOBODY
        self.princess_side = ""
        self.viking_deck: list[int] = []        # strengths; the last element is the top card
        self.battle = 0                          # Viking raiders in the battle area
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.picks: list[list[int]] = [[] for _ in range(n)]
        self.packets: list[list[int]] = [[] for _ in range(n)]
        self.leftover: list[int] = []
        self.discard: list[int] = []
        self.leader = NOBODY
        self.table: list[list[int]] = []         # [player, card, resolved] in play order
        self.winner = NOBODY
        self.over = False
        self.final: dict = {}
        self.start(("setup",))

    # -- what players see ----------------------------------------------------------------
    def visible_cards(self, player: int | None) -> set[int]:
        """The cards ``player`` may see now: own hand, picks and packet, and the trick."""
        seen = {c for _, c, _ in self.table}
        if player is not None and 0 <= player < self.n:
            seen.update(self.hands[player])
            seen.update(self.picks[player])
            seen.update(self.packets[player])
        return seen

    def view(self, player: int | None) -> dict:
        """The game as ``player`` sees it (``None``: a spectator).

        Public: the board, every player's coins, renown, points, raiders, church discs,
        track space, claim tokens, marriage cards and card counts, the trick on the table.
        Private: the viewer's own hand, picks and draft packet.  Never shown: another
        player's cards, the face-down leftover card and the discard pile, which "you may
        not look through" (rulebook, Tricks) — only its size.
        """
        t = self.tables
        b = self.board
        me = player if player is not None and 0 <= player < self.n else None
        label = t.card_label
        out = {
            "game": self.GAME_ID,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "you": me,
            "players": [
                {
                    "name": name,
                    "points": self.points[p],
                    "coins": self.coins[p],
                    "renown": self.renown[p],
                    "raiders": self.raiders[p],
                    "church": self.church[p],
                    "track": self.track[p],
                    "marriages": [t.marriages[m].id for m in self.marriages[p]],
                    "claims": [b.regions[r].id for r in range(len(b.regions)) if self.claim_holder[r] == p],
                    "hand_size": len(self.hands[p]),
                    "picked": len(self.picks[p]),
                }
                for p, name in enumerate(self.names)
            ],
            "towns": {
                str(town.id): {
                    "region": b.regions[town.region].id,
                    "colour": town.colour,
                    "owner": self.owner[i] if self.owner[i] != NOBODY else None,
                    "vikings": self.viking[i],
                    "monastery": self.monastery[i],
                }
                for i, town in enumerate(b.towns)
            },
            "claims": {
                reg.id: {
                    "face_up": self.claim_up[reg.index],
                    "holder": self.claim_holder[reg.index] if self.claim_holder[reg.index] >= 0 else None,
                }
                for reg in b.regions
            },
            "marker": self.marker if self.marker != NOBODY else None,
            "active_town": b.towns[self.active].id if self.active != NOBODY else None,
            "marriage_card": t.marriages[self.marriage_card].id if self.marriage_card != NOBODY else None,
            "marriage_deck": len(self.marriage_deck),
            "princess": {"holder": self.princess_holder, "side": self.princess_side}
            if self.princess_holder != NOBODY else None,
            "battle_area": self.battle,
            "viking_deck": len(self.viking_deck),
            "trick": {
                "leader": self.leader if self.leader != NOBODY else None,
                "played": [{"player": p, "card": label(c), "resolved": bool(done)} for p, c, done in self.table],
                "winner": self.winner if self.winner != NOBODY else None,
            },
            "discard_pile": len(self.discard),
            "leftover": len(self.leftover),
            "over": self.over,
        }
        if me is not None:
            out["hand"] = [label(c) for c in sorted(self.hands[me])]
            out["picks"] = [label(c) for c in sorted(self.picks[me])]
            out["packet"] = [label(c) for c in sorted(self.packets[me])]
        if self.over:
            out["final"] = self.final
        return out

    def result(self) -> dict:
        """Scores and winners (rulebook, Scoring: most points, then most claim tokens, then
        most marriage cards; players still tied share the victory — RULINGS BB-Q16, BB-Q27)."""
        keys = [self.rank_key(p) for p in range(self.n)]
        best = max(keys)
        winners = [self.names[p] for p in range(self.n) if keys[p] == best] if self.over else []
        return {
            "players": list(self.names),
            "scores": dict(zip(self.names, self.points)),
            "winners": winners,
            "winner": winners[0] if len(winners) == 1 else None,
            "turns": self.round,
            "rounds": self.round,
            "over": self.over,
        }

    def redeal_hidden(self, player: int | None, dice) -> None:
        """Other players' cards, the leftover and the decks' faces, as far as ``player``
        cannot know them, dealt anew consistently with what it has seen (determinize.py)."""
        from .determinize import redeal

        redeal(self, player, dice)

    def rank_key(self, p: int) -> tuple[int, int, int]:
        claims = sum(1 for h in self.claim_holder if h == p)
        return (self.points[p], claims, len(self.marriages[p]))

    # -- shared primitives -----------------------------------------------------------------
    def log(self, kind: str, text: str, audience: "tuple[int, ...] | None" = EVERYONE, **data) -> None:
        """Add an event to the chronicle; ``audience``: who may read it while the game runs."""
        self.events.append(Event(kind, self.round, text, data, audience))

    def clockwise(self, start: int) -> list[int]:
        """All players in clockwise order (ascending seats, wrapping) from ``start``."""
        return [(start + i) % self.n for i in range(self.n)]

    def town_name(self, t: int) -> str:
        town = self.board.towns[t]
        return f"town {town.id} ({self.board.regions[town.region].name}, {COLOUR_NAMES[town.colour]})"

    def town_key(self, t: int) -> str:
        return self.town_keys[t]

    def town_of(self, key: str) -> int:
        return self.board.town_index[int(key)]

    def free_towns(self) -> list[int]:
        """Towns without a disc (rulebook: "any town on the board without a disc on it")."""
        return [t for t, o in enumerate(self.owner) if o == NOBODY]

    def controlled(self, p: int) -> list[int]:
        """The towns player ``p`` controls: its discs not covered by a Viking control token."""
        return [t for t, o in enumerate(self.owner) if o == p and not self.viking[t]]

    def place(self, p: int, t: int, why: str) -> None:
        """A disc of ``p`` on the empty town ``t``: ``p`` now controls it."""
        assert self.owner[t] == NOBODY, f"town {t} already has a disc"
        self.owner[t] = p
        self.log("town", f"{self.names[p]} takes control of {self.town_name(t)} ({why}).",
                 player=p, town=self.board.towns[t].id, why=why)

    def score(self, p: int, amount: int, why: str) -> None:
        if amount:
            self.points[p] += amount
            self.log("points", f"{self.names[p]} scores {amount} point{'s' if amount != 1 else ''} ({why}).",
                     player=p, points=amount, why=why)

    def weights(self, region: int) -> tuple[list[int], int]:
        """Towns counted per player, and for the Vikings, in ``region`` for claims.

        A monastery counts as two towns (rulebook, Monasteries).  With the Princess of
        Denmark on the military support side, Viking towns count for her holder and the
        Vikings count nothing (rulebook, Vikings and the Princess of Denmark).
        """
        w = self.tables.rules.monastery_weight
        per = [0] * self.n
        vikings = 0
        ally = self.princess_holder if self.princess_side == "military" else NOBODY
        for t in self.board.region_towns[region]:
            o = self.owner[t]
            if o == NOBODY:
                continue
            k = w if self.monastery[t] else 1
            if self.viking[t]:
                if ally != NOBODY:
                    per[ally] += k
                else:
                    vikings += k
            else:
                per[o] += k
        return per, vikings


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# Register every phase's steps (rulebook order).
from . import setup, preparation, draft, tricks, actions, upkeep, marriage, battle, church, claims, scoring  # noqa: E402,F401
