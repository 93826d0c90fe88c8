"""Files a user names that are not what they should be: each is refused with one line on
standard error naming the file and the problem — no traceback, nothing read without
bound, no huge value echoed — through the one reader every file goes through
(:mod:`realms.core.files`)."""

from __future__ import annotations

import json
import os

import pytest

from realms.cli import main
from realms.core.files import DataFile, FileError, load_toml, parse_json, parse_toml, read_lines, read_text
from realms.games.hy_breasil.tables import TableError, load_tables

ZERO = "/dev/zero"
needs_dev_zero = pytest.mark.skipif(not os.path.exists(ZERO), reason="no /dev/zero on this system")


def refused(capsys, *args: str) -> str:
    """The one-line error of a command that must refuse its input."""
    code = main(list(args))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("realms: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def record(**fields) -> dict:
    base = {"format": "realms-record", "version": 1, "game": "hy-breasil", "options": {}, "seed": 1, "answers": []}
    return {**base, **fields}


# -- realms replay -------------------------------------------------------------------------------
def test_replay_of_binary_bytes(capsys, tmp_path):
    f = tmp_path / "noise.json"
    f.write_bytes(bytes(range(256)) * 8)
    assert "noise.json: not a text file" in refused(capsys, "replay", str(f))


def test_replay_of_text_that_is_not_utf8(capsys, tmp_path):
    f = tmp_path / "latin.json"
    f.write_bytes(b'{"format": "realms-record",\n "game": "caf\xe9"}')
    assert "latin.json: not UTF-8 text (byte 0xe9 on line 2)" in refused(capsys, "replay", str(f))


def test_replay_of_json_nested_100k_deep(capsys, tmp_path):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert "deep.json: nested too deeply" in refused(capsys, "replay", str(f))


def test_replay_of_a_5000_digit_seed(capsys, tmp_path):
    f = tmp_path / "seed.json"
    f.write_text(json.dumps(record(seed=0)).replace('"seed": 0', '"seed": ' + "7" * 5000))
    assert "seed.json: a number of 5,000 digits (at most 100)" in refused(capsys, "replay", str(f))


@needs_dev_zero
def test_replay_of_dev_zero(capsys):
    assert f"{ZERO}: larger than" in refused(capsys, "replay", ZERO)


def test_replay_of_a_missing_file(capsys, tmp_path):
    assert "cannot read (No such file or directory)" in refused(capsys, "replay", str(tmp_path / "none.json"))


def test_a_megabyte_key_is_not_echoed(capsys, tmp_path):
    f = tmp_path / "key.json"
    f.write_text(json.dumps(record(options={"k" * 1_000_000: 1})))
    err = refused(capsys, "replay", str(f))
    assert "key.json" in err and len(err) < 1_000


def test_a_megabyte_format_is_not_echoed(capsys, tmp_path):
    f = tmp_path / "format.json"
    f.write_text(json.dumps(record(format="f" * 1_000_000)))
    err = refused(capsys, "replay", str(f))
    assert "format.json: not a realms record" in err and len(err) < 1_000


# -- a map named with --map (a record can name one too) ------------------------------------------
def test_map_toml_nested_deeply(capsys, tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n")
    err = refused(capsys, "simulate", "hy-breasil", "--map", str(f))
    assert "deep.toml: nested too deeply" in err and len(err) < 1_000


@needs_dev_zero
def test_map_toml_linked_to_dev_zero(capsys, tmp_path):
    f = tmp_path / "zero.toml"
    f.symlink_to(ZERO)
    assert "zero.toml: larger than" in refused(capsys, "simulate", "hy-breasil", "--map", str(f))


def test_map_toml_with_a_megabyte_area_id(capsys, tmp_path):
    f = tmp_path / "big.toml"
    f.write_text('[map]\nid = "m"\nname = "M"\nwidth = 1\nheight = 1\n[[area]]\nid = "' + "a" * 1_000_000 + '"\n')
    err = refused(capsys, "simulate", "hy-breasil", "--map", str(f))
    assert "big.toml: area 'aaa" in err and len(err) < 1_000


def test_map_toml_with_a_5000_digit_number(capsys, tmp_path):
    f = tmp_path / "num.toml"
    f.write_text('[map]\nid = "m"\nwidth = ' + "9" * 5000 + "\n")
    assert "num.toml: line 3: a number of more than 100 digits" in refused(
        capsys, "simulate", "hy-breasil", "--map", str(f))


def test_version2_board_of_binary_bytes(capsys, tmp_path):
    f = tmp_path / "board.toml"
    f.write_bytes(b"\x00\x01\x02" * 100)
    assert "board.toml: not a text file" in refused(capsys, "simulate", "version2", "--map", str(f))


def test_record_naming_a_map_linked_to_dev_zero(capsys, tmp_path):
    if not os.path.exists(ZERO):
        pytest.skip("no /dev/zero on this system")
    m = tmp_path / "zero.toml"
    m.symlink_to(ZERO)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(record(options={"map": str(m)})))
    assert "zero.toml: larger than" in refused(capsys, "replay", str(f))


# -- realms history on a games.jsonl -------------------------------------------------------------
def test_history_of_a_games_jsonl_with_bad_lines(capsys, tmp_path):
    f = tmp_path / "games.jsonl"
    f.write_text('{"seed": 1}\n')
    out = str(tmp_path / "h.html")
    assert "games.jsonl:1: not a game line" in refused(capsys, "history", str(f), "-o", out)
    f.write_bytes(b'{"seed": 1, "game": "x\xff"}\n')
    assert "games.jsonl:1: not UTF-8 text" in refused(capsys, "history", str(f), "-o", out)


# -- the reader itself ----------------------------------------------------------------------------
def test_read_text_reads_no_more_than_its_limit(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("x" * 101)
    assert read_text(f, limit=101) == "x" * 101
    with pytest.raises(FileError, match=r"a.txt: larger than 100 bytes; not read"):
        read_text(f, limit=100, name="a.txt")


def test_read_lines_refuses_an_endless_line(tmp_path):
    f = tmp_path / "lines.jsonl"
    f.write_text("short\n" + "y" * 50 + "\n")
    with pytest.raises(FileError, match=r"lines.jsonl:2: a line longer than 40 bytes"):
        list(read_lines(f, limit=40, name="lines.jsonl"))


def test_errors_come_in_the_callers_class():
    with pytest.raises(TableError, match="t.toml: nested too deeply"):
        parse_toml("x = " + "[" * 5_000 + "]" * 5_000, "t.toml", TableError)
    with pytest.raises(TableError, match="j.json: not valid JSON"):
        parse_json("{", "j.json", TableError)


# -- the games' data files: one loader, errors naming file, line and field -------------------------
def test_every_games_data_file_error_is_the_one_file_error():
    """A bad map, tables or rules file of any game raises the one :class:`FileError`, under
    the name its game's module gives it; a bad map of the shared map format is one too."""
    from realms.core.mapgraph import MapError
    from realms.games.brian_boru.tables import TableError as BrianBoruTables
    from realms.games.brittania.board import MapError as BrittaniaMap
    from realms.games.brittania.tables import TableError as BrittaniaTables
    from realms.games.version2.board import BoardError
    from realms.games.version2.rules import RulesError

    assert {TableError, BrianBoruTables, BrittaniaMap, BrittaniaTables, BoardError, RulesError} == {FileError}
    assert issubclass(MapError, FileError)


def test_file_errors_say_the_file_and_line_as_data(tmp_path):
    with pytest.raises(FileError, match=r"^t.toml: not valid TOML") as toml:
        parse_toml("a = 1\nb =\n", "t.toml")
    assert (toml.value.file, toml.value.line, toml.value.field) == ("t.toml", 2, None)
    with pytest.raises(FileError) as json_error:
        parse_json('{\n"a": }', "j.json")
    assert (json_error.value.file, json_error.value.line) == ("j.json", 2)
    f = tmp_path / "lines.jsonl"
    f.write_text("short\n" + "y" * 50 + "\n")
    with pytest.raises(FileError) as long_line:
        list(read_lines(f, limit=40, name="lines.jsonl"))
    assert (long_line.value.file, long_line.value.line) == ("lines.jsonl", 2)


def test_data_file_error_names_file_line_and_field(tmp_path):
    f = tmp_path / "rules.toml"
    f.write_text('# rules\n[game]\nturns = 5\nsize = "big"\n\n[other]\nsize = 3\n')
    data = load_toml(f, name="rules.toml")
    assert data.get("game.turns", int) == 5
    with pytest.raises(FileError, match=r"^rules.toml:4: game.size: must be an integer, got 'big'$") as bad:
        data.get("game.size", int)
    assert (bad.value.file, bad.value.line, bad.value.field) == ("rules.toml", 4, "game.size")
    with pytest.raises(FileError, match=r"^rules.toml:2: game.missing: missing$") as missing:
        data.get("game.missing", int)  # the line of its table
    assert (missing.value.file, missing.value.line, missing.value.field) == ("rules.toml", 2, "game.missing")
    assert DataFile({"a": True}, "a = true\n", "x.toml").line_of("a") == 1
    with pytest.raises(FileError, match="must be an integer, got True"):
        DataFile({"a": True}, "a = true\n", "x.toml").get("a", int)


def test_hy_breasil_tables_name_the_line_of_a_bad_field(tmp_path):
    from realms.games.hy_breasil.tables import DATA

    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("default_set_size"))
    f = tmp_path / "rules.toml"
    f.write_text(text.replace("default_set_size = 15", 'default_set_size = "fifteen"'))
    with pytest.raises(TableError, match=rf"^rules.toml:{line}: game.default_set_size: must be an integer, got 'fifteen'$"):
        load_tables(str(f))


def test_version2_rules_name_the_line_of_a_bad_field():
    from realms.games.version2.rules import RULES_FILE, RulesError, parse_rules

    lines = RULES_FILE.read_text(encoding="utf-8").splitlines()
    battle = lines.index("[battle]")
    at = next(i for i in range(battle, len(lines)) if lines[i].startswith("die ="))
    lines[at] = 'die = "six"'
    with pytest.raises(RulesError, match=rf"^rules.toml:{at + 1}: battle.die: must be an integer, got 'six'$"):
        parse_rules("\n".join(lines))


def test_data_file_names_the_line_of_one_table_of_an_array(tmp_path):
    """``name[i]`` is the i-th ``[[name]]`` table (Brittania's traits, Brian Boru's cards)."""
    f = tmp_path / "rules.toml"
    f.write_text('[[trait]]\namount = 1\npolygon = [\n  [1, 2],\n]\n\n[[trait]]\namount = "two"\n')
    data = load_toml(f, name="rules.toml")
    assert data.get("trait[0].amount", int) == 1
    with pytest.raises(FileError, match=r"^rules.toml:8: trait\[1\].amount: must be an integer, got 'two'$"):
        data.get("trait[1].amount", int)
    assert data.line_of("trait[1]") == 7 and data.line_of("trait[2].amount") is None
