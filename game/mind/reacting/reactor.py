"""Reacting to something salient: continue, do something else now, or talk to someone (one call),
with the rules that mend what a small model says (a "react" that is a wish to talk, going to bed
at noon, "continue" written as an action).

``Reactor`` is a part of ``Mind`` (see mind.py): it owns when each sight was last considered (the
cool-down); a hazard it hands to the mender (hazards.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import cast

from game.llm.api import LLMError, Priority
from game.mind.components import (
    Context,
    KnownFacts,
    Plan,
    Relationships,
    RelevantMemories,
    Situation,
    Thoughts,
    assemble,
)
from game.mind.config import MEMORY_KINDS
from game.mind.core import MindCore
from game.mind.planning.agenda import Agenda
from game.mind.planning.grounding import Locator
from game.mind.planning.shaping import emoji_for
from game.mind.reacting.hazards import Mender
from game.mind.schemas import MeetReply, ReactAnswer, clean_text, meet_answer, pick_emoji
from game.mind.view import Action, Allowance, Hazard, Reaction, WorldView

_BED_WORDS = re.compile(r"\b(wak(e|es|ing) up|go(es|ing)? to (bed|sleep)|fall(ing)? asleep|sleep(ing)?|nap(ping)?)\b",
                        re.I)


class Reactor:
    """react() and its rules.  Takes the core (the model, memory, facts, budgets), the agenda (a
    reaction is the step in hand), the locator (where it happens) and the mender (hazards)."""

    def __init__(self, core: MindCore, agenda: Agenda, locator: Locator, mender: Mender) -> None:
        self.core = core
        self.agenda = agenda
        self.locator = locator
        self.mender = mender
        self._reacted: dict[str, datetime] = {}  # sight -> when it was last considered

    # ------------------------------------------------------------------ reacting
    async def react(self, now: datetime, percept_text: str, view: WorldView | None = None, *,
                    urgent: bool = False, allowance: Allowance | None = None,
                    hazard: Hazard | None = None) -> Reaction:
        """Decide whether something salient changes what the resident does: continue, react (a new
        action now; the steps already decomposed carry on afterwards) or talk to someone.

        At most ``config.max_reacts_per_day`` calls a day for everyday sights (someone passing),
        the talks it wrote whole (``converse``) counted in; ``urgent`` news (a thing that changed
        state, the player come into view) is always considered.  ``allowance`` (the engine's, while
        the model server has time to spare) raises both daily caps for this one reaction; a call
        past the floor is asked below the town's planning (``Priority.REFLECT``) and counted in
        ``stats`` (``react_spare``, ``talk_spare``).  A ``hazard`` among the sights (a fire, a
        leak) is always acted on: an action at the thing that makes it safe (hazards.py)."""
        text = clean_text(percept_text, 300)
        if hazard is not None and text:
            self._reacted[text] = now
            return await self.mender.react(now, text, view, hazard)
        people = tuple(view.people_here) if view else ()
        extra = allowance or Allowance()
        gate = self._gate(now, text, people, urgent, extra)
        if isinstance(gate, Reaction):
            return gate
        past_floor, untold = gate
        self._reacted[text] = now
        if _people_only(text, view, people):
            # someone come into view: whether to talk to them is all there is to decide (a
            # "react" to a person, on the embedded model, was mostly "following Eddy to the park")
            ans = await self._meet(now, text, view, people, past_floor)
        else:
            ans = await self._ask(now, text, view, people, past_floor)
        if ans is None:
            return Reaction("continue", reason="error")
        ans = self._mended(ans, now, people)
        if ans.decision == "talk":
            said = self._talk(ans, now, text, people, untold, extra)
            if isinstance(said, Reaction):
                return said
            ans = said
        if ans.decision == "react" and ans.new_action:
            return await self._act(ans, now, text, view)
        return Reaction("continue", reason="model")

    def _gate(self, now: datetime, text: str, people: tuple[str, ...], urgent: bool,
              extra: Allowance) -> Reaction | tuple[bool, list[str]]:
        """Whether the sight is worth a call: the ``continue`` that ends it here (asleep, the same
        words lately, the day's calls spent), or whether the call is past the day's floor and whom
        a host has news for."""
        d, _ = self.core.day_and_minute(now)
        if not text or self.core.asleep_at(now):
            return Reaction("continue", reason="asleep" if text else "nothing")
        last = self._reacted.get(text)
        if last is not None and now - last < timedelta(minutes=self.core.config.percept_cooldown_min):
            self.core.count("react_cooldown")
            return Reaction("continue", reason="already considered")
        spent = self.core.calls_on(d)
        # a talk written whole came of a reaction (its own or the other's) and costs a call like one
        used = spent.get("react", 0) + spent.get("converse", 0)
        # a host seeing someone it has not invited yet has news to tell (the paper's Isabella
        # invited the people she met): like urgent news, not held back by the day's caps
        untold = self._untold(now, people)
        if untold:
            self.core.count("react_news_to_tell")
        past_floor = not (urgent or untold) and used >= self.core.config.max_reacts_per_day
        if past_floor and used >= self.core.config.max_reacts_per_day + extra.reacts:
            self.core.count("react_budget")
            return Reaction("continue", reason="budget")
        return past_floor, untold

    async def _ask(self, now: datetime, text: str, view: WorldView | None, people: tuple[str, ...],
                   past_floor: bool) -> ReactAnswer | None:
        """The model's answer (None: the call failed)."""
        context = await self._context(now, text, view, people)
        if past_floor:  # spare time of the server's: the town's planning goes first
            self.core.count("react_spare")
        try:
            return await self.core.complete("react", ReactAnswer, "react",
                                            Priority.REFLECT if past_floor else Priority.REACT, now, max_tokens=100,
                                            context=context, places=self.locator.places_line(view),
                                            people=", ".join(people) or "nobody", first=self.core.persona.first_name,
                                            percept=text)
        except LLMError as e:
            self.core.fail("react", e)
            return None

    async def _context(self, now: datetime, text: str, view: WorldView | None, people: tuple[str, ...]) -> str:
        """What a reaction is asked with: where and when, the plan, thoughts, known facts, the people
        at hand and what the sight brings to mind."""
        ctx = Context(self.core, self.agenda, now, view, focus=text, about=people)
        return await assemble([Situation(), Plan(after=2), Thoughts(), KnownFacts(), Relationships(),
                               RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)

    async def _meet(self, now: datetime, text: str, view: WorldView | None, people: tuple[str, ...],
                    past_floor: bool) -> ReactAnswer | None:
        """Whether to talk to someone just seen (``meet.txt``), as the ``ReactAnswer`` it is: a
        talk with the one named, or to carry on (None: the call failed)."""
        context = await self._context(now, text, view, people)
        d, _ = self.core.day_and_minute(now)
        talked = [n for n in self.core.talked_with_on(d, now) if n != self.core.name]
        self.core.count("react_meet")
        if past_floor:
            self.core.count("react_spare")
        try:
            ans = cast(MeetReply, await self.core.complete(
                "meet", meet_answer(people), "react", Priority.REFLECT if past_floor else Priority.REACT, now,
                max_tokens=40, context=context, talked=", ".join(talked) or "nobody yet",
                people=", ".join(people), first=self.core.persona.first_name, percept=text))
        except LLMError as e:
            self.core.fail("react", e)
            return None
        who = _match_name(ans.talk_to, people) if ans.talk_to else None
        if who is None:
            return ReactAnswer(decision="continue")
        return ReactAnswer(decision="talk", talk_to=who)

    def _mended(self, ans: ReactAnswer, now: datetime, people: tuple[str, ...]) -> ReactAnswer:
        """The answer as meant: a "react" that is a wish to talk is a talk, "continue" written as an
        action is a continue, going to bed at noon is no reaction."""
        meant = _talk_meant(ans, people) if ans.decision == "react" else None
        if meant is not None:
            # a small model often picks "react" with someone in talk_to and "tell Rosa about ...":
            # that is a wish to talk, and the talk is what should happen
            self.core.count("react_as_talk")
            ans = ans.model_copy(update={"decision": "talk", "talk_to": meant})
        if ans.decision == "react" and ans.new_action.strip().lower().rstrip(".") in _NOTHING:
            ans = ans.model_copy(update={"decision": "continue"})
        if ans.decision == "react" and _BED_WORDS.search(ans.new_action) and not self._near_bed_time(now):
            # "going to wake up with Eli Moreau" at 16:16: waking or going to bed is not a reaction
            # to a sight in the middle of the day
            self.core.count("react_absurd")
            ans = ans.model_copy(update={"decision": "continue"})
        return ans

    def _talk(self, ans: ReactAnswer, now: datetime, text: str, people: tuple[str, ...], untold: list[str],
              extra: Allowance) -> Reaction | ReactAnswer:
        """A "talk" answer: the talk (or why not), or, with nobody here to talk to, the answer as
        the "react" it then is."""
        d, _ = self.core.day_and_minute(now)
        talks = self.core.talks_on(d, now)
        invite = _match_name(ans.talk_to, people) in untold
        if talks >= self.core.config.max_talks_per_day + extra.talks and not invite:
            self.core.count("react_talk_enough")
            return Reaction("continue", reason="talked enough today")
        who = _match_name(ans.talk_to, people)
        if who is None and len(people) == 1:
            who = people[0]
        if who is not None and who != self.core.name:
            self.core.count("react_talk")
            if talks >= self.core.config.max_talks_per_day and not invite:
                self.core.count("talk_spare")
            return Reaction("talk", with_whom=who, reason=text)
        self.core.count("react_talk_nobody")
        if not ans.new_action:
            return Reaction("continue", reason="nobody to talk to")
        return ans.model_copy(update={"decision": "react"})  # nobody here: do what it said instead

    async def _act(self, ans: ReactAnswer, now: datetime, text: str, view: WorldView | None) -> Reaction:
        """A "react" answer: its action, first in the agenda (the steps already decomposed carry on
        after it)."""
        here = view.here if view else ""
        allowed = tuple(view.allowed) if view and view.allowed else ()
        # the place and the state of the thing it acts on ("off" for a dripping tap, a fire
        # put out), both by the world when it can say
        addr, state = await self.locator.ground(view, ans.new_action, ans.place or here, ans.state,
                                                text, allowed, here or self.locator.fallback_place(view))
        act = Action(ans.new_action, pick_emoji(ans.emoji, emoji_for(ans.new_action)), addr,
                     max(5, min(60, ans.minutes)), state, now, "reaction")
        self.agenda.put_first(act, now)
        self.core.count("react_react")
        self.core.memory.add("plan", f"On noticing that {text}, I decided to {act.description}", now,
                             importance=5)
        return Reaction("react", new_action=act, reason=text)

    def _untold(self, now: datetime, people: Sequence[str]) -> list[str]:
        """The people at hand whom this resident has not told of a gathering it hosts."""
        out: list[str] = []
        for f in self.core.facts.upcoming(now):
            if f.host == self.core.name and f.kind == "gathering":
                out += [p for p in people if p != self.core.name and p not in f.told and p not in out
                        and p not in f.secret_from]  # (a surprise is not news for the one it is for)
        return out

    def news_for(self, other: str, now: datetime) -> bool:
        """Whether this resident hosts a gathering ``other`` has not been told of by it."""
        return bool(self._untold(now, [other]))

    def _near_bed_time(self, now: datetime) -> bool:
        """Within an hour of waking or of bed time (or asleep): when sleep and waking make sense."""
        _, m = self.core.day_and_minute(now)
        p = self.core.persona
        return m < p.wake + 60 or m >= p.sleep - 60


_NOTHING = ("continue", "nothing", "none", "carry on", "keep going", "keep doing the same thing",
            "continuing", "carrying on", "keeping going", "keeping doing the same thing")  # (planning/wording.py)
_TALK_WORDS = ("talk", "tell", "ask", "inform", "chat", "greet", "say", "speak", "discuss", "invite", "inviting",
               "mention", "share", "sharing", "hello", "hi ", "conversation", "let him know", "let her know")


def _talk_meant(ans: ReactAnswer, people: Sequence[str]) -> str | None:
    """Whom a "react" answer means to talk to, if it is a wish to talk to someone nearby: it names
    them in talk_to and its action is talking to them (or nothing else), or its action is telling,
    asking, ... someone who is named in it or is the only one there ("telling everyone I see about
    the party").  None when it is not a talk."""
    act = (ans.new_action or "").lower()
    talky = any(w in act for w in _TALK_WORDS)
    who = _match_name(ans.talk_to, people) if ans.talk_to else None
    if who is not None:
        return who if (not act or talky or who.split()[0].lower() in act.split()) else None
    if not talky or not people:
        return None
    named = [p for p in people if p.split()[0].lower() in act.split()]
    if len(named) == 1:
        return named[0]
    return people[0] if len(people) == 1 else None


def _people_only(text: str, view: WorldView | None, people: Sequence[str]) -> bool:
    """Whether every sight in ``text`` ("; " between them) is of someone the resident can talk to
    now: one of the people it sees (``view.nearby``), or a sentence that begins with the name of
    one at hand.  A thing among them (a stove on fire, a changed sign) asks the whole reaction."""
    if view is None or not people:
        return False
    nearby = set(view.nearby)
    return all(part in nearby or any(part.startswith(p + " ") for p in people)
               for part in (t.strip() for t in text.split("; ")) if part)


def _match_name(raw: str, people: Sequence[str]) -> str | None:
    r = clean_text(raw, 60).lower()
    if not r:
        return None
    for p in people:
        if p.lower() == r:
            return p
    for p in people:
        parts = p.lower().split()
        if r in parts or parts[0] in r.split():
            return p
    return None
