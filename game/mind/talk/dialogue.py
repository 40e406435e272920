"""Dialogue: a whole conversation between residents in one call (``converse``), the resident's next
line in a conversation (whole, or streamed for the player to watch), the context held for a whole
conversation with the player and what the line being typed brings to mind (so the server's cached
prompt serves every reply).

``Talker`` is a part of ``Mind`` (see mind.py): it owns the held contexts, what lines brought to
mind and the count of lines said per day; the rules over a whole script's lines live in script.py
(the talk stops where it runs in circles).
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from game.llm.api import CallTag, LLMError, Message, Prefills, Priority
from game.mind import prompting
from game.mind.components import Context, KnownFacts, Relationships, RelevantMemories, Situation, Thoughts, assemble
from game.mind.config import MEMORY_KINDS
from game.mind.core import IDENTITY_TITLE, MindCore, identity_text, prompt_person
from game.mind.facts.linechecks import strip_speaker
from game.mind.facts.owned import backing_words
from game.mind.planning.agenda import Agenda
from game.mind.schemas import LineAnswer, clean_text, script_answer, tagged_script_answer
from game.mind.talk.drawn import about_them, for_listener
from game.mind.talk.points import (
    point_tags,
    points_rule,
    public,
    public_lines,
    render_points,
    script_example,
    talking_points,
    unworded,
)
from game.mind.talk.script import repeats, script_lines, talk_so_far
from game.mind.view import Conversation, Line, Script

TALK_LINES = 12  # the last lines of a talk that a reply prompt shows
# a line's JSON: up to 200 characters of words (LineAnswer) at 2.5 or more a token, and its keys
LINE_TOKENS = 110
BROUGHT_MAX = 5  # memories a line being typed may bring to mind (see ``Talker._recall_for``)


class Talker:
    """say, say_stream, converse and listen.  Takes the core (the model, memory, the counts) and
    the agenda (what the resident is doing, as another's prompt shows it)."""

    def __init__(self, core: MindCore, agenda: Agenda) -> None:
        self.core = core
        self.agenda = agenda
        self._lines_today: Counter[str] = Counter()
        # conversation id -> the reply prompt's context, held for a conversation with the player so
        # that every reply begins the same way and the server's cached prompt serves them all
        # (saved with the mind: ``Mind.to_state``'s "held")
        self.held: OrderedDict[str, str] = OrderedDict()
        # what the line being said in a conversation brought to mind so far: (conversation id,
        # lines before it) -> memories, in the order they came (see ``_recall_for``)
        self.brought: dict[tuple[str, int], list[str]] = {}

    def forget(self, conversation_id: str) -> None:
        """A conversation is over: its replies' context and what its lines brought to mind go."""
        self.held.pop(conversation_id, None)  # its replies' context is not needed any more
        for key in [k for k in self.brought if k[0] == conversation_id]:
            del self.brought[key]

    # ------------------------------------------------------------------ dialogue
    def _talk_ran_long(self, now: datetime, conversation: Conversation) -> Line | None:
        d, _ = self.core.day_and_minute(now)
        mine = sum(1 for s, _ in conversation.lines if s == self.core.name)
        if not conversation.with_player and (
                mine >= self.core.config.max_turns_per_speaker
                or self._lines_today[d.isoformat()] >= self.core.config.max_lines_per_day):
            self.core.count("dialogue_rule_end")
            # the talk ends as an event the town shows, not with a canned line passed off as the
            # resident's own words
            return Line("", end=True, source="rule", reason=f"{self.core.persona.first_name} took their leave")
        return None

    async def _talk_context(self, now: datetime, conversation: Conversation, listeners: list[str],
                            narrow: bool = False) -> str:
        """The context of a line or a talk; ``narrow`` (a whole talk, ``converse``): only the
        memories about the listeners (talk/drawn.py)."""
        last = conversation.lines[-1][1] if conversation.lines else ""
        focus = " ".join(listeners) + (": " + last if last else "")
        ctx = Context(self.core, self.agenda, now, None, focus=focus, about=listeners)
        keep = (lambda text: about_them(text, listeners)) if narrow else None
        return await assemble([Situation(), Thoughts(), KnownFacts(), Relationships(),
                               RelevantMemories(k=5, token_budget=160, keep=keep)], ctx)

    async def say(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                  priority: Priority | None = None) -> Line:
        """The resident's next line, conditioned on what it remembers of the listeners and on the talk
        so far.  Works for any number of participants.  Ends by rule when the talk runs long."""
        listeners = [n for n in listener_names if n != self.core.name]
        d, _ = self.core.day_and_minute(now)
        ended = self._talk_ran_long(now, conversation)
        if ended is not None:
            return ended
        # among residents, narrowed as a whole talk is (talk/drawn.py): three or more talk a line at a time
        # (Kenji told Nora of his secret column, b765e22's day); with the player, its whole self
        narrow = self.core.config.talk_narrow and not conversation.with_player
        context = await self._talk_context(now, conversation, listeners, narrow)
        if priority is None:
            priority = Priority.PLAYER if conversation.with_player else Priority.REACT
        try:
            ans = await self.core.complete("dialogue", LineAnswer, "dialogue", priority, now, max_tokens=LINE_TOKENS,
                                           context=public_lines(context) if narrow else context,
                                           transcript=conversation.transcript(for_name=self.core.name)
                                           or "(nothing yet)",
                                           first=self.core.persona.first_name, person=self._talk_person(narrow),
                                           listeners=", ".join(listeners) or "someone")
        except LLMError as e:
            self.core.fail("dialogue", e)
            return Line("", end=True, source="error")
        self._lines_today[d.isoformat()] += 1
        text = strip_speaker(ans.say, [self.core.name, self.core.persona.first_name]  # (or a listener's name)
                              + [n for who in listeners for n in (who, who.split()[0])])
        if not text:
            return Line("", end=True)
        if not conversation.with_player and repeats(text, [t for _, t in conversation.lines]):
            # a small model's talk goes round in circles ("let's go and meet Felix right away!"):
            # the line that says again what was said ends it, and is not said
            self.core.count("talk_in_circles")
            return Line("", end=True)
        return Line(text, end=bool(ans.end_conversation))

    async def talk_side(self, now: datetime, about: Sequence[str]) -> str:
        """This resident as another's ``converse`` prompt shows it: who they are in short, what they
        are doing, their own thoughts, what they know of ``about`` (the one who starts the talk)
        and what they remember of them.  No model call (the retrieval may embed its query)."""
        first = self.core.persona.first_name
        ctx = Context(self.core, self.agenda, now, None, focus=" ".join(about), about=about)
        narrow = self.core.config.talk_narrow
        mems = RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS,
                                keep=(lambda text: about_them(text, about)) if narrow else None)
        await mems.prepare(ctx)
        # not what it keeps to itself: the model writes the other side's lines too
        parts = [public(self.core.persona.short())]
        if self.agenda.current is not None:
            parts.append(f"{first} is {self.agenda.current.description}.")
        head = ctx.keep_secrets(" ".join(parts))
        knows = ctx.keep_secrets(Relationships().render(ctx))
        ctx.shown = set(knows.splitlines())  # (a seed relationship is a memory too)
        sections = [(f"{first}'s own thoughts", Thoughts(limit=2).render(ctx)),
                    (f"What {first} knows is planned (true)", KnownFacts().render(ctx)),
                    (f"{first} knows", knows), (f"{first} remembers", mems.render(ctx))]
        sections = [(title, public_lines(ctx.keep_secrets(text))) for title, text in sections]
        side = head + "".join(f"\n{title}:\n{text}" for title, text in sections if text.strip())
        return side + self._points(now, about)

    def _points(self, now: datetime, listeners: Sequence[str]) -> str:
        """This resident's own points for a talk with ``listeners`` (points.py), as a section
        that begins with a blank line; "" when off or none."""
        if not self.core.config.talk_points:
            return ""
        doing = self.agenda.current.description if self.agenda.current is not None else ""
        points = talking_points(self.core, now, listeners, doing)
        if self.core.config.talk_narrow:  # the one spoken to is "you" (talk/drawn.py)
            points = [for_listener(p, listeners) for p in points]
        text = render_points(self.core.persona.first_name, points, self.core.config.talk_tagged)
        return "\n" + text if text else ""

    async def converse(self, now: datetime, conversation: Conversation, sides: dict[str, str]) -> Script:
        """A whole conversation between residents that this resident starts, in one call: each line
        conditioned on what its speaker remembers of the others (this resident's context, and
        ``sides``: each other's ``talk_side``).  One call instead of one a line: a talk of four
        lines cost 4 to 5 calls of about 550 tokens each (docs/MIND.md).  Lines by someone not in
        the talk are dropped, and the talk stops at a line that says again what was said."""
        listeners = [n for n in conversation.participants if n != self.core.name]
        d, _ = self.core.day_and_minute(now)
        if self._lines_today[d.isoformat()] >= self.core.config.max_lines_per_day:
            self.core.count("dialogue_rule_end")
            return Script(source="rule", reason=f"{self.core.persona.first_name} did not feel like talking")
        people = [self.core.name, *listeners]
        firsts = [n.split()[0] for n in people]
        calls = firsts if len(set(firsts)) == len(firsts) else people  # two Annas: full names
        # both sides are in one prompt: what either keeps to itself is in neither ("Hank has not told
        # anyone that the store is in trouble" became the other's "I'm sorry to hear about the store")
        narrow = self.core.config.talk_narrow
        context = (public_lines(await self._talk_context(now, conversation, listeners, narrow))
                   + self._points(now, listeners))
        others = "\n\n".join(f"Talking with:\n{sides[n]}" for n in listeners if sides.get(n))
        tagged = self.core.config.talk_points and self.core.config.talk_tagged and calls == firsts
        schema = tagged_script_answer(point_tags(context + "\n" + others, calls)) if tagged else script_answer(
            tuple(calls))
        # a talk whose rest was not said after a line lost a claim goes on from what was said (script.py)
        purpose = "converse_more" if conversation.lines else "converse"
        so_far, after = talk_so_far(conversation.lines, dict(zip(people, calls))) if conversation.lines else ("", "")
        try:
            ans = await self.core.complete(purpose, schema, purpose, Priority.REACT, now,
                                           max_tokens=400, context=context, others=others or "Talking with: someone",
                                           first=calls[0], listeners=", ".join(listeners) or "someone",
                                           points_rule=points_rule(self.core.config.talk_points, tagged),
                                           example=script_example(tagged),
                                           person=self._talk_person(narrow), talk=so_far, next=after)
        except LLMError as e:
            self.core.fail(purpose, e)
            return Script(source="error")
        if tagged:
            self.core.count("script_point_unworded", unworded(ans.lines, context + "\n" + others))
        lines = script_lines(ans.lines, {c.lower(): n for c, n in zip(calls, people)}, people + firsts,
                             backing_words(context, others), self.core.count, earlier=conversation.lines)
        self._lines_today[d.isoformat()] += sum(1 for who, _ in lines if who == self.core.name)
        return Script(lines=lines, importance=ans.importance)

    def _talk_person(self, narrow: bool) -> str:
        """The head of a whole talk's prompt: narrowed, the starter less what it keeps to itself
        (the model writes the other side's lines too: Hank's own trouble with the store became his
        "I'm sorry to hear that your store is in trouble" to Marcus, 7765899's day)."""
        if not narrow:
            return prompt_person(self.core)
        return f"{IDENTITY_TITLE}:\n" + "\n".join(public(p) for p in identity_text(self.core).splitlines())

    async def _held_context(self, now: datetime, conversation: Conversation, listeners: list[str]) -> str:
        """The context of every reply in ``conversation``: made once (who the resident is, where,
        what it remembers of the listeners) and held until the conversation is over."""
        held = self.held.get(conversation.id)
        if held is None:
            held = await self._talk_context(now, conversation, listeners)
            self.held[conversation.id] = held
            while len(self.held) > 4:  # conversations long over
                self.held.popitem(last=False)
        return held

    def _reply_messages(self, context: str, lines: Sequence[tuple[str, str]], listeners: list[str],
                        recall: str = "", last: tuple[str, str] | None = None, again: str = "") -> list:
        """The reply prompt: the held context, the talk so far, what the line to answer brings to
        mind (``recall``), the instruction, then that line (``last``, else the last of ``lines`` when
        someone else said it) and a short cue.  The line to answer comes nearly last so that a
        prompt made while the player was still typing it (``listen``) is the reply's own up to the
        player's newest words, and the reply evaluates little more than the words typed after them.
        (The cue after it: without one, Qwen 1.5B echoed the player's first line in 5 of 40
        replies; with "(Rosa answers in Rosa's own words)", 1 in 64.)  ``again``: what was wrong with
        the last reply, which was not said (the player's talk asks once more), named at the end."""
        lines = list(lines)[-TALK_LINES:]
        if last is None and lines and lines[-1][0] != self.core.name:
            last = lines.pop()
        elif last is not None:
            lines = lines[-(TALK_LINES - 1):]
        first = self.core.persona.first_name
        values = dict(context=context, first=first, listeners=", ".join(listeners) or "someone",
                      talk="\n".join(f"{s}: {t}" for s, t in lines) or "(nothing yet)",
                      recall=f"\n{recall}" if recall else "",
                      again=f"\n(Not said, {first}'s answer before: {again}. {first} answers again.)" if again else "")
        if last is None:  # nothing to answer: the resident speaks first
            return prompting.render("dialogue_stream_open", person=prompt_person(self.core), **values)
        return prompting.render("dialogue_stream", person=prompt_person(self.core), **values, speaker=last[0],
                                last=f"{last[0]}: {last[1]}")

    async def listen(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                     typed: tuple[str, str] | None = None) -> bool:
        """The player is about to speak to this resident (a talk just opened, the resident's own line
        was just said, or the player is typing: ``typed`` is who types and the words so far).  The
        reply prompt's context is made now (once per conversation, then held) and, where the server
        keeps prompt caches, as much of the reply's prompt as is known is evaluated now with one
        prefill call while the player types: the talk so far, and with ``typed`` what those words
        bring to mind and the words themselves.  The first words of the reply then come after
        evaluating only what the player typed last.  Returns whether the server was asked.  A
        failure is logged, never raised: this only saves time."""
        listeners = [n for n in listener_names if n != self.core.name]
        llm = self.core.llm
        try:
            context = await self._held_context(now, conversation, listeners)
            if not isinstance(llm, Prefills):
                return False
            recall = (await self._recall_for(typed[1], now, context, (conversation.id, len(conversation.lines)))
                      if typed and typed[1] else "")
        except LLMError as e:
            self.core.fail("listen", e)
            return False
        if typed and typed[1]:
            # the whole prompt as it would be if the player said this now: if they type on, only
            # the new words are left to evaluate
            heard = conversation.heard_by(self.core.name)
            messages = self._reply_messages(context, heard, listeners, recall, last=typed)
        else:
            # the prompt up to the cut is how the next reply's prompt begins: the talk so far, then
            # what the next line brings to mind, the instruction and the line, still to come
            cut = "\x00"
            heard = conversation.heard_by(self.core.name)
            system, user = self._reply_messages(context, heard, listeners, cut, last=("?", "?"))
            messages = [system, Message("user", user.content[:user.content.index(cut)])]
        try:
            sent = bool(await llm.prefill(messages, CallTag("prefill", self.core.name, Priority.PLAYER)))
        except LLMError as e:
            self.core.fail("prefill", e)
            return False
        if sent:
            self.core.count_call(now, "prefill")
        return sent

    async def _recall_for(self, said: str, now: datetime, held: str, line: tuple[str, int] | None = None) -> str:
        """Memories that a line brings up and the held context does not show (the player asks about
        the bakery: what the resident heard about it), as a short section before that line.

        ``line`` names the line (conversation id, lines before it) while the player is still
        typing it: what each version of it brings to mind is kept, and what a later version adds
        comes after it (at most ``BROUGHT_MAX`` memories), so the section grows at its end instead
        of changing as the words do, and the prompt made while they typed stays the reply's own."""
        recs = await self.core.recall(said, now, k=3, token_budget=70, kinds=MEMORY_KINDS)
        new = [r.text for r in sorted(recs, key=lambda r: (r.created, r.id)) if f"- {r.text}\n" not in held + "\n"]
        if line is not None:
            brought = self.brought.setdefault(line, [])
            for t in new:
                if t not in brought and len(brought) < BROUGHT_MAX:
                    brought.append(t)
            new = list(brought)
            for key in [k for k in self.brought if k[0] == line[0] and k[1] < line[1]]:
                del self.brought[key]  # the lines before it are said
            while len(self.brought) > 4:  # (conversations long over)
                del self.brought[next(iter(self.brought))]
        if not new:
            return ""
        return f"{self.core.persona.first_name} recalls:\n" + "\n".join(f"- {t}" for t in new) + "\n"

    async def _recall_now(self, now: datetime, conversation: Conversation, held: str) -> str:
        last = conversation.lines[-1] if conversation.lines else None
        if last is None or last[0] == self.core.name:
            return ""
        line = (conversation.id, len(conversation.lines) - 1)
        return await self._recall_for(last[1], now, held, line if line in self.brought else None)

    async def say_stream(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                         priority: Priority | None = None, again: str = "") -> AsyncIterator[str | Line]:
        """Like ``say`` but the text comes piece by piece (free text, for the player to watch); the
        last item yielded is the finished, cleaned ``Line``.  The prompt begins with a context held
        for the whole conversation (see ``listen``); what the last line brings to mind comes after
        the talk so far.  ``again``: the reply before was not said, for this reason (named at the end)."""
        listeners = [n for n in listener_names if n != self.core.name]
        d, _ = self.core.day_and_minute(now)
        ended = self._talk_ran_long(now, conversation)
        if ended is not None:
            yield ended
            return
        held = await self._held_context(now, conversation, listeners)
        recall = await self._recall_now(now, conversation, held)
        if priority is None:
            priority = Priority.PLAYER if conversation.with_player else Priority.REACT
        messages = self._reply_messages(held, conversation.heard_by(self.core.name), listeners, recall, again=again)
        self.core.count_call(now, "dialogue")
        text = ""
        sent = 0  # characters of the cleaned reply already yielded
        # a name in front is not to be shown: its own, or (the small model's slips) a listener's or
        # that of someone it knows (copied from its memories: "Ines Moreau: runs the cafe")
        known = list(listeners) + list(self.core.persona.relationships)
        names = [self.core.name, self.core.persona.first_name] + [n for who in known if who
                                                                   for n in (who, who.split()[0])]
        try:
            # one line: what a small model adds after it ("This answer reflects ...") is not said
            async for piece in self.core.llm.stream(messages, CallTag("dialogue", self.core.name, priority),
                                                    max_tokens=80, stop=("\n",)):
                text += piece
                lead = _speaker_lead(text, names)
                if lead is None:
                    continue  # it may still turn out to be "Rosa: ": not shown until it is known
                shown = text[lead:]
                if len(shown) > sent:
                    yield shown[sent:]
                    sent = len(shown)
        except LLMError as e:
            self.core.fail("dialogue", e)
            yield Line(strip_speaker(clean_text(text, 300), names),
                       end=True, source="error")
            return
        self._lines_today[d.isoformat()] += 1
        line = strip_speaker(clean_text(text, 300), names)
        yield Line(line, end=not line or _says_goodbye(line))


_GOODBYES = ("goodbye", "good bye", "bye", "see you", "talk later", "take care", "have a good")


def _says_goodbye(text: str) -> bool:
    t = text.lower()
    return any(g in t for g in _GOODBYES)


def _speaker_lead(text: str, names: Sequence[str]) -> int | None:
    """How many leading characters of a reply still being written are not words to show: spaces,
    the speaker's own name ("Rosa: ") and an opening quote.  None while that cannot be told yet."""
    t = text.lstrip()
    skip = len(text) - len(t)
    low = t.lower()
    for n in sorted((n for n in names if n), key=len, reverse=True):
        head = n.lower() + ":"
        if low.startswith(head):
            skip += len(head)
            t = t[len(head):]
            break
        if head.startswith(low):
            return None  # "Ro", "Rosa" ... may yet be the name
    rest = t.lstrip(' "\u201c')
    if not rest:
        return None
    return skip + len(t) - len(rest)
