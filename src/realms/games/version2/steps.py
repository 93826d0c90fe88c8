"""The registry every phase module adds its steps to.

A game can end inside any step (a mission fulfilled mid-attack, the last rival gone:
2.4); every frame still scheduled then runs as nothing, so the game asks no more.
"""

from realms.core.engine import Steps


class V2Steps(Steps):
    """Steps that do nothing once the game is over (``state.over``)."""

    def step(self, name: str):
        register = super().step(name)

        def deco(fn):
            def run(s, *args):
                if s.over:
                    return None
                return fn(s, *args)

            run.__name__ = run.__qualname__ = fn.__name__
            run.__doc__ = fn.__doc__
            register(run)
            return fn

        return deco


#: The game's id: its name in the registry, in records and on the command line.
GAME_ID = "version2"

STEPS = V2Steps(GAME_ID)
