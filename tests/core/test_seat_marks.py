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


@pytest.mark.parametrize("game_id", sorted(games()))
def test_a_seats_parts_in_different_shades_carry_different_data_shade(game_id):
    """A game that tells a seat's pieces apart by shades of its colour (Hy Breasil's nations
    of one player) marks each with ``data-shade``: the page's chosen palette (web/palette.js)
    then shades the seat's colour likewise, instead of painting them all alike.  Parts of one
    seat and one shade are of one colour."""
    for steps in (60, 150):
        game, state, options = played(game_id, seed=4, steps=steps)
        svg = game.draw(state, options)
        painted: dict[tuple[int, int], set[str]] = {}
        for m in MARK.finditer(svg):
            tag, seat = m.group(0), int(m.group(2))
            if tag.startswith("<text"):
                continue  # a count in its owner's colour, for contrast: no shade of its own
            shade = re.search(r'\bdata-shade="(\d+)"', tag)
            colour = re.search(r'\b(?:fill|stroke)="(#[0-9a-fA-F]{6})"', tag.replace('fill="none"', "")).group(1)
            painted.setdefault((seat, int(shade.group(1)) if shade else 0), set()).add(colour.lower())
        for (seat, shade), colours in painted.items():
            assert len(colours) == 1, f"{game_id}: seat {seat}'s parts of shade {shade} in {sorted(colours)}"
