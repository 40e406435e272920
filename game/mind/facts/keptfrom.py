"""One a gathering is kept from, said to know of it or to talk it over (issue 39).  Samuel, who
prepares Grace's surprise party, asked on 1703955's save (2026-12-01): "I talked with Grace Okafor
tomorrow, discussing plans for their surprise party", and "She is also interested in my plans for the
surprise party" (of Grace).  What the records hold is that she must not know.

A sentence that speaks of a gathering the speaker holds, and has one it is kept from as the one who
knows, talks, plans, asks or cares about it (named, or "she"/"he" after a sentence that names them),
says what is not so.  The gathering's own words ("Grace's 60th birthday", "a party for Grace") and
the keeping ("without Grace finding out", "Grace must not know") are not that.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import Fact
from game.mind.facts.leaning import kept_apart, names_by_pronoun
from game.mind.facts.unbacked import by_first, place_aliases, sentences
from game.mind.facts.when import word_list

_KNOWS = re.compile(r"\b(?:talk\w*|discuss\w*|plan\w*|told|tell\w*|knows?|knew|interest\w*|excit\w*|help\w*|ask\w*|"
                    r"mention\w*|chat\w*|said|says|agree\w*|look\w* forward|can't wait|cannot wait|heard|"
                    r"decid\w*|organi[sz]\w*|prepar\w*|invit\w*)\b", re.I)
_KEPT = (r"\b(?:without\s+{n}\s+(?:finding out|knowing|noticing|suspecting)|{n}\s+(?:must|mustn't|must not|can't|"
         r"cannot|can not|shouldn't|should not|won't|will not|doesn't|does not|didn't|did not|never)\s+"
         r"(?:\w+\s+)?(?:know|find out|learn|hear|suspect)|(?:secret|hidden|kept)\s+from\s+{n}|{n}\s+has\s+no\s+idea|"
         r"surpris\w*\s+{n}|(?:not|n't|n’t|never)\s+(?:to\s+)?(?:tell|mention\w*\s+(?:it\s+)?to|let)\s+{n}|"
         r"keep\s+(?:it|this|that)\s+(?:a\s+secret\s+)?from\s+{n})")
_OWN_WORDS = r"\b{n}['’]s\b|\b(?:for|honou?r(?:ing)?|celebrat\w*)\s+{n}\b"
_PRONOUN = re.compile(r"^\s*(?:and\s+|but\s+|also\s+)?(?:she|he)\b", re.I)


def _names(who: str) -> str:
    first = who.split()[0]
    return rf"(?:{re.escape(who)}|{re.escape(first)})"


def kept_one_in_the_know(parts: Sequence[str], held: Sequence[Fact], people: Sequence[str]) -> list[tuple[str, str]]:
    """Each sentence of ``parts`` (an answer's or a line's sentences, in order) that has one a gathering
    of ``held`` is kept from know of it or talk it over, with why."""
    out: list[tuple[str, str]] = []
    held = [f for f in held if f.secret_from]  # (most lines of most residents: none, and nothing to read)
    if not held:
        return out
    last = ""  # the last one named in the sentences before, not as the gathering's own words
    index = by_first(tuple(people))
    for sent in parts:
        named = []  # (only those the sentence names by first name: a thousand residents' town, a regex each)
        for p in [p for c in dict.fromkeys(re.findall(r"\b[A-Z][a-z]+\b", sent)) for p in index.get(c, ())]:
            n = _names(p)
            bare = re.sub(_OWN_WORDS.format(n=n), " ", sent)
            if re.search(rf"\b{n}\b", bare):
                named.append((p, bare))
        for f in held:
            if not f.speaks_of(sent) or not _KNOWS.search(sent):
                continue
            who = [p for p, bare in named if p in f.secret_from]
            by = [_names(p) for p in who]
            if not who and last in f.secret_from and _PRONOUN.search(sent):
                who, by = [last], ["(?:she|he)"]
            who = [p for p, n in zip(who, by, strict=True) if not re.search(_KEPT.format(n=n), sent, re.I)]
            if who:
                first = who[0].split()[0]
                out.append((sent, f"{first} must not know of the {f.bare_what}: {first} knows nothing of it"))
                break
        last = named[-1][0] if named else last
    return out


_FOR_ME = re.compile(r"\b(?:for|of|honou?ring|celebrating)\s+me\b|\bmy\s+(?:own\s+)?(?:\d+\w*\s+)?birthday\b", re.I)


def honoured_as_me(sent: str, speaker: str, held: Sequence[Fact], before: str = "") -> str:
    """Why ``sent`` (``before``: the sentence before it, which "it" may name), of a gathering of ``held`` for
    someone else, has it be for the speaker ("I'm helping Samuel Okafor prepare it for me", Rosa of Grace's
    party on 1703955's day), else ""."""
    if not _FOR_ME.search(sent):
        return ""
    for f in held:
        if f.honoree and f.honoree != speaker and (f.speaks_of(sent) or re.search(r"\bit\b", sent, re.I)
                                                    and f.speaks_of(before)):
            return f"the {f.bare_what} is for {f.honoree.split()[0]}, not {speaker.split()[0]}"
    return ""


# asked whether they heard of it ("Have you heard anything about the debate at Town Hall?", Samuel to Grace, its host,
# on 356ade6's day)
_HEARD_Q = re.compile(r"\b(?:have|did|had) you (?:heard|hear)\b[^.!?]*\?", re.I)


def host_asked_if_heard(sent: str, listeners: Sequence[str], held: Sequence[Fact]) -> str:
    """Why ``sent`` asks a listener whether they heard of a gathering the listener hosts, else "" (a host
    knows of its own gathering: the line has the roles the wrong way round)."""
    if not _HEARD_Q.search(sent):
        return ""
    words = set(word_list(sent))  # (a word of it is enough here: "the debate")
    f = next((f for f in held if f.host in listeners and (f.speaks_of(sent) or f.keywords() & words)), None)
    return f"asks {f.host} whether they heard of their own {f.what}" if f else ""


def veiled(text: str, subject: str, kept: Sequence[Fact]) -> str:
    """A sight of ``subject`` (``text``: "Ines Moreau is listening to Samuel Okafor about the surprise party
    (the cafe of Bluebell Cafe)") as one that ``kept`` are kept from sees it: what it is doing, when it
    speaks of one of them, is not seen (Grace saw that sight on 75fad48's day and held her party as news)."""
    return _busy(text, subject) if any(f.speaks_of(text) for f in kept) else text


def role_veiled(text: str, subject: str, observer: str,
                secret_roles: Sequence[tuple[str, str, tuple[str, ...]]]) -> str:
    """A sight of ``subject`` as ``observer`` sees it, when ``subject`` holds a role the town keeps secret
    (``TownNames.secret_roles``: holder, role, who knows) that the observer does not know: what it is doing,
    when it names the role ("Kenji Tanaka is writing Millbrook Owl", seen by Felix on 75fad48's day), is
    not seen.  The role is named by its quoted words ("the anonymous 'Millbrook Owl' column"), else its last two."""
    for holder, role, knowers in secret_roles:
        if holder != subject or observer in knowers:
            continue
        quoted = re.search(r"['\"‘“](?P<q>[^'\"’”]{3,40})['\"’”]", role)
        key = quoted.group("q") if quoted else " ".join(role.split()[-2:])
        if re.search(rf"\b{re.escape(key)}\b", text, re.I):
            return _busy(text, subject)
    return text


def _busy(text: str, subject: str) -> str:
    m = re.search(r"\((?P<where>[^()]*)\)\s*$", text)
    return f"{subject} is busy ({m.group('where')})" if m else f"{subject} is busy"


def _place_said(text: str, place: str) -> bool:
    return any(re.search(rf"\b{re.escape(a)}\b", text, re.I) for a in place_aliases(place))


def _untold(sent: str, f: Fact, lines: Sequence[tuple[str, str]], here: str) -> str:
    said, host = " ".join(t for _, t in lines), rf"\b{_names(f.host)}\b" if f.host else ""
    if host and re.search(host, sent) and not re.search(host, said) and not any(
            w == f.host and f.speaks_of(t) for w, t in lines):
        return f"{f.host} hosts {f.bare_what}"
    if f.place and _place_said(sent, f.place) and not _place_said(said, f.place) and here.split(":")[0] != f.place:
        return f"{f.bare_what} is at {f.place}"
    return ""


def news_untold(text: str, fresh: Sequence[Fact], lines: Sequence[tuple[str, str]], here: str,
                fixes: list[str]) -> str:
    """``text`` without its statements that give a gathering's host or place that its speaker heard of in
    this very talk (``fresh``) from lines that did not say them: Nora at 06:52 on a dawn of 0e42de2
    (2026-12-02), "Yes, Samuel Okafor has a surprise party planned for Grace's 60th birthday at Bluebell
    Cafe", after Ines had asked her only "what's happening with the surprise party for Grace's 60th
    birthday tomorrow?" (and a sentence after it that speaks of them as "he" or "she").  A host who said it of
    itself, and the place the talk is at, were said."""
    def bad(sent: str) -> bool:
        of = [] if sent.rstrip().endswith("?") else [f for f in fresh if f.speaks_of(sent)]
        why = next((w for f in of if (w := _untold(sent, f, lines, here))), "")
        fixes.extend([f"heard in this talk without it: {why}"] if why else [])
        return bool(why)
    return " ".join(kept_apart(sentences(text) or [text], bad, names_by_pronoun))
