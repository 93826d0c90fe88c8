"""The game master's assistant (RULINGS BR-Q28): reading posts in both
formats (only bold counts, quotes never), both ways of writing each order, every problem
of a post with its line and reason, and a forum game run from ``realms gm new`` through
``orders`` and ``resolve`` to ``realms replay``."""

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
from realms.games.brittania.gm import names_of
from realms.games.brittania.orders import Order
from realms.games.brittania.phrases import Unreadable, read_order

POSTS = Path(__file__).parent / "posts"
PLAYERS = ("--player", "Ann:Kent:Alfred:Shrewd", "--player", "Bob:essex:Edmund:Warrior",
           "--player", "Carl:Galloway:Cuillen:Sailor")


def realms(*args: str):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.fixture
def folder(tmp_path):
    code, out = realms("gm", "new", "brittania", tmp_path / "g", *PLAYERS, "--seed", "3")
    assert code == 0, out
    return tmp_path / "g"


# -- reading posts ------------------------------------------------------------------------
def test_text_posts_only_bold_outside_quotes_counts():
    posts = read_posts(POSTS / "turn1.txt")
    assert [(p.author, p.line, p.edited) for p in posts] == [
        ("Ann", 1, False), ("Bob", 12, False), ("Ann", 18, False), ("Carl", 21, True), ("Zed", 24, False)]
    ann = posts[0].bold
    assert ann[:2] == [(2, "5 Grain to Defend Kent."), (3, "4 Grain for Investing of Kent.")]
    assert not any("10 Grain to Conquer Kent" in text for _, text in ann)      # quoted from Bob
    assert not any("10 Grain to Conquer Essex" in text for _, text in ann)     # not bold


def test_smf_page_authors_bold_quotes_and_last_edit():
    posts = read_posts(POSTS / "turn1.html")
    assert [(p.author, p.edited) for p in posts] == [("Ann", False), ("Bob", True), ("Zed", False)]
    assert [text for _, text in posts[0].bold] == [
        "5 Grain to Defend Kent.", "10 Grain to Conquer Essex.", "2 Grain to Invest in Kentt.",
        "Trade Route with Bob."]                                   # <strong> and <b>; the quote left out
    assert all(line > 1 for line, _ in posts[0].bold)


@pytest.mark.parametrize("text, message", [
    ('[post]x[/post]', "1: a post without its author"),
    ('[post author="Ann"]\n[b]x[/b]', "1: the post by Ann has no [/post]"),
    ('[/post]', "1: [/post] without a post"),
])
def test_text_format_errors_name_the_line(text, message):
    with pytest.raises(GMError, match=message.replace("[", r"\[")):
        read_text(text, "posts.txt")


def test_a_file_without_posts_is_refused(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here")
    with pytest.raises(GMError, match=r"empty.txt: no \[post"):
        read_posts(empty)


# -- reading orders -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def names():
    return names_of(GAME.new_game({"names": ["Ann", "Bob", "Carl"]}, 1))


@pytest.mark.parametrize("line, order", [
    ("10 Grain to Conquer Kent.", Order("conquer", "kent", 10)),
    ("10 Grain for Conquest of Kent.", Order("conquer", "kent", 10)),
    ("5 Grain to Defend Essex.", Order("defend", "essex", 5)),
    ("5 Grain for Defense of Essex.", Order("defend", "essex", 5)),
    ("5 grain for defence of essex", Order("defend", "essex", 5)),
    ("5 Grain to Invest in Essex.", Order("invest", "essex", 5)),
    ("5 Grain for Investing of Essex.", Order("invest", "essex", 5)),
    ("8 Grain to Conquer Ui Neil.", Order("conquer", "ui-neill", 8)),       # misspelt, one clearly nearest
    ("Move Capital to Essex.", Order("capital", "essex", 20)),
    ("20 Grain to Move Capital to Essex.", Order("capital", "essex", 20)),
    ("New Capital: Wessex.", Order("capital", "wessex", 0)),
    ("Trade Route with Bob.", Order("trade", "1")),
    ("Establish a Trade Route with carl.", Order("trade", "2")),
    ("Cancel Trade Route with Bob.", Order("cancel", "1")),
    ("King leads Conquest of Kent.", Order("lead", "conquer:kent")),
    ("King Alfred leads the Attack on Kent.", Order("lead", "conquer:kent")),
    ("King leads the Defence of Essex.", Order("lead", "defend:essex")),
])
def test_both_ways_of_writing_orders(names, line, order):
    assert read_order(line, names) == order


@pytest.mark.parametrize("line, reason", [
    ("Please be gentle.", "not readable as an order"),
    ("3 Grain to Conquer Atlantis.", "unknown state 'Atlantis' (closest: "),
    ("2 Grain to Invest in Essx.", "close to more than one (closest: Essex, Wessex"),
    ("10 Grain to Move Capital to Essex.", "moving the capital costs 20 grain, not 10"),
    ("Trade Route with Zed.", "unknown player 'Zed'"),
])
def test_unreadable_lines_say_why(names, line, reason):
    with pytest.raises(Unreadable) as err:
        read_order(line, names)
    assert reason in str(err.value)


# -- the commands -----------------------------------------------------------------------------
def test_gm_orders_reports_every_problem_with_line_and_reason(folder):
    """BR-Q28: every line that looks like an order but is not taken has its line and
    reason; a later post adds orders (the text forbids editing, not a second post), an
    edited post counts for nothing; BR-Q23: repeated orders of a post add up."""
    code, out = realms("gm", "orders", folder, POSTS / "turn1.txt", "--json")
    assert code == 0, out
    got = json.loads(out)
    assert got["turn"] == 1 and got["strangers"] == [{"author": "Zed", "where": "turn1.txt:24", "line": 24}]
    ann, bob, carl = (got["players"][n] for n in ("Ann", "Bob", "Carl"))
    assert [(o["kind"], o["target"], o["grain"], o["line"]) for o in ann["orders"]] == [
        ("defend", "kent", 5, 2), ("invest", "kent", 4, 3)]
    reasons = {(x["line"], x["text"]): x for x in ann["problems"]}
    assert reasons[(5, "3 Grain to Conquer Atlantis")]["reason"].startswith("unknown state 'Atlantis' (closest: ")
    essx = reasons[(5, "2 Grain to Invest in Essx")]
    assert "close to more than one" in essx["reason"] and essx["hint"] == "2 Grain to Invest in Essex."
    assert (7, "Please be gentle") not in reasons                      # chatter, not order-like
    assert reasons[(8, "1 Grain to Conquer Ui Neill")]["reason"].startswith("Ui Neill is not next to your states")
    assert reasons[(9, "1 Grain to Defend Essex")]["reason"] == "you do not hold Essex"
    assert reasons[(10, "2 Grain to Conquer Sussex")]["reason"] == "2 grain is more than the 1 you have left"
    assert reasons[(19, "10 Grain to Conquer Essex")]["reason"] == "10 grain is more than the 1 you have left"
    assert [(o["reads"], o["line"]) for o in bob["orders"]] == [("5 Grain to Invest in Essex.", 15)]  # BR-Q13
    assert bob["notes"][0]["reason"] == "added to line 13: 30 grain in all (at most 30; 35 written)"
    bob_reasons = {x["line"]: x["reason"] for x in bob["problems"]}
    assert bob_reasons[13] == "30 grain is more than the 10 you have left"
    assert bob_reasons[16] == "Carl is not your neighbour by land or sea"
    assert carl["orders"] == [] and "an edited post" in carl["problems"][0]["reason"]
    code, text = realms("gm", "orders", folder, POSTS / "turn1.txt")
    assert "Post by Zed (turn1.txt:24): not a player of the game" in text
    assert "  turn1.txt:9: PROBLEM '1 Grain to Defend Essex': you do not hold Essex" in text
    assert "(did you mean '2 Grain to Invest in Essex.'?)" in text


def test_a_forum_game_from_new_to_a_posted_report_and_its_replay(folder):
    code, out = realms("gm", "resolve", folder)
    assert code != 0 and "orders-1.json: no orders read for turn 1" in out
    assert realms("gm", "orders", folder, POSTS / "turn1.html")[0] == 0
    code, report = realms("gm", "resolve", folder)
    assert code == 0, report
    assert (folder / "turn-1.bbcode").read_text() + "\n" == report
    assert "[b]Turn 1 results[/b]" in report and "Ann orders: 5 grain to defend Kent; a trade route with Bob." in report
    assert "Bob orders: nothing." in report                       # his only post was edited
    assert "[b]Grain for turn 2[/b]" in report
    assert (folder / "turn-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    state = GAME.replay(Record.load(folder / "record.json"))
    assert state.turn == 2 and state.output[state.board.index["kent"]] == 10
    code, out = realms("replay", folder / "record.json", "--json")
    assert code == 0 and json.loads(out)["state_hash"] == state.state_hash()
    code, out = realms("gm", "orders", folder, POSTS / "turn1.txt", "--json")
    assert json.loads(out)["turn"] == 2


def test_gm_new_refuses_bad_players_by_name(tmp_path):
    code, out = realms("gm", "new", "brittania", tmp_path / "a", "--player", "Ann:Kent:Alfred")
    assert code != 0 and "--player #1 'Ann:Kent:Alfred': expected NAME:STATE:KING:TRAIT" in out
    code, out = realms("gm", "new", "brittania", tmp_path / "b", "--player", "Ann:Kent:Alfred:Shrewd",
                       "--player", "Bob:Kent:Edmund:Warrior")
    assert code != 0 and "--player #2 (Bob): Kent is taken" in out
    code, out = realms("gm", "orders", tmp_path / "a", POSTS / "turn1.txt")
    assert code != 0 and "no game here" in out


def test_gm_new_a_king_named_as_his_player_names_him(tmp_path):
    """BR-Q6, PLAYER KINGS: "he needs a Name": Ann's King Offa in Kent, though the English
    list has no Offa, and Bob's "King   Aelle of Sussex" (the word King and doubled spaces
    left out); a name of the list keeps the list's spelling ("alfred"); the record
    replays to the same game."""
    code, out = realms("gm", "new", "brittania", tmp_path / "g", "--player", "Ann:Kent:Offa:Shrewd",
                       "--player", "Bob:Sussex:King   Aelle of Sussex:Rich", "--player", "Carl:Essex:alfred:Rich",
                       "--seed", "4", "--json")
    assert code == 0, out
    assert [x["king"] for x in json.loads(out)["players"]] == ["Offa", "Aelle of Sussex", "Alfred"]
    state = GAME.replay(Record.load(tmp_path / "g" / "record.json"))
    assert state.king_name == ["Offa", "Aelle of Sussex", "Alfred"]
    code, out = realms("replay", tmp_path / "g" / "record.json", "--json")
    assert code == 0 and json.loads(out)["state_hash"] == state.state_hash()


@pytest.mark.parametrize("king, message", [
    ("", "a king needs a name (it is empty)"),
    ("Offa the Great, Bretwalda of the Angles", "is 39 characters long; at most 30"),
    ("[b]Offa[/b]", "holds '[': printable text without []<>"),
    ("Essex", "the king's name 'Essex' is a state's name: orders name both and must read one way"),
    ("Defend", "the king's name 'Defend' is a word of the orders"),
    ("1066", "has no letters"),
])
def test_gm_new_refuses_a_name_that_is_no_name(tmp_path, king, message):
    """BR-Q6: the name is the player's, but a name: not empty, at most 30 characters of
    plain text, and one a post can tell from a state or an order's words.  Nothing is
    written."""
    code, out = realms("gm", "new", "brittania", tmp_path / "g", "--player", "Ann:Kent:Alfred:Shrewd",
                       "--player", f"Bob:Sussex:{king}:Rich")
    assert code != 0 and "--player #2 (Bob): " in out and message in out, out
    assert not (tmp_path / "g" / "record.json").exists()


def test_a_king_with_his_own_name_leads_in_a_post(tmp_path):
    """BR-Q6 and BR-Q8: a king named by his player is read by that name when he leads
    ("Offa the Great leads the attack on Sussex")."""
    folder = tmp_path / "g"
    assert realms("gm", "new", "brittania", folder, "--player", "Ann:Kent:Offa the Great:Warrior",
                  "--player", "Bob:Essex:Edmund:Rich", "--seed", "2")[0] == 0
    posts = tmp_path / "turn1.txt"
    posts.write_text('[post author="Ann"]\n[b]10 Grain to Conquer Sussex.\nOffa the Great leads the attack on '
                     'Sussex.[/b]\n[/post]\n')
    code, out = realms("gm", "orders", folder, posts, "--json")
    assert code == 0, out
    read = json.loads(out)["players"]["Ann"]
    assert [o["kind"] for o in read["orders"]] == ["conquer", "lead"] and read["problems"] == []


def test_gm_is_generic_a_game_without_an_assistant_says_so(tmp_path):
    code, out = realms("gm", "new", "hy-breasil", tmp_path / "h", "--player", "x")
    assert code != 0 and "Hy Breasil has no game master's assistant" in out
    code, out = realms("gm", "new", "atlantis", tmp_path / "h", "--player", "x")
    assert code != 0 and "unknown game 'atlantis'" in out


def test_gm_new_says_what_a_player_holds_and_keeps_one_game_a_folder(folder):
    code, out = realms("gm", "new", "brittania", folder)
    assert code != 0 and "give each player as --player NAME:STATE:KING:TRAIT" in out
    code, out = realms("gm", "new", "brittania", folder, *PLAYERS)
    assert code != 0 and "a game is kept here already" in out


def test_a_newcomer_takes_an_eliminated_players_colour(tmp_path):
    """BR-Q30: "If any Player gets eliminated, another can take their color, pick an
    independent State": Bob loses Sussex, his only state, on turn 1; on turn 2 nobody
    takes Yellow and the turn goes on ("can", not "must"); on turn 3 Dan posts
    "Newcomer in Yellow: …", takes the seat under his name, and his orders count.  Reading
    the posts changes nothing of the game (read twice, the same answer); a newcomer line
    naming a state that is not independent is a problem on that line only."""
    folder = tmp_path / "g"
    realms("gm", "new", "brittania", folder, "--player", "Ann:Kent:Alfred:Shrewd",
           "--player", "Bob:Sussex:Edmund:Rich", "--seed", "1")
    posts = tmp_path / "turn1.txt"
    posts.write_text('[post author="Ann"]\n[b]10 Grain to Conquer Sussex.[/b]\n[/post]\n')
    assert realms("gm", "orders", folder, posts)[0] == 0
    code, report = realms("gm", "resolve", folder)
    assert "Bob (Yellow) has lost every state and is eliminated." in report
    posts.write_text('[post author="Ann"]\n[b]5 Grain to Defend Sussex.[/b]\n[/post]\n')
    code, out = realms("gm", "orders", folder, posts)
    assert code == 0 and "The Yellow colour stays free this turn" in out
    code, report = realms("gm", "resolve", folder)
    assert code == 0 and "Nobody takes the colour left by Bob (Yellow) this turn." in report
    posts.write_text('[post author="Ann"]\n[b]5 Grain to Defend Sussex.\nNewcomer in Yellow: Kent, Alfred, Rich.[/b]\n'
                     '[/post]\n[post author="Eve"]\n[b]Newcomer in Yellow: Sussex, King Edmund, Rich.[/b]\n[/post]\n'
                     '[post author="Dan"]\nHello all. [b]Newcomer in Yellow: essex, King Edmund, Rich.\n'
                     '4 Grain to Invest in Essex.[/b]\n[/post]\n')
    before = (folder / "record.json").read_bytes()
    code, out = realms("gm", "orders", folder, posts, "--json")
    assert code == 0, out
    assert realms("gm", "orders", folder, posts, "--json") == (code, out)
    assert (folder / "record.json").read_bytes() == before
    read = json.loads(out)
    assert read["newcomers"] == [{"seat": 1, "name": "Dan", "colour": "Yellow", "state": "essex", "trait": "Rich",
                                  "king": "Edmund", "cv": read["newcomers"][0]["cv"], "where": "turn1.txt:9",
                                  "line": 9}]
    assert read["newcomer_problems"] == [{"where": "turn1.txt:6", "line": 6, "author": "Eve",
                                          "text": "Newcomer in Yellow: Sussex, King Edmund, Rich.",
                                          "reason": "Sussex is not independent: a newcomer picks an independent state"}]
    assert [o["kind"] for o in read["players"]["Dan"]["orders"]] == ["invest"]
    assert read["players"]["Dan"]["problems"] == [] and read["strangers"] == []
    assert read["players"]["Ann"]["problems"] == [{"where": "turn1.txt:3", "line": 3,
                                                   "text": "Newcomer in Yellow: Kent, Alfred, Rich.",
                                                   "reason": "only someone not in the game can take a free colour"}]
    code, report = realms("gm", "resolve", folder)
    assert code == 0 and "Dan orders: 4 grain to invest in Essex." in report
    state = GAME.replay(Record.load(folder / "record.json"))
    assert state.names == ["Ann", "Dan"] and state.alive[1] and state.colours[1] == "Yellow"
    assert state.output[state.board.index["essex"]] == 11


def test_a_lead_of_the_attack_leads_the_posts_attack_not_the_order_before_it(folder, tmp_path):
    """PLAYER KINGS: "assign your King to personally Lead an Attack or Defense"; a lead
    naming its kind but no state ("Alfred will lead the attack") leads the post's attack,
    though a defence was written after it (RULINGS BR-Q8)."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"][b]4 Grain to Conquer Sussex[/b] [b]5 Grain to Defend Kent[/b] '
                    "[b]Alfred will lead the attack[/b][/post]", encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    ann = json.loads(out)["players"]["Ann"]
    assert [(o["kind"], o["target"]) for o in ann["orders"]][-1] == ("lead", "conquer:sussex")


def test_a_newcomer_names_his_king_as_he_likes(tmp_path):
    """BR-Q6 and BR-Q30: a newcomer "creates their King (read below!)" as every player
    does, so his line names him freely ("Newcomer in Yellow: Essex, King Offa, Rich."); a
    line whose king has no name is a problem of that line only, and the colour goes to the
    next newcomer who posts for it."""
    folder = tmp_path / "g"
    realms("gm", "new", "brittania", folder, "--player", "Ann:Kent:Alfred:Shrewd",
           "--player", "Bob:Sussex:Edmund:Rich", "--seed", "1")
    posts = tmp_path / "turn1.txt"
    posts.write_text('[post author="Ann"]\n[b]10 Grain to Conquer Sussex.[/b]\n[/post]\n')
    assert realms("gm", "orders", folder, posts)[0] == 0
    assert realms("gm", "resolve", folder)[0] == 0
    posts.write_text('[post author="Eve"]\n[b]Newcomer in Yellow: Wessex, King , Rich.[/b]\n[/post]\n'
                     '[post author="Dan"]\n[b]Newcomer in Yellow: Essex, King Offa, Rich.[/b]\n[/post]\n')
    code, out = realms("gm", "orders", folder, posts, "--json")
    assert code == 0, out
    read = json.loads(out)
    assert [(x["name"], x["king"]) for x in read["newcomers"]] == [("Dan", "Offa")]
    assert [(x["author"], x["reason"]) for x in read["newcomer_problems"]] == [("Eve", "a king needs a name (it is empty)")]
    code, report = realms("gm", "resolve", folder)
    assert code == 0, report
    state = GAME.replay(Record.load(folder / "record.json"))
    assert state.names[1] == "Dan" and state.king_name[1] == "Offa"


def test_shares_of_the_grain_the_rest_and_same_as_last_turn(folder, tmp_path):
    """RULINGS BR-Q28: "half my grain" is half the writer's grain at the start of the turn
    (the Oxford example: "If you invest half of your Grain, 45"); "the rest" is what his
    other orders of the turn leave, given once; "same as last turn" names no order and is
    listed with its reason, its exception read."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"][b]Half my grain to defend Kent[/b]\n'
                    "[b]Same as last turn except 1 grain to conquer Sussex[/b][/post]\n"
                    '[post author="Ann"][b]The rest on Surrey, and the rest on Sussex too[/b][/post]\n'
                    '[post author="Bob"][b]5 grain to defend Essex, invest the rest in Essex[/b][/post]\n'
                    '[post author="Carl"][b]a third of my grain to defend Galloway[/b][/post]', encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    got = json.loads(out)["players"]
    ann, bob, carl = (got[n] for n in ("Ann", "Bob", "Carl"))
    assert [(o["reads"], o["line"]) for o in ann["orders"]] == [
        ("5 Grain to Defend Kent.", 1), ("1 Grain to Conquer Sussex.", 2), ("4 Grain to Conquer Surrey.", 3)]
    reasons = [(x["line"], x["reason"]) for x in ann["problems"]]
    assert (2, "'same as last turn' names no order: each turn's orders are written out, state and grain") in reasons
    assert (3, "the rest of the grain went already to line 3") in reasons
    assert [o["reads"] for o in bob["orders"]] == ["5 Grain to Defend Essex.", "5 Grain to Invest in Essex."]
    assert carl["orders"] == [] and carl["problems"][0]["reason"] == \
        "'a third of' of 10 grain is 3.33333: not a whole amount; write the grain"


def test_orders_in_a_code_box_are_not_bold_and_are_listed(folder, tmp_path):
    """TURN ORDER: "they must be bolded using the forum bbcode": in a code box the forum
    shows "[b]" as written, so those orders do not count; each is listed with why, and the
    orders the player then posts in bold count."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"]Orders:\n[code][b]5 Grain to Defend Kent\n5 Grain to Conquer Sussex[/b]'
                    "[/code][/post]\n"
                    '[post author="Ann"][b]4 Grain to Defend Kent[/b][/post]', encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    ann = json.loads(out)["players"]["Ann"]
    assert [o["reads"] for o in ann["orders"]] == ["4 Grain to Defend Kent."]
    assert [(x["line"], x["text"]) for x in ann["problems"]] == [
        (2, "5 Grain to Defend Kent"), (3, "5 Grain to Conquer Sussex")]
    assert all("in a code box" in x["reason"] for x in ann["problems"])


def test_a_post_repeated_is_taken_once_a_changed_order_refused(folder, tmp_path):
    """RULINGS BR-Q28: a later post repeating an order as sent changes nothing (taken
    once, noted); one changing it would edit a sent order and is refused."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"][b]5 Grain to Defend Kent[/b][/post]\n'
                    '[post author="Ann"][b]5 Grain to Defend Kent[/b][/post]\n'
                    '[post author="Ann"][b]3 Grain to Defend Kent[/b][/post]', encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    ann = json.loads(out)["players"]["Ann"]
    assert [o["reads"] for o in ann["orders"]] == ["5 Grain to Defend Kent."]
    assert [x["line"] for x in ann["notes"]] == [2] and "taken once" in ann["notes"][0]["reason"]
    assert [x["line"] for x in ann["problems"]] == [3] and "was sent already" in ann["problems"][0]["reason"]


def test_orders_without_bold_do_not_count_and_are_listed(folder, tmp_path):
    """TURN ORDER: "For your orders to be valid, they must be bolded": a post whose bold
    gives no order has each of its plain lines that would read as an order listed, not
    taken; chatter, remarks and the plain text beside bold orders are not listed."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"]Orders:\n5 grain to defend Kent\nGood luck all, if Bob attacks me '
                    "with 10 I am done[/post]\n"
                    '[post author="Bob"]I will attack Kent with 5, sorry Ann\n[b]5 Grain to Defend Essex[/b][/post]',
                    encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    ann, bob = (json.loads(out)["players"][n] for n in ("Ann", "Bob"))
    assert ann["orders"] == []
    assert [(x["line"], x["text"], x["reason"]) for x in ann["problems"]] == [
        (2, "5 grain to defend Kent", "not bold: orders must be bolded (rules post, TURN ORDER)")]
    assert [o["reads"] for o in bob["orders"]] == ["5 Grain to Defend Essex."] and bob["problems"] == []


def test_plain_text_beside_orders_sent_elsewhere_is_not_listed(folder, tmp_path):
    """A player whose orders came by PM may chat in plain words about them: only a player
    with no order at all has his plain order-like lines listed."""
    post = tmp_path / "t.txt"
    post.write_text('[post author="Ann"]Orders by PM. Everything on Sussex this time![/post]\n'
                    '[post author="Ann" pm="yes"][b]10 Grain to Conquer Sussex[/b][/post]', encoding="utf-8")
    code, out = realms("gm", "orders", folder, post, "--json")
    assert code == 0, out
    ann = json.loads(out)["players"]["Ann"]
    assert [o["reads"] for o in ann["orders"]] == ["10 Grain to Conquer Sussex."] and ann["problems"] == []
