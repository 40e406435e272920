"""A whole talk's script as it may be said (``Talker.converse``): the model's lines, each by someone
in the talk and in whole sentences; a line run on from the one before (cut at the schema's length)
is not said; the talk stops at a line that says again what was said; a line does not speak of
another's self, nor of a thing nothing backs (facts/newthings.py).

Pure rules: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from game.mind.facts.linechecks import not_anothers_self, strip_speaker
from game.mind.facts.newthings import without_new_things
from game.mind.facts.unbacked import sentences
from game.mind.planning.wording import less_run_on, whole_sentences
from game.mind.schemas import SAY_MAX, ScriptLine
from game.mind.talk.drawn import from_example


def script_lines(said_lines: Sequence[ScriptLine], by_call: dict[str, str], names: list[str], backed: set[str],
                 count: Callable[..., None], earlier: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The script's lines as they may be said: each by someone in the talk, whole sentences, no
    line run on from the one before, none that says again what was said (the talk stops there, and
    at a line by the speaker of the line before), none of another's self, no thing nothing backs.
    ``earlier``: the lines said before, of a talk that goes on (``talk_so_far``)."""
    lines: list[tuple[str, str]] = []
    before = list(earlier)  # (and each line kept: what a line may not say again, nor take of another's self)
    cut = broken = False  # the line before ran to the schema's length and was cut there; or left a sentence
    for ln in said_lines:
        who = by_call.get(ln.speaker.strip().lower())
        run_on, cut = cut and runs_on(ln.say), len(ln.say) >= SAY_MAX - 10
        if run_on:
            # the model's words ran past the line's length into the next line, under another
            # speaker's name ("and incorporate their ideas. Third, ..."): not this speaker's
            count("script_line_run_on")
            continue
        said = strip_speaker(ln.say, names)
        text = whole_sentences(said, near=180)  # (unfinished: this line's first words may end it)
        text, broken = (less_run_on(text) if broken else text), text != said
        if who is None or not text:
            count("script_line_dropped")
            continue
        if repeats(text, [t for _, t in before]):
            count("talk_in_circles")
            break
        if lines and lines[-1][0] == who:  # one answering itself (Priya's "Can I have a quick look at the quiz
            count("script_same_speaker")  # questions first?", then hers "Sure! I'll look at them right away."):
            break  # the turns are lost from here
        text = not_anothers_self(text, [t for w, t in before if w != who])
        text, found = without_new_things(text, backed, [t for _, t in before])  # "his patients" (has none)
        if found:
            count("script_new_thing", len(found))
        text, copied = _not_from_example(text, backed)  # "the market move": the prompt's example
        if copied:
            count("script_from_example", copied)
        if not text:
            count("script_line_dropped")
            continue
        lines.append((who, text))
        before.append((who, text))
    if lines and said_lines and not re.search(r"[.!?…\"'”’)]\s*$", lines[-1][1]):
        # the answer's last line stopped mid-word at the answer's length ("It's a b", Rosa's, on a talk
        # of 9d99520's save asked again): its whole sentences, or nothing
        who, last = lines.pop()
        whole = whole_sentences(last, near=0)  # (the line as it is when it has no whole sentence: not said)
        if whole != last:
            lines.append((who, whole))
        count("script_line_unfinished")
    return lines


def talk_so_far(said: Sequence[tuple[str, str]], calls: dict[str, str]) -> tuple[str, str]:
    """The prompt of a talk that goes on (converse_more.txt) from the lines ``said`` (speaker,
    words), each speaker named as the script calls it (``calls``): the talk so far, and who says
    the next line (in turn after the last one who spoke)."""
    order = list(calls)
    last = said[-1][0]
    after = order[(order.index(last) + 1) % len(order)] if last in order else order[0]
    return "\n".join(f"{calls.get(who, who)}: {text}" for who, text in said), calls[after]


def _not_from_example(text: str, backed: set[str]) -> tuple[str, int]:
    """``text`` less its sentences that say the prompt example's words that nothing backs, and how many."""
    parts = sentences(text) or [text]
    kept = [s for s in parts if not from_example(s, backed)]
    return " ".join(kept), len(parts) - len(kept)


def runs_on(text: str) -> bool:
    """Whether a line begins in the middle of a sentence (a lower-case word): the rest of the
    line before it, when that one was cut at its length."""
    t = text.lstrip(" \"'(-….")
    return bool(t) and t[0].islower() and not re.match(r"i\b", t)


def words_of(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if len(w) > 2}


def repeats(text: str, earlier: Sequence[str], overlap: float = 0.75) -> bool:
    """True when ``text`` says nearly the same words as one of the ``earlier`` lines."""
    mine = words_of(text)
    if not mine:
        return False
    for other in earlier:
        theirs = words_of(other)
        if theirs and len(mine & theirs) / len(mine | theirs) >= overlap:
            return True
    return False
