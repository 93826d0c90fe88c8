"""Orders as players write them (rules post, TURN ORDER; RULINGS BR-Q27, BR-Q28), read as
a grammar, not a list of patterns: a bold line is cut into sentences, each sentence into
words, and each word (or run of words) fills a slot — an amount ("10", "10g", "Five"), a
verb (conquer, defend, invest, move the capital, trade, cancel, lead), a state, a player,
a king — or is a filler word ("to", "with", "my", …).  The slots may come in any order:
"10 Grain to Conquer Kent.", "Attack Kent with 10 grain", "10g conquer Kent",
"Kent: 10 grain attack" all read the same.  The words of each slot, and every phrasing
the reader must understand (each one a test), are in ``data/phrases.toml``.

Around the slots a sentence may carry a greeting, a label ("My orders:"), a bullet
("- ", "1. "), a remark in brackets or after a comma ("(sorry Maeve!)", ", for the glory
of Wessex!"): a part of the sentence with no verb and no amount, holding a word that is
no slot, is a remark and left out.  A negation, a condition or a question ("If Bob
attacks, …", "I won't attack …", "Should I …?") makes a sentence no order.

Names are matched as people type them: any case, without diacritics or ligatures
("Aethelflaed" for Æthelflæd, "Mon" for Môn), a unique prefix or word of a player's name
("bjorn" for Bjorn_Ironside), a game master's alias; a misspelt state leniently with
RapidFuzz, but only when one name is clearly nearest: otherwise the closest names are
offered and nothing is guessed.

A sentence with a slot of an order that still does not read is *order-like*: the reader
raises :class:`Unreadable` with the reason and, when it can, the closest reading ("did
you mean …") as ``hint``.  A sentence with no such slot ("Deira will rise!") is chatter.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Iterable, cast

from rapidfuzz import fuzz, process, utils

from .orders import Order

#: a misspelling is taken when its best match scores at least this (RapidFuzz's ratio,
#: 0..100: "Kentt" scores 89 for Kent) …
GOOD = 75
#: … and the next best scores at least this much less ("Essx": Essex 89, Wessex 80, so
#: neither is taken)
CLEAR = 10
#: … and a name scoring at least this is offered as "did you mean"
HINT = 65
#: a misspelt verb is read when it scores at least this ("conqeur": conquer 86)
VERB_GOOD = 80
#: a player is named by a part of his name this long or longer, when only his holds it
PART = 5
#: words that fill no slot a sentence may hold beside its order ("Okay, send …")
LOOSE = 2

#: the grain of an order written as "the rest" ("… and the rest I invest in Mercia"): what
#: the player's other orders of the turn leave (worked out by gm_read with all of them)
REST = -1
#: a state's abbreviation is read when it is at least this long ("Moir." for Moirebh)
ABBREVIATION = 4

GRAIN_VERBS = ("conquer", "defend", "invest")
HEADS = (*GRAIN_VERBS, "capital", "trade")
VERB_TEXT = {"conquer": "Conquer", "defend": "Defend", "invest": "Invest in"}
LIGATURES = str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ð": "d", "Ð": "D",
                           "þ": "th", "Þ": "Th", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "’": "'", "‘": "'",
                           "–": "-", "—": "-", "“": '"', "”": '"', "×": "x",
                           "½": " half ", "⅓": " a third ", "¼": " a quarter "})


class Unreadable(ValueError):
    """An order-like sentence that does not read; the message says why, ``hint`` is the
    closest reading in the rules post's words ("10 Grain to Conquer Kent."), if any."""

    def __init__(self, message: str, hint: str | None = None, missing: str = "") -> None:
        super().__init__(message)
        self.hint = hint
        #: the slots the sentence lacks ("state", or "state and verb"), when that is why it
        #: does not read
        self.missing = missing
        #: the orders the rest of the sentence gave ("Conquer Sussex with 10 grain, then
        #: invest the rest in Essex": the attack)
        self.orders: list[Order] = []


def fold(text: str) -> str:
    """``text`` as names are compared: ligatures spelt out, diacritics dropped, case-folded,
    ``_`` and ``-`` inside a word as spaces."""
    text = unicodedata.normalize("NFKD", text.translate(LIGATURES))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return re.sub(r"(?<=[a-z0-9])[-_](?=[a-z])", " ", text)


def compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(text))


@dataclass(frozen=True)
class Grammar:
    """The words of each slot (``data/phrases.toml``): phrase (folded words) → slot."""

    words: dict[tuple[str, ...], str]
    numbers: dict[str, int]
    longest: int
    #: forum shorthand (folded words) → the words it stands for ("w /" → "with")
    short: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    #: words read as fillers right before an amount ("the remaining 6 grain")
    qualifiers: frozenset[str] = frozenset()
    #: a share of the player's grain ("half my grain", "every grain we have", "the rest")
    shares: dict[tuple[str, ...], Fraction | str] = field(default_factory=dict)
    #: other names of states: the usual abbreviations ("Glos" for Gloucester), English
    #: forms ("Munster" for Mumhan)
    abbreviations: dict[str, str] = field(default_factory=dict)


@cache
def grammar() -> Grammar:
    data = tomllib.loads(resources.files(__package__).joinpath("data/phrases.toml").read_text(encoding="utf-8"))
    words: dict[tuple[str, ...], str] = {}
    for slot, entries in data["words"].items():
        for entry in entries:
            key = tuple(fold(entry).split())
            words.setdefault(key, slot)
            if key[0] == "be":                  # "be held": "is held", "are held"
                for be in ("is", "are"):
                    words.setdefault((be, *key[1:]), slot)
    short = {tuple(fold(k).split()): tuple(fold(v).split()) for k, v in data.get("short", {}).items()}
    qualifiers = frozenset(fold(w) for w in data.get("qualifier", {}).get("words", []))
    shares: dict[tuple[str, ...], Fraction | str] = {}
    for value, entries in data.get("share", {}).items():
        for entry in entries:
            shares[tuple(fold(entry).split())] = "rest" if value == "rest" else Fraction(value)
    abbreviations = {" ".join(fold(k).split()): v for k, v in data.get("other_names", {}).items()}
    longest = max(len(k) for k in (*words, *shares))
    return Grammar(words, dict(data["numbers"]), longest, short, qualifiers, shares, abbreviations)


def examples() -> list[dict]:
    """The phrasings of ``data/phrases.toml`` with what each reads (the tests run them)."""
    text = resources.files(__package__).joinpath("data/phrases.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["example"]


@dataclass(frozen=True)
class Names:
    """What a post's names are matched against: state names, ids and aliases by state
    id; the players by seat (with their colours, kings and the game master's aliases);
    who holds each state (to guess a "did you mean")."""

    states: dict[str, str]     # name, id or alias, folded -> state id
    labels: dict[str, str]     # state id -> name, for messages
    players: list[str]
    colours: list[str] = field(default_factory=list)
    kings: list[str] = field(default_factory=list)
    aliases: dict[str, int] = field(default_factory=dict)     # folded forum name -> seat
    owner: dict[str, int] = field(default_factory=dict)       # state id -> seat
    king_names: tuple[str, ...] = ()                          # every name a king may have
    stock: dict[int, int] = field(default_factory=dict)       # seat -> grain at the turn's start
    capitals: dict[int, str] = field(default_factory=dict)    # seat -> his capital's state id

    def state(self, text: str) -> str:
        key = " ".join(fold(text).split())
        if key in self.states:
            return self.states[key]
        if (short := self.abbreviated(key)) is not None:
            return short
        return _fuzzy(text, self.labels, "state")

    def abbreviated(self, key: str) -> str | None:
        """The one state ``key`` (folded) abbreviates: a usual abbreviation ("glos",
        "middx"), or, when at least :data:`ABBREVIATION` letters long, the start of one
        state's name ("moir", "strath", "ceredig"); else None ("essx" is a misspelling,
        matched only leniently)."""
        if key in grammar().abbreviations:
            return self.states.get(" ".join(fold(grammar().abbreviations[key]).split()))
        word = key.replace(" ", "")
        if len(word) < ABBREVIATION or not word.isalpha():
            return None
        hits = {sid for name, sid in self.states.items() if name.replace(" ", "").startswith(word)}
        return hits.pop() if len(hits) == 1 else None

    def seat(self, text: str) -> int | None:
        """The seat of a post's author: his forum name in any case or spelling of its
        letters, or a name the game master mapped to him (``gm alias``)."""
        key = compact(text)
        for i, name in enumerate(self.players):
            if compact(name) == key:
                return i
        return self.aliases.get(key)

    def player(self, text: str, fuzzy: bool = True) -> int:
        """A player named in an order: by forum name (any case, diacritics, an alias), by
        a unique prefix, word or part of his name ("bjorn", "kitten", "saxonfox"), by
        colour or king; a
        misspelt name (``fuzzy``) only when one is clearly nearest."""
        key = compact(text)
        if not key:
            raise Unreadable("no player named")
        if (p := self.seat(text)) is not None:
            return p
        for table in (self.colours, self.kings):
            hits = [i for i, x in enumerate(table) if compact(x) == key]
            if len(hits) == 1:
                return hits[0]
        words = [w for w in fold(text).split() if w not in ("the", "a", "my", "our")]
        if len(key) >= 3:
            hits = [i for i, n in enumerate(self.players) if compact(n).startswith(key)
                    or (len(words) == 1 and len(words[0]) >= 3 and words[0] in fold(n).split())]
            if len(hits) == 1:
                return hits[0]
        if len(key) >= PART:
            hits = [i for i, n in enumerate(self.players) if key in compact(n)]
            if len(hits) == 1:                  # "saxonfox" for TheSaxonFox
                return hits[0]
        if not fuzzy:
            raise Unreadable(f"unknown player {text!r}")
        return int(_fuzzy(text, {str(i): n for i, n in enumerate(self.players)}, "player"))


def _fuzzy(text: str, choices: dict[str, str], what: str) -> str:
    """The key of the choice ``text`` clearly means, or :class:`Unreadable` offering the
    closest names (``hint``: the closest)."""
    folded = {k: fold(v) for k, v in choices.items()}
    found = process.extract(fold(text), folded, scorer=fuzz.ratio, processor=utils.default_process, limit=3)
    shown = text.strip()
    if not found:
        raise Unreadable(f"unknown {what} {shown!r}")
    best = found[0]
    near = ", ".join(choices[k] for _, _, k in found)
    if best[1] < GOOD:
        raise Unreadable(f"unknown {what} {shown!r} (closest: {near})", choices[best[2]] if best[1] >= HINT else None)
    if len(found) > 1 and found[1][1] > best[1] - CLEAR:
        raise Unreadable(f"{what} {shown!r} is close to more than one (closest: {near}); write it out",
                         choices[best[2]])
    return best[2]


# -- words into slots -----------------------------------------------------------------------
TOKEN = re.compile(r"@mention|\d+|[a-z][a-z0-9]*(?:'[a-z]+)?|[(),:\-/&+\"#|]")
SEPARATORS = {",", ":", "-", "/", "&", "+", '"', "|"}
#: a smiley typed out (":)", ";-)", ":D", ":P", "xD"): no word of an order
SMILEY = re.compile(r"(?<!\S)(?:[:;=][-']?[)(\]\[dDpPoO3/\\|*]+|[xX][dD])(?!\S)")
#: "x6" and "6x" are an amount of 6 ("Mar - attack x6", "4x defend Moirebh")
TIMES = re.compile(r"(?<![a-z0-9])x\s?(\d+)(?![a-z0-9])|(?<![a-z0-9])(\d+)\s?x(?![a-z0-9])")
#: an ordinal ("1st order: …") counts, it is no amount
ORDINAL = re.compile(r"(?<![a-z0-9])\d+(?:st|nd|rd|th)(?![a-z0-9])")
#: a fraction written with figures ("1/2 my grain")
FRACTION = re.compile(r"(?<![\d/])1\s*/\s*([234])(?![\d/])")
BULLET = re.compile(r"^\s*(?:[-*•·+>]+|\(?\d{1,2}[.)]|\(?[a-h][.)]|#\d+)\s+")
SENTENCE = re.compile(r"(?<!\bst)(?<!\bmt)([.!?;]+)(?=\s|$)")
#: the full stop of an abbreviated unit inside a sentence ("Lothian - 5 gr. to conquer",
#: "6 gr. (conquest)") ends no sentence
UNIT_STOP = re.compile(r"(\d\s*(?:gr|grn|g))\.(?=\s+[a-z(])", re.I)


@dataclass
class Slot:
    kind: str          # a slot of data/phrases.toml, "state", "amount", "kingname", "word", "sep", "(" or ")"
    value: object
    text: str          # the words it was read from (folded)


def _states(slots: Iterable[Slot]) -> list[str]:
    """The ids of the states ``slots`` name, each once, in the order named (a state
    slot's value is its id)."""
    return list(dict.fromkeys(cast(str, it.value) for it in slots if it.kind == "state"))


def _tokens(text: str) -> list[str]:
    text = re.sub(r"@[^\s,:;]+", "@mention", SMILEY.sub(" ", text))    # "@lady_gwen" is one word
    text = FRACTION.sub(lambda m: {"2": " half ", "3": " a third ", "4": " a quarter "}[m.group(1)], fold(text))
    text = TIMES.sub(lambda m: f" {m.group(1) or m.group(2)} ", ORDINAL.sub(" ", text))
    text = re.sub(r"(\d+)([a-z]+)", r"\1 \2", text)
    toks = [t[:-2] if t.endswith("'s") and len(t) > 3 else t for t in TOKEN.findall(text)]
    return _unshortened([w for t in toks for w in _glued(t)], grammar().short)


def _glued(token: str) -> list[str]:
    """A word of an order glued to its amount ("def5", "att10") as two words."""
    m = re.fullmatch(r"([a-z]+)(\d+)", token)
    g = grammar()
    if m and ((m.group(1),) in g.short or (m.group(1),) in g.words):
        return [m.group(1), m.group(2)]
    return [token]


def _unshortened(toks: list[str], short: dict[tuple[str, ...], tuple[str, ...]]) -> list[str]:
    """``toks`` with forum shorthand spelt out, the longest first ("w /" → "with")."""
    if not short:
        return toks
    longest = max(len(k) for k in short)
    out: list[str] = []
    i = 0
    while i < len(toks):
        for size in range(min(longest, len(toks) - i), 0, -1):
            if tuple(toks[i:i + size]) in short:
                out += short[tuple(toks[i:i + size])]
                i += size
                break
        else:
            out.append(toks[i])
            i += 1
    return out


def slots(text: str, names: Names) -> list[Slot]:
    """The words of ``text`` in slots, longest phrase first."""
    g = grammar()
    states = {tuple(k.split()): v for k, v in names.states.items()}
    states.update({tuple(k.split()): sid for k, full in g.abbreviations.items()
                   if (sid := names.states.get(" ".join(fold(full).split()))) is not None})
    kings = {tuple(_tokens(k)) for k in (*names.kings, *names.king_names) if k}
    longest = max((g.longest + 2, *map(len, kings)))
    toks = _tokens(text)
    out: list[Slot] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.startswith("@"):                   # "@Bob 10 grain to …": whom the line is for
            out.append(Slot("filler", None, t))
            i += 1
            continue
        if t == "#":
            out.append(Slot("filler", None, t))
            i += 1
            continue
        if t in SEPARATORS:
            out.append(Slot("sep", None, t))
            i += 1
            continue
        if t in "()":
            out.append(Slot(t, None, t))
            i += 1
            continue
        if t in g.qualifiers and i + 1 < len(toks) and (toks[i + 1].isdigit() or toks[i + 1] in g.numbers):
            out.append(Slot("filler", None, t))     # "the remaining 6 grain"
            i += 1
            continue
        if t.isdigit() or t in g.numbers:
            n, used = _number(toks, i, g.numbers)
            prev = out[-1].text if out else ""
            counted = prev in ("turn", "sea", "round", "year", "#", "attempt", "try", "no", "part")
            out.append(Slot("filler" if counted else "amount", n, " ".join(toks[i:i + used])))
            i += used
            continue
        for size in range(min(longest, len(toks) - i), 0, -1):
            key = tuple(toks[i:i + size])
            if key in g.shares:                 # "half my grain", "the rest"
                out.append(Slot("amount", g.shares[key], " ".join(key)))
                break
            if key in states:
                out.append(Slot("state", states[key], " ".join(key)))
                break
            if key in kings:
                out.append(Slot("kingname", None, " ".join(key)))
                break
            if key in g.words:
                out.append(Slot(g.words[key], None, " ".join(key)))
                break
        else:
            out.append(Slot(_misspelt_verb(t) or "word", None, t))
            size = 1
        i += size
    return out


def king_name_clash(name: str, names: Names) -> str | None:
    """Why a post could not name the king ``name`` in an order, or None: a name that reads
    as a state ("King Kent leads the attack on Essex") or as an order's words ("King
    Defend"), or that has no letters, cannot be told apart in a post (BR-Q6)."""
    toks = tuple(_tokens(name))
    if not any(c.isalpha() for c in name):
        return f"the king's name {name!r} has no letters: orders could not name him"
    if " ".join(toks) in names.states:
        return f"the king's name {name!r} is a state's name: orders name both and must read one way"
    if toks in grammar().words:
        return f"the king's name {name!r} is a word of the orders: they must read one way"
    return None


def _misspelt_verb(word: str) -> str | None:
    """The verb a misspelt word clearly is ("conqeur", "defnd", "defned"): one word of
    five letters or more, close to one verb's synonyms only, not a past tense ("attacked"
    is no order) unless its letters are a verb's swapped ("defned")."""
    if len(word) < 5:
        return None
    verbs = {w[0]: slot for w, slot in grammar().words.items() if len(w) == 1 and slot in GRAIN_VERBS
             and len(w[0]) >= 5}
    swapped = {slot for v, slot in verbs.items() if sorted(v) == sorted(word)}
    if swapped:
        return swapped.pop() if len(swapped) == 1 else None
    if word.endswith("ed"):
        return None
    found = process.extract(word, list(verbs), scorer=fuzz.ratio, limit=5)
    kinds = {verbs[w] for w, score, _ in found if score >= VERB_GOOD}
    return kinds.pop() if len(kinds) == 1 else None


def _number(toks: list[str], i: int, numbers: dict[str, int]) -> tuple[int, int]:
    t = toks[i]
    if t.isdigit():
        return int(t[:4]), 1
    n = numbers[t]
    if n >= 20 and n % 10 == 0 and i + 1 < len(toks) and toks[i + 1] in numbers and numbers[toks[i + 1]] < 10:
        return n + numbers[toks[i + 1]], 2
    return n, 1


# -- sentences into orders ------------------------------------------------------------------
def sentences(line: str) -> list[tuple[str, bool]]:
    """A bold line's sentences, each with whether it asks a question; a bullet or list
    number at the start left out."""
    line = UNIT_STOP.sub(r"\1", BULLET.sub("", line, count=1))
    parts = SENTENCE.split(line)
    out = []
    for i in range(0, len(parts), 2):
        text = parts[i].strip()
        end = parts[i + 1] if i + 1 < len(parts) else ""
        if text:
            out.append((BULLET.sub("", text, count=1), "?" in end))
    return out


def _chunks(items: list[Slot]) -> list[list[Slot]]:
    """``items`` cut at separators and at "and"/"then"; a bracket's content is one chunk.
    A chunk after "and" in a sentence about trade routes begins with the "and" (a second
    partner, not a remark: "Trade with Bob and Carl")."""
    trade = any(it.kind == "trade" for it in items)
    chunks: list[list[Slot]] = [[]]
    depth = 0
    for it in items:
        if it.kind == "(":
            depth += 1
            chunks.append([])
        elif it.kind == ")":
            depth = max(0, depth - 1)
            chunks.append([])
        elif trade and it.kind == "sep" and it.text in (":", "-") and _has(chunks[-1], "trade") and \
                all(x.kind in ("trade", "filler") for x in chunks[-1]):
            chunks[-1].append(Slot("filler", None, "with"))     # "trade route: Bob"
        elif trade and it.kind == "sep" and it.text in (",", "&", "+", "-", "/") and not depth:
            chunks.append([Slot("filler", None, "and")])        # "Trade routes: Bob, Carl"
        elif it.kind == "sep" and it.text == "+" and depth and chunks[-1] and chunks[-1][-1].kind == "amount":
            continue                                            # "(10 + 5 for the sea)": one part
        elif it.kind == "sep" or (it.kind == "filler" and it.text in CUTS and not depth):
            chunks.append([it] if trade and it.text == "and" else [])
        else:
            chunks[-1].append(it)
    return [c for c in chunks if c and not (len(c) == 1 and c[0].text == "and")]


#: words between two parts of a sentence ("Same as last turn except …")
CUTS = ("and", "then", "except", "but")


def _head(chunk: list[Slot]) -> bool:
    return any(it.kind in HEADS or it.kind == "lead" for it in chunk)


def _remark(chunk: list[Slot]) -> bool:
    """A part with no verb and no amount, holding a word that is no slot (a partner of a
    trade route after "and" is none); a share of the grain with no state is no amount
    there ("Rest assured, …", "Everything is fine, …")."""
    if chunk[0].text == "and" and len(chunk) <= 4 and not any(it.kind == "blocker" for it in chunk):
        return False
    return not _head(chunk) and not _has(chunk, "same") and \
        not any(it.kind == "amount" and isinstance(it.value, int) for it in chunk) and \
        not (_has(chunk, "state") and _has(chunk, "amount")) and any(it.kind in ("word", "blocker") for it in chunk)


def _stock(chunk: list[Slot]) -> bool:
    """A part telling the grain held, not spent: an amount after "of" with no verb and no
    state ("Defend Kent: 5 grain (of my 10)", "…, out of 12")."""
    if _has(chunk, *HEADS, "lead", "state"):
        return False
    words = [it for it in chunk if not (it.kind == "filler" and it.text in ("my", "our", "the"))]
    return any(it.kind == "amount" and k and words[k - 1].text == "of" for k, it in enumerate(words))


def _abbreviation(chunk: list[Slot], names: Names) -> bool:
    """A part that is one word abbreviating a state ("Middx: attack, 10 grain"): the
    state of a sentence that names none, not a remark."""
    return len(chunk) == 1 and chunk[0].kind == "word" and names.abbreviated(chunk[0].text) is not None


def _has(items: list[Slot], *kinds: str) -> bool:
    return any(it.kind in kinds for it in items)


def _groups(chunks: list[list[Slot]]) -> list[list[Slot]]:
    """The chunks of one order each.  With several orders' verbs, cut before each verb's
    chunk (a chunk without a verb joins the one before it, the first the next, and one
    bringing a state or an amount the one before has already the next: "Mercia: 4 def,
    Nottingham: 6 att", "Kent: 5 (def) + 3 (inv)"); with one
    verb or none, cut where a chunk brings a new state or amount to a group that has
    both already ("Gwent gets 4 for defence, Ergyng 3"; "Suffolk again - 12 grain, and 3
    to hold Norfolk")."""
    if sum(1 for c in chunks if _has(c, *HEADS)) < 2:
        if _has([it for c in chunks for it in c], "trade"):
            return [[it for c in chunks for it in c]]
        cut: list[list[Slot]] = [[]]
        for c in chunks:
            whole = _has(cut[-1], "state") and _has(cut[-1], "amount")
            each = any(it.text == "each" for it in cut[-1])
            had = {it.value for it in cut[-1] if it.kind == "state"}
            other = any(it.kind == "state" and it.value not in had for it in c)     # not "… over Kent" again
            if whole and ((_has(c, "amount") and not _parts(cut[-1], c)) or
                          (other and not _has(c, "lead") and not each)):
                cut.append([])
            cut[-1] += c
        return cut
    groups: list[list[Slot]] = []
    pending: list[Slot] = []
    for c in chunks:
        if any(it.kind in HEADS for it in c):
            groups.append(pending + c)
            pending = []
        elif groups and not pending and not any(_has(c, k) and _has(groups[-1], k) for k in ("state", "amount")):
            groups[-1] += c
        else:
            pending += c                        # "Mercia: 4 def, Nottingham: 6 att": the next verb's
    if pending and groups:
        groups[-1] += pending
    return groups


#: why "same as last turn" is no order: it names no state and no grain, and each turn's
#: orders are written out (rules post, TURN ORDER: "5 Grain to Defend Essex.")
SAME = "'same as last turn' names no order: each turn's orders are written out, state and grain"


def _parts(group: list[Slot], chunk: list[Slot]) -> bool:
    """Whether ``chunk`` breaks the group's amount into parts ("15 grain (10 + 5 for the
    sea)"): two amounts or more, no state, summing to it."""
    total = [it.value for it in group if it.kind == "amount" and isinstance(it.value, int)]
    parts = [it.value for it in chunk if it.kind == "amount" and isinstance(it.value, int)]
    return len(total) == 1 and len(parts) > 1 and not _has(chunk, "state") and sum(parts) == total[0]


def order_like(items: list[Slot]) -> bool:
    kinds = {it.kind for it in items}
    goes = "escort" in kinds and "state" in kinds and bool(kinds & {"king", "kingname"})   # "… goes with the army to Mar"
    return bool(kinds & {*HEADS, "lead", "same"}) or goes or ("amount" in kinds and bool(kinds & {"unit", "state"}))


def read_sentence(text: str, names: Names, seat: int | None = None, question: bool = False) -> list[Order]:
    """The orders one sentence gives (none for chatter), or :class:`Unreadable` for an
    order-like sentence that does not read."""
    items = slots(text, names)
    if not order_like(items):
        return []
    stateless = not _has(items, "state")
    chunks = [c for c in _chunks(items) if not (_remark(c) or _stock(c)) or (stateless and _abbreviation(c, names))]
    first = next((k for k, c in enumerate(chunks) if _has(c, "same", "amount", *HEADS, "lead")), None)
    again = [chunks[first]] if first is not None and _has(chunks[first], "same") else []    # "Same as last turn except …"
    chunks = [c for c in chunks if not _has(c, "same")]     # "…, same as last time": a remark
    if any(_has(c, *GRAIN_VERBS) for c in chunks):     # "5 grain to defend Essex (my capital)"
        chunks = [c for c in chunks if not all(it.kind in ("capital", "filler") for it in c)]
    kept = [it for c in chunks for it in c]
    if not order_like(kept):
        if again:
            raise Unreadable(SAME)
        return []
    if question and not _has(items, "request"):        # "Could you put 5 grain into Kent?" is asked of the GM
        raise Unreadable("a question, not an order")
    if any(it.kind == "blocker" for it in kept):
        words = ", ".join(sorted({it.text for it in kept if it.kind == "blocker"}))
        raise Unreadable(f"a remark, not an order (a negation, a condition or a report: {words!r})")
    if (other := _someone_else(kept, names, seat)) is not None:
        raise Unreadable(f"a remark about {other}, not an order (another player is its subject)")
    orders: list[Order] = []
    failed: Unreadable | None = None
    groups = _groups(chunks)
    for k, group in enumerate(groups[1:], 1):
        if not _has(group, "amount", *HEADS, "lead"):       # "10 grain to conquer Kent and Sussex"
            states = _states(it for g in groups[:k + 1] for it in g)
            raise Unreadable(f"names two states ({', '.join(names.labels[x] for x in states)}); "
                             "one order a line")
    for k, group in enumerate(groups):
        if orders and not any(it.kind == "state" for it in group) and not _word_run(group):
            named = orders[-1].target.rpartition(":")[2]
            if named in names.labels:           # "12 grain investment in Kent, 4 to defend"
                group = [*group, Slot("state", named, named)]
        if k and not _has(group, *GRAIN_VERBS, "capital", "trade", "lead") and _has(groups[k - 1], *GRAIN_VERBS):
            verb = next(it for it in groups[k - 1] if it.kind in GRAIN_VERBS)
            group = [*group, verb]              # "Gwent gets 4 for defence, Ergyng 3"
        try:
            orders += _read_group(group, names, seat)
        except Unreadable as exc:
            failed = failed or exc
    if again and failed is None:
        failed = Unreadable(SAME)
    if failed is not None:
        failed.orders = orders                  # the sentence's other orders still read
        raise failed
    return orders


def _someone_else(kept: list[Slot], names: Names, seat: int | None) -> str | None:
    """The other player named before a sentence's verb, its subject ("Bob is attacking
    Kent with 10 grain", "Carl will attack …", "Edmund attacks …" for Carl's king), or
    after "by" ("Kent will be attacked by Bob"): what someone else does is no order of
    the writer's.  A trade route names its partner, so it is never such a sentence."""
    if seat is None or _has(kept, "trade", "cancel"):
        return None
    verb = next((k for k, it in enumerate(kept) if it.kind in (*GRAIN_VERBS, "lead", "capital", "move")), len(kept))
    for k, it in enumerate(kept):
        if k < verb or (k and kept[k - 1].text == "by"):
            other = _someone(it, names, seat)
            if other is not None:
                return names.players[other]
    return None


def _someone(it: Slot, names: Names, seat: int) -> int | None:
    """The player other than the writer a word names, or whose king it names."""
    if it.kind == "kingname":
        return _kings_player(it.text, names, seat)
    if it.kind != "word" or len(it.text) < 3:
        return None
    try:
        p = names.player(it.text, fuzzy=False)
    except Unreadable:
        return None
    return p if p != seat else None


def _kings_player(name: str, names: Names, seat: int) -> int | None:
    """The one other player whose king ``name`` is, when it is not the writer's king."""
    seats = [i for i, k in enumerate(names.kings) if k and compact(k) == compact(name)]
    return seats[0] if len(seats) == 1 and seats[0] != seat else None


def _from_removed(group: list[Slot]) -> list[Slot]:
    """The group without "from STATE" (where an attack starts: not its target)."""
    out: list[Slot] = []
    for it in group:
        if it.kind == "state" and out and out[-1].text == "from":
            out.pop()
            continue
        out.append(it)
    return out


def _state_of(group: list[Slot], names: Names, verb: str, amount: int | None) -> str:
    ids = _states(group)
    if len(ids) > 1:
        raise Unreadable(f"names two states ({', '.join(names.labels[x] for x in ids)}); one order a line")
    if ids:
        return ids[0]
    run = _word_run(group)
    if not run:
        raise Unreadable(f"no state named for the {verb}", missing="state" if verb != "order" else "state and verb")
    try:
        return names.state(run)
    except Unreadable as exc:
        hint = exc.hint and amount is not None and verb in VERB_TEXT and \
            f"{amount} Grain to {VERB_TEXT[verb]} {exc.hint}."
        raise Unreadable(str(exc), hint or None) from None


def _word_run(group: list[Slot]) -> str:
    """The longest run of words that fill no slot (up to three): a misspelt name."""
    best: list[str] = []
    cur: list[str] = []
    for it in (*group, Slot("end", None, "")):
        if it.kind == "word":
            cur.append(it.text)
        else:
            if len(cur) > len(best):
                best = cur
            cur = []
    return " ".join(best[:3]).title()


def _amount(group: list[Slot], names: Names | None = None, seat: int | None = None) -> int | None:
    """The one amount of an order's group; a number and a share saying the same grain are
    one ("10 grain (all my grain)" of 10), and so are a total and the parts after it that
    make it ("15 grain (10 + 5 for the sea)")."""
    slots_ = [it for it in group if it.kind == "amount"]
    if not slots_:
        return None
    amounts: list[object]
    if len(slots_) > 1 and any(isinstance(it.value, int) for it in slots_):
        values: list[int | str] = []
        for it in slots_:
            try:
                values.append(_grain(it, names, seat))
            except Unreadable:
                values.append(it.text)
        amounts = list(dict.fromkeys(values))
        whole = [v for v in values if isinstance(v, int)]
        if len(amounts) > 1 and len(whole) == len(values) and whole[0] == sum(whole[1:]):
            amounts = amounts[:1]           # "15 grain (10 + 5 for the sea)": the total, then its parts
    else:
        amounts = list(dict.fromkeys(it.value for it in slots_))
    if len(amounts) > 1:
        raise Unreadable(f"two amounts ({', '.join(map(str, amounts))}); one order a line")
    return _grain(slots_[0], names, seat)


def _grain(it: Slot, names: Names | None, seat: int | None) -> int:
    """An amount's grain: a number as written; "the rest" as :data:`REST`; a share of the
    writer's grain ("half my grain") of his grain at the start of the turn, when whole
    (half of 15 is no amount: a grain is not split, and nothing is guessed)."""
    if isinstance(it.value, int):
        return it.value
    if it.value == "rest":
        return REST
    stock = names.stock.get(seat) if names is not None and seat is not None else None
    if stock is None:
        raise Unreadable(f"{it.text!r} is a share of the grain, and the writer's grain is not known")
    grain = cast(Fraction, it.value) * stock
    if grain.denominator != 1:
        raise Unreadable(f"{it.text!r} of {stock} grain is {float(grain):g}: not a whole amount; write the grain")
    return int(grain)


def _loose(group: list[Slot], used: str = "") -> None:
    words = [it.text for it in group if it.kind == "word" and it.text not in used.casefold().split()]
    if len(words) > LOOSE:
        raise Unreadable(f"words that are no part of an order: {' '.join(words)!r}")


def _read_group(group: list[Slot], names: Names, seat: int | None) -> list[Order]:
    group = _from_removed(group)
    kinds = [it.kind for it in group]
    if "trade" in kinds:
        return _trade(group, names, seat)
    if len(parts := _run_on(group)) > 1:            # "5 grain to defend Kent 5 grain to attack Sussex"
        return [o for part in parts for o in _read_group(part, names, seat)]
    if any(k in GRAIN_VERBS for k in kinds) and \
            (paired := _paired(group, next(k for k in kinds if k in GRAIN_VERBS), names, seat)):
        return paired
    amount = _amount(group, names, seat)
    if "capital" in kinds and _has(group, *GRAIN_VERBS) and not _has(group, "state", "move", "new"):
        if seat not in names.capitals:      # "Defend my capital with 5": the writer's capital
            raise Unreadable("no state named: which is your capital?")
        group = [Slot("state", names.capitals[seat], "capital") if it.kind == "capital" else it for it in group]
        kinds = [it.kind for it in group]
    if "capital" in kinds:
        state = _state_of(group, names, "capital", None)
        free = "new" in kinds and "move" not in kinds
        if amount not in (None, 0, 20):
            raise Unreadable(f"moving the capital costs 20 grain, not {amount}",
                             f"Move Capital to {names.labels[state]}.")
        _loose(group)
        return [Order("capital", state, 0 if free or amount == 0 else 20)]
    verbs = list(dict.fromkeys(k for k in kinds if k in GRAIN_VERBS))
    lead = "lead" in kinds or _king_goes(group, names, seat)
    if len(verbs) > 1:
        raise Unreadable(f"two orders ({' and '.join(verbs)}) in one sentence; one a line")
    if not verbs:
        if lead and amount is None:
            named = any(it.kind == "state" for it in group) or _word_run(group)
            state = _state_of(group, names, "lead", None) if named else "?"
            _loose(group)
            return [Order("lead", f"?:{state}")]
        paired = _paired(group, "conquer", names, seat)
        if paired and seat is not None and all(names.owner.get(o.target) != seat for o in paired):
            return paired
        state = _state_of(group, names, "order", None)
        if amount is not None and (_implied_attack(group, names, seat, state, amount)
                                   or _against(group, names, seat, state, amount)):
            return [Order("conquer", state, amount)] + ([Order("lead", f"conquer:{state}")] if lead else [])
        guess = "defend" if seat is not None and names.owner.get(state) == seat else "conquer"
        raise Unreadable("no order word (conquer, defend or invest)",
                         f"{amount} Grain to {VERB_TEXT[guess]} {names.labels[state]}." if amount and amount > 0
                         else None)
    verb = verbs[0]
    paired = _paired(group, verb, names, seat)
    if paired:
        return paired
    if lead and amount is None and not _has(group, "state") and not _word_run(group):
        return [Order("lead", f"{verb}:?")]     # "Alfred will lead the attack"
    state = _state_of(group, names, verb, amount)
    if amount is None:
        if lead:
            _loose(group)
            return [Order("lead", f"{verb}:{state}")]
        raise Unreadable(f"no grain amount for the {verb} of {names.labels[state]}")
    _loose(group, _word_run(group) if not any(it.kind == "state" for it in group) else "")
    out = [Order(verb, state, amount)]
    if lead:
        out.append(Order("lead", f"{verb}:{state}"))
    return out


def _run_on(group: list[Slot]) -> list[list[Slot]]:
    """Orders of different verbs written on with no stop between them, each cut where an
    amount or a verb follows a whole order (state, amount and verb): one part an order;
    the group whole when that does not cut it so."""
    if len({it.kind for it in group if it.kind in GRAIN_VERBS}) < 2:
        return [group]
    parts: list[list[Slot]] = [[]]
    for it in group:
        whole = _has(parts[-1], "state") and _has(parts[-1], "amount") and _has(parts[-1], *GRAIN_VERBS)
        if whole and it.kind in ("amount", *GRAIN_VERBS):
            parts.append([])
        parts[-1].append(it)
    ok = all(len({it.kind for it in p if it.kind in GRAIN_VERBS}) == 1 for p in parts)
    return parts if ok else [group]


def _king_goes(group: list[Slot], names: Names, seat: int | None) -> bool:
    """The writer's king goes with an attack or defence though no word says "lead": "…
    with King Alfred", "… w/ the King", "…, Eochaid with them"; a king in a remark ("for the King!") or as the
    subject of the order ("Aed marches on Tir Conaill": a tale, maybe) leads nothing."""
    own = compact(names.kings[seat]) if seat is not None and seat < len(names.kings) else None
    for k, it in enumerate(group):
        if it.kind not in ("king", "kingname") or (it.kind == "kingname" and own and compact(it.text) != own):
            continue
        before = [x for x in group[:k] if x.kind not in ("king", "kingname")
                  and not (x.kind == "filler" and x.text in ("the", "my", "our"))]
        after = [x for x in group[k + 1:] if x.kind != "kingname"]
        if (before and before[-1].text == "with") or (after and after[0].kind == "escort"):
            return True
    return False


def _paired(group: list[Slot], verb: str, names: Names | None = None, seat: int | None = None) -> list[Order]:
    """One verb for several states: "Attack Sussex (5 grain) and Surrey (5 grain)" (as many
    amounts as states, in order) or "5 grain each to Sussex and Surrey" (one amount,
    "each"); none otherwise."""
    ids = _states(group)
    if len(ids) < 2 or "lead" in {it.kind for it in group} or any(it.kind == "word" for it in group):
        return []
    amounts = [_grain(it, names, seat) for it in group if it.kind == "amount"]
    if len(amounts) == len(ids):
        return [Order(verb, x, a) for x, a in zip(ids, amounts)]
    if len(amounts) == 1 and any(it.text == "each" for it in group):
        return [Order(verb, x, amounts[0]) for x in ids]
    return []


def _implied_attack(group: list[Slot], names: Names, seat: int | None, state: str, amount: int | None) -> bool:
    """Grain for a state the writer does not hold, with no verb and no stray word ("All
    10 grain on Brega!", "Holderness, attempt #2: 10 grain"): the only order that spends
    grain on another's state is an attack."""
    return (amount is not None and seat is not None and names.owner.get(state) != seat
            and not any(it.kind == "word" for it in group))


def _against(group: list[Slot], names: Names, seat: int | None, state: str, amount: int | None) -> bool:
    """Grain "against" a state the writer does not hold ("6 grain against Lothian once
    more"): an attack, a few stray words beside it or not."""
    at = next((k for k, it in enumerate(group) if it.kind == "state"), None)
    return (amount is not None and seat is not None and names.owner.get(state) != seat and at is not None
            and at > 0 and group[at - 1].text == "against"
            and sum(1 for it in group if it.kind == "word") <= LOOSE)


def _trade(group: list[Slot], names: Names, seat: int | None = None) -> list[Order]:
    """Trade routes with the players named after "with" ("Trade with Bob and Carl"), each
    by the longest run of words naming one; words after them are a remark ("accepted!");
    the writer named beside his partner ("Trade route: Kent - Essex") is no partner."""
    kinds = [it.kind for it in group]
    kind = "cancel" if "cancel" in kinds else "trade"
    if kind == "cancel" and sum(1 for it in group if it.text == "with") > 1:
        raise Unreadable("a trade route ended and another named in one sentence; one a line")
    after = next((i for i in range(len(group) - 1, -1, -1) if group[i].text == "with"), None)
    span = group[after + 1:] if after is not None else [it for it in group if it.kind not in ("trade", "cancel")]
    words = [it for it in span if not (it.kind == "filler" and it.text != "the")]
    if not words:
        raise Unreadable("a trade route with whom?")
    seats: list[int] = []
    k = 0
    while k < len(words):
        for n in range(len(words) - k, 0, -1):
            part = words[k:k + n]
            try:
                seats.append(_partner(part, names))
                k += n
                break
            except Unreadable:
                continue
        else:
            k += 1
    if not seats or len(words) - sum(1 for _ in seats) > LOOSE + len(seats) * 3:
        text = " ".join(it.text for it in words)
        try:
            seats = [names.player(text)]
        except Unreadable as exc:
            raise Unreadable(str(exc).replace(repr(text), repr(text.title())),
                             exc.hint and f"{'Cancel ' if kind == 'cancel' else ''}Trade Route with {exc.hint}.") from None
    partners = [p for p in dict.fromkeys(seats) if p != seat] or seats[:1]
    return [Order(kind, str(p)) for p in partners]


def _partner(part: list[Slot], names: Names) -> int:
    """The player a run of words names exactly: his name, colour or king, or a state he
    holds (one word)."""
    if len(part) == 1 and part[0].kind == "state" and part[0].value in names.owner:
        return names.owner[part[0].value]
    return names.player(" ".join(it.text for it in part), fuzzy=False)


def read_lines(lines: list[str], names: Names, seat: int | None = None) -> list[tuple[int, str, list[Order] | Unreadable]]:
    """Every sentence of a post's bold ``lines`` read: (line index, text, its orders or
    why not).  An order cut in two by a full stop or a line break ("Attack Kent! 10
    grain!", "10 Grain to" / "Conquer Kent") is read whole: a sentence that does not read
    is read again with the next one, and taken so when that reads; one lacking only its
    state takes the one state of the chatter just before it ("Ayr. 10 grain. Go."); one
    left with an amount only, no verb and no state ("Orders (10 Grain):"), is chatter."""
    units = [(i, text, q) for i, line in enumerate(lines) for text, q in sentences(line)]
    out: list[tuple[int, str, list[Order] | Unreadable]] = []
    k = 0
    while k < len(units):
        i, text, q = units[k]
        try:
            out.append((i, text, read_sentence(text, names, seat, q)))
        except Unreadable as exc:
            after = _after_state(units[k - 1][1], text, q, names, seat) \
                if exc.missing.startswith("state") and k and out and out[-1][2] == [] else None
            joined = None if exc.orders or after else _joined(units, k, names, seat)
            if after is not None:
                out.append((i, after[0], after[1]))
            elif joined is not None:
                out.append((i, joined[0], joined[1]))
                k += 1
            elif exc.missing == "state and verb" and not exc.orders:
                out.append((i, text, []))       # "Orders (10 Grain):": an amount, no order
            else:
                out.append((i, text, exc))
                if exc.orders:
                    out.append((i, text, exc.orders))
        k += 1
    return out


def _after_state(before: str, text: str, question: bool, names: Names, seat: int | None):
    """``text`` read with the one state the chatter before it names ("Ayr. 10 grain.
    Go.", "Gloucester is next. 8 grain, …")."""
    states = _states(slots(before, names))
    if len(states) != 1:
        return None
    joined = f"{names.labels[states[0]]}, {text}"
    try:
        orders = read_sentence(joined, names, seat, question)
    except Unreadable:
        return None
    return (joined, orders) if orders else None


def _joined(units, k: int, names: Names, seat: int | None):
    """Sentence ``k`` read with the next one, when that one gives no order alone (an order
    the next sentence gives alone never swallows the one before it: "Essex shall be …
    with 4 grain. Trade with Bob.")."""
    if k + 1 >= len(units):
        return None
    try:
        if read_sentence(units[k + 1][1], names, seat, units[k + 1][2]):
            return None
    except Unreadable:
        pass
    text = f"{units[k][1].rstrip(' ,:-')}, {units[k + 1][1]}"
    try:
        orders = read_sentence(text, names, seat, units[k + 1][2])
    except Unreadable:
        return None
    return (text, orders) if orders else None


def read_order(line: str, names: Names, seat: int | None = None) -> Order:
    """The one order a bold sentence gives, or :class:`Unreadable` saying why not."""
    orders = []
    for _, _, got in read_lines([line], names, seat):
        if isinstance(got, Unreadable):
            raise got
        orders += got
    if not orders:
        raise Unreadable("not readable as an order (e.g. '10 Grain to Conquer Kent.')")
    return orders[0]


def canonical(order: Order, names: Names) -> str:
    """``order`` in the rules post's words: "10 Grain to Conquer Kent."."""
    if order.kind in VERB_TEXT:
        return f"{order.grain} Grain to {VERB_TEXT[order.kind]} {names.labels[order.target]}."
    if order.kind == "capital":
        return (f"Move Capital to {names.labels[order.target]}." if order.grain else
                f"New Capital: {names.labels[order.target]}.")
    if order.kind in ("trade", "cancel"):
        return f"{'Cancel ' if order.kind == 'cancel' else ''}Trade Route with {names.players[int(order.target)]}."
    what, _, state = order.target.partition(":")
    return f"King leads the {'Attack on' if what == 'conquer' else 'Defence of'} {names.labels[state]}."
