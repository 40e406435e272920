"""Generate game/maps/default/town.tsx and town.png: our tileset, whose image shows each tile's glyph
in its colours, so the map looks in Tiled the way it looks in the terminal.

Dev-only (needs Pillow):  .venv/bin/python tools/make_tileset.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.world import tiles as T  # noqa: E402
from game.world.tmxwrite import COLUMNS, PNG_NAME, TILE_PX, write_tsx  # noqa: E402

FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "DejaVuSansMono.ttf"]


def _font(size: int):
    for f in FONTS:
        try:
            return ImageFont.truetype(f, size)
        except OSError:
            continue
    return ImageFont.load_default()


def make(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    n = len(T.ALL)
    rows = -(-n // COLUMNS)
    img = Image.new("RGBA", (COLUMNS * TILE_PX, rows * TILE_PX), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    font = _font(TILE_PX - 2)
    for i, t in enumerate(T.ALL):
        x0, y0 = (i % COLUMNS) * TILE_PX, (i // COLUMNS) * TILE_PX
        if t.bg:
            draw.rectangle([x0, y0, x0 + TILE_PX - 1, y0 + TILE_PX - 1], fill=t.bg)
        if t.kind == "wall" and t.variant.isdigit():  # draw box-drawing walls as lines so they join across tiles
            m = int(t.variant)
            c = (x0 + TILE_PX // 2, y0 + TILE_PX // 2)
            wd = 3
            if m == 0:
                draw.rectangle([c[0] - 4, c[1] - 4, c[0] + 4, c[1] + 4], fill=t.fg)
            if m & 1:
                draw.line([c, (c[0], y0)], fill=t.fg, width=wd)
            if m & 2:
                draw.line([c, (x0 + TILE_PX - 1, c[1])], fill=t.fg, width=wd)
            if m & 4:
                draw.line([c, (c[0], y0 + TILE_PX - 1)], fill=t.fg, width=wd)
            if m & 8:
                draw.line([c, (x0, c[1])], fill=t.fg, width=wd)
            continue
        if t.glyph.strip():
            draw.text((x0 + TILE_PX / 2, y0 + TILE_PX / 2), t.glyph, fill=t.fg, font=font, anchor="mm")
    img.save(out / PNG_NAME)
    write_tsx(out)
    print(f"wrote {out / PNG_NAME} and {out / 'town.tsx'} ({n} tiles)")


if __name__ == "__main__":
    make(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "game" / "maps" / "default")
