"""The arithmetic of the Britannia II solitaire rules (Moritz Eggert, v1.1), adapted.

Pure functions, each citing its section of ``shared/rules/britannia-solitaire.txt``
("Explanation of terms", Phases 1–4) and the AUTO.md ruling (AU-Qn) that adapts it to
Hy Breasil.  The bot (:mod:`.auto`) rolls its own dice and passes the rolls in, so
everything here is deterministic and tested on the rulebook's own examples.

Values are in "army" units: an unhurt army is 1 (§ "Defensive Value"), +0.5 per army
for each advantage a Britannia leader or mountain would give (AU-Q5, AU-Q6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .chances import REFERENCE_DEFENDERS, britannia_chance

# -- Tactics Rating (Phase 2) ---------------------------------------------------------------

TR_MIN, TR_MAX = 0, 7

#: Phase 2, "Explanation of terms": the name of each Tactics Rating.
TR_NAMES = {
    0: "mega-passive",
    1: "extremely careful",
    2: "careful",
    3: "moderate",
    4: "moderate",
    5: "aggressive",
    6: "very aggressive",
    7: "suicidal",
}

#: Phase 2: the Offence Rating range per TR as (best, worst).  TR 0 is printed "3.5 (best)
#: to 2.0 (worst)"; AU-Q8 reads it as 3.5–3.0, the 0.5-wide window every other rating has.
OR_RANGE = {
    0: (3.5, 3.0),
    1: (3.0, 2.5),
    2: (2.5, 2.0),
    3: (2.0, 1.5),
    4: (2.0, 1.5),
    5: (1.5, 1.0),
    6: (1.0, 0.5),
    7: (0.5, 0.0),
}

#: §2.1: the +2 to the initial roll of a nation that has a major invasion this turn.
INVASION_BONUS = 2
#: AU-Q11: the automatic rise of scoring rounds comes every third game turn (Britannia II
#: has 5 scoring rounds in 16), before the change roll.
SCORING_EVERY = 3


def clamp_tr(tr: int) -> int:
    """AU-Q9: a TR lives on the die's 0–7 scale."""
    return max(TR_MIN, min(TR_MAX, tr))


def initial_tr(roll: int, invading: bool) -> int:
    """§2.1 Initial Tactics: the die is the TR; +2 for a nation with a major invasion this
    turn (AU-Q10: entering Hy Breasil from the sea), "ignoring any result over 7"."""
    return clamp_tr(roll + (INVASION_BONUS if invading else 0))


def deadpile_modifier(deadpile: int, tr: int) -> int:
    """§2.2: +1 when the deadpile is lower than the TR die, 0 when equal, −1 when higher."""
    if deadpile < tr:
        return 1
    if deadpile > tr:
        return -1
    return 0


def is_scoring_round(turn: int) -> bool:
    """AU-Q11: the turns that count as Britannia's scoring rounds for the automatic rise."""
    return turn % SCORING_EVERY == 0


@dataclass(frozen=True)
class TRChange:
    """The outcome of a §2.2 change roll, kept for the explanation."""

    before: int
    raised: int  # after the automatic rise of a scoring round
    roll: int
    modifier: int
    after: int

    @property
    def total(self) -> int:
        return self.roll + self.modifier


def change_tr(tr: int, roll: int, deadpile: int, *, invasion: bool = False, scoring: bool = False) -> TRChange:
    """§2.2 Change of Tactics.

    In a scoring round the TR first rises by one ("BEFORE rolling the dice").  Then a die,
    modified by the deadpile (+1/0/−1 against the TR die) and +2 for an invasion of any
    kind: 1–2 the TR falls by one, 3–4 it stays, 5–6 (and more) it rises by one.
    """
    raised = clamp_tr(tr + 1) if scoring else tr
    mod = deadpile_modifier(deadpile, raised) + (INVASION_BONUS if invasion else 0)
    total = roll + mod
    step = -1 if total <= 2 else (0 if total <= 4 else 1)
    return TRChange(tr, raised, roll, mod, clamp_tr(raised + step))


#: AU-Q12 (normal, hard): the TR band the change roll pulls back to (Eggert's "moderate")
MODERATE = (3, 4)
#: AU-Q12 (normal, hard): this many units killed lately make the nation more careful
HEAVY_LOSSES = 3


def recalibrated_modifier(tr: int, recent_dead: float) -> int:
    """AU-Q12 (normal, hard): the change roll's modifier in Hy Breasil's terms: +1 below
    moderate, −1 above it (a Hy Breasil deadpile, refilled from the pool at once, is
    nearly always under the TR, so Eggert's comparison would be +1 at every roll), and −1
    more after heavy losses (:data:`HEAVY_LOSSES` killed lately, halved each turn)."""
    lo, hi = MODERATE
    pull = 1 if tr < lo else (-1 if tr > hi else 0)
    return pull - (1 if recent_dead >= HEAVY_LOSSES else 0)


def change_tr_recalibrated(tr: int, roll: int, recent_dead: float, *, invasion: bool = False,
                           scoring: bool = False) -> TRChange:
    """§2.2 Change of Tactics with :func:`recalibrated_modifier` in place of the deadpile's:
    the scoring round's rise first, then the die, the modifier and the invasion's +2, read
    in Eggert's bands (1–2 down, 3–4 the same, 5–6 up)."""
    raised = clamp_tr(tr + 1) if scoring else tr
    mod = recalibrated_modifier(raised, recent_dead) + (INVASION_BONUS if invasion else 0)
    total = roll + mod
    step = -1 if total <= 2 else (0 if total <= 4 else 1)
    return TRChange(tr, raised, roll, mod, clamp_tr(raised + step))


def or_range(tr: int) -> tuple[float, float]:
    """Phase 2: the (best, worst) Offence Rating of a TR."""
    return OR_RANGE[clamp_tr(tr)]


def or_chance(tr: int, which: int = 1) -> float:
    """AU-Q33: the chance a TR's worst (``which`` 1) or best (0) Offence Ratio buys in
    Britannia II — the rulebook's example, two armies defending on plains, attacked with
    DV + OR — which the bot then buys in Hy Breasil through the exact odds."""
    return britannia_chance(REFERENCE_DEFENDERS + or_range(tr)[which], REFERENCE_DEFENDERS)


# -- Defensive and Offensive Value ----------------------------------------------------------

ROUGH_BONUS = 0.5   # "defending in mountain space: +0.5 PER ARMY" → hills and forest (AU-Q5)
DIE_BONUS = 0.5     # "with leader +0.5 PER ARMY" → each +1 to the dice (AU-Q6)


def unit_dv(rough: bool, race_bonus: int = 0) -> float:
    """DV of one unhurt defending army: 1, +0.5 in hills or forest (the attacker needs 5+
    there: a defender is worth 1.5 attackers, AU-Q5), +0.5 per +1 to its dice (a troll in
    hills, a hogman in forest; AU-Q6)."""
    return 1.0 + (ROUGH_BONUS if rough else 0.0) + DIE_BONUS * race_bonus


def unit_ov(die_bonus: int = 0) -> float:
    """OV of one attacking army: 1, +0.5 per +1 to its dice (Religious fervour, a troll
    attacking in hills, a hogman in forest; AU-Q6)."""
    return 1.0 + DIE_BONUS * die_bonus


def side_value(unhurt: int, wounded: int, per_unit: float, city: int = 0) -> float:
    """DV or OV of a side: a wounded army counts half (one hit from death, AU-Q6); a city
    counts as one plain army (§9.3.1: no terrain or race benefit), half when wounded."""
    return per_unit * (unhurt + 0.5 * wounded) + 0.5 * city


def dv(defenders: int, rough: bool, race_bonus: int = 0, city: bool = False) -> float:
    """"Defensive Value" of a space: the sum over its armies (and its city, AU-Q6)."""
    return side_value(defenders, 0, unit_dv(rough, race_bonus), 2 if city else 0)


# -- Minimum Offence --------------------------------------------------------------------------

EPS = 1e-9


@dataclass(frozen=True)
class Offence:
    """§3.2.1: what attacking a space takes at a TR."""

    dv: float
    minimum: float  # MO: DV plus the worst OR — the threshold
    maximum: float  # DV plus the best OR
    units: int      # whole armies needed to reach the MO (AU-Q7)
    ov: float       # the OV those armies bring


def offence(space_dv: float, tr: int, ov_per_unit: float = 1.0) -> Offence:
    """§3.2.1 and "Explanation of Odds": the MO is DV + worst OR, the maximum DV + best OR.
    AU-Q7: whole armies cannot always land in the half-point window; the bot takes the
    fewest armies whose OV reaches the MO, even when that tops the maximum."""
    best, worst = or_range(tr)
    mo = space_dv + worst
    units = max(1, math.ceil(mo / ov_per_unit - EPS))
    return Offence(space_dv, mo, space_dv + best, units, units * ov_per_unit)


# -- Attractiveness ----------------------------------------------------------------------------

MORTAL_ENEMY_BONUS = 1.0  # §3.2 Special Rule: +1 AT for spaces of the Mortal Enemy colour
OWN_COLOUR_MALUS = 2.0    # §3.2 Special Rule B: −2 AT for spaces of the bot's own colour


def attractiveness(pvpv: float, space_dv: float, *, mortal_enemy: bool = False, own_colour: bool = False) -> float:
    """§ "Attractiveness": AT = PVPV − DV, +1 for a space of the Mortal Enemy's colour,
    −2 for a space holding armies of the auto-nation's own colour (Special Rule B)."""
    at = pvpv - space_dv
    if mortal_enemy:
        at += MORTAL_ENEMY_BONUS
    if own_colour:
        at -= OWN_COLOUR_MALUS
    return at


#: §3.2: the AT tie list — empty space, Mortal Enemy space, plain, mountain (AU-Q5: hills
#: and forest), straits (none in Hy Breasil, AU-Q31).
TIE_EMPTY, TIE_MORTAL_ENEMY, TIE_PLAIN, TIE_ROUGH = range(4)


def tie_rank(empty: bool, mortal_enemy: bool, rough: bool) -> int:
    if empty:
        return TIE_EMPTY
    if mortal_enemy:
        return TIE_MORTAL_ENEMY
    return TIE_ROUGH if rough else TIE_PLAIN


# -- Retreat and submission checks (Phase IV) --------------------------------------------------


@dataclass(frozen=True)
class Check:
    """A die check with its modifiers, kept for the explanation."""

    roll: int
    modifiers: tuple[tuple[str, int], ...]
    threshold: int
    #: what a total at or above the threshold means ("retreat", "submit")
    outcome: str

    @property
    def total(self) -> int:
        return self.roll + sum(m for _, m in self.modifiers)

    @property
    def passed(self) -> bool:
        return self.total >= self.threshold

    def text(self) -> str:
        mods = "".join(f" {m:+d} ({why})" for why, m in self.modifiers if m)
        verdict = self.outcome if self.passed else "no " + self.outcome
        return f"d6 {self.roll}{mods} = {self.total}: {verdict}"


def strength_modifier(mine: float, theirs: float) -> int:
    """§4.2: +1 for each point (rounded up) the opponent's OV/DV exceeds the checking
    side's, −1 for each point (rounded up) it falls short (AU-Q26)."""
    diff = theirs - mine
    if diff > EPS:
        return math.ceil(diff - EPS)
    if diff < -EPS:
        return -math.ceil(-diff - EPS)
    return 0


RETREAT_ON = 4  # §4.2: 1–3 the auto nation stays, 4–6 it retreats


#: AU-Q26: the odds modifier moves one point per this much chance of losing above even
ODDS_STEP = 0.05
ODDS_CAP = 5


def odds_modifier(chance: float) -> int:
    """AU-Q26 (normal, hard): the strength modifier from the exact chance that the checking
    side ends holding the area: +1 in favour of fleeing per :data:`ODDS_STEP` below even,
    −1 per step above (rounded to the nearest step, at most ±:data:`ODDS_CAP`).  An even
    battle keeps Eggert's coin flip; at 60% the side stays on all but a 6, from 65% always;
    at 40% it retreats on all but a 1."""
    steps = round((0.5 - chance) / ODDS_STEP)
    return max(-ODDS_CAP, min(ODDS_CAP, steps))


def retreat_check(roll: int, mine: float, theirs: float, *, space_pvpv: float, kills_give_vp: bool = False,
                  strength: int | None = None) -> Check:
    """§4.2 Checking for retreat, with the cumulative modifiers (AU-Q26 restores the lost
    signs: staying −1, fleeing +1).  In Hy Breasil every land area is worth a VP and no kill
    is, so the PVPV (−1) and kill (+1) modifiers always cancel; they are kept.
    ``strength`` replaces the OV/DV difference (the exact odds, :func:`odds_modifier`)."""
    mods = (
        ("space has a PVPV" if space_pvpv > 0 else "space has no PVPV", -1 if space_pvpv > 0 else 1),
        ("strength" if strength is None else "odds",
         strength_modifier(mine, theirs) if strength is None else strength),
        ("kills give VP" if kills_give_vp else "kills give no VP", -1 if kills_give_vp else 1),
    )
    return Check(roll, mods, RETREAT_ON, "retreat")


SUBMIT_ON = 6  # §4.3: a modified 6 or more submits


def submission_possible(defender_areas: int, attacker_areas: int) -> bool:
    """AU-Q27: Britannia's "maximum amount of allowed areas for submission" becomes the
    attacker's size — a nation never submits to a smaller one."""
    return defender_areas <= attacker_areas


def submission_check(roll: int, *, defender_areas: int, attacker_areas: int, tr: int | None,
                     last_space: bool, other_battles: int = 0) -> Check:
    """§4.3 Checking for submission: +1 per area below the maximum (AU-Q27: the attacking
    nation's area count), +1 per other battle still to fight (none: Hy Breasil fights one
    battle at a time), +1 for TR 0–3, 0 without a TR, −1 for TR 4–7 (AU-Q27 restores the
    sign), +5 when the battle is in the nation's last space."""
    if tr is None:
        tr_mod = 0
    else:
        tr_mod = 1 if tr <= 3 else -1
    mods = (
        ("areas below the attacker's", max(0, attacker_areas - defender_areas)),
        ("other battles", other_battles),
        ("TR", tr_mod),
        ("last space", 5 if last_space else 0),
    )
    return Check(roll, mods, SUBMIT_ON, "submit")
