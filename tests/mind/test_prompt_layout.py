"""The prompt layout for the server's prompt cache (issue 15): every call begins with the one system
prompt, then the task, then who the resident is, then the data that changes; so all the calls of one
purpose share one long beginning, whoever they are for, and every call shares the system prompt."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from game.llm.prompts import PromptError, PromptFolder
from game.mind import prompting

from .conftest import DAY1
from .test_mind_logic import make


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


async def test_calls_of_one_purpose_share_their_beginning_up_to_the_person(view):
    mind, llm = make()
    now = DAY1.replace(hour=8)
    await mind.next_action(now, view)
    await mind.next_action(now + timedelta(hours=4), view)
    assert [t.purpose for t, _, _ in llm.calls] == ["plan_day", "decompose", "decompose"]  # (no identity on day 1)
    systems = {m[0].content for _, m, _ in llm.calls}
    assert systems == {prompting.load_system()}  # one system prompt for every purpose
    users = [m[1].content for _, m, _ in llm.calls]
    task, _ = prompting.load("decompose")
    assert all(u.startswith("Task: ") for u in users)  # the task first
    person = "\n\nYou are:\n" + mind.persona.brief()
    assert users[1].startswith("Task: " + task.template + person)  # then who the resident is
    # two decompositions share the task, who the resident is and more
    assert _prefix(users[1], users[2]) > users[1].index(person) + len(person)


def test_the_shared_folder_needs_its_sections(tmp_path):
    (tmp_path / "_system.txt").write_text("One system prompt.\n")
    (tmp_path / "ok.txt").write_text("[task]\nDo $what.\n[user]\nData: $data\n")
    (tmp_path / "old.txt").write_text("[system]\nDo it.\n[user]\nData\n")
    folder = PromptFolder(tmp_path, shared="_system")
    sys_msg, user = folder.render("ok", person="You are:\nAnn.", what="a thing", data="1 2 3")
    assert sys_msg.content == "One system prompt." and user.role == "user"
    assert user.content == "Task: Do a thing.\n\nYou are:\nAnn.\n\nData: 1 2 3"
    with pytest.raises(PromptError, match=r"needs a \[task\]"):
        folder.render("old")
    with pytest.raises(PromptError, match=r"no value for \$data"):
        folder.render("ok", what="x")
    assert "_system" not in prompting.names() and "decompose" in prompting.names()
    assert os.path.exists(prompting.PROMPT_DIR / "_system.txt")
