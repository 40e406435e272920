"""What an interview answer says of others, held to what the resident holds of each (issue 39).

Read on the interviews: Nora's words of Hank said of another ("Hank Brody is an old acquaintance, a
dear friend, but she cannot keep a secret"), and, in the panel of 0e6b5f2, Ines "working as a barista
at Rosa's bakery stall" (the stall is Felix's: his persona's doing this week, nothing of Rosa's).
Pure rules over the town's declared data (``TownNames``): no model call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from game.mind.facts.fact import TownNames
from game.mind.facts.kinof import kin_unheld
from game.mind.facts.ownpoints import point_given_to_another
from game.mind.facts.unbacked import sentences
from game.mind.persona import Persona


def said_of_others(answer: str, me: str, persona: Persona, town: TownNames, identity: str = "") -> list[str]:
    """The sentences of ``answer`` that say of one person what is another's: the words of the
    resident's relationships (``relation_words_mixed``), the resident's own self (its doings, its
    summary ``identity``, its days: ``own_as_third``, ``self_as_anothers``), or a resident's doing this
    week given to a third as theirs ("Rosa's bakery stall", Felix's; ``ownpoints.point_given_to_another``)."""
    out = relation_words_mixed(answer, persona.relationships, town.roles, town.people)
    out += [s for s in kin_unheld(answer, town) if s not in out]  # ("Rosa Brody's daughter": she has none)
    out += own_as_third(answer, town.doings.get(me, ()))
    out += [s for s in self_as_anothers(answer, own_words(persona, identity)) if s not in out]
    named = [p for p in town.people if p != me and re.search(rf"\b{re.escape(p.split()[0])}\b", answer)]
    if not town.doings or not named:  # (a third's doing is given only to one the answer names)
        return out
    public = " ".join(f"{p} is {r}" for p, rs in town.roles.items() for r in rs)
    # each one's own life: its doings, less what they say of another ("a crush on Felix Adeyemi, the new
    # baker" makes no bakery Rosa's), and its workplace; its relationships speak of others
    about = re.compile(rf"\b(?:{'|'.join(re.escape(p) for p in town.people)}),\s+[^,.;]+")
    lives = {p: " ".join([*(about.sub("", d) for d in town.doings.get(p, ())), town.workplaces.get(p, "")])
             for p in named}
    for sent in sentences(answer):
        if sent not in out and point_given_to_another(sent, me, [], town.doings, lives, town.people, public=public,
                                                      places=town.places, gatherings=tuple(town.parts)):
            out.append(sent)
    return out


def own_as_third(answer: str, mine: Sequence[str]) -> list[str]:
    """The sentences of ``answer`` that tell the resident's own doing (``mine``: its persona's words) of
    a "she" or a "he" ("I talked with Rosa Brody, Samuel Okafor, Ines Moreau, and Nora Lindqvist today.
    She also discussed the public debate at the Town Hall council chamber on Wednesday at 7pm, which she
    is preparing for", Grace of her own debate, on 0e6b5f2's save): its own life said as another's."""
    phrases = {" ".join(w[i:i + 6]) for d in mine for w in [re.findall(r"[a-z0-9']+", d.lower())]
               for i in range(max(0, len(w) - 5))}
    return [s for s in sentences(answer) if re.match(r"^\W*(?:She|He)\b", s)
            and any(p in " ".join(re.findall(r"[a-z0-9']+", s.lower())) for p in phrases)]


def own_words(persona: Persona, identity: str) -> str:
    """What the resident says of itself: its summary, and the fixed parts of its days as its file words them
    ("work behind the counter at Bluebell Cafe"), one sentence each (for ``self_as_anothers``)."""
    return " ".join([identity.strip(), *(f"{sh.what}." for sh in persona.schedule)]).strip()


_PRONOUN = {"her", "his", "their", "me", "my", "him", "them"}


def _plain(text: str) -> str:
    """Words only, a possessive or an object as "x" ("serves her coffee" and "serves me coffee" are one)."""
    return " ".join("x" if w in _PRONOUN else w for w in re.findall(r"[a-z']+", text.lower()))


def self_as_anothers(answer: str, own: str, span: int = 5) -> list[str]:
    """The sentences of ``answer`` not of the resident itself (not begun by "I", "my": ``_OF_SELF``) that
    say five words running of its own summary and days ``own`` (``own_words``).  On 487f002's save,
    Rosa's plans for tomorrow, after Grace was named: "She will also continue working behind the counter
    at Bluebell Cafe"; and asked of the mayor: "I think the mayor, Grace Okafor, is a kind, dedicated
    person who values her time and relationships. She is fair to her boss and admires the mayor's
    leadership" (her summary: "I am a kind, dedicated person who values my time and relationships. I am
    fair to my boss and admire the mayor's leadership")."""
    phrases = {" ".join(w[i:i + span]) for part in sentences(own) for w in [_plain(part).split()]
               for i in range(len(w) - span + 1)}
    if not phrases:
        return []
    return [s for s in sentences(answer) if not _OF_SELF.match(s) and any(p in _plain(s) for p in phrases)]


_OPINE = r"\s+(?:think|believe|feel|guess|find|would say)\b"
# a sentence of the resident itself: "I ...", "My ...", not "I think the mayor is ..." (but "I think I am ...")
_OF_SELF = re.compile(rf"^\W*(?:(?:I|I'm|I’m|I've|My|Me)\b(?!{_OPINE})|I{_OPINE}\s+(?:that\s+)?(?:I|I'm|I’m|my)\b)")


def relation_words_mixed(answer: str, relationships: Mapping[str, str],
                         roles: Mapping[str, Sequence[str]] = {},  # noqa: B006 (read only)
                         people: Sequence[str] = ()) -> list[str]:
    """The sentences of ``answer`` that say of one person (named, by first name when ``people`` has it,
    "she" after a name, or "the mayor" by ``roles``) what the resident's relationships say of another
    ("Hank Brody is an old acquaintance, a dear friend, but she cannot keep a secret": Nora's words; "the
    mayor is demanding but fair": Ines's; "Ines is a kind young woman who serves her coffee", Grace's of Rosa)."""
    firsts = {p.split()[0]: p for p in people}
    out = []
    last = ""  # the one a "She is ..." sentence speaks of: the last named by full name before it
    for sent in sentences(answer):
        low = _plain(sent)
        named = re.search(r"\b[A-Z][a-z]+ [A-Z][a-z]+", sent)  # someone else named by full name
        lone = re.match(r"^\W*(?P<n>[A-Z][a-z]+)\b(?! [A-Z])", sent)  # or by first name, as the subject
        named = named or (lone if lone and lone.group("n") in firsts else None)
        by_role = next((w for w, rs in roles.items() for r in rs if not r.startswith("candidate")
                        and re.search(rf"\bthe {re.escape(r)}\b", sent, re.I)), "")
        of = named.group(0) if named else (last if re.match(r"^\W*(?:She|He)\b", sent) else by_role)
        for who, text in relationships.items():
            words = [_plain(p).split() for p in re.split(r"[;,]", text)]
            phrases = [" ".join(w[i:i + 5]) for w in words for i in range(max(0, len(w) - 4))]
            phrases += [" ".join(w) for w in words[1:] if len(w) >= 3]  # a whole part: "demanding but fair"
            if any(p in low for p in phrases) and who.split()[0] not in sent and of and who.split()[0] not in of:
                out.append(sent)
                break
        last = named.group(0) if named else last
    return out
