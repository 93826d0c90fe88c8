"""``realms odds``: JSON output, one-line errors with exit code 2, the heat map;
the command built from the arguments a game's calculator declares.

Rulebook §6.3.1–6.3.2; the numbers themselves are tested in tests/hy_breasil/test_odds.py.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from realms import cli_odds
from realms.cli_odds import odds
from realms.core.game import Argument, Calculator, CalculatorError

KEYS = {"attacker_wins", "defender_wins", "mutual", "attacker_retreats", "defender_retreats",
        "expected_attackers_left", "expected_defenders_left", "expected_rounds"}


def run(*args):
    return CliRunner().invoke(odds, list(args))


def test_json_keys_and_sum():
    """§6.3.1: one JSON object; the five outcomes sum to 1 within 1e-12."""
    r = run("hy-breasil", "--attackers", "5", "--defenders", "4", "--terrain", "forest", "--fervour", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert KEYS <= set(out)
    assert abs(sum(out[k] for k in ("attacker_wins", "defender_wins", "mutual", "attacker_retreats",
                                    "defender_retreats")) - 1) <= 1e-12
    assert out["attacker_retreats"] == out["defender_retreats"] == 0
    assert abs(sum(out["attackers_left"].values()) - 1) <= 1e-12


def test_every_option():
    """§6.1 fervour, §9.1 races, §9.3.1 city, §6.3.2 retreats, policy best, Monte Carlo."""
    r = run("hy-breasil", "-a", "6", "-d", "5", "--terrain", "hills", "--fervour", "--attacker-race", "troll",
            "--defender-race", "hogman", "--city", "--policy", "best", "--attacker-retreat-below", "3",
            "--defender-retreat-below", "2", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["city"] and "city_captured" in out and out["defender_retreats"] > 0
    r = run("hy-breasil", "-a", "4", "-d", "3", "--method", "monte-carlo", "--runs", "200", "--seed", "3", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["method"] == "monte-carlo" and out["runs"] == 200
    r = run("hy-breasil", "-a", "4", "-d", "3")
    assert r.exit_code == 0 and "attacker wins" in r.output and "survivors" in r.output


@pytest.mark.parametrize("args", [
    ("brian-boru", "-a", "3", "-d", "2"),
    ("chess", "-a", "3", "-d", "2"),
    ("hy-breasil", "-a", "-2", "-d", "2"),
    ("hy-breasil", "-a", "2", "-d", "201"),
    ("hy-breasil", "-a", "2", "-d", "2", "--terrain", "swamp"),
    ("hy-breasil", "-a", "2", "-d", "2", "--attacker-race", "orc"),
    ("hy-breasil", "-a", "x", "-d", "2"),
    ("hy-breasil", "-a", "2"),
    ("hy-breasil", "--table", "3", "-o", "odds.gif"),
])
def test_bad_input_is_one_line_exit_2(args):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
    assert r.output.startswith("Error: ")


def test_heat_map_png_and_svg(tmp_path):
    """The 1..N × 1..N heat map, written as PNG or SVG by the suffix."""
    png, svg = tmp_path / "odds.png", tmp_path / "odds.svg"
    r = run("hy-breasil", "--table", "6", "-o", str(png))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("hy-breasil", "--table", "5", "--terrain", "hills", "-o", str(svg))
    assert r.exit_code == 0, r.output
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    cells = [e.text for e in root.iter() if e.tag.endswith("text") and e.text]
    assert len(cells) >= 25  # every cell annotated with its percentage
    r = run("hy-breasil", "--table", "3", "--json")
    table = json.loads(r.output)["attacker_takes_area"]
    assert len(table) == 3 and abs(table[0][0] - 11 / 27) < 1e-12


def test_only_games_with_a_calculator_are_listed():
    r = run("--help")
    assert r.exit_code == 0 and "hy-breasil" in r.output and "brian-boru" not in r.output
    r = run()
    assert r.exit_code == 2
    assert r.output == "Error: give a game: realms odds GAME … (games with a battle calculator: hy-breasil, version2)\n"
    r = run("brian-boru", "-a", "3")
    assert r.output == "Error: 'brian-boru' has no battle calculator (games with one: hy-breasil, version2)\n"


def test_a_declared_calculator_becomes_a_command(monkeypatch):
    """Name, type, help, default, choices and short name become the options; compute's
    JSON and text are printed; its CalculatorError is a one-line error."""
    seen = []

    def compute(values):
        seen.append(values)
        if values["sides"] < 2:
            raise CalculatorError("--sides: a die has at least 2 sides")
        return {"p": 1 / values["sides"]}, f"one in {values['sides']}"

    calc = Calculator("Chance of rolling a one.", (
        Argument("sides", int, "Faces of the die.", default=6, short="-s"),
        Argument("colour", str, "Colour of the die.", default="red", choices=("red", "blue")),
        Argument("loaded", bool, "A loaded die."),
    ), compute)
    monkeypatch.setattr(cli_odds, "games", lambda: {"dice": SimpleNamespace(calculator=lambda: calc),
                                                    "cards": SimpleNamespace(calculator=None)})
    assert run("dice", "-s", "4").output == "one in 4\n"
    assert seen == [{"sides": 4, "colour": "red", "loaded": False}]
    assert json.loads(run("dice", "--sides", "5", "--loaded", "--colour", "blue", "--json").output) == {"p": 0.2}
    assert seen[-1] == {"sides": 5, "colour": "blue", "loaded": True}
    for args, message in ((("dice", "-s", "1"), "Error: --sides: a die has at least 2 sides"),
                          (("dice", "--colour", "green"), "Error: "),
                          (("dice", "-s", "two"), "Error: "),
                          (("cards",), "Error: 'cards' has no battle calculator (games with one: dice)")):
        r = run(*args)
        assert r.exit_code == 2 and r.output.startswith(message) and r.output.count("\n") == 1, r.output
    help_text = run("dice", "--help").output
    assert "Faces of the die." in help_text and "[default: 6]" in help_text and "[red|blue]" in help_text
    assert "dice" in run("--help").output and "cards" not in run("--help").output
