"""A small, valid town written as files (town.tmx + residents.json), and ways to break it.

The fault tests load it through the real world loader (``game.world.load_town``), so a change in
the loader is caught here; every broken variant starts from this good one.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

W, H = 20, 10

# tile ids in the inline tileset: 0 floor, 1 wall, 2 bed, 3 stove
_TILESET = (
    ' <tileset firstgid="1" name="faults" tilewidth="16" tileheight="16" tilecount="4" columns="4">\n'
    '  <tile id="0"><properties><property name="kind" value="floor"/><property name="glyph" value="."/>'
    '<property name="walkable" type="bool" value="true"/></properties></tile>\n'
    '  <tile id="1"><properties><property name="kind" value="wall"/><property name="glyph" value="#"/>'
    '<property name="walkable" type="bool" value="false"/></properties></tile>\n'
    '  <tile id="2"><properties><property name="kind" value="bed"/><property name="glyph" value="b"/>'
    '<property name="walkable" type="bool" value="true"/></properties></tile>\n'
    '  <tile id="3"><properties><property name="kind" value="stove"/><property name="glyph" value="s"/>'
    '<property name="walkable" type="bool" value="true"/></properties></tile>\n'
    ' </tileset>'
)


def ground(walled_room: bool = False) -> list[list[int]]:
    """Walls round the edge, a wall between the house (x < 10) and the cafe, doors at y = 5."""
    g = [[0] * W for _ in range(H)]
    for x in range(W):
        g[0][x] = g[H - 1][x] = 1
    for y in range(H):
        g[y][0] = g[y][W - 1] = 1
        g[y][10] = 1
    g[5][10] = 0 if not walled_room else 1  # the door between house and cafe
    return g


def _rect(oid: int, name: str, x: int, y: int, w: int, h: int, props: dict | None = None) -> str:
    p = ""
    if props:
        p = "<properties>" + "".join(f'<property name="{k}" value="{v}"/>' for k, v in props.items()) + "</properties>"
    return (f'  <object id="{oid}" name="{name}" x="{x * 16}" y="{y * 16}" width="{w * 16}" '
            f'height="{h * 16}">{p}</object>')


def tmx_text(*, g: list[list[int]] | None = None, encoding: str = "csv", compression: str | None = None,
             drop_layer: str | None = None, infinite: bool = False, extra_map_attrs: str = "") -> str:
    g = g or ground()
    csv = ",\n".join(",".join(str(v + 1) for v in row) for row in g)
    comp = f' compression="{compression}"' if compression else ""
    layers = {
        "ground": (f' <layer id="1" name="ground" width="{W}" height="{H}">\n'
                   f'  <data encoding="{encoding}"{comp}>\n{csv}\n  </data>\n </layer>'),
        "sectors": ' <objectgroup id="2" name="sectors">\n'
                   + _rect(1, "Lin house", 1, 1, 9, 8) + "\n" + _rect(2, "Cafe", 11, 1, 8, 8) + "\n </objectgroup>",
        "arenas": ' <objectgroup id="3" name="arenas">\n'
                  + _rect(3, "bedroom", 1, 1, 9, 4) + "\n" + _rect(4, "kitchen", 1, 5, 9, 4) + "\n"
                  + _rect(5, "counter", 11, 1, 8, 8) + "\n </objectgroup>",
        "objects": ' <objectgroup id="4" name="objects">\n'
                   + _rect(6, "bed", 2, 2, 2, 1) + "\n" + _rect(7, "stove", 2, 7, 1, 1) + "\n"
                   + _rect(8, "coffee machine", 15, 2, 1, 1) + "\n </objectgroup>",
    }
    body = "\n".join(v for k, v in layers.items() if k != drop_layer)
    inf = "1" if infinite else "0"
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{W}" '
            f'height="{H}" tilewidth="16" tileheight="16" infinite="{inf}"{extra_map_attrs}>\n'
            f"{_TILESET}\n{body}\n</map>\n")


def _resident(name: str, glyph: str, home: str, work: str | None) -> dict:
    return {
        "name": name, "age": 30, "traits": ["kind", "curious"],
        "background": f"{name} lives in Faultville.", "currently": "working on a project",
        "lifestyle": {"wake": "06:30", "sleep": "22:30", "meals": {"breakfast": "07:00", "lunch": "12:00"}},
        "home": home, "workplace": work, "seed_memories": [f"{name} likes coffee."],
        "relationships": {}, "glyph": glyph, "colour": "#ff8800",
    }


EXTRA = [("Dan Roe", "D", "Lin house:kitchen", "Cafe:counter"), ("Eve Kim", "E", "Cafe:counter", None),
         ("Finn Oak", "F", "Lin house:bedroom", "Cafe:counter"), ("Gia Park", "G", "Cafe:counter", "Lin house:kitchen"),
         ("Hal Moss", "H", "Lin house:kitchen", None)]


def residents_data(n: int = 3, seconds_per_step: float = 60) -> dict:
    """The fault town's residents: the first three always, up to ``n`` (max 8) in all."""
    people = [_resident("Ann Lin", "A", "Lin house:bedroom", "Cafe:counter"),
              _resident("Bob Lin", "B", "Lin house:bedroom", "Lin house:kitchen"),
              _resident("Cara Diaz", "C", "Cafe:counter", "Cafe:counter")]
    people += [_resident(*x) for x in EXTRA[: max(0, n - 3)]]
    return {
        "format": 1, "town": "Faultville", "start": "2026-03-02T06:00:00", "seconds_per_step": seconds_per_step,
        "small_cast": ["Ann Lin", "Bob Lin"], "residents": people,
    }


def write_town(folder: Path, *, tmx: str | None = None, residents: dict | str | None = None) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "town.tmx").write_text(tmx if tmx is not None else tmx_text(), encoding="utf-8")
    data = residents if residents is not None else residents_data()
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=1)
    (folder / "residents.json").write_text(text, encoding="utf-8")
    return folder


def with_resident_change(fn) -> dict:
    data = copy.deepcopy(residents_data())
    fn(data)
    return data
