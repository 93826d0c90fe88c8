"""Reading the files a user or a game names: bounded in size, with one-line errors.

Every file realms reads (records, maps, options files, the games' data tables) goes
through :func:`read_text`, and its JSON or TOML through :func:`parse_json` or
:func:`parse_toml`, so that a file that is too big, endless (``/dev/zero``), not text,
nested too deeply or holding a number of thousands of digits is refused with one line
naming the file and the problem — never a traceback, never the whole offending text.

A bad data file — a map, a game's tables, its rules — raises :class:`FileError`, the one
error of them all, which says where as data too: :attr:`~FileError.file`,
:attr:`~FileError.line` and :attr:`~FileError.field` (the games name it ``TableError``,
``RulesError``…, the name their modules always had).  Callers of other layers may pass
their own error class (``RecordError``), which gets the message alone.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .options import shown

__all__ = ["FileError", "DataFile", "read_text", "read_lines", "parse_json", "parse_toml",
           "load_toml", "cut", "shown", "RECORD_LIMIT", "DATA_LIMIT", "LINE_LIMIT"]

#: the largest record realms reads (a long game's answers take a few megabytes)
RECORD_LIMIT = 64 * 1024 * 1024
#: the largest map, options file or data table (the bundled ones are under 100 KB)
DATA_LIMIT = 8 * 1024 * 1024
#: the longest line of a file read line by line (a game's line of ``games.jsonl``)
LINE_LIMIT = 4 * 1024 * 1024
#: the most digits a number in a file may have (far above any seed or count realms writes)
MAX_DIGITS = 100
#: how much of a message about a file's contents an error keeps
MESSAGE = 300


class FileError(ValueError):
    """A file that cannot be read, parsed or used.  The message names the file and the
    problem (and where known the line and the field: ``rules.toml:47: game.turns: must be
    an integer, got 'x'``); so do ``file``, ``line`` and ``field``, each None where not known."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.field = field


def _error(error: type[Exception], message: str, file: str, line: int | None = None,
           field: str | None = None) -> Exception:
    """``error(message)``, saying where as data too when it is a :class:`FileError`."""
    if issubclass(error, FileError):
        return error(message, file=file, line=line, field=field)
    return error(message)


def cut(message: str, limit: int = MESSAGE) -> str:
    """A message that quotes a file's contents, cut to ``limit`` characters (values in it
    are best quoted with :func:`.options.shown`, which cuts each)."""
    return message if len(message) <= limit else message[:limit] + f"… ({len(message):,} characters)"


def read_text(path: str | Path, *, limit: int = DATA_LIMIT, error: type[Exception] = FileError,
              name: str | None = None) -> str:
    """The UTF-8 text of ``path``, read up to ``limit`` bytes: a longer file (or an endless
    one such as ``/dev/zero``) is refused without reading the rest.  ``name``: how errors
    call the file (default: the path as given)."""
    p = Path(path)
    where = name if name is not None else str(p)
    try:
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise _error(error, f"{where}: cannot read ({exc.strerror or exc})", where) from None
    if len(raw) > limit:
        raise _error(error, f"{where}: larger than {limit:,} bytes; not read", where)
    if b"\0" in raw:
        raise _error(error, f"{where}: not a text file (it holds NUL bytes)", where)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise _error(error, f"{where}: not UTF-8 text (byte 0x{raw[exc.start]:02x} on line {line})",
                     where, line) from None


def read_lines(path: str | Path, *, limit: int = LINE_LIMIT, error: type[Exception] = FileError,
               name: str | None = None) -> Iterator[tuple[int, str]]:
    """The UTF-8 lines of ``path`` with their numbers, each read up to ``limit`` bytes (a
    file of any length, such as a long simulation's ``games.jsonl``, but no endless line)."""
    p = Path(path)
    where = name if name is not None else str(p)
    try:
        fh = p.open("rb")
    except OSError as exc:
        raise _error(error, f"{where}: cannot read ({exc.strerror or exc})", where) from None
    with fh:
        number = 0
        while True:
            try:
                raw = fh.readline(limit + 1)
            except OSError as exc:
                raise _error(error, f"{where}: cannot read ({exc.strerror or exc})", where) from None
            if not raw:
                return
            number += 1
            if len(raw) > limit:
                raise _error(error, f"{where}:{number}: a line longer than {limit:,} bytes", where, number)
            if b"\0" in raw:
                raise _error(error, f"{where}:{number}: not a text file (it holds NUL bytes)", where, number)
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _error(error, f"{where}:{number}: not UTF-8 text", where, number) from None


class _LongNumber(ValueError):
    pass


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _LongNumber(f"a number of {digits:,} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _LongNumber(f"a number of {len(text):,} characters (at most {MAX_DIGITS})")
    return float(text)


def parse_json(text: str, source: str, error: type[Exception] = FileError) -> Any:
    """JSON text parsed, numbers of at most :data:`MAX_DIGITS` digits, nesting as deep as
    the interpreter allows (about a thousand levels); errors name ``source`` and the line."""
    try:
        return json.loads(text, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise _error(error, f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})", source, exc.lineno) from None
    except _LongNumber as exc:
        raise _error(error, f"{source}: {exc}", source) from None
    except RecursionError:
        raise _error(error, f"{source}: nested too deeply", source) from None


_TOML_INT = re.compile(r"[-+]?\d[\d_]{%d,}" % MAX_DIGITS)


def parse_toml(text: str, source: str, error: type[Exception] = FileError) -> dict[str, Any]:
    """TOML text parsed; errors name ``source`` and, for syntax, the line and column."""
    long = _TOML_INT.search(text)
    if long:
        line = text.count("\n", 0, long.start()) + 1
        raise _error(error, f"{source}: line {line}: a number of more than {MAX_DIGITS} digits", source, line)
    try:
        return tomllib.loads(text, parse_float=_float)
    except tomllib.TOMLDecodeError as exc:
        raise _error(error, cut(f"{source}: not valid TOML ({exc})"), source, _toml_line(exc)) from None
    except _LongNumber as exc:
        raise _error(error, f"{source}: {exc}", source) from None
    except RecursionError:
        raise _error(error, f"{source}: nested too deeply", source) from None


def _toml_line(exc: tomllib.TOMLDecodeError) -> int | None:
    """The line a TOML syntax error is on, from its message ("… (at line 3, column 7)")."""
    m = re.search(r"at line (\d+)", str(exc))
    return int(m.group(1)) if m else None


def load_toml(path: str | Path, *, limit: int = DATA_LIMIT, error: type[Exception] = FileError,
              name: str | None = None) -> "DataFile":
    """A TOML file read with :func:`read_text` and parsed with :func:`parse_toml`."""
    where = name if name is not None else str(path)
    text = read_text(path, limit=limit, error=error, name=where)
    return DataFile(parse_toml(text, where, error), text, where, error)


class DataFile:
    """A parsed data file that can say where a field is: its values are read with
    :meth:`get`, whose errors name the file, the line and the field
    (``rules.toml:47: game.default_set_size: must be an integer, got 'x'``)."""

    def __init__(self, data: dict[str, Any], text: str, source: str,
                 error: type[Exception] = FileError) -> None:
        self.data = data
        self.text = text
        self.source = source
        self.error = error

    def line_of(self, field: str) -> int | None:
        """The line that sets ``field``: the key's line after its table's header, else (a
        table, or a key missing from its table) a header's; None if the text does not say.  ``field`` is
        dotted (``game.turns``); ``name[i]`` is the ``i``-th ``[[name]]`` table, from 0
        (``trait[2].effect``)."""
        *tables, key = field.split(".")
        lines = self.text.splitlines()
        start = self._header(lines, tables) if tables else 0
        if start is not None:
            assign = re.compile(r"\s*[\"']?%s[\"']?\s*=" % re.escape(key))
            for i in range(start, len(lines)):
                if _HEADER.match(lines[i]):
                    break
                if assign.match(lines[i]):
                    return i + 1
        return self._header(lines, tables + [key]) or start or None

    @staticmethod
    def _header(lines: list[str], tables: list[str]) -> int | None:
        """The line of the header of the table ``tables`` (its last part may be indexed)."""
        *names, last = tables
        m = _INDEXED.fullmatch(last)
        last, index = (m.group(1), int(m.group(2))) if m else (last, 0)
        header = re.compile(r"\s*\[\[?\s*%s\s*\]\]?\s*(#.*)?$" % r"\s*\.\s*".join(map(re.escape, names + [last])))
        found = [i + 1 for i, line in enumerate(lines) if header.match(line)]
        return found[index] if index < len(found) else None

    def fail(self, field: str, problem: str) -> Exception:
        """The error for ``field``: file, line (when found), field and problem."""
        line = self.line_of(field)
        at = f"{self.source}:{line}" if line else self.source
        return _error(self.error, f"{at}: {field}: {problem}", self.source, line, field)

    def get(self, field: str, kind: type | tuple[type, ...] = object) -> Any:
        """The value at dotted ``field``, of type ``kind`` (a bool is not an int)."""
        node: Any = self.data
        for part in field.split("."):
            m = _INDEXED.fullmatch(part)
            name, index = (m.group(1), int(m.group(2))) if m else (part, None)
            if not isinstance(node, dict) or name not in node:
                raise self.fail(field, "missing")
            node = node[name]
            if index is not None:
                if not isinstance(node, list) or index >= len(node):
                    raise self.fail(field, "missing")
                node = node[index]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(node, kinds) or (isinstance(node, bool) and bool not in kinds):
            names = ("a number" if set(kinds) == {int, float}
                     else " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds))
            raise self.fail(field, f"must be {names}, got {shown(node)}")
        return node


#: a table's header line (``[name]``, ``[[name]]``), not a line of a multi-line array
_HEADER = re.compile(r"\s*\[\[?\s*[A-Za-z_\"'][^\]]*\]\]?\s*(#.*)?$")
#: a field part naming one table of an array of tables: ``name[i]``
_INDEXED = re.compile(r"(.+)\[(\d+)\]")

_KIND_NAMES = {int: "an integer", float: "a number", str: "a string", list: "an array",
               dict: "a table", bool: "true or false"}
