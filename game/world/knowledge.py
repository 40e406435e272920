"""What the town knows as data (issue 39): its events (whose, for whom, where, when, who knows,
who is invited, who it is kept from) and its people's roles, declared in ``residents.json`` beside
the residents, and checked when the town is read.

A small model told in prose that "the party must stay a surprise" told Grace of her own party in
three talks, and residents who held the party in their seed memories said in interviews that no
gathering was planned.  Declared here, an event becomes a fact each resident who knows it holds
from the first minute (game/engine/build.py hands it to the mind as ``game.mind.facts.fact.Fact``),
kept out of every prompt about the one it is secret from, and checked in every line said to them.

Validated shapes only (pydantic); the names are checked against the residents by
``knowledge_problems`` and the places against the map by the town loader.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _hhmm(v: str) -> int:
    try:
        h, m = str(v).strip().split(":")
        out = int(h) * 60 + int(m)
    except ValueError:
        raise ValueError(f"{v!r} is not a time like '18:00'") from None
    if not (0 <= int(h) <= 23 and 0 <= int(m) <= 59):
        raise ValueError(f"{v!r} is not a time like '18:00'")
    return out


class EventSpec(BaseModel):
    """A gathering the town knows of: ``what`` in words ("a surprise party for Grace's 60th
    birthday"), ``host`` whose it is, ``honoree`` whom it is for (or ""), ``place`` a sector of the
    map, ``day`` a weekday (the first on or after the town's start) or a date, ``hours``
    "HH:MM-HH:MM"; ``known_by`` the residents who know of it from the start (the host always does),
    ``invited`` those asked to come, ``secret_from`` those it is kept from (none of whom may know
    it, host it or be invited to it without being the one it is for)."""

    model_config = ConfigDict(extra="forbid")
    what: str = Field(min_length=3, max_length=120)
    host: str = Field(min_length=1)
    honoree: str = ""
    place: str = Field(min_length=1)
    day: str = Field(description="'tuesday' or '2026-03-03'")
    hours: str = Field(description="'18:00-21:00'")
    known_by: list[str] = Field(default_factory=list)
    invited: list[str] = Field(default_factory=list)
    secret_from: list[str] = Field(default_factory=list)
    # who does what for it ("Ines Moreau": ["make the cake"]): each a task in words, a verb first;
    # a line that gives one to another is not said (game/mind/facts/parts.py ``task_not_theirs``)
    tasks: dict[str, list[str]] = Field(default_factory=dict)

    @field_validator("day")
    @classmethod
    def _day(cls, v: str) -> str:
        key = v.strip().lower()
        if key in _WEEKDAYS or key[:3] in {d[:3] for d in _WEEKDAYS} and len(key) == 3:
            return key
        try:
            date.fromisoformat(key)
        except ValueError:
            raise ValueError(f"{v!r} is not a weekday ('tuesday') or a date ('2026-03-03')") from None
        return key

    @field_validator("hours")
    @classmethod
    def _hours(cls, v: str) -> str:
        parts = v.split("-")
        if len(parts) != 2:
            raise ValueError(f"{v!r} is not hours like '18:00-21:00'")
        a, b = (_hhmm(p) for p in parts)
        if b <= a:
            raise ValueError(f"{v!r} ends before it starts")
        return v.strip()

    @model_validator(mode="after")
    def _secret(self) -> EventSpec:
        kept = set(self.secret_from)
        for role, names in (("hosts", [self.host]), ("knows of", self.known_by), ("is invited to", self.invited)):
            clash = kept & set(names)
            if clash:
                raise ValueError(f"{sorted(clash)[0]} {role} {self.what!r}, which is kept secret from them")
        for who, tasks in self.tasks.items():
            if who not in (self.host, *self.known_by):
                raise ValueError(f"{who} has a task for {self.what!r} but neither hosts it nor is in its known_by")
            if not tasks or any(len(t.split()) < 2 for t in tasks):
                raise ValueError(f"{who}'s tasks for {self.what!r} must each be a verb and what it is done to "
                                 "('make the cake')")
        return self

    # ------------------------------------------------------------------ reading
    def minutes(self) -> tuple[int, int]:
        a, b = self.hours.split("-")
        return _hhmm(a), _hhmm(b)

    def on(self, start: date) -> date:
        """The event's date for a town that starts on ``start``."""
        key = self.day
        if key[:3] in {d[:3] for d in _WEEKDAYS} and not key[:1].isdigit():
            want = next(i for i, d in enumerate(_WEEKDAYS) if d.startswith(key[:3]))
            return start + timedelta(days=(want - start.weekday()) % 7)
        return date.fromisoformat(key)

    def knowers(self) -> list[str]:
        """Who holds it from the start: the host, then those who know of it, then the invited."""
        return list(dict.fromkeys([self.host, *self.known_by, *self.invited]))


class RoleSpec(BaseModel):
    """A role in the town beyond a workplace: an office ("mayor"), a candidacy ("candidate for
    mayor"), a trade the town knows someone by ("the baker"); ``at`` a sector, or "".  A ``secret``
    role is known only to its holder and ``known_by`` ("author of the anonymous 'Millbrook Owl'
    column", known to his wife); a ``former`` one was held and is not now ("civics teacher", by the
    mayor who taught before she was elected)."""

    model_config = ConfigDict(extra="forbid")
    who: str = Field(min_length=1)
    role: str = Field(min_length=2, max_length=80)
    at: str = ""
    secret: bool = False
    known_by: list[str] = Field(default_factory=list, description="a secret role's knowers besides its holder")
    former: bool = False

    @model_validator(mode="after")
    def _kinds(self) -> RoleSpec:
        if self.known_by and not self.secret:
            raise ValueError(f"role {self.role!r}: known_by is for a secret role (add \"secret\": true)")
        if self.who in self.known_by:
            raise ValueError(f"role {self.role!r}: {self.who} holds it; known_by lists the others who know")
        if self.secret and self.former:
            raise ValueError(f"role {self.role!r} is both secret and former: declare one")
        return self


@dataclass(frozen=True)
class RoleTables:
    """The declared roles as the mind's checks read them: each one's current public roles, the
    secret ones (holder, role, all who know it), and the former ones (holder -> (role, at))."""

    public: dict[str, tuple[str, ...]]
    secret: tuple[tuple[str, str, tuple[str, ...]], ...]
    former: dict[str, tuple[tuple[str, str], ...]]


class RoleLike(Protocol):
    """What ``role_tables`` reads of a role: ``RoleSpec``'s fields (the engine's ``TownRole``)."""

    who: str
    role: str
    at: str
    secret: bool
    known_by: list[str]
    former: bool


def role_tables(roles: Iterable[RoleLike]) -> RoleTables:
    """``RoleTables`` of ``roles``."""
    public: dict[str, tuple[str, ...]] = {}
    secret: list[tuple[str, str, tuple[str, ...]]] = []
    former: dict[str, tuple[tuple[str, str], ...]] = {}
    for r in roles:
        who, role = r.who, r.role
        if r.secret:
            secret.append((who, role, (who, *r.known_by)))
        elif r.former:
            former[who] = (*former.get(who, ()), (role, r.at))
        else:
            public[who] = (*public.get(who, ()), role)
    return RoleTables(public, tuple(secret), former)


def knowledge_problems(events: Iterable[EventSpec], roles: Iterable[RoleSpec],
                       residents: set[str]) -> Iterator[tuple[str, str]]:
    """Each name an event or a role gives that is not a resident's, as (field, problem)."""
    for i, e in enumerate(events):
        for what, names in (("host", [e.host]), ("honoree", [e.honoree] if e.honoree else []),
                            ("known_by", e.known_by), ("invited", e.invited), ("secret_from", e.secret_from)):
            for n in names:
                if n not in residents:
                    yield f"events[{i}].{what}", f"event {e.what!r}: {what} names {n!r}, who is not a resident"
    for i, r in enumerate(roles):
        if r.who not in residents:
            yield f"roles[{i}].who", f"role {r.role!r} names {r.who!r}, who is not a resident"
        for n in r.known_by:
            if n not in residents:
                yield f"roles[{i}].known_by", f"role {r.role!r}: known_by names {n!r}, who is not a resident"


def among(data: dict, names: set[str]) -> dict:
    """A residents file's ``events`` and ``roles`` (as read from JSON) for a cast of ``names`` only
    (a town cut down or cloned: the swarm's): an event without its host goes, and so does a role
    of someone absent; others absent are left out of the lists that name them."""
    out = dict(data)
    events = []
    for e in data.get("events") or []:
        if e.get("host") not in names:
            continue
        e = {**e, **{k: [n for n in e.get(k) or [] if n in names] for k in ("known_by", "invited", "secret_from")},
             "tasks": {n: t for n, t in (e.get("tasks") or {}).items() if n in names}}
        if e.get("honoree") and e["honoree"] not in names:
            e["honoree"] = ""
        events.append(e)
    out["events"] = events
    out["roles"] = [{**r, **({"known_by": [n for n in r["known_by"] if n in names]} if r.get("known_by") else {})}
                    for r in data.get("roles") or [] if r.get("who") in names]
    return out
