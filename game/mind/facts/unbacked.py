"""What in a line the town does not back: a person no one in it is, a place it does not have, an
event nothing the speaker holds speaks of (words that step out of the town: interview/stepping.py).
The vetting of a talk's line (factcheck.py) drops such sentences; the interview (interview/backing.py)
asks again.

Pure rules, no model call.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from game.mind.facts.fact import EVENT_RE, TownNames
from game.mind.facts.leaning import kept_apart
from game.mind.facts.when import word_list

PLACE_NOUNS = ("community center", "community centre", "town square", "center", "centre", "hall", "park", "cafe",
               "café", "market", "library", "school", "church", "square", "pub", "restaurant", "store", "shop",
               "bakery", "bar", "gym", "theater", "theatre", "museum", "club", "plaza", "stadium", "hotel")
PLACE_PHRASE = re.compile(r"\b(?:at|in|to|near|by)\s+(?P<p>the\s+(?:[a-z]+\s+){0,2}?(?:"
                          + "|".join(re.escape(n) for n in sorted(PLACE_NOUNS, key=len, reverse=True)) + r"))\b", re.I)
SENTENCES = re.compile(r"(?<=[.!?])\s+")
_NAME = re.compile(r"\b([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\s+([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\b")
_NOT_NAMES = {"I", "The", "A", "An", "As", "At", "In", "On", "And", "But", "So", "If", "My", "Our", "We", "Me",
              "Town", "Hall", "Cafe", "Park", "Market", "Monday", "Tuesday", "Wednesday",
              "Thursday", "Friday", "Saturday", "Sunday", "Day", "Valentine", "Valentine's", "Dear", "Good", "Mr",
              "Mrs", "Ms", "Dr", "Oh", "Yes", "No", "Well", "Hello", "Hi", "Thanks", "Thank", "March", "April",
              "February", "January", "May", "June", "July", "August", "September", "October", "November",
              "December", "Sure", "Great", "See", "Let", "Have", "Do", "Did", "What", "Who", "Where", "When", "How",
              # greetings and openers ("Hey Kenji!" is not a stranger called Hey Kenji)
              "Hey", "Morning", "Evening", "Afternoon", "Bye", "Goodbye", "Cheers", "Welcome", "Congratulations",
              "Sorry", "Please", "Okay", "Ok", "Ah", "Wow", "Listen", "Look", "Remember", "Ask", "Tell", "Meet"}


def people_named(text: str, known: Iterable[str], town: TownNames, me: str) -> list[str]:
    """Full names in ``text`` (two capitalised words) that are no one ``me`` knows: not a known
    person, not the town's place, not ``me``."""
    found = [m for m in _NAME.finditer(text) if m.group(1) not in _NOT_NAMES]
    if not found:  # (most sentences: the sets of a big town's names are made only for one that may need them)
        return []
    known_l = {k.lower() for k in known} | {me.lower()}
    firsts = {k.split()[0].lower() for k in known} | {me.split()[0].lower()}
    lasts = {k.split()[-1].lower() for k in known}
    places = " ".join(town.places).lower()
    out = []
    for m in found:
        a, b = m.group(1), re.sub(r"['’]s$", "", m.group(2))
        if b in _NOT_NAMES:
            continue
        if re.search(r"(?:['\"‘“]|\bthe\s)$", text[:m.start()], re.I):
            continue  # a title, not a person: "the 'Millbrook Owl' column", "the Millbrook Owl"
        full = f"{a} {b}"
        if full.lower() in known_l or full.lower() in places or a.lower() in places.split():
            continue
        if a.lower() in firsts and b.lower() in lasts:
            continue
        out.append(full)
    return list(dict.fromkeys(out))


def _plain(text: str) -> str:
    """Lower case without accents ("café" is "cafe")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


# a place said by another word for a kind the town has ("the shop" of Brody's Supply Store)
_SAME = {"shop": ("shop", "store", "market"), "store": ("store", "shop", "market"), "bar": ("bar", "pub"),
         "restaurant": ("restaurant", "cafe", "pub", "kettle")}


_ROOMISH = frozenset(("store", "shop", "counter", "section", "area", "stand", "aisle", "room", "desk"))


def places_unknown(text: str, town: TownNames) -> list[str]:
    """Places ``text`` names that the town does not have ("the community center"); "the café of
    Bluebell Cafe" names the town's cafe."""
    out: list[str] = []
    found = list(PLACE_PHRASE.finditer(text))
    low_places = [_plain(p) for p in town.places] if found else []  # (a big town has a thousand places)
    for m in found:
        phrase = m.group("p")
        rest = _plain(phrase[4:])
        after = _plain(text[m.end("p"):m.end("p") + 60])
        if after.startswith(" of ") and any(after[4:].startswith(p) or after[4:].startswith("the " + p)
                                            for p in low_places):
            continue
        if any(rest in p or p in rest for p in low_places):
            continue
        noun = rest.split()[-1]
        if rest in town.arenas or noun in town.arenas or (
                len(rest.split()) == 2 and rest.split()[0] in town.arenas and noun in _ROOMISH):
            continue  # "the pub", "the grocery store": a room or space of one of the town's places
        if any(re.search(rf"\b(?:{'|'.join(_SAME.get(noun, (re.escape(noun),)))})\b", p) for p in low_places) \
                and len(rest.split()) == 1:
            continue  # "the cafe": the town has one; "the shop": its store
        out.append(phrase)
    out += rooms_unknown(text, town)
    proper = [m.group(0) for m in _PROPER_PLACE.finditer(text)]
    low_all = [p.lower() for p in town.places] if proper else []  # (read only for a name found)
    return out + [n for n in proper if not any(n.lower() in p or p in n.lower() for p in low_all)]


def rooms_unknown(text: str, town: TownNames) -> list[str]:
    """A room of the town's given to one of its places that has none such ("the living room of Town Hall",
    Grace asked what she would do on hearing shouting, on 160f87f's save: the houses have living rooms,
    Town Hall a lobby and offices); a room no place has ("the ballroom") and one that place has are not."""
    if not town.rooms:
        return []
    out: list[str] = []
    taken: list[tuple[int, int]] = []
    low = _plain(text)
    for place in sorted(town.places, key=len, reverse=True):
        for m in re.finditer(rf"\b{re.escape(_plain(place))}\b", low):
            if any(a <= m.start() < b for a, b in taken):
                continue  # ("Oakhill College dorm" is not Oakhill College)
            taken.append(m.span())
            before = re.search(r"\bthe\s+((?:[a-z'’-]+\s+){0,3}?[a-z'’-]+)\s+(?:of|at|in)\s+(?:the\s+)?$",
                               low[:m.start()])
            own = town.rooms.get(_plain(place), ())
            if before is None or not own:
                continue
            words = before.group(1).split()
            room = next((" ".join(words[i:]) for i in range(len(words)) if " ".join(words[i:]) in town.arenas), None)
            if room is not None and room not in own:
                out.append(f"the {room} of {place}")
    return out


# a place named as a proper name that the town does not have ("a student in the art program at Bluebell
# College", Rosa on b61bcdc's save: the college is Oakhill College)
_PROPER_PLACE = re.compile(r"\b(?!(?:The|A|An|My|Our|Your|His|Her|This|That|At|In|To)\b)[A-Z][a-z]+ (?:[A-Z][a-z]+ )?"
                           r"(?:College|University|School|Academy|Hospital|Clinic|Library|Church|Station|Museum|"
                           r"Gallery|Theatre|Theater|Cinema|Stadium|Hotel)\b")


def events_unbacked(text: str, backing: str) -> list[str]:
    """Events ``text`` tells of (a party, a fair) that nothing in ``backing`` (the facts the speaker
    holds, its memories and persona) speaks of."""
    low = backing.lower()
    out = []
    for m in EVENT_RE.finditer(text):
        noun = m.group(0).lower().rstrip("s")
        if noun not in low:
            out.append(m.group(0))
    return list(dict.fromkeys(out))


_COMMON = {"about", "this", "that", "with", "from", "have", "feel", "feels", "felt", "good", "they", "their",
           "them", "very", "been", "will", "would", "into", "today", "life", "recent", "progress"}


def echoes_example(text: str, example: str, backing: str) -> bool:
    """``text`` repeats the prompt's worked example rather than the speaker's life: two or more of its
    content words come from the example and from nothing the speaker holds (Kenji, a pharmacist, "felt
    good about the song I finished this week": the identity prompt's example, about a music student)."""
    low = backing.lower()
    ex = {w for w in word_list(example) if len(w) >= 4} - _COMMON
    borrowed = {w for w in word_list(text) if w in ex and w not in low}
    return len(borrowed) >= 2


# what may stand before one's own name said of oneself ("I'm Grace Okafor", "call me Grace")
SELF_INTRO = re.compile(r"\b(?:I'm|I am|I’m|name is|this is|it's|it is|call me|called)\s*$", re.I)
_THIRD = (r"(?:'s\s+(?!been\b)[a-z]+|\s+(?:will|would|is|was|has|had|does|did|can|could|should|might|must|"
          r"thinks|says|said|wants|plans|knows|feels|needs|hopes|likes|loves|told|asked|"
          # (a doing: "the cafe Grace visits every morning", said by Grace on 9d99520's interview)
          r"visits|goes|works|runs|lives|keeps|gets|makes|writes|walks|comes|spends|reads|sees|takes|gives|"
          r"brings|helps|talks|tells|cares|worries|enjoys))\b")


def own_name_as_other(sent: str, me: str) -> bool:
    """``sent`` speaks of its own speaker by first name as of someone else, beside its own I ("looking
    forward to seeing what Grace will do", said by Grace: Rosa's words, given to Nora); "I'm Grace",
    "call me Grace" and "Grace, will you" (a name called) stand."""
    first = me.split()[0] if me else ""
    if not first:
        return False
    for m in re.finditer(rf"\b{re.escape(first)}(?:\s+{re.escape(me.split()[-1])})?(?={_THIRD})", sent):
        if not SELF_INTRO.search(sent[:m.start()]):
            return True
    return named_as_object(sent, first)


# words after which a name is someone spoken of ("cooking lunch for Rosa", said by Rosa; "always there to help and
# support Grace", Grace's answer on 1703955's save)
_OBJECT_OF = (r"for|with|to|from|about|tell|told|ask|asked|see|saw|meet|met|help|helps|helping|support|supports|"
              r"visit|visits")


def named_as_object(sent: str, first: str) -> bool:
    """Whether ``sent`` has the first name ``first`` after a word that makes it someone spoken of (not its
    possessive, not a name called: "Thanks for asking, Rosa")."""
    return re.search(rf"\b(?:{_OBJECT_OF})\s+{re.escape(first)}\b(?!['’]s)(?!\s*[,!?])", sent) is not None


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after . ! or ?)."""
    return [s for s in SENTENCES.split(text.strip()) if s.strip()]


def clauses(text: str) -> list[str]:
    """The sentences of ``text`` and their parts between semicolons ("his wife; the party must stay
    a surprise" is two)."""
    return [c.strip() for part in sentences(text) for c in part.split(";") if c.strip()]


@lru_cache(maxsize=16)
def by_first(people: tuple[str, ...], lower: bool = False) -> dict[str, tuple[str, ...]]:
    """The town's people by first name (``lower``: in lower case), made once a town: at a thousand
    residents, the rules that read a line for names went through every resident for every sentence."""
    out: dict[str, tuple[str, ...]] = {}
    for p in people:
        key = p.split()[0].lower() if lower else p.split()[0]
        out[key] = (*out.get(key, ()), p)
    return out


_FOREIGN = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]+")


def drop_unbacked_sentences(text: str, town: TownNames, people: Iterable[str], speaker: str,
                             fixes: list[str]) -> str:
    """The line less its sentences naming a place (or kind of place) the town lacks or a person no one is."""
    if re.search(r"[A-Za-z]", text) and _FOREIGN.search(text):
        text = _FOREIGN.sub("", text).strip()  # a stray run of another script in an English line
        fixes.append("foreign script dropped")
    parts = sentences(text)
    # a sentence that leans on one dropped goes with it ("I'm driving to Bluebell Cafe to lend it for Samuel
    # Okafor's surprise party. He's telling me it's coming up tomorrow", Ines on 160f87f's day: "He" was no one)
    kept = kept_apart(parts, lambda s: bool(places_unknown(s, town) or people_named(s, people, town, speaker)
                                            or (town.lacks is not None and town.lacks(s))))
    # (a line left with nothing stays: the talk goes on)
    if kept and len(kept) < len(parts):
        fixes.append(f"dropped {len(parts) - len(kept)} unbacked sentence(s)")
        return " ".join(kept)
    return text


def place_aliases(place: str) -> list[str]:
    """How people name a place: "Greenway Market and Pharmacy", "Greenway Market"; "The Copper
    Kettle", "Copper Kettle"."""
    out = [place]
    bare = re.sub(r"^the\s+", "", place, flags=re.I)
    out.append(bare)
    if " and " in bare:
        out.append(bare.split(" and ")[0])
    return list(dict.fromkeys(a for a in out if len(a) > 3))


_AMOUNT = re.compile(r"[$£€]\s?\d(?:[\d,.]*\d)?(?:\s?(?:k|m|million|thousand|billion)\b)?"
                     r"|\b\d[\d,.]*\s?(?:million |thousand |"
                     r"hundred )?(?:dollars|pounds|euros|bucks)\b|\b(?:a|one|two|three|five|ten|a few) (?:hundred|"
                     r"thousand|million|billion) (?:dollars|pounds|euros|bucks)\b", re.I)


def amount_unbacked(sent: str, backing: str = "") -> str:
    """An amount of money ``sent`` gives ("the budget for the park is $100,000") that ``backing``
    (what the speaker holds) does not hold, else "": nothing in the town's records has a price."""
    for m in _AMOUNT.finditer(sent):
        if m.group(0).lower() not in backing.lower():
            return f"an amount nobody holds ({m.group(0)})"
    return ""
