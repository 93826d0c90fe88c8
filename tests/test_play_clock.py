"""``realms play --clock``: the time left shown at each prompt, and a turn that ran out
played by the game's default bot (tty.Terminal with an injected clock: no waiting)."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from realms.cli import cli
from realms.core.clock import ClockSpec, TableClock
from realms.core.game import get_game
from realms.sim.runner import make_bots
from realms.tty import Seat, Terminal


class Keys:
    """The lines a person types, each after ``seconds`` on the clock."""

    def __init__(self, lines: list[tuple[float, str]]) -> None:
        self.lines, self.now = list(lines), 1000.0

    def read(self, prompt: str) -> str:
        if not self.lines:
            return "q"
        seconds, line = self.lines.pop(0)
        self.now += seconds
        return line


def test_the_prompt_shows_the_time_left_and_a_late_answer_is_played_by_the_bot(tmp_path):
    game = get_game("version2")
    state = game.new_game({"players": 2}, 3)
    keys = Keys([(20, "1"), (61, "1")])
    out = io.StringIO()
    me = state.pending()[0].player                      # the person plays first
    bots = make_bots(game, ["random"], 2, 3)
    term = Terminal(game, state, {me: Seat(me)}, {1 - me: bots[1 - me]}, read=keys.read, out=out,
                    autosave=str(tmp_path / "a.json"), clock=TableClock.new(ClockSpec("turn", 1), 2),
                    now=lambda: keys.now, stand_in=make_bots(game, [next(iter(game.bots))], 2, 3)[me])
    term.run()
    text = out.getvalue()
    assert f"P{me + 1}: 1:00 left (this turn)" in text   # the first prompt: the whole minute
    assert f"P{me + 1}: 0:40 left (this turn)" in text   # the second, 20 s on
    assert "your time ran out; the bot plays the rest of your turn" in text
    assert term.clock.seats[me].misses == 1
    assert term.state.answers[0] == (me, term.state.answers[0][1])      # the answer in time stands


@pytest.mark.parametrize("spec, why", [("turn:0", "clock.minutes"), ("hourglass:5", "clock.kind"),
                                       ("bank:ten", "turn:MINUTES"), ("turn:5+3", "clock.increment")])
def test_a_bad_clock_is_refused_by_name(spec, why):
    r = CliRunner().invoke(cli, ["play", "version2", "--clock", spec])
    assert r.exit_code != 0 and why in r.output, r.output
