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
from realms.games.hy_breasil.bots.chances import britannia_chance
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


def make_bot(*d6s: int, seed: int = 0, level: str = "normal") -> AutoBot:
    bot = AutoBot(seed, level=level)
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
    d = s.pending()[0]
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
    hb.run(s, ("place", n.id, 1, 0, 1))
    assert ask(bot, s) == hb.id(plain[1])
    n.capital = plain[0]
    assert ask(bot, s) == hb.id(plain[0])


def test_retreat_destination_preference_list(hb):
    """§4.2 "Where to retreat": most friendly or empty adjacent spaces, then the highest
    PVPV, then the most friendly DV (as written: level easy; AU-Q37 for normal)."""
    s = hb.game(players=2)
    bot = make_bot(level="easy")
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
    assert s.pending()[0].kind == "hb.event"
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
    bot = make_bot(level="easy")
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
    """The strength figure, small: 1 auto and 3 random seats, rotated, 40 games."""
    [auto, rnd] = tournament(GAME, {}, ["auto", "random", "random", "random"], 40, 1)
    assert auto.bot == "auto" and auto.games == 40 and rnd.games == 120
    lo, hi = auto.interval()
    assert auto.share >= 0.6 and lo > 0.25
    assert auto.score_total / auto.games > 2 * rnd.score_total / rnd.games


# -- AUTO.md rulings, one test each ------------------------------------------------------------------
def planner_for(bot: AutoBot, s, n) -> Planner:
    """A planner for nation ``n`` on the state's board (no options to choose from)."""
    look = Look(s.view(n.owner))
    bot.look = look
    return Planner(bot, look, look.nations[n.id], Phase(s.turn, n.id, 1),
                   MoveKeys(Decision(n.owner, "hb.move", (), ""), look))


def hemmed_in(hb, players: int = 3):
    """Tír Tairngire (7 armies) between lone armies in Mag Adair (player 1) and Dún Ailinne
    (player 2); everything else held two deep by player 2."""
    s = hb.game(players=players)
    home, a1, a2 = hb.a("tir-tairngire"), hb.a("mag-adair"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {home: 7})
    e1 = hb.nation(s, 1, {a1: 1})
    e2 = hb.nation(s, 2, {a2: 1})
    fill(hb, s, 2, [home, a1, a2], per_area=2)
    return s, n, e1, e2, home, a1, a2


def test_au_q1_cubes_and_tr_before_the_event(hb):
    """AU-Q1: Phases 1–2 run at the first decision of the nation's turn — its event choice —
    so a Reinforcements event shown there counts as an invasion (+2) for the change roll."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {hb.land()[0]: 2}, start_sea="muir-lir")
    s.current = n.id
    bot = make_bot(3)
    m = bot.memory.sheet(n.id, s.turn)
    m.tr, m.cubes, m.cube_turn = 3, {1: 2}, s.turn - 1
    s.dice.push(1)  # 1 + 0 tokens: Reinforcements
    hb.run(s, ("event", n.id))
    assert ask(bot, s) == "accept"
    assert (s.turn, n.id) in bot.memory.started
    assert m.tr == 4 and m.cubes == {1: 1}  # d6 3 +1 (deadpile 0 < 3) +2 invasion = 6: +1
    assert "invasion +2" in bot.explanations[0][1] and "TR 3→4" in bot.explanations[0][1]


def test_au_q2_battles_follow_the_at_order_one_at_a_time(hb):
    """AU-Q2: no Phase IV order of its own — each offensive action is fought before the next
    is chosen, so battles come in AT order: the Mortal Enemy's space (AT 1) first."""
    s, n, e1, e2, home, a1, a2 = hemmed_in(hb)
    bot = make_bot()
    prime(bot, s, n, 5, cubes={1: 2})
    keys = move_phase(hb, bot, s, n)
    assert keys == [hb.mv(home, a1)] * 2 + ["fight"]
    s.dice.push(6, 6, 1)  # two hits kill the lone defender, its die misses
    d = hb.answer(s, "fight")
    assert s.area_nation[a1] == n.id and d.kind == "hb.move"
    more = []
    while d is not None and d.kind == "hb.move":
        k = ask(bot, s)
        more.append(k)
        if k == "fight":
            break
        d = hb.answer(s, k)
    assert more == [hb.mv(home, a2)] * 2 + ["fight"]


def test_au_q3_no_overrun_conquerors_stop(hb):
    """AU-Q3: no overrun — the armies that took a space have moved (§6.3.3) and are not
    sent on; the next attack comes from armies that have not moved."""
    s, n, e1, e2, home, a1, a2 = hemmed_in(hb)
    bot = make_bot()
    prime(bot, s, n, 5, cubes={1: 2})
    move_phase(hb, bot, s, n)
    s.dice.push(6, 6, 1)
    hb.answer(s, "fight")
    k = ask(bot, s)
    assert bot.phase.moved[a1] == 2 and bot.phase.plan.target == a2
    assert src_dst(hb, k)[0] == home


def test_au_q4_armies_at_sea_that_cannot_land_join_the_attack(hb):
    """AU-Q4 (§3.2's sea exception, §3.2.6): armies at sea with no own or empty land in
    reach are added to the attack before it starts; the sea counts as overstacked."""
    s = hb.game(players=3)
    sea, prey = hb.a("tonn-cliodhna"), hb.a("gorias")
    n = hb.nation(s, 0, {sea: 4})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [prey], per_area=2)
    bot = make_bot()
    prime(bot, s, n, 5)
    s.dice.push(6, 6, 1, 1, 1)  # the battle starts by itself once no army can join
    keys = move_phase(hb, bot, s, n)
    assert keys == [hb.mv(sea, prey)] * 4  # MO 2 (TR 5 against DV 1) plus two stranded armies
    assert s.area_nation[prey] == n.id and n.units[prey] == 4


def test_au_q4_armies_at_sea_with_land_in_reach_do_not_join(hb):
    """AU-Q4: with an empty coast in reach, the armies at sea land there instead."""
    s = hb.game(players=3)
    sea, prey, coast = hb.a("tonn-cliodhna"), hb.a("gorias"), hb.a("ros-da-shailech")
    n = hb.nation(s, 0, {sea: 4})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [prey, coast], per_area=2)
    bot = make_bot(level="easy")
    prime(bot, s, n, 5)
    keys = move_phase(hb, bot, s, n)
    assert keys[0] == hb.mv(sea, coast)  # the empty space first (AT 1), one army
    assert keys[1:] == [hb.mv(sea, prey)] * 2 + ["fight"]


def test_au_q5_hills_and_forest_add_half_an_army():
    """AU-Q5: +0.5 per defender in hills or forest — exactly the true ratio of the
    attacker's hit chances (4+ against 5+: 3/6 ÷ 2/6 = 1.5)."""
    t = GAME.new_game({"players": 2}, 0).tables
    ratio = (7 - t.hit_on) / (7 - t.attacker_hit_on_rough)
    assert T.unit_dv(rough=True) == ratio == 1.5
    assert T.unit_dv(rough=False) == 1.0


def test_au_q6_races_fervour_cities_and_wounds():
    """AU-Q6: each +1 to the dice is +0.5 per army (fervour, troll in hills, hogman in
    forest); a city is one plain army; a wounded army counts half."""
    assert T.unit_ov(1) == 1.5 and T.unit_ov(2) == 2.0
    assert T.unit_dv(rough=True, race_bonus=1) == 2.0
    assert T.dv(2, rough=False, city=True) == 3.0
    assert T.dv(2, rough=True, city=True) == 4.0  # the city gets no terrain benefit
    assert T.side_value(1, 2, 1.0) == 2.0 and T.side_value(0, 1, 1.0, city=1) == 1.0


def test_au_q7_whole_armies_may_top_the_best_or():
    """AU-Q7: the fewest whole armies reaching the MO, even above DV + best OR."""
    off = T.offence(1.0, 5, ov_per_unit=1.5)  # MO 2.0, max 2.5, armies of 1.5
    assert off.units == 2 and off.ov == 3.0 > off.maximum
    off = T.offence(1.5, 3)  # MO 3.0, max 3.5
    assert off.units == 3 and off.minimum <= off.ov <= off.maximum


def test_au_q8_mega_passive_reads_three_and_a_half_to_three():
    """AU-Q8: TR 0's window is 3.5–3.0, not the printed 3.5–2.0."""
    assert T.or_range(0) == (3.5, 3.0)
    assert T.offence(1.0, 0).minimum == 4.0 > T.offence(1.0, 1).minimum == 3.5


def test_au_q9_tr_lives_on_zero_to_seven():
    """AU-Q9: results are clamped to 0–7; 0 is reached only by modifiers; a TR 0 nation
    keeps rolling for changes."""
    assert T.initial_tr(6, True) == 7
    assert T.change_tr(7, 6, 0).after == 7
    assert T.change_tr(1, 1, 5).after == 0  # −1 for the deadpile: 0
    assert T.change_tr(0, 6, 0).after == 1
    assert min(T.initial_tr(r, False) for r in range(1, 7)) == 1


def test_au_q10_entering_from_the_sea_is_a_major_invasion():
    """AU-Q10: a nation's first turn (arriving from the sea) adds 2 to its initial roll."""
    s = GAME.new_game({"players": 2, "turns": 1}, 11)
    bot = make_bot(3, seed=4)
    other = RandomBot(9)
    while s.pending():
        d = s.pending()[0]
        if d.player == 0 and d.kind == "hb.move":
            break
        agent = bot if d.player == 0 else other
        s.apply_index(d.player, agent.choose(d, lambda: s.view(d.player)))
    if s.pending() and s.pending()[0].kind == "hb.move":
        ask(bot, s)
    nid = next(n.id for n in s.nations.values() if n.owner == 0)
    assert bot.memory.sheets[nid].tr == 5
    assert any("initial TR 5" in x and "+2 invasion" in x for _, x in bot.explanations)


def test_au_q10_split_off_nations_keep_tr_and_cubes_not_the_deadpile(hb):
    """AU-Q10: a part split off (civil war, §6.4) keeps the parent's TR and cubes; its
    deadpile starts empty; the split is no conquest (no cube)."""
    s = hb.game(players=2)
    a, b, c = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-slecht")
    parent = hb.nation(s, 0, {a: 2, b: 1, c: 1}, start_sea="muir-lir")
    mem = Memory()
    mem.observe(Look(s.view(0)), "hb.move")
    sheet = mem.sheets[parent.id]
    sheet.tr, sheet.cubes, sheet.dead = 6, {1: 2}, 3
    child = s.create_nation(0, like=parent)
    for x in (b, c):
        s.transfer(parent, child, x, 1)
    added = mem.observe(Look(s.view(0)), "hb.civil-war-area")
    assert added == []
    kid = mem.sheets[child.id]
    assert kid.tr == 6 and kid.cubes == {1: 2} and kid.dead == 0


def test_au_q11_scoring_rounds_every_third_turn():
    """AU-Q11: the automatic rise comes in turns 3, 6, 9, 12, 15 (5 in 15, as Britannia
    II's 5 scoring rounds in 16)."""
    assert [t for t in range(1, 16) if T.is_scoring_round(t)] == [3, 6, 9, 12, 15]


def test_au_q12_deadpile_excludes_the_support_limit(hb):
    """AU-Q12: units lost to the §6.4 support limit at the end of the nation's own turn
    are not dead; units killed afterwards by others are."""
    s = hb.game(players=2)
    a, b = hb.a("tir-tairngire"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {a: 5, b: 1})
    other = hb.nation(s, 1, {hb.a("findias"): 1})
    mem = Memory()
    s.current = n.id
    mem.observe(Look(s.view(0)), "hb.move")  # 6 units, 2 areas: support for 4
    s.remove_units(n, a, 2)
    s.current = other.id
    mem.observe(Look(s.view(0)), "hb.retreat")
    assert mem.sheets[n.id].dead == 0
    s.remove_units(n, a, 1)
    mem.observe(Look(s.view(0)), "hb.retreat")
    assert mem.sheets[n.id].dead == 1


def test_au_q13_pvpv_is_the_next_rounds_vp(hb):
    """AU-Q13: an empty space is worth its VP (3 for the nation's capital); an enemy space
    adds the half share a submission would bring, only while §9.2 makes it possible."""
    s = hb.game(players=2)
    home, cap, prey = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 3})
    n.capital = cap
    enemy = hb.nation(s, 1, {prey: 1, "achadh-glas": 1, "dun-sobairce": 1})
    bot = make_bot(level="easy")  # as written; normal adds Hy Breasil's other values (AU-Q13 below)
    p = planner_for(bot, s, n)
    assert p.pvpv(cap) == 3 and p.pvpv(hb.a("mag-slecht")) == 1 and p.pvpv(prey) == 1
    bot._submission_seen = True
    assert planner_for(bot, s, n).pvpv(prey) == 1 + 2  # ⌈3 VP / 2⌉
    enemy.master = n.id
    assert planner_for(bot, s, n).pvpv(prey) == 1  # already submitted: no submission to win


def test_au_q14_pvpv_is_counted_for_the_seat(hb):
    """AU-Q14: taking a sibling nation's space gains the seat nothing (+1 − 1); with
    Special Rule B its AT is 0 − DV − 2."""
    s = hb.game(players=2)
    home, sib = hb.a("tir-tairngire"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 3})
    hb.nation(s, 0, {sib: 1})
    bot = make_bot()
    p = planner_for(bot, s, n)
    assert p.pvpv(sib) == 0
    p.keys.rows = {home: 1 << sib}
    [(at, *_)] = p.targets(None)
    assert at == -3.0


def test_au_q15_cubes_are_colours_never_the_own(hb):
    """AU-Q15: the cube is the colour (owner) of the winning nation; a conquest by the
    nation's own colour adds none."""
    s = hb.game(players=3)
    a, b, c = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-slecht")
    n = hb.nation(s, 0, {a: 1, b: 1, c: 1})
    sib = hb.nation(s, 0, {hb.a("mag-adair"): 1})
    foe = hb.nation(s, 2, {hb.a("eas-ruaidh"): 1})
    mem = Memory()
    mem.observe(Look(s.view(0)), "hb.move")
    s.remove_units(n, a, 1)
    s.add_units(sib, a, 1)
    s.remove_units(n, b, 1)
    s.add_units(foe, b, 1)
    added = mem.observe(Look(s.view(0)), "hb.move")
    assert added == [(n.id, 2, b)] and mem.sheets[n.id].cubes == {2: 1}


def test_au_q16_only_a_taken_space_is_a_won_battle(hb):
    """AU-Q16: a space left empty (both sides fell, or the defender retreated and nobody
    took it) is no won attack: no cube."""
    s = hb.game(players=2)
    a, b = hb.a("tir-tairngire"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {a: 1, b: 1})
    hb.nation(s, 1, {hb.a("findias"): 1})
    mem = Memory()
    mem.observe(Look(s.view(0)), "hb.move")
    s.remove_units(n, a, 1)
    assert mem.observe(Look(s.view(0)), "hb.move") == []
    assert mem.sheets[n.id].cubes == {}


def test_au_q17_one_cube_removal_per_nation_turn(hb):
    """AU-Q17: the cube removal is once per nation turn, not again in a Strong leader's
    second movement phase."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 2, "dun-ailinne": 1})
    hb.nation(s, 1, {"findias": 1})
    s.current = n.id
    bot = make_bot(3)
    m = bot.memory.sheet(n.id, s.turn)
    m.tr, m.cubes, m.cube_turn = 3, {1: 3}, s.turn - 1
    for k in (1, 2):
        hb.run(s, ("movement_phase", n.id, k))
        ask(bot, s)
    assert m.cubes == {1: 2}
    assert bot.phase.k == 2


def test_au_q18_special_rule_b_steers_away_from_siblings(hb):
    """AU-Q18: with a sibling's lone army and an enemy's lone army side by side, the bot
    attacks the enemy (AT 0 against −3)."""
    s = hb.game(players=3)
    home, sib, prey = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 5})
    hb.nation(s, 0, {sib: 1})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [home, sib, prey], per_area=2)
    bot = make_bot()
    prime(bot, s, n, 6)
    keys = move_phase(hb, bot, s, n)
    assert keys[0] == hb.mv(home, prey)
    assert all(src_dst(hb, k)[1] != sib for k in keys if ">" in k)


def test_au_q19_overstacked_means_more_than_two_or_at_sea(hb):
    """AU-Q19: "overstacked" spaces (armies leave them first) hold more than two armies;
    the sea counts as overstacked (AU-Q4)."""
    s = hb.game(players=2)
    a, b, c = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-slecht")
    n = hb.nation(s, 0, {a: 3, b: 2, hb.a("muir-lir"): 1, c: 1})
    p = planner_for(make_bot(), s, n)
    assert p.overstacked(a) and not p.overstacked(b) and p.overstacked(hb.a("muir-lir"))
    target = hb.a("mag-adair")  # next to Mag Slécht and Tír Tairngire, two from Dún Ailinne
    order = p.source_order(target, [b, a])
    assert order == [a, b]


def test_au_q20_overpopulation_attacks_the_lowest_dv(hb):
    """AU-Q20 (§3.2.4): a nation above its §6.4 support limit with no attack reaching its MO
    attacks the space of lowest DV with its free armies."""
    s = hb.game(players=3)
    home, side, prey = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 5, side: 1})  # 6 armies, support for 4
    hb.nation(s, 1, {prey: 2})
    fill(hb, s, 2, [home, side, prey], per_area=2)
    bot = make_bot(level="easy")  # normal buys 4 v 2 (100%) as an ordinary attack at TR 1
    prime(bot, s, n, 1)  # MO against DV 2 is 4.5: five armies, only four are free
    keys = move_phase(hb, bot, s, n)
    assert keys[-1] == "fight" and len(keys) == 5
    targets = {src_dst(hb, k)[1] for k in keys[:-1]}
    assert len(targets) == 1
    t = targets.pop()
    assert hb.board.terrain[t] == "plains" and s.battle[AU] == 4
    assert any("overpopulated (6 armies, support 4)" in x for _, x in bot.explanations)


def test_au_q21_placement_by_vp_armies_then_dv_per_army(hb):
    """AU-Q21: VP, fewest armies, then the space where an army defends worst: plains
    before forest before hills for a troll (its hills are its mountains twice over)."""
    s = hb.game(players=2)
    hills, forest, plains = hb.a("cnoc-na-sul"), hb.a("coill-cuilinn"), hb.a("gorias")
    n = hb.nation(s, 0, {hills: 1, forest: 1, plains: 2})
    n.race = "troll"
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    hb.run(s, ("place", n.id, 1, 0, 1))
    assert ask(bot, s) == hb.id(forest)
    n.units[plains] = 1
    assert ask(bot, s) == hb.id(plains)


def test_au_q22_the_furthest_armies_move_first(hb):
    """AU-Q22: distance is counted in map steps; the army two steps away goes before the
    one next door (both spaces overstacked)."""
    s = hb.game(players=3)
    near, far, prey = hb.a("tir-tairngire"), hb.a("dun-ailinne"), hb.a("mag-adair")
    n = hb.nation(s, 0, {near: 3, far: 3})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [near, far, prey], per_area=2)
    d = distances(hb.board)
    assert d[far][prey] == 2 and d[near][prey] == 1
    bot = make_bot()
    prime(bot, s, n, 5)
    keys = move_phase(hb, bot, s, n)
    assert keys == [hb.mv(far, prey), hb.mv(near, prey), "fight"]  # far is no longer overstacked


def test_au_q23_no_space_emptied_and_no_target_off_the_nation(hb):
    """AU-Q23: a space's last army never moves (condition (a) never holds: every space
    scores); a target must join the nation's land (§6.4 integrity)."""
    s = hb.game(players=2)
    home, lone = hb.a("tir-tairngire"), hb.a("findias")
    sea = hb.a("muir-lir")
    n = hb.nation(s, 0, {home: 1, sea: 2})
    p = planner_for(make_bot(), s, n)
    p.keys.rows = {home: 1 << hb.a("mag-adair"), sea: (1 << hb.a("tir-na-mbeo")) | (1 << hb.a("dun-ailinne"))}
    assert p.movers(home) == 0 and p.movers(sea) == 2
    assert p.linked(hb.a("dun-ailinne")) and not p.linked(hb.a("tir-na-mbeo"))
    assert [t[3] for t in p.targets(None)] == [hb.a("dun-ailinne")]
    assert not p.linked(lone)


def test_au_q24_empty_spaces_take_one_army_each(hb):
    """AU-Q24: arriving from the sea, the nation spreads one army to each empty space."""
    s = hb.game(players=2)
    sea = hb.a("muir-lir")
    n = hb.nation(s, 0, {sea: 5})
    hb.nation(s, 1, {"findias": 1})
    bot = make_bot()
    prime(bot, s, n, 3)
    keys = move_phase(hb, bot, s, n, until_fight=False)
    assert len(keys) == 5 and len({src_dst(hb, k)[1] for k in keys}) == 5
    assert sorted(n.units.values()) == [1, 1, 1, 1, 1]
    assert all(not hb.board.is_sea[a] for a in n.units)


def test_au_q25_defender_retreats_all_unwounded_to_one_space(hb):
    """AU-Q25: a retreat takes every unwounded army to the one space the §4.2 list picks;
    the wounded stay."""
    s = hb.game(players=2)
    home, base = hb.a("tir-tairngire"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {home: 3, hb.a("mag-slecht"): 1})
    enemy = hb.nation(s, 1, {base: 6})
    s.current = enemy.id
    hb.run(s, ("move", enemy.id, 1))
    for _ in range(4):
        hb.answer(s, hb.mv(base, home))
    s.dice.push(6, 1, 1, 1, 1, 1, 1)  # one hit wounds a defender; the defenders miss
    s.dice.push(6, 1, 1, 1, 1)  # next round: the wounded defender falls
    d = hb.answer(s, "fight")
    assert d.kind == "hb.retreat" and d.player == 0
    bot = make_bot(6)
    prime(bot, s, n, 3)
    dests = []
    while d is not None and d.kind == "hb.retreat" and d.player == 0:
        k = ask(bot, s)
        dests.append(k)
        d = hb.answer(s, k)
    assert len(dests) == 2 and len(set(dests)) == 1
    assert n.units[hb.a(dests[0])] >= 2 and s.area_nation[home] == enemy.id


def test_au_q25_attacker_with_only_wounds_does_not_check(hb):
    """AU-Q25, §4.1.1: the attacker checks only after losing an army; a wound is no loss
    (the bot rolls no die: its script is empty)."""
    s, n, e1, e2, home, a1, a2 = hemmed_in(hb)
    s.add_units(e1, a1, 2)
    s.add_units(e2, a2, 1)
    bot = make_bot()
    prime(bot, s, n, 7)  # MO = DV 2: two armies
    keys = move_phase(hb, bot, s, n)
    assert keys == [hb.mv(home, a2)] * 2 + ["fight"]
    s.dice.push(1, 1, 6, 1)  # the attackers miss; one of them is wounded
    d = hb.answer(s, "fight")
    while d is not None and d.player != 0:
        d = hb.answer(s, "stay")
    assert d.kind == "hb.retreat" and s.battle[AW] == 1 and s.battle[AU] == 1
    assert ask(bot, s) == "stay"
    assert not any("retreat check" in x for _, x in bot.explanations)


def test_au_q26_retreat_modifier_signs():
    """AU-Q26: staying modifiers are −1, fleeing +1; Hy Breasil's constant two cancel."""
    c = T.retreat_check(3, 2.0, 2.0, space_pvpv=1)
    assert dict(c.modifiers) == {"space has a PVPV": -1, "strength": 0, "kills give no VP": 1}
    assert dict(T.retreat_check(3, 2.0, 2.0, space_pvpv=0).modifiers)["space has no PVPV"] == 1
    assert c.total == 3 and not c.passed


def test_au_q27_submission_checked_before_the_battle(hb):
    """AU-Q27: the check is rolled at the §9.2 offer before the battle; a nation never
    submits to a smaller one; a last space adds 5."""
    s = hb.game(players=2, rules=["submission"])
    mine = hb.nation(s, 0, {"tir-tairngire": 1})
    att = hb.nation(s, 1, {"dun-ailinne": 4, "eas-ruaidh": 1, "mag-slecht": 1})
    s.current = att.id
    hb.run(s, ("move", att.id, 1))
    hb.answer(s, hb.mv("dun-ailinne", "tir-tairngire"))
    d = hb.answer(s, "fight")
    assert d.kind == "hb.submit" and d.player == 0
    bot = make_bot(1)
    prime(bot, s, mine, 2)
    assert ask(bot, s) == "submit"  # d6 1 +2 areas +1 TR 2 +5 last space = 9
    big = hb.nation(s, 0, {a: 1 for a in ("findias", "mag-luirg", "murias", "crich-cualann")})
    look = Look(s.view(0))
    assert not T.submission_possible(look.nations[big.id].areas, look.nations[att.id].areas)


def test_au_q28_no_population_grant_and_no_enemy_transfer(hb):
    """AU-Q28: §4.3.1 is dropped: a submission leaves the submitted nation's cubes and
    Mortal Enemy as they were."""
    s = hb.game(players=2, rules=["submission"])
    mine = hb.nation(s, 0, {"tir-tairngire": 1})
    att = hb.nation(s, 1, {"dun-ailinne": 4, "eas-ruaidh": 1})
    s.current = att.id
    hb.run(s, ("move", att.id, 1))
    hb.answer(s, hb.mv("dun-ailinne", "tir-tairngire"))
    hb.answer(s, "fight")
    bot = make_bot(6)
    m = prime(bot, s, mine, 2, cubes={1: 1})
    assert ask(bot, s) == "submit"
    hb.answer(s, "submit")
    assert mine.master == att.id
    bot.memory.observe(Look(s.view(0)), "hb.move")
    assert m.cubes == {1: 1} and bot.mortal_enemy(mine.id) == 1


def test_au_q29_weak_leader_takes_empty_land_but_never_attacks(hb):
    """AU-Q29: under Weak leader the nation still takes empty spaces (no combat) and moves
    defensively; it never enters another nation's land."""
    s = hb.game(players=2)
    home = hb.a("tir-tairngire")
    n = hb.nation(s, 0, {home: 6})
    hb.nation(s, 1, {"mag-adair": 1, "dun-ailinne": 1})
    n.weak = True
    bot = make_bot()
    prime(bot, s, n, 7)
    keys = move_phase(hb, bot, s, n, until_fight=False)
    dests = [src_dst(hb, k)[1] for k in keys if ">" in k]
    assert keys[-1] == "done" and dests
    assert all(s.area_nation[x] == n.id for x in dests)
    assert "fight" not in keys


def test_au_q29_strong_leader_plans_its_second_phase_afresh(hb):
    """AU-Q29: the second movement phase starts a new plan: offensive actions again."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 4})
    hb.nation(s, 1, {"findias": 1})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    hb.run(s, ("movement_phase", n.id, 1))
    ask(bot, s)
    phase1 = bot.phase
    assert phase1.k == 1
    d = hb.run(s, ("movement_phase", n.id, 2))
    assert "second phase" in d.prompt and d.info["phase"] == 2
    k = ask(bot, s)
    assert bot.phase is not phase1 and bot.phase.k == 2 and bot.phase.mode == "offence"
    assert ">" in k


def test_au_q30_the_bot_never_rolls_the_games_dice(hb):
    """AU-Q30: the bot's rolls and ties come from its own seeded dice; the state's scripted
    dice are untouched, and the same seed answers the same."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 4})
    hb.nation(s, 1, {"mag-adair": 1})
    s.current = n.id
    hb.run(s, ("movement_phase", n.id, 1))
    before = list(s.dice.calls)
    answers = {ask(AutoBot(42), s) for _ in range(3)}
    assert len(answers) == 1 and s.dice.calls == before
    a = GAME.new_game({"players": 2, "turns": 3}, 8)
    b = GAME.new_game({"players": 2, "turns": 3}, 8)
    play(a, [AutoBot(1), AutoBot(2)])
    play(b, [AutoBot(1), AutoBot(2)])
    assert a.answers == b.answers


def test_au_q31_leaders_raiders_and_kings_are_dropped():
    """AU-Q31: no leader, raiding or king terms anywhere in the arithmetic."""
    assert set(inspect.signature(T.change_tr).parameters) == {"tr", "roll", "deadpile", "invasion", "scoring"}
    assert set(inspect.signature(T.dv).parameters) == {"defenders", "rough", "race_bonus", "city"}
    assert set(inspect.signature(T.retreat_check).parameters) == {"roll", "mine", "theirs", "space_pvpv", "kills_give_vp",
                                                                  "strength"}


def test_au_q32_a_seats_nations_act_on_their_own_sheets(hb):
    """AU-Q32: each nation of a seat has its own TR, cubes and deadpile."""
    s = hb.game(players=2)
    a = hb.nation(s, 0, {"tir-tairngire": 2})
    b = hb.nation(s, 0, {"findias": 2})
    hb.nation(s, 1, {"mag-adair": 1})
    bot = make_bot()
    prime(bot, s, a, 1, cubes={1: 2})
    prime(bot, s, b, 6)
    assert bot.tr_of(a.id) == 1 and bot.tr_of(b.id) == 6
    assert bot.mortal_enemy(a.id) == 1 and bot.mortal_enemy(b.id) is None


# -- preference lists for decisions the solitaire rules never face (AUTO.md) -----------------------
def decide(bot: AutoBot, s, player: int, kind: str, keys, prompt: str = "", info: dict | None = None) -> str:
    d = Decision(player, kind, tuple(keys), prompt, info=info)
    return d.keys[bot.choose(d, lambda: s.view(player))]


def test_hit_allocation_kills_first():
    """Phase IV: the fewest armies left, then the least health."""
    bot = make_bot()
    d = Decision(0, "hb.assign-hits", ("u1w1", "u0w3", "u2w0", "u1w0"), "")
    assert bot.assign_hits(d, None) == "u1w0"
    d = Decision(0, "hb.assign-hits", ("u1w0", "u0w1"), "")
    assert bot.assign_hits(d, None) == "u0w1"


def test_entry_sea_most_attractive_landing_away_from_own_colour(hb):
    """§5: the sea whose reachable spaces add up to the most AT; −2 per space of the own
    colour in reach (Special Rule B)."""
    s = hb.game(players=2)
    fill(hb, s, 1, [a for a in hb.land() if a in hb.coast(hb.a("muir-lir")) or a in hb.coast(hb.a("tonn-rudraige"))])
    mine = hb.nation(s, 0, {"tir-na-mbeo": 1})
    bot = make_bot()
    key = decide(bot, s, 0, "hb.entry-sea", ("muir-lir", "tonn-rudraige", "muir-fomoire"), "(7 units)")
    assert key == "muir-lir" or key == "tonn-rudraige"
    s.add_units(mine, hb.a("mag-breg"), 1)
    s.add_units(mine, hb.a("mag-mell"), 1)
    # Tonn Rudraige now reaches three own spaces, Muir Lir one
    assert decide(bot, s, 0, "hb.entry-sea", ("muir-lir", "tonn-rudraige"), "(7 units)") == "muir-lir"


def test_nation_limit_relinquishes_a_weaker_nation_or_refuses(hb):
    """§5.3: relinquish the own nation of lowest PVPV if the new one promises more."""
    s = hb.game(players=2)
    small = hb.nation(s, 0, {"findias": 1})
    big = hb.nation(s, 0, {a: 1 for a in ("tir-tairngire", "dun-ailinne", "mag-slecht", "mag-adair", "eas-ruaidh")})
    new = s.create_nation()
    bot = make_bot()
    keys = ("refuse", f"relinquish:{small.id}", f"relinquish:{big.id}")
    prompt = f"P1 is at the nation limit (2): refuse the {new.name}, or relinquish a nation for it?"
    info = {"nation": new.id, "limit": 2}
    assert decide(bot, s, 0, "hb.nation-limit", keys, prompt, info) == f"relinquish:{small.id}"
    for a in ("mag-luirg", "murias", "crich-cualann", "achadh-abhla"):
        s.add_units(small, hb.a(a), 1)
    assert decide(bot, s, 0, "hb.nation-limit", keys, prompt, info) == "refuse"


def test_removals_take_from_the_biggest_stack_never_the_last_army(hb):
    """Support limit, civilization token, plague: §1.1 read backwards — never a space's last
    army if avoidable, the lowest PVPV, the most armies, rough before plain."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 3, "doire-calgaich": 3, "dun-ailinne": 1})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    keys = ("tir-tairngire", "doire-calgaich", "dun-ailinne")
    for kind in ("hb.support-remove", "hb.civ-token-from-board", "hb.plague-own"):
        assert decide(bot, s, 0, kind, keys) == "doire-calgaich", kind
    n.capital = hb.a("doire-calgaich")
    assert decide(bot, s, 0, "hb.support-remove", keys) == "tir-tairngire"


def test_plague_spreads_to_enemies_mortal_enemy_first_never_own_colour(hb):
    """Plague: never the own colour; the Mortal Enemy's armies first; else the fewest."""
    s = hb.game(players=3)
    n = hb.nation(s, 0, {"tir-tairngire": 3})
    hb.nation(s, 0, {"dun-ailinne": 1})
    hb.nation(s, 1, {"mag-adair": 2})
    hb.nation(s, 2, {"mag-slecht": 3})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    keys = ("stop", "dun-ailinne", "mag-adair", "mag-slecht")
    assert decide(bot, s, 0, "hb.plague-neighbour", keys) == "mag-adair"
    bot.memory.sheets[n.id].cubes = {2: 1}
    assert decide(bot, s, 0, "hb.plague-neighbour", keys) == "mag-slecht"
    assert decide(bot, s, 0, "hb.plague-neighbour", ("stop", "dun-ailinne")) == "stop"


def test_civil_war_gives_away_the_weakest_spaces(hb):
    """Civil war: the breakaway gets the lowest PVPV, fewest armies, rough before plains."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 3, "doire-calgaich": 1, "dun-ailinne": 1, "mag-slecht": 2})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    keys = ("tir-tairngire", "doire-calgaich", "dun-ailinne", "mag-slecht")
    assert decide(bot, s, 0, "hb.civil-war-area", keys) == "doire-calgaich"


def test_keep_part_keeps_the_most_vp(hb):
    """§6.4 tie in units: keep the part worth more VP next round."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 2, "findias": 1, "mag-luirg": 1})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    assert decide(bot, s, 0, "hb.keep-part", ("findias", "tir-tairngire")) == "findias"


def test_abilities_capital_and_cities(hb):
    """§9.3: Capital first; the capital goes where a leader would (most armies); a city is
    built only as overpopulation relief."""
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {"tir-tairngire": 4, "doire-calgaich": 2})
    s.current = n.id
    bot = make_bot()
    prime(bot, s, n, 3)
    assert decide(bot, s, 0, "hb.ability", ("navigation", "taxation", "capital")) == "capital"
    assert decide(bot, s, 0, "hb.ability", ("navigation", "prophecy", "taxation")) == "taxation"
    assert decide(bot, s, 0, "hb.capital", ("tir-tairngire", "doire-calgaich")) == "tir-tairngire"
    assert decide(bot, s, 0, "hb.city", ("done", "tir-tairngire")) == "done"  # 6 armies, support 4
    s.add_units(n, hb.a("tir-tairngire"), 1)
    assert decide(bot, s, 0, "hb.city", ("done", "tir-tairngire")) == "tir-tairngire"  # 7: 3 too many


def test_diplomacy_refuses_the_mortal_enemy(hb):
    """§9.3.1 Diplomacy: refused to the Mortal Enemy's colour, granted otherwise."""
    s = hb.game(players=3, rules=["abilities"])
    mine = hb.nation(s, 0, {"tir-tairngire": 2})
    asker = hb.nation(s, 1, {"findias": 2})
    bot = make_bot()
    prompt = f"The {asker.name} ask the {mine.name} for passage through their land."
    info = {"asker": asker.id, "nation": mine.id}
    assert decide(bot, s, 0, "hb.diplomacy", ("grant", "refuse"), prompt, info) == "grant"
    bot.memory.sheet(mine.id, s.turn).cubes = {1: 1}
    assert decide(bot, s, 0, "hb.diplomacy", ("grant", "refuse"), prompt, info) == "refuse"


def test_excess_nation_gives_up_the_least_valuable(hb):
    """§10.1: give up the nation of lowest PVPV, then fewest armies."""
    s = hb.game(players=2)
    a = hb.nation(s, 0, {"tir-tairngire": 2, "dun-ailinne": 1})
    b = hb.nation(s, 0, {"findias": 3})
    bot = make_bot()
    assert decide(bot, s, 0, "hb.excess-nation", (f"give:{a.id}", f"give:{b.id}")) == f"give:{b.id}"


# -- the recalibration for Hy Breasil (level normal) and the levels ------------------------
def test_au_q33_each_or_buys_the_chance_it_bought_in_britannia():
    """AU-Q33: a TR's worst OR is read as Britannia's chance of taking two plain defenders
    with DV + OR armies (Eggert's own example); bolder TRs accept less, TR 3 and 4 alike."""
    chances = [T.or_chance(tr) for tr in range(8)]
    assert chances == sorted(chances, reverse=True) and chances[3] == chances[4]
    assert T.or_chance(3) == pytest.approx(britannia_chance(3.5, 2))
    assert T.or_chance(7) == pytest.approx(britannia_chance(2, 2)) and T.or_chance(7) < 0.5


def lone_defender(hb):
    """Three players; seat 0's nation with 5 armies at Tir Tairngire beside a lone plain
    defender at Mag Adair: (state, nation, home, prey)."""
    s = hb.game(players=3)
    home, prey = hb.a("tir-tairngire"), hb.a("mag-adair")
    n = hb.nation(s, 0, {home: 5})
    hb.nation(s, 1, {prey: 1})
    fill(hb, s, 2, [home, prey], per_area=2)
    return s, n, home, prey


def test_au_q33_the_bot_buys_the_chance_with_the_fewest_armies(hb):
    """AU-Q33: at TR 5 (82%) two armies take a lone plain defender (97%); at TR 1 (98%)
    two fall short and three go."""
    for tr, sent in ((5, 2), (1, 3)):
        s, n, home, prey = lone_defender(hb)
        bot = make_bot()
        prime(bot, s, n, tr)
        keys = move_phase(hb, bot, s, n)
        assert keys == [hb.mv(home, prey)] * sent + ["fight"], tr
        assert any(f"TR {tr} wants {T.or_chance(tr):.0%}" in x for _, x in bot.explanations)


def test_au_q39_an_attack_the_bot_did_not_plan_gets_the_armies_of_its_own(hb):
    """AU-Q39: the first army sent by someone else (a search choosing for the seat), the bot
    sends the armies it would give its own attack (AU-Q33: at TR 1, three against a lone
    plain defender), not a battle of the one army there."""
    for tr, sent in ((5, 2), (1, 3)):
        s, n, home, prey = lone_defender(hb)
        s.current = n.id
        hb.run(s, ("movement_phase", n.id, 1))
        hb.answer(s, hb.mv(home, prey))
        bot = make_bot()
        prime(bot, s, n, tr)
        keys = [ask(bot, s)]
        while keys[-1] != "fight" and len(keys) < 10:
            hb.answer(s, keys[-1])
            keys.append(ask(bot, s))
        assert keys == [hb.mv(home, prey)] * (sent - 1) + ["fight"], tr


def test_au_q12_recalibrated_change_roll_pulls_to_moderate():
    """AU-Q12 (normal): +1 below moderate (3–4), −1 above, −1 more after heavy losses; the
    scoring round's rise comes first, Eggert's bands read the total."""
    assert T.change_tr_recalibrated(6, 3, 0).after == 5      # 3 − 1 = 2: down
    assert T.change_tr_recalibrated(2, 4, 0).after == 3      # 4 + 1 = 5: up
    assert T.change_tr_recalibrated(4, 3, 3).after == 3      # 3 − 1 (losses) = 2: down
    ch = T.change_tr_recalibrated(4, 4, 0, scoring=True)
    assert (ch.raised, ch.modifier, ch.after) == (5, -1, 5)
    assert T.change_tr_recalibrated(4, 1, 0, invasion=True).after == 4


def test_au_q12_recent_dead_halves_each_nation_turn(hb):
    """AU-Q12 (normal): the losses that count are the recent ones, halved at every change roll."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 2})
    s.current = n.id
    bot = make_bot(3)
    m = bot.memory.sheet(n.id, s.turn)
    m.tr, m.recent = 4, 4.0
    bot.look = Look(s.view(0))
    bot.start_nation_turn(bot.look.nations[n.id], Decision(0, "hb.move", (), ""))
    assert m.tr == 3 and m.recent == 2.0  # d6 3 − 1 (heavy losses) = 2: down


def test_au_q13_normal_pvpv_adds_pips_denial_and_the_leader(hb):
    """AU-Q13 (normal): an area is worth its VP, its PIPs as a share of a unit (§6.2),
    and against a rival the VP denied them (+0.5, +0.5 more for the leader); a sibling's
    area still gains the seat nothing (AU-Q14)."""
    s = hb.game(players=2)
    home, prey, sib = hb.a("tir-tairngire"), hb.a("mag-adair"), hb.a("dun-ailinne")
    n = hb.nation(s, 0, {home: 3})
    hb.nation(s, 1, {prey: 1})
    hb.nation(s, 0, {sib: 1})
    p = planner_for(make_bot(), s, n)
    empty = hb.a("mag-slecht")
    assert p.pvpv(empty) == pytest.approx(1 + hb.board.pips[empty] / 7)
    assert p.pvpv(prey) == pytest.approx(1 + hb.board.pips[prey] / 7 + 0.5 + 0.5)  # the only rival leads
    assert p.pvpv(sib) == 0


def test_au_q26_normal_retreat_check_reads_the_exact_odds(hb):
    """AU-Q26 (normal): the strength modifier comes from the exact chance of holding the
    area; an even battle keeps Eggert's coin flip.  Two unhurt and a wounded defender
    against four: as written (easy) a 1 stays (strength +2), on the odds (normal) it goes."""
    assert T.odds_modifier(0.5) == 0 and T.odds_modifier(1.0) == -T.ODDS_CAP and T.odds_modifier(0.0) == T.ODDS_CAP
    assert T.odds_modifier(0.7) < 0 < T.odds_modifier(0.3)
    answers = {}
    for level in ("easy", "normal"):
        s = hb.game(players=2)
        home, base = hb.a("tir-tairngire"), hb.a("dun-ailinne")
        n = hb.nation(s, 0, {home: 3, hb.a("mag-slecht"): 1})
        enemy = hb.nation(s, 1, {base: 6})
        s.current = enemy.id
        hb.run(s, ("move", enemy.id, 1))
        for _ in range(4):
            hb.answer(s, hb.mv(base, home))
        s.dice.push(6, 1, 1, 1, 1, 1, 1)  # one hit wounds a defender; the defenders miss
        d = hb.answer(s, "fight")
        assert d.kind == "hb.retreat" and d.player == 0
        bot = make_bot(1, level=level)
        prime(bot, s, n, 3)
        answers[level] = ask(bot, s)
    assert answers["easy"] == "stay" and answers["normal"] != "stay"


def test_au_q34_retreats_keep_the_nation_joined(hb):
    """AU-Q34 (normal): a retreat goes to the nation's own land before empty land, however
    many friendly neighbours the empty space has (§6.4)."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {"tir-tairngire": 2, "dun-ailinne": 1})
    enemy = hb.nation(s, 1, {"eas-ruaidh": 1, "dun-delgan": 1, "mag-adair": 1, "doire-calgaich": 1})
    s.remove_units(enemy, hb.a("mag-adair"), 1)
    cands = [hb.a("dun-ailinne"), hb.a("mag-slecht")]
    look = Look(s.view(0))
    assert make_bot(level="easy").retreat_destination(look, look.nations[n.id], cands) == hb.a("mag-slecht")
    assert make_bot().retreat_destination(look, look.nations[n.id], cands) == hb.a("dun-ailinne")


def first_landings(level: str, seed: int) -> list[str]:
    """The seas the four first-turn nations of a 4-auto game land in."""
    s = GAME.new_game({"players": 4, "turns": 2}, seed)
    bots = [AutoBot(bot_seed(seed, k), level=level) for k in range(4)]
    seas = []
    while len(seas) < 4:
        d = s.pending()[0]
        i = bots[d.player].choose(d, lambda: s.view(d.player))
        if d.kind == "hb.entry-sea":
            seas.append(d.keys[i])
        s.apply_index(d.player, i)
    return seas


def test_au_q35_first_landings_spread():
    """AU-Q35 (normal): land others at sea already reach counts a third, so the four
    first-turn nations no longer all pick the same sea (as written they always did)."""
    easy = [len(set(first_landings("easy", seed))) for seed in range(4)]
    normal = [len(set(first_landings("normal", seed))) for seed in range(4)]
    assert easy == [1, 1, 1, 1]
    assert min(normal) >= 2 and sum(normal) >= 10


def test_au_q36_new_units_guard_the_threatened_space(hb):
    """AU-Q36 (normal): among equal spaces the one enemy armies border gets the new unit
    (its VP is the one at stake); as written (easy) the plain comes first."""
    s = hb.game(players=2)
    plain = hb.of_terrain("plains")
    nbr = hb.board.nbr_mask
    apart = [a for a in hb.of_terrain("hills", "forest") if not nbr[a] & nbr[plain[0]] and not nbr[a] >> plain[0] & 1]
    threatened, foe_area = next((a, b) for a in apart for b in hb.board.nbrs[a]
                                if not hb.board.is_sea[b] and not nbr[b] >> plain[0] & 1 and b != plain[0])
    n = hb.nation(s, 0, {plain[0]: 1, threatened: 1})
    hb.nation(s, 1, {foe_area: 2})
    s.current = n.id
    for level, want in (("easy", plain[0]), ("normal", threatened)):
        bot = make_bot(level=level)
        prime(bot, s, n, 3)
        hb.run(s, ("place", n.id, 1, 0, 1))
        look = Look(s.view(0))
        assert bot.threat(look, threatened) == 2 and bot.threat(look, plain[0]) == 0
        assert ask(bot, s) == hb.id(want), level


def test_levels_are_named_and_checked():
    """Difficulty: easy is the system as written (TR 0–7), normal the recalibration within
    TR 1–6 (AU-Q12), hard normal with retreats on the odds alone (AU-Q37) and the best
    OR's chance (AU-Q38); an unknown level is an error naming the known ones."""
    assert AutoBot(1).level.name == "normal"
    easy = AutoBot(1, level="easy").level
    assert not (easy.odds or easy.recent_dead or easy.real_retreat or easy.hb_value or easy.guard)
    normal = AutoBot(1).level
    assert normal.tr_band == (1, 6) and not (normal.sure_retreat or normal.best_or)
    assert easy.tr_band == (0, 7)
    hard = AutoBot(1, level="hard").level
    assert hard.tr_band == (1, 6) and hard.sure_retreat and hard.odds and hard.best_or
    with pytest.raises(ValueError, match="unknown auto level 'silly' .*easy, normal, hard"):
        AutoBot(1, level="silly")


def test_levels_through_bots_parameters():
    """``--bots auto:level=hard`` reaches the bot through the runner's bot parameters; a bad
    level is the runner's clear error, naming the levels."""
    from realms.core.game import OptionError
    from realms.sim.runner import make_bots

    bots = make_bots(GAME, ["auto:level=hard", "auto", "greedy", "auto:level=easy"], 4, 1)
    assert [getattr(b, "level").name for b in bots] == ["hard", "normal", "easy", "easy"]
    assert [b.name for b in bots] == ["auto", "auto", "greedy", "auto"]
    with pytest.raises(OptionError, match="unknown auto level 'silly'.*easy, normal, hard"):
        make_bots(GAME, ["auto:level=silly"], 2, 1)


def test_au_q12_normal_holds_the_tr_within_one_to_six(hb):
    """AU-Q12 (normal, hard): the change roll cannot reach TR 7
    (suicidal: 46%, attacks at under even odds) nor TR 0; easy keeps Eggert's 0–7."""
    for level, start, roll, after in (("normal", 6, 6, 6), ("normal", 1, 1, 1), ("hard", 6, 6, 6),
                                      ("easy", 6, 6, 7)):
        s = hb.game(players=2)
        n = hb.nation(s, 0, {"tir-tairngire": 2})
        s.current = n.id
        bot = make_bot(roll, level=level)
        m = bot.memory.sheet(n.id, s.turn)
        m.tr = start
        bot.look = Look(s.view(0))
        bot.start_nation_turn(bot.look.nations[n.id], Decision(0, "hb.move", (), ""))
        assert m.tr == after, level


def test_au_q20_normal_refuses_an_overpopulation_attack_at_poor_odds(hb):
    """AU-Q20 (normal; §3.2.4, HB §6.3.1): five armies on two areas (support four), every
    neighbour held by three: easy sends its three free armies in at 3 v 3 (47% on plains,
    less in the hills); normal refuses an attack under even odds and moves defensively,
    leaving the support phase (HB §6.4) to take the one army too many."""
    for level in ("easy", "normal"):
        s = hb.game(players=3)
        home, side = hb.a("tir-tairngire"), hb.a("dun-ailinne")
        n = hb.nation(s, 0, {home: 4, side: 1})
        around = hb.board.nbr_mask[home] | hb.board.nbr_mask[side]
        for other in fill(hb, s, 1, [home, side], per_area=2):
            for a in list(other.units):
                if (around >> a) & 1:
                    s.add_units(other, a, 1)  # every neighbour holds three
        bot = make_bot(level=level)
        prime(bot, s, n, 1)
        keys = move_phase(hb, bot, s, n)
        if level == "easy":
            assert keys[-1] == "fight" and len(keys) == 4
            assert s.battle[AU] == 3
        else:
            assert "fight" not in keys
            assert all(src_dst(hb, k)[1] in (home, side) for k in keys if ">" in k)
            assert not any("overpopulated" in x for _, x in bot.explanations)


def test_au_q38_hard_buys_the_best_or_when_the_armies_are_there(hb):
    """AU-Q38 (hard; "Explanation of Odds": the OR runs from worst to best): at TR 3 two
    plain defenders want 89% (worst OR 1.5) — normal sends three (93%) — and hard, with
    five free armies, buys the best OR's 96%: four (100%)."""
    for level, sent in (("normal", 3), ("hard", 4)):
        s = hb.game(players=3)
        home, prey = hb.a("tir-tairngire"), hb.a("mag-adair")
        n = hb.nation(s, 0, {home: 6})
        hb.nation(s, 1, {prey: 2})
        around = hb.board.nbr_mask[home]
        for other in fill(hb, s, 2, [home, prey], per_area=2):
            for a in list(other.units):
                if (around >> a) & 1:
                    s.add_units(other, a, 1)  # the other neighbours hold three: the prey is the target
        bot = make_bot(level=level)
        prime(bot, s, n, 3)
        keys = move_phase(hb, bot, s, n)
        assert keys == [hb.mv(home, prey)] * sent + ["fight"], level
