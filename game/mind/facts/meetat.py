"""An hour a resident says it will be somewhere, or meet someone, held to what it holds (issue 39):
Hank, in the pub at 21:36 with the quiz at 20:00, said "I'll be there at 22:00"; his plan has him
getting ready for bed until then.  The hour must begin a block of its plan, begin or end a gathering
it holds, or be said in its own text, its recent memories or this talk; or begin what another's
known point says on the same thing ("the pub quiz at 8pm every Monday").  The engine's ``TalkFacts``
asks it of every resident's line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from game.mind.facts.hours import clock_times, stems

SLACK = 15  # minutes either side of a held hour
# its own coming presence or a meeting, at an hour ("I'll be there at 22:00", "see you at 7", "let's meet at noon")
_AT = r"\b(?:at|around|by)\s+(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?\s?m\b\.?)?|noon|midday)"
_MEET_AT = re.compile(r"\b(?:I'll|I will|I'm going to|I am going to|we'll|we will|let's|let us|see you|meet(?:ing)?|"
                      r"be there|come (?:by|over|round)|stop by|drop by|swing by)\b[^.!?]*?" + _AT, re.I)
_WORDS = {"there", "meet", "meeting", "see", "come", "stop", "drop", "swing", "tonight", "later", "then", "around",
          "looking", "forward"}


# opening hours ("It's going to be open from 8 AM to 2 PM every day", Felix of the stall he opens on
# Saturday, on 2c4c6ac's day: nothing in the town gives it hours); both hours of the range must be held
_OPEN_FROM = re.compile(r"\bopen(?:s|ed)?\b[^.!?]*?\b(?:from|between)\s+\d{1,2}(?::\d{2})?\s*"
                        r"(?:[ap]\.?\s?m\b\.?)?\s*(?:to|until|till|and|-)\s*\d[^.!?]*", re.I)


def says_an_hour(sent: str) -> bool:
    """Whether ``sent`` has the speaker somewhere, or meeting someone, at an hour, or says opening hours
    (what ``time_unheld`` checks): a cheap test first, so that what backs an hour is gathered only for
    those sentences."""
    return _MEET_AT.search(sent) is not None or _OPEN_FROM.search(sent) is not None


def time_unheld(sent: str, starts: Iterable[int], texts: Sequence[str], points: Sequence[str] = ()) -> str:
    """Why ``sent`` says an hour the speaker holds nothing at, else "": ``starts`` the hours its plan's
    blocks begin at and its gatherings begin and end at; ``texts`` what it has in words (its own
    text, recent memories, this talk's lines), any hour of which backs; ``points`` others' known points,
    whose hours back a sentence on the same thing."""
    m, opening = _MEET_AT.search(sent), _OPEN_FROM.search(sent)
    said = clock_times(m.group(0)) if m else []
    hours = clock_times(opening.group(0)) if opening else []
    if not said and not hours:
        return ""
    ok = set(starts) | {t for x in texts for t in clock_times(x)}
    about = stems(sent, _WORDS)
    ok |= {t for p in points if about & stems(p, _WORDS) for t in clock_times(p)}
    for t in [*said[-1:], *hours]:
        if not any(abs(t - h) <= SLACK for h in ok):
            return f"an hour it holds nothing at ({t // 60:02d}:{t % 60:02d})"
    return ""
