"""Scenario helpers for the Brian Boru rules tests.

A test asks for the ``bb`` fixture and builds a position with plain assignments:

    s = bb.game(players=4)                      # empty board, nothing pending
    bb.own(s, 0, 27, 28)                        # discs of player 0 on towns 27 and 28
    s.coins[0] = 7
    d = bb.run(s, ("sym", 0, "raider", 0, 2))   # push frames and run the machine
    d = bb.answer(s, "1")                       # answer the pending decision

Towns are named by their printed numbers, cards by their labels (``"13W"``).
"""

from __future__ import annotations

import pytest

from realms.core.decision import Decision
from realms.games.brian_boru import GAME
from realms.games.brian_boru.state import BOARD, NOBODY, BBState
from realms.games.brian_boru.tables import load_tables

T = load_tables()


class BB:
    tables = T
    board = T.board
    NOBODY = NOBODY
    BOARD = BOARD

    @staticmethod
    def game(players: int = 4, seed: int = 0) -> BBState:
        """A game in round 1 with an empty board, empty hands and nothing pending.

        Every player has the setup's 3 coins, 1 renown, 10 points and stands on space 1;
        player 0 holds the active town marker; the round's marriage card is revealed.
        """
        s = GAME.new_game({"players": players}, seed)
        n = len(s.owner)
        s.owner = [NOBODY] * n
        s.viking = [False] * n
        s.monastery = [False] * n
        s.hands = [[] for _ in range(players)]
        s.picks = [[] for _ in range(players)]
        s.packets = [[] for _ in range(players)]
        s.leftover, s.discard, s.table = [], [], []
        s.marker = s.first_player = 0
        s.round = 1
        s.phase = "action"
        s.marriage_card = s.marriage_deck.pop()
        s.restart()
        s.events.clear()
        s.answers.clear()
        return s

    @staticmethod
    def t(town_id: int) -> int:
        """Town index of printed town number ``town_id``."""
        return T.board.town_index[town_id]

    @staticmethod
    def c(label: str) -> int:
        return T.card_by_label[label]

    @classmethod
    def own(cls, s: BBState, player: int, *town_ids: int, vikings: bool = False, monastery: bool = False) -> None:
        for tid in town_ids:
            i = cls.t(tid)
            s.owner[i] = player
            s.viking[i] = vikings
            s.monastery[i] = monastery

    @classmethod
    def region(cls, rid: str) -> int:
        return T.board.region_index[rid]

    @classmethod
    def towns_of(cls, rid: str) -> list[int]:
        return [T.board.towns[i].id for i in T.board.region_towns[cls.region(rid)]]

    @staticmethod
    def run(s: BBState, *frames: tuple) -> Decision | None:
        """Replace the stack by ``frames`` and run; the first pending decision (or None)."""
        s.restart(*frames)
        return s.first_pending()

    @staticmethod
    def answer(s: BBState, key: str, player: int | None = None) -> Decision | None:
        d = s.pending()[0] if player is None else s.decision_for(player)
        s.apply(d.player, key)
        return s.pending()[0] if s.pending() else None

    @staticmethod
    def texts(s: BBState) -> str:
        return "\n".join(s.chronicle())


@pytest.fixture
def bb() -> type[BB]:
    return BB
