"""The ``auto`` bot: the Britannia II solitaire rules (shared/rules/britannia-solitaire.txt)
adapted to Hy Breasil (games/hy_breasil/bots/AUTO.md).

Unit tests of the system's arithmetic on the rulebook's own examples (TR, OR, DV, OV, MO,
AT, retreat and submission checks), of the preference lists, of the bot's memory (cubes,
deadpile), scenario tests built with the ``hb`` builder (conftest.py) in which the bot must
take the obvious attack and must not leave a space empty, one test per AUTO.md ruling
(``test_au_qN_…``), and a small tournament against random bots.
"""

from __future__ import annotations

import inspect
import random
import re

import pytest

from realms.core.agents import RandomBot, bot_seed
from realms.core.decision import Decision
from realms.core.match import play
from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.bots import AutoBot
from realms.games.hy_breasil.bots import tactics as T
from realms.games.hy_breasil.bots.look import Look, distances
from realms.games.hy_breasil.bots.memory import Memory, NationMemory
from realms.games.hy_breasil.bots.moves import MoveKeys, Phase, Planner
from realms.sim.tournament import tournament

AREA, ATT, DEF, AU, AW, DU, DW = range(7)


# -- helpers ---------------------------------------------------------------------------------------
class BotDice:
    """The bot's dice with scripted d6 rolls (TR, retreat and submission checks); ties
    are broken by a seeded generator."""

    def __init__(self, *d6s: int, seed: int = 0) -> None:
        self.d6s = list(d6s)
        self._random = random.Random(seed).random

    def d6(self) -> int:
        assert self.d6s, "the bot rolled more dice than scripted"
        return self.d6s.pop(0)

    def below(self, n: int) -> int:
        return int(self._random() * n)


def make_bot(*d6s: int, seed: int = 0) -> AutoBot:
    bot = AutoBot(seed)
    bot.dice = BotDice(*d6s, seed=seed)
    bot.rand = bot.dice._random
    return bot


def prime(bot: AutoBot, s, n, tr: int, **sheet) -> NationMemory:
    """Give the bot a sheet for nation ``n`` this turn (Phases 1–2 done) with TR ``tr``."""
    m = bot.memory.sheet(n.id, s.turn)
    m.tr = tr
    for k, v in sheet.items():
        setattr(m, k, v)
    bot.memory.started.add((s.turn, n.id))
    return m


def ask(bot: AutoBot, s) -> str:
    """The bot's answer (a key) to the state's pending decision."""
    d = s._pending[0]
    i = bot.choose(d, lambda: s.view(d.player))
    return d.keys[i]


def move_phase(hb, bot, s, n, until_fight: bool = True, limit: int = 60) -> list[str]:
    """Run ``n``'s movement phase with the bot answering its moves; the keys it chose."""
    s.current = n.id
    keys: list[str] = []
    d = hb.run(s, ("movement_phase", n.id, 1))
    while d is not None and d.kind == "hb.move" and len(keys) < limit:
        k = ask(bot, s)
        keys.append(k)
        if k == "fight" and until_fight:
            break
        d = hb.answer(s, k)
    return keys


def fill(hb, s, owner: int, skip, per_area: int = 2) -> list:
    """Every land area not in ``skip`` held by nations of ``owner`` with ``per_area`` units."""
    skip = {hb.a(x) for x in skip}
    areas = [a for a in hb.land() if a not in skip]
    per_nation = (s.set_size - 1) // per_area
    out = []
    for i in range(0, len(areas), per_nation):
        out.append(hb.nation(s, owner, {a: per_area for a in areas[i:i + per_nation]}))
    return out


def src_dst(hb, key: str) -> tuple[int, int]:
    return hb.board.parse_move(key)


# -- Phase 2: Tactics Rating --------------------------------------------------------------------------
def test_initial_tr_is_the_die_plus_two_for_a_major_invasion_capped_at_seven():
    """§2.1: the roll is the TR; +2 for a nation with a major invasion, "ignoring any result over 7"."""
    assert [T.initial_tr(r, False) for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert [T.initial_tr(r, True) for r in range(1, 7)] == [3, 4, 5, 6, 7, 7]


def test_tr_change_roll_bands():
    """§2.2: 1–2 decreases, 3–4 remains, 5–6 increases (deadpile equal to the TR: +0)."""
    assert [T.change_tr(3, r, 3).after for r in range(1, 7)] == [2, 2, 3, 3, 4, 4]


def test_tr_change_deadpile_modifiers():
    """§2.2: deadpile lower than the TR die +1, equal +0, higher −1."""
    assert T.change_tr(3, 4, 0).modifier == 1 and T.change_tr(3, 4, 0).after == 4
    assert T.change_tr(3, 4, 3).modifier == 0 and T.change_tr(3, 4, 3).after == 3
    assert T.change_tr(3, 3, 5).modifier == -1 and T.change_tr(3, 3, 5).after == 2


def test_tr_change_invasion_adds_two():
    """§2.2: "having an invasion of any kind" +2."""
    ch = T.change_tr(3, 3, 3, invasion=True)
    assert ch.modifier == 2 and ch.total == 5 and ch.after == 4


def test_scoring_round_raises_the_tr_before_the_roll():
    """§2.2 "Automatic increase … BEFORE rolling the dice": the deadpile is compared with
    the raised TR, and the roll can still take it back down."""
    ch = T.change_tr(3, 3, 4, scoring=True)
    assert (ch.raised, ch.modifier, ch.after) == (4, 0, 4)
    assert T.change_tr(3, 3, 4).after == 2  # without the rise: deadpile 4 > TR 3, −1
    assert T.change_tr(3, 1, 4, scoring=True).after == 3


# -- DV, OV, MO, AT on the rulebook's examples ------------------------------------------------------------
def test_dv_example_three_cavalry_in_a_mountain_is_six():
    """"3 cavalry armies defending in a mountain space equal 3 × 1.5 plus 3 × 0.5 = 6 DV".
    Translated: three trolls defending in hills (the +1 to their dice is the cavalry's
    extra half, the hills the mountain's)."""
    assert T.dv(3, rough=True, race_bonus=1) == 6.0
    assert T.dv(3, rough=True) == 4.5
    assert T.dv(2, rough=False) == 2.0


def test_odds_example_tr3_against_two_armies_in_plains():
    """"Explanation of Odds": TR 3 against two armies in plains must bring at least 1.5
    more OV, at most 2 — four armies (4 = 2 + 2)."""
    off = T.offence(T.dv(2, rough=False), 3)
    assert (off.dv, off.minimum, off.maximum, off.units, off.ov) == (2.0, 3.5, 4.0, 4, 4.0)


def test_at_examples_from_the_rulebook():
    """§3.2 examples: 3 armies in a mountain worth 6 VP → AT 1.5; 2 cavalry with a leader
    (8 VP) in a space worth 2 → AT 10 − 4 = 6.  Translated: 2 hogmen in a forest (their
    +1 to the dice standing for the leader's +0.5 per army) against the same PVPV."""
    assert T.attractiveness(6, T.dv(3, rough=True)) == 1.5
    assert T.attractiveness(10, 2 * 1.5 + 2 * 0.5) == 6.0
    assert T.attractiveness(10, T.dv(2, rough=True, race_bonus=1)) == 6.0


def test_at_special_rules():
    """§3.2: +1 AT for the Mortal Enemy's spaces; Special Rule B: −2 for the own colour."""
    assert T.attractiveness(1, 1.0, mortal_enemy=True) == 1.0
    assert T.attractiveness(1, 1.0, own_colour=True) == -2.0
    assert T.attractiveness(1, 0.0) == 1.0  # an empty space: its PVPV


def test_or_ranges_per_tr():
    """Phase 2 "Explanation of terms": OR best–worst per TR."""
    assert [T.or_range(tr) for tr in range(8)] == [
        (3.5, 3.0), (3.0, 2.5), (2.5, 2.0), (2.0, 1.5), (2.0, 1.5), (1.5, 1.0), (1.0, 0.5), (0.5, 0.0)]


def test_mo_per_tr_against_one_army_in_plains_and_in_hills():
    """§3.2.1: MO = DV + worst OR; the armies needed are the fewest whose OV reaches it."""
    plains = [T.offence(1.0, tr).units for tr in range(8)]
    hills = [T.offence(1.5, tr).units for tr in range(8)]
    assert plains == [4, 4, 3, 3, 3, 2, 2, 1]
    assert hills == [5, 4, 4, 3, 3, 3, 2, 2]


# -- §4 checks ----------------------------------------------------------------------------------------------
def test_retreat_check_one_to_three_stays_four_to_six_retreats():
    """§4.2: 1–3 stay, 4–6 retreat; equal strength and Hy Breasil's constant modifiers cancel."""
    assert [T.retreat_check(r, 2.0, 2.0, space_pvpv=1).passed for r in range(1, 7)] == [False] * 3 + [True] * 3


def test_retreat_check_strength_rounds_up():
    """§4.2: +1 per point (rounded up) the opponent is stronger, −1 per point it is weaker."""
    assert T.strength_modifier(1.0, 2.5) == 2
    assert T.strength_modifier(3.0, 1.5) == -2
    assert T.strength_modifier(2.0, 2.0) == 0
    check = T.retreat_check(2, 1.0, 2.5, space_pvpv=1)
    assert check.total == 4 and check.passed


def test_submission_check_example():
    """§4.3 example: the Welsh own 3 areas with a maximum of 5 → +2.  Translated: a
    defender of 3 areas attacked by a nation of 5."""
    check = T.submission_check(1, defender_areas=3, attacker_areas=5, tr=None, last_space=False)
    assert dict(check.modifiers)["areas below the attacker's"] == 2
    assert check.total == 3 and not check.passed
    assert T.submission_check(1, defender_areas=1, attacker_areas=5, tr=2, last_space=True).total == 1 + 4 + 1 + 5


# -- the bot's memory -----------------------------------------------------------------------------------
def test_cube_removal_one_per_turn_and_mortal_enemy_ties():
    """Phase 1: one cube from each group; § "Mortal Enemy": most cubes, ties by die."""
    m = NationMemory(1, cubes={0: 3, 2: 1}, cube_turn=4)
    assert m.decay(5) == 2 and m.cubes == {0: 2}
    assert m.decay(5) == 0
    m.cubes = {0: 2, 2: 2, 3: 1}
    assert m.mortal_enemies() == [0, 2]


def test_conquest_adds_a_cube_of_the_winners_colour(hb):
    """§ "Mortal Enemy": a won attack puts a cube of the attacker's colour on the nation
    attacked — seen by the bot as an area changing hands between two looks."""
    s = hb.game(players=3)
    a, b = hb.pair(lambda x, y: hb.adjacent(x, y), hb.land())
    c = next(x for x in hb.land() if x not in (a, b))
    mine = hb.nation(s, 0, {a: 2, c: 1})
    theirs = hb.nation(s, 2, {b: 3})
    mem = Memory()
    mem.observe(Look(s.view(0)), "hb.retreat")
    s.remove_units(mine, a, 2)
    s.add_units(theirs, a, 1)
    added = mem.observe(Look(s.view(0)), "hb.move")
    assert added == [(mine.id, 2, a)]
    assert mem.sheets[mine.id].cubes == {2: 1}


def test_deadpile_counts_units_killed_while_others_play(hb):
    """AU-Q12: units a bot nation loses while other nations play are its deadpile; the
    deadpile never exceeds the pool (armies come from store first)."""
    s = hb.game(players=2)
    a = hb.land()[0]
    mine = hb.nation(s, 0, {a: 5})
    other = hb.nation(s, 1, {hb.land()[10]: 1})
    s.current = other.id
    mem = Memory()
    mem.observe(Look(s.view(0)), "hb.retreat")
    s.remove_units(mine, a, 2)
    mem.observe(Look(s.view(0)), "hb.retreat")
    assert mem.sheets[mine.id].dead == 2
    s.add_units(mine, a, mine.pool - 1)  # new armies use the store, then the deadpile
    mem.observe(Look(s.view(0)), "hb.retreat")
    assert mem.sheets[mine.id].dead == 1


# -- preference lists -----------------------------------------------------------------------------------
def test_placement_preference_list(hb):
    """§1.1: most VP (a capital), then the fewest armies, then plains before hills/forest."""
    s = hb.game(players=2)
    plain = hb.of_terrain("plains")
    rough = hb.of_terrain("hills", "forest")
    n = hb.nation(s, 0, {plain[0]: 3, plain[1]: 1, rough[0]: 1})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    d = hb.run(s, ("place", n.id, 1, 0, 1))
    assert ask(bot, s) == hb.id(plain[1])
    n.capital = plain[0]
    assert ask(bot, s) == hb.id(plain[0])


def test_retreat_destination_preference_list(hb):
    """§4.2 "Where to retreat": most friendly or empty adjacent spaces, then the highest
    PVPV, then the most friendly DV."""
    s = hb.game(players=2)
    bot = make_bot()
    n = hb.nation(s, 0, {"tir-tairngire": 2, "dun-ailinne": 1})
    enemy = hb.nation(s, 1, {"eas-ruaidh": 1, "dun-delgan": 1, "mag-adair": 1, "doire-calgaich": 1})
    cands = [hb.a("dun-ailinne"), hb.a("mag-slecht")]
    look = Look(s.view(0))
    # both have two friendly or empty neighbours: the friendly DV decides
    assert bot.retreat_destination(look, look.nations[n.id], cands) == hb.a("dun-ailinne")
    s.remove_units(enemy, hb.a("mag-adair"), 1)
    look = Look(s.view(0))
    # now Mag Slécht borders three: it wins on the first criterion
    assert bot.retreat_destination(look, look.nations[n.id], cands) == hb.a("mag-slecht")


def test_at_tie_list_empty_then_mortal_enemy_then_plain_then_rough():
    """§3.2 tie list."""
    ranks = [T.tie_rank(True, False, True), T.tie_rank(False, True, True), T.tie_rank(False, False, False),
             T.tie_rank(False, False, True)]
    assert ranks == sorted(ranks) == [0, 1, 2, 3]


def test_event_reroll_preference_list(hb):
    """AUTO.md "Events": a token is spent only when the event costs two VP or more next
    round, at most once a turn: Civil war of a big nation yes, of a small one no."""
    s = hb.game(players=4)
    bot = make_bot(3, 3, 3)
    big = hb.nation(s, 0, {a: 1 for a in hb.land()[:6]})
    s.current = big.id
    prime(bot, s, big, 3)
    s.dice.push(6, 2)  # 6 + 2 tokens = 8: civil war
    big.civ, big.pool = 2, big.pool - 2
    hb.run(s, ("event", big.id))
    assert s._pending[0].kind == "hb.event"
    assert ask(bot, s) == "reroll"
    assert ask(bot, s) == "accept"  # once a turn
    small = hb.nation(s, 1, {hb.land()[20]: 1, hb.land()[21]: 1})
    look = Look(s.view(1))
    assert bot.event_loss(look, look.nations[small.id], "civil-war") < 2
    assert bot.event_loss(look, look.nations[big.id], "famine") == 0


# -- scenarios ------------------------------------------------------------------------------------------
def test_scenario_takes_the_obvious_attack(hb):
    """A nation hemmed in by strong neighbours, with one lone army next to it in the
    plains: it attacks that army with exactly the MO's armies and starts the battle."""
    s = hb.game(players=3)
    home, prey = hb.a("tir-tairngire"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 5})
    enemy = hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [home, prey], per_area=2)
    bot = make_bot()
    prime(bot, s, n, 5)  # aggressive: OR 1.5–1.0, MO 2.0 against DV 1
    keys = move_phase(hb, bot, s, n)
    assert keys == [hb.mv(home, prey)] * 2 + ["fight"]
    assert s.battle[AU] == 2 and s.battle[DEF] == enemy.id
    assert n.units[home] == 3
    assert any("attacks Mag Adair" in text and "MO 2" in text for _, text in bot.explanations)


def test_scenario_careful_nation_does_not_attack_without_its_mo(hb):
    """§3.2.1: with the MO out of reach (TR 1 needs 4 armies against one, it has 2 free)
    no attack; §3.3: the free army moves defensively to the space with fewer armies."""
    s = hb.game(players=3)
    home, prey, side = hb.a("tir-tairngire"), hb.a("mag-adair"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {home: 3, side: 1})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [home, prey, side], per_area=2)
    bot = make_bot()
    prime(bot, s, n, 1)
    keys = move_phase(hb, bot, s, n, until_fight=False)
    assert keys == [hb.mv(home, side), "done"]
    assert s.battle is None and s.area_nation[prey] != n.id
    assert any("no space reaches its MO at TR 1" in text for _, text in bot.explanations)


def test_scenario_never_leaves_a_space_empty(hb):
    """§3.2.2.1: the last army of a space never moves — empty land all around, a weak
    enemy next door, an aggressive TR: every space the nation held is still held."""
    s = hb.game(players=2)
    held = ["tir-tairngire", "dun-ailinne", "mag-slecht", "mag-adair"]
    n = hb.nation(s, 0, {"tir-tairngire": 3, "dun-ailinne": 1, "mag-slecht": 1, "mag-adair": 1})
    hb.nation(s, 1, {"eas-ruaidh": 1})
    bot = make_bot()
    prime(bot, s, n, 7)
    s.dice.push(*([6] * 40))  # the attacker's and defender's dice, if any battle is fought
    keys = move_phase(hb, bot, s, n, until_fight=False)
    for k in keys:
        if ">" in k:
            src, _ = src_dst(hb, k)
            assert hb.id(src) == "tir-tairngire", k
    assert all(s.area_nation[hb.a(a)] == n.id for a in held)
    assert keys[-1] == "done"


def test_full_games_auto_never_empties_a_space_or_leaves_units_at_sea():
    """§3.2.2.1 and HB §6.3 in whole games with four auto seats: no move of an auto nation
    takes the last army out of a land space, and every game ends by its rules."""
    checked = 0

    class Checked(AutoBot):
        def choose(self, decision, view):
            nonlocal checked
            i = super().choose(decision, view)
            if decision.kind == "hb.move":
                key = decision.keys[i]
                if ">" in key:
                    look = self.look
                    src, _ = look.board.parse_move(key)
                    n = look.nations[look.current]
                    if look.battle is None or look.battle.attacker != n.id or True:
                        assert look.board.is_sea[src] or n.units[src] >= 2, key
                    checked += 1
            return i

    for seed in range(3):
        s = GAME.new_game({"players": 4, "turns": 8}, seed)
        play(s, [Checked(bot_seed(seed, k)) for k in range(4)])
        assert s.over and s.result()["winners"]
    assert checked > 100


# -- the explanation API ----------------------------------------------------------------------------
def test_explanations_say_tr_at_and_mo():
    """``bot.explanations``: (turn, text) lines with the TR, the AT of the target, the MO."""
    s = GAME.new_game({"players": 3, "turns": 6}, 5)
    bot = AutoBot(7)
    play(s, [bot, RandomBot(1), RandomBot(2)])
    assert bot.explanations and all(isinstance(t, int) and isinstance(x, str) for t, x in bot.explanations)
    text = "\n".join(x for _, x in bot.explanations)
    assert re.search(r"TR \d", text) and "AT " in text
    assert re.search(r"MO [\d.]+ .*reached with \d+ armies", text) or "defensive movement" in text
    turns = [t for t, _ in bot.explanations]
    assert turns == sorted(turns) and turns[-1] <= 6


# -- a tournament ------------------------------------------------------------------------------------
def test_tournament_auto_beats_three_random_bots():
    """Issue 5's figure, small: 1 auto and 3 random seats, rotated, 40 games."""
    [auto, rnd] = tournament(GAME, {}, ["auto", "random", "random", "random"], 40, 1)
    assert auto.bot == "auto" and auto.games == 40 and rnd.games == 120
    lo, hi = auto.interval()
    assert auto.share >= 0.6 and lo > 0.25
    assert auto.score_total / auto.games > 2 * rnd.score_total / rnd.games
