"""Information-set Monte Carlo tree search: ``--bots ismcts:iters=400`` for every game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012): one tree for the seat that decides, whose nodes are
sequences of answers as that seat would see them played.  Each iteration

1. *determinizes*: :meth:`GameState.determinize` deals a copy that the seat cannot tell
   from the real state (what it has not seen re-dealt, the dice re-seeded), so the search
   never uses what the seat may not know and samples chance as it goes;
2. *selects* down the tree by UCB1 among the answers *available* in this copy, each
   child's exploration term counting the iterations in which it was available (the
   paper's availability count).  The other seats answer as the rollout policy would
   (``opponents=policy``, the default: the game's own bot is the best model of the bots
   and players it meets) or search for themselves (``opponents=search``: each node keeps
   the reward of the seat that chose it);
3. *expands* one new answer, with progressive widening: a node visited ``n`` times
   considers at most ``widen·n^alpha`` of its answers, so a question with 150 options
   (a Hy Breasil move) is not spread thin; the policy's own answer comes first, then the
   rest from a random place on;
4. *rolls out* with the policy (by default the game's first registered bot, else random
   answers) until ``horizon`` answers have been given since the root, then scores the
   position: :meth:`GameState.returns` if the game ended, else the game's
   :meth:`Game.evaluation`, since games a thousand answers long cannot be played out;
5. *backs up* each seat's reward to the nodes where that seat chose.

The policy is also a *prior* (progressive bias): the answer the policy gives at a node of
the deciding seat counts ``prior`` visits more, both in its exploration term and when the
answer is picked, so another answer is played only when the search finds it better, not
when a few noisy rollouts favour it.  At the root that answer comes from a policy bot the
search keeps for its seat from decision to decision (its memory is that of a bot playing
the seat).  The search stops early once the most visited answer can no longer be overtaken
in the budget left, which makes most decisions where the policy's answer is clearly best
cheap.  The answer is the most visited root option (``prior`` included).  A position the
seat was already asked in (answers that lead back to it, such as an attack called off)
gets the policy's answer without a search, so that a search cut at a horizon cannot
circle for ever.  When the seat answers again with nothing else happened since (no other
seat answered, no dice rolled: a nation's moves one after another), the search starts from
the subtree of its last answer instead of anew.

Simultaneous decisions (several pending) are taken one after another inside the tree, the
deciding seat's first at the root.  With an iteration budget the bot is deterministic for a
given seed (its own generator drives determinizations, rollouts and ties); a time budget
(``ms``) is not.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from realms.core.agents import GENERIC_BOTS, Agent, SeatView, ViewFn, state_behind
from realms.core.decision import Decision
from realms.core.dice import Dice
from realms.core.engine import GameState
from realms.core.game import Game, OptionError, get_game

#: the iteration budget when neither ``iters`` nor ``ms`` is given (the lobby's ismcts)
DEFAULT_ITERS = 200
#: ``policy=game``: the game's first registered bot (random answers if it has none)
GAME_POLICY = "game"
OPPONENT_MODELS = ("policy", "search")


class Node:
    """One answer in the tree: who gave it, how often it was tried and available, and the
    total reward of that seat over the tries; its children are keyed ``(seat, kind, key)``
    (the kind too, so that answers of different questions never share a node)."""

    __slots__ = ("player", "visits", "avail", "total", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[tuple[int, str, str], Node] = {}


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
    default ``iters=200``); ``policy`` the rollout bot, also the prior and the model of the
    other seats (default ``game``: the game's first registered bot, else ``random``);
    ``horizon`` answers after the root before the position is scored (default 10: the
    games' evaluations see further than a few answers do); ``opponents`` ``policy`` (the
    other seats answer as the policy does) or ``search`` (they search for themselves);
    ``prior`` the visits the policy's answer counts more (default 0.25·iters, at least 2, or
    10 with a time budget; 0 turns the bias off); ``c`` the UCB exploration constant (default 0.7);
    ``widen`` and ``alpha`` the progressive widening (default 2 and 0.5); ``early`` 1 (the
    default) stops once the answer is settled, 0 spends the whole budget; ``reuse`` 1 (the
    default) starts from the subtree of the seat's last answer when nothing else happened
    since (a nation's moves one after another), 0 starts every search anew.
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iters: Any = None, ms: Any = None, policy: str = GAME_POLICY,
                 horizon: Any = 10, opponents: str = "policy", prior: Any = None, c: Any = 0.7,
                 widen: Any = 2, alpha: Any = 0.5, early: Any = 1, reuse: Any = 1) -> None:
        if iters is not None and ms is not None:
            raise OptionError("ismcts: give iters or ms, not both")
        self.iters = _number("iters", iters, int, 1, 10**7) if iters is not None else None
        self.ms = _number("ms", ms, float, 1, 10**7) if ms is not None else None
        if self.iters is None and self.ms is None:
            self.iters = DEFAULT_ITERS
        if policy == "ismcts":
            raise OptionError("ismcts: the rollout policy cannot be ismcts itself")
        if opponents not in OPPONENT_MODELS:
            raise OptionError(f"ismcts: opponents must be one of {', '.join(OPPONENT_MODELS)}, "
                              f"not {str(opponents)[:20]!r}")
        self.policy = str(policy)
        self.opponents = opponents
        self.horizon = _number("horizon", horizon, int, 1, 10**6)
        default_prior = max(2.0, 0.25 * self.iters) if self.iters is not None else 10
        self.prior = _number("prior", prior, float, 0, 10**7) if prior is not None else default_prior
        self.c = _number("c", c, float, 0, 100)
        self.widen = _number("widen", widen, float, 0.1, 1000)
        self.alpha = _number("alpha", alpha, float, 0, 1)
        self.early = bool(_number("early", early, int, 0, 1))
        self.reuse = bool(_number("reuse", reuse, int, 0, 1))
        #: the subtree of the last answer given, with what must still hold to reuse it
        self._carry: tuple | None = None
        self.rng = random.Random(seed)
        #: the policy bot that plays this seat alongside the search, for the root's prior
        self._shadow: Agent | None = None
        #: the hashes of the positions this seat was asked in (a repeated one is a cycle)
        self._seen: set[str] = set()
        #: what the last search did: iterations, root visits by key, seconds, the prior's
        #: key, the tree
        self.last: dict = {}

    # -- the agent ---------------------------------------------------------------------
    def choose(self, decision: Decision, view: ViewFn) -> int:
        state = state_behind(view)
        game = get_game(state.GAME_ID)
        factory = self._factory(game)
        me = decision.player
        keys = decision.keys
        rng = self.rng
        clock = time.perf_counter
        start = clock()
        hint = self._hint(factory, decision, view)
        if self._repeated(state) and hint is not None:
            self._carry = None
            self.last = {"iterations": 0, "seconds": clock() - start, "prior": keys[hint], "visits": {}}
            return hint
        deadline = start + self.ms / 1000 if self.ms is not None else None
        root = self._reused(state, me)
        kept = root.visits
        policy = self._policies(factory, state)
        root_key = (me, decision.kind, keys[hint]) if hint is not None else None
        done = 0
        while True:
            self._iterate(root, root_key, state, me, game, policy, rng)
            done += 1
            if deadline is None:
                left = self.iters - done
            else:
                now = clock()
                if now >= deadline:
                    break
                left = int((deadline - now) / ((now - start) / done))
            if left <= 0 or (self.early and self._settled(root, me, root_key, left)):
                break
        best = self._answer(root, decision, root_key)
        self._keep(state, root, (me, decision.kind, keys[best]))
        self.last = {
            "iterations": done,
            "reused": kept,
            "seconds": clock() - start,
            "prior": keys[hint] if hint is not None else None,
            "visits": {k: ch.visits for (p, _, k), ch in root.children.items() if p == me},
            "tree": root,
        }
        return best

    def _keep(self, state: GameState, root: Node, key: tuple) -> None:
        """Keep the subtree of the answer given, for the seat's next decision."""
        child = root.children.get(key)
        self._carry = None
        if self.reuse and child is not None:
            self._carry = (list(state.answers), key, state.dice.fingerprint(), child)

    def _reused(self, state: GameState, me: int) -> Node:
        """The root for this decision: the subtree kept from the seat's last decision when
        nothing but that answer happened since (no other seat answered, no dice rolled, so
        the seat learnt nothing and the subtree's determinizations are still consistent with
        what it knows), else a new node."""
        carry, self._carry = self._carry, None
        if carry is not None:
            answers, (player, _, key), dice, child = carry
            n = len(answers)
            if (player == me and len(state.answers) == n + 1 and state.answers[n] == (me, key)
                    and state.answers[:n] == answers and state.dice.fingerprint() == dice):
                return child
        return Node(me)

    def _factory(self, game: Game):
        """The policy's bot factory (None: uniformly random answers, the fast path)."""
        name = self.policy
        if name == GAME_POLICY:
            name = next((b for b in game.bots if b != "ismcts"), "random")
        if name == "random":
            return None
        factories = {**GENERIC_BOTS, **game.bots}
        if name not in factories:
            known = ", ".join(sorted(k for k in factories if k != "ismcts"))
            raise OptionError(f"ismcts: unknown rollout policy {name!r} (known: {known}, game)")
        return factories[name]

    def _hint(self, factory, decision: Decision, view: ViewFn) -> int | None:
        """The policy's answer to the real decision, from the bot kept for this seat."""
        if factory is None or len(decision.keys) < 2:
            return None
        if self._shadow is None:
            self._shadow = factory(int(self.rng.random() * 2**48))
        return self._shadow.choose(decision, view)

    def _repeated(self, state: GameState) -> bool:
        """Whether this seat was asked in this very position before: answers that lead
        back to it (an attack called off, say) form a cycle that a search cut at a horizon
        may find no worse than anything else, so the policy's answer leads out of it."""
        h = state.state_hash()
        if h in self._seen:
            return True
        self._seen.add(h)
        return False

    def _policies(self, factory, state: GameState) -> dict | None:
        """Fresh rollout agents by seat, for one decision's search."""
        if factory is None:
            return None
        seats = len(state.result()["players"])
        return {seat: factory(int(self.rng.random() * 2**48)) for seat in range(seats)}

    def _effective(self, key: tuple, child: Node, root_key: tuple | None) -> float:
        return child.visits + (self.prior if key == root_key else 0.0)

    def _settled(self, root: Node, me: int, root_key: tuple | None, left: int) -> bool:
        """Whether the leading root answer keeps its lead whatever the ``left`` iterations
        still to come do (they can add at most ``left`` visits to another answer)."""
        counts = sorted((self._effective(k, ch, root_key) for k, ch in root.children.items()
                         if k[0] == me), reverse=True)
        if len(counts) < 2:
            return False
        return counts[0] - counts[1] > left

    def _answer(self, root: Node, decision: Decision, root_key: tuple | None) -> int:
        """The most visited root option (the prior counted), then the best mean, then the
        policy's own answer, then the first listed."""
        index = {k: i for i, k in enumerate(decision.keys)}
        best, best_score = 0, None
        for key, child in root.children.items():
            player, kind, k = key
            if player != decision.player or kind != decision.kind or k not in index:
                continue
            score = (self._effective(key, child, root_key), child.total / max(1, child.visits),
                     key == root_key, -index[k])
            if best_score is None or score > best_score:
                best, best_score = index[k], score
        return best

    # -- one iteration -------------------------------------------------------------------
    def _iterate(self, root: Node, root_key: tuple | None, state: GameState, me: int, game: Game,
                 policy: dict | None, rng: random.Random) -> None:
        det = state.determinize(me, rng)
        dice = Dice(int(rng.random() * 2**53))
        views = {} if policy is None else {seat: SeatView(det, seat) for seat in policy}
        modelled = self.opponents == "policy"
        node = root
        path: list[Node] = []
        steps = 0
        d = det.first_pending((me,))
        if d is None:
            raise RuntimeError(f"{state.GAME_ID}: a determinization for seat {me} awaits no answer of it")
        while d is not None and steps < self.horizon:
            player = d.player
            if modelled and player != me:
                det.answer_index(d, self._play(d, dice, policy, views))
            else:
                i, node, fresh = self._select(node, root_key if node is root else None, d, dice,
                                              policy, views)
                path.append(node)
                det.answer_index(d, i)
                if fresh:
                    steps += 1
                    break
            steps += 1
            d = det.first_pending()
        reward = self._rollout(det, game, dice, policy, views, self.horizon - steps)
        root.visits += 1
        for ch in path:
            ch.visits += 1
            ch.total += reward[ch.player]

    def _select(self, node: Node, root_key: tuple | None, d: Decision, dice: Dice,
                policy: dict | None, views: dict) -> tuple[int, Node, bool]:
        """The answer to ``d`` at ``node``: a new one while widening allows (the new child,
        True), else the best by UCB1 (the child, False).  The policy's answer (``root_key``
        at the root, else the policy asked in this copy) counts ``prior`` visits more."""
        keys = d.keys
        player, kind = d.player, d.kind
        index = {k: i for i, k in enumerate(keys)}
        children = node.children
        available = [ch for (p, q, k), ch in children.items() if p == player and q == kind and k in index]
        limit = min(len(keys), max(1, int(self.widen * node.visits ** self.alpha)))
        if len(available) < limit:
            i = self._new_answer(node, d, dice, policy, views)
            child = children[(player, kind, keys[i])] = Node(player)
            for ch in available:
                ch.avail += 1
            return i, child, True
        if root_key is None and policy is not None and self.prior > 0:
            root_key = (player, kind, keys[policy[player].choose(d, views[player])])
        log, sqrt, c, prior = math.log, math.sqrt, self.c, self.prior
        best, best_ucb, best_key = None, -1.0, ""
        for key, ch in children.items():
            p, q, k = key
            if p != player or q != kind or k not in index:
                continue
            ch.avail += 1
            n = ch.visits + (prior if key == root_key else 0.0)
            ucb = ch.total / ch.visits + c * sqrt(log(ch.avail) / n)
            if ucb > best_ucb:
                best, best_ucb, best_key = ch, ucb, k
        assert best is not None
        return index[best_key], best, False

    def _play(self, d: Decision, dice: Dice, policy: dict | None, views: dict) -> int:
        """The policy's answer to ``d`` (a uniformly random one without a policy bot)."""
        if policy is None:
            return dice.below(len(d.keys))
        return policy[d.player].choose(d, views[d.player])

    def _new_answer(self, node: Node, d: Decision, dice: Dice, policy: dict | None,
                    views: dict) -> int:
        """An answer of ``d`` not yet in the tree under ``node``: the policy's choice when it
        is new, otherwise the first new one from a random place on."""
        keys = d.keys
        n = len(keys)
        children = node.children
        player, kind = d.player, d.kind
        i = self._play(d, dice, policy, views)
        if (player, kind, keys[i]) in children:
            i = dice.below(n)
        for step in range(n):
            j = (i + step) % n
            if (player, kind, keys[j]) not in children:
                return j
        raise AssertionError("no new answer although the widening limit allows one")

    def _rollout(self, det: GameState, game: Game, dice: Dice, policy: dict | None,
                 views: dict, answers: int) -> list[float]:
        """Play on with the policy for at most ``answers`` answers; the rewards by seat."""
        below = dice.below
        for _ in range(answers):
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
