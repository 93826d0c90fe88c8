"""What a person may type at ``realms play``'s prompt besides an option's number: help,
saving, Ctrl-C and Ctrl-D, an amount, and the hand-over between friends at one keyboard
(tty.Terminal with a scripted keyboard: no terminal, no waiting)."""

from __future__ import annotations

import io

from click.testing import CliRunner

from realms.cli import cli
from realms.core.game import get_game
from realms.core.match import bot_answers
from realms.sim.runner import make_bots
from realms.tty import CLEAR, Seat, Terminal


class Screen(io.StringIO):
    """What a terminal shows: output that is a terminal, as a person's screen is."""

    def isatty(self) -> bool:
        return True


def _terminal(game_id: str, options: dict, people: list[int], lines: list, autosave=None, seed: int = 3):
    """A game at a scripted keyboard and screen: ``lines`` are typed in turn (an exception
    is raised as the key that raises it would); past them, q."""
    game = get_game(game_id)
    state = game.new_game(options, seed)
    n = len(state.result()["players"])
    bots = make_bots(game, ["random"] * n, n, seed)
    typed = iter(lines)
    out = Screen()

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        line = next(typed, "q")
        if isinstance(line, BaseException):
            raise line
        return line

    term = Terminal(game, state, {p: Seat(p) for p in people},
                    {i: b for i, b in enumerate(bots) if i not in people},
                    read=read, out=out, autosave=autosave)
    for _ in bot_answers(term.state, term.agents, 100_000):  # up to a person's question
        pass
    return term, out


def test_help_lists_the_keys_instead_of_filtering_the_options():
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], ["help", "h"])
    d = term.state.pending()[0]
    assert not term.ask(d)
    text = out.getvalue()
    assert "No option matches" not in text
    assert text.count("b for the board, u to undo, s FILE to save, q to save and quit") == 2


def test_s_alone_saves_to_the_autosave_file(tmp_path):
    save = tmp_path / "kept.json"
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], ["s", "1"], autosave=str(save))
    assert term.ask(term.state.pending()[0])  # saved, then answered: no q saved it
    assert save.exists()
    assert f"Saved the record to {save}" in out.getvalue()


def test_s_alone_without_an_autosave_asks_for_a_file():
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], ["s"])
    term.ask(term.state.pending()[0])
    assert "s FILE: name the file to save the game to." in out.getvalue()


def test_ctrl_c_at_the_prompt_saves_and_quits(tmp_path):
    save = tmp_path / "interrupted.json"
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], [KeyboardInterrupt()],
                          autosave=str(save))
    term.run()
    assert save.exists() and "--resume" in out.getvalue()


def test_n_times_zero_is_refused_by_what_is_wrong():
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], ["1 x0"])
    before = len(term.state.answers)
    term.ask(term.state.pending()[0])
    assert "K from 1" in out.getvalue() and len(term.state.answers) == before


def _to_amount(term) -> object:
    """Seat 1 orders an investment, the others answer with their first option, until seat 1
    is asked how much grain with amounts not from 1 (the place in the list and the amount
    differ: an investment is at least 4 grain)."""
    for _ in range(5000):
        d = term.state.pending()[0]
        labels = [o.label for o in d.options]
        if d.player == 0 and all(t.isdigit() for t in labels) and labels[0] != "1":
            return d
        invest = [i for i, t in enumerate(labels) if t.startswith("Invest in")] if d.player == 0 else []
        term.state.answer_index(d, invest[0] if invest else 0)
    raise AssertionError("seat 1 was never asked an amount")


def test_an_amount_is_typed_as_itself():
    """Brittania asks how much grain with the amounts as options (4 to 15 to invest): the
    person types the amount, and "4" is 4 grain, not the fourth amount offered."""
    term, out = _terminal("brittania", {"players": 2, "turns": 6}, [0], [], seed=2)
    d = _to_amount(term)
    labels = [o.label for o in d.options]
    amount = labels[0]
    assert labels.index(amount) + 1 != int(amount)
    typed = iter(["0", amount])
    term.read = lambda prompt: next(typed)
    before = len(term.state.answers)
    assert term.ask(d)
    assert term.state.answers[before] == (0, d.options[0].key)
    text = out.getvalue()
    assert f"Type the number: {labels[0]} to {labels[-1]}" in text or len(labels) <= 2
    assert "No '0': type one number of" in text


def test_the_hand_over_clears_the_last_persons_hand_and_ctrl_d_there_saves(tmp_path):
    """Two friends at one keyboard in a game of hidden hands (Brian Boru's cards): the
    screen, with the first one's hand on it, is cleared before the next one is called."""
    save = tmp_path / "hot.json"
    lines = ["1"] * 40
    term, out = _terminal("brian-boru", {"players": 3}, [0, 1], lines + [EOFError()], autosave=str(save))
    term.read = _stop_at_hand_over(term.read)
    term.run()
    text = out.getvalue()
    handed = text.index("your turn: press Enter")
    assert text.rfind(CLEAR, 0, handed) > text.rfind("> \n", 0, handed) >= 0
    assert save.exists()


def _stop_at_hand_over(read):
    """The keyboard, with Ctrl-D at the second hand-over prompt."""
    count = {"n": 0}

    def typed(prompt: str) -> str:
        if "press Enter" in prompt:
            count["n"] += 1
            if count["n"] == 2:
                raise EOFError
        return read(prompt)
    return typed


def test_play_takes_the_games_own_flags(tmp_path):
    """``realms options GAME`` lists each option's flag: play takes them as simulate does."""
    save = tmp_path / "g.json"
    r = CliRunner().invoke(cli, ["play", "brian-boru", "--players", "3", "--seed", "1", "--save", str(save)],
                           input="q\n")
    assert r.exit_code == 0, r.output
    from realms.core.record import Record
    assert len(Record.load(str(save)).options["names"]) == 3


def test_a_town_the_vikings_took_is_shown_as_theirs():
    """Brian Boru, Battle step: the Vikings take a town by covering its disc with a control
    token; the player no longer controls it, and the terminal's board says the Vikings."""
    from realms.games.brian_boru.describe import describe

    game = get_game("brian-boru")
    s = game.new_game({"players": 3}, 1)
    s.place(0, 0, "test")
    key = s.town_key(0)
    assert f" {key}:P1" in " " + " ".join(describe(s.view(0)))
    s.viking[0] = True  # as the Battle step's loss of a town does
    assert 0 not in s.controlled(0)
    board = " " + " ".join(describe(s.view(0)))
    assert f" {key}:Vikings" in board and f" {key}:P1" not in board
    assert "Northern Uí Néill: " in board and "northern-ui-neill" not in board  # regions by name


def test_the_panels_are_printed_once():
    """The terminal prints a game's panels after its description: the secret mission
    (version²) and the grain and orders (Brittania) are not printed twice."""
    for game_id, options in (("version2", {"players": 2}), ("brittania", {"players": 2})):
        term, out = _terminal(game_id, options, [0], [])
        d = term.state.pending()[0]
        term.show(term.people[d.player])
        text = out.getvalue()
        titles = [p["title"] for p in term.game.panels(term.state.view(d.player))]
        assert titles, game_id
        for title in titles:
            assert text.count(f"{title}:") == 1, (game_id, title, text)


def test_the_board_names_areas_as_the_questions_do():
    """Hy Breasil's terminal board writes each area by its name on the map ("Muir Tethra
    10"), as the questions and the chronicle name it, not by its id ("muir-tethra 10")."""
    from realms.games.hy_breasil.board import load_board
    from realms.games.hy_breasil.describe import describe

    term, _ = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], [])
    d = term.state.pending()[0]
    term.state.answer_index(d, 0)
    view = term.state.view(0)
    board = " ".join(describe(view))
    names = load_board(view["options"]["map"]).name_of
    placed = [a for n in view["nations"] for a in n["units"]]
    assert placed
    for area in placed:
        assert f"{names[area]} " in board and f"{area} " not in board, (area, board)


def test_bots_may_be_named_for_the_other_seats_only(tmp_path):
    """``--bots`` is "bots for the other seats": with four players and the person in seat
    2, three names fill seats 1, 3 and 4 in order."""
    save = tmp_path / "g.json"
    r = CliRunner().invoke(cli, ["play", "brian-boru", "--players", "4", "--seat", "2", "--bots", "greedy,random,greedy",
                                 "--seed", "1", "--save", str(save)], input="q\n")
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["play", "brian-boru", "--players", "4", "--bots", "greedy,random",
                                 "--seed", "1", "--save", str(save)], input="q\n")
    assert r.exit_code != 0 and "--bots names 2 bots: give one, one per other seat (3) or one per seat (4)" in r.output


def test_the_line_up_puts_the_bots_in_the_seats_nobody_plays():
    from realms.cli_play import _line_up

    assert _line_up(["greedy"], [0], 3) == ["greedy"] * 3
    assert _line_up(["a", "b"], [1], 3) == ["a", "a", "b"]


class _SharedVictory:
    """A game whose result is a victory shared by P1 and P2, otherwise the game given (a
    wrapper: a compiled state's methods cannot be replaced)."""

    def __init__(self, state) -> None:
        self._state = state

    def __getattr__(self, name: str):
        return getattr(self._state, name)

    def result(self) -> dict:
        return {"players": ["P1", "P2"], "scores": {"P1": 3, "P2": 3}, "winner": None, "winners": ["P1", "P2"]}


def test_a_shared_victory_names_its_winners():
    """Brittania's economic victory may be shared: the end says "Winners: P2, P3"."""
    term, out = _terminal("brittania", {"players": 2, "turns": 1}, [0], [])
    term.state = _SharedVictory(term.state)
    term.show_end()
    assert "The game is over. Winners: P1, P2." in out.getvalue()


def test_an_options_whole_label_answers_it():
    """Typing the name of a sea area answers with it, in any case; a part of a name still
    filters."""
    term, out = _terminal("hy-breasil", {"players": 2, "turns": 1}, [0], [])
    d = term.state.pending()[0]
    target = d.options[-1]
    typed = iter(["muir", target.label.upper()])
    term.read = lambda prompt: next(typed)
    before = len(term.state.answers)
    assert term.ask(d)
    assert term.state.answers[before] == (d.player, target.key)
