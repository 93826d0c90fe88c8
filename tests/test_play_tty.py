"""``realms play`` driven through a pseudo-terminal, as a person at a keyboard would."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

REALMS = str(Path(sys.executable).with_name("realms"))
PROMPT = re.compile(rb"P\d> $")


class Keyboard:
    """A ``realms`` process on a pseudo-terminal: read its screen, type lines."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([REALMS, *args], stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.screen = b""

    def until(self, pattern: re.Pattern, seconds: float = 60) -> bytes:
        """Read until ``pattern`` matches the end of what was printed since the last call."""
        start, got = time.monotonic(), b""
        while time.monotonic() - start < seconds:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                got += chunk
                if pattern.search(got):
                    break
            elif self.proc.poll() is not None:
                break
        self.screen = got
        return got

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            if self.master >= 0:
                os.close(self.master)
                self.master = -1


@pytest.fixture
def keyboard():
    opened: list[Keyboard] = []

    def start(*args: str) -> Keyboard:
        opened.append(Keyboard(*args))
        return opened[-1]

    yield start
    for k in opened:
        if k.proc.poll() is None:
            k.proc.kill()
        k.close()


def test_a_person_plays_hy_breasil_to_the_end(keyboard, tmp_path):
    save = tmp_path / "game.json"
    k = keyboard("play", "hy-breasil", "--option", "players=2", "--option", "turns=1", "--seed", "2",
                 "--save", str(save))
    first = k.until(PROMPT)
    assert b"== Hy Breasil" in first and b"Choose a sea area" in first
    k.type("u")
    assert b"Nothing to undo." in k.until(PROMPT)
    k.type("tonn")  # a filter: only the options naming it are listed
    listed = k.until(PROMPT)
    numbered = re.findall(rb"^\s+\d+\. (.*)$", listed, re.M)
    assert numbered and all(b"Tonn" in line for line in numbered)
    answers = 0
    while True:
        k.type("1")
        answers += 1
        screen = k.until(re.compile(rb"P\d> $|The game is over"))
        if b"The game is over" in screen:
            break
        assert answers < 400, "the game did not end"
    assert k.close() == 0
    assert save.exists()
    replayed = subprocess.run([REALMS, "replay", str(save), "--json"], capture_output=True, text=True)
    assert replayed.returncode == 0 and '"game": "hy-breasil"' in replayed.stdout


def test_quit_saves_and_resume_goes_on(keyboard, tmp_path):
    save = tmp_path / "bb.json"
    k = keyboard("play", "brian-boru", "--seed", "3", "--bots", "greedy", "--save", str(save))
    k.until(PROMPT)
    k.type("1")
    k.until(PROMPT)
    k.type("q")
    assert b"Saved the record" in k.until(re.compile(rb"--resume"))
    assert k.close() == 0
    k2 = keyboard("play", "brian-boru", "--resume", str(save), "--bots", "greedy", "--save", str(save))
    screen = k2.until(PROMPT)
    assert b"== Brian Boru" in screen and b"Your hand" in screen
    k2.type("q")
    k2.until(re.compile(rb"--resume"))
    assert k2.close() == 0


def test_undo_takes_back_a_move_while_nothing_has_happened_since(keyboard, tmp_path):
    """Hy Breasil movement (§6.3) asks one unit at a time: a move into the nation's own land
    rolls no die, so undoing it gives the same question back."""
    k = keyboard("play", "hy-breasil", "--option", "players=2", "--option", "turns=3", "--seed", "5",
                 "--save", str(tmp_path / "g.json"))
    undone = False
    for _ in range(300):
        screen = k.until(PROMPT)
        if b"The game is over" in screen or not PROMPT.search(screen):
            break
        if b"End movement" in screen and re.search(rb"^\s+1\. .* \xe2\x86\x92 ", screen, re.M):
            k.type("1")
            after = k.until(PROMPT)
            if b"End movement" in after:  # still this nation's movement: nobody else decided
                k.type("u")
                again = k.until(PROMPT)
                assert b"Undone." in again
                mover = re.findall(rb"^ \*.*$", screen, re.M)  # the moving nation's units
                assert mover and mover[-1] in again and mover[-1] not in after
                undone = True
                break
            screen = after
        k.type("1")
    assert undone, "never undid a move"
    k.type("q")
    k.until(re.compile(rb"--resume"))


# -- a filtered list's numbers, the odds, several units at once -----------------
def _terminal(lines: list[str], seed: int = 5):
    """A Hy Breasil game at a scripted keyboard (seat 1; auto bots), its screen in a buffer."""
    import io

    from realms.core.game import get_game
    from realms.sim.runner import make_bots
    from realms.tty import Seat, Terminal

    game = get_game("hy-breasil")
    state = game.new_game({"players": 3, "turns": 2}, seed)
    agents = make_bots(game, ["auto"] * 3, 3, seed)
    typed = iter(lines)
    out = io.StringIO()

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        return next(typed, "q")

    term = Terminal(game, state, {0: Seat(0)}, {1: agents[1], 2: agents[2]}, read=read, out=out, autosave=None)
    return term, out


def _to_move(term) -> None:
    """Play seat 1's decisions (first option) until it is asked to move units."""
    from realms.core.match import bot_answers

    while True:
        for _ in bot_answers(term.state, term.agents, 100_000):
            pass
        d = term.state.pending()[0]
        if d.player == 0 and d.kind == "hb.move" and any(">" in o.key for o in d.options):
            return
        term.state.answer_index(d, 0)


def test_a_number_after_a_filter_picks_from_the_filtered_list():
    """Typing a filter, then 1, answers the first option listed by the filter, not the
    first option of the whole list (which launched an unwanted attack)."""
    term, out = _terminal([])
    _to_move(term)
    d = term.state.pending()[0]
    first = d.options[0].label.lower()
    word = next(w for w in reversed(d.options[-1].label.lower().split()) if w not in first)
    matching = [o for o in d.options if word in o.label.lower()]
    assert matching[0].key != d.options[0].key  # "1" of the whole list would be another option
    typed = iter([word, "1"])
    term.read = lambda prompt: next(typed, "q")
    version = len(term.state.answers)
    assert term.ask(d)
    assert term.state.answers[version] == (0, matching[0].key)
    listed = out.getvalue()
    assert "   1. " in listed


def test_several_units_in_one_answer_and_the_odds_before_an_attack():
    """``N xK`` moves K units by option N (the same question asked again after each), and
    the odds the game advises are printed before the decision."""
    term, out = _terminal([])
    _to_move(term)
    d = term.state.pending()[0]
    units = (term.game.controls(term.state.view(0), d) or {}).get("moves", {}).get("units", {})
    index, key = next((i, o.key) for i, o in enumerate(d.options)
                      if ">" in o.key and units.get(o.key.split(">")[0], 0) >= 2)
    version = len(term.state.answers)
    typed = iter([f"{index + 1} x2"])
    term.read = lambda prompt: next(typed, "q")
    assert term.ask(d)
    assert term.state.answers[version:version + 2] == [(0, key), (0, key)]
    # the odds: a position with a battle at stake prints the game's advice
    from realms.games.hy_breasil import GAME

    advised = []
    for _ in range(400):
        d = term.state.pending()[0]
        if d.player == 0 and GAME.advice(term.state.view(0), [d]):
            advised = GAME.advice(term.state.view(0), [d])
            break
        for _ in __import__("realms.core.match", fromlist=["bot_answers"]).bot_answers(term.state, term.agents, 100_000):
            pass
        d = term.state.pending()[0]
        if d.player == 0:
            term.state.answer_index(d, len(d.options) - 1 if d.kind == "hb.move" else 0)
    assert advised, "no battle was at stake for seat 1"
    out.truncate(0)
    term.read = lambda prompt: "q"
    term.ask(term.state.pending()[0])
    assert f"Odds: {advised[0]['text']}" in out.getvalue()
