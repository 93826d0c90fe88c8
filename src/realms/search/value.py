"""A learned evaluation: each seat's chance of winning from the features of one seat's
view (``Game.features``), for the search's horizon (``--bots ismcts:value=learned``).

The model scores every seat with the same small function of that seat's features (a
linear one, or a network with one hidden layer of tanh units) and turns the scores into
win shares with a softmax over the seats, so one model serves any number of seats and
no seat's place at the table matters.  It is a handful of numpy arrays kept as JSON
inside the game's package (``data/value.json`` beside the game's state module) and
needs nothing beyond a plain install to play; ``realms train`` fits it
(:mod:`realms.search.train`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from realms.core.game import Game, OptionError

FORMAT = "realms-value"
VERSION = 1
FILE = "value.json"


class ValueModel:
    """One trained model: the feature names it reads (in order), their standardisation,
    and the layers of each head (``win``: the win shares; ``score``: the score shares)."""

    def __init__(self, data: dict, source: str = "model") -> None:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise OptionError(f"{source}: not a realms value model (format {FORMAT!r} version {VERSION})")
        self.data = data
        self.game = data["game"]
        self.names: list[str] = list(data["features"])
        self.mean = np.asarray(data["mean"], dtype=float)
        self.std = np.asarray(data["std"], dtype=float)
        self.heads = {name: [np.asarray(a, dtype=float) for a in layers]
                      for name, layers in data["heads"].items()}

    @classmethod
    def load(cls, path: str | Path) -> "ValueModel":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise OptionError(f"{path}: cannot read the value model: {exc}") from None
        return cls(data, str(path))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.data, separators=(",", ":")) + "\n", encoding="utf-8")

    def matrix(self, named: dict[str, list[float]]) -> np.ndarray:
        """The features by seat (seats × features, standardised), in the model's order; a
        feature the model reads and the game no longer gives raises naming it."""
        missing = [n for n in self.names if n not in named]
        if missing:
            raise OptionError(f"{self.game} value model reads features the game does not give: "
                              f"{', '.join(missing)} (retrain with realms train)")
        x = np.array([named[n] for n in self.names], dtype=float).T
        return (x - self.mean) / self.std

    def scores(self, x: np.ndarray, head: str = "win") -> np.ndarray:
        """Each seat's score (before the softmax) for standardised features ``x``
        (… × seats × features)."""
        return forward(self.heads[head], x)

    def predict(self, named: dict[str, list[float]], head: str = "win") -> list[float]:
        """Each seat's predicted share (of the wins, or of the scores with ``head="score"``)."""
        s = self.scores(self.matrix(named), head)
        e = np.exp(s - s.max())
        return (e / e.sum()).tolist()


def forward(layers: list[np.ndarray], x: np.ndarray) -> np.ndarray:
    """The seat scores of a head: ``[w]`` linear, ``[W1, b1, w2]`` one tanh layer."""
    if len(layers) == 1:
        return x @ layers[0]
    w1, b1, w2 = layers
    return np.tanh(x @ w1 + b1) @ w2


def shipped_path(game: Game) -> Path:
    """Where ``game``'s shipped model lives: ``data/value.json`` in its package."""
    package = game.state_class.__module__.rpartition(".")[0]
    return Path(str(resources.files(package))) / "data" / FILE


@cache
def shipped(game_id: str) -> ValueModel:
    """The model shipped with the game (loaded once per process); a game without one
    raises :class:`OptionError` naming the file."""
    from realms.core.game import get_game

    game = get_game(game_id)
    path = shipped_path(game)
    if game.features is None:
        raise OptionError(f"{game_id} declares no features: it has no learned evaluation")
    if not path.exists():
        raise OptionError(f"{game_id} ships no value model ({path}): train one with realms train")
    return ValueModel.load(path)


def model_for(game: Game, spec: str) -> ValueModel:
    """The model named by a bot parameter: ``learned`` (the game's shipped one) or a
    JSON file's path."""
    model = shipped(game.id) if spec == "learned" else ValueModel.load(spec)
    if model.game != game.id:
        raise OptionError(f"{spec}: a value model for {model.game!r}, not {game.id!r}")
    return model
