"""Facts as data: what others could act on (a gathering, a candidacy), kept with its parts.

A 1.5B model writes fluent sentences but cannot be trusted with who, where and when: told once, a
party changed its place, and a line landed with the wrong speaker.  So what a resident knows of a
gathering is kept as a ``Fact`` (what, host, place, day, start and end, who said it and when it
was heard), read by rule from the words it came in (a whisper, a scenario's seed, the player's
line) against the town's own places and people; the model's sentences about it are checked
against the facts (``factcheck.py``), and what a resident remembers of it is the fact said in the
town's words (``Fact.sentence``), not the model's.

Pure data and rules: no model call, no world import (the engine hands over the town's place and
people names as ``TownNames``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timedelta

from game.mind.facts.when import DEFAULT_LENGTH, read_when, word_list
from game.mind.view import hhmm
from game.text import one_line

EVENT_NOUNS = (
    "party", "gathering", "get-together", "meeting", "picnic", "protest", "demonstration", "parade", "vigil",
    "celebration", "concert", "show", "fair", "festival", "reading", "game night", "quiz", "tasting",
    "potluck", "barbecue", "bbq", "meetup", "open house", "ceremony", "wedding", "workshop", "rally",
    "dance", "recital", "exhibition", "screening", "fundraiser", "bake sale", "tournament", "match",
)
_NOUNS = "|".join(sorted((re.escape(n) for n in EVENT_NOUNS), key=len, reverse=True))
EVENT_RE = re.compile(rf"\b(?:{_NOUNS})s?\b", re.I)
# a question of the days ahead ("What are you busy with this week?")
WEEK_Q = re.compile(r"\b(?:this|the coming|the next few) (?:week|days)\b|\bbusy with\b", re.I)
_HOST_VERBS = (r"hosting|throwing|organi[sz]ing|holding|putting on|planning|giving|having|running|arranging"
               r"|host|throw|organi[sz]e|hold|put on|plan|give|arrange")
_WHAT_RE = re.compile(
    rf"\b(?:{_HOST_VERBS})\s+(?:(?:a|an|the|my|our|his|her|their)\s+)?(?P<what>.+?)"
    r"(?=\s+(?:at|in|on|from|for|this|tomorrow|today|tonight|next|between|and|to|with|where|when|starting)\b"
    r"|\s*[,.;!?(]|$)", re.I)
_OFFICE_RE = re.compile(r"\b(?:running|to run|run|candidate|standing)\s+for\s+(?:the\s+)?(?:post of\s+)?"
                        r"(?P<office>(?:town |city |village |club )?[a-z]+(?: [a-z]+)?)"
                        r"(?=\s+(?:in|at|against|this|next|and|because|so|before)\b|\s*[,.;!?]|$)", re.I)
_STOP = {"a", "an", "the", "my", "our", "his", "her", "their", "s", "of", "for", "and", "with", "little",
         "small", "big", "day"}
_GENERIC = {"party", "gathering", "meeting", "dinner", "lunch", "event"}
_NOUN_WORDS = {w for n in EVENT_NOUNS for w in n.split()} | _GENERIC
_SECRET_WORDS = {"surprise", "surprises", "secret", "secrets"}  # of a secret, the word itself tells of it



@dataclass(frozen=True)
class TownNames:
    """What the world tells the mind about the town, for reading facts: its places (sector names,
    "Bluebell Cafe") and its people (full names; the visitor is added when one walks in)."""

    places: tuple[str, ...] = ()
    people: tuple[str, ...] = ()
    # its places' rooms and spaces, lower case ("pub", "council chamber"): "the pub" names a place (places_unknown)
    arenas: tuple[str, ...] = ()
    rooms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # place, lower case -> its own arenas
    # what the town declares of its people (claims.py checks a line's claims against it): each one's
    # relationships in its own words, and the roles declared of each ("mayor", "candidate for mayor")
    relations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    roles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    workplaces: Mapping[str, str] = field(default_factory=dict)  # full name -> its workplace's sector
    homes: Mapping[str, str] = field(default_factory=dict)  # full name -> its home's sector (who lives with whom)
    ages: Mapping[str, int] = field(default_factory=dict)  # full name -> its age (a birthday's number: ages.py)
    # where each place is, as said to one asking the way ("next to A and B, on the north side of town")
    near: Mapping[str, str] = field(default_factory=dict)
    # the kinds of place a text names that the town has none of ("police station"): the world's reading
    lacks: Callable[[str], list[str]] | None = field(default=None, compare=False, hash=False)
    # whether a place of the town is open now (one of its objects staffed, open or serving): the
    # world's object states; None where no world is known (a test's town)
    open_now: Callable[[str], bool] | None = field(default=None, compare=False, hash=False)
    # each declared gathering's words (lower case) -> who has a hand in it: its host and those who
    # know of it from the start (residents.json ``events``; parts.py)
    parts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # who does what for a declared gathering, each (who, "make the cake") (``events[].tasks``; parts.py)
    tasks: tuple[tuple[str, str], ...] = ()
    # roles kept secret, each (holder, role, everyone who knows it: the holder first), and roles
    # held once and not now, holder -> ((role, its place or ""), ...) (residents.json ``roles``;
    # hidden.py): neither is in ``roles``, which holds what anyone may say of anyone
    secret_roles: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    former_roles: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # those who all know each other beyond their relationships: in a small town every resident but the
    # newcomers (residents.json ``small_town``, ``newcomer``); empty where only relationships say it
    townsfolk: frozenset[str] = frozenset()
    # each one's doings this week as its persona says them, less what it keeps to itself (answers: ofothers.py)
    doings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def acquainted(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` know each other by what the town declares: a relationship either
        way (by full or first name), or both townsfolk of a small town."""
        if a in self.townsfolk and b in self.townsfolk:
            return True
        for x, y in ((a, b), (b, a)):
            rel = self.relations.get(x, {})
            if y in rel or y.split()[0] in rel:
                return True
        return False

    def known_as(self, who: str) -> str:
        """``who`` as a neighbour of years knows them, for one whose relationships do not name them:
        "a neighbour you have known for years (mayor; works at Town Hall)"."""
        work = self.workplaces.get(who, "")
        said = [r for r in self.roles.get(who, ()) if not r.startswith("candidate")]
        said += [f"works at {work}"] if work else []
        return "a neighbour you have known for years" + (f" ({'; '.join(said)})" if said else "")


@dataclass(frozen=True)
class Fact:
    """Something a resident knows that others could act on.  ``kind`` is "gathering" or
    "candidacy"; ``start``/``end`` are minutes after midnight of ``day``; ``source`` is who told
    the resident ("" for its own plan or thought); ``heard`` when it learnt it."""

    key: str
    kind: str
    what: str  # "a Valentine's lunch party", "running for town treasurer"
    host: str  # full name of whose it is
    place: str = ""  # a place of the town ("Bluebell Cafe"), "" when none was said
    day: date | None = None
    start: int | None = None
    end: int | None = None
    source: str = ""
    heard: datetime | None = None
    told: tuple[str, ...] = ()  # whom this resident told it to (a host invites each once)
    going: bool | None = None  # whether this resident means to go (decided when its day is planned)
    honoree: str = ""  # whom it is for ("Grace Okafor"), "" when no one in particular
    invited: tuple[str, ...] = ()  # who is asked to come, as the town declared it
    secret_from: tuple[str, ...] = ()  # who must not learn of it (a surprise); it travels with the fact

    def kept_from(self, names: Iterable[str]) -> list[str]:
        """Those of ``names`` this fact is kept secret from."""
        return [n for n in names if n in self.secret_from]

    def speaks_of(self, text: str) -> bool:
        """Whether ``text`` tells of this fact: its kind of gathering ("party"), or two of its words
        ("surprise" and "birthday"), or, of one kept secret, "surprise" or "secret" alone; the
        names of whose and whom it is for are no sign ("Happy birthday, Grace" tells nothing).
        Broad on purpose: it decides what is kept from the one it is secret from, and a line about
        some other party is a small loss there."""
        keys = self.keywords()
        words = set(word_list(text))
        if self.secret_from and words & _SECRET_WORDS:  # "I'll be ready with my surprise" to Grace
            return True
        return bool(keys & words & _NOUN_WORDS) or len(keys & words) >= 2

    # ------------------------------------------------------------------ words
    def when_text(self, now: datetime | None = None) -> str:
        """"today (Monday March 2) from 12:00 to 13:00"; the day as a weekday and a date so that a
        memory of it stays true on another day."""
        if self.day is None and self.start is None:
            return ""
        parts = []
        if self.day is not None:
            dd = f"{self.day:%A} {self.day:%B} {self.day.day}"
            rel = ""
            if now is not None:
                delta = (self.day - now.date()).days
                rel = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(delta, "")
            parts.append(f"{rel} ({dd})" if rel else f"on {dd}")
        if self.start is not None:
            parts.append(f"from {hhmm(self.start)} to {hhmm(self.end)}" if self.end is not None
                         else f"at {hhmm(self.start)}")
        return " ".join(parts)

    def sentence(self, now: datetime | None = None) -> str:
        """The fact in the town's words: "Rosa Brody is hosting a Valentine's lunch party at
        Bluebell Cafe today (Monday March 2) from 12:00 to 13:00"."""
        if self.kind == "candidacy":
            return f"{self.host} is {self.what}"
        out = f"{self.host} is hosting {self.what}"
        if self.place:
            out += f" at {self.place}"
        when = self.when_text(now)
        return out + (f" {when}" if when else "")

    @property
    def bare_what(self) -> str:
        """What it is without its article: "neighbourhood get-together"."""
        head, _, rest = self.what.partition(" ")
        return rest if head.lower() in ("a", "an") and rest else self.what

    def keywords(self) -> set[str]:
        """The words that say a line is about this fact ("valentine", "party"; "treasurer")."""
        # (not the names of whose and whom it is for: "Good morning, Grace" is not about Grace's party)
        names = {w for n in (self.honoree,) for w in word_list(n)} | ({w for w in word_list(self.host)}
                                                                      if self.kind == "gathering" else set())
        words = {w for w in word_list(self.what) if w not in _STOP and w not in names and len(w) > 2}
        if self.kind == "candidacy":
            words.discard("running")
            words.discard("town")
        return words

    def distinct(self) -> set[str]:
        """The words that tell this fact from another of its kind (not "party" alone)."""
        return {w for w in self.keywords() if w not in _GENERIC}

    def over(self, now: datetime) -> bool:
        if self.day is None:
            return self.heard is not None and now - self.heard > timedelta(days=7)
        end = self.end if self.end is not None else (self.start or 0) + DEFAULT_LENGTH
        return datetime.combine(self.day, datetime.min.time()) + timedelta(minutes=end) < now

    def to_dict(self) -> dict:
        d = asdict(self)
        d["day"] = self.day.isoformat() if self.day else None
        d["heard"] = self.heard.isoformat() if self.heard else None
        d["told"] = list(self.told)
        d["invited"] = list(self.invited)
        d["secret_from"] = list(self.secret_from)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Fact:
        return cls(key=str(d["key"]), kind=str(d.get("kind", "gathering")), what=str(d["what"]),
                   host=str(d["host"]), place=str(d.get("place") or ""),
                   day=date.fromisoformat(d["day"]) if d.get("day") else None,
                   start=_int_or_none(d.get("start")), end=_int_or_none(d.get("end")),
                   source=str(d.get("source") or ""),
                   heard=datetime.fromisoformat(d["heard"]) if d.get("heard") else None,
                   told=tuple(str(t) for t in d.get("told") or ()),
                   going=d.get("going") if isinstance(d.get("going"), bool) else None,
                   honoree=str(d.get("honoree") or ""),
                   invited=tuple(str(t) for t in d.get("invited") or ()),
                   secret_from=tuple(str(t) for t in d.get("secret_from") or ()))


@dataclass
class FactBook:
    """The facts one resident holds, by key; the town's names to read new ones against."""

    facts: dict[str, Fact] = field(default_factory=dict)
    town: TownNames = field(default_factory=TownNames)

    def __len__(self) -> int:
        return len(self.facts)

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts.values())

    def get(self, key: str) -> Fact | None:
        return self.facts.get(key)

    def holds(self, key: str) -> bool:
        return key in self.facts

    def upcoming(self, now: datetime) -> list[Fact]:
        return [f for f in self.facts.values() if not f.over(now)]

    def learn(self, fact: Fact) -> bool:
        """Keep ``fact``; True if it is new to this resident.  A fact already held keeps its first
        source (who told first) and what the resident decided about it."""
        old = self.facts.get(fact.key)
        if old is not None:
            return False
        self.facts[fact.key] = fact
        return True

    def hear(self, fact: Fact, source: str, now: datetime) -> Fact | None:
        """``source`` told this resident ``fact``: kept as what that person said (new facts only)."""
        heard = replace(fact, source=source, heard=now, told=(), going=None)
        return heard if self.learn(heard) else None

    def told_to(self, key: str, names: Iterable[str]) -> None:
        f = self.facts.get(key)
        if f is not None:
            self.facts[key] = replace(f, told=tuple(dict.fromkeys([*f.told, *names])))

    def decide(self, key: str, going: bool) -> None:
        f = self.facts.get(key)
        if f is not None:
            self.facts[key] = replace(f, going=going)

    def read(self, text: str, owner: str, now: datetime, *, host: str | None = None,
             source: str = "", home: str = "", work: str = "") -> Fact | None:
        """A fact in ``text`` (a thought of ``owner``, or something ``source`` said), read by rule,
        learnt and returned; None when the words hold no gathering or candidacy."""
        fact = read_fact(text, host or owner, now, self.town, home=home, work=work, source=source)
        if fact is None:
            return None
        self.learn(fact)
        return self.facts[fact.key]

    def to_list(self) -> list[dict]:
        return [f.to_dict() for f in self.facts.values()]

    @classmethod
    def from_list(cls, rows: object) -> FactBook:
        book = cls()
        if isinstance(rows, list):
            for d in rows:
                if isinstance(d, dict) and d.get("key") and d.get("what") and d.get("host"):
                    f = Fact.from_dict(d)
                    book.facts[f.key] = f
        return book


def declared(what: str, host: str, place: str, day: date, start: int, end: int, *, holder: str, now: datetime,
             honoree: str = "", invited: Sequence[str] = (), secret_from: Sequence[str] = (),
             knowers: Sequence[str] = (), from_host: bool = True) -> Fact:
    """A declared gathering as ``holder`` holds it: its own (``knowers`` told), the host's word where the host
    asked it (``from_host``: invited, a task), else told by no one (not "Grace told me so", Priya's, 2c4c6ac)."""
    own = holder == host
    return Fact(key=_key(host, what), kind="gathering", what=what, host=host, place=place, day=day, start=start,
                end=end, source="" if own or not from_host else host, heard=now, honoree=honoree,
                invited=tuple(invited), secret_from=tuple(secret_from),
                told=tuple(k for k in knowers if k != host) if own else ())


# ----------------------------------------------------------------------------- reading words


def read_fact(text: str, host: str, now: datetime, town: TownNames, *, home: str = "", work: str = "",
              source: str = "") -> Fact | None:
    """The gathering or candidacy ``text`` tells of, with ``host`` its host unless the words name
    another of the town's people as hosting it; its place among the town's places (or ``work`` /
    ``home`` for "my cafe", "at work", "at my house"), its day and hours by the clock."""
    t = one_line(text, 400)
    office = _OFFICE_RE.search(t)
    if office and not EVENT_RE.search(t[:office.start()]):
        what = f"running for {office.group('office').strip().lower()}"
        return Fact(key=_key(host, what), kind="candidacy", what=what, host=host, source=source, heard=now)
    m = _WHAT_RE.search(t)
    what = ""
    if m and EVENT_RE.search(m.group("what")):
        what = m.group("what").strip()
    else:
        ev = EVENT_RE.search(t)
        if ev is None or not re.search(rf"\b(?:{_HOST_VERBS}|invite|inviting|there is|there's|come to)\b", t, re.I):
            return None
        # "a small get-together ..." : the words before the noun back to an article
        before = t[:ev.start()].split()
        lead: list[str] = []
        for w in reversed(before[-3:]):
            if w.lower() in ("a", "an", "the", "my", "our", "to", "is", "for"):
                break
            lead.insert(0, w)
        what = " ".join([*lead, ev.group(0)])
    what = re.sub(r"\s+", " ", what).strip(" ,.;")
    if not what:
        return None
    what = _article(what)
    named = _host_named(t, town.people, host)
    host = named or host
    place = find_place(t, town.places, home=home, work=work)
    day, start, end = read_when(t, now)
    return Fact(key=_key(host, what), kind="gathering", what=what, host=host, place=place, day=day, start=start,
                end=end, source=source, heard=now)


def _host_named(text: str, people: Sequence[str], default: str) -> str | None:
    for p in people:
        if p == default:
            continue
        first = re.escape(p.split()[0])
        if re.search(rf"\b(?:{re.escape(p)}|{first})(?:'s|\s+is|\s+will be)\s+"
                     rf"(?:hosting|throwing|organi[sz]ing|holding|having|giving|planning)\b", text, re.I):
            return p
    return None


def find_place(text: str, places: Sequence[str], *, home: str = "", work: str = "") -> str:
    """The town's place the words name (the longest name found; "the cafe" for the only cafe),
    else ``work`` / ``home`` for "my cafe", "at work", "my house"."""
    low = text.lower()
    found = [p for p in places if p and p.lower() in low]
    if found:
        return max(found, key=len)
    if work and re.search(r"\b(?:at work|my (?:cafe|café|shop|store|pub|office|bar|bakery|restaurant|workplace))\b",
                          low):
        return work
    if home and re.search(r"\b(?:at home|my (?:house|home|place|flat|apartment|garden))\b", low):
        return home
    # "the pub" when the town has one place whose name says pub
    nouns = re.findall(r"\bthe (cafe|café|pub|park|market|library|college|hall|store|shop)\b", low)
    for n in nouns:
        hit = [p for p in places if re.search(rf"\b{n}\b", p.lower())]
        if len(hit) == 1:
            return hit[0]
    return ""


def _article(what: str) -> str:
    w = re.sub(r"^(?:my|our|his|her|their|the)\s+", "", what, flags=re.I)
    if re.match(r"^(?:a|an)\s", w, re.I):
        return w
    return ("an " if w[:1].lower() in "aeiou" else "a ") + w


def _key(host: str, what: str) -> str:
    words = [w for w in word_list(what) if w not in _STOP]
    return (host.lower().replace(" ", "-") + ":" + "-".join(words))[:120]


def _int_or_none(v: object) -> int | None:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
