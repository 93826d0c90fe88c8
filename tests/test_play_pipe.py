"""``realms play`` with its keys piped in and its output piped out (a script, a transcript,
a file): the output reads as a transcript and carries no terminal codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REALMS = str(Path(sys.executable).with_name("realms"))


def _play(args: list[str], keys: str) -> str:
    done = subprocess.run([REALMS, "play", *args], input=keys, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_piped_keys_leave_what_follows_the_prompt_on_its_own_line(tmp_path):
    """The typed line is not echoed by a pipe: the answer is written after the prompt, so
    "Saved the record…" starts its own line."""
    save = tmp_path / "bb.json"
    out = _play(["brian-boru", "--seed", "3", "--save", str(save)], "1\nq\n")
    lines = out.splitlines()
    assert any(line.startswith("Saved the record to") for line in lines), lines[-3:]
    assert "P1> 1" in lines and "P1> q" in lines
    assert save.exists()


def test_output_to_a_pipe_carries_no_terminal_codes(tmp_path):
    """Friends at one keyboard in a game of hidden hands (Brian Boru's cards): on a terminal
    the screen is cleared at each hand-over (test_play_keys); written to a pipe, nothing
    is cleared, so no escape code lands in the transcript."""
    keys = "1\n" * 30
    out = _play(["brian-boru", "--seed", "3", "--seat", "1", "--seat", "2", "--save", str(tmp_path / "g.json")], keys)
    assert out.count("press Enter") >= 2
    assert "\033" not in out
