"""Reacting to a hazard: something the engine says the resident noticed that will not wait (a fire,
a leak, as the world's vocabulary marks them), handed over as plain data (``view.Hazard``).

The reaction is an action at the thing that leaves it safe.  The model is asked what the resident
does (``react_hazard.txt``; the schema offers the thing's own states); an answer that does not
make it safe (carry on, a talk, "inviting him to the kitchen to check on the fire", a state that is
not the safe one) is asked once more, plainly (``mend.txt``; the schema offers the safe state
only); an answer that still does not, or a model that fails, leaves the action that mends it by
rule (``source="rule"``: the ledger does not count it as the model's).  Whether an answer makes
the thing safe is the world's to say (``view.ground.state``, game/world/states.py ``mends``), and so
is whether it names help the town lacks ("calling 911" where no one answers: ``view.ground.lacks``).

``Mender`` is a part of ``Mind`` (see mind.py), asked by the reactor (reactor.py); no state of its
own.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from game.llm.api import LLMError, Priority
from game.mind.components import Context, Plan, Relationships, RelevantMemories, Situation, Thoughts, assemble
from game.mind.config import MEMORY_KINDS
from game.mind.core import MindCore
from game.mind.planning.agenda import Agenda
from game.mind.planning.shaping import emoji_for
from game.mind.schemas import HazardReply, hazard_answer, mend_answer, pick_emoji
from game.mind.view import Action, Hazard, Reaction, WorldView

_NOTHING = ("continue", "nothing", "none", "carry on", "keep going", "continuing", "carrying on")
HAZARD_MINUTES = (5, 20)  # how long mending it takes, the walk to it included


class Mender:
    """The reaction to a hazard and its rules.  Takes the core (the model, memory, counts) and the
    agenda (the reaction is the step in hand)."""

    def __init__(self, core: MindCore, agenda: Agenda) -> None:
        self.core = core
        self.agenda = agenda

    async def react(self, now: datetime, text: str, view: WorldView | None, hazard: Hazard) -> Reaction:
        """The reaction to ``hazard`` (noticed as ``text``): always an action at the thing that
        leaves it safe, the model's own when one of its two answers does so.  Neither the day's
        reaction budget nor the cool-down of a sight holds it back: the engine asks only the awake
        who are near it, and again only while nobody deals with it (the reactor keeps the time it
        was noticed, as for any sight)."""
        people = tuple(view.people_here) if view else ()
        act: Action | None = None
        try:
            ctx = Context(self.core, self.agenda, now, view, focus=text, about=people)
            context = await assemble([Situation(), Plan(after=2), Thoughts(), Relationships(),
                                      RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)
            ans = await self.core.complete("react_hazard", hazard_answer(tuple(hazard.states)), "react",
                                           Priority.REACT, now, max_tokens=100, context=context,
                                           people=", ".join(people) or "nobody", first=self.core.persona.first_name,
                                           percept=text, thing=hazard.thing, state=hazard.state, safe=hazard.safe)
            act = self._mending(now, view, hazard, cast(HazardReply, ans))
            if act is None:  # asked once more, with the danger made plain
                self.core.count("hazard_asked_again")
                ans = await self.core.complete("mend", mend_answer((hazard.safe,)), "react", Priority.REACT, now,
                                               max_tokens=60, first=self.core.persona.first_name, thing=hazard.thing,
                                               state=hazard.state, safe=hazard.safe, name=hazard.name)
                act = self._mending(now, view, hazard, cast(HazardReply, ans))
        except LLMError as e:  # the model is down: it is mended by rule all the same
            self.core.fail("react", e)
        if act is None:
            self.core.count("hazard_rule")
            fix = hazard.fix or f"making the {hazard.name} safe"
            act = Action(fix, hazard.emoji or emoji_for(fix), hazard.address, HAZARD_MINUTES[0], hazard.safe, now,
                         "rule")
        else:
            self.core.count("hazard_model")
        # the steps already decomposed carry on after it, the one it breaks off first (as react)
        self.agenda.put_first(act, now)
        self.core.memory.add("plan", f"On noticing that {text}, I decided to {act.description}", now, importance=7)
        return Reaction("react", new_action=act, reason=text)

    def _mending(self, now: datetime, view: WorldView | None, hazard: Hazard, ans: HazardReply) -> Action | None:
        """The model's answer as an action at the thing, if it makes the thing safe; else None.
        A talk that says what it does to the thing counts (a small model often answers "talk" with
        the deed in new_action); carrying on, words that only look or tell, or help the town lacks
        do not."""
        desc = (ans.new_action or "").strip()
        if ans.decision not in ("react", "talk") or not desc or desc.lower().rstrip(".") in _NOTHING:
            return None
        ground = view.ground if view is not None else None
        if ground is not None and ground.lacks(desc):  # (Grace's "calling 911" at the stove's fire: no one answers)
            self.core.count("hazard_lacking")
            return None
        state = self._safe_state(view, hazard, ans.state, desc)
        if state is None:
            self.core.count("hazard_unfit")
            return None
        lo, hi = HAZARD_MINUTES
        return Action(desc, pick_emoji(ans.emoji, hazard.emoji or emoji_for(desc)), hazard.address,
                      max(lo, min(hi, int(ans.minutes))), state, now, "reaction")

    def _safe_state(self, view: WorldView | None, hazard: Hazard, proposal: str, activity: str) -> str | None:
        """The state the action leaves the thing in when that makes it safe, as the world judges
        (its resting state); None when it does not.  With no world to ask (a bare view), only the
        safe state named is."""
        ground = view.ground if view is not None else None
        if ground is not None:
            return ground.mended(hazard.address, proposal or "", activity)
        return hazard.safe if (proposal or "").strip().lower() == hazard.safe.lower() else None
