"""The auto bot's difficulty levels (``--bots auto:level=easy|normal|hard``, AUTO.md
"Difficulty").

``easy`` is Eggert's system as first transcribed (AU-Q5–AU-Q26 as they stood): Offence
Ratios counted in armies, coin-flip retreat checks, every area worth its 1 VP, the
deadpile as Britannia keeps it.  ``normal`` is that system recalibrated to Hy Breasil
(AU-Q12, AU-Q13, AU-Q20, AU-Q26, AU-Q33–AU-Q36), its TR held within 1–6.  ``hard`` is
``normal`` with retreats decided on the odds without a die (AU-Q37) and attacks that buy
the best Offence Ratio's chance when the armies are there (AU-Q38).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """What a difficulty level switches on (each flag names the AUTO.md ruling)."""

    name: str
    #: AU-Q33: each TR's Offence Ratio is the chance it bought in Britannia, bought here by
    #: the exact odds; off: the OR counted in armies over the DV (AU-Q5–AU-Q7)
    odds: bool = True
    #: AU-Q12: the TR change roll compares the TR with the recent dead (halved every turn)
    recent_dead: bool = True
    #: AU-Q11: the automatic rise of Britannia's scoring rounds (every third turn); off in
    #: normal and hard, whose change roll is pulled back to moderate instead (AU-Q12)
    scoring_rise: bool = False
    #: AU-Q26: the retreat check's strength modifier from the exact odds
    real_retreat: bool = True
    #: AU-Q13: PVPV counts PIPs, what is denied a rival and §6.4 connection
    hb_value: bool = True
    #: AU-Q34: retreats keep the nation joined (§6.4)
    connected: bool = True
    #: AU-Q35: a new nation lands away from the nations already at sea
    spread: bool = True
    #: AU-Q36: defensive moves and new units go first to spaces enemy armies border
    guard: bool = True
    #: AU-Q12: the TR is held within this band (normal, hard: neither mega-passive nor
    #: suicidal; easy: Eggert's 0–7)
    tr_band: tuple[int, int] = (1, 6)
    #: retreat without a die: the checker leaves exactly when the modified roll of 3.5
    #: would (hard)
    sure_retreat: bool = False
    #: AU-Q38: attacks buy the chance of the TR's best Offence Ratio when the armies are
    #: there (Eggert's window is worst to best OR; the default buys the worst, hard)
    best_or: bool = False


LEVELS = {
    "easy": Level("easy", odds=False, recent_dead=False, real_retreat=False, hb_value=False,
                  connected=False, spread=False, guard=False, scoring_rise=True, tr_band=(0, 7)),
    "normal": Level("normal"),
    "hard": Level("hard", sure_retreat=True, best_or=True),
}


def level_named(name: str) -> Level:
    """The level called ``name``; a clear error naming the known ones otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown auto level {name!r} (known: {', '.join(LEVELS)})") from None
