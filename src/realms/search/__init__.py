"""Search over the engine's public contract, for every game (no game is named here)."""
