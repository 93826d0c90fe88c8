"""Every game as an environment of the learning libraries (``pip install realms[rl]``):
PettingZoo (:mod:`.pettingzoo`), OpenSpiel (:mod:`.openspiel`), Gymnasium
(:mod:`.gymnasium`).  What they share — the fixed action space, the observation vector —
is in :mod:`.common`; none of them names a game."""
