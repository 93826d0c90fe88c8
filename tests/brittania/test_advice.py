"""``Game.advice`` for Brittania: the odds of an attack for each grain amount, from the
player's view only (CONQUESTS: "d10 + Grain = your number. If you roll higher than the
opponents' defending force, you win")."""

from realms.games.brittania import GAME
from realms.games.brittania.advice import beat

from .test_posts import position


def test_odds_against_an_independent_state_with_the_sea_preparation():
    s = position("""
players: Ann, Bob
states Ann: Ulaid
states Bob: Desmumu
grain Ann: 20
""")
    s.apply(0, "conquer:ayr")
    d = s.decision_for(0)
    assert d.info == {"turn": 1, "order": "conquer", "target": "ayr", "preparation": 5}
    (tip,) = GAME.advice(s.view(0), [d])
    assert tip["defences"] == [10]
    assert tip["odds"]["20"] == [beat(15 - 10)]          # 15 of the 20 fight
    assert tip["text"] == "Attacking Ayr with 20 grain wins 85% against its 10; 5 of it go to preparations."


def test_odds_against_a_capital_with_unknown_defence():
    s = position("""
players: Ann, Bob
states Ann: Brega
states Bob: Mide
king Ann: Niall; Conqueror; 1
grain Ann: 30
""")
    s.apply(0, "conquer:mide")
    (tip,) = GAME.advice(s.view(0), [s.decision_for(0)])
    assert tip["defences"] == [5, 15, 25, 35]
    assert tip["odds"]["30"] == [beat(32 - x) for x in (5, 15, 25, 35)]
    assert GAME.advice(s.view(1), s.pending_for(1)) == []
