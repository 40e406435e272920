"""The town's core: what every part of the engine shares and is handed in its constructor.

``TownCore`` holds the town (map, objects, clock, model), the residents as the engine keeps them
(``state.Resident``), their minds and maps of places, the visitor, the embodied resident, the
ledger of who led each minute, the events waiting for the next ``TickResult`` (``out``) and the
errors shown.  It answers the questions every part asks of them (who is where, what is this place
called, whose is this name).  It decides nothing: the parts do (game/engine/engine.py wires them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from game.engine.api import Clock, MindPort, Objects, PlaceMemory, TownMap
from game.engine.decisions.ledger import DecisionLedger
from game.engine.events import LogLine, TickResult
from game.engine.state import Player, Pos, Resident
from game.llm.api import LLM
from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import sentences
from game.mind.talk.points import public
from game.world.affordances import KindInfo
from game.world.knowledge import role_tables
from game.world.lacking import lacking, tree_words
from game.world.tree import AreaTree, arena_names, rooms_by_place
from game.world.whereabouts import whereabouts


class TownCore:
    """The shared state of one town.  Who writes what: the step number by the engine's tick;
    ``player`` and ``embodied`` by the player's commands (commands.py); ``out`` by any part that
    has an event outside a tick; the residents' fields by the parts that own them (each part's
    docstring says which)."""

    def __init__(self, *, town: TownMap, town_path: str, clock: Clock, llm: LLM, minds: dict[str, MindPort],
                 spatial: dict[str, PlaceMemory], positions: dict[str, Pos], seed: int, lockstep: bool,
                 decision_ticks: int, small: bool) -> None:
        self.town = town
        self.town_path = str(town_path)
        self.clock = clock
        self.llm = llm
        self.minds = minds
        self.spatial = spatial  # resident -> the places it knows
        self.seed = seed
        self.rng = random.Random(seed)  # (saved: a fork walks as the town it came from)
        # the clock waits for each decision (headless runs, forks, tests): see game/engine/engine.py
        self.lockstep = lockstep
        self.decision_ticks = max(1, int(decision_ticks))
        self.small = small  # the small cast (kept in the save, for a replay of it)
        self.step_no = 0
        self.residents: dict[str, Resident] = {
            name: Resident(name=name, pos=positions[name]) for name in sorted(minds)}
        self.player: Player | None = None
        self.embodied: str | None = None
        self._lows: tuple[tuple[int, str], list[tuple[str, str, list[str]]]] | None = None  # match_name's
        self.ledger = DecisionLedger()  # model-led share and decision lag (game/engine/decisions/ledger.py)
        # the town's places and people, for reading and checking facts (mind/facts/fact.py)
        # (people: everyone the town's story names, not only the cast that plays: the small cast
        # speaks of Felix and Aiko, who live in the town)
        people = {*minds, *(s.name for s in town.residents)} - {""}
        roles = role_tables(town.roles)
        tree = town.tree  # (a test's town may have a tree of its own kind: no places read from it)
        self.town_names = TownNames(places=tuple(town.tree.sectors()), people=tuple(sorted(people)),
                                    arenas=arena_names(tree) if isinstance(tree, AreaTree) else (),
                                    rooms=rooms_by_place(tree) if isinstance(tree, AreaTree) else {},
                                    relations={n: dict(m.persona.relationships) for n, m in minds.items()},
                                    roles=roles.public, secret_roles=roles.secret,
                                    former_roles=roles.former,
                                    townsfolk=frozenset(r.name for r in town.residents if not r.newcomer)
                                    if town.small_town else frozenset(),
                                    workplaces={
                                        s.name: s.workplace.split(":")[0] for s in town.residents if s.workplace},
                                    homes={s.name: s.home.split(":")[0] for s in town.residents if s.home},
                                    ages={s.name: s.age for s in town.residents if s.age},
                                    near=whereabouts(tree) if isinstance(tree, AreaTree) else {},
                                    lacks=_lacks(tree) if isinstance(tree, AreaTree) else None,
                                    open_now=lambda place: _open_now(town.objects, place),
                                    parts={e.what.lower(): (e.host, *e.known_by) for e in town.events},
                                    doings={n: tuple(sentences(public(m.persona.currently))) for n, m in minds.items()},
                                    tasks=tuple((who, t) for e in town.events for who, ts in e.tasks.items()
                                                for t in ts))
        # events waiting for the next TickResult (from commands and streamed replies)
        self.out = TickResult(step=0, clock="")
        self.errors: list[str] = []
        self.on_error: Callable[[str], None] | None = None

    def take_out(self) -> TickResult:
        """The events gathered since the last tick, as the start of this one's result."""
        res = self.out
        res.step = self.step_no
        res.clock = self.clock.text()
        self.out = TickResult(step=self.step_no, clock="")
        return res

    def error(self, text: str, res: TickResult) -> None:
        """A failure worth showing: kept (the last 200), logged in the tick and told ``on_error``."""
        self.errors.append(text)
        del self.errors[:-200]
        res.log.append(LogLine("error", text))
        if self.on_error is not None:
            self.on_error(text)

    # ------------------------------------------------------------------ who and where

    def actors(self) -> dict[str, Pos]:
        """Where everyone is: the residents and the visitor."""
        out = {name: r.pos for name, r in self.residents.items()}
        if self.player is not None:
            out[self.player.name] = self.player.pos
        return out

    def doing(self, names: Iterable[str] | None = None) -> dict[str, str]:
        """What everyone is doing (or those of ``names``), in words (what perception says of them)."""
        if names is None:
            out = {name: r.action.description for name, r in self.residents.items() if r.action is not None}
        else:  # (one pass: a round of looks asks it for each cell's people, a thousand residents' town)
            out = {n: r.action.description for n in names
                   if (r := self.residents.get(n)) is not None and r.action is not None}
        if self.player is not None and (names is None or self.player.name in names):
            out[self.player.name] = f"visiting ({self.player.description})" if self.player.description \
                else "visiting"
        return out

    def position(self, name: str) -> Pos | None:
        """Where ``name`` (a resident or the visitor) is (``actors()``'s, without the whole town)."""
        if self.player is not None and self.player.name == name:
            return self.player.pos
        r = self.residents.get(name)
        return r.pos if r is not None else None

    def controlled(self, name: str) -> bool:
        """The player speaks and walks for ``name`` (the visitor, or the embodied resident)."""
        return name == self.embodied or (self.player is not None and name == self.player.name)

    def match_name(self, words: str) -> str | None:
        """The resident or visitor ``words`` name: the whole name, or one part of it or its start
        when only one fits."""
        w = words.strip().lower()
        if not w:
            return None
        key = (len(self.residents), self.player.name if self.player else "")
        if self._lows is None or self._lows[0] != key:  # each name lowered and split once, not at every ask
            names = list(self.residents) + ([self.player.name] if self.player else [])
            self._lows = (key, [(n, n.lower(), n.lower().split()) for n in names])
        lows = self._lows[1]
        exact = next((n for n, low, _ in lows if low == w), None)
        hits = [exact] if exact else [n for n, low, parts in lows if w in parts or low.startswith(w)]
        return hits[0] if len(hits) == 1 else None

    def address_at(self, pos: Pos) -> str:
        try:
            return self.town.tree.address_at(pos) or ""
        except (KeyError, IndexError, ValueError):  # off the map
            return ""

    def describe(self, address: str) -> str:
        if not address:
            return "outside"
        try:
            return self.town.tree.describe(address)
        except KeyError:  # no such place
            return address

    def info(self, address: str) -> KindInfo | None:
        """The kind of thing at ``address`` with its states' vocabulary (``game.world.affordances``),
        or None (no such thing)."""
        return self.town.affordances.info(address)

    def learn(self, name: str, address: str) -> None:
        """``name`` knows the place at ``address`` from now on (seen, walked into, or told of)."""
        sm = self.spatial.get(name)
        if sm is None or sm.knows(address):
            return
        if address.count(":") <= 1:
            sm.observe_area(self.town.tree, address)
        else:
            sm.learn(address)


_OPEN_STATES = ("staffed", "open", "serving")


def _open_now(objects: Objects, place: str) -> bool:
    """Whether one of ``place``'s objects is staffed, open or serving now."""
    busy = objects.busy().items()
    return any(addr.startswith(place + ":") and state.startswith(_OPEN_STATES) for addr, state in busy)


def _lacks(tree: AreaTree) -> Callable[[str], list[str]]:
    """The kinds of place a text names that the town has none of (game/world/lacking.py)."""
    return lambda text: lacking(text, tree_words(tree))
