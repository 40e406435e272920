"""Another's thing given to the one spoken to (issue 39): a small model writing both sides of a
talk hands the listener what is the speaker's, or a third's ("I know you have some experience
teaching music", Samuel to Grace: the music is his; "enjoy the music and lessons you're giving
out", the same; "I heard about your store", Felix to the pharmacist: the store is Hank's).

A resident's things are the content words of its own text (background and what it is busy with)
that at most two residents' texts have: "music", "piano", "store", "pharmacy", "quiz".  A sentence
said to one listener that speaks of "you" and has such a word of another, which nothing of the
listener's (its text, its doings, the talk so far, what the speaker heard) has, is not said.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from game.mind.facts.fact import Fact
from game.mind.persona import Persona

# words too common to be anyone's own (function words, everyday verbs, the town's small talk)
COMMON = frozenset("""
a an the and or but if so to of in on at by for with from as is are was were be been being am i you he she
they we it me him her them us my your his their our its this that these those there here what which who whom
whose when where why how not no yes do does did done have has had will would can could shall should may might
must just also too very really about up down out over again then than now today tonight tomorrow yesterday
morning afternoon evening day days week weeks years year one two much many lot lots time way thing things
something anything everything nothing bit little big new old own because almost cannot still before after since
while even more most less only ever always never next last first someone anyone everyone people town keep keeps
kept make made take took give gives tell told talk ask know knows think thinks thought want wants need needs
like likes love loves hope sure great good best better well look find found help start stay work plan plans
prepare same other another every each both such meet public question questions heard hear says said name
names life home house family friend friends place places while whether wife husband son daughter idea ideas""".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
_YOU = re.compile(r"\b(?:you|your|yours)\b|\byou['’](?:re|ve|d|ll)\b", re.I)
# a candidacy is a campaign: the words that go with a role the town's table gives (roles.json)
_ROLE_WORDS = {"candidate": "campaign election vote votes posters debate", "mayor": "campaign election town hall"}


def own_text(p: Persona) -> str:
    """A resident's own words of itself: its background, what it is busy with, its fixed days' parts
    ("tend the vegetable patches in the community garden", Nora's, given to Kenji on eaef4b9's day)."""
    return " ".join([p.background, p.currently, *(f"{sh.what}." for sh in p.schedule)])


def stem(word: str) -> str:
    """A crude stem: "lessons" -> "lesson", "stores" -> "store" (what both texts say alike)."""
    w = word.lower().strip("'’")
    for suf in ("'s", "’s", "ers", "er", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[:-len(suf)]
    return w


def _content(text: str) -> list[str]:
    """The words of ``text`` that could be someone's own: not names, not common, not verbs' -ed,
    -ing forms nor adverbs."""
    return [w for w in _WORD.findall(text) if not w[0].isupper() and len(w) >= 4 and w.lower() not in COMMON
            and not re.search(r"(?:ed|ing|ly)$", w.lower())]


def owned_words(texts: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Each content word's stem -> the residents whose own text has it, for the words at most two
    residents' texts have."""
    owners: dict[str, set[str]] = {}
    for who, text in texts.items():
        for w in _content(text):
            owners.setdefault(stem(w), set()).add(who)
    return {w: frozenset(ps) for w, ps in owners.items() if len(ps) <= 2}


def backing_words(*texts: str) -> set[str]:
    """The stems of ``texts`` and of the words their roles bring ("candidate": "campaign")."""
    joined = " ".join(texts)
    extra = " ".join(words for role, words in _ROLE_WORDS.items() if role in joined.lower())
    return {stem(w) for w in _WORD.findall(f"{joined} {extra}")}


# "you" as an object ("talk to you about", "see you at"), not the one a thing is given to
_NOT_OBJECT = "".join(rf"(?<!\b{v} )" for v in "to with for about see meet thank tell ask help".split())


def _given_to_you(sent: str, word: str) -> bool:
    """Whether ``sent`` gives ``word`` to "you": "your store", "you have some experience teaching
    music", "the music and lessons you're giving out"; not "I'm here to talk to you about the council"."""
    w = re.escape(word)
    return bool(re.search(rf"\byour\s+(?:[\w-]+\s+){{0,2}}?{w}\b", sent, re.I)
                or re.search(rf"{_NOT_OBJECT}\byou(?:['’](?:re|ve))?\s+(?:[\w'’-]+\s+){{0,5}}?{w}\b", sent, re.I)
                or re.search(rf"\b{w}(?:\s+and\s+[\w-]+)?\s+(?:that\s+|which\s+)?you(?:['’]re|\s+are)\b", sent, re.I))


def _as_verb(sent: str, word: str) -> bool:
    """Whether ``word`` is a verb in ``sent``: after "to", a modal or a subject ("you're planning to
    attend", "your husband Kenji writes"): an act, not a thing of someone's."""
    return re.search(rf"(?:\b(?:to|I|you|he|she|we|they|will|can|would|could|should|might|must)|['’]ll|"
                     rf"\b[A-Z][a-z]+)\s+{re.escape(word)}\b", sent) is not None


def anothers_given(sent: str, listeners: list[str], owned: Mapping[str, frozenset[str]],
                   backed: set[str] | Callable[[], set[str]]) -> str:
    """Why ``sent``, said to the one listener, gives it a thing of another's (``owned``) that nothing
    of the listener's (``backed``: backing_words, or what makes them when needed) has, else "".
    Questions ask, they do not claim."""
    if len(listeners) != 1 or sent.rstrip().endswith("?") or not _YOU.search(sent):
        return ""
    if callable(backed):
        backed = backed()
    for w in _content(sent):
        if _as_verb(sent, w):
            continue
        s = stem(w)
        owners = owned.get(s)
        if owners and listeners[0] not in owners and s not in backed and _given_to_you(sent, w):
            whose = " and ".join(sorted(p.split()[0] for p in owners))
            return f"the {w.lower()} is {whose}'s, not {listeners[0].split()[0]}'s"
    return ""


_SELLING = re.compile(r"\b(?:sell|sells|selling|sold|for sale|to (?:my )?customers)\b", re.I)
_BUYING = re.compile(r"\b(?:buy|buys|buying|bought|get some|order(?:ed)? some)\b", re.I)
_MINE = re.compile(r"\b(?:I(?:'m|’m| am| was| will|'ll|’ll| need to| have to|'ve got to)?|my|our)\b")


def goods_taken(sent: str, speaker: str, owned: Mapping[str, frozenset[str]],
                mine: set[str] | Callable[[], set[str]]) -> str:
    """Why ``sent`` has the speaker sell another's goods as its own ("I need to make sure all the bread is
    ready to be sold", Kenji, the pharmacist, to Felix, the baker, on 654b82e's day), else "": a sentence
    of selling in the first person, not of "you", with a word of another's own text (``owned``) that
    nothing of the speaker's (``mine``: backing_words of its text and the talk, or what makes them when
    needed) has.  Questions ask."""
    if not _SELLING.search(sent) or _BUYING.search(sent) or not _MINE.search(sent) or _YOU.search(sent) \
            or sent.rstrip().endswith("?"):
        return ""
    if callable(mine):
        mine = mine()
    for w in _content(sent):
        s = stem(w)
        owners = owned.get(s)
        if owners and speaker not in owners and s not in mine and not _as_verb(sent, w):
            return f"the {w.lower()} is {' and '.join(sorted(p.split()[0] for p in owners))}'s to sell"
    return ""


def kept_words(told: Iterable[str], name: str, own: str) -> set[str]:
    """The stems of the words that tell of a thing kept from one (``told``: its holders' sentences of
    it; "making the cake", of Grace's surprise party), less the thing's name's and the one's ``own``."""
    return {stem(w) for s in told for w in _content(s)} - backing_words(own, name)


def hints_by_word(sent: str, kept: set[str], owned: Mapping[str, frozenset[str]]) -> str:
    """Why ``sent``, said by one a thing is kept from, has a word that is its holders' alone and tells
    of it (Grace to Samuel on eaef4b9's day: "Can you come over and help make the cake for the cafe?",
    of the party's cake Ines makes), else ""."""
    for w in _content(sent):
        s = stem(w)
        if s in kept and s in owned:
            return f"the {w.lower()} hints at what is kept from the speaker"
    return ""


def kept_hint(sent: str, kept: Sequence[Fact], told: Iterable[str], own: str,
              owned: Mapping[str, frozenset[str]]) -> str:
    """Why ``sent`` hints at one of ``kept`` (things kept from one in the talk: the speaker, or a
    listener) by a word of its holders' sentences of it (``told``) that ``own`` (the one it is kept
    from) lacks, else ""."""
    if not kept or not any(stem(w) in owned for w in _content(sent)):
        return ""  # (most sentences have no one's own word: the holders' sentences are not read)
    said = [s for s in told if any(f.speaks_of(s) for f in kept)]
    return hints_by_word(sent, kept_words(said, " ".join(f.what for f in kept), own), owned)
