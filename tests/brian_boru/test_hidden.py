"""Hidden information (rulebook, Draft phase; Tricks): ``view(p)`` shows p's own hand,
picks and packet, never another player's, nor the face-down leftover card nor the discard
pile; ``GAME.hidden`` declares exactly those cards so the conformance kit checks them."""

from __future__ import annotations

import json

import pytest

from realms.core.agents import RandomBot, bot_seed
from realms.core.conformance import ConformanceError, check_views
from realms.games.brian_boru import GAME


def _walk(players: int, seed: int):
    """Yield the state after every answer of a random game."""
    s = GAME.new_game({"players": players}, seed)
    bots = [RandomBot(bot_seed(seed, i)) for i in range(players)]
    yield s
    while s.pending():
        d = s.pending()[0]
        s.apply_index(d.player, bots[d.player].choose(d, lambda: None))
        yield s


@pytest.mark.parametrize("players", [3, 4, 5])
def test_views_never_show_other_players_cards(players):
    label = GAME.new_game({"players": players}, 0).tables.card_label
    checked = 0
    for s in _walk(players, 40 + players):
        if s.phase not in ("draft", "action") or len(s.answers) % 3:
            continue
        for viewer in range(players):
            text = json.dumps(s.view(viewer))
            for other in range(players):
                if other == viewer:
                    continue
                for c in s.hands[other] + s.picks[other] + s.packets[other]:
                    if c in [e[1] for e in s.table]:
                        continue
                    assert json.dumps(label(c)) not in text, (viewer, other, label(c))
            for c in s.leftover:
                assert json.dumps(label(c)) not in text
            checked += 1
    assert checked > 50


def test_view_shows_own_hand_and_sizes_of_others():
    for s in _walk(4, 3):
        if s.phase == "action" and s.hands[0] and not s.table:
            break
    v = s.view(0)
    assert v["hand"] == sorted((s.tables.card_label(c) for c in s.hands[0]), key=lambda x: int(x[:-1]))
    assert [p["hand_size"] for p in v["players"]] == [len(h) for h in s.hands]
    assert "hand" not in s.view(None) and "picks" not in s.view(None)
    assert isinstance(v["discard_pile"], int)


def test_hidden_declares_other_hands_leftover_and_pile():
    for s in _walk(3, 8):
        if s.phase == "action" and s.discard and s.leftover and not s.table:
            break
    label = s.tables.card_label
    hidden = set(GAME.hidden(s, 0))
    assert {label(c) for c in s.hands[1] + s.hands[2]} <= hidden
    played = {e.data["card"] for e in s.events if e.kind == "play"}
    assert {label(c) for c in s.leftover + s.discard} - played <= hidden
    assert played and not played & hidden  # played face up to a trick: seen by all
    assert not {label(c) for c in s.hands[0]} & hidden
    assert set(GAME.hidden(s, None)) >= {label(c) for h in s.hands for c in h}


def test_kit_catches_a_leaking_view(monkeypatch):
    """The conformance kit's view check fails when a view shows another player's hand."""
    for s in _walk(4, 5):
        if s.phase == "action" and s.hands[1]:
            break
    original = type(s).view

    def leaky(self, player):
        v = original(self, player)
        v["spy"] = [self.tables.card_label(c) for c in self.hands[1]]
        return v

    check_views(GAME, s, 5, 0)
    monkeypatch.setattr(type(s), "view", leaky)
    with pytest.raises(ConformanceError, match="hidden value"):
        check_views(GAME, s, 5, 0)


def test_events_never_name_drafted_cards():
    """The chronicle names only cards played face up to a trick."""
    for s in _walk(4, 12):
        pass
    played = {e.data["card"] for e in s.events if e.kind == "play"}
    text = "\n".join(s.chronicle())
    for c in range(1, 26):
        lab = s.tables.card_label(c)
        if lab not in played:
            assert f" {lab}." not in text and f" {lab} " not in text


def test_played_cards_stay_in_every_chronicle_after_the_trick():
    """Tricks: a card played face up was seen by everyone, so its line stays in each seat's
    chronicle (and the spectator's) once the trick is won and the card discarded."""
    for s in _walk(3, 8):
        if s.phase == "action" and s.discard and not s.table:
            break
    plays = [e.text for e in s.events if e.kind == "play"]
    assert plays
    for seat in (None, 0, 1, 2):
        assert set(plays) <= set(s.chronicle_for(seat))
