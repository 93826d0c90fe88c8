"""The registry every phase module adds its steps to."""

from realms.core.engine import Steps

#: The game's id: its name in the registry, in records and on the command line.
GAME_ID = "brittania"

STEPS = Steps(GAME_ID)
