"""A big town for the ``standin`` benchmark only (never played): a town repeated side by side.

``big_town(base, n, folder, per_block=100)`` writes a town folder of ``n`` residents: the base
town's map copied ``ceil(n / per_block)`` times in a row (a block each), the first copy with its
own names, the others' sectors named with the block's number ("Okafor house 2", "Bluebell Cafe
2"; arenas and objects keep theirs), and the base town's residents cloned as the benchmark's
smaller towns are (``benchkit.clone_specs``: "Grace2 Okafor" is Grace Okafor's clone), clone
generation ``g`` living in block ``g % blocks``: its home, workplace, shifts and the places it
knows are those of its own block, and whom it knows are its own generation ("Grace2 Okafor"'s
husband is "Samuel2 Okafor").  So each block holds about ``per_block`` residents, as many as one
copy of the default town held in the 100-resident runs (homes of up to nine), and a town of
1,000 is ten such towns side by side, not one town of 1,000 in five houses.  The town's events
and roles stay with the base town's own residents (block 1).

Reads and writes a CSV-encoded TMX (the default town's, and what ``town import-ville`` writes).
"""

from __future__ import annotations

import json
import math
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from game.measure.benchkit import clone_specs
from game.world.knowledge import among


def block_name(name: str, block: int) -> str:
    """A sector's name in ``block`` (0: the base town's own)."""
    return name if block == 0 else f"{name} {block + 1}"


def _address(addr: str | None, block: int) -> str | None:
    """A place's address ("Sector:arena[:object]") in ``block``: its sector's name there."""
    if not addr or block == 0:
        return addr
    sector, sep, rest = addr.partition(":")
    return block_name(sector, block) + sep + rest


def _layer_csv(data: ET.Element, width: int, height: int, blocks: int) -> str:
    if data.get("encoding") != "csv" or data.get("compression"):
        raise ValueError("bigtown: only CSV tile layers can be repeated")
    cells = [c.strip() for c in (data.text or "").replace("\n", "").split(",") if c.strip()]
    if len(cells) != width * height:
        raise ValueError(f"bigtown: a layer of {len(cells)} tiles, not {width} x {height}")
    rows = [",".join(cells[y * width:(y + 1) * width] * blocks) for y in range(height)]
    return "\n" + ",\n".join(rows) + "\n"


def _renamed(obj: ET.Element, group: str, block: int) -> None:
    """A copied object's names in ``block``: a sector's own name (or its ``label``), an arena's
    ``sector`` property."""
    if group == "sectors" and obj.get("name"):
        obj.set("name", block_name(obj.get("name", ""), block))
    for prop in obj.iter("property"):
        if (group == "sectors" and prop.get("name") == "label") or (group == "arenas" and prop.get("name") == "sector"):
            prop.set("value", block_name(prop.get("value", ""), block))


def tile_map(src: Path, dst: Path, blocks: int) -> None:
    """The map ``src`` repeated ``blocks`` times in a row, written to ``dst``."""
    tree = ET.parse(src)
    root = tree.getroot()
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    shift = width * int(root.get("tilewidth", "16"))  # one block, in pixels
    root.set("width", str(width * blocks))
    for layer in root.iter("layer"):
        layer.set("width", str(width * blocks))
        data = layer.find("data")
        if data is not None:
            data.text = _layer_csv(data, width, height, blocks)
    next_id = int(root.get("nextobjectid", "1"))
    for group in root.iter("objectgroup"):
        kind = group.get("name", "")
        originals = list(group.findall("object"))
        for block in range(1, blocks):
            for obj in originals:
                copy = ET.fromstring(ET.tostring(obj))
                copy.set("id", str(next_id))
                next_id += 1
                copy.set("x", f"{float(obj.get('x', '0')) + block * shift:g}")
                _renamed(copy, kind, block)
                group.append(copy)
    root.set("nextobjectid", str(next_id))
    tree.write(dst, encoding="UTF-8", xml_declaration=True)


def _clone_name(name: str, generation: int) -> str:
    """The name of ``name``'s clone of ``generation`` (0: the resident itself), as clone_specs names it."""
    if generation == 0:
        return name
    first, *rest = name.split()
    return f"{first}{generation + 1} {' '.join(rest)}".strip()


def _in_block(spec: dict[str, object], base: dict[str, object], generation: int, block: int) -> dict[str, object]:
    """A clone's spec moved to its block and its generation's people."""
    s = dict(spec)
    s["home"] = _address(str(base.get("home") or ""), block)
    work = base.get("workplace")
    s["workplace"] = _address(work if isinstance(work, str) else None, block)
    knows = base.get("knows")
    s["knows"] = [_address(a, block) for a in knows] if isinstance(knows, list) else []
    life = base.get("lifestyle")
    if isinstance(life, dict):
        shifts = life.get("schedule")
        s["lifestyle"] = {**life, "schedule": [
            {**sh, "place": _address(sh.get("place"), block)} if isinstance(sh, dict) else sh
            for sh in (shifts if isinstance(shifts, list) else [])]}
    rel = base.get("relationships")
    if isinstance(rel, dict):
        s["relationships"] = {_clone_name(k, generation): v for k, v in rel.items()}
    s["spawn"] = base.get("spawn") if generation == 0 else None  # (generation 0 is block 1's)
    return s


def big_town(base: Path, n: int, folder: Path, per_block: int = 100) -> Path:
    """A town folder of ``n`` residents under ``folder`` (``swarmtown``): ``base`` repeated in
    ``ceil(n / per_block)`` blocks, the clones spread over them (see the module's words)."""
    blocks = max(1, math.ceil(n / max(1, per_block)))
    dst = folder / "swarmtown"
    shutil.copytree(base, dst)
    tile_map(base / "town.tmx", dst / "town.tmx", blocks)
    data = json.loads((dst / "residents.json").read_text())
    specs = list(data["residents"])
    out = []
    for i, spec in enumerate(clone_specs(specs, n)):
        generation = i // len(specs)
        out.append(_in_block(spec, specs[i % len(specs)], generation, generation % blocks))
    names = {str(s["name"]) for s in out}
    for s in out:
        rel = s.get("relationships")
        if isinstance(rel, dict):
            s["relationships"] = {k: v for k, v in rel.items() if k in names}
    data["residents"] = out
    data = among(data, names)  # the town's events and roles for this cast only
    (dst / "residents.json").write_text(json.dumps(data))
    return dst


def main(argv: list[str] | None = None) -> int:
    """``python -m game.measure.bigtown OUT --residents 1000``: write a big town folder (to run
    against a served model with ``town run OUT``; docs/SCALE.md)."""
    import argparse
    import tempfile

    from game.world import default_town_path

    p = argparse.ArgumentParser(prog="python -m game.measure.bigtown", description=main.__doc__)
    p.add_argument("out", help="the town folder to write (must not exist)")
    p.add_argument("--residents", type=int, default=1000)
    p.add_argument("--per-block", type=int, default=100, help="residents per copy of the base town")
    p.add_argument("--base", help="the base town folder (default: the default town)")
    a = p.parse_args(argv)
    out = Path(a.out)
    if out.exists():
        p.error(f"{out} is there already")
    with tempfile.TemporaryDirectory(prefix="town-bigtown-") as tmp:
        made = big_town(Path(a.base) if a.base else Path(default_town_path()), a.residents, Path(tmp), a.per_block)
        shutil.copytree(made, out)
    print(f"{out}: {a.residents} residents in {math.ceil(a.residents / max(1, a.per_block))} blocks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
