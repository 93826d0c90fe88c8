"""Writing a game master's step into the game's folder all at once: every file of the
step is written into a fresh folder beside the game first, then moved into place, the
record last.  A step that fails (a map that cannot be drawn, a full disk) leaves the
game as it was, and the step can simply be run again."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from realms.core.game import GMError

Content = str | bytes | Callable[[Path], None]


def write_files(folder: Path, files: dict[str, Content]) -> None:
    """Write ``files`` (name → text, bytes, or a function writing the path it is given)
    into ``folder``: all of them, in the order given, or none."""
    tmp = Path(tempfile.mkdtemp(prefix=".step-", dir=folder))
    try:
        for name, content in files.items():
            path = tmp / name
            try:
                if callable(content):
                    content(path)
                elif isinstance(content, bytes):
                    path.write_bytes(content)
                else:
                    path.write_text(content, encoding="utf-8")
            except (OSError, ValueError, RuntimeError, MemoryError) as exc:
                raise GMError(f"{folder / name}: cannot be written ({exc}); nothing of this step was written, "
                              "run it again") from None
            if not path.is_file():
                raise GMError(f"{folder / name}: was not written; nothing of this step was written")
        for name in files:
            os.replace(tmp / name, folder / name)
    except OSError as exc:
        raise GMError(f"{folder}: cannot write {exc.filename or ''}: {exc.strerror}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
