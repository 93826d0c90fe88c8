"""``python -m realms.server [--host H] [--port P] [--database URL]``: the same as ``realms serve``."""

from .cli import serve

serve(prog_name="realms serve")
