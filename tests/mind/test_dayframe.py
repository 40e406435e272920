"""The day's frame from what the town knows of a resident, and the check of the model's day against
it before it is lived (issue 38): game/mind/planning/dayframe.py and the planner's use of it."""

from __future__ import annotations

from datetime import date

from game.llm.api import ModelTimeout
from game.mind.mind import Mind
from game.mind.persona import Persona, Shift
from game.mind.planning.daycheck import check_day, meals_eaten, merge
from game.mind.planning.dayframe import Slot, blocks_of, frame_for
from game.mind.planning.dayjudge import judge_day
from game.mind.view import PlanBlock, hhmm

from .conftest import DAY1, SPEC
from .fakes import scripted_model

MONDAY, SATURDAY = date(2026, 3, 2), date(2026, 3, 7)
BARISTA = Persona(name="Rosa Brody", wake=6 * 60, sleep=23 * 60, home="Brody house:Rosa's bedroom",
                  workplace="Bluebell Cafe:cafe",
                  meals=[("breakfast", 6 * 60 + 30), ("lunch", 13 * 60 + 30), ("dinner", 19 * 60 + 30)],
                  schedule=[Shift(7 * 60, 15 * 60, "work behind the counter", "Bluebell Cafe:cafe", (0, 1, 2, 3, 4))])
# Isabella (conftest's SPEC): a workplace and no schedule: work from 9 to 5 on weekdays; DAY1 is a Friday
IDENTITY = {"summary": "Isabella is warm and runs the cafe."}
# the lines the model writes: free time and one line a shift (waking, meals and bed are the frame's own)
# Isabella's Friday: 07:00 free, 09:00 work (12:45 the same), 17:00 free, 18:45 free
GOOD = ["read the paper on the balcony", "open the cafe and brew coffee", "walk in Johnson Park",
        "plan the Valentine's party"]


def test_the_frame_covers_the_waking_day_in_order_with_work_around_lunch():
    slots = frame_for(BARISTA, MONDAY)
    assert slots[0].kind == "wake" and slots[0].start == 6 * 60 and slots[0].place == BARISTA.home
    assert slots[-1].kind == "bed" and slots[-1].end == 23 * 60
    assert all(a.end == b.start for a, b in zip(slots, slots[1:]))
    assert [s.label for s in slots if s.kind == "meal"] == ["breakfast", "lunch", "dinner"]
    work = [s for s in slots if s.kind == "work"]
    assert [(s.start, s.end) for s in work] == [(7 * 60, 13 * 60 + 30), (14 * 60 + 15, 15 * 60)]
    assert all(s.place == "Bluebell Cafe:cafe" for s in work)
    lunch = next(s for s in slots if s.label == "lunch")
    assert lunch.place == "Bluebell Cafe:cafe"  # eaten at work: it falls in the shift
    assert all(s.end - s.start <= 180 for s in slots if s.kind == "free")  # long free time is two lines


def test_a_day_off_has_no_work_and_a_frame_from_midday_starts_there():
    assert not [s for s in frame_for(BARISTA, SATURDAY) if s.kind == "work"]
    later = frame_for(BARISTA, MONDAY, start=16 * 60)
    assert later[0].start == 16 * 60 and all(s.kind != "work" for s in later)


def test_a_workplace_with_no_schedule_works_nine_to_five_on_weekdays():
    p = Persona.from_spec(SPEC)
    work = [s for s in frame_for(p, DAY1.date()) if s.kind == "work"]
    assert work[0].start == 9 * 60 and work[-1].end == 17 * 60 and work[0].place == "Hobbs Cafe"


def test_meals_eaten_are_told_from_meals_served_or_cooked():
    assert meals_eaten("lunch with Samuel at the cafe") == ["lunch"]
    assert meals_eaten("serve breakfast to the regulars") == []
    assert meals_eaten("cook dinner for herself and Felix") == []
    assert meals_eaten("have supper") == ["dinner"]


def _problems(lines, **kw):
    return [p.what for p in check_day(frame_for(BARISTA, MONDAY), lines, **kw)]


def test_the_check_names_each_kind_of_problem():
    slots = frame_for(BARISTA, MONDAY)
    good = [f"thing {i}" for i in range(len(slots))]
    assert _problems(good) == []
    lunch_at = next(i for i, s in enumerate(slots) if s.label == "lunch")
    bad = list(good)
    bad[-2] = "have lunch again"  # free time in the evening
    assert any("22:30" not in p and f"has lunch, but lunch is the {hhmm(slots[lunch_at].start)} line" in p
               for p in _problems(bad))
    bad = list(good)
    bad[3] = "wake up from the alarm"
    bad[4] = "take a nap"  # a nap in free time is no sleep
    assert [p for p in _problems(bad) if "wakes up" in p] and not [p for p in _problems(bad) if "sleep" in p]
    bad = list(good)
    bad[2] = bad[6] = "take a break and relax"
    assert any("repeats the " in p for p in _problems(bad))
    bad = list(good)
    bad[2] = ""
    assert "the 07:00 line is empty" in _problems(bad)
    bad = list(good)
    bad[5] = "free time at the house"
    bad[6] = "stretch and wash"  # the example's words
    found = _problems(bad, echo=("stretch and wash",))
    assert any("says only 'free time'" in p for p in found) and any("copies the example" in p for p in found)


def test_work_elsewhere_needs_a_reason_and_places_the_town_lacks_are_named():
    slots = frame_for(BARISTA, MONDAY)
    work_at = next(i for i, s in enumerate(slots) if s.kind == "work")
    lines = [f"thing {i}" for i in range(len(slots))]

    def named(text: str) -> str | None:
        return "Oakhill College" if "College" in text else None

    lines[work_at] = "go to work at Oakhill College"
    assert any("during work behind the counter" in p for p in _problems(lines, named=named))
    lines[work_at] = "instead, help Samuel at Oakhill College because the cafe is closed"
    assert _problems(lines, named=named) == []
    # one errand does not fill a shift: both its parts moved to the same errand (Aiko's library day,
    # 2026-11-28, after a whisper to bring Grace a book) is a repeat; the shift's own words may repeat
    parts = [i for i, s in enumerate(slots) if s.kind == "work"]
    assert len(parts) == 2
    for i in parts:
        lines[i] = "instead, help Samuel at Oakhill College because the cafe is closed"
    assert any("repeats the" in p for p in _problems(lines, named=named))
    for i in parts:
        lines[i] = slots[i].label
    assert not any("repeats the" in p for p in _problems(lines, named=named))
    lines[parts[1]] = f"thing {parts[1]}"
    lines[work_at] = "take the train to the bank"
    found = _problems(lines, lacks=lambda t: [k for k in ("train", "bank") if k in t])
    assert any("names a train" in p for p in found) and any("names a bank" in p for p in found)


def test_merge_takes_each_line_from_the_first_answer_that_passed_it_else_the_frame():
    slots = [Slot(0, 60, "wake", "wake up and get ready"), Slot(60, 120, "free", "free time"),
             Slot(120, 180, "bed", "get ready for bed")]
    first = ["wash and dress", "", "brush teeth"]
    p1 = check_day(slots, first)
    checked = merge(slots, first, p1, ["x y", "paint a picture", "y z"], [])
    assert checked.lines == ("wash and dress", "paint a picture", "brush teeth") and checked.mended == ()
    checked = merge(slots, first, p1, ["x y", "", "y z"], check_day(slots, ["x y", "", "y z"]))
    assert checked.lines[1] == "free time" and checked.mended == (1,)
    assert any("mended by rule" in n for n in checked.notes())


def test_a_moved_line_that_says_only_why_keeps_the_frames_line():
    # Ines's morning on a9a17c8's day: "because Ines is already running Bluebell Cafe and wants to keep it"
    slots = frame_for(BARISTA, MONDAY)
    work_at = next(i for i, s in enumerate(slots) if s.kind == "work")
    lines = [s.default() for s in slots]
    lines[work_at] = "instead, because Rosa is already running Bluebell Cafe and wants to keep it"
    blocks = [b for b in blocks_of(slots, lines) if slots[work_at].start <= b.start < slots[work_at].end]
    assert blocks and all(b.activity == slots[work_at].default() and b.kind == "work" for b in blocks)


def test_a_moved_line_that_begins_what_the_resident_means_to_do_is_that_thing_whole():
    # Samuel's afternoon on a9a17c8's day: "instead, choose invite people to Grace's surprise party without
    # Grace finding" (the prompt's "choose", and his own thing to do cut off)
    from game.mind.planning.dayframe import whole_option

    means = ["invite people to Grace's surprise party without Grace finding out", "play the piano at the cafe"]
    slots = frame_for(BARISTA, MONDAY)
    free = next(i for i, s in enumerate(slots) if s.kind == "free")
    lines = [s.default() for s in slots]
    lines[free] = "instead, choose invite people to Grace's surprise party without Grace finding"
    moved = [b for b in blocks_of(slots, lines, options=means) if b.kind == "moved"]
    assert moved and all(b.activity == means[0] for b in moved)
    assert whole_option("choose to visit Aiko at the library", means) == "visit Aiko at the library"
    assert whole_option("play the piano", means) == "play the piano"  # (too few words to say which)


def test_blocks_keep_the_frames_places_and_a_moved_line_goes_where_it_says():
    slots = frame_for(BARISTA, MONDAY)
    lines = [f"thing {i}" for i in range(len(slots))]
    work_at = next(i for i, s in enumerate(slots) if s.kind == "work")
    lines[work_at] = "instead, visit Aiko at Oakhill College library because the archives close"
    blocks = blocks_of(slots, lines, named=lambda t: "Oakhill College library" if "library" in t else None)
    moved = [b for b in blocks if b.kind == "moved"]
    assert moved and all(b.place == "Oakhill College library" for b in moved)
    assert all(b.end - b.start <= 120 for b in blocks)
    assert blocks[0].place == BARISTA.home


def test_judge_reads_a_saved_plan_as_a_player_does():
    slots = frame_for(BARISTA, MONDAY)
    good = blocks_of(slots, [f"thing {i}" for i in range(len(slots))])
    assert judge_day(BARISTA, MONDAY, good) == []
    # the day of the issue: lunch four times, one line over and over, never at work
    old = tuple(PlanBlock(h * 60, h * 60 + 60, ("have lunch" if h % 2 else "take a break and relax"))
                for h in range(6, 23))
    fails = judge_day(BARISTA, MONDAY, old, lacks=lambda t: [])
    assert any(f.startswith("lunch") for f in fails) and any("times" in f and "break" in f for f in fails)
    assert any("not at Bluebell Cafe" in f for f in fails) and "the day does not begin with waking" in fails
    # a shift cut by lunch and by dinner is one line in three parts (Isabella's in Smallville, 8 to 8)
    long = Persona(**{**BARISTA.__dict__, "schedule": [Shift(8 * 60, 21 * 60, "work at the cafe", "Bluebell Cafe:cafe",
                                                              (0, 1, 2, 3, 4))]})
    slots = frame_for(long, MONDAY)
    assert [s.kind for s in slots].count("work") == 3
    assert judge_day(long, MONDAY, blocks_of(slots, [f"thing {i}" if s.kind != "work" else "serve coffee"
                                                     for i, s in enumerate(slots)])) == []


async def test_a_day_that_passes_is_asked_once_and_lived_as_written(view):
    llm = scripted_model({"identity": [IDENTITY], "plan_day": [{"plan": GOOD}]})
    mind = Mind(SPEC, llm, now=DAY1)
    plan = await mind.planner.plan_day(DAY1.replace(hour=6), view)
    assert [c.purpose for c in llm.calls].count("plan_day") == 1
    assert mind.stats["plan_checked"] == 1 and mind.stats["plan_first_pass"] == 1 and not plan.checks
    assert plan.timeline()[3].startswith("09:00-12:00 open the cafe and brew coffee @ Hobbs Cafe")
    assert plan.blocks[0].activity == "getting up and ready for the day" and plan.source == "model"
    assert plan.blocks[-1].activity == "getting ready for bed" and plan.blocks[-1].kind == "bed"
    asked = llm.calls[-1].user  # waking, meals and bed are shown in their own words, and not asked
    assert "06:00-06:30 getting up and ready for the day\n" in asked and "(fixed)" not in asked
    assert "12:00-12:45 having lunch\n" in asked and "09:00-12:00 work (at Hobbs Cafe)\n" in asked
    # a free line lists what it may be: its share of the choices (Isabella knows Klaus and the park)
    assert "07:00-09:00 free time, one of: " in asked and "catch up with Klaus Mueller" in asked


async def test_a_day_that_fails_is_asked_again_with_the_problems_named_then_mended(view):
    bad = list(GOOD)
    bad[2] = "have lunch at the cafe"  # free time before dinner
    bad[3] = "go to sleep early"  # free time in the evening
    llm = scripted_model({"identity": [IDENTITY], "plan_day": [{"plan": bad}, {"plan": ["sew a dress", "go to bed"]}]})
    mind = Mind(SPEC, llm, now=DAY1)
    plan = await mind.planner.plan_day(DAY1.replace(hour=6), view)
    asks = [c for c in llm.calls if c.purpose == "plan_day"]
    assert len(asks) == 2 and "has lunch, but lunch is the 12:00 line" in asks[1].user
    assert "goes to sleep" in asks[1].user and "09:00 work: open the cafe and brew coffee" in asks[1].user
    assert mind.stats["plan_asked_again"] == 1 and mind.stats["plan_lines_mended"] == 1
    acts = [b.activity for b in plan.blocks]
    assert "sew a dress" in acts and "have lunch at the cafe" not in acts
    assert plan.block_at(19 * 60).activity == "relaxing at home"  # mended by rule: spare time
    assert any("mended by rule" in c for c in plan.checks)


async def test_when_the_second_ask_fails_the_failing_lines_are_mended(view):
    bad = list(GOOD)
    bad[0] = "eat breakfast again"
    llm = scripted_model({"identity": [IDENTITY], "plan_day": [{"plan": bad}, ModelTimeout("slow")]})
    mind = Mind(SPEC, llm, now=DAY1)
    plan = await mind.planner.plan_day(DAY1.replace(hour=6), view)
    assert plan.source == "model" and mind.stats["error_plan_day"] == 1
    assert plan.blocks[2].activity == "relaxing at home" and mind.stats["plan_lines_mended"] == 1


def test_a_mended_free_line_takes_the_residents_own_requirement_first():
    from game.mind.planning.dayoptions import fallbacks

    slots = frame_for(BARISTA, MONDAY)
    p = Persona(**{**BARISTA.__dict__, "daily": "paint in the evening; have lunch with Dad; "
                                                 "work behind the counter from 7am; work behind the counter"})
    lines = ["" if s.kind == "free" else "x" for s in slots]
    out = fallbacks(slots, p, lines, None, lambda ls: [])
    free = [(slots[i].start, out[i]) for i, s in enumerate(slots) if s.kind == "free"]
    # 15:00 is no evening; no meal outside meals; not the work (it has its own lines) nor anything at an hour
    assert free[0] == (15 * 60, "relaxing at home") and free[1] == (17 * 60, "paint in the evening")
    assert not [t for _, t in free if "lunch" in t or "counter" in t] and len({t for _, t in free}) == len(free)
