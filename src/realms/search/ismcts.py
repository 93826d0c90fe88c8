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
   answers) until ``horizon`` answers have been given since the root (``horizon=turn``:
   until the turn in progress at the root ends, :attr:`Game.turn_of`), then scores the
   position: :meth:`GameState.returns` if the game ended, else the game's
   :meth:`Game.evaluation`, since games a thousand answers long cannot be played out;
5. *backs up* each seat's reward to the nodes where that seat chose.

The policy's answer is the default, and the search looks for a better one (play the bot's
answer, search only where it matters).  At the root its answer comes from a policy bot the
search keeps for its seat from decision to decision and asks every decision of the seat
(its memory is that of a bot playing the seat), and it is tried at least as often as any
other answer.  The root's answers are compared on *common random numbers*: the ``t``-th
try of every answer uses the ``t``-th sample (the same determinization, dice and rollout
bots), so the luck of the deal and of the dice cancels out of their differences; each
answer gets the three samples a comparison needs before another is tried.  Another answer
is played only when it beats the policy's on the same samples by ``z`` standard errors (as
a one-sided level: the Student-t quantile for the samples' number, since a spread estimated
from four samples is itself uncertain), the policy's answer counting as one more sample of
no difference (so that with a huge ``z`` the search plays exactly what a bot of its policy
playing the seat would: the test that pins it).  A search where every answer tried gives
exactly what the policy's gives stops early (the decision does not matter within the
horizon), and a question of one option is not searched.  At the seat's later decisions
inside the tree the policy's answer counts ``prior`` visits more (progressive bias).  A
position the seat was already asked in (answers that lead back to it, such as an attack
called off) gets the policy's answer without a search, so that a search cut at a horizon
cannot circle for ever.  The bots inside the search read the game's ``bot_view`` (the
view sharing the state's lists, where a game declares one), not a copy of every unit.

The learned evaluation (``value=learned``: :mod:`realms.search.value`) scores the horizon
from the features of the searching seat's view of the determinized copy, so it too uses
only what the seat may know.  Decisions of the kinds a game leaves to the policy
(``Game.unsearched_kinds``, ``Game.unsearched``: the units of an attack whose target the
search chose) get the
policy's answer, at the root and inside the tree: the budget goes to the choices.

Simultaneous decisions (several pending) are taken one after another inside the tree, the
deciding seat's first at the root.  With an iteration budget the bot is deterministic for a
given seed (its own generator drives determinizations, rollouts and ties); a time budget
(``ms``) is not.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from realms.core.agents import Agent, ViewFn, generic_bots, state_behind
from realms.core.decision import Decision
from realms.core.dice import Dice
from realms.core.engine import GameState
from realms.core.game import Game, OptionError, get_game

if TYPE_CHECKING:
    from .value import ValueModel

#: the iteration budget when neither ``iters`` nor ``ms`` is given (the lobby's ismcts)
DEFAULT_ITERS = 50
#: ``policy=game``: the game's first registered bot (random answers if it has none)
GAME_POLICY = "game"
OPPONENT_MODELS = ("policy", "search")
#: the evaluation at the horizon: the game's hand-written one, or its shipped learned one
VALUES = ("hand", "learned")
#: the samples on which a root answer is compared with the policy's before any verdict
MIN_PAIRED = 3
#: ``horizon=turn``: the most answers played past the root while waiting for a turn's end
TURN_CAP = 400


class _Lazy(dict):
    """A dict by seat whose value is made by ``make(seat)`` when first looked up."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, seat: int):
        value = self[seat] = self.make(seat)
        return value


def _unsearched(game: Game, d: Decision) -> bool:
    """Whether the game leaves ``d`` to the policy (``Game.unsearched_kinds``,
    ``Game.unsearched``): a sub-pick of a choice already made, or a question with one
    sensible answer."""
    return d.kind in game.unsearched_kinds or (game.unsearched is not None and game.unsearched(d))


class _TurnClock:
    """The turns ended in one iteration's copy since its root (``horizon=turn``): the
    copy's ``Game.turn_of`` read after each answer, each change one turn ended."""

    __slots__ = ("turn_of", "turn", "left")

    def __init__(self, turn_of, state: GameState, turns: int) -> None:
        self.turn_of = turn_of
        self.turn = turn_of(state)
        self.left = turns

    def ended(self, state: GameState) -> bool:
        """Whether the turns to play are over in ``state`` (counting a change just made)."""
        now = self.turn_of(state)
        if now != self.turn:
            self.turn = now
            self.left -= 1
        return self.left <= 0


class Node:
    """One answer in the tree: who gave it, how often it was tried and available, and the
    total reward of that seat over the tries; its children are keyed ``(seat, kind, key)``
    (the kind too, so that answers of different questions never share a node)."""

    __slots__ = ("player", "visits", "avail", "total", "children", "rewards")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[tuple[int, str, str], Node] = {}
        #: a root answer's rewards, try by try (its ``t``-th try used sample ``t``)
        self.rewards: list[float] = []


def student(z: float, df: int) -> float:
    """The Student-t quantile, with ``df`` degrees of freedom, of the one-sided level that
    ``z`` standard errors have under the normal law (Abramowitz & Stegun 26.7.5, the
    Cornish-Fisher expansion: within 2% from 3 degrees of freedom on).  A standard error
    estimated from a handful of samples is itself uncertain: ``z=3`` on four samples asks
    for 6.6 of them, else chance overrules the policy at several decisions a game."""
    v = float(df)
    z2 = z * z
    return z * (1 + (z2 + 1) / (4 * v) + (5 * z2 * z2 + 16 * z2 + 3) / (96 * v**2)
                + (3 * z2**3 + 19 * z2 * z2 + 17 * z2 - 15) / (384 * v**3)
                + (79 * z2**4 + 776 * z2**3 + 1482 * z2 * z2 - 1920 * z2 - 945) / (92160 * v**4))


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
    default ``iters=50``); ``policy`` the rollout bot, also the prior and the model of the
    other seats (default ``game``: the game's first registered bot, else ``random``);
    ``horizon`` answers after the root before the position is scored (default 10: the
    games' evaluations see further than a few answers do), or ``turn``: when the turn in
    which the seat is asked ends (``Game.turn_of``; at most ``TURN_CAP`` answers), where
    the position is whole rather than part-way through a player's turn; ``turns`` with
    ``horizon=turn``, the turns to play out (default 1: the one in progress; the seats'
    number: until the seat's own turn comes again, the others' answers to its turn seen);
    ``opponents`` ``policy`` (the
    other seats answer as the policy does) or ``search`` (they search for themselves);
    ``z`` how many standard errors another root answer must beat the policy's by, on the
    same samples, to be played instead, as a one-sided level (the Student-t quantile
    for the samples' number; default 3: with several answers compared at each
    of a game's hundreds of decisions, 1.5 let chance overrule the policy too often and
    won a quarter of Brian Boru's games against greedy, 3 a third)); ``prior`` the visits the policy's
    answer counts more at the seat's later decisions in the tree (default 0.25·iters, at
    least 2, or 10 with a time budget); ``c`` the UCB exploration constant (default 0.7;
    at the root it is scaled by the spread of the rewards seen there); ``widen`` and
    ``alpha`` the progressive widening (default 2 and 0.5); ``early`` 1 (the default)
    stops once no answer is seen to matter, 0 spends the whole budget; ``value`` the
    evaluation at the horizon: ``hand`` (the game's ``evaluate``, the default), ``learned``
    (the model shipped with the game, :mod:`realms.search.value`) or a model's ``.json``
    file.
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iters: Any = None, ms: Any = None, policy: str = GAME_POLICY,
                 horizon: Any = 10, opponents: str = "policy", z: Any = 3, prior: Any = None,
                 c: Any = 0.7, widen: Any = 2, alpha: Any = 0.5, early: Any = 1, value: str = "hand",
                 turns: Any = 1) -> None:
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
        #: ``horizon=turn``: score where the turn in progress at the root ends
        self.to_turn_end = horizon == "turn"
        self.turns = _number("turns", turns, int, 1, 100)
        self.horizon = TURN_CAP * self.turns if self.to_turn_end else _number("horizon", horizon, int, 1, 10**6)
        if self.turns > 1 and not self.to_turn_end:
            raise OptionError("ismcts: turns needs horizon=turn")
        self.z = _number("z", z, float, 0, 1e12)
        default_prior = max(2.0, 0.25 * self.iters) if self.iters is not None else 10
        self.prior = _number("prior", prior, float, 0, 10**7) if prior is not None else default_prior
        self.c = _number("c", c, float, 0, 100)
        self.widen = _number("widen", widen, float, 0.1, 1000)
        self.alpha = _number("alpha", alpha, float, 0, 1)
        self.early = bool(_number("early", early, int, 0, 1))
        if value not in VALUES and not str(value).endswith(".json"):
            raise OptionError(f"ismcts: value must be one of {', '.join(VALUES)} or a model's .json file, "
                              f"not {str(value)[:30]!r}")
        self.value = str(value)
        #: the learned evaluation (``value=learned`` or a file), loaded at the first decision
        self._model: ValueModel | None = None
        self.rng = random.Random(seed)
        #: the seed of the policy bot kept for this seat: the search's own, so that with a
        #: huge ``z`` it plays the game the policy bot given the seat's seed would (a paired
        #: match against that bot then differs only where the search overrules it)
        self.shadow_seed = seed
        #: the policy bot that plays this seat alongside the search, for the root's prior
        self._shadow: Agent | None = None
        #: the hashes of the positions this seat was asked in (a repeated one is a cycle)
        self._seen: set[str] = set()
        #: what the last search did: iterations, root visits by key, seconds, the prior's
        #: key, each other answer's advantage over it, the tree
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
        if self.to_turn_end and game.turn_of is None:
            raise OptionError(f"ismcts: {game.id} names no turns (Game.turn_of): horizon=turn cannot be used")
        if self.value != "hand" and self._model is None:
            from .value import model_for

            self._model = model_for(game, self.value)
        if hint is not None and _unsearched(game, decision):
            self.last = {"iterations": 0, "seconds": clock() - start, "prior": keys[hint],
                         "visits": {}, "advantage": {}}
            return hint
        if len(keys) == 1:
            self.last = {"iterations": 0, "seconds": clock() - start, "prior": keys[0],
                         "visits": {}, "advantage": {}}
            return 0
        if self._repeated(state) and hint is not None:
            self.last = {"iterations": 0, "seconds": clock() - start, "prior": keys[hint],
                         "visits": {}, "advantage": {}}
            return hint
        deadline = start + self.ms / 1000 if self.ms is not None else None
        root = Node(me)
        root_key = (me, decision.kind, keys[hint]) if hint is not None else None
        samples: list[int] = []
        pick = Dice(int(rng.random() * 2**53))
        done = 0
        while True:
            self._iterate(root, root_key, decision, state, game, factory, samples, pick)
            done += 1
            if deadline is None:  # no time budget: an iteration budget (__init__)
                left = cast(int, self.iters) - done
            else:
                now = clock()
                if now >= deadline:
                    break
                left = int((deadline - now) / ((now - start) / done))
            if left <= 0 or (self.early and self._indifferent(root, root_key, len(keys))):
                break
        advantage = self._advantages(root, root_key)
        best = self._answer(root, decision, root_key, advantage)
        self.last = {
            "iterations": done,
            "seconds": clock() - start,
            "prior": keys[hint] if hint is not None else None,
            "visits": {k: ch.visits for (p, _, k), ch in root.children.items() if p == me},
            "advantage": {k[2]: a for k, a in advantage.items()},
            "tree": root,
        }
        return best

    def _factory(self, game: Game):
        """The policy's bot factory (None: uniformly random answers, the fast path)."""
        name = self.policy
        if name == GAME_POLICY:
            name = next((b for b in game.bots if b != "ismcts"), "random")
        if name == "random":
            return None
        factories = {**generic_bots(), **game.bots}
        if name not in factories:
            known = ", ".join(sorted(k for k in factories if k != "ismcts"))
            raise OptionError(f"ismcts: unknown rollout policy {name!r} (known: {known}, game)")
        return factories[name]

    def _hint(self, factory, decision: Decision, view: ViewFn) -> int | None:
        """The policy's answer to the real decision, from the bot kept for this seat (seeded
        ``shadow_seed``).  It is asked every decision of the seat, a forced one too, as it
        would be if it played the seat alone: a bot with a memory (the auto bot's Tactical
        Ratings and Mortal Enemies, which it updates from each view) then keeps the same."""
        if factory is None:
            return None
        if self._shadow is None:
            self._shadow = factory(self.shadow_seed)
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

    @staticmethod
    def _policies(factory, seed: int) -> dict | None:
        """Fresh rollout agents by seat for one iteration, seeded from its sample (so the
        answers compared on one sample meet the same bots too, and no iteration's plans
        or memories leak into another's); each made when its seat is first asked, since
        most iterations reach few seats of a twelve-seat game."""
        if factory is None:
            return None
        return _Lazy(lambda seat: factory((seed + 7919 * seat) & 0xFFFFFFFFFFFF))

    # -- the root: paired samples --------------------------------------------------------
    @staticmethod
    def _paired(child: Node, base: Node) -> list[float]:
        """``child``'s rewards less ``base``'s on the samples both were tried on."""
        return [a - b for a, b in zip(child.rewards, base.rewards)]

    def _advantages(self, root: Node, root_key: tuple | None) -> dict:
        """Each other root answer's advantage over the policy's, on the same samples: its
        mean and standard error, and the number of samples (three at least).  The policy's
        answer is the prior: one more sample of no difference counts with them, so that an
        answer better by the same amount on every sample (a spread of nought, which no
        ``z`` would weigh) needs more than ``z`` samples to overrule it, and with a huge
        ``z`` the policy's answer is always played."""
        base = root.children.get(root_key) if root_key is not None else None
        out: dict[tuple, tuple[float, float, int]] = {}
        if base is None:
            return out
        for key, child in root.children.items():
            diffs = self._paired(child, base) if key != root_key else []
            if len(diffs) >= MIN_PAIRED:
                diffs.append(0.0)
                mean = statistics.fmean(diffs)
                out[key] = (mean, statistics.stdev(diffs) / math.sqrt(len(diffs)), len(diffs) - 1)
        return out

    def _indifferent(self, root: Node, root_key: tuple | None, options: int) -> bool:
        """Whether the answers tried so far (the policy's and two others at least, where
        there are, each on three samples or more) all gave exactly what the policy's
        answer gave: within the horizon this decision does not matter, and the policy's
        answer stands."""
        base = root.children.get(root_key) if root_key is not None else None
        if base is None or len(root.children) < min(3, options):
            return False
        return all(len(ch.rewards) >= MIN_PAIRED and not any(self._paired(ch, base))
                   for ch in root.children.values())

    def _answer(self, root: Node, decision: Decision, root_key: tuple | None, advantage: dict) -> int:
        """The policy's answer, unless another beats it by ``z`` standard errors on the same
        samples, read as the Student-t quantile of that level for their number (the one
        with the best such lower bound); without a policy, the most
        visited answer, then the best mean."""
        index = {k: i for i, k in enumerate(decision.keys)}
        if root_key is not None:
            best, bound = root_key, 0.0
            for key, (mean, se, samples) in advantage.items():
                low = mean - student(self.z, samples) * se
                if low > bound:
                    best, bound = key, low
            return index[best[2]]
        scored = [((ch.visits, ch.total / max(1, ch.visits), -index[k[2]]), index[k[2]])
                  for k, ch in root.children.items()]
        return max(scored)[1] if scored else 0

    def _select_root(self, root: Node, root_key: tuple | None, decision: Decision,
                     pick: Dice) -> tuple[tuple, Node]:
        """The root answer to try next: the policy's first; the policy's again whenever
        another was tried more often (so that every other answer is compared on samples
        the policy's answer had too); an answer tried fewer times than a comparison needs
        (answers tried once or twice, then left, compare with nothing: iterations wasted);
        a new one while widening allows (from a random place on); else the best by UCB1,
        its exploration scaled by the rewards' spread."""
        children = root.children
        me, kind, keys = decision.player, decision.kind, decision.keys
        base = children.get(root_key) if root_key is not None else None
        if root_key is not None and base is None:
            child = children[root_key] = Node(me)
            return root_key, child
        if root_key is not None and base is not None and any(ch.visits > base.visits for ch in children.values()):
            return root_key, base
        for key, ch in children.items():
            if ch.visits < MIN_PAIRED and ch is not base:
                return key, ch
        limit = min(len(keys), max(1, int(self.widen * root.visits ** self.alpha)))
        if len(children) < limit:
            n, i = len(keys), pick.below(len(keys))
            for step in range(n):
                key = (me, kind, keys[(i + step) % n])
                if key not in children:
                    child = children[key] = Node(me)
                    return key, child
        rewards = [r for ch in children.values() for r in ch.rewards]
        scale = self.c * (statistics.pstdev(rewards) if len(rewards) > 1 else 0.0)
        log_n = math.log(max(1, root.visits))
        best_key: tuple | None = None
        best_ucb = -math.inf
        for key, ch in children.items():
            ucb = ch.total / ch.visits + scale * math.sqrt(log_n / ch.visits)
            if ucb > best_ucb:
                best_key, best_ucb = key, ucb
        if best_key is None:
            raise RuntimeError("ismcts: no root answer has a finite UCB1 value")
        return best_key, children[best_key]

    # -- one iteration -------------------------------------------------------------------
    def _iterate(self, root: Node, root_key: tuple | None, decision: Decision, state: GameState,
                 game: Game, factory, samples: list[int], pick: Dice) -> None:
        """One iteration: a root answer, then a determinization and dice from the sample
        numbered by that answer's tries (its ``t``-th try and every other answer's ``t``-th
        share their sample: common random numbers, so that answers are compared on the same
        deal and dice), the tree below it, a rollout and the backup."""
        me = decision.player
        key, child = self._select_root(root, root_key, decision, pick)
        t = len(child.rewards)
        while len(samples) <= t:
            samples.append(int(self.rng.random() * 2**53))
        det = state.determinize(me, random.Random(samples[t]))
        turn = _TurnClock(game.turn_of, det, self.turns) if self.to_turn_end else None
        dice = Dice(samples[t] ^ 0x5DEECE66D)
        policy = self._policies(factory, samples[t])
        see = game.bot_view or type(det).view
        views = _Lazy(lambda seat: partial(see, det, seat))
        modelled = self.opponents == "policy"
        d = det.first_pending((me,))
        if d is None or key[2] not in d.keys:
            raise RuntimeError(f"{state.GAME_ID}: a determinization for seat {me} does not ask "
                               f"its decision {decision.kind}")
        det.answer_index(d, d.keys.index(key[2]))
        node, path, steps, fresh = child, [child], 1, child.visits == 0
        d = det.first_pending()
        while d is not None and steps < self.horizon and not fresh and not (turn and turn.ended(det)):
            player = d.player
            if (modelled and player != me) or (policy is not None and _unsearched(game, d)):
                det.answer_index(d, self._play(d, dice, policy, views))
            else:
                i, node, fresh = self._select(node, None, d, dice, policy, views)
                path.append(node)
                det.answer_index(d, i)
            steps += 1
            d = det.first_pending()
        reward = self._rollout(det, game, dice, policy, views, self.horizon - steps, me, turn)
        root.visits += 1
        child.rewards.append(reward[me])
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
                 views: dict, answers: int, me: int, turn: _TurnClock | None = None) -> list[float]:
        """Play on with the policy for at most ``answers`` answers, or until ``turn``'s
        turns have ended (``horizon=turn``); the rewards by seat: the returns of a finished
        game, else the evaluation (the learned one from the features of ``me``'s view of
        this copy, or the game's hand-written one)."""
        below = dice.below
        for _ in range(answers):
            d = det.first_pending()
            if d is None or (turn is not None and turn.ended(det)):
                break
            if policy is None:
                det.answer_index(d, below(len(d.keys)))
            else:
                det.answer_index(d, policy[d.player].choose(d, views[d.player]))
        if det.is_over():
            return det.returns()
        if self._model is not None:
            features = game.features
            if features is None:
                raise OptionError(f"ismcts: {game.id} has no features for a learned value")
            return self._model.predict(features((game.bot_view or type(det).view)(det, me)))
        return game.evaluation(det)
