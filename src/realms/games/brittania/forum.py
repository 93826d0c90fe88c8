"""Reading a turn's posts (RULINGS BR-Q28): who wrote each, whether it was edited, and the
bold text outside quotes, line by line with its line in the file — the only text that
gives orders ("post your orders in bold"; a quote repeats another's post).

Two formats: a forum thread page saved as HTML from SMF, the software such games ran on
(the author in ``div.poster h4 a``, the message in ``div.inner``, bold as ``<b>`` or
``<strong>``, quotes as ``<blockquote>`` with their ``div.quoteheader``, a "Last Edit"
mark in ``.modified``), or a text file of posts in the forum's own codes::

    [post author="Ann"] … [b]10 Grain to Conquer Kent.[/b] [quote author="Bob"]…[/quote] [/post]
    [post author="Bob" edited="yes"] … [/post]    (or a bare edited, or the edit's date)
    [post author="Cid" pm="yes"] … (orders sent by personal message) [/post]

Inside bold, SMF's lists (``[list][li]``, ``<ul><li>``), ``<br>`` and block elements end a
line, so two orders are never glued into one; struck-out text is left out (the player
crossed it out before sending); a table's row is a line, its cells the
columns ("Brega | defend | 5").  A code box shows its codes instead of applying them:
"[b]…[/b]" written there is not bold, and is kept apart (``Post.coded``) to be reported.  A page is read as UTF-8, else in the
charset its ``<meta>`` names, else as Windows-1252 (the Latin-1 of old forums); entities
are resolved.  Files over :data:`MAX_BYTES` or holding NUL bytes are refused with one line.
"""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from realms.core.game import GMError


#: the largest file of posts read: a saved SMF page of 50 posts is about 300 KB
MAX_BYTES = 8 * 1024 * 1024


@dataclass
class Post:
    author: str
    line: int                                   # where the post begins in the file
    edited: bool = False
    #: who edited the post when not its writer (a moderator, the game master): SMF's
    #: "Last Edit: … by Haspen"; the rules forbid the player's own edits only
    edited_by: str = ""
    mark: str = ""                              # the text of SMF's edit mark, as read
    #: (line, text) of the post's own text that is not bold (quotes, code boxes and
    #: struck-out text left out): where a player who forgot the bold wrote his orders
    plain: list[tuple[int, str]] = field(default_factory=list)
    bold: list[tuple[int, str]] = field(default_factory=list)  # (line, text) outside quotes
    source: str = ""                            # the file (page) it was read from
    pm: bool = False                            # sent by personal message
    #: (line, text) of "[b]…[/b]" shown as written inside a code box: bold codes SMF did
    #: not render, so not bold (rules post: "they must be bolded")
    coded: list[tuple[int, str]] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.source else f"line {self.line}"


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, refused in one line when over ``limit`` or unreadable."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise GMError(f"{path}: cannot read: {exc.strerror}") from None
    if len(data) > limit:
        raise GMError(f"{path}: over {limit // (1024 * 1024)} MB; a saved thread page is far smaller")
    if b"\x00" in data:
        raise GMError(f"{path}: not a text file (it holds NUL bytes)")
    return data


def decode(data: bytes) -> str:
    """UTF-8, else the page's declared charset, else Windows-1252."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    m = re.search(rb"charset=[\"']?([\w-]+)", data[:4096], re.I)
    for name in ((m.group(1).decode("ascii"),) if m else ()) + ("cp1252",):
        try:
            return data.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return data.decode("latin-1")


def read_posts(path: Path) -> list[Post]:
    """The posts of ``path``, in order: HTML when it looks like a web page, else the
    text format.  A file with no post raises :class:`GMError` naming it."""
    text = decode(read_bytes(path))
    html = re.search(r"<(!doctype\s+html|html|div|body)\b", text[:4096], re.I)
    posts = read_html(text) if html else read_text(text, str(path))
    if not posts:
        what = "no SMF post (div.poster and div.inner)" if html else 'no [post author="…"] … [/post]'
        raise GMError(f"{path}: {what} found")
    for post in posts:
        post.source = path.name
    return posts


def read_pages(paths: list[Path]) -> list[Post]:
    """The posts of several pages of one thread (or of personal messages), in the order
    given: a thread saved over two pages is read as one."""
    return [post for path in paths for post in read_posts(path)]


def coded(pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The "[b]…[/b]" of a code box's text, given as (line, text) pieces, each line of it
    with the line it is on: bold codes shown as written, not bold."""
    text, starts = "", []
    for line, piece in pieces:
        starts.append((len(text), line))
        text += piece
    out = []
    for m in CODED.finditer(text):
        at = m.start(1)
        for raw in m.group(1).split("\n"):
            first = at + len(raw) - len(raw.lstrip())
            line = max((ln for start, ln in starts if start <= first), default=starts[0][1] if starts else 0)
            piece = " ".join(htmllib.unescape(INLINE.sub("", raw)).split())
            if piece:
                out.append((line, piece))
            at += len(raw) + 1
    return out


def _lines(parts: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Bold pieces joined into lines (a piece with a line break ends one), blank ones
    dropped, spaces collapsed."""
    out: list[tuple[int, str]] = []
    cur, start = "", 0
    for line, piece in parts:
        for i, chunk in enumerate(piece.split("\n")):
            if i:
                out.append((start, cur))
                cur, start = "", line + i
            if not cur.strip():
                start = line + i
            cur += chunk
    out.append((start, cur))
    out = [(n, " ".join(t.split()).strip(" |")) for n, t in out]
    return [(n, t) for n, t in out if t]


# -- the text format ----------------------------------------------------------------------
TAG = re.compile(r"\[(/?)(post|quote|b|li|list|\*|br|hr|table|tr|td|th|code)(?=[\s\]=])([^\]]*)\]", re.I)
#: an attribute: quoted, bare (``edited``), or unquoted up to the next attribute as SMF
#: writes quotes (``author=Old Tom date=…``)
ATTR = re.compile(r'(\w+)(?:\s*=\s*(?:"([^"]*)"|((?:(?!\s+\w+\s*=)[^"\]])+)))?')
BREAKS = {"li", "list", "*", "br", "hr", "table", "tr"}
#: a table's cells are the columns of one line ("Brega | defend | 5")
CELLS = {"td", "th"}
#: struck-out text ("[s]10 Grain to Conquer Kent[/s]"): what the player crossed out in
#: his post before sending it is no order
STRUCK = re.compile(r"\[(s|strike|del)\].*?\[/\1\]", re.I | re.S)
#: "[b]…[/b]" written out in a code box, where the forum shows the codes instead of bold
CODED = re.compile(r"\[b\](.*?)\[/b\]", re.I | re.S)
#: SMF's codes that only style the text inside bold (``[color=red]``, ``[size=10pt]``, …)
INLINE = re.compile(r"\[/?(?:color|size|font|i|u|s|sup|sub|tt|glow|shadow|center|left|right|pre|url|iurl|"
                    r"email|ftp|abbr|acronym|bdo|black|blue|green|red|white|move|nobbc|spoiler|hide)(?:=[^\]]*)?\]", re.I)
#: an ``edited``/``pm`` attribute says no only so; its presence, or a date, says yes
NO = ("no", "false", "0")


def _said(attrs: dict[str, str], name: str) -> bool:
    """Whether a post's attribute is set: ``edited="yes"``, a bare ``edited``, or the date
    of the edit as SMF shows it (``edited="November 27, 2026, 09:14:02 PM"``)."""
    value = attrs.get(name, "").strip().lower()
    return bool(value) and value not in NO


def read_text(text: str, source: str) -> list[Post]:
    """The posts of the text format; lines are counted as the tags pass, once."""
    text = STRUCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    posts: list[Post] = []
    post: Post | None = None
    parts: list[tuple[int, str]] = []
    plain: list[tuple[int, str]] = []
    quote = bold = cell = 0
    pos = 0
    line = 1
    skip = 0
    for m in TAG.finditer(text):
        if m.start() < skip:
            continue
        if post is not None and not quote:
            (parts if bold else plain).append((line, htmllib.unescape(INLINE.sub("", text[pos:m.start()]))))
        line += text.count("\n", pos, m.start())
        pos = m.start()
        closing, tag = m.group(1) == "/", m.group(2).lower()
        if tag == "post" and not closing:
            if post is not None:
                raise GMError(f"{source}:{line}: a post begins before the post of line {post.line} ends")
            attrs = {a[1].lower(): next((v for v in a.groups()[1:] if v is not None), "yes")
                     for a in ATTR.finditer(m.group(3))}
            if not attrs.get("author", "").strip():
                raise GMError(f'{source}:{line}: a post without its author (write [post author="Name"])')
            post = Post(htmllib.unescape(attrs["author"].strip()), line, _said(attrs, "edited"), pm=_said(attrs, "pm"))
            parts, plain, quote, bold = [], [], 0, 0
        elif tag == "post":
            if post is None:
                raise GMError(f"{source}:{line}: [/post] without a post")
            post.bold, post.plain = _lines(parts), _lines(plain)
            posts.append(post)
            post = None
        elif tag == "quote":
            quote = max(0, quote + (-1 if closing else 1))
        elif tag == "code":
            if closing or post is None:
                pos = m.end()
                continue
            end = re.compile(r"\[/code\]", re.I).search(text, m.end())
            stop = end.end() if end else len(text)
            if not quote:
                first = line + text.count("\n", m.start(), m.end())
                body = text[m.end():end.start() if end else stop]
                post.coded += coded([(first + k, piece + "\n") for k, piece in enumerate(body.split("\n"))])
            line += text.count("\n", m.start(), stop)
            pos = skip = stop
            continue
        elif tag in BREAKS:
            if not quote:
                parts.append((line, "\n"))
                plain.append((line, "\n"))
        elif tag in CELLS:
            cell = max(0, cell + (-1 if closing else 1))
            if bold and not quote and not closing:
                parts.append((line, " | "))
        else:
            bold = max(0, bold + (-1 if closing else 1))
            plain.append((line, "\n"))
            if closing and not quote:
                parts.append((line, " | " if cell else "\n"))
        line += text.count("\n", m.start(), m.end())
        pos = m.end()
    if post is not None:
        raise GMError(f"{source}:{post.line}: the post by {post.author} has no [/post]")
    return posts


# -- SMF pages ------------------------------------------------------------------------------
VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "area", "base", "col", "source"}
#: elements that end a line of bold text
BLOCKS = {"br", "hr", "li", "ul", "ol", "div", "p", "tr", "table", "dd", "dt", "h1", "h2", "h3", "h4",
          "h5", "h6", "blockquote", "pre", "details", "summary"}


class _SMF(HTMLParser):
    """Walks an SMF thread page keeping, for each open element, what it is for the post."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.posts: list[Post] = []
        self.stack: list[tuple[str, str]] = []     # (tag, role)
        self.parts: list[tuple[int, str]] = []
        self.author: list[str] | None = None
        self.code: list[tuple[int, str]] = []      # a code box's text, with its lines
        self.plain: list[tuple[int, str]] = []     # the body's text that is not bold

    def roles(self) -> set[str]:
        return {r for _, r in self.stack}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        roles = self.roles()
        role = ""
        if "poster" in classes:
            role = "poster"
            self.posts.append(Post("", self.getpos()[0]))
            self.parts = []
        elif "poster" in roles and tag == "a" and "h4" in {t for t, _ in self.stack} and self.author is None \
                and not self.posts[-1].author:
            role, self.author = "author", []
        elif "inner" in classes and self.posts:
            role = "body"
        elif "modified" in classes or "lastedit" in classes:
            role = "modified"
        elif "body" in roles and (tag == "blockquote" or "quoteheader" in classes or "quotefooter" in classes):
            role = "quote"
        elif "body" in roles and tag in ("b", "strong"):
            role = "bold"
        elif "body" in roles and tag == "code":
            role, self.code = "code", []
        elif "body" in roles and tag in ("s", "del", "strike"):
            role = "struck"
        elif "code" in roles and tag == "br":
            self.code.append((self.getpos()[0], "\n"))
        if "body" in roles and "quote" not in roles:
            if tag in BLOCKS or role == "bold":
                self.plain.append((self.getpos()[0], "\n"))
            if tag in BLOCKS:
                self.parts.append((self.getpos()[0], "\n"))
            elif tag in ("td", "th") and "bold" in roles:
                self.parts.append((self.getpos()[0], " | "))
        if tag not in VOID:
            self.stack.append((tag, role))

    def handle_endtag(self, tag):
        roles = self.roles()
        if tag in BLOCKS and "body" in roles and "quote" not in roles:
            self.parts.append((self.getpos()[0], "\n"))
            self.plain.append((self.getpos()[0], "\n"))
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _, role in self.stack[i:]:
                    self._close(role)
                del self.stack[i:]
                return

    def _close(self, role: str) -> None:
        if role == "author" and self.author is not None:
            self.posts[-1].author = " ".join("".join(self.author).split())
            self.author = None
        elif role == "bold":
            self.plain.append((self.getpos()[0], "\n"))
            cell = any(t in ("td", "th") for t, _ in self.stack)
            self.parts.append((self.getpos()[0], " | " if cell else "\n"))
        elif role == "code" and "quote" not in self.roles():
            self.posts[-1].coded += coded(self.code)
        elif role == "body":
            self.posts[-1].bold, self.posts[-1].plain = _lines(self.parts), _lines(self.plain)
            self.parts, self.plain = [], []

    def handle_data(self, data):
        roles = self.roles()
        if self.author is not None:
            self.author.append(data)
        if "modified" in roles and self.posts:
            self.posts[-1].mark += data
        if "code" in roles:
            line = self.getpos()[0]
            self.code += [(line + k, piece + " ") for k, piece in enumerate(data.split("\n"))]
        elif "body" in roles and "quote" not in roles and "struck" not in roles:
            (self.parts if "bold" in roles else self.plain).append((self.getpos()[0], data.replace("\n", " ")))


def read_html(text: str) -> list[Post]:
    parser = _SMF()
    parser.feed(text)
    parser.close()
    posts = [p for p in parser.posts if p.author]
    for post in posts:
        _edit_mark(post)
    return posts


def _edit_mark(post: Post) -> None:
    """Whether SMF's "Last Edit: <date> by <name>" marks an edit by the post's writer
    (``edited``: "You cannot edit your orders once you've send the post!") or by someone
    else (``edited_by``); a mark naming nobody is the writer's."""
    mark = " ".join(post.mark.replace("\u00bb", " ").split())
    if "last edit" not in mark.casefold():
        return
    who = re.search(r"\bby\s+(.+?)\s*$", mark)
    editor = who.group(1) if who else ""
    same = re.sub(r"\W", "", editor.casefold()) == re.sub(r"\W", "", post.author.casefold())
    if editor and not same:
        post.edited_by = editor
    else:
        post.edited = True
