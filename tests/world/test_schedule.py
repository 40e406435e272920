"""What the residents file says of a resident's days (lifestyle.schedule), checked when the town
is read; the kinds of place a town lacks; the Smallville importer's schedules (issue 38)."""

from __future__ import annotations

import json

import pytest

from game.world import load_town
from game.world.errors import MapError
from game.world.lacking import lacking, tree_words
from game.world.residents import Shift, read_residents, weekdays_of
from game.world.ville_residents import parse_lifestyle, parse_schedule, usual_meals

from .conftest import REPO

DEFAULT = REPO / "game" / "maps" / "default"


def test_days_and_hours_are_read_in_every_plain_spelling():
    assert weekdays_of("weekdays") == (0, 1, 2, 3, 4) and weekdays_of("Every day") == tuple(range(7))
    assert weekdays_of("mon-sat") == (0, 1, 2, 3, 4, 5) and weekdays_of(["Tuesday", "thu"]) == (1, 3)
    assert weekdays_of("fri-mon") == (0, 4, 5, 6)
    with pytest.raises(ValueError, match="not a day"):
        weekdays_of(["someday"])
    assert Shift(what="run the pub", hours="17:00-00:00").span(8 * 60 + 30) == (17 * 60, 24 * 60)
    assert Shift(what="bake", hours="5:00-7:00").span(4 * 60 + 30) == (5 * 60, 7 * 60)


def _file_with(tmp_path, **lifestyle):
    data = json.loads((DEFAULT / "residents.json").read_text())
    data["residents"][0]["lifestyle"].update(lifestyle)
    p = tmp_path / "residents.json"
    p.write_text(json.dumps(data))
    return p


@pytest.mark.parametrize("schedule, message", [
    ([{"what": "work", "hours": "05:00-09:00"}], "not within the waking day"),
    ([{"what": "a", "hours": "08:00-12:00"}, {"what": "b", "hours": "11:00-13:00", "days": "mon"}], "overlaps"),
    ([{"what": "a", "hours": "08:00-08:00"}], "starts and ends at the same time"),
    ([{"what": "a", "hours": "8-12"}], "is not a time"),
    ([{"what": "a", "hours": "08:00-12:00", "days": "holidays"}], "not a day"),
])
def test_a_file_that_declares_an_impossible_day_is_a_clear_error(tmp_path, schedule, message):
    with pytest.raises(MapError, match=message) as e:
        read_residents(_file_with(tmp_path, schedule=schedule))
    assert "Grace Okafor" in str(e.value)


def test_shifts_that_do_not_meet_on_any_day_may_share_hours(tmp_path):
    ok = [{"what": "a", "hours": "08:00-12:00", "days": "mon"}, {"what": "b", "hours": "08:00-12:00", "days": "tue"}]
    assert len(read_residents(_file_with(tmp_path, schedule=ok)).residents[0].lifestyle.schedule) == 2


def test_a_shift_somewhere_the_map_lacks_is_refused_when_the_town_loads(tmp_path):
    import shutil

    shutil.copytree(DEFAULT, tmp_path / "t")
    data = json.loads((tmp_path / "t" / "residents.json").read_text())
    data["residents"][0]["lifestyle"]["schedule"] = [{"what": "a", "hours": "08:00-12:00", "place": "Moon Base:dome"}]
    (tmp_path / "t" / "residents.json").write_text(json.dumps(data))
    with pytest.raises(MapError, match="Moon Base:dome"):
        load_town(tmp_path / "t")


def test_every_default_resident_has_its_days_and_knows_where_they_happen():
    town = load_town(DEFAULT)
    for r in town.residents:
        assert r.lifestyle.schedule, r.name
        known = town.spatial_seed(r.name).addresses()
        for sh in r.lifestyle.schedule:
            assert (sh.place or r.workplace) in known, (r.name, sh.what)


def test_the_town_lacks_a_bank_and_a_train_but_has_a_supply_store():
    town = load_town(DEFAULT)
    t = town.tree
    words = tree_words(t)
    assert tree_words(t) is words  # once per town
    assert lacking("take the train to Oakhill College", words) == ["train"]
    assert lacking("go to the bank, then the gym", words) == ["bank", "gym"]
    assert lacking("buy nails at the hardware store", words) == []  # Brody's Supply Store
    assert lacking("dinner at a restaurant", words) == []  # a cafe and a pub serve it
    assert lacking("a business lunch", words) == []  # no bus in "business"
    # an interview of 2026-11-28: "go to the local pharmacy or the town's community center"
    assert lacking("the town's community center", words) == ["community centre"]
    assert lacking("improving the local parks and community centers", words) == ["community centre"]
    assert lacking("a reporter for the local newspaper", words) == ["newspaper"]  # Millbrook has a newsletter
    assert lacking("stop here or go to the cafeteria?", words) == ["cafeteria"]  # (Grace, c59f68b's day)
    assert lacking("the Millbrook Owl column in the town newsletter", words) == []
    assert lacking("the community garden", words) == []
    # Rosa on d4e0254, asked what she would do for someone close who is sick
    assert lacking("I would call the town's emergency services.", words) == ["emergency services"]
    # Grace, asked of the stove's fire at 06:20 (the stove run of 2026-12-02)
    assert lacking("I called 911 and put the fire out.", words) == ["emergency services"]
    assert lacking("We raised 911 dollars for the park.", words) == []
    # Samuel on b5e348b, asked the same: Millbrook has a pharmacist and no one who treats the sick
    assert lacking("I would have Rosa's usual care provider visit her.", words) == ["doctor"]
    assert lacking("She should see a doctor.", words) == ["doctor"]
    assert lacking("I would contact the healthcare provider for an appointment.", words) == ["doctor"]  # 4151289
    assert lacking("I would get her medicine from Kenji at the pharmacy.", words) == []
    # Hank on 82f1ab1's day: residents walk; no place of Millbrook keeps a car
    assert lacking("I'm getting out of the car, so I need to get to Marcus's pub.", words) == ["car"]
    assert lacking("I'll drive to Oakhill College.", words) == ["car"]
    assert lacking("Could you help me find a parking spot?", words) == ["car"]  # Felix, 4151289's day
    assert lacking("I pushed the cart to the market; a card game after dinner.", words) == []


def test_the_importer_reads_hours_from_the_daily_requirement():
    life = parse_lifestyle("Isabella Rodriguez goes to bed around 11pm, awakes up around 6am.")
    assert parse_schedule("Isabella Rodriguez opens Hobbs Cafe at 8am everyday, and stands at the counter "
                          "until 8pm, at which point she closes the cafe.", "Hobbs Cafe:cafe", life) == \
        [{"what": "work at Hobbs Cafe", "hours": "08:00-20:00", "days": "every day"}]
    assert parse_schedule("Ayesha Khan goes to the library at Oak Hill College to take classes from 10am to 2pm",
                          "Oak Hill College:library", life)[0]["hours"] == "10:00-14:00"
    assert parse_schedule("Eddy Lin goes to Oak Hill College to take classes starting 10am.",
                          "Oak Hill College:classroom", life)[0]["what"] == "take classes at Oak Hill College"
    assert parse_schedule("spends his days writing", "Oak Hill College:library", life) == []
    assert parse_schedule("opens it at 8am", None, life) == []
    late = parse_lifestyle("Abigail Chen goes to bed around midnight, awakes up around 8am, eats dinner around 6pm.")
    assert late["sleep"] == "00:00"
    assert usual_meals(late) == {"breakfast": "08:30", "lunch": "12:00", "dinner": "18:00"}
