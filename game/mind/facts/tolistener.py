"""The one spoken to is "you" (issue 39): in a talk of two, a line that names its listener in the third
person says "you" ("I've heard about it from Felix", said to Felix, is "from you"; "Marcus's quiz" is
"your quiz"; "I've been helping Samuel with the party", said to Samuel on 9d99520's day), and a sentence
that would then speak of the listener twice over is not said."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.leaning import kept_apart, names_by_pronoun
from game.mind.facts.unbacked import sentences


def to_listener(text: str, listeners: Sequence[str], fixes: list[str]) -> str:
    """In a talk of two, the one spoken to is "you", not a name in the third person ("I've heard
    about it from Felix", said to Felix -> "from you"; "Marcus's quiz" -> "your quiz")."""
    if len(listeners) != 1:  # in a talk of more: one of them named to be talked with is talked to now
        return _group(text, listeners, fixes)
    who = listeners[0]
    names = "|".join(re.escape(n) for n in dict.fromkeys([who, who.split()[0]]))
    # the speaker's plan step said back to the one it names ("I'm going to talk with Ines Moreau about it",
    # Samuel to Ines on 654b82e's day): they are talking now, the sentence is not said
    plan = re.compile(rf"\b(?:going to|will|'ll|’ll|plan(?:ning)? to|want to|need to)\s+(?:talk|speak|chat)\s+"
                      rf"(?:to|with)\s+(?:{names})\b")
    if plan.search(text):
        fixes.append(f"a plan to talk with {who.split()[0]} said to {who.split()[0]}: not said")
        text = " ".join(s for s in sentences(text) or [text] if not plan.search(s))
    pat = re.compile(rf"\b(from|with|to|about|for|by|through|against|{_VERBS})\s+(?:{names})\b"
                     r"(?!['’]s)(?!\s*[,!?])")
    new = pat.sub(lambda m: f"{m.group(1)} you", text)
    new = re.sub(rf"(?<![\w'’])(?:{names})['’]s\b(?!\s+(?:{_KIN}))", "your", new)  # (a relation: its own check)
    # "I'm sure Grace is excited", said to Grace: "you are"
    subject = re.compile(rf"(?<![\w'’,])(?:{names})\s+(is|was|has|'s|knows|will|can|sees|thinks|wants|needs|likes)\b"
                         r"(?!\s*[,!?])")
    new = subject.sub(lambda m: "you " + _YOU_VERB[m.group(1)] if m.group(1) != "'s" else "you're", new)
    # "It looks like Marcus put my campaign posters up there", Hank to Marcus (74bd764's day): "you put"
    new = re.sub(rf"(?<![\w'’,])(?:{names})\s+({_DONE})\b(?!\s*[,!?])", r"you \1", new)
    new = re.sub(r"(^|[.!?]\s+)(you|your)\b", lambda m: m.group(1) + m.group(2).capitalize(), new)  # ("Your party")
    if new == text:
        return text
    parts = sentences(new) or [new]
    if any(_TWICE.search(p) for p in parts):  # a sentence that asks the listener of itself as of another
        fixes.append(f"{who.split()[0]} spoken of as another: not said")  # ("Have you talked to Felix yet?")
        return " ".join(kept_apart(parts, lambda p: _TWICE.search(p) is not None, names_by_pronoun))
    fixes.append(f"{who.split()[0]} spoken to as you")
    return new


# the listener made "you" where it was a third ("Have you talked to you yet?"; "... but you are." of
# "but Marcus is.", a doing given to the listener: Kenji to Felix and Ines to Marcus on ca91aae's day)
_VERBS = r"(?:ask|help|visit)(?:s|ed|ing)?|tell(?:s|ing)?|told|see(?:s|ing)?|saw|meet(?:s|ing)?|met"
_TWICE = re.compile(rf"\byou\b[^.!?]*\b(?:to|with|from|about|for|by|through|against|{_VERBS})\s+you\b"
                    r"|\bbut you (?:are|were|have|will|can|know)\W*$", re.I)


_DONE = r"[a-z]{2,}ed|put|made|told|said|gave|took|went|did|set|got|brought|left|sent|wrote|found|bought|won|lost"
_KIN = r"mother|father|mom|dad|wife|husband|son|daughter|sister|brother|parents|family|grand\w+|aunt|uncle|cousin"
_YOU_VERB = {"is": "are", "was": "were", "has": "have", "knows": "know", "will": "will", "can": "can", "sees": "see",
             "thinks": "think", "wants": "want", "needs": "need", "likes": "like"}


def _group(text: str, listeners: Sequence[str], fixes: list[str]) -> str:
    """"I need to talk to Marcus Bell about the fountain", said by Grace to Marcus and two others
    (ca91aae's day): "talk to you, Marcus, about the fountain"."""
    names = "|".join(re.escape(n) for p in listeners for n in dict.fromkeys([p, p.split()[0]]))
    pat = re.compile(rf"\b(talk|speak|chat)\s+(to|with)\s+(?P<who>{names})\b(?!['’]s)(?!\s*[,!?.])")
    new = pat.sub(lambda m: f"{m.group(1)} {m.group(2)} you, {m.group('who').split()[0]},", text)
    if new != text:
        fixes.append("one in the talk spoken to as you")
    return new
