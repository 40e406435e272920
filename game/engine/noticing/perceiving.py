"""Perception: what each resident sees every few ticks goes into its observation buffer; what is
new and salient (a person come into view, an object the player changed) waits for a reaction; the
places it sees are learnt; ``world_view`` tells its mind what it knows.  A part of ``Engine``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import cast

from game.engine.decisions.jobs import JobBoard
from game.engine.noticing.hazards import Hazards
from game.engine.noticing.salience import Salience
from game.engine.state import Resident
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.engine.tuning import (
    OBJECT_NEWS,
    PERCEIVE_BANDWIDTH,
    PERCEIVE_EVERY,
    PERCEIVE_RADIUS,
    SUBJECT_COOLDOWN,
    TALK_COOLDOWN,
    TALK_RANGE,
)
from game.mind.facts.fact import Fact
from game.mind.facts.keptfrom import role_veiled, veiled
from game.mind.planning.dayframe import shifts_of
from game.mind.view import WorldView
from game.world.objects import ObjectStates
from game.world.resolve import Grounder

# the world's perception (game.world.perception.perceive): what one resident sees from where it stands
Perceive = Callable[..., list]
Pos = tuple[int, int]


def _never(more: int = 0) -> bool:
    return False


class Perceiver:
    """Owns ``Resident.seen``, ``obs_buffer`` and ``obs_since`` (the lanes hand the buffer to a
    job and take it back when the job is cancelled), and adds to ``salient``, ``urgent`` and
    ``reacted`` (the hazards add theirs; the lanes clear ``salient`` when they ask the reaction).
    Takes the core, the things (what changed lately) and the hazards (noticed at each look)."""

    def __init__(self, core: TownCore, things: Things, board: JobBoard, salience: Salience, hazards: Hazards,
                 perceive: Perceive) -> None:
        self.core = core
        # whether the model server is crowded now, with ``more`` reactions to come (``Capacity.crowded``,
        # given by the engine); and the residents this round's looks gave something to react to (they ask
        # their reactions after the looks: the crowd of one tick counts before the server sees it)
        self.crowded: Callable[[int], bool] = _never
        self.reacting = 0
        self.quiet_in_crowd = 0  # people come into view not reacted to for the crowd (a count for the report)
        self.quiet_after_talk = 0  # ... nor for having just talked with them (``talked_lately``)
        self.things = things
        self.board = board
        self.salience = salience
        self.hazards = hazards
        self.perceive = perceive
        # staffed_hours, by day: the places' and the people's
        self._hours: tuple[date | None, dict[str, list[tuple[int, int]]], dict[str, list[tuple[int, int]]]] = (
            None, {}, {})
        # while a round of looks goes on (``look_round``): everyone's tile by cell of
        # PERCEIVE_RADIUS tiles, as of this tick (after everyone moved)
        self._cells: dict[Pos, list[tuple[str, Pos]]] | None = None
        self._near: dict[Pos, tuple[dict[str, Pos], dict[str, str]]] = {}  # a cell's ``around``, this round
        # the round's cells by the arena each one stands in, and those of a cell's ``around`` in an arena
        # (``in_arena``): a look sees only its own arena, and a crowded block's cells hold many arenas
        self._by_arena: dict[tuple[int, int, str], list[tuple[str, Pos]]] = {}
        self._near_in: dict[tuple[int, int, str], dict[str, Pos]] = {}
        # the last round's cells and its step: nobody walks between the looks and the decisions
        # (``Engine.step``), so a decision's view finds those near in them, not among the whole town
        self._grid: tuple[int, dict[Pos, list[tuple[str, Pos]]]] = (-1, {})
        self._allowed: dict[str, tuple[int, list[str], str]] = {}  # by resident: its spatial memory's version
        self._kept: tuple[datetime | None, dict[str, list[Fact]]] = (None, {})  # ``_kept_from``
        self._roles: tuple[object, dict[str, list[tuple[str, str, tuple[str, ...]]]]] = (None, {})  # _secret_roles

    def look_round(self, residents: Iterable[Resident], step_no: int, now: datetime) -> None:
        """This tick's looks, once everyone has moved: each resident every ``PERCEIVE_EVERY``
        ticks (staggered by its place in the town).  A look is made among those near it only
        (``around``): the world's perception looks no further than ``PERCEIVE_RADIUS``, so it
        sees what it would among the whole town, and a look costs the people near, not the town
        (1,000 residents, a third of them looking each tick among all of them, took most of a
        tick's time)."""
        size = max(1, PERCEIVE_RADIUS)
        cells: dict[Pos, list[tuple[str, Pos]]] = defaultdict(list)
        by_arena: dict[tuple[int, int, str], list[tuple[str, Pos]]] = defaultdict(list)
        arena_at = self.core.town.tree.arena_at
        for name, p in self.core.actors().items():
            cx, cy = p[0] // size, p[1] // size
            cells[(cx, cy)].append((name, p))
            by_arena[(cx, cy, arena_at(p))].append((name, p))
        self._cells, self._by_arena = cells, by_arena
        self._near, self._near_in = {}, {}
        self._grid = (self.core.step_no, cells)
        self.reacting = 0
        try:
            for i, r in enumerate(residents):
                if (step_no + i) % PERCEIVE_EVERY == 0:
                    self.look(r, now)
        finally:
            self._cells, self._by_arena = None, {}
            self._near, self._near_in = {}, {}

    def around(self, pos: Pos) -> tuple[dict[str, Pos], dict[str, str]]:
        """Those within ``PERCEIVE_RADIUS`` tiles of ``pos`` (a square; a few beyond it) and what
        they are doing now: from the round's grid (``look_round``), else the whole town."""
        if self._cells is None:
            return self.core.actors(), self.core.doing()
        size = max(1, PERCEIVE_RADIUS)
        cx, cy = pos[0] // size, pos[1] // size
        made = self._near.get((cx, cy))  # (the same for all in a cell: made once a round)
        if made is None:
            cells = self._cells
            near = {name: p for dx in (-1, 0, 1) for dy in (-1, 0, 1) for name, p in cells.get((cx + dx, cy + dy), ())}
            made = self._near[(cx, cy)] = (near, self.core.doing(near))
        return made

    def in_arena(self, pos: Pos, near: dict[str, Pos]) -> dict[str, Pos]:
        """Those of ``near`` (``around(pos)``) in the arena ``pos`` lies in: all that a look from ``pos``
        can see of them (the world's perception sees only its own arena), made once a round for a cell
        and an arena.  Outside a round of looks, ``near`` itself."""
        if self._cells is None:
            return near
        size = max(1, PERCEIVE_RADIUS)
        key = (pos[0] // size, pos[1] // size, self.core.town.tree.arena_at(pos))
        made = self._near_in.get(key)
        if made is None:
            cx, cy, here = key
            by_arena = self._by_arena
            made = self._near_in[key] = {name: p for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                         for name, p in by_arena.get((cx + dx, cy + dy, here), ())}
        return made

    def look(self, r: Resident, now: datetime) -> None:
        core = self.core
        near, doing = self.around(r.pos)
        near = self.in_arena(r.pos, near)
        percepts = self.perceive(r.name, r.pos, core.town, near, PERCEIVE_RADIUS, PERCEIVE_BANDWIDTH, doing=doing,
                                 same_arena=self._cells is not None)  # (in a round: sorted by arena, in_arena)
        kept, roles = self._kept_from(now).get(r.name), self._secret_roles()
        if kept or roles:  # what others do, as one a gathering or a role is kept from sees it (keptfrom.py)
            percepts = [replace(p, text=role_veiled(veiled(p.text, p.subject, kept or ()), p.subject, r.name,
                                                    roles.get(p.subject, ())))
                        if p.kind == "person" and (kept or p.subject in roles) else p for p in percepts]
        current: dict[str, str] = {}
        salient: list[str] = []
        urgent = False
        player = core.player.name if core.player is not None else None
        for p in percepts:
            if p.kind == "person":
                if p.subject == r.name:
                    continue
                key, text = "person:" + p.subject, p.text
                if key not in r.seen and p.subject != player and self.talked_lately(r, p.subject, now):
                    self.quiet_after_talk += 1
                elif key not in r.seen and self.may_react(r, p.subject, now):
                    # seen and remembered only: a spouse at breakfast, or anyone but the player
                    # while the model server is crowded; unless there is news for them (an invitation)
                    home = self.at_home_together(r, p.subject)
                    crowd = not home and p.subject != player and self.crowded(self.reacting)
                    if not (home or crowd) or core.minds[r.name].news_for(p.subject, now):
                        salient.append(text)
                        self.salience.reacted_to(r, p.subject, now)
                        urgent = urgent or p.subject == player
                    elif crowd:
                        # passed over as if reacted to: else each later sight of them (one walks off and
                        # back) asked a reaction, and the crowd rule made more talks, not fewer (27
                        # sights passed over on eaef4b9's day: 60 reactions and 23 talks, against 43 and 9)
                        self.salience.reacted_to(r, p.subject, now)
                        self.quiet_in_crowd += 1
            else:
                key, text = "object:" + p.address, p.text
                if p.address:
                    core.learn(r.name, p.address)
                changed = self.things.news.get(p.address)
                if (r.seen.get(key) != text and changed is not None and now - changed <= OBJECT_NEWS
                        and self.may_react(r, p.address, now)):
                    salient.append(text)
                    self.salience.reacted_to(r, p.address, now)
                    urgent = True
            current[key] = text
        for key, text in current.items():
            if r.seen.get(key) != text and text not in r.obs_buffer:
                self.board.buffer(r, text, now)
        r.seen = current
        if salient and r.name != core.embodied and not r.conversation:
            self.salience.note(r, salient, urgent)
            self.reacting += 1
        self.hazards.notice(r, now)  # (hazards.py: a fire in the house, seen or not)

    def _secret_roles(self) -> dict[str, list[tuple[str, str, tuple[str, ...]]]]:
        """The town's secret roles by holder (a thousand residents' town has a hundred; a look asks of one)."""
        roles = self.core.town_names.secret_roles
        if self._roles[0] is not roles:
            by: dict[str, list[tuple[str, str, tuple[str, ...]]]] = defaultdict(list)
            for held in roles:
                by[held[0]].append(held)
            self._roles = (roles, dict(by))
        return self._roles[1]

    def _kept_from(self, now: datetime) -> dict[str, list[Fact]]:
        """Who has gatherings kept from it, and which: read from the minds' facts once a game hour (a
        thousand residents' looks ask it every tick)."""
        hour = now.replace(minute=0, second=0, microsecond=0)
        if self._kept[0] != hour:
            kept: dict[str, dict[str, Fact]] = defaultdict(dict)
            for mind in self.core.minds.values():
                for f in mind.facts:
                    for who in f.secret_from:  # (each mind holds its own copy: one of each key)
                        kept[who].setdefault(f.key, f)
            self._kept = (hour, {who: list(fs.values()) for who, fs in kept.items()})
        return self._kept[1]

    def at_home_together(self, r: Resident, other: str) -> bool:
        """``other`` lives in ``r``'s home and ``r`` is at home: seeing them there is no news to
        react to (a spouse at breakfast).  They are still seen and remembered; outside the home, or
        for anyone else, the sight may call for a reaction.  (14 of 67 reactions asked for in a
        recorded day of the small cast were such sights.)"""
        minds = self.core.minds
        theirs = minds.get(other)  # (None for the player)
        home = (minds[r.name].persona.home or "").split(":")[0]
        if not home or theirs is None or (theirs.persona.home or "").split(":")[0] != home:
            return False
        return self.core.town.tree.arena_at(r.pos).split(":")[0] == home  # anywhere in the home's sector

    def talked_lately(self, r: Resident, other: str, now: datetime) -> bool:
        """``r`` talked with ``other`` within ``TALK_COOLDOWN``: seen again (as a talk ends, the
        others are all in view at once), it is remembered, not reacted to.  No new talk with them
        may start yet (``Talks.partner``), so the question "talk to whom?" could only be answered
        no: in Smallville's lunch hour the four of a talk just ended were each asked it, 20-45
        real seconds a call while their next steps waited behind it."""
        last = r.last_talk.get(other)
        return last is not None and now - last < TALK_COOLDOWN

    def may_react(self, r: Resident, subject: str, now: datetime) -> bool:
        last = r.reacted.get(subject)
        if last is not None and now - last < SUBJECT_COOLDOWN:
            return False
        return not r.asleep

    def world_view(self, name: str) -> WorldView:
        """What ``name`` knows of the world now, as its mind is told it."""
        core = self.core
        r = core.residents[name]
        tree = core.town.tree
        here = tree.arena_at(r.pos)
        sm = core.spatial.get(name)
        known = ""
        allowed: list[str] = []
        if sm is not None:
            kept = self._allowed.get(name)
            if kept is None or kept[0] != sm.version:
                kept = self._allowed[name] = (sm.version, [a for a in sm.addresses() if a.count(":") >= 1
                                                            and a in tree], sm.describe_known())
            allowed, known = list(kept[1]), kept[2]
        nearby = [text for key, text in sorted(r.seen.items()) if key.startswith("person:")]
        # those it can talk to: within talking range, or in view (it walks over to them)
        in_view = {key.split(":", 1)[1] for key in r.seen if key.startswith("person:")}
        people = sorted(n for n in self.within(name, r.pos, TALK_RANGE) | in_view if n != name)
        return WorldView.make(now_text=core.clock.long_text(), here=here, here_text=core.describe(here),
                              known_places=known, allowed=allowed, nearby=nearby, people_here=people,
                              ground=self.grounder(name, allowed, here))

    def within(self, name: str, pos: Pos, reach: int) -> set[str]:
        """Who stands within ``reach`` tiles of ``pos`` (Chebyshev): from this step's round of looks
        where ``reach`` fits its cells, else the whole town.  The player and the one it embodies
        move between ticks: their places now, not the round's."""
        core, (at, cells) = self.core, self._grid
        x, y = pos
        if at != core.step_no or reach > PERCEIVE_RADIUS:
            return {n for n, (px, py) in core.actors().items() if abs(px - x) <= reach and abs(py - y) <= reach}
        size = max(1, PERCEIVE_RADIUS)
        cx, cy = x // size, y // size
        player = core.player.name if core.player is not None else None
        moved = {n: p for n in (player, core.embodied) if n and (p := core.position(n)) is not None}
        near = {n for dx in (-1, 0, 1) for dy in (-1, 0, 1) for n, (px, py) in cells.get((cx + dx, cy + dy), ())
                if n not in moved and n in core.residents and abs(px - x) <= reach and abs(py - y) <= reach}
        return near | {n for n, (px, py) in moved.items() if abs(px - x) <= reach and abs(py - y) <= reach}

    def grounder(self, name: str, allowed: Sequence[str], here: str) -> Grounder | None:
        """The world's place picker for one resident's decision (None for a resident that knows no
        place): see game/world/resolve.py."""
        if not allowed:
            return None
        aff = self.core.town.affordances
        mind = self.core.minds.get(name)
        persona = mind.persona if mind is not None else None
        return Grounder(aff, allowed, home=(persona.home or "") if persona is not None else "",
                        workplace=(persona.workplace or "") if persona is not None else "", here=here,
                        objects=cast(ObjectStates, self.core.town.objects),  # (the world's own)
                        hours=self.staffed_hours(), shifts=self._hours[2])

    def staffed_hours(self) -> dict[str, list[tuple[int, int]]]:
        """Today's hours at which someone works at each place (the residents' shifts by their files;
        each one's own, and its hours asleep, for ``Grounder.free_between``):
        a free hour is not spent at a cafe that closed at four (Grace's 19:45 "some time at Bluebell
        Cafe" on 19282ee)."""
        day = self.core.clock.now.date()
        if self._hours[0] != day:
            hours: dict[str, list[tuple[int, int]]] = defaultdict(list)
            people: dict[str, list[tuple[int, int]]] = defaultdict(list)  # and each one's own, today
            for name, mind in self.core.minds.items():
                p = mind.persona  # asleep before its waking and after its bedtime
                people[name] += [(0, p.wake), (p.sleep, 48 * 60)]
                for sh in shifts_of(mind.persona):
                    if day.weekday() in sh.days and sh.place:
                        hours[sh.place.split(":")[0]].append((sh.start, sh.end))
                        people[name].append((sh.start, sh.end))
            self._hours = (day, dict(hours), dict(people))
        return self._hours[1]

    def with_ground(self, name: str, view: WorldView | None) -> WorldView | None:
        """A view read back from a job's plain data (or a save), with its place picker again."""
        if view is None or view.ground is not None:
            return view
        return replace(view, ground=self.grounder(name, view.allowed, view.here))
