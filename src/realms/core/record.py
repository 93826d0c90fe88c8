"""Records: game id, options, seed and the answers in order — versioned JSON, never pickle.

A record replays to exactly the same state on any machine; it is the save format, the
audit trail and the bug report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .files import RECORD_LIMIT, parse_json, read_text
from .options import shown

FORMAT = "realms-record"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the file and the problem."""


@dataclass
class Record:
    game: str
    options: dict
    seed: int
    answers: list[tuple[int, str]] = field(default_factory=list)
    version: int = 1

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "answers": [[p, k] for p, k in self.answers],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: object, source: str = "record") -> "Record":
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"{source}: not a realms record (format is {shown(data.get('format'))})")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise RecordError(f"{source}: 'version' must be an integer")
        for key, kind in (("game", str), ("options", dict), ("seed", int), ("answers", list)):
            if key not in data:
                raise RecordError(f"{source}: missing {key!r}")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise RecordError(f"{source}: {key!r} must be of type {kind.__name__}")
        answers: list[tuple[int, str]] = []
        for i, a in enumerate(data["answers"]):
            if (
                not isinstance(a, list)
                or len(a) != 2
                or not isinstance(a[0], int)
                or isinstance(a[0], bool)
                or not isinstance(a[1], str)
            ):
                raise RecordError(f"{source}: answer #{i + 1} must be [player, key], got {shown(a)}")
            answers.append((a[0], a[1]))
        return cls(data["game"], data["options"], data["seed"], answers, version)

    @classmethod
    def loads(cls, text: str, source: str = "record") -> "Record":
        """A record from JSON text (numbers and nesting bounded, :mod:`.files`)."""
        return cls.from_json(parse_json(text, source, RecordError), source)

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        """A record file, read up to :data:`.files.RECORD_LIMIT` bytes."""
        return cls.loads(read_text(path, limit=RECORD_LIMIT, error=RecordError), str(path))
