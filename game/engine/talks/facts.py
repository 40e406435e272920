"""Facts in talks: a line as it may be said, checked against what the residents in the talk know
(game/mind/facts/factcheck.py), and the fact told to those who had not heard it.  A part of ``Engine``."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from game.engine.talks.copies import SaidLines
from game.engine.towncore import TownCore
from game.mind.facts.durations import numbers_mended
from game.mind.facts.factcheck import Vetted, vet_line
from game.mind.facts.history import (
    apart_unheld,
    arrival_unheld,
    helping_unheld,
    own_place_visited,
    reason_unheld,
    says_history,
)
from game.mind.facts.hours import begun_said, clock_times, stems
from game.mind.facts.keptfrom import honoured_as_me, host_asked_if_heard, kept_one_in_the_know, news_untold
from game.mind.facts.leaning import bare_yes, names_by_pronoun
from game.mind.facts.madeup import made_up
from game.mind.facts.meetat import says_an_hour, time_unheld
from game.mind.facts.owned import anothers_given, backing_words, goods_taken, kept_hint, own_text, owned_words
from game.mind.facts.ownpoints import (
    done_before_its_day,
    own_point_day,
    point_given_to_another,
    point_not_theirs,
    said_as_own,
)
from game.mind.facts.pasttalk import (
    PAST,
    from_listeners,
    heard_of_you_unheld,
    named_teller,
    one_named,
    past_event_unheld,
    past_held,
    said_unheard,
    shared_past_unheld,
    talk_unheld,
    talks_claimed,
    told_you_unseen,
    yesterday_unheld,
)
from game.mind.facts.roleslips import (
    gap_unheld,
    named_at_work_elsewhere,
    role_slip,
    says_a_gap,
    together_unheld,
    trade_as_third,
    trade_given,
)
from game.mind.facts.slips import (
    broken_said_to_work,
    broken_things,
    held_as_unheard,
    hints_at_the_kept,
    made_for_me_said_as_mine,
    news_as_known,
    open_until_made_up,
    opens_what_is_open,
    own_plan_unheld,
    said_to_the_absent,
    self_named,
    strangers_in_scene,
    traits_by_person,
    traits_given,
    unfinished_tail,
    whereabouts_made_up,
    works_said,
)
from game.mind.facts.unbacked import sentences
from game.mind.facts.workplace import (
    campaign_given,
    doing_unheld,
    gathering_misplaced,
    here_elsewhere,
    says_work,
    task_taken,
    with_absent,
    work_denied,
    work_elsewhere,
)
from game.mind.memory.records import partners_in
from game.mind.planning.routine import day_and_minute
from game.mind.view import Conversation

log = logging.getLogger(__name__)
HEARD_KEPT = 60  # the speaker's latest memories (talks among them) that back what it says of others' doings
YESTERDAY_KEPT = 400  # the speaker's latest memories looked through for yesterday's
_MEMORY_FORM = re.compile(r"\bI talked with [^;.!?]{1,80}; I said:[^.!?]*[.!?]*\s*")


class TalkFacts:
    """Owns ``fixes``, the words of the model's lines mended against the facts.  Takes the core."""

    def __init__(self, core: TownCore) -> None:
        self.core = core
        self.fixes = 0
        self.secrets_kept = 0  # lines (or parts) not said: they told a secret to the one it is kept from
        self.said = SaidLines()  # the lines said lately, to tell a copy by (copies.py)
        self._book: tuple[int, dict[str, list[str]], dict[str, str], str, list[str]] | None = None  # _points
        self._traits: tuple[int, dict[str, list[str]]] | None = None  # each resident's traits, as words
        self._hours: tuple[int, list[str]] | None = None  # the town's known hours (_time_unheld)
        self._owned: tuple[int, dict[str, frozenset[str]]] | None = None  # each one's own words (_given)

    def vet(self, conv: Conversation, speaker: str, text: str, now: datetime, *,
            may_move: bool = True) -> tuple[str, str]:
        """A line as it may be said (mind/facts/factcheck.py): a line about a fact goes to the one in the
        talk who holds it, with the fact's place and hours; those who had not heard it hear it now,
        from the speaker, in the town's words.  The player's words may tell a new fact of theirs."""
        books = {p: self.core.minds[p].facts for p in conv.participants if p in self.core.minds}
        if speaker not in self.core.minds and books:  # the visitor: "I'm having a party at the pub at 8"
            for p in books:
                self.core.minds[p].read_fact(text, now, host=speaker, source=speaker)
        v = vet_line(speaker, text, conv.participants, books, now, self.core.town_names, may_move=may_move)
        if speaker in self.core.minds and v.text:
            mind = self.core.minds.get(v.speaker)
            heard = [r.text for r in mind.memory.recent(HEARD_KEPT)] if mind else []  # (read once a line)
            v = self.said.not_copied(conv, self._own_points(conv, v, now, heard), self.core.embodied)
            if _MEMORY_FORM.search(v.text):  # "I talked with Ines Moreau; I said: Hello, Ines!" (Nora's, 136a191)
                v.text = _MEMORY_FORM.sub("", v.text).strip()
                v.fixes.append("a memory said back in its stored form not said")
            v.text, fixed = numbers_mended(v.text, v.speaker, [p for p in conv.participants if p != v.speaker],
                                           self.core.town_names, [*self._points()[1].values(), *heard])  # ages
            v.fixes += fixed
            v.text = self._heard_now(conv, v, now)
            if (whole := unfinished_tail(v.text, sentences(v.text))) != v.text:
                v.text = whole
                v.fixes.append("an unfinished sentence not said")
        if v.fixes:
            self.fixes += len(v.fixes)
            self.secrets_kept += sum(1 for f in v.fixes if f.startswith("kept secret"))
            log.info("line checked against the facts: %s (%r -> %r)", "; ".join(v.fixes), text, v.text)
            if not v.text.strip():
                conv.withheld.append((speaker, text, "; ".join(v.fixes)))
            else:  # the caller adds the line next: its index is the talk's length now
                conv.checks[len(conv.lines)] = v.fixes + ([f"was: {text}"] if v.text != text else [])
        # heard only as said: a line whose words of the fact were then not said tells nothing (Ines's "I noticed
        # you mentioned Samuel's surprise party", not said, had Felix and Marcus hear of it on 9d99520's day)
        if v.fact is not None and v.told and v.text.strip() and v.fact.speaks_of(v.text):
            for p in v.told:
                self.core.minds[p].hear_fact(v.fact, v.speaker, now)
                if v.fact.place and p in self.core.spatial:
                    self.core.learn(p, v.fact.place)  # told where it is, they know the place
            if v.speaker in self.core.minds:
                self.core.minds[v.speaker].facts.told_to(v.fact.key, v.told)
        return v.speaker, v.text

    def _points(self) -> tuple[dict[str, list[str]], dict[str, str], str, list[str]]:
        """Every resident's points and own text, what everyone knows, and all the points in one list:
        read once from the personas (they do not change), again only when the town's minds do."""
        if self._book is None or self._book[0] != len(self.core.minds):
            minds = {p: m.persona for p, m in self.core.minds.items()}  # (all: a third's point may be given)
            points = {p: sentences(m.currently) for p, m in minds.items()}
            # each relationship a sentence of its own: run together, "her husband of 34 years" was
            # about the cafe and the work of the next ones, and set Ines's twelve years to 34
            # (each with whom it is of: what the listener knows of the speaker is not the listener's own)
            lives = {p: " ".join([m.brief(), *(f"{o}: {r.rstrip('. ')}." for o, r in m.relationships.items())])
                     for p, m in minds.items()}
            public = " ".join(f"{p} is {r}" + (" running against in the election" if r.startswith("candidate") else "")
                              for p, rs in self.core.town_names.roles.items() for r in rs)
            self._book = (len(self.core.minds), points, lives, public, [x for ps in points.values() for x in ps])
        return self._book[1:]

    def _own_points(self, conv: Conversation, v: Vetted, now: datetime, heard: list[str]) -> Vetted:
        """The line less what says another's point, gives the listener its own, or is not held (the checks)."""
        lives = self._points()[1]
        if v.speaker in lives:  # what it heard, in this talk and lately, backs what it says
            lives = {**lives, v.speaker: " ".join([lives[v.speaker], *heard, *(text for _, text in conv.lines)])}
        kept: list[str] = []
        why, last, before = "", False, ""  # (named: who a "She told me" is, the last sentence naming someone)
        named = " ".join(t for _, t in conv.lines[-2:])
        for sent in sentences(v.text) or [v.text]:
            w = self._slip(sent, before, v.speaker, conv, now, heard, lives, named)
            # another's plan said as the speaker's: what follows goes on with it (Eli's "I'm also planning
            # to sell my bread ... any advice on how to market my bread?"); a sentence just after one not
            # said that speaks of its people leans on it ("I've talked to Grace. She's really excited")
            if w:  # (a bare "Yes, Eli!" just before goes with the claim it affirms: leaning.bare_yes)
                why, kept = w, (kept[:-1] if kept and kept[-1] == before and bare_yes(before) else kept)
                if said_as_own(sent) and "own" in w:
                    break
            elif not (last and names_by_pronoun(sent)):
                kept.append(sent)
            last, before = bool(w) or (last and names_by_pronoun(sent)), sent
            named = sent if one_named(sent, self.core.town_names.people) else named
        if why:
            v.fixes.append(f"misattributed: {why}")
            v.text = " ".join(kept)
        return v

    def _slip(self, sent: str, before: str, speaker: str, conv: Conversation, now: datetime, heard: list[str],
              lives: dict[str, str], named: str = "") -> str:
        """Why ``sent`` is not to be said in its speaker's line: the first rule that finds a reason
        (game/mind/facts/ownpoints.py, pasttalk.py, slips.py, roleslips.py), else ""."""
        points, _, public, every = self._points()
        town = self.core.town_names
        listeners = [p for p in conv.participants if p != speaker]
        life = lives.get(speaker, "")
        checks = (
            lambda: point_not_theirs(sent, speaker, listeners, points, lives, town.people, public=public,
                                     homes=town.homes, places=town.places),
            lambda: point_given_to_another(sent, speaker, listeners, points, lives, town.people, public=public,
                                           places=town.places, gatherings=tuple(town.parts)),
            lambda: done_before_its_day(sent, every),
            lambda: own_point_day(sent, points.get(speaker, ()), now.weekday(), town.people,
                                  town.workplaces.get(speaker, "")),
            lambda: yesterday_unheld(sent, life, lambda: [r.text for r in self.core.minds[speaker].memory.recent(
                YESTERDAY_KEPT) if r.created.date() == now.date() - timedelta(days=1)])
            or shared_past_unheld(sent, [life]),
            lambda: self._time_unheld(sent, speaker, life, now),
            lambda: self._past_unheld(named_teller(sent, named or before, town.people), speaker, conv.participants,
                                      now),
            lambda: said_unheard(sent, from_listeners(conv.lines, speaker, conv.participants, heard), stems),
            lambda: self._traits_given(sent, speaker),
            lambda: said_to_the_absent(sent, conv.participants, town.people),
            lambda: opens_what_is_open(sent, town.places) or open_until_made_up(sent),
            lambda: self._whereabouts(sent, speaker, conv, heard),
            lambda: self._unheard(sent, speaker, conv),
            lambda: own_plan_unheld(sent, self._own_words(speaker)[0]) or made_up(sent, life, points.get(speaker, ()),
                                                                self.core.minds[speaker], town.places, town.people),
            lambda: role_slip(sent, speaker, listeners, [t for _, t in conv.lines[-2:]], town)
            or named_at_work_elsewhere(sent, town) or together_unheld(sent, speaker, listeners, [life], town)
            or trade_given(sent, listeners, self._points()[1], town.people) or trade_as_third(
                sent, speaker, listeners, self._points()[1]),
            lambda: told_you_unseen(sent, listeners, town.people, heard) or strangers_in_scene(sent)
            or self_named(sent, speaker)
            or made_for_me_said_as_mine(sent, speaker, life) or self._given(sent, speaker, listeners, conv, heard),
            lambda: heard_of_you_unheld(sent, listeners[0], [*heard, life, *(t for _, t in conv.lines)], stems)
            if len(listeners) == 1 else "",
            lambda: self._history(sent, speaker, listeners, heard, lives),
            lambda: self._work_place(sent, speaker, before, conv),
            lambda: broken_said_to_work(sent, before, broken_things([*every, *lives.values(),
                                                                     *(t for _, t in conv.lines)]))
            if works_said(sent) else "",
        )
        return next((w for check in checks if (w := check())), "")

    def _history(self, sent: str, speaker: str, listeners: list[str], heard: list[str],
                 lives: dict[str, str]) -> str:
        """Why ``sent`` says a time apart, an arrival or a reason to be here that nothing backs
        (mind/facts/history.py), else "": what they read is gathered only for a sentence with one of their forms."""
        if not says_history(sent):
            return ""
        town = self.core.town_names
        talked = [", ".join(partners_in(t)) for t in heard]
        doing, points, own = self._own_words(speaker)
        return (apart_unheld(sent, listeners, speaker, town.homes, town.workplaces, talked)
                or arrival_unheld(sent, speaker, listeners, town.people, self._points()[1])
                or reason_unheld(sent, [*doing, *points, lives.get(speaker, "")])
                or own_place_visited(sent, [p for p in (town.workplaces.get(speaker), town.homes.get(speaker)) if p])
                or helping_unheld(sent, [*doing, *points, own, *(t for who, t in town.tasks if who == speaker)],
                                  [p for p in town.people if p != speaker and p not in listeners]))

    def _own_words(self, speaker: str) -> tuple[list[str], Sequence[str], str]:
        """The speaker's day (each block's doing), its points and its own text."""
        mind, (points, lives, *_) = self.core.minds.get(speaker), self._points()
        return [b.activity for b in mind.plan.blocks] if mind and mind.plan else [], points.get(speaker, ()), lives.get(
            speaker, "")

    def _work_place(self, sent: str, speaker: str, before: str, conv: Conversation) -> str:
        """Why ``sent`` misplaces a gathering, one at work, the speaker or its doing (workplace.py, keptfrom.py)."""
        mind, town = self.core.minds.get(speaker), self.core.town_names
        held, (doing, points, own) = (list(mind.facts) if mind else []), self._own_words(speaker)
        listeners = [p for p in conv.participants if p != speaker]
        mine = town.homes.get(speaker, ""), town.workplaces.get(speaker, "")
        return (here_elsewhere(sent, conv.place, town.places, *mine) or with_absent(sent, listeners, town.people)
                or campaign_given(sent, listeners, town, speaker)
                or task_taken(sent, before, speaker, town.tasks) or honoured_as_me(sent, speaker, held, before)
                or host_asked_if_heard(sent, listeners, held) or work_denied(sent, speaker, conv.place, mine[1], held)
                or gathering_misplaced(sent, [(f.what, f.place) for f in held], town.places)
                or doing_unheld(sent, [*doing, *points, own]) or (work_elsewhere(sent, speaker, town, [
                    *doing, *points, own, *(t for w, t in town.tasks if w == speaker)]) if says_work(sent) else ""))

    def _traits_given(self, sent: str, speaker: str) -> str:
        """Why ``sent`` gives the speaker's own traits to another (mind/facts/slips.py), else ""."""
        if self._traits is None or self._traits[0] != len(self.core.minds):  # (read once, as the points)
            minds = self.core.minds.items()
            self._traits = (len(self.core.minds), traits_by_person({p: m.persona.traits for p, m in minds}))
        return traits_given(sent, speaker, self._traits[1])

    def _given(self, sent: str, speaker: str, listeners: list[str], conv: Conversation, heard: list[str]) -> str:
        """Why ``sent`` gives the one listener a thing of another's that nothing of the listener's has (mind/facts/
        owned.py: its own text, its day, its roles, the talk, what the speaker heard of it), or the speaker
        another's goods to sell (``goods_taken``), else ""."""
        me = self.core.minds.get(speaker)
        if me is not None and (why := goods_taken(sent, speaker, self._owns(), lambda: backing_words(
                own_text(me.persona), *self.core.town_names.roles.get(speaker, ()), *(t for _, t in conv.lines)))):
            return why
        lis = self.core.minds.get(listeners[0]) if len(listeners) == 1 else None
        if lis is None:
            return ""
        first, plan = listeners[0].split()[0], lis.plan
        backed = lambda: backing_words(own_text(lis.persona), *self.core.town_names.roles.get(  # noqa: E731
            listeners[0], ()), *(b.activity for b in (plan.blocks if plan else [])), *(t for _, t in conv.lines),
                               *(h for h in heard if first in h))
        return anothers_given(sent, listeners, self._owns(), backed)

    def _owns(self) -> dict[str, frozenset[str]]:
        """Each resident's own words (mind/facts/owned.py), read once as the points are."""
        if self._owned is None or self._owned[0] != len(self.core.minds):
            minds = self.core.minds
            self._owned = (len(minds), owned_words({p: own_text(m.persona) for p, m in minds.items()}))
        return self._owned[1]

    def _unheard(self, sent: str, speaker: str, conv: Conversation) -> str:
        """Why ``sent`` has the speaker not know, or ask about, a gathering it held before this talk, or
        hint at one kept from it, or one kept from a listener (mind/facts/slips.py, owned.py), else ""."""
        mind, minds = self.core.minds.get(speaker), self.core.minds
        if mind is None:
            return ""
        kept = [f for p in conv.participants if p in minds for f in minds[p].facts if speaker in f.secret_from]
        others = [p for p in conv.participants if p != speaker and p in minds]
        theirs = [f for f in mind.facts if any(o in f.secret_from for o in others)]  # (Samuel's "the cake")
        told = self._points()[3] if kept or theirs else []  # (every resident's sentences, read once)
        known = [w for s, w in kept_one_in_the_know([*(t for _, t in conv.lines[-1:]), sent], list(mind.facts),
                                                     self.core.town_names.people) if s == sent]  # (keptfrom.py)
        return known[0] if known else held_as_unheard(sent, speaker, [
            f for f in mind.facts if f.heard is None or conv.started is None or f.heard < conv.started],
            before="".join(t for _, t in conv.lines[-1:])) or hints_at_the_kept(sent, kept) or (
            kept_hint(sent, kept, told, own_text(mind.persona), self._owns())) or kept_hint(
            sent, theirs, told, " ".join(own_text(minds[o].persona) for o in others if o in
                                         {n for f in theirs for n in f.secret_from}), self._owns())

    def _whereabouts(self, sent: str, speaker: str, conv: Conversation, heard: list[str]) -> str:
        """Why ``sent`` says where another is going that nothing the speaker holds says (slips.py), else ""."""
        mind, town = self.core.minds.get(speaker), self.core.town_names
        if mind is None or not re.search(r"\b(?:going|heading|off|be at|be in|visiting)\b", sent):
            return ""
        held = [*(f"{o}: {r}" for o, r in mind.persona.relationships.items()), *heard,
                *(f"{who}: {t}" for who, t in conv.lines), *(f"{p} is at {conv.place}" for p in conv.participants)]
        listeners = [p for p in conv.participants if p != speaker]
        named = [p for p in town.people if p in listeners or p.split()[0] in sent]  # (not the whole town a sentence)
        theirs = {p: (town.workplaces.get(p, ""), town.homes.get(p, "")) for p in named}
        return whereabouts_made_up(sent, listeners, named, town.places, held, theirs)

    def _heard_now(self, conv: Conversation, v: Vetted, now: datetime) -> str:
        """The line with a claim to have known before what its speaker heard in this very talk said as
        the records have it (mind/facts/slips.news_as_known)."""
        mind, since = self.core.minds.get(v.speaker), conv.started
        if mind is None or since is None:
            return v.text
        fresh = [f for f in mind.facts if f.heard is not None and since <= f.heard <= now
                 and f.source in conv.participants]
        if not fresh:
            return v.text
        asked, older = conv.lines[-1][1] if conv.lines else "", [f for f in mind.facts if f not in fresh]
        out = []
        for sent in sentences(v.text) or [v.text]:
            of_older = any(f.speaks_of(sent) for f in older)  # "I know about the quiz" held before: true
            said = news_as_known(sent, any(f.speaks_of(sent) for f in fresh) or not of_older and any(
                f.speaks_of(asked) for f in fresh))
            if said != sent:
                v.fixes.append(f"heard in this talk, not known before: {sent!r}")
            out += [said] if said else []
        return news_untold(" ".join(out), fresh, conv.lines, conv.place, v.fixes)

    def _past_unheld(self, sent: str, speaker: str, here: list[str], now: datetime) -> str:
        """Why ``sent`` tells of an event of the past, or a talk with someone, that the speaker's own
        text and its memories do not hold (facts/pasttalk.py), else ""."""
        mind, people = self.core.minds.get(speaker), self.core.town_names.people
        if mind is None or not (PAST.search(sent) or talks_claimed(sent, people) or says_a_gap(sent)):
            return ""
        p, rows = mind.persona, mind.memory.recent(YESTERDAY_KEPT)
        own = [*sentences(p.brief()), *p.relationships.values(), *p.seed_memories]
        gap = gap_unheld(sent, [*own, *(r.text for r in rows if r.created.date() < now.date())])
        if gap:
            return gap
        past = PAST.search(sent) is not None  # ("She told me about it last night": a talk of today's is not it)
        why = talk_unheld(sent, here, people, lambda who: any(
            who in partners_in(r.text) and (not past or r.created.date() < now.date()) for r in rows), own)
        if why or not PAST.search(sent):
            return why
        return past_event_unheld(sent, past_held(own, [r.text for r in rows if r.created.date() < now.date()]))

    def _time_unheld(self, sent: str, speaker: str, life: str, now: datetime) -> str:
        """Why ``sent`` says a block of its speaker's day as done before it begins (facts/hours.py), or has it
        somewhere at an hour nothing it holds has (facts/meetat.py), else "": the town's known hours (any resident's
        point or seed memory with an hour: "Marcus Bell runs a pub quiz every Monday at 8pm") back the same thing."""
        mind = self.core.minds.get(speaker)
        if mind is None:
            return ""
        plan = mind.plan
        begun = begun_said(sent, plan.blocks if plan is not None else (), day_and_minute(mind.persona, now)[1])
        if begun or not says_an_hour(sent):
            return begun
        if self._hours is None or self._hours[0] != len(self.core.minds):
            said = [x for m in self.core.minds.values() for x in [*sentences(m.persona.currently),
                                                                   *m.persona.seed_memories] if clock_times(x)]
            self._hours = (len(self.core.minds), said)
        starts = [b.start for b in plan.blocks] if plan is not None else []
        starts += [t for f in mind.facts for t in (f.start, f.end) if t is not None]
        return time_unheld(sent, starts, [life], self._hours[1])
