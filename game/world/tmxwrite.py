"""Writing town maps as Tiled TMX (used by tools/make_town.py and the Smallville importer).

Layers: tile layers 'ground' and 'furniture' (CSV), object layers 'sectors', 'arenas' and
'objects' (rectangles in pixels, name = the area's name, properties such as 'sector' and 'kind').
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

from . import tiles as T

TILE_PX = 16
TSX_NAME = "town.tsx"
PNG_NAME = "town.png"
COLUMNS = 16


def rectangles(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Cover a set of tiles exactly with few rectangles (x, y, w, h): maximal row runs merged
    downwards."""
    cells = set(cells)
    out = []
    while cells:
        y = min(c[1] for c in cells)
        x = min(c[0] for c in cells if c[1] == y)
        w = 1
        while (x + w, y) in cells:
            w += 1
        h = 1
        while all((x + i, y + h) in cells for i in range(w)):
            h += 1
        for j in range(h):
            for i in range(w):
                cells.discard((x + i, y + j))
        out.append((x, y, w, h))
    return out


@dataclass
class Area:
    name: str
    tiles: set[tuple[int, int]]
    props: dict[str, str] = field(default_factory=dict)


def _props_xml(props: Mapping[str, object], indent: str) -> str:
    if not props:
        return ""
    lines = [f"{indent}<properties>"]
    for k, v in props.items():
        if isinstance(v, bool):
            lines.append(f'{indent} <property name={quoteattr(k)} type="bool" value="{str(v).lower()}"/>')
        else:
            lines.append(f"{indent} <property name={quoteattr(k)} value={quoteattr(str(v))}/>")
    lines.append(f"{indent}</properties>")
    return "\n".join(lines) + "\n"


def tsx_text() -> str:
    n = len(T.ALL)
    rows = -(-n // COLUMNS)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name="town" tilewidth="{TILE_PX}" '
        f'tileheight="{TILE_PX}" tilecount="{n}" columns="{COLUMNS}">',
        f' <image source="{PNG_NAME}" width="{COLUMNS * TILE_PX}" height="{rows * TILE_PX}"/>',
    ]
    for i, t in enumerate(T.ALL):
        props: dict[str, str | bool] = {"kind": t.kind, "glyph": t.glyph, "fg": t.fg}
        if t.bg:
            props["bg"] = t.bg
        props["walkable"] = t.walkable
        out.append(f' <tile id="{i}">')
        out.append(_props_xml(props, "  ").rstrip("\n"))
        out.append(" </tile>")
    out.append("</tileset>")
    return "\n".join(out) + "\n"


def write_tmx(path: Path, ground: np.ndarray, furniture: np.ndarray | None, sectors: list[Area],
              arenas: list[Area], objects: list[Area], properties: dict | None = None) -> None:
    """Write a map.  ``ground``/``furniture`` hold tileset ids (-1: empty)."""
    h, w = ground.shape
    px = TILE_PX
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{w}" height="{h}" tilewidth="{px}" tileheight="{px}" infinite="0" '
        f'nextlayerid="6" nextobjectid="NEXTID">',
    ]
    if properties:
        out.append(_props_xml(properties, " ").rstrip("\n"))
    out.append(f' <tileset firstgid="1" source="{TSX_NAME}"/>')
    layer_id = 1

    def tile_layer(name: str, data: np.ndarray) -> None:
        nonlocal layer_id
        out.append(f' <layer id="{layer_id}" name="{name}" width="{w}" height="{h}">')
        out.append('  <data encoding="csv">')
        rows = [",".join(str(int(v) + 1) for v in row) for row in data]
        out.append(",\n".join(rows))
        out.append("  </data>")
        out.append(" </layer>")
        layer_id += 1

    tile_layer("ground", ground)
    if furniture is not None:
        tile_layer("furniture", furniture)
    oid = 1
    for lname, areas in (("sectors", sectors), ("arenas", arenas), ("objects", objects)):
        out.append(f' <objectgroup id="{layer_id}" name="{lname}">')
        layer_id += 1
        for a in areas:
            for (x, y, rw, rh) in rectangles(a.tiles):
                out.append(f"  <object id=\"{oid}\" name={quoteattr(a.name)} x=\"{x * px}\" "
                           f"y=\"{y * px}\" width=\"{rw * px}\" height=\"{rh * px}\">")
                if a.props:
                    out.append(_props_xml(a.props, "   ").rstrip("\n"))
                out.append("  </object>")
                oid += 1
        out.append(" </objectgroup>")
    out.append("</map>")
    text = "\n".join(out) + "\n"
    text = text.replace('nextobjectid="NEXTID"', f'nextobjectid="{oid}"')
    Path(path).write_text(text, encoding="utf-8")


def write_tsx(folder: Path) -> None:
    (Path(folder) / TSX_NAME).write_text(tsx_text(), encoding="utf-8")
