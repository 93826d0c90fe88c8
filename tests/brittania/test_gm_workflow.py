"""The workflow of a real forum game with ``realms gm`` (RULINGS BR-Q28, BR-Q30): a thread
over several pages, pages added one at a time, a display name mapped once, bad files
refused in one line, a resolve that writes all its files or none, and a results post a
forum can show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from realms.cli import cli
from realms.core.game import GMError
from realms.core.record import Record
from realms.games.brittania import GAME
from realms.games.brittania.forum import read_posts, read_text
from realms.games.brittania.gm_report import contrast, on_light
from realms.games.brittania.tables import load_tables

THREADS = Path(__file__).parent / "threads"
KEY = json.loads((THREADS / "key.json").read_text(encoding="utf-8"))


def realms(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.fixture
def thread1(tmp_path):
    folder = tmp_path / "g"
    args = [x for p in KEY["thread1"]["players"] for x in ("--player", p)]
    code, out = realms("gm", "new", "brittania", folder, *args, "--seed", "11")
    assert code == 0, out
    return folder


def _orders(out: str) -> dict:
    return {name: [o["reads"] for o in entry["orders"]] for name, entry in json.loads(out)["players"].items()}


def test_pages_read_together_or_added_one_at_a_time(thread1):
    """A thread saved as two pages and the personal messages read together; the same
    pages added one by one (``--add``) give the same orders, the first page's kept."""
    pages = [THREADS / p for p in KEY["thread1"]["pages"]]
    code, together = realms("gm", "orders", thread1, *pages, "--json")
    assert code == 0, together
    assert realms("gm", "orders", thread1, pages[0], "--json")[0] == 0
    for page in pages[1:]:
        code, added = realms("gm", "orders", thread1, page, "--add", "--json")
        assert code == 0, added
    assert _orders(added) == _orders(together)
    assert _orders(together)["Haskins"] == ["5 Grain to Defend Kent.", "5 Grain to Invest in Kent."]  # page 2
    assert _orders(together)["Dubhghall"] == ["4 Grain to Defend Fife.", "6 Grain to Conquer Lothian."]  # a PM
    code, alone = realms("gm", "orders", thread1, pages[1], "--json")
    assert _orders(alone)["notquitethere"] == []                   # without --add only the page given


def test_a_changed_display_name_is_mapped_once(thread1, tmp_path):
    posts = tmp_path / "posts.txt"
    posts.write_text('[post author="Kitten of Canada"]\n[b]4 Grain to Defend Dublin.[/b]\n[/post]\n')
    code, out = realms("gm", "orders", thread1, posts, "--json")
    assert json.loads(out)["strangers"][0]["author"] == "Kitten of Canada"
    code, out = realms("gm", "alias", thread1, "Kitten of Canada", "the canadian kitten")
    assert code == 0 and "Posts by Kitten of Canada are The Canadian kitten's." in out
    code, out = realms("gm", "orders", thread1, posts, "--json")
    assert _orders(out)["The Canadian kitten"] == ["4 Grain to Defend Dublin."]
    code, out = realms("gm", "alias", thread1, "Someone", "zzz")
    assert code != 0 and "unknown player 'zzz'" in out


def test_orders_glued_by_forum_markup_are_two_orders():
    """SMF's lists and line breaks inside one bold never glue two orders into one."""
    posts = read_text('[post author="Ann"][b][list][li]5 Grain to Defend Kent[/li][li]10 Grain to Conquer '
                      'Sussex[/li][/list][/b] [b]1 Grain[br]to Defend Kent&amp;co[/b][/post]', "t")
    assert [text for _, text in posts[0].bold] == ["5 Grain to Defend Kent", "10 Grain to Conquer Sussex",
                                                   "1 Grain", "to Defend Kent&co"]


def test_styling_codes_inside_bold_are_no_part_of_an_order():
    """SMF's [color], [size], [i] inside bold leave only their text (TURN ORDER: "they must
    be bolded")."""
    posts = read_text('[post author="Ann"][b][size=10pt]King Alfred leads the attack[/size][/b] '
                      '[b][color=green]2 Grain to Defend Kent[/color][/b][/post]', "t")
    assert [text for _, text in posts[0].bold] == ["King Alfred leads the attack", "2 Grain to Defend Kent"]


@pytest.mark.parametrize("head, edited, pm", [
    ('author="Ann" edited="yes"', True, False),
    ('author="Ann" edited="November 27, 2026, 09:14:02 PM"', True, False),
    ('author="Ann" edited', True, False),
    ('author="Ann" edited="no" pm="yes"', False, True),
    ("author=Ann Smith pm=yes", False, True),
])
def test_an_edit_is_marked_as_people_copy_it(head, edited, pm):
    """An edited post is reported (TURN ORDER: "You cannot edit your orders once you've send
    the post!"; RULINGS BR-Q28) however the game master marks it: yes, bare, or the date
    SMF shows; an unquoted author runs to the next attribute, as in SMF's quotes."""
    post = read_text(f"[post {head}][b]2 Grain to Defend Kent[/b][/post]", "t")[0]
    assert (post.edited, post.pm) == (edited, pm)
    assert post.author in ("Ann", "Ann Smith")


def test_bad_files_are_refused_in_one_line(thread1, tmp_path):
    """A device or a binary file is one line of error, read boundedly."""
    code, out = realms("gm", "orders", thread1, "/dev/zero")
    assert code != 0 and out.strip().count("\n") == 0 and "/dev/zero: over 8 MB" in out
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\x01\x02[post]")
    code, out = realms("gm", "orders", thread1, binary)
    assert code != 0 and out.strip().count("\n") == 0 and "not a text file" in out


def test_a_long_file_keeps_every_line_number(tmp_path):
    """The lines are counted once as the tags pass (a 10 MB file took 171 s when each tag
    counted from the start): every post still knows its line."""
    text = "".join(f'[post author="P{i}"]\nhello\n[b]{i} Grain to Defend Kent.[/b]\n[/post]\n' for i in range(5000))
    path = tmp_path / "long.txt"
    path.write_text(text)
    posts = read_posts(path)
    assert [(p.line, p.bold[0][0]) for p in posts[::1000]] == [(1 + 4 * i, 3 + 4 * i) for i in range(0, 5000, 1000)]


def test_resolve_writes_all_its_files_or_none_and_can_be_run_again(thread1, monkeypatch):
    pages = [THREADS / p for p in KEY["thread1"]["pages"]]
    assert realms("gm", "orders", thread1, *pages)[0] == 0
    before = (thread1 / "record.json").read_bytes()

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr("realms.games.brittania.draw.draw_png", broken)
    code, out = realms("gm", "resolve", thread1)
    assert code != 0 and "turn-1.png: cannot be written (the disk is full)" in out
    assert (thread1 / "record.json").read_bytes() == before
    assert not (thread1 / "turn-1.bbcode").exists() and not (thread1 / "turn-1.png").exists()
    assert not [p for p in thread1.iterdir() if p.name.startswith(".step-")]
    monkeypatch.undo()
    code, report = realms("gm", "resolve", thread1, "--image-url", "https://img.example.org/b/turn-1.png")
    assert code == 0, report
    assert "[img]https://img.example.org/b/turn-1.png[/img]" in report
    assert GAME.replay(Record.load(thread1 / "record.json")).turn == 2
    code, out = realms("gm", "resolve", thread1)
    assert code != 0 and "orders-2.json: no orders read for turn 2" in out


def test_the_results_post_reads_well_on_a_light_forum():
    """State names as the map writes them, "leads the defence of", every colour dark
    enough to read on white (WCAG 4.5:1), the refused lines with their reasons."""
    for name, hexc in load_tables().colour_hex.items():
        assert contrast(on_light(hexc)) >= 4.5, name
    assert on_light("#2f5fcf") == "#2f5fcf"                         # Blue reads already


def test_the_results_post_lists_what_was_not_taken(thread1, tmp_path):
    posts = tmp_path / "posts.txt"
    posts.write_text('[post author="notquitethere"]\n[b]5 Grain to Defend Wessex.\nKing Alfred leads the '
                     'defence of Wessex.\n2 Grain to Invest in Wesex.\n9 grain at Wessex[/b]\n[/post]\n'
                     '[post author="a1s" edited="yes"]\n[b]2 Grain to Defend Gwynedd.[/b]\n[/post]\n')
    assert realms("gm", "orders", thread1, posts)[0] == 0
    code, report = realms("gm", "resolve", thread1)
    assert code == 0, report
    assert "notquitethere orders: 5 grain to defend Wessex; King Alfred leads the defence of Wessex." in report
    assert "[li]notquitethere: [i]9 grain at Wessex[/i] — no order word (conquer, defend or invest) " \
           "(did you mean [i]9 Grain to Defend Wessex.[/i]?)[/li]" in report
    assert "2 grain buys no point: investing in Wessex goes by 4 grain a point" in report
    assert "[li]a1s: an edited post: orders cannot be edited once sent, so none of its orders count[/li]" in report
    assert "[color=#f7f7f2]" not in report and "(White)" in report


def test_a_stale_reading_is_read_again(thread1, tmp_path):
    posts = tmp_path / "posts.txt"
    posts.write_text('[post author="a1s"]\n[b]2 Grain to Defend Gwynedd.[/b]\n[/post]\n')
    assert realms("gm", "orders", thread1, posts)[0] == 0
    kept = json.loads((thread1 / "orders-1.json").read_text())
    kept["answers"] += 1
    (thread1 / "orders-1.json").write_text(json.dumps(kept))
    code, out = realms("gm", "resolve", thread1)
    assert code != 0 and "read for another position of the game; read the posts again" in out
    (thread1 / "orders-1.json").write_text("{not json")
    code, out = realms("gm", "resolve", thread1)
    assert code != 0 and "orders-1.json: not an orders file" in out


def test_gm_error_is_raised_for_a_folder_file_that_is_no_aliases_file(thread1):
    (thread1 / "aliases.json").write_text("[1, 2]")
    with pytest.raises(GMError, match="aliases.json: not an aliases file"):
        from realms.games.brittania.gm import aliases

        aliases(thread1)


def test_a_tables_row_is_one_line_its_cells_the_columns():
    """An SMF [table] in bold, or bold in each cell, gives one line a row ("Kent | defend |
    5"), never one line a cell nor two rows glued; a header row stays a line of its own."""
    for cells in ("[b][table][tr][td]State[/td][td]Order[/td][/tr][tr][td]Kent[/td][td]defend 5[/td][/tr]"
                  "[tr][td]Sussex[/td][td]attack 5[/td][/tr][/table][/b]",
                  "[table][tr][td][b]State[/b][/td][td][b]Order[/b][/td][/tr][tr][td][b]Kent[/b][/td]"
                  "[td][b]defend 5[/b][/td][/tr][tr][td][b]Sussex[/b][/td][td][b]attack 5[/b][/td][/tr][/table]"):
        posts = read_text(f'[post author="Ann"]{cells}[/post]', "t")
        assert [text for _, text in posts[0].bold] == ["State | Order", "Kent | defend 5", "Sussex | attack 5"]
    page = ('<html><body><div class="poster"><h4><a href="u">Ann</a></h4></div><div class="inner">'
            '<table class="bbc_table"><tr><td><strong>Kent</strong></td><td><strong>defend</strong></td>'
            '<td><strong>5</strong></td></tr><tr><td><strong>Sussex</strong></td><td><strong>attack 5</strong>'
            '</td></tr></table><strong><table class="bbc_table"><tr><td>Essex</td><td>5</td></tr></table></strong>'
            '</div></body></html>')
    from realms.games.brittania.forum import read_html
    assert [text for _, text in read_html(page)[0].bold] == ["Kent | defend | 5", "Sussex | attack 5", "Essex | 5"]


def test_a_code_box_shows_its_codes_so_they_are_not_bold():
    """In an SMF code box "[b]" is shown as written (SMF 2.0 and 2.1 alike): its text is
    no bold, kept apart with its line to be reported; a spoiler's bold is bold."""
    page = ('<html><body><div class="poster"><h4><a href="u">Ann</a></h4></div><div class="inner">Orders:<br />'
            '<div class="codeheader">Code: <a class="codeoperation">[Select]</a></div><code class="bbc_code">'
            '[b]5 Grain to Defend Kent[/b]<br />\n[b]5 Grain to Conquer Sussex[/b]</code>'
            '<details class="spoiler"><summary>Spoiler</summary><b>3 Grain to Invest in Kent</b></details>'
            '</div></body></html>')
    from realms.games.brittania.forum import read_html
    post = read_html(page)[0]
    assert [text for _, text in post.bold] == ["3 Grain to Invest in Kent"]
    assert post.coded == [(1, "5 Grain to Defend Kent"), (2, "5 Grain to Conquer Sussex")]
    posts = read_text('[post author="Ann"][code][b]5 Grain to Defend Kent[/b][/code] '
                      '[b][spoiler]3 Grain to Invest in Kent[/spoiler][/b][/post]', "t")
    assert posts[0].coded == [(1, "5 Grain to Defend Kent")]
    assert [text for _, text in posts[0].bold] == ["3 Grain to Invest in Kent"]


def test_struck_out_text_is_no_order():
    """A line the player struck out before sending ([s], SMF's <del> or <s>) is no order;
    the rest of the bold is read, every line number kept."""
    posts = read_text('[post author="Ann"][b][s]10 Grain to Conquer\nSussex[/s] 5 Grain to Defend Kent\n'
                      '5 Grain to Conquer Sussex[/b][/post]', "t")
    assert posts[0].bold == [(2, "5 Grain to Defend Kent"), (3, "5 Grain to Conquer Sussex")]
    from realms.games.brittania.forum import read_html
    page = ('<html><body><div class="poster"><h4><a href="u">Ann</a></h4></div><div class="inner"><strong>'
            '<del>10 Grain to Conquer Sussex</del><br />5 Grain to Defend Kent<br /><s>5 Grain to Invest in Kent</s>'
            '</strong></div></body></html>')
    assert [text for _, text in read_html(page)[0].bold] == ["5 Grain to Defend Kent"]


@pytest.mark.parametrize("mark, edited, by", [
    ('<div class="smalltext modified" id="modified_7">&#171; <em>Last Edit: March 03, 2013, 09:12:01 PM by Ann</em> '
     '&#187;</div>', True, ""),
    ('<span class="smalltext modified floatright mvisible" id="modified_7"><span class="lastedit">Last Edit</span>: '
     'November 26, 2026, 09:05:12 PM by Haspen</span>', False, "Haspen"),
    ('<div class="smalltext modified" id="modified_7">&#171; <em>Last Edit: March 03, 2013</em> &#187;</div>', True, ""),
    ('<div class="smalltext modified" id="modified_7"></div>', False, ""),
])
def test_an_edit_by_the_writer_voids_the_post_one_by_the_game_master_does_not(mark, edited, by):
    """TURN ORDER: "You cannot edit your orders once you've send the post!": SMF's "Last
    Edit … by" the writer (or by nobody named) marks his edit; one by someone else (the
    game master fixing the layout) is no edit of the player's."""
    from realms.games.brittania.forum import read_html
    page = ('<html><body><div class="poster"><h4><a href="u">Ann</a></h4></div><div class="inner">'
            f'<b>5 Grain to Defend Kent</b></div>{mark}</body></html>')
    post = read_html(page)[0]
    assert (post.edited, post.edited_by) == (edited, by)
