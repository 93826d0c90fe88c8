"""What the adapters share: a fixed action space per game and a fixed-size vector of a
seat's view.

*Actions.*  A game's questions have option lists of varying length and meaning, so an
action is an index into the options of the question asked now (``Decision.keys``), and
the action space is ``0 .. max_actions-1`` with a mask of the indices offered.  The size
comes from ``Game.max_options`` (the most options one question can have), and an option
list longer than the space raises ``ValueError`` naming the question rather than
dropping options.

*Observations.*  A seat's view (``state.view(seat)``, JSON) is the observation itself;
the vector is the view hashed feature by feature (Weinberger et al. 2009, "feature
hashing"): every number at a path (``areas.12.units``) is added at the slot the path
hashes to, every string at the slot of ``path=value``, every ``true`` as 1.  It has the
same length for every position of a game, and since it is made from the view alone it
carries nothing the seat may not see.  Slots are clipped to ±``CLIP``.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from realms.core.decision import Decision
from realms.core.game import Game

#: the observation vector's length unless the caller asks for another
OBS_SIZE = 512
#: every slot of the vector lies within ±CLIP
CLIP = 10_000.0


def action_space_size(game: Game, max_actions: int | None = None) -> int:
    """The number of actions: ``max_actions`` if given, else the game's ``max_options``."""
    size = game.max_options if max_actions is None else int(max_actions)
    if size < 2:
        raise ValueError(f"{game.id}: max_actions must be at least 2, not {size}")
    return size


def check_fits(game_id: str, decision: Decision, size: int) -> None:
    """Refuse a question with more options than the action space holds."""
    if len(decision.keys) > size:
        raise ValueError(
            f"{game_id}: {decision.kind} for player {decision.player} offers {len(decision.keys)} "
            f"options, more than the {size} actions of the space (pass a larger max_actions)"
        )


def action_mask(decision: Decision | None, size: int) -> np.ndarray:
    """1 for each offered index of ``decision`` (none if it is None), as int8."""
    mask = np.zeros(size, dtype=np.int8)
    if decision is not None:
        mask[: len(decision.keys)] = 1
    return mask


#: slot of each feature text seen, by vector size (views repeat their paths)
_SLOTS: dict[int, dict[str, int]] = {}
_SLOTS_KEPT = 500_000


def _slots(size: int) -> dict[str, int]:
    table = _SLOTS.setdefault(size, {})
    if len(table) > _SLOTS_KEPT:
        table.clear()
    return table


def encode_view(view: Any, size: int = OBS_SIZE) -> np.ndarray:
    """The view as a float32 vector of ``size`` slots (see the module's docstring)."""
    out = [0.0] * size
    table = _slots(size)

    def add(text: str, amount: float) -> None:
        slot = table.get(text)
        if slot is None:
            slot = table[text] = zlib.crc32(text.encode("utf-8")) % size
        out[slot] += amount

    def walk(path: str, value: Any) -> None:
        kind = type(value)
        if kind is dict:
            for k, v in value.items():
                walk(f"{path}.{k}", v)
        elif kind is list or kind is tuple:
            for i, v in enumerate(value):
                walk(f"{path}.{i}", v)
        elif kind is bool:
            if value:
                add(path, 1.0)
        elif kind is int or kind is float:
            add(path, value)
        elif value is not None:
            add(f"{path}={value}", 1.0)

    walk("", view)
    return np.clip(np.array(out, dtype=np.float64), -CLIP, CLIP).astype(np.float32)
