"""Bots for Brian Boru.

``greedy`` looks one decision ahead with a few rules of thumb.  Like a person it sees only
its decision and ``view(player)`` (never another hand), plus the printed components (the
tables).  It values a town by the majorities it can win there (claim token points, scaled
by how close the token is to turning face up) and by the regions table; it tries to win
tricks in valuable towns with high cards and dumps its low cards for their secondary
actions; it takes coins when it can expand, and climbs a track when a step there wins
something (the marriage, the spoils of battle, a monastery) or averts a Viking raid.
"""

from __future__ import annotations

from realms.core.agents import ViewFn
from realms.core.decision import Decision
from realms.core.dice import Dice

from .tables import Tables, load_tables


class _Look:
    """What the bot reads from a view, computed once per decision."""

    def __init__(self, view: dict, me: int, t: Tables) -> None:
        self.view = view
        self.me = me
        self.t = t
        b = t.board
        players = view["players"]
        self.n = len(players)
        self.players = players
        nreg = len(b.regions)
        self.count = [[0] * self.n for _ in range(nreg)]   # weighted towns per region per player
        self.vikings = [0] * nreg
        self.total = [0] * nreg
        self.mine_regions: set[int] = set()
        self.free: set[int] = set()
        self.my_towns: list[int] = []
        towns = view["towns"]
        for town in b.towns:
            info = towns[str(town.id)]
            o = info["owner"]
            r = town.region
            if o is None:
                self.free.add(town.index)
                continue
            w = 2 if info["monastery"] else 1
            self.total[r] += w
            if info["vikings"]:
                self.vikings[r] += w
            else:
                self.count[r][o] += w
                if o == me:
                    self.mine_regions.add(r)
                    self.my_towns.append(town.index)
        claims = view["claims"]
        self.face_up = [claims[reg.id]["face_up"] for reg in b.regions]
        self.holder = [claims[reg.id]["holder"] for reg in b.regions]
        self.rounds_left = view["rounds"] - view["round"]

    def best_other(self, r: int) -> int:
        c = self.count[r]
        return max([self.vikings[r]] + [c[p] for p in range(self.n) if p != self.me])

    def region_gain(self, r: int, delta: int = 1) -> float:
        """What ``delta`` more towns in region ``r`` are worth to me."""
        reg = self.t.board.regions[r]
        mine = self.count[r][self.me]
        other = self.best_other(r)
        if self.face_up[r]:
            chance = 1.0
        else:
            chance = min(1.0, (self.total[r] + delta) / reg.threshold) ** 2
        new = mine + delta
        if new > other >= mine:
            value = reg.points * chance            # take the lead
        elif new == other:
            value = 0.3 * reg.points * chance      # draw level
        elif mine > other:
            value = 0.2 * reg.points * chance      # strengthen a lead
        else:
            value = 0.1 * reg.points * chance
        if r not in self.mine_regions:
            value += 1.5                            # the regions table
        return value

    def town_value(self, town: int) -> float:
        return 1.0 + self.region_gain(self.t.board.towns[town].region)

    def me_p(self) -> dict:
        return self.players[self.me]


class GreedyBot:
    """A one-step heuristic player (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)
        self.t = load_tables()

    # -- entry point ----------------------------------------------------------------------
    def choose(self, decision: Decision, view: ViewFn) -> int:
        keys = list(decision.keys)
        if len(keys) == 1:
            return 0
        look = _Look(view(), decision.player, self.t)
        method = getattr(self, "_" + decision.kind[3:].replace("-", "_"), None)
        if method is None:
            return self.dice.below(len(keys))
        scores = method(look, keys, decision)
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s == best]
        return ties[0] if len(ties) == 1 else ties[self.dice.below(len(ties))]

    # -- helpers --------------------------------------------------------------------------
    def _town(self, key: str) -> int:
        return self.t.board.town_index[int(key)]

    def _card(self, key: str):
        return self.t.cards[self.t.card_by_label[key]]

    def _p_win(self, look: _Look, value: int, colour: str, still_to_play: int, played: list[int]) -> float:
        """Rough chance that ``value`` stays the highest card in ``colour`` (whites wild)."""
        hand = {self.t.card_by_label[k] for k in look.view.get("hand", [])}
        higher = sum(
            1 for c in self.t.cards[1:]
            if c.value > value and c.colour in (colour, "W") and c.value not in hand and c.value not in played
        )
        if still_to_play <= 0:
            return 1.0
        share = still_to_play / max(1, look.n - 1)
        return 0.8 ** (higher * share)

    def _secondary_value(self, look: _Look, groups) -> float:
        me = look.me_p()
        coins = me["coins"]
        value = 0.0
        for name, arg, count in groups:
            if name == "coin":
                coins += count
                value += 0.6 * count
            elif name == "pay":
                value -= 0.8 * count
            elif name == "expand":
                if coins >= self.t.rules.expand_cost and self._expand_targets(look):
                    value += max(look.town_value(t) for t in self._expand_targets(look)) - 2.5
            elif name == "raider":
                value += self._raider_value(look, count)
            elif name == "church":
                value += self._church_value(look, count)
            elif name == "marriage":
                value += self._marriage_value(look, count)
            elif name == "unviking":
                value += 1.0
            elif name == "renown":
                value += 1.0 * count                # a point at the end, more with the spoils
        return value

    def _expand_targets(self, look: _Look) -> list[int]:
        adj = self.t.board.adj
        active = look.view["active_town"]
        out = set()
        for t in look.my_towns:
            for u in adj[t]:
                if u in look.free and (active is None or self.t.board.towns[u].id != active):
                    out.add(u)
        return sorted(out)

    def _raider_value(self, look: _Look, count: int) -> float:
        if look.view["battle_area"] <= 0:
            return 0.0
        mine = look.me_p()["raiders"] + min(count, look.view["battle_area"])
        others = [p["raiders"] for i, p in enumerate(look.players) if i != look.me]
        value = 0.3 * count
        if look.me_p()["raiders"] <= min(others) and mine > min(others):
            value += 3.0                                    # out of the losers
        if mine > max(others) >= look.me_p()["raiders"]:
            value += look.me_p()["renown"] + 1.5             # the first spoils
        return value

    def _church_value(self, look: _Look, count: int) -> float:
        before = look.me_p()["church"]
        mine = before + count
        others = [p["church"] for i, p in enumerate(look.players) if i != look.me]
        value = 0.3 * count
        if mine > max(others) >= before and look.my_towns:
            value += 3.0
        if before < self.t.rules.monastery_discs <= mine and look.my_towns:
            value += 1.5
        return value

    def _marriage_value(self, look: _Look, count: int) -> float:
        before = look.me_p()["track"]
        mine = min(self.t.top, before + count)
        others = [p["track"] for i, p in enumerate(look.players) if i != look.me]
        value = 0.3 * count
        if mine > max(others) >= before and look.view["marriage_card"] is not None:
            value += 4.0
        return value

    # -- one method per decision kind -------------------------------------------------------
    def _first_town(self, look, keys, d):
        out = []
        for k in keys:
            t = self._town(k)
            reg = self.t.board.regions[self.t.board.towns[t].region]
            out.append(reg.points / reg.threshold + 0.3 * len(self.t.board.adj[t]) + 0.1 * reg.points)
        return out

    def _draft(self, look, keys, d):
        out = []
        for k in keys:
            c = self._card(k)
            score = abs(c.value - 12.5)
            if c.colour == "W":
                score += 4
            if c.value > 12:
                score -= 2.5 * sum(g[2] for g in c.primary if g[0] == "pay")
            out.append(score)
        return out

    def _active_town(self, look, keys, d):
        hand = [self._card(k) for k in look.view.get("hand", [])]
        out = []
        for k in keys:
            t = self._town(k)
            colour = self.t.board.towns[t].colour
            legal = [c for c in hand if c.colour in (colour, "W")]
            if not legal:
                out.append(-1.0)
                continue
            tv = look.town_value(t)
            out.append(max(self._card_ev(look, c, colour, 0, look.n - 1, [], tv) for c in legal))
        return out

    def _lead(self, look, keys, d):
        colour = self._active_colour(look)
        active = look.view["active_town"]
        tv = look.town_value(self.t.board.town_index[active]) if active is not None else 0.0
        return [self._card_ev(look, self._card(k), colour, 0, look.n - 1, [], tv) for k in keys]

    def _active_colour(self, look) -> str:
        active = look.view["active_town"]
        if active is None:
            return "-"
        return self.t.board.towns[self.t.board.town_index[active]].colour

    def _primary_value(self, look: _Look, card) -> float:
        """What the primary action adds beyond the town: coins and steps, minus payments
        (a payment without coins costs two points)."""
        coins = look.me_p()["coins"]
        value = 0.0
        for name, arg, count in card.primary:
            if name == "coin":
                coins += count
                value += 0.6 * count
            elif name == "pay":
                for _ in range(count):
                    if coins > 0:
                        coins -= 1
                        value -= 0.6
                    else:
                        value -= 2.0
            elif name in ("raider", "church", "marriage"):
                value += {"raider": self._raider_value, "church": self._church_value,
                          "marriage": self._marriage_value}[name](look, count)
            elif name == "renown":
                value += 1.0 * count
        return value

    def _card_ev(self, look, card, colour, best, still, played, tv) -> float:
        sec = max(self._secondary_value(look, g) for g in card.secondary)
        if card.colour in (colour, "W") and card.value > best:
            p = self._p_win(look, card.value, colour, still, played)
            ev = p * (tv + self._primary_value(look, card)) + (1 - p) * sec
        else:
            ev = sec
        return ev - 0.04 * card.value

    def _play(self, look, keys, d):
        colour = self._active_colour(look)
        played = [self.t.card_by_label[e["card"]] for e in look.view["trick"]["played"]]
        best = max([v for v in played if self.t.cards[v].colour in (colour, "W")], default=0)
        still = look.n - len(played) - 1
        active = look.view["active_town"]
        tv = look.town_value(self.t.board.town_index[active]) if active is not None else 0.0
        return [self._card_ev(look, self._card(k), colour, best, still, played, tv) for k in keys]

    def _secondary(self, look, keys, d):
        played = look.view["trick"]["played"]
        card = None
        for e in played:
            if e["player"] == look.me and not e["resolved"]:
                card = self._card(e["card"])
                break
        if card is None:
            return [0.0] * len(keys)
        return [self._secondary_value(look, card.secondary[int(k) - 1]) for k in keys]

    def _spend(self, look, keys, d):
        me = look.me_p()
        prompt = d.prompt
        others = [p for i, p in enumerate(look.players) if i != look.me]
        need = 0
        if "raider" in prompt:
            target = max(p["raiders"] for p in others) + 1
            need = target - me["raiders"]
        elif "church" in prompt:
            target = max(p["church"] for p in others) + 1
            need = target - me["church"]
            if me["church"] < self.t.rules.monastery_discs:
                need = min(max(need, 0), self.t.rules.monastery_discs - me["church"]) if need > 0 else need
        elif "marriage" in prompt:
            target = max(p["track"] for p in others) + 1
            need = target - me["track"]
            if need <= 0 and any(p["track"] == me["track"] for p in others):
                need = 1    # leave a shared space rather than fall back
        scores = []
        for k in keys:
            extra = int(k)
            if need > 0 and extra == need and extra <= 4:
                scores.append(2.0)
            elif extra == 0:
                scores.append(1.0)
            else:
                scores.append(0.0)
        return scores

    def _expand(self, look, keys, d):
        return [0.0 if k == "none" else look.town_value(self._town(k)) - 2.5 for k in keys]

    def _place_town(self, look, keys, d):
        return [look.town_value(self._town(k)) for k in keys]

    def _monastery(self, look, keys, d):
        return [look.region_gain(self.t.board.towns[self._town(k)].region) for k in keys]

    def _lose_town(self, look, keys, d):
        owner = look.view["towns"][keys[0]]["owner"]
        out = []
        for k in keys:
            r = self.t.board.towns[self._town(k)].region
            if owner == look.me:
                out.append(-look.region_gain(r, 1))
            else:
                c = look.count[r]
                lead = c[owner] - max([look.vikings[r]] + [c[p] for p in range(look.n) if p != owner])
                out.append(self.t.board.regions[r].points * (1.0 if lead in (0, 1) else 0.3))
        return out

    def _unviking(self, look, keys, d):
        return [1.0 if look.view["towns"][k]["owner"] == look.me else 0.0 for k in keys]

    def _princess(self, look, keys, d):
        regions_with_vikings = sum(1 for r, v in enumerate(look.vikings) if v and r not in look.mine_regions)
        military = 0.0
        for r, v in enumerate(look.vikings):
            if v:
                mine = look.count[r][look.me]
                if mine + v > look.best_other(r) - v:
                    military += 0.5 * self.t.board.regions[r].points
        values = {"military": military, "trade": 1.5 * regions_with_vikings, "spurn": float(self.t.rules.spurn_points)}
        return [values[k] for k in keys]


__all__ = ["GreedyBot"]
