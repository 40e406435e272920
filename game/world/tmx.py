"""Reading Tiled TMX files with pytmx, without pygame and without images.

Everything pytmx would trip over (or crash on with a traceback) is checked first on the XML, so a
malformed or foreign map gets a :class:`MapError` naming the file and the problem.  pytmx 3.32
quirks handled here: layer order is not the file's order (layers are looked up by name), gids are
renumbered (tiles are identified by their properties), reserved property names (``name``, ``type``,
``id``, ``width``...) are refused, only CSV or base64 (+zlib/gzip) layer data is supported.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from .errors import MapError

_RESERVED = {"name", "type", "id", "width", "height", "x", "y", "gid", "visible", "rotation",
             "class", "source", "template", "opacity", "offsetx", "offsety", "encoding",
             "compression", "properties", "parent", "points", "closed", "image"}


# a Tiled custom property's value, as pytmx reads it (string, int, float or bool properties)
Property = str | int | float | bool

def _import_pytmx() -> ModuleType:
    """Import pytmx without its "cannot import pygame" complaint."""
    names = ("pytmx.util_pygame", "pytmx.util_pygame_sdl2", "pytmx", "pytmx.pytmx")
    loggers = [logging.getLogger(n) for n in names]
    saved = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        import pytmx  # noqa: PLC0415
    finally:
        for lg, s in zip(loggers, saved):
            lg.disabled = s
    # pytmx logs errors (then raises) for things we report ourselves
    logging.getLogger("pytmx.pytmx").disabled = True
    return pytmx


@dataclass
class RawObject:
    """A Tiled object, in tile units."""
    name: str
    x: float
    y: float
    width: float
    height: float
    points: list[tuple[float, float]] | None  # polygon in tile units (absolute), or None
    properties: dict[str, Property]

    def tiles(self, map_w: int, map_h: int) -> list[tuple[int, int]]:
        """The tiles whose centres lie inside this object (a point object: its tile)."""
        if self.points:
            xs = [p[0] for p in self.points]
            ys = [p[1] for p in self.points]
            out = []
            for ty in range(max(0, int(min(ys))), min(map_h, int(max(ys)) + 1)):
                for tx in range(max(0, int(min(xs))), min(map_w, int(max(xs)) + 1)):
                    if _inside(self.points, tx + 0.5, ty + 0.5):
                        out.append((tx, ty))
            return out
        if self.width <= 0 or self.height <= 0:
            tx, ty = int(self.x), int(self.y)
            return [(tx, ty)] if 0 <= tx < map_w and 0 <= ty < map_h else []
        x0 = max(0, int(round(self.x)))
        y0 = max(0, int(round(self.y)))
        x1 = min(map_w, int(round(self.x + self.width)))
        y1 = min(map_h, int(round(self.y + self.height)))
        return [(x, y) for y in range(y0, y1) for x in range(x0, x1)]


def _inside(poly: list[tuple[float, float]], px: float, py: float) -> bool:
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


@dataclass
class RawMap:
    path: Path
    width: int
    height: int
    properties: dict[str, Property]
    # tile layers: name -> int array [h, w] of palette indices (-1 = empty)
    tile_layers: dict[str, np.ndarray] = field(default_factory=dict)
    palette: list[dict[str, Property]] = field(default_factory=list)  # tile properties per index
    object_layers: dict[str, list[RawObject]] = field(default_factory=dict)


_ENCODINGS = {("csv", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip")}


def _precheck(path: Path) -> ET.Element:
    """Check on the XML what pytmx cannot read, with a clear message."""
    if path.suffix.lower() in (".tmj", ".json"):
        raise MapError(path, "JSON maps (.tmj) are not supported; save the map as TMX (.tmx) in Tiled")
    if not path.is_file():
        raise MapError(path, "no such map file")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise MapError(path, f"not a Tiled TMX file (not valid XML: {e})") from None
    except (LookupError, ValueError) as e:  # e.g. <?xml encoding="UTF--18"?>: an unknown encoding
        raise MapError(path, f"not a Tiled TMX file (not readable XML: {e})") from None
    except OSError as e:
        raise MapError(path, f"cannot read the map ({e.strerror or e})") from None
    if root.tag != "map":
        raise MapError(path, f"not a Tiled TMX file (root element is <{root.tag}>, expected <map>)")
    if root.get("infinite", "0") not in ("0", ""):
        raise MapError(path, "infinite maps are not supported; in Tiled uncheck Map > Map Properties > Infinite")
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise MapError(path, f"only orthogonal maps are supported (this one is {root.get('orientation')})")
    for key in ("width", "height"):
        try:
            if int(root.get(key, "0")) <= 0:
                raise ValueError
        except ValueError:
            raise MapError(path, f"the map has no valid {key}") from None
    for ts in root.iter("tileset"):
        src = ts.get("source")
        if src:
            _check_tileset(path, src)
    _check_layers(path, root)
    for obj in root.iter("object"):
        if obj.get("template"):
            raise MapError(path, f"object '{obj.get('name', obj.get('id'))}' uses a template "
                                 f"({obj.get('template')}); templates (.tx) are not supported - "
                                 f"detach it in Tiled")
    _check_props(path, root)
    return root


def _check_tileset(path: Path, src: str) -> None:
    """An external tileset ``src`` of the map at ``path``: a readable .tsx file."""
    if src.lower().endswith((".tsj", ".json")):
        raise MapError(path, f"tileset {src}: JSON tilesets are not supported; use a .tsx tileset")
    tsx = path.parent / src
    if not tsx.is_file():
        raise MapError(path, f"tileset file {src} is missing (looked for {tsx})")
    try:
        troot = ET.parse(tsx).getroot()
    except ET.ParseError as e:
        raise MapError(tsx, f"not a Tiled tileset (not valid XML: {e})") from None
    except (LookupError, ValueError) as e:
        raise MapError(tsx, f"not a Tiled tileset (not readable XML: {e})") from None
    _check_props(tsx, troot)


def _check_layers(path: Path, root: ET.Element) -> None:
    """Every tile layer: finite, with its data in an encoding pytmx reads."""
    for layer in root.iter("layer"):
        lname = layer.get("name", "?")
        data = layer.find("data")
        if data is None:
            raise MapError(path, f"tile layer '{lname}' has no data")
        if data.find("chunk") is not None:
            raise MapError(path, f"tile layer '{lname}' is an infinite-map chunk layer; "
                                 "infinite maps are not supported")
        enc, comp = data.get("encoding"), data.get("compression")
        if (enc, comp) not in _ENCODINGS:
            what = f"encoding {enc or 'XML'}" + (f" with compression {comp}" if comp else "")
            raise MapError(path, f"tile layer '{lname}' uses {what}; only CSV or Base64 "
                                 f"(uncompressed, zlib or gzip) are supported - change it in Tiled's "
                                 f"Map Properties > Tile Layer Format")


def _check_props(path: Path, root: ET.Element) -> None:
    for props in root.iter("properties"):
        for p in props.iter("property"):
            n = p.get("name", "")
            if n in _RESERVED:
                raise MapError(path, f"property name '{n}' is reserved by the map reader; rename it "
                                     f"(use e.g. 'label' or 'kind')")


def load_tmx(path: str | Path) -> RawMap:
    """Read a TMX file into a :class:`RawMap` (palette indices per tile layer, objects in tiles)."""
    path = Path(path)
    _precheck(path)
    pytmx = _import_pytmx()
    try:
        tm = pytmx.TiledMap(str(path), allow_duplicate_names=False)
    except MapError:
        raise
    except Exception as e:  # pytmx raises bare Exception, ValueError, KeyError...: test_malformed.py
        raise MapError(path, f"cannot read the map: {e or type(e).__name__}") from None
    tw, th = float(tm.tilewidth or 1), float(tm.tileheight or 1)
    raw = RawMap(path=path, width=int(tm.width), height=int(tm.height),
                 properties=dict(getattr(tm, "properties", {}) or {}))
    palette_index: dict[int, int] = {}  # pytmx gid -> palette index
    for layer in tm.layers:
        lname = getattr(layer, "name", None) or ""
        if isinstance(layer, pytmx.TiledTileLayer):
            if lname in raw.tile_layers:
                raise MapError(path, f"two tile layers are named '{lname}'")
            data = layer.data
            if len(data) != raw.height or any(len(r) != raw.width for r in data):
                raise MapError(path, f"tile layer '{lname}' is not {raw.width}x{raw.height}")
            arr = np.full((raw.height, raw.width), -1, dtype=np.int32)
            for y, row in enumerate(data):
                for x, gid in enumerate(row):
                    if not gid:
                        continue
                    idx = palette_index.get(gid)
                    if idx is None:
                        props = tm.get_tile_properties_by_gid(gid) or {}
                        props = {k: v for k, v in props.items()
                                 if k not in ("frames", "id", "width", "height", "type")}
                        idx = len(raw.palette)
                        raw.palette.append(props)
                        palette_index[gid] = idx
                    arr[y, x] = idx
            raw.tile_layers[lname] = arr
        elif isinstance(layer, pytmx.TiledObjectGroup):
            if lname in raw.object_layers:
                raise MapError(path, f"two object layers are named '{lname}'")
            objs = []
            for o in layer:
                try:
                    pts = None
                    if getattr(o, "points", None):
                        pts = [(float(px) / tw, float(py) / th) for px, py in o.points]
                    objs.append(RawObject(
                        name=str(o.name or "").strip(),
                        x=float(o.x) / tw, y=float(o.y) / th,
                        width=float(o.width or 0) / tw, height=float(o.height or 0) / th,
                        points=pts, properties=dict(o.properties or {})))
                except (TypeError, ValueError):
                    raise MapError(path, f"object {o.name!r} in layer '{lname}' has a position or size "
                                         f"that is not a number") from None
            raw.object_layers[lname] = objs
    return raw
