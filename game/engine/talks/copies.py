"""A line copied from another talk (issue 39): a small model says again a line it remembers, in
another talk ("I'm also helping him with his piano lessons at Town Hall" in three talks), or a line
of its own twice in one.  ``SaidLines`` owns the words of the lines said lately; a part of
``TalkFacts`` (facts.py).  Not saved: a loaded town starts afresh.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from game.engine.talks.cuts import in_town_words
from game.mind.facts.factcheck import Vetted
from game.mind.facts.leaning import leans
from game.mind.facts.unbacked import sentences
from game.mind.view import Conversation

# a sentence that only greets ("Hi Ines!", "Good morning, Bob."): one a speaker says once in a talk (Grace's "Hi Ines!"
# again where a talk cut short went on, 2026-12-02)
_GREETING = re.compile(r"^\W*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|morning|evening)\b[\s,]*"
                       r"(?:there|[A-Z][a-z]+)?\s*[.!]*\s*$", re.I)
SAID_KEPT = 2000  # lines remembered to tell a copy by
NEAR, NEAR_WORDS = 0.75, 8  # a sentence as near another as this, of as many different words, is a copy of it
_WORD = re.compile(r"[a-z0-9']+")


class SaidLines:
    """The words of the lines said lately (a key of five words or more -> the talk it was said in),
    and how many sentences were not said as copies."""

    def __init__(self) -> None:
        self.said: OrderedDict[str, str] = OrderedDict()
        self._sets: dict[str, frozenset[str]] = {}  # a key's words (``near``), made once a key
        self.copies = 0

    def not_copied(self, conv: Conversation, v: Vetted, embodied: str | None = None) -> Vetted:
        """The line less its sentences said already in another talk (of five words or more), or earlier in
        this one by its speaker (of three or more: Hank's "I'll be there at 22:00" twice; nor a greeting again,
        "Hi Ines!" where a talk cut short goes on), or a question another asked in it said back (Grace's "Did you
        sleep well?" to Samuel, played); the player's are all said."""
        kept, dropped = [], 0
        played = v.speaker == embodied
        mine = {" ".join(_WORD.findall(s.lower())) for who, line in conv.lines for s in sentences(line)
                if who == v.speaker or (not played and _asks(s))}
        greeted = not played and any(_GREETING.match(s) for who, line in conv.lines if who == v.speaker
                                     for s in sentences(line))
        # another's sentence in this talk said back (Marcus to Hank, "I want to make sure everything is packed up
        # and ready to go", and Samuel after Rosa, "..., and Ines is going to talk with me tomorrow about the
        # surprise party", on 2bbddfe's day)
        # (a question's words said as a statement are its answer: "Yes, there is a quiz at the pub tonight.")
        theirs = [(frozenset(_WORD.findall(s.lower())), _asks(s)) for who, line in conv.lines
                  if who != v.speaker and not played for s in sentences(line) if len(_WORD.findall(s)) >= NEAR_WORDS]
        # the question just asked said back as the answer ("Is there a quiz at The Copper Kettle tonight?", Marcus to
        # the player's "Is there a quiz at the pub tonight?" on 48faeb3)
        asked = [frozenset(_WORD.findall(s.lower())) for who, line in conv.lines[-1:] if who != v.speaker and not played
                 for s in sentences(line) if _asks(s)]
        last = False  # the sentence before was not said: one that leans on it goes too ("It looks exciting!")
        for sent in sentences(v.text) or [v.text]:
            k = " ".join(_WORD.findall(sent.lower()))
            # the fact as the town says it may recur, to one who hears it now (Rosa's first line to Ines,
            # word for word at 07:20 and 09:54 on c59f68b's day, told her nothing the second time)
            told = v.fact is not None and bool(v.told) and in_town_words(sent, v.fact)
            asks = _asks(sent)
            last = (len(k.split()) >= 3 and k in mine) or (greeted and bool(_GREETING.match(sent))) or (
                last and leans(sent)) or _said_back(k, theirs, asks) or (
                asks and _asked_back(k, asked)) or (
                len(k.split()) >= 5 and not told and (self.said.get(k, conv.id) != conv.id or self.near(k, conv.id)))
            if last:
                dropped += 1
                continue
            kept.append(sent)
            if len(k.split()) >= 5:
                self.said[k] = conv.id
                self.said.move_to_end(k)
        while len(self.said) > SAID_KEPT:
            self._sets.pop(self.said.popitem(last=False)[0], None)
        if dropped:
            self.copies += dropped
            v.fixes.append(f"{dropped} sentence(s) copied from another talk or said again not said")
            v.text = " ".join(kept)
        return v

    def near(self, key: str, conv_id: str) -> bool:
        """Whether a sentence of eight words or more was said in another talk with a word or two
        changed ("I wanted to let you know that I'm going to Greenway Market and Pharmacy", Grace's,
        after Nora's "I just wanted to let you know that ..." on 136a191's day)."""
        words = frozenset(key.split())
        n = len(words)
        if n < NEAR_WORDS:
            return False
        sets = self._sets
        for k, cid in self.said.items():
            other = sets.get(k) or sets.setdefault(k, frozenset(k.split()))  # (made once a key)
            # (as near as this only when neither has many more words than the other)
            if cid != conv_id and NEAR * n <= len(other) <= n / NEAR and _alike(words, other):
                return True
        return False


def _asks(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


def _said_back(key: str, theirs: list[tuple[frozenset[str], bool]], asks: bool) -> bool:
    """Whether a sentence of eight words or more is one of ``theirs`` (the others' in this talk, each with
    whether it asks) said again, a word or two changed: a statement of a statement, a question of a question."""
    words = frozenset(key.split())
    return len(words) >= NEAR_WORDS and any(q == asks and _alike(words, other) for other, q in theirs)


def _asked_back(key: str, asked: list[frozenset[str]]) -> bool:
    """Whether a question is one just ``asked`` (of six words or more) said back: four in five of its words."""
    words = frozenset(key.split())
    return any(len(q) >= 6 and len(q & words) >= 0.8 * len(q) for q in asked)


def _alike(words: frozenset[str], other: frozenset[str]) -> bool:
    """Two sentences' words, the same but for a word or two (``NEAR`` of all either has)."""
    return len(words & other) >= NEAR * len(words | other)
