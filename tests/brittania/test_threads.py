"""Forum threads written the way players post (tests/brittania/threads/: saved SMF 2.0
and 2.1 pages, a thread over two pages, personal messages, tables, spoilers and code
boxes, shares of the grain, corrections in a later post; key.json the game master's
answer key), read by ``realms gm orders`` (rules post, TURN ORDER: "For your orders to be
valid, they must be bolded"; RULINGS BR-Q23, BR-Q28, BR-Q30): every clear order read,
none invented, every problem where the key has one and nowhere else.  The figures are
printed by benchmarks/gm_reading.py."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THREADS = Path(__file__).parent / "threads"
KEY = json.loads((THREADS / "key.json").read_text(encoding="utf-8"))


def _bench():
    spec = importlib.util.spec_from_file_location("gm_reading", ROOT / "benchmarks" / "gm_reading.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(KEY))
def test_a_thread_is_read_as_its_answer_key_says(name):
    got = _bench().measure(name, KEY[name], KEY)
    assert got["invented"] == []
    assert got["missed"] == []
    assert got["problems_wrong"] == [] and got["problems_missed"] == []
    assert got["strangers"] == KEY[name]["strangers"]
