"""The chronicle tells the game: what people read, and what the history page and the
reports are made of.  Two seeded games with random bots — the basic game, and all the
advanced rules (§9) for Prophecy and submission — are read line by line."""

from __future__ import annotations

import re

import pytest

from realms.core.game import games
from realms.sim.runner import make_bots

#: (options, seed): the basic game has Civilization VP (§6.1); the advanced one prophecies
GAMES = [({}, 1), ({"rules": ["races", "submission", "abilities"]}, 1)]
#: random bots fight more and more recklessly than auto: every kind of line turns up
BOTS = "random"


def _play(options: dict, seed: int):
    """Play a seeded game with random bots; the state and every decision's prompt."""
    game = games()["hy-breasil"]
    state = game.new_game(options, seed)
    agents = make_bots(game, [BOTS], len(state.result()["players"]), seed)
    prompts = []
    while state.pending():
        d = state.pending()[0]
        prompts.append((d.kind, d.prompt))
        state.apply_index(d.player, agents[d.player].choose(d, lambda: state.view(d.player)))
    return state, prompts


@pytest.fixture(scope="module")
def played():
    return [_play(options, seed) for options, seed in GAMES]


def _reached(events) -> dict[str, int]:
    """Who the chronicle last saw arrive in each land area."""
    seen: dict[str, int] = {}
    for e in events:
        d = e.data
        if e.kind == "expansion":
            seen.update(dict.fromkeys(d["areas"], d["nation"]))
        elif e.kind == "battle-result" and d["winner"] == "attacker":
            seen[d["area"]] = d["nation"]
        elif e.kind in ("civil-war", "nation-splits"):
            seen.update(dict.fromkeys(d["areas"], d["new_nation"]))
        elif e.kind in ("retreat", "withdraw"):
            seen.update(dict.fromkeys(d["to"], d["nation"]))
        elif e.kind == "withdraw-stay":
            seen.update(dict.fromkeys(d["areas"], d["nation"]))
        elif e.kind == "absorption":
            seen.update({a: d["master"] for a, n in seen.items() if n == d["nation"]})
    return seen


def test_the_chronicle_tells_the_game(played):
    """Each thing a reader of the chronicle was missing."""
    (basic, basic_prompts), (advanced, advanced_prompts) = played
    vanished = []  # nations that fell in a battle, told right after its result
    for state, prompts in played:
        ev = state.events
        texts = [e.text for e in ev]
        b = state.board
        # Land taken without a fight is told: every area a nation holds at the end, the
        # chronicle saw it arrive there; a landing names the sea and the areas taken.
        seen = _reached(ev)
        for n in state.nations.values():
            for a in state.land_areas(n):
                assert seen.get(b.ids[a]) == n.id, (n.name, b.names[a])
        shore = [e for e in ev if e.kind == "expansion" and e.data["seas"]]
        assert shore and all(" come ashore from " in e.text and " and take " in e.text for e in shore)
        # Runs of identical lines are one line with a count.
        for x, y in zip(ev, ev[1:]):
            assert (x.kind, x.text) != (y.kind, y.text), x.text
        runs = [e for e in ev if e.data.get("times", 1) > 1]
        assert runs and all(f"(×{e.data['times']})" in e.text for e in runs)
        # Grammar: one unit perishes, one hit is scored.
        for t in texts:
            assert not re.search(r"\b1 units\b|\b1 unit (perish|stay|arrive)\b|\b1 more units\b", t), t
        hits = [p for kind, p in prompts if kind == "hb.assign-hits"]
        assert not [p for p in hits if re.search(r"\bscored 1 hits\b", p)]
        assert [p for p in hits if " scored 1 hit on " in p]
        # A rerolled event says what was rolled; a prophesied one reads "foretold".
        assert not [t for t in texts if "rolled 0+" in t]
        for e in ev:
            if e.kind == "event-reroll":
                m = re.search(r"\(rolled (\d+)\+\d+\)|\(foretold\)", e.text)
                assert m and (m.group(1) is None or int(m.group(1)) == e.data["roll"]), e.text
        # "X vanished" comes after the result of the battle that caused it.
        fighting = False
        for e in ev:
            if e.kind in ("battle", "battle-result"):
                fighting = e.kind == "battle"
            assert not (fighting and e.kind == "nation-removed"), e.text
        vanished += [y for x, y in zip(ev, ev[1:]) if x.kind == "battle-result" and y.kind == "nation-removed"
                     and y.data["nation"] == x.data["defender"]]
        # "(+k)": the VP gained in the whole turn.
        before = [0] * len(state.names)
        for e in ev:
            if e.kind == "victory-points":
                shown = [int(k) for k in re.findall(r"\(\+(\d+)\)", e.text)]
                assert shown == [now - was for now, was in zip(e.data["vp"], before)], e.text
                before = e.data["vp"]
    assert [t for t in (e.text for e in basic.events) if re.search(r": 1 unit perishes\.$", t)]
    # Civilization's 5 VP come outside the victory points phase, and the line counts them
    assert [e for e in basic.events if e.kind == "victory-points" and e.data["turn_gained"] != e.data["gained"]]
    assert [e for e in advanced.events if e.kind == "event" and e.text.endswith("(foretold).")]
    assert [e for e in advanced.events if e.kind == "event-reroll" and "(foretold)" in e.text]
    assert vanished, "no nation fell in a battle in these games"
