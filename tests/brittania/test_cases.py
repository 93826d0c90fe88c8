"""Every adjudication case in tests/brittania/cases/ (the format: adjudicate.py)."""

from pathlib import Path

import pytest

from .adjudicate import read_case, run_case

CASES = sorted((Path(__file__).parent / "cases").glob("*.txt"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    run_case(path)


def test_every_case_cites_its_rule():
    for path in CASES:
        assert read_case(path).rule, path.name
