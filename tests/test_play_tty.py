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
