"""Rules for the words of a model's action, so that what others see of a resident reads as
English: "Rosa is preparing breakfast", not "Rosa is prepare breakfast".

The 1.5B model wrote 40% of its decomposed steps of a recorded morning as a bare verb ("prepare
breakfast", "commute to Bluebell Cafe", "meet Samuel") although the prompt's example has "brewing
coffee"; the text goes into every sight ("Ines Moreau is commute to Bluebell Cafe"), every memory
of it and every prompt that shows where someone is.  Only a first word that is a known verb is
changed, so a step that does not start with one ("breakfast at home") stays as it was.

Pure functions; the answer schemas use them (game/mind/schemas.py), and so do the talk's lines and the
identity summary for where a cut-off text ends (``whole_sentences``).
"""

from __future__ import annotations

import re

# verbs that begin a daily step; a first word not listed is left as it is
VERBS = frozenset("""
accept add admire adjust answer apologise apologize arrange arrive ask assemble attend bake bathe commute
begin bike borrow bring browse brush build buy call calm carry catch celebrate change chat check
choose chop clean clear climb close collect comb come compose complete congratulate consider continue cook count cover
create cross cut dance deal decide decorate deliver design dig discuss do draft draw dress drink
drive drop dry dust eat email end enjoy enter examine exercise explain explore feed fetch file fill
find finish fix fold follow gather get give go grab greet grill grind guide hand hang have head help
hide hike host hug hurry inform inspect invite iron join jog keep knead knit learn leave let lie
listen load lock look make meditate meet mend mix mop move nap note open order organise organize
pack paint park pass pay pick plan plant play polish post pour practice practise prepare present
print promise pull push put rake reach read rearrange rehearse relax remind repair reply rest return
review ride rinse run say scrub search see sell send serve set sew share shave shop shower sing sip
sit sketch skim sleep slice sort speak spend start stay step stir stock stop store stretch stroll
study sweep swim take talk taste teach tell thank think tidy toast touch tour train travel try tune
turn type unlock unpack update vacuum visit vote wait wake walk wander warm wash watch water wave
weed welcome wipe wish work wrap write
""".split())

_ING = {"be": "being", "see": "seeing", "begin": "beginning", "panic": "panicking"}
_VOWELS = "aeiou"


def ing(verb: str) -> str:
    """The -ing form of a verb: make -> making, lie -> lying, shop -> shopping, visit -> visiting."""
    v = verb.lower()
    if v in _ING:
        return _ING[v]
    if v.endswith("ie"):
        return v[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")) and len(v) > 2:
        return v[:-1] + "ing"
    syllables = len(re.findall(r"[aeiouy]+", v))
    if (syllables == 1 and len(v) >= 3 and v[-1] not in _VOWELS + "wxy" and v[-2] in _VOWELS
            and v[-3] not in _VOWELS):
        return v + v[-1] + "ing"  # one syllable ending consonant-vowel-consonant: shop, sit, plan
    return v + "ing"


def as_doing(action: str) -> str:
    """An action as what someone is doing: a first word that is a bare verb takes its -ing form
    ("prepare breakfast" -> "preparing breakfast"); anything else is returned as it is."""
    m = re.match(r"(\s*)([A-Za-z]+)\b", action)
    verb = bare_verb(m.group(2).lower()) if m is not None else None
    if m is None or verb is None:
        return action
    word = ing(verb)
    if m.group(2)[0].isupper():
        word = word[0].upper() + word[1:]
    return action[:m.start(2)] + word + action[m.end(2):]


def bare_verb(word: str) -> str | None:
    """A known verb as ``word`` or in its third person ("goes", "tells", "tidies": Nora's steps
    were written "nora Lindqvist goes to Bluebell Cafe", 75fad48's day); None for any other word."""
    if word in VERBS:
        return word
    if word in ("has", "does"):
        return {"has": "have", "does": "do"}[word]
    for end, put in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(end) and word[:-len(end)] + put in VERBS:
            return word[:-len(end)] + put
    return None


# words a cut sentence does not end on: "visiting the hardware store to get the latest tools and"
_DANGLING = frozenset("a an and the to for of with at in on or but from by about into as".split())


def whole_words(text: str, max_len: int) -> str:
    """Text that the answer's length limit cut off (``max_len`` characters) loses its last,
    broken word and any joining word left dangling: "... the cafe counter being id" -> "... the
    cafe counter being", "... the latest tools and ge" -> "... the latest tools"."""
    if len(text) < max_len or " " not in text.strip():
        return text
    text = text[:text.rstrip().rfind(" ")].rstrip(" ,;:-")
    words = text.split(" ")
    while len(words) > 2 and words[-1].lower() in _DANGLING:  # "... tools and" -> "... tools"
        words.pop()
    return " ".join(words).rstrip(" ,;:-")


def whole_sentences(text: str, near: int) -> str:
    """Text cut off by the answer's length limit (``near`` characters or more, not ending a
    sentence) ends at its last whole sentence; the one sentence it has stays as it is."""
    if len(text) < near or text[-1:] in ".!?\"'":
        return text
    cut = max(text.rfind(". "), text.rfind("! "), text.rfind("? "))
    return text[:cut + 1] if cut > 0 else text


# how a line that answers the one before begins: not the end of a sentence that line left unfinished
_OPENER = re.compile(r"^\W*(?:yes|no|oh|ah|hi|hello|hey|well|sure|ok|okay|thanks|thank|i|i'm|it|it's|that|"
                     r"really|great|good|wow|sounds|of course|me|you|we)\b", re.I)


def less_run_on(text: str) -> str:
    """A line less its first few words when they end a sentence the line before left unfinished (Eli's
    "... a pub quiz at The Copper", then Aiko's "Kettle today. Do you have any plans?", on 6186d53's
    day): a first sentence of four words or fewer that no answer begins with; the line as it is
    otherwise."""
    first, _, rest = text.partition(". ")
    if rest and len(first.split()) <= 4 and not _OPENER.match(first) and not first.endswith(("!", "?")):
        return rest.strip()
    return text


def fit_action(text: str, max_len: int) -> str:
    """An action as others read it, within ``max_len`` characters: a bare verb first made "-ing"
    and a last word the length limit broke dropped (the "-ing" itself may take it over the
    limit: "start helping Samuel ..." of 60 characters is 62 as "starting ...")."""
    cut = len(text) >= max_len
    text = as_doing(text)
    if cut or len(text) > max_len:
        text = whole_words(text[:max_len], max_len)
    return text
