"""``realms train GAME --data DIR``: fit a game's learned evaluation
(:class:`~realms.search.value.ValueModel`) to the positions of ``realms selfplay``.

The games are split by seed (never positions of one game on both sides): 70% to fit, 15%
to choose the model (linear, or one tanh layer of ``hidden`` units: the one with the
lower log loss there), 15% held out for the report.  Each head is fitted with Adam on
the whole batch, minimising the cross-entropy between the softmax of the seats' scores
and the outcome (the returns for ``win``, the final score shares for ``score``) plus a
small L2 penalty, from the seed's initial weights: the same data and seed give the same
model.  Games nobody won (every return 0) teach nothing about winning and are left out
of the ``win`` head.

The report compares, on the held-out positions, the model, the game's hand-written
evaluation (``Game.evaluation``, of the true state; its shares read as win chances) and
equal shares: the Brier score (the squared error of the win chances, summed over the
seats, averaged over positions), the log loss, and the calibration (predicted chance
against the wins seen, in ten bins; ``ece`` the bins' mean gap weighted by their size).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from realms.core.game import Game, OptionError

from .value import FORMAT, VERSION, ValueModel

POSITIONS = "positions.jsonl"
SPLIT = (0.70, 0.15)  # fit, choose; the rest is held out


class TrainError(ValueError):
    """The data cannot be trained on; the message names the file or the problem."""


@dataclass
class Data:
    """Positions padded to the most seats: features (positions × seats × features), the
    seats present, the outcomes and the hand-written evaluation, and each one's game."""

    x: np.ndarray
    mask: np.ndarray
    win: np.ndarray
    score: np.ndarray
    hand: np.ndarray
    seed: np.ndarray

    def take(self, rows: np.ndarray) -> "Data":
        return Data(self.x[rows], self.mask[rows], self.win[rows], self.score[rows], self.hand[rows],
                    self.seed[rows])


def read_lines(folder: str | Path, game: Game) -> list[dict]:
    """The recorded games of ``game`` in ``folder`` (a line cut short by an interruption
    is skipped; a game of another kind stops with the line's number)."""
    path = Path(folder) / POSITIONS
    if not path.exists():
        raise TrainError(f"{path}: no positions here (record them with realms selfplay {game.id})")
    out = []
    with path.open(encoding="utf-8") as f:
        for i, text in enumerate(f, 1):
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue
            if line.get("game") != game.id:
                raise TrainError(f"{path}:{i}: a game of {line.get('game')!r}, not {game.id!r}")
            out.append(line)
    if not out:
        raise TrainError(f"{path}: no games recorded")
    return out


def assemble(lines: list[dict]) -> tuple[list[str], Data]:
    """The positions of ``lines`` as arrays, with the features' names."""
    names = next((ln["features"] for ln in lines if ln["positions"]), None)
    if names is None:
        raise TrainError("no positions recorded in these games")
    seats = max(len(ln["returns"]) for ln in lines)
    rows = [(ln, p) for ln in lines for p in ln["positions"]]
    n, f = len(rows), len(names)
    x = np.zeros((n, seats, f))
    mask = np.zeros((n, seats), dtype=bool)
    win, score, hand = (np.zeros((n, seats)) for _ in range(3))
    seed = np.zeros(n, dtype=np.int64)
    for r, (ln, p) in enumerate(rows):
        if ln["features"] != names:
            raise TrainError(f"game {ln['seed']}: features {ln['features']} differ from {names}")
        k = len(ln["returns"])
        x[r, :k] = np.asarray(p["x"], dtype=float).T
        mask[r, :k] = True
        win[r, :k] = ln["returns"]
        score[r, :k] = ln["score_share"]
        total = sum(max(0.0, v) for v in p["eval"])
        hand[r, :k] = [max(0.0, v) / total for v in p["eval"]] if total > 0 else [1 / k] * k
        seed[r] = ln["seed"]
    return names, Data(x, mask, win, score, hand, seed)


def split(data: Data, seed: int) -> tuple[Data, Data, Data]:
    """Fit, choose and held-out sets, whole games each, drawn from ``seed``."""
    games = np.unique(data.seed)
    if len(games) < 3:
        raise TrainError(f"{len(games)} games: at least 3 are needed (fit, choose, held out)")
    order = np.random.default_rng(seed).permutation(games)
    n = len(games)
    a = min(n - 2, max(1, round(SPLIT[0] * n)))
    b = min(n - 1, max(a + 1, round((SPLIT[0] + SPLIT[1]) * n)))
    parts = (order[:a], order[a:b], order[b:])
    return tuple(data.take(np.isin(data.seed, part)) for part in parts)  # type: ignore[return-value]


def softmax(s: np.ndarray, mask: np.ndarray) -> np.ndarray:
    s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fit_head(x: np.ndarray, mask: np.ndarray, y: np.ndarray, hidden: int, seed: int, steps: int,
             l2: float = 1e-3, rate: float = 0.03) -> list[np.ndarray]:
    """A head's layers (``[w]``, or ``[W1, b1, w2]`` with ``hidden`` units) minimising the
    cross-entropy of the seats' softmax against ``y`` (rows summing to 1), by Adam."""
    rng = np.random.default_rng(seed)
    f = x.shape[2]
    if hidden:
        params = [rng.normal(0, 1 / math.sqrt(f), (f, hidden)), np.zeros(hidden),
                  rng.normal(0, 1 / math.sqrt(hidden), hidden)]
    else:
        params = [np.zeros(f)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = len(x)
    flat = x.reshape(-1, f)
    for t in range(1, steps + 1):
        if hidden:
            w1, b1, w2 = params
            h = np.tanh(flat @ w1 + b1)  # (positions·seats) × hidden
            p = softmax((h @ w2).reshape(mask.shape), mask)
            g = (np.where(mask, p - y, 0.0) / n).reshape(-1)  # d loss / d score
            gh = g[:, None] * w2 * (1 - h * h)
            grads = [flat.T @ gh + l2 * w1, gh.sum(axis=0), h.T @ g + l2 * w2]
        else:
            p = softmax((flat @ params[0]).reshape(mask.shape), mask)
            g = (np.where(mask, p - y, 0.0) / n).reshape(-1)
            grads = [flat.T @ g + l2 * params[0]]
        for i, gr in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * gr
            v[i] = 0.999 * v[i] + 0.001 * gr * gr
            params[i] = params[i] - rate * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    return params


def predict(layers: list[np.ndarray], data: Data, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    from .value import forward

    return softmax(forward(layers, (data.x - mean) / std), data.mask)


def scores(p: np.ndarray, y: np.ndarray, mask: np.ndarray, bins: int = 10) -> dict:
    """Brier score, log loss and calibration of win chances ``p`` against outcomes ``y``."""
    brier = float(np.mean(np.sum(np.where(mask, (p - y) ** 2, 0.0), axis=1)))
    logloss = float(np.mean(-np.sum(np.where(mask & (y > 0), y * np.log(np.clip(p, 1e-9, 1)), 0.0), axis=1)))
    pp, yy = p[mask], y[mask]
    table, gap = [], 0.0
    for b in range(bins):
        inside = (pp >= b / bins) & ((pp < (b + 1) / bins) if b < bins - 1 else (pp <= 1))
        if inside.any():
            pred, seen = float(pp[inside].mean()), float(yy[inside].mean())
            table.append({"bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}", "n": int(inside.sum()),
                          "predicted": round(pred, 3), "observed": round(seen, 3)})
            gap += inside.sum() * abs(pred - seen)
    return {"brier": round(brier, 4), "log_loss": round(logloss, 4), "ece": round(gap / max(1, len(pp)), 4),
            "calibration": table}


def _won(data: Data) -> Data:
    """The positions of games somebody won (the ``win`` head learns from these)."""
    return data.take(data.win.sum(axis=1) > 0.5)


def train(game: Game, lines: list[dict], *, seed: int = 0, hidden: int = 16, steps: int = 600) -> tuple[ValueModel, dict]:
    """Fit ``game``'s model to the recorded ``lines``; the model and the report."""
    check_options(hidden, steps)
    start = time.perf_counter()
    names, data = assemble(lines)
    fit, choose, held = split(data, seed)
    rows = fit.x[fit.mask]
    mean, std = rows.mean(axis=0), rows.std(axis=0)
    std = np.where(std > 1e-9, std, 1.0)
    heads, chosen = {}, {}
    for head, target in (("win", "win"), ("score", "score")):
        fw, cw = (_won(fit), _won(choose)) if head == "win" else (fit, choose)
        if len(fw.x) == 0 or len(cw.x) == 0:
            raise TrainError("no won games to learn the win head from")
        xs = (fw.x - mean) / std
        trials = {}
        for kind, units in (("linear", 0), *(((f"mlp{hidden}", hidden),) if hidden else ())):
            layers = fit_head(xs, fw.mask, getattr(fw, target), units, seed, steps)
            loss = scores(predict(layers, cw, mean, std), getattr(cw, target), cw.mask)["log_loss"]
            trials[kind] = (loss, layers)
        kind = min(trials, key=lambda k: (trials[k][0], k))
        heads[head] = trials[kind][1]
        chosen[head] = {"model": kind, "choose_log_loss": {k: v[0] for k, v in trials.items()}}
    held_won = _won(held)
    if len(held_won.x) == 0:
        raise TrainError("no game held out was won by anybody: record more games")
    n_seats = held_won.mask.sum(axis=1, keepdims=True)
    uniform = np.where(held_won.mask, 1 / np.maximum(1, n_seats), 0.0)
    report: dict[str, Any] = {
        "game": game.id, "seed": seed, "hidden": hidden, "steps": steps,
        "games": {"fit": len(np.unique(fit.seed)), "choose": len(np.unique(choose.seed)),
                  "held_out": len(np.unique(held.seed))},
        "positions": {"fit": len(fit.x), "choose": len(choose.x), "held_out": len(held.x),
                      "held_out_won": len(held_won.x)},
        "features": names, "chosen": chosen,
        "held_out": {
            "learned": scores(predict(heads["win"], held_won, mean, std), held_won.win, held_won.mask),
            "hand_written": scores(held_won.hand, held_won.win, held_won.mask),
            "equal_shares": scores(uniform, held_won.win, held_won.mask),
        },
        "score_head_mse": round(float(np.mean(np.sum(np.where(
            held.mask, (predict(heads["score"], held, mean, std) - held.score) ** 2, 0.0), axis=1))), 5),
        "hand_written_score_mse": round(float(np.mean(np.sum(np.where(
            held.mask, (held.hand - held.score) ** 2, 0.0), axis=1))), 5),
    }
    report["seconds"] = round(time.perf_counter() - start, 2)
    model = ValueModel({
        "format": FORMAT, "version": VERSION, "game": game.id, "features": names,
        "mean": _round(mean), "std": _round(std),
        "heads": {h: [_round(a) for a in layers] for h, layers in heads.items()},
        "trained": {k: report[k] for k in ("seed", "hidden", "steps", "games", "positions", "chosen")}
        | {"held_out_brier": {k: v["brier"] for k, v in report["held_out"].items()}},
    })
    return model, report


def _round(a: np.ndarray) -> list:
    return np.round(a, 6).tolist()


def check_options(hidden: int, steps: int) -> None:
    """Bad sizes stop before any work, naming the option."""
    if not 0 <= hidden <= 256:
        raise OptionError(f"--hidden must be between 0 and 256, not {hidden}")
    if not 1 <= steps <= 100_000:
        raise OptionError(f"--steps must be between 1 and 100000, not {steps}")
