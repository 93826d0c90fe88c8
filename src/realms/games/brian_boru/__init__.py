"""Brian Boru: High King of Ireland (Peer Sylvester, 2021) — card drafting, trick taking
and area majorities in Ireland around the year 1000.

>>> from realms.games.brian_boru import GAME
>>> state = GAME.new_game({"players": 3}, seed=1)
>>> state.pending()[0].kind
'bb.first-town'
"""

from __future__ import annotations

from realms.core.game import Game, lazy

from .invariants import INVARIANTS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS
from .state import BBState
from .steps import GAME_ID


def _hidden(state: BBState, player: int | None) -> list:
    """Every card ``player`` may not know of now, as shown in views (``"17Y"``): other
    players' hands, picks and draft packets, the face-down leftover card and the discards
    nobody saw.  A card once played face up to a trick was seen by all: it stays in every
    chronicle, though the discard pile itself may not be looked through (Tricks)."""
    seen = state.visible_cards(player)
    label = state.tables.card_label
    played = {e.data.get("card") for e in state.events if e.kind == "play"}
    return [label(c) for c in range(1, len(state.tables.cards)) if c not in seen and label(c) not in played]


def _panels(view: dict) -> list[dict]:
    """The viewer's own cards beside the board: the hand, and in the draft the cards kept
    so far (Draft: picks are set aside face down until the draft ends); and the trick on
    the table, everyone's card in the order played."""
    out = []
    if view.get("hand") is not None:
        out.append({"title": "Your hand", "items": view["hand"]})
    if view.get("picks"):
        out.append({"title": "Kept in this draft", "items": view["picks"]})
    trick = view.get("trick") or {}
    if trick.get("played"):  # the cards on the table, in the order played (Trick phase)
        names = [p["name"] for p in view["players"]]
        won = f", won by {names[trick['winner']]}" if trick.get("winner") is not None else ""
        out.append({"title": f"This trick (led by {names[trick['leader']]}{won})" if trick.get("leader") is not None
                    else "This trick", "items": [f"{names[c['player']]}: {c['card']}" for c in trick["played"]]})
    return out


def _draw(state: BBState | None, options: dict) -> str:
    from .draw import draw

    return draw(state)


def _scores_now(state: BBState) -> list[float]:
    return list(state.points)


def _bots() -> dict:
    from .bots import GreedyBot

    return {"greedy": GreedyBot}


GAME = Game(
    id=GAME_ID,
    name="Brian Boru",
    description="Card drafting, trick taking and area majorities in Ireland around the year 1000. A few rounds.",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=BBState,
    options=OPTIONS,
    invariants=INVARIANTS,
    hidden=_hidden,
    bots=_bots(),
    # the seat kinds the lobby offers, labelled as measured (benchmarks/RESULTS.md,
    # "Levels"): the search with the learned value beats greedy in paired games
    bot_variants={"random": "random (easy)", "greedy": "greedy (normal)",
                  "ismcts:iters=30:value=learned": "search (hard)"},
    draw=_draw,
    palette=lazy(".draw:palette", __package__),
    board=lazy(".draw:board", __package__),
    describe=lazy(".describe:describe", __package__),
    panels=_panels,
    score_name="points",
    turn_word="round",
    private_kinds=frozenset({"bb.draft"}),
    scores_now=_scores_now,
    features=lazy(".features:features", __package__),
    evaluate=lazy(".evaluate:evaluate", __package__),
    watcher=lazy(".stats:BrianBoruWatcher", __package__),
    factions=lazy(".stats:factions", __package__),
    report_sections=lazy(".report:sections", __package__),
    history_measure=lazy(".history:TownsControlled", __package__),
    # shuffled decks; hands, packets and the leftover card unseen; everyone drafts at once
    chance=True,
    hidden_information=True,
    simultaneous=True,
)

__all__ = ["GAME", "BBState"]
