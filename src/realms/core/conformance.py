"""The conformance kit: checks every game must pass, whatever its rules.

Call :func:`check_game` from a game's tests.  It plays random games to the end from
many seeds and, along the way, checks that:

- the game's declared invariants hold after every applied answer;
- a record survives JSON and replays to the same :meth:`state_hash`;
- illegal answers (unknown keys, wrong player, out-of-range index) are refused with
  :class:`IllegalAnswer` and leave the state untouched;
- clones are independent of the original in both directions;
- the state holds no attribute its ``FIELDS`` do not declare;
- ``view(p)`` is JSON-serialisable for every seat and for spectators, and neither it
  nor the decisions that viewer is shown (``pending_for(p)``) reveal any of the values
  the game declares hidden from that viewer;
- no decision is asked with a single option (the engine applies those), and one decision
  is pending at a time unless the game is declared ``simultaneous``;
- ``determinize(p, rng)`` gives a state whose view and pending decisions for ``p`` are
  the real ones (its hidden parts may differ), that keeps the invariants and plays on;
  ``reseed`` changes no view and no game data; a finished game's ``returns()`` sum to 1
  when someone won (0 otherwise), and an unfinished game's raise.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Iterable

from .agents import RandomBot, bot_seed
from .decision import IllegalAnswer
from .engine import GameState
from .game import Game
from .record import Record


class ConformanceError(AssertionError):
    pass


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    deep_checks: int = 0
    kinds: set = field(default_factory=set)


def _fail(game: Game, seed: int, step: int, what: str) -> None:
    raise ConformanceError(f"{game.id} seed {seed} after {step} answers: {what}")


def check_invariants(game: Game, state: GameState, memory: dict, seed: int, step: int) -> None:
    for inv in game.invariants:
        problem = inv(state, memory)
        if problem:
            _fail(game, seed, step, f"invariant {inv.__name__}: {problem}")


def check_illegal(game: Game, state: GameState, seed: int, step: int) -> None:
    before = state.state_hash()
    decision = state.pending()[0]
    players = sorted({d.player for d in state.pending()})
    bad = ["", "no-such-option", decision.keys[0] + "\x00", "[0]"]
    attempts: list[tuple[int, str]] = [(decision.player, k) for k in bad if k not in decision.keys]
    n_players = len(state.result().get("players", [])) or 8
    for other in range(-1, n_players + 1):
        if other not in players:
            attempts.append((other, decision.keys[0]))
    for player, key in attempts:
        try:
            state.apply(player, key)
        except IllegalAnswer as exc:
            if not str(exc):
                _fail(game, seed, step, f"illegal answer {key!r} refused without a message")
        else:
            _fail(game, seed, step, f"illegal answer {key!r} by player {player} was accepted")
        if state.state_hash() != before:
            _fail(game, seed, step, f"refused answer {key!r} changed the state")
    for index in (-1, len(decision.keys)):
        try:
            state.apply_index(decision.player, index)
        except IllegalAnswer:
            pass
        else:
            _fail(game, seed, step, f"option index {index} was accepted")
    if state.state_hash() != before:
        _fail(game, seed, step, "refused option index changed the state")


def check_clone(game: Game, state: GameState, seed: int, step: int) -> None:
    before = state.state_hash()
    twin = state.clone()
    if twin.state_hash() != before:
        _fail(game, seed, step, "clone differs from its original")
    d = twin.pending()[0]
    twin.apply(d.player, d.keys[-1])
    if state.state_hash() != before:
        _fail(game, seed, step, "answering on a clone changed the original")
    after_twin = twin.state_hash()
    d = state.pending()[0]
    probe = state.clone()
    probe.apply(d.player, d.keys[0])
    if twin.state_hash() != after_twin:
        _fail(game, seed, step, "answering on another clone changed a clone")


def check_views(game: Game, state: GameState, seed: int, step: int) -> None:
    n = len(state.result()["players"])
    for viewer in [None, *range(n)]:
        view = state.view(viewer)
        try:
            text = json.dumps(view, sort_keys=True)
        except (TypeError, ValueError) as exc:
            _fail(game, seed, step, f"view({viewer}) is not JSON-serialisable: {exc}")
        json.loads(text)
        asked = json.dumps([d.to_json() for d in state.pending_for(viewer)], sort_keys=True)
        for secret in game.hidden(state, viewer):
            needle = json.dumps(secret, sort_keys=True)
            if needle in text:
                _fail(game, seed, step, f"view({viewer}) shows hidden value {needle[:60]}")
            if needle in asked:
                _fail(game, seed, step, f"decisions shown to {viewer} reveal hidden value {needle[:60]}")


def check_asked(game: Game, state: GameState, seed: int, step: int) -> None:
    """What is pending: never a single option; several at once only in a simultaneous game."""
    pending = state.pending()
    for d in pending:
        if len(d.keys) < 2:
            _fail(game, seed, step, f"{d.kind} was asked with a single option (the engine applies those)")
    if len(pending) > 1 and not game.simultaneous:
        _fail(game, seed, step, f"{len(pending)} decisions pending at once in a game not declared simultaneous")


def _seen(state: GameState, viewer: int | None) -> str:
    return json.dumps([state.view(viewer), [d.to_json() for d in state.pending_for(viewer)]], sort_keys=True)


def check_determinize(game: Game, state: GameState, memory: dict, seed: int, step: int, plies: int = 30) -> None:
    """For every viewer: a determinized copy looks the same to it, keeps the invariants as
    it plays on ``plies`` random answers (from a copy of the game's invariant ``memory``),
    and leaves the original untouched."""
    before = state.state_hash()
    n = len(state.result()["players"])
    rng = random.Random(seed * 1_000_003 + step)
    for viewer in [None, *range(n)]:
        twin = state.determinize(viewer, rng)
        if _seen(twin, viewer) != _seen(state, viewer):
            _fail(game, seed, step, f"determinize({viewer}) changed what {viewer} sees")
        seen = copy.deepcopy(memory)
        bot = RandomBot(bot_seed(seed + step, n + 1))
        for ply in range(plies + 1):
            for inv in game.invariants:
                problem = inv(twin, seen)
                if problem:
                    _fail(game, seed, step, f"determinize({viewer}), {ply} answers on: invariant {inv.__name__}: {problem}")
            d = twin.first_pending()
            if d is None:
                break
            twin.answer_index(d, bot.choose(d, lambda: {}))
    if state.state_hash() != before:
        _fail(game, seed, step, "determinize changed the original")


def check_reseed(game: Game, state: GameState, seed: int, step: int) -> None:
    """A reseeded copy: the same views, pending decisions and game data."""
    twin = state.clone()
    twin.reseed(seed * 7 + step + 1)
    n = len(state.result()["players"])
    for viewer in [None, *range(n)]:
        if _seen(twin, viewer) != _seen(state, viewer):
            _fail(game, seed, step, f"reseed changed what {viewer} sees")
    if json.dumps(twin.snapshot(), sort_keys=True) != json.dumps(state.snapshot(), sort_keys=True):
        _fail(game, seed, step, "reseed changed the game data")


def check_returns(game: Game, state: GameState, seed: int, step: int) -> None:
    """Returns: one per seat, a share of 1 among the winners; refused while the game runs."""
    if state.pending():
        try:
            state.returns()
        except ValueError:
            return
        _fail(game, seed, step, "returns() of an unfinished game did not raise")
    res = state.result()
    returns = state.returns()
    total = 1.0 if res["winners"] else 0.0
    if len(returns) != len(res["players"]) or abs(sum(returns) - total) > 1e-9 or min(returns) < 0:
        _fail(game, seed, step, f"returns {returns} for winners {res['winners']}")


def check_replay(game: Game, state: GameState, seed: int, step: int) -> None:
    text = state.record().dumps()
    again = game.replay(Record.loads(text), f"seed {seed}")
    if again.state_hash() != state.state_hash():
        _fail(game, seed, step, "record does not replay to the same state")


def check_game(
    game: Game,
    options: dict,
    seeds: Iterable[int],
    *,
    deep_every: int = 97,
    max_decisions: int = 200_000,
) -> Report:
    """Play random games from ``seeds``, checking everything above.

    Invariants run after every answer; the costlier checks (illegal answers, clones,
    views) every ``deep_every`` answers and at the end; replay at the end of each game.
    """
    report = Report()
    for seed in seeds:
        state = game.new_game(options, seed)
        n = len(state.result()["players"])
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(n)]
        memory: dict = {}
        step = 0
        check_invariants(game, state, memory, seed, step)
        while state.pending():
            if step % deep_every == 0:
                check_illegal(game, state, seed, step)
                check_clone(game, state, seed, step)
                check_views(game, state, seed, step)
                check_determinize(game, state, memory, seed, step)
                check_reseed(game, state, seed, step)
                check_returns(game, state, seed, step)
                report.deep_checks += 1
            check_asked(game, state, seed, step)
            d = state.pending()[0]
            report.kinds.add(d.kind)
            state.apply_index(d.player, bots[d.player].choose(d, lambda: state.view(d.player)))
            step += 1
            check_invariants(game, state, memory, seed, step)
            if step > max_decisions:
                _fail(game, seed, step, f"no end after {max_decisions} answers")
        check_views(game, state, seed, step)
        check_returns(game, state, seed, step)
        if state.undeclared_fields():
            _fail(game, seed, step, f"attributes not declared in FIELDS: {state.undeclared_fields()}")
        try:
            state.apply(0, "anything")
        except IllegalAnswer:
            pass
        else:
            _fail(game, seed, step, "a finished game accepted an answer")
        check_replay(game, state, seed, step)
        report.games += 1
        report.decisions += step
    return report
