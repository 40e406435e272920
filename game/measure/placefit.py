"""The place-fit measure (issue 16): the share of a run's actions done in a place that fits them,
and the count of impossible object states, by a hand-written table kept apart from the town's own
data (``game/measure/place_fit.json``, shipped with the package for ``town report``; not in the
world's kinds.toml nor a town's folder), so the world's choices are judged by something they were
not made from.

An action is judged by the table's activity that shares most words with it; its place fits when
the object's kind or the room's name contains one of that activity's kinds ("table" fits "dining
table").  Actions that share no word with any activity of the table are counted apart, not judged.
A state is impossible when the table lists the object's kind and not that state, or, for a kind it
does not list, when the state is none of its ``any_state``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from game.resources import package_dir

if TYPE_CHECKING:  # pragma: no cover
    from game.world.tree import AreaTree

TABLE = package_dir(__package__, "place_fit.json")

_STOP = {"the", "a", "an", "of", "in", "at", "on", "to", "and", "for", "with", "up", "her", "his", "their",
         "my", "some", "from", "by", "about", "is", "be", "it", "its", "go", "going", "get", "getting", "do",
         "doing", "take", "taking", "time"}


def _stem(w: str) -> str:
    for suf in ("ing", "ies", "es", "ed", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    return w[:-1] if len(w) > 3 and w.endswith("e") else w


def _words(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z]+", (text or "").lower()) if w not in _STOP}


def load_table(path: str | Path | None = None) -> dict:
    """The table (``ValueError`` naming the file when it is missing or malformed)."""
    p = Path(path) if path else TABLE
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        fits = [(str(a), [str(k).lower() for k in ks]) for a, ks in data["fits"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"place-fit table '{p}' cannot be read: {e}") from None
    return {"fits": fits, "states": {k.lower(): [s.lower() for s in v] for k, v in data.get("states", {}).items()},
            "any_state": [s.lower() for s in data.get("any_state", [])]}


def table_entry(activity: str, table: dict) -> list[str] | None:
    """The kinds of place the table gives for the entry nearest to ``activity`` (None: none shares a word)."""
    want = _words(activity)
    best, best_key = None, (0, 0.0)
    for act, kinds in table["fits"]:
        have = _words(act)
        hit = len(want & have)
        if hit and (hit, hit / len(have | want)) > best_key:
            best, best_key = kinds, (hit, hit / len(have | want))
    return best


def place_of(address: str, tree: AreaTree) -> list[str]:
    """The words a place is judged by: the object's kind and name, the room's name."""
    parts = address.split(":") if address else []
    out = []
    if len(parts) >= 3:
        out += [str(tree.kind.get(address, parts[2])).lower(), parts[2].lower()]
    if len(parts) >= 2:
        out.append(parts[1].lower())
    return out


def fits(kinds: Iterable[str], address: str, tree: AreaTree) -> bool:
    names = place_of(address, tree)
    return any(k in n for k in kinds for n in names)


def impossible_state(address: str, state: str, tree: AreaTree, table: dict) -> bool:
    kind = str(tree.kind.get(address, address.split(":")[-1])).lower()
    s = (state or "").strip().lower()
    if not s or s == "idle":
        return False
    if kind in table["states"]:
        return s not in table["states"][kind]
    return s not in table["any_state"]


def score(actions: Iterable[dict], objects: Iterable[dict], tree: AreaTree, table: dict | None = None) -> dict:
    """``actions``: {action, address, state, source...}; ``objects``: {object, state, by}.  Impossible
    states are counted over both the object changes and the states actions set.  Sleep by rule
    counts like any other action (it is where the resident is)."""
    table = table or load_table()
    objects = list(objects)
    actions = list(actions)
    judged = fit = unjudged = 0
    misfits: list[str] = []
    by_source: dict[str, list[int]] = {}
    for a in actions:
        kinds = table_entry(a.get("action", ""), table)
        if kinds is None:
            unjudged += 1
            continue
        judged += 1
        ok = fits(kinds, a.get("address", ""), tree)
        fit += ok
        src = by_source.setdefault(str(a.get("source", "")), [0, 0])
        src[0] += ok
        src[1] += 1
        if not ok and len(misfits) < 12:
            misfits.append(f"{a.get('action', '')} @ {a.get('address', '') or '(street)'}")
    # the states actions put their objects in (a stove on while cooking) are judged like changes
    set_by_actions = [{"object": a.get("address", ""), "state": a["state"]} for a in actions if a.get("state")]
    bad = [o for o in objects + set_by_actions
           if impossible_state(o.get("object", ""), o.get("state", ""), tree, table)]
    return {"actions": judged + unjudged, "judged": judged, "fit": fit,
            "share": round(fit / judged, 4) if judged else None, "unjudged": unjudged,
            "by_source": {k: {"fit": v[0], "judged": v[1]} for k, v in sorted(by_source.items())},
            "misfits": misfits, "object_changes": len(objects), "action_states": len(set_by_actions),
            "impossible_states": len(bad),
            "impossible_examples": [f"{o.get('object')} is {o.get('state')}" for o in bad[:8]]}


def report_for(save: str, town_path: str | None) -> dict:
    """The measure for a save, from its action log (``SAVE.actions.jsonl``); says why when it
    cannot be measured."""
    from game.engine.running.actionlog import ActionLog, actions_log_path

    path = actions_log_path(save)
    if not path.exists():
        return {"available": False, "why": f"no action log ('{path.name}' beside the save): `town run "
                                           f"--save` writes one"}
    try:
        log = ActionLog.read(path)
        table = load_table()
    except ValueError as e:
        return {"available": False, "why": str(e)}
    try:
        from game.engine.build import TownError, load_world

        town = load_world(str(town_path))
    except TownError as e:  # the town folder moved: say so, the rest still reports
        return {"available": False, "why": f"the town cannot be loaded to judge places: {e}"}
    out = score(log.actions, log.objects, town.tree, table)
    out["available"] = True
    out["log"] = str(path)
    return out
