"""The results post of a turn, in the forum's codes (``turn-N.bbcode``): each kind of
fact under its heading, the orders refused or not read with their reasons (the players
cannot edit their posts, so they learn here what did not count and why), then every
player's grain, states and king for the next turn, each name in its colour made dark
enough to read on a light forum page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from realms.core.events import Event

    from .state import BRState

SECTIONS = (
    ("Orders", {"orders"}), ("Battles", {"battle", "draw"}),
    ("Conquests", {"conquest", "capital-captured", "devastated"}), ("Capitals", {"capital"}),
    ("Investments", {"invest", "invest-lost"}), ("Kings", {"king", "king-death", "king-home", "death-toss"}),
    ("Trade routes", {"trade", "trade-cancelled", "trade-lapsed", "trade-refused"}),
    ("Kingdoms and titles", {"kingdom", "title", "title-lost", "empire", "economic-victory"}),
    ("Newcomers", {"newcomer", "start"}), ("Eliminated", {"eliminated"}),
)
#: the least contrast of a name's colour against a white page (WCAG's ratio; 4.5 is
#: their body-text level)
CONTRAST = 4.5


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(hex_colour: str) -> float:
    """WCAG's contrast ratio of ``hex_colour`` against white."""
    red, green, blue = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 1.05 / (_luminance((red, green, blue)) + 0.05)


def on_light(hex_colour: str) -> str:
    """``hex_colour`` darkened, keeping its hue, until it reads on white."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    out = hex_colour
    scale = 1.0
    while contrast(out) < CONTRAST and scale > 0:
        scale -= 0.02
        out = "#" + "".join(f"{round(c * max(scale, 0.0)):02x}" for c in rgb)
    return out


def _unread(reading: dict | None) -> list[str]:
    if not reading:
        return []
    out = []
    for name, entry in reading.get("players", {}).items():
        for x in entry.get("problems", []):
            said = f"{name}: [i]{x['text']}[/i] — {x['reason']}" if x["text"] else f"{name}: {x['reason']}"
            out.append(said + (f" (did you mean [i]{x['hint']}[/i]?)" if x.get("hint") else ""))
    for x in reading.get("newcomer_problems", []):
        out.append(f"{x['author']}: [i]{x['text']}[/i] — {x['reason']}")
    return out


def _with_colours(s: "BRState", e: "Event") -> str:
    """An event's line for the forum, each seat it names (``seats``) followed by its colour
    ("Bob (Yellow)"): the forum's players know each other by the rules post's colours,
    which the report's map draws; the game's own lines name seats only, as the web page
    may draw them in another palette."""
    text = e.text
    for p in e.data.get("seats", ()):
        name = s.names[p]
        at = text.find(name)
        if at >= 0:
            text = f"{text[:at + len(name)]} ({s.colours[p]}){text[at + len(name):]}"
    return text


def bbcode(s: "BRState", turn: int, events: "Sequence[Event]", reading: dict | None = None,
           image_url: str | None = None) -> str:
    """The turn report; ``reading`` is ``gm orders``' reading (its problems are listed),
    ``image_url`` the map's address (default: the file name beside the report)."""
    this = [e for e in events if e.turn == turn and e.audience is None]
    out = [f"[size=14pt][b]Turn {turn} results[/b][/size]", ""]
    for title, kinds in SECTIONS:
        lines = [_with_colours(s, e) for e in this if e.kind in kinds]
        if lines:
            out += [f"[b]{title}[/b]", "[list]", *(f"[li]{x}[/li]" for x in lines), "[/list]", ""]
    unread = _unread(reading)
    if unread:
        out += ["[b]Orders not taken[/b]", "[list]", *(f"[li]{x}[/li]" for x in unread), "[/list]", ""]
    if s.over:
        out.append(f"[b]The game is over: {', '.join(s.names[p] for p in s.winners) or 'nobody'} "
                   f"won ({s.victory}).[/b]")
    else:
        out.append(f"[b]Grain for turn {s.turn}[/b] (after income)")
    out.append("[table]")
    out.append("[tr][td][b]Player[/b][/td][td][b]Grain[/b][/td][td][b]States[/b][/td][td][b]King[/b][/td][/tr]")
    for p, name in enumerate(s.names):
        king = f"{s.king_name[p]} (CV {s.king_cv[p]}; {', '.join(s.king_traits[p])})" if s.alive[p] else "-"
        colour = on_light(s.tables.colour_hex[s.colours[p]])
        out.append(f"[tr][td][color={colour}]{name}[/color] ({s.colours[p]})[/td][td]{s.grain[p]}[/td]"
                   f"[td]{len(s.held(p))}[/td][td]{king}[/td][/tr]")
    out.append("[/table]")
    out.append(f"[img]{image_url or f'turn-{turn}.png'}[/img]")
    return "\n".join(out) + "\n"
