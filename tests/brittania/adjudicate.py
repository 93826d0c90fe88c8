"""Adjudication cases in the manner of the Diplomacy adjudicator's test cases: a plain-text
file gives a position, every player's orders, the dice, and the expected outcome; the turn
is resolved by the game itself and every expectation checked.

Format (one statement a line; ``#`` starts a comment; names are case-insensitive)::

    case: A tie holds
    rule: CONQUESTS — "If you roll higher than the opponents' defending force, you win"
    ruling: BR-Q19
    players: Ann, Bob
    states Ann: Kent 10, Sussex 12        # state and output; the first is the capital
    capital Ann: Sussex                   # optional; "none" for a captured capital
    grain Ann: 30                         # default 10
    king Ann: Alfred; Conqueror, Rich; 2  # name; traits; CV (default Edward; Shrewd; 1)
    kingdom Ann: yes                      # the lasting Kingdom status
    title Ann: england                    # a High Kingdom held
    trade: Ann, Bob                       # a trade route at the start of the turn
    output: Surrey 4                      # outputs of other states (default 10)
    turn: 1                               # the turn played (income is collected from 2)
    orders Ann: 10 conquer Surrey; 5 defend Kent; 5 invest Kent; capital Essex;
                trade Bob; cancel Bob; lead conquer Surrey; newcapital Sussex
    dice: 7 3 heads pick:Conqueror d3:2   # d10s, coins, picks (by value, or pick:@i by place), d3s, in order
    expect owner Surrey: Ann              # also: output, grain, capital, king, kingdom,
                                          # title, alive, trades, winners, log, no log,
                                          # refused (the orders are refused with that text)

Every die must be used: a case lists exactly the chance its turn consumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from realms.core.decision import IllegalAnswer
from realms.games.brittania import GAME
from realms.games.brittania.orders import Order, submit
from realms.games.brittania.state import INDEPENDENT, NONE, BRState


class CaseError(AssertionError):
    pass


class ScriptedDice:
    """Dice that give the case's listed results, failing on any draw the case did not
    foresee, so each case states all the chance of its turn."""

    def __init__(self, tokens: list[str], where: str) -> None:
        self.tokens = list(tokens)
        self.where = where

    def _next(self, kind: str) -> str:
        if not self.tokens:
            raise CaseError(f"{self.where}: the turn needs a {kind} but the dice list is used up")
        token = self.tokens.pop(0)
        return token

    def below(self, n: int) -> int:
        kind = {10: "d10", 2: "coin", 3: "d3"}.get(n, f"below:{n}")
        token = self._next(kind)
        if n == 2:
            if token not in ("heads", "tails"):
                raise CaseError(f"{self.where}: a coin toss is next, the dice list has {token!r}")
            return 0 if token == "heads" else 1
        if n == 3:
            if not token.startswith("d3:"):
                raise CaseError(f"{self.where}: a d3 is next, the dice list has {token!r}")
            return int(token[3:]) - 1
        if n == 10 and token.isdigit():
            return int(token) - 1
        raise CaseError(f"{self.where}: a {kind} is next, the dice list has {token!r}")

    def pick(self, items):
        token = self._next("pick")
        if not token.startswith("pick:"):
            raise CaseError(f"{self.where}: a random pick among {list(items)!r} is next, the dice list has {token!r}")
        want = token[5:]
        if want.startswith("@"):
            return items[int(want[1:])]
        for item in items:
            if str(item).casefold() == want.casefold():
                return item
        raise CaseError(f"{self.where}: {want!r} is not among {list(items)!r}")

    def clone(self):
        return ScriptedDice(self.tokens, self.where)

    def fingerprint(self) -> list:
        return [len(self.tokens)]


@dataclass
class Case:
    path: Path
    title: str = ""
    rule: str = ""
    rulings: list[str] = field(default_factory=list)
    lines: list[tuple[int, str, str, str]] = field(default_factory=list)   # (line, what, who, value)


def read_case(path: Path) -> Case:
    case = Case(path)
    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("rule") else raw.strip()
        if not line:
            continue
        if raw.startswith((" ", "\t")) and case.lines:
            n, what, who, value = case.lines[-1]
            case.lines[-1] = (n, what, who, f"{value} {line}")
            continue
        head, sep, value = line.partition(":")
        if not sep:
            raise CaseError(f"{path.name}:{no}: expected 'what: value', got {line!r}")
        words = head.split()
        value = value.strip()
        if words[0] == "case":
            case.title = value
        elif words[0] == "rule":
            case.rule = value
        elif words[0] == "ruling":
            case.rulings = [r.strip() for r in value.split(",")]
        elif words[0] == "expect":
            case.lines.append((no, "expect " + words[1], " ".join(words[2:]), value))
        else:
            case.lines.append((no, words[0], " ".join(words[1:]), value))
    if not case.title or not case.rule:
        raise CaseError(f"{path.name}: a case needs 'case:' and 'rule:' lines")
    return case


class Runner:
    def __init__(self, case: Case) -> None:
        self.case = case
        self.src = case.path.name
        first = {what: value for _, what, _, value in case.lines if not what.startswith("expect")}
        self.player_names = [x.strip() for x in first["players"].split(",")]
        self.turn = int(first.get("turn", "1"))

    def where(self, no: int) -> str:
        return f"{self.src}:{no}"

    def player(self, name: str, no: int) -> int:
        for i, n in enumerate(self.player_names):
            if n.casefold() == name.strip().casefold():
                return i
        raise CaseError(f"{self.where(no)}: unknown player {name!r}")

    def state(self, s: BRState, name: str, no: int) -> int:
        key = name.strip().casefold()
        for st in s.board.states:
            if key in (st.id, st.name.casefold()):
                return st.index
        raise CaseError(f"{self.where(no)}: unknown state {name!r}")

    def build(self) -> BRState:
        s = GAME.new_game({"names": self.player_names, "turns": self.turn}, 0)
        n = len(self.player_names)
        s.restart()
        s.events.clear()
        s.answers.clear()
        s.answer_kinds.clear()
        s.turn = self.turn - 1
        s.owner = [INDEPENDENT] * len(s.board.states)
        s.output = [10] * len(s.board.states)
        s.capital = [NONE] * n
        s.alive = [False] * n
        s.grain = [10] * n
        for p in range(n):
            s.king_name[p], s.king_traits[p], s.king_cv[p] = "Edward", ["Shrewd"], 1
        capital_given: set[int] = set()
        for no, what, who, value in self.case.lines:
            if what == "states":
                p = self.player(who, no)
                for i, item in enumerate(x.strip() for x in value.split(",")):
                    parts = item.rsplit(" ", 1)
                    name, out = (parts[0], int(parts[1])) if len(parts) == 2 and parts[1].isdigit() else (item, 10)
                    x = self.state(s, name, no)
                    s.owner[x], s.output[x] = p, out
                    s.alive[p] = True
                    if i == 0:
                        s.capital[p] = x
                        s.start_region[p] = s.board.states[x].region
            elif what == "output":
                for item in value.split(","):
                    name, out = item.strip().rsplit(" ", 1)
                    s.output[self.state(s, name, no)] = int(out)
            elif what == "capital":
                p = self.player(who, no)
                capital_given.add(p)
                s.capital[p] = NONE if value.casefold() == "none" else self.state(s, value, no)
            elif what == "start":
                s.start_region[self.player(who, no)] = value.strip().casefold()
            elif what == "grain":
                s.grain[self.player(who, no)] = int(value)
            elif what == "king":
                name, traits, cv = (x.strip() for x in value.split(";"))
                p = self.player(who, no)
                s.king_name[p], s.king_traits[p], s.king_cv[p] = name, [t.strip() for t in traits.split(",") if t.strip()], int(cv)
            elif what == "kingdom":
                s.kingdom[self.player(who, no)] = value.casefold() == "yes"
            elif what == "title":
                s.title[self.player(who, no)] = value.casefold()
            elif what == "trade":
                a, b = (self.player(x, no) for x in value.split(","))
                s.trades.append((min(a, b), max(a, b)))
            elif what == "eliminated":
                p = self.player(value, no)
                s.alive[p] = False
                s.king_name[p], s.king_traits[p], s.king_cv[p] = "", [], 0
        s.trades.sort()
        return s

    def orders(self, s: BRState) -> dict[int, list[Order]]:
        out: dict[int, list[Order]] = {}
        for no, what, who, value in self.case.lines:
            if what != "orders":
                continue
            p = self.player(who, no)
            items: list[Order] = []
            for text in (x.strip() for x in value.split(";") if x.strip()):
                words = text.split()
                if words[0].isdigit():
                    grain, kind, target = int(words[0]), words[1], " ".join(words[2:])
                    items.append(Order(kind, s.board.states[self.state(s, target, no)].id, grain))
                elif words[0] in ("trade", "cancel"):
                    items.append(Order(words[0], str(self.player(" ".join(words[1:]), no))))
                elif words[0] == "capital":
                    items.append(Order("capital", s.board.states[self.state(s, " ".join(words[1:]), no)].id, 20))
                elif words[0] == "newcapital":
                    items.append(Order("capital", s.board.states[self.state(s, " ".join(words[1:]), no)].id, 0))
                elif words[0] == "lead":
                    target = s.board.states[self.state(s, " ".join(words[2:]), no)].id
                    items.append(Order("lead", f"{words[1]}:{target}"))
                elif words[0] == "none":
                    pass
                else:
                    raise CaseError(f"{self.where(no)}: cannot read the order {text!r}")
            out[p] = items
        return out

    def run(self) -> BRState:
        s = self.build()
        dice_tokens = [t for _, what, _, v in self.case.lines if what == "dice" for t in v.split()]
        s.dice = ScriptedDice(dice_tokens, self.src)
        s.restart(("turn",))
        refused = [(no, v) for no, what, _, v in self.case.lines if what == "expect refused"]
        try:
            submit(s, self.orders(s))
        except IllegalAnswer as exc:
            if not refused:
                raise CaseError(f"{self.src}: orders refused: {exc}") from None
            for no, text in refused:
                if text.casefold() not in str(exc).casefold():
                    raise CaseError(f"{self.where(no)}: refused with {exc!s}, not {text!r}") from None
            return s
        if refused:
            raise CaseError(f"{self.where(refused[0][0])}: the orders were accepted")
        if s.dice.tokens:
            raise CaseError(f"{self.src}: dice left unused: {' '.join(s.dice.tokens)}")
        if not s.over:
            raise CaseError(f"{self.src}: the turn did not resolve (pending: {[d.kind for d in s.pending()]})")
        self.check(s)
        return s

    def check(self, s: BRState) -> None:
        log = "\n".join(s.chronicle())
        for no, what, who, value in self.case.lines:
            if not what.startswith("expect"):
                continue
            kind = what.split()[1]
            got: object
            want: object = value.strip()
            if kind == "owner":
                o = s.owner[self.state(s, who, no)]
                got = "independent" if o == INDEPENDENT else self.player_names[o]
            elif kind == "output":
                got, want = s.output[self.state(s, who, no)], int(value)
            elif kind == "grain":
                got, want = s.grain[self.player(who, no)], int(value)
            elif kind == "capital":
                c = s.capital[self.player(who, no)]
                got = "none" if c == NONE else s.board.states[c].name
            elif kind == "king":
                got = s.king_name[self.player(who, no)]
            elif kind == "traits":
                got = ", ".join(s.king_traits[self.player(who, no)])
            elif kind == "kingdom":
                got = "yes" if s.kingdom[self.player(who, no)] else "no"
            elif kind == "title":
                got = s.title[self.player(who, no)] or "none"
            elif kind == "alive":
                got = "yes" if s.alive[self.player(who, no)] else "no"
            elif kind == "trades":
                got = ", ".join(f"{self.player_names[a]}-{self.player_names[b]}" for a, b in s.trades) or "none"
            elif kind == "winners":
                got = ", ".join(self.player_names[p] for p in s.winners) or "none"
            elif kind == "victory":
                got = s.victory
            elif kind == "log":
                if value.casefold() not in log.casefold():
                    raise CaseError(f"{self.where(no)}: no event says {value!r}; the turn's events:\n{log}")
                continue
            elif kind == "no":
                if value.casefold() in log.casefold():
                    raise CaseError(f"{self.where(no)}: an event says {value!r}; the turn's events:\n{log}")
                continue
            else:
                raise CaseError(f"{self.where(no)}: unknown expectation {kind!r}")
            if str(got).casefold() != str(want).casefold():
                raise CaseError(f"{self.where(no)}: expected {kind} {who} {want!r}, got {got!r}; the turn's events:\n{log}")


def run_case(path: Path) -> BRState:
    return Runner(read_case(path)).run()
