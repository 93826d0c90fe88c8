"""Information-set Monte Carlo tree search: ``--bots ismcts:iters=400`` for every game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012): one tree for the seat that decides, whose nodes are
sequences of answers as that seat would see them played.  Each iteration

1. *determinizes*: :meth:`GameState.determinize` deals a copy that the seat cannot tell
   from the real state (what it has not seen re-dealt, the dice re-seeded), so the search
   never uses what the seat may not know and samples chance as it goes;
2. *selects* down the tree by UCB1 among the answers *available* in this copy, each
   child's exploration term counting the iterations in which it was available (the
   paper's availability count), every seat choosing for itself (each node keeps the
   reward of the seat that chose it);
3. *expands* one new answer, with progressive widening: a node visited ``n`` times
   considers at most ``widen·n^alpha`` of its answers, so a question with 150 options
   (a Hy Breasil move) is not spread thin; the new answer is the rollout policy's choice
   when that is new, otherwise a random new one;
4. *rolls out* with the policy (any registered bot; ``random`` by default) for at most
   ``horizon`` answers, then scores the position: :meth:`GameState.returns` if the game
   ended, else the game's :meth:`Game.evaluation` (by default each seat's share of the
   current scores), since games a thousand answers long cannot be played out;
5. *backs up* each seat's reward to the nodes where that seat chose.

The answer is the most visited of the seat's options.  Simultaneous decisions (several
pending) are taken one after another inside the tree, the deciding seat's first at the
root.  With an iteration budget the bot is deterministic for a given seed (its own
generator drives determinizations, rollouts and ties); a time budget (``ms``) is not.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from realms.core.agents import GENERIC_BOTS, SeatView, ViewFn, state_behind
from realms.core.decision import Decision
from realms.core.dice import Dice
from realms.core.engine import GameState
from realms.core.game import Game, OptionError, get_game

#: the iteration budget when neither ``iters`` nor ``ms`` is given (the lobby's ismcts)
DEFAULT_ITERS = 200


class Node:
    """One answer in the tree: who gave it, how often it was tried and available, and the
    total reward of that seat over the tries; its children are keyed ``(seat, key)``."""

    __slots__ = ("player", "visits", "avail", "total", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[tuple[int, str], Node] = {}


def _number(name: str, value: Any, kind: type, low: float, high: float) -> Any:
    """A parameter read from its text (``--bots ismcts:iters=400``), within bounds."""
    try:
        out = kind(value)
    except (TypeError, ValueError):
        raise OptionError(f"ismcts: {name} must be a{'n integer' if kind is int else ' number'}, "
                          f"not {str(value)[:20]!r}") from None
    if not low <= out <= high:
        raise OptionError(f"ismcts: {name} must be between {low} and {high}, not {out}")
    return out


class ISMCTSBot:
    """The search bot.  Parameters (strings as in ``--bots``, or numbers):

    ``iters`` iterations per decision, or ``ms`` milliseconds per decision (not both;
    default ``iters=200``); ``policy`` the rollout bot (default ``random``); ``horizon``
    answers per rollout before the position is scored (default 10: the games' evaluations
    see further than a few random answers do); ``c`` the UCB
    exploration constant (default 0.7); ``widen`` and ``alpha`` the progressive widening
    (default 2 and 0.5).
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iters: Any = None, ms: Any = None, policy: str = "random",
                 horizon: Any = 10, c: Any = 0.7, widen: Any = 2, alpha: Any = 0.5) -> None:
        if iters is not None and ms is not None:
            raise OptionError("ismcts: give iters or ms, not both")
        self.iters = _number("iters", iters, int, 1, 10**7) if iters is not None else None
        self.ms = _number("ms", ms, float, 1, 10**7) if ms is not None else None
        if self.iters is None and self.ms is None:
            self.iters = DEFAULT_ITERS
        if policy == "ismcts":
            raise OptionError("ismcts: the rollout policy cannot be ismcts itself")
        self.policy = str(policy)
        self.horizon = _number("horizon", horizon, int, 0, 10**6)
        self.c = _number("c", c, float, 0, 100)
        self.widen = _number("widen", widen, float, 0.1, 1000)
        self.alpha = _number("alpha", alpha, float, 0, 1)
        self.rng = random.Random(seed)
        #: what the last search did: iterations, root visits by key, seconds
        self.last: dict = {}

    # -- the agent ---------------------------------------------------------------------
    def choose(self, decision: Decision, view: ViewFn) -> int:
        state = state_behind(view)
        game = get_game(state.GAME_ID)
        policy = self._policy(game, state)
        me = decision.player
        root = Node(me)
        rng = self.rng
        clock = time.perf_counter
        start = clock()
        deadline = start + self.ms / 1000 if self.ms is not None else None
        done = 0
        while True:
            self._iterate(root, state, me, game, policy, rng)
            done += 1
            if deadline is None:
                if done >= self.iters:
                    break
            elif clock() >= deadline:
                break
        index = {k: i for i, k in enumerate(decision.keys)}
        best, best_score = 0, None
        for (player, key), child in root.children.items():
            if player != me or key not in index:
                continue
            score = (child.visits, child.total / max(1, child.visits), -index[key])
            if best_score is None or score > best_score:
                best, best_score = index[key], score
        self.last = {
            "iterations": done,
            "seconds": clock() - start,
            "visits": {key: ch.visits for (p, key), ch in root.children.items() if p == me},
        }
        return best

    def _policy(self, game: Game, state: GameState) -> dict | None:
        """The rollout agents by seat (None: uniformly random answers, the fast path)."""
        if self.policy == "random":
            return None
        factories = {**GENERIC_BOTS, **game.bots}
        if self.policy not in factories:
            known = ", ".join(sorted(k for k in factories if k != "ismcts"))
            raise OptionError(f"ismcts: unknown rollout policy {self.policy!r} (known: {known})")
        seats = len(state.result()["players"])
        return {seat: factories[self.policy](int(self.rng.random() * 2**48)) for seat in range(seats)}

    # -- one iteration -------------------------------------------------------------------
    def _iterate(self, root: Node, state: GameState, me: int, game: Game,
                 policy: dict | None, rng: random.Random) -> None:
        det = state.determinize(me, rng)
        dice = Dice(int(rng.random() * 2**53))
        views = {} if policy is None else {seat: SeatView(det, seat) for seat in policy}
        node = root
        path: list[Node] = []
        d = det.first_pending((me,))
        if d is None:
            raise RuntimeError(f"{state.GAME_ID}: a determinization for seat {me} awaits no answer of it")
        while d is not None:
            keys = d.keys
            player = d.player
            index = {k: i for i, k in enumerate(keys)}
            available = [ch for (p, k), ch in node.children.items() if p == player and k in index]
            limit = min(len(keys), max(1, int(self.widen * node.visits ** self.alpha)))
            if len(available) < limit:
                i = self._new_answer(node, d, dice, policy, views)
                child = node.children[(player, keys[i])] = Node(player)
                for ch in available:
                    ch.avail += 1
                path.append(child)
                det.answer_index(d, i)
                break
            log = math.log
            c = self.c
            best, best_ucb, best_key = None, -1.0, ""
            for (p, k), ch in node.children.items():
                if p != player or k not in index:
                    continue
                ch.avail += 1
                ucb = ch.total / ch.visits + c * math.sqrt(log(ch.avail) / ch.visits)
                if ucb > best_ucb:
                    best, best_ucb, best_key = ch, ucb, k
            assert best is not None
            path.append(best)
            det.answer_index(d, index[best_key])
            node = best
            d = det.first_pending()
        reward = self._rollout(det, game, dice, policy, views)
        root.visits += 1
        for ch in path:
            ch.visits += 1
            ch.total += reward[ch.player]

    def _new_answer(self, node: Node, d: Decision, dice: Dice, policy: dict | None,
                    views: dict) -> int:
        """An answer of ``d`` not yet in the tree under ``node``: the policy's choice when it
        is new, otherwise the first new one from a random place on."""
        keys = d.keys
        n = len(keys)
        children = node.children
        player = d.player
        i = policy[player].choose(d, views[player]) if policy is not None else dice.below(n)
        for step in range(n):
            j = (i + step) % n
            if (player, keys[j]) not in children:
                return j
        raise AssertionError("no new answer although the widening limit allows one")

    def _rollout(self, det: GameState, game: Game, dice: Dice, policy: dict | None,
                 views: dict) -> list[float]:
        """Play on with the policy for at most ``horizon`` answers; the rewards by seat."""
        below = dice.below
        for _ in range(self.horizon):
            d = det.first_pending()
            if d is None:
                break
            if policy is None:
                det.answer_index(d, below(len(d.keys)))
            else:
                det.answer_index(d, policy[d.player].choose(d, views[d.player]))
        if det.is_over():
            return det.returns()
        return game.evaluation(det)
