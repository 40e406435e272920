"""Words of an interview answer that step out of the town: the prompt's words said back (its rules,
its hints, the day plan's), a chat assistant's manners, the speaker spoken of in the third person.
backing.py drops such a sentence, or asks the answer again when the whole of it steps out.

Pure rules, no model call.
"""

from __future__ import annotations

import re
from pathlib import Path

from game.mind.facts.linechecks import assistant_voice

OUT_OF_TOWN = re.compile(r"\b(?:(?:the\s+)?(?:given|provided)\s+(?:information|text|context|details)"
                         r"|information\s+(?:given|provided)|not\s+mentioned\s+in|as an ai|language model"
                         r"|the prompt|the interviewer's\s+question"
                         r"|based on the (?:information|text|context)"
                         # an analyst's voice of the identity summary (Rosa on eaef4b9's save: "as evidenced by
                         # her actions", "based on her statement in her answer")
                         r"|as evidenced by|based on (?:her|his|their|my) (?:statement|answer|response|actions)"
                         r"|in (?:her|his|their) answer"
                         # the model's note on its own answer ("This response provides a concise summary of Samuel's
                         # personal information", Grace asked her job on d7d6132's save)
                         r"|\b(?:this|the above|my|the) (?:response|answer) "
                         r"(?:provides|is structured|gives|summari[sz]es)"
                         r"|people you know|listed (?:under|in|above|below)|make one up"
                         r"|say only what (?:you|I) know"
                         r"|plans for other days are not for today"
                         r"|its places are|the town's own places|say only what is so|do not name them"
                         r"|knows no one called|has heard of no|in the first person"
                         r"|(?:free[- ]time|work) lines\b"  # (the day plan's words: Samuel on d2ec812)
                         r"|(?:do not|don't|doesn't|does not) have (?:any )?access to"
                         r"|(?:do not|don't) have a town|(?:do not|don't) live (?:there|in (?:the|this|a) town)"
                         # a chat assistant's sign-off (Samuel, asked what is on his mind, on b5e348b: "I hope
                         # this meets your requirements! Let me know if you have any other questions.")
                         r"|meets? (?:your|the) (?:requirements|needs|expectations)|hope (?:this|that) helps"
                         r"|let me know if you (?:have|need) (?:any )?(?:other |more |further )?(?:questions|help|"
                         r"adjustments|changes)"
                         r"|I'm here to help|keep the conversation neutral"
                         # the meeting call's reasoning said back (Ines on 3668980's save: "Therefore, she does
                         # not start a conversation with Rosa Brody.")
                         r"|(?:she|he|they)\s+(?:(?:does|do|did|will|would)\s+not\s+|doesn't\s+|won't\s+)?"
                         r"starts?\s+a\s+conversation)\b",
                         re.I)


# a region the town is said to lie in (Grace on 6186d53's save: "Millbrook, a small town in southwestern
# Virginia"): the town's records name none, so none is said
_STATES = ("Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|"
           "Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|"
           "Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|Ohio|Oklahoma|"
           "Oregon|Pennsylvania|Rhode Island|Tennessee|Texas|Utah|Vermont|Virginia|Washington|Wisconsin|Wyoming|"
           "Carolina|Dakota|England|Scotland|Ireland|Wales|Canada|Australia|the United States|the USA|America")
_REGION = re.compile(rf"\b(?:in|of|from)\s+(?:the\s+)?(?:(?:north|south|east|west)(?:ern|east|west|eastern|western)?"
                     rf"\s+|rural\s+|upstate\s+|central\s+)?(?:{_STATES})\b", re.I)


# a question of the resident's own day, answered of "he" or "she" with no I in it (Samuel on b765e22's save,
# asked his typical weekday: "After that, he practices the song he wrote for Grace ...")
_OWN_DAY_Q = re.compile(r"\b(?:your (?:typical|usual|normal) (?:week)?day|your plans|what (?:will|do|are) you (?:be )?"
                        r"do(?:ing)?\b|when (?:will|do) you|after work|go to bed)", re.I)
_HE_DOES = re.compile(r"(?:^|[.!?;]\s+|,\s*|\band\s+)(?:he|she)\s+(?!is\b|was\b)[a-z]+s\b", re.I)


def steps_out(text: str, me: str, question: str = "") -> bool:
    """The answer speaks of the prompt, or of the speaker in the third person ("Samuel woke up and
    found his kitchen messy": its own name, and no I, me or my; "he practices ..." asked of its own day)."""
    if OUT_OF_TOWN.search(text) or _REGION.search(text) or echoes_rules(text) or assistant_voice(text) or \
            text.lower().startswith(me.lower() + " "):  # (Rosa's "I'm sorry, but I can't assist with that request")
        return True
    first, mine = me.split()[0], re.search(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine)\b", text)
    if not mine and _OWN_DAY_Q.search(question) and _HE_DOES.search(text):
        return True
    return bool(re.search(rf"\b{re.escape(first)}\b", text)) and not mine


RULE_GRAM = 5


def _rule_grams(n: int = RULE_GRAM) -> frozenset[tuple[str, ...]]:
    """The runs of ``n`` words of the interview prompt's rules (interview.txt's system part, less
    the line that says who the resident is)."""
    text = (Path(__file__).parent / "interview.txt").read_text(encoding="utf-8")
    system = text.split("[user]")[0].splitlines()[2:]  # ([system], "You are $name, ...")
    words = re.findall(r"[a-z']+", " ".join(system).lower())
    return frozenset(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


_RULES: list[frozenset[tuple[str, ...]]] = []


def echoes_rules(text: str) -> bool:
    """Whether ``text`` says a run of five words of the prompt's rules (Grace on b5e348b, asked of
    the town's mayor: "I hope that the town can find a time of day, use your plan for today.")."""
    if not _RULES:
        _RULES.append(_rule_grams())
    words = re.findall(r"[a-z']+", text.lower())
    return any(tuple(words[i:i + RULE_GRAM]) in _RULES[0] for i in range(len(words) - RULE_GRAM + 1))


# a grader's or an editor's aside run on from the answer (Samuel on b765e22's save: "plans for the surprise party
# for Grace's answer is correct because Grace is ...", "a retired pianist and music teacher's note: Grace Okafor is")
_ASIDE = re.compile(r"['’]s\s+(?:note|answer|response|explanation)\s*:|(?:^|(?<=[.!?(]))\s*(?:note|explanation)\s*:"
                    r"|(?:['’]s)?\s*\b(?:(?:the|this|my|your)\s+)?(?:answer|response|explanation|reasoning)"
                    r"\s+(?:is|was)\s+(?:correct|incorrect|accurate|wrong|right)\b", re.I)


def cut_aside(text: str) -> str:
    """``text`` up to an aside about the answer itself, closed with a full stop; as it was when none."""
    m = _ASIDE.search(text)
    if m is None:
        return text
    kept = text[:m.start()].rstrip(" ,;:-(")
    return kept + ("." if kept and kept[-1] not in ".!?" else "")
