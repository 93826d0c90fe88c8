"""``realms CMD GAME --help`` says what a new user needs to fill in the command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from realms.cli import cli
from realms.core.game import get_game


@pytest.mark.parametrize("command", ["simulate", "play", "tournament"])
def test_a_games_help_lists_its_bots(command):
    """The README sends the reader to ``realms simulate GAME --help`` for the bots."""
    game = get_game("brian-boru")
    r = CliRunner().invoke(cli, [command, game.id, "--help"])
    assert r.exit_code == 0, r.output
    listed = r.output.split("bots (--bots):", 1)[1]
    for name in [*game.bots, "random", "ismcts"]:
        assert name in listed, (name, r.output)
