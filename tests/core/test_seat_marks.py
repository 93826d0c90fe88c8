"""Every game's board marks what it paints in a seat's colour with ``data-seat`` (an index
into ``Game.palette``), so the game page can repaint it in the palette a player picks
(web/palette.js): the mark names a seat of the game, and the colour under it is that seat's
(or a shade of it: a game may tell a seat's pieces apart by shades), and each seat
marked has a part in its palette colour itself."""

from __future__ import annotations

import re

import pytest

from realms.core.game import games
from randomplay import played

MARK = re.compile(r'<(\w+)\b[^>]*?\bdata-seat="(\d+)"[^>]*>')


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_board_marks_each_seat_coloured_part_with_its_seat(game_id):
    game, state, options = played(game_id, seed=4, steps=60)
    svg = game.draw(state, options)
    palette = [c.lower() for c in game.palette()]
    marks = [(m.group(0), m.group(1), int(m.group(2))) for m in MARK.finditer(svg)]
    assert marks, f"{game_id}: nothing on the board carries data-seat"
    assert {seat for *_, seat in marks} <= set(range(3))
    for tag, _, seat in marks:
        paint = re.search(r'\b(fill|stroke)="(#[0-9a-fA-F]{6})"', tag.replace('fill="none"', ""))
        assert paint, tag
    for seat in {seat for *_, seat in marks}:
        painted = {re.search(r'\b(?:fill|stroke)="(#[0-9a-fA-F]{6})"', t.replace('fill="none"', "")).group(1).lower()
                   for t, _, s in marks if s == seat}
        assert palette[seat] in painted, (seat, palette[seat], painted)
