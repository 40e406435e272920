"""Generate the default town, game/maps/default/town.tmx ("Millbrook"), from the building plans below.

The result is an ordinary Tiled map: open it in Tiled, move a wall, rename a room (the 'arenas'
layer), add a house (a rectangle in 'sectors', rooms in 'arenas', things in 'objects'), save, play.
Re-running this script overwrites such edits.

    .venv/bin/python tools/make_town.py [OUT_DIR]

Plans: '#' wall, '+' door, '.' floor, ',' grass, ':' gravel, '~' water, '^' tree, a digit marks a
room (flood-filled up to walls and doors), letters are furniture (see LEGEND; each plan can rename).
"""

from __future__ import annotations

import random
import sys
from collections import deque
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.world import tiles as T  # noqa: E402
from game.world.tmxwrite import Area, write_tmx, write_tsx  # noqa: E402

W, H = 120, 84
TOWN = "Millbrook"

LEGEND = {
    "b": "bed", "c": "closet", "d": "desk", "s": "shower", "w": "bathroom sink", "T": "toilet",
    "f": "fridge", "o": "stove", "k": "kitchen counter", "u": "kitchen sink", "t": "dining table",
    "v": "tv", "S": "sofa", "p": "piano",
}

HOUSE = [
    "####################",
    "#bb..c#bb..c#s...wT#",
    "#..1.d#..2.d#..5...#",
    "#.....#.....#......#",
    "###+#####+#####+####",
    "#4.........#3...fo.#",
    "#.SS....v..+..tt...#",
    "#.SS......p#..tt.ku#",
    "#########+##########",
]
HOUSE_FLOORS = {"1": "carpet", "2": "carpet", "3": "tile", "4": "wood", "5": "tile"}

CAFE = [
    "#################",
    "#2.kkuoof#3..T.w#",
    "#........#......#",
    "####+#########+##",
    "#1..BBBBBE.....P#",
    "#...=====.......#",
    "#...............#",
    "#.tt..tt..tt....#",
    "#...............#",
    "#.tt..tt..tt....#",
    "#...............#",
    "#######+#########",
]
CAFE_LEGEND = {"B": "behind the counter", "=": "cafe counter", "E": "espresso machine",
               "t": "cafe table", "P": "piano"}

TOWN_HALL = [
    "###################",
    "#2.d....F#3.d...FF#",
    "#........#........#",
    "#........#........#",
    "####+#########+####",
    "#4...............L#",
    "#...CCCCCCCCC.....#",
    "#...CCCCCCCCC.....#",
    "#.................#",
    "#.hhhhhh..hhhhhh..#",
    "#########+#########",
    "#1...N.....RRR....#",
    "#.................#",
    "#########+#########",
]
TOWN_HALL_LEGEND = {"F": "filing cabinet", "L": "lectern", "C": "council table", "h": "public seating",
                    "N": "notice board", "R": "reception desk"}

PUB = [
    "####################",
    "#2.kkuof.#3b...d..c#",
    "#........#.........#",
    "####+#########+#####",
    "#1..BBBKBBBB....J..#",
    "#...========.......#",
    "#..................#",
    "#.tt..tt..tt...PPP.#",
    "#..............PPP.#",
    "#.tt..tt..tt.......#",
    "#................D.#",
    "##########+#########",
]
PUB_LEGEND = {"B": "behind the counter", "K": "beer tap", "=": "bar counter", "J": "jukebox",
              "t": "pub table", "P": "pool table", "D": "dartboard"}

MARKET = [
    "########################",
    "#1.GGGGG.GGGGG.#2.MMMMM#",
    "#..............#.ZZZZZ.#",
    "#..GGGGG.GGGGG.#.QQQQQ.#",
    "#..............+.......#",
    "#.VVVV.........#.......#",
    "#..............#..hhh..#",
    "#...CCC.CCC....#.......#",
    "#..............#.......#",
    "#######+################",
]
MARKET_LEGEND = {"G": "grocery shelf", "M": "pharmacy shelf", "Z": "behind the counter",
                 "Q": "pharmacy counter", "V": "produce stand", "h": "waiting chairs",
                 "C": "checkout counter"}

SUPPLY = [
    "####################",
    "#1.RRRR.RRRR.#2XXXX#",
    "#............#.....#",
    "#.RRRR.RRRR..+.....#",
    "#............#..W..#",
    "#.TTT........#.....#",
    "#......BBBB..#.XXXX#",
    "#......====..#.....#",
    "#............#.....#",
    "#####+##############",
]
SUPPLY_LEGEND = {"R": "product shelf", "X": "storage shelf", "W": "workbench", "T": "tool rack",
                 "B": "behind the counter", "=": "checkout counter"}

COLLEGE = [
    "##############################",
    "#1.KKKKKKKK..#2.KKKKKK..#3.dF#",
    "#.....L......#..........#....#",
    "#............#.ssss.ssss#..B.#",
    "#.ssss.ssss..#..........#....#",
    "#.ssss.ssss..#.ssss.ssss#....#",
    "#............#..........#....#",
    "######+#############+#####+###",
    "+5...........................#",
    "#............................#",
    "###########+##################",
    "#4.CCCC.CCCC.CCCC.CCCC.......#",
    "#............................#",
    "##############################",
]
COLLEGE_LEGEND = {"K": "blackboard", "L": "lectern", "s": "student desk", "d": "desk",
                  "F": "filing cabinet", "B": "bookshelf", "C": "computer"}

DORM = [
    "##################################",
    "#1b.d#2b.d#3b.d#4b.d#5s.s.s.T.T.w#",
    "#.b.c#.b.c#.b.c#.b.c#............#",
    "#....#....#....#....#............#",
    "###+####+####+####+########+######",
    "#6.....................#8.kkuof..#",
    "#..SSS....vv...........+.........#",
    "#..SSS.........tttt....#...tttt..#",
    "#..........PP..........#.........#",
    "##########+#######################",
]
DORM_LEGEND = {"P": "ping-pong table", "t": "dining table"}

LIBRARY = [
    "########################",
    "#2BBBBBB.BBBBBB.BBBBBB.#",
    "#......................#",
    "#.BBBBBB.BBBBBB.BBBBBB.#",
    "#......................#",
    "#####+##########+#######",
    "#1.....................#",
    "#..tttt..tttt..tttt....#",
    "#......................#",
    "#..tttt..tttt..hh..CC..#",
    "#...........RRR........#",
    "###########+############",
]
LIBRARY_LEGEND = {"B": "bookshelf", "t": "reading table", "h": "reading chair", "C": "computer",
                  "R": "checkout desk"}

# the houses: sector name, bedroom names, the living room's instrument/hobby (letter p)
HOUSES = [
    ("Okafor house", "Grace and Samuel's bedroom", "guest room", "piano", (2, 1)),
    ("Brody house", "Hank's bedroom", "Rosa's bedroom", "guitar", (2, 13)),
    ("Moreau house", "Ines's bedroom", "Eli's bedroom", "bookshelf", (2, 30)),
    ("Tanaka house", "Kenji and Aiko's bedroom", "study", "bookshelf", (2, 42)),
    ("Lindqvist house", "Nora's bedroom", "Felix's room", "sewing machine", (2, 58)),
]


class Builder:
    def __init__(self) -> None:
        self.ground = np.full((H, W), T.tile_id("grass"), dtype=np.int32)
        self.furn = np.full((H, W), -1, dtype=np.int32)
        self.wall = np.zeros((H, W), dtype=bool)
        self.door = np.zeros((H, W), dtype=bool)
        self.sectors: list[Area] = []
        self.arenas: list[Area] = []
        self.objects: list[Area] = []

    def set_ground(self, x: int, y: int, kind: str, variant: str = "") -> None:
        self.ground[y, x] = T.tile_id(kind, variant)

    def roads(self, xs: list[int], ys: list[int], width: int = 5) -> None:
        for x0 in xs:
            for x in range(x0, x0 + width):
                for y in range(H):
                    edge = x in (x0, x0 + width - 1)
                    self.set_ground(x, y, "sidewalk" if edge else "road",
                                    "line" if x == x0 + width // 2 and y % 2 == 0 else "")
        for y0 in ys:
            for y in range(y0, y0 + width):
                for x in range(W):
                    edge = y in (y0, y0 + width - 1)
                    if any(x0 < x < x0 + width - 1 for x0 in xs) and not edge:
                        self.set_ground(x, y, "road")  # crossing
                        continue
                    if any(x0 <= x < x0 + width for x0 in xs) and edge:
                        self.set_ground(x, y, "sidewalk")
                        continue
                    self.set_ground(x, y, "sidewalk" if edge else "road",
                                    "line" if y == y0 + width // 2 and x % 2 == 0 else "")

    def building(self, plan: list[str], ox: int, oy: int, sector: str, rooms: dict[str, str],
                 floors: dict[str, str] | str, legend: dict[str, str], lot: tuple | None = None) -> None:
        _h, w = len(plan), len(plan[0])
        assert all(len(r) == w for r in plan), (sector, [len(r) for r in plan])
        legend = {**LEGEND, **legend}
        cells = {}
        for y, row in enumerate(plan):
            for x, ch in enumerate(row):
                cells[(x, y)] = ch
        # rooms by flood fill from the digit markers
        room_of: dict[tuple[int, int], str] = {}
        for (x, y), ch in cells.items():
            if ch.isdigit():
                assert ch in rooms, (sector, ch)
                dq = deque([(x, y)])
                room_of[(x, y)] = ch
                while dq:
                    cx, cy = dq.popleft()
                    for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                        c = cells.get((nx, ny))
                        if c is None or c in "#+" or (nx, ny) in room_of:
                            continue
                        room_of[(nx, ny)] = ch
                        dq.append((nx, ny))
        for (x, y), ch in cells.items():
            if ch not in "#+" and (x, y) not in room_of:
                raise AssertionError(f"{sector}: tile {(x, y)} {ch!r} is in no room")
        sector_tiles = set()
        room_tiles: dict[str, set] = {k: set() for k in rooms}
        obj_tiles: dict[tuple[str, str], set] = {}
        for (x, y), ch in cells.items():
            X, Y = ox + x, oy + y
            sector_tiles.add((X, Y))
            if ch == "#":
                self.wall[Y, X] = True
                continue
            if ch == "+":
                self.door[Y, X] = True
                self.set_ground(X, Y, "door")
                continue
            r = room_of[(x, y)]
            room_tiles[r].add((X, Y))
            fl = floors if isinstance(floors, str) else floors.get(r, "wood")
            self.set_ground(X, Y, "floor", fl)
            if ch not in ".0123456789":
                kind = legend[ch]
                self.furn[Y, X] = T.furniture_id(kind)
                obj_tiles.setdefault((r, kind), set()).add((X, Y))
        if lot:
            lx, ly, lw, lh = lot
            sector_tiles |= {(x, y) for x in range(lx, lx + lw) for y in range(ly, ly + lh)}
        self.sectors.append(Area(sector, sector_tiles))
        for r, name in rooms.items():
            self.arenas.append(Area(name, room_tiles[r], {"sector": sector}))
        for (_r, kind), ts in obj_tiles.items():
            self.objects.append(Area(kind, ts, {"kind": kind}))

    def outdoor_arena(self, sector: str, name: str, rect: tuple[int, int, int, int]) -> set:
        x0, y0, w, h = rect
        ts = {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}
        self.arenas.append(Area(name, ts, {"sector": sector}))
        return ts

    def thing(self, kind: str, tiles: list[tuple[int, int]], ground: str | None = None) -> None:
        for x, y in tiles:
            if ground:
                self.set_ground(x, y, ground)
            else:
                self.furn[y, x] = T.furniture_id(kind)
        self.objects.append(Area(kind, set(tiles), {"kind": kind}))

    def finish_walls(self) -> None:
        for y in range(H):
            for x in range(W):
                if not self.wall[y, x]:
                    continue
                m = 0
                for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < W and 0 <= ny < H and (self.wall[ny, nx] or self.door[ny, nx]):
                        m |= bit
                self.ground[y, x] = T.tile_id("wall", str(m))


def house(b: Builder, name: str, bed1: str, bed2: str, hobby: str, at: tuple[int, int]) -> None:
    x, y = at
    b.building(HOUSE, x, y, name,
               {"1": bed1, "2": bed2, "3": "kitchen", "4": "living room", "5": "bathroom"},
               HOUSE_FLOORS, {"p": hobby}, lot=(x - 1, y, 22, 12))
    b.sectors[-1].props["article"] = "the"  # "the Okafor house"
    # front garden: flowers along the walk, a bench
    gy = y + 9
    garden = b.outdoor_arena(name, "garden", (x - 1, gy, 22, 3))
    b.thing("flower bed", [(x + 1 + i, gy + 1) for i in range(5)] + [(x + 13 + i, gy + 1) for i in range(5)])
    b.thing("garden bench", [(x + 18, gy), (x + 19, gy)])
    for yy in range(gy, gy + 3):
        b.set_ground(x + 9, yy, "gravel")
    assert garden


def park(b: Builder, x0: int, y0: int, w: int, h: int) -> None:
    name = "Willow Park"
    tiles = {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}
    b.sectors.append(Area(name, tiles))
    cx, cy = x0 + w // 2, y0 + h // 2
    # gravel paths crossing the park
    for x in range(x0, x0 + w):
        b.set_ground(x, cy, "gravel")
    for y in range(y0, y0 + h):
        b.set_ground(cx, y, "gravel")
    # quadrants
    lw, lh = cx - x0, cy - y0
    b.outdoor_arena(name, "lawn", (x0, y0, lw, lh))
    b.outdoor_arena(name, "pond side", (cx + 1, y0, x0 + w - cx - 1, lh))
    b.outdoor_arena(name, "playground", (x0, cy + 1, lw, y0 + h - cy - 1))
    b.outdoor_arena(name, "community garden", (cx + 1, cy + 1, x0 + w - cx - 1, y0 + h - cy - 1))
    b.outdoor_arena(name, "fountain square", (cx - 2, cy - 2, 5, 5))
    # fountain in the middle
    b.thing("fountain", [(cx, cy)])
    for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        b.set_ground(cx + dx, cy + dy, "flowers")
    # pond (water, with a sandy shore that is the 'pond' object one can walk to)
    px0, py0, pw, ph = cx + 5, y0 + 3, 10, 5
    shore = []
    for y in range(py0 - 1, py0 + ph + 1):
        for x in range(px0 - 1, px0 + pw + 1):
            inner = px0 <= x < px0 + pw and py0 <= y < py0 + ph
            corner = x in (px0, px0 + pw - 1) and y in (py0, py0 + ph - 1)
            if inner and not corner:
                b.set_ground(x, y, "water")
            else:
                b.set_ground(x, y, "sand")
                shore.append((x, y))
    b.thing("pond", shore, ground="sand")
    b.thing("park bench", [(px0 + 2, py0 + ph + 2), (px0 + 3, py0 + ph + 2), (px0 + 6, py0 + ph + 2),
                           (px0 + 7, py0 + ph + 2)])
    # lawn: picnic tables, trees
    b.thing("picnic table", [(x0 + 4, y0 + 4), (x0 + 5, y0 + 4), (x0 + 10, y0 + 6), (x0 + 11, y0 + 6)])
    b.thing("park bench", [(cx - 4, cy - 1), (cx - 3, cy - 1), (cx + 3, cy + 1), (cx + 4, cy + 1)])
    # playground
    b.thing("swing set", [(x0 + 4, cy + 4), (x0 + 5, cy + 4), (x0 + 6, cy + 4)])
    b.thing("slide", [(x0 + 10, cy + 5), (x0 + 11, cy + 6)])
    for x in range(x0 + 3, x0 + 13):
        for y in range(cy + 3, cy + 8):
            if b.furn[y, x] < 0:
                b.set_ground(x, y, "sand")
    # community garden
    gx = cx + 3
    for row in range(3):
        b.thing("vegetable patch", [(gx + i, cy + 3 + row * 2) for i in range(8)])
    b.thing("tool shed", [(gx + 11, cy + 3), (gx + 12, cy + 3)])
    b.thing("flower bed", [(gx + i, cy + 9) for i in range(0, 12, 2)])
    # trees around the edge (spaced so they never block a way)
    for x in range(x0, x0 + w, 3):
        for y in (y0, y0 + h - 1):
            if b.ground[y, x] in (T.tile_id("grass"), T.tile_id("grass", "plain")):
                b.set_ground(x, y, "tree")


def trees(b: Builder, rng: random.Random, n: int) -> None:
    """Sprinkle trees on open grass, never next to anything but grass."""
    grass = {T.tile_id("grass"), T.tile_id("grass", "plain")}
    placed = 0
    tries = 0
    sector_tiles = set()
    for s in b.sectors:
        sector_tiles |= s.tiles
    while placed < n and tries < n * 50:
        tries += 1
        x, y = rng.randrange(1, W - 1), rng.randrange(1, H - 1)
        if (x, y) in sector_tiles:
            continue
        if all(b.ground[y + dy, x + dx] in grass and b.furn[y + dy, x + dx] < 0
               for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            b.set_ground(x, y, "tree")
            placed += 1


def make(out: Path) -> None:
    b = Builder()
    # grass variation
    rng = random.Random(7)
    for y in range(H):
        for x in range(W):
            if rng.random() < 0.8:
                b.set_ground(x, y, "grass", "plain")
    b.roads(xs=[38, 80], ys=[25, 53])
    for name, bed1, bed2, hobby, at in HOUSES:
        house(b, name, bed1, bed2, hobby, at)
    b.building(TOWN_HALL, 43, 2, "Town Hall",
               {"1": "lobby", "2": "mayor's office", "3": "clerk's office", "4": "council chamber"},
               "stone", {**TOWN_HALL_LEGEND, "d": "desk"}, lot=(43, 2, 19, 16))
    b.building(CAFE, 63, 3, "Bluebell Cafe", {"1": "cafe", "2": "kitchen", "3": "restroom"},
               {"1": "wood", "2": "tile", "3": "tile"}, CAFE_LEGEND, lot=(63, 3, 17, 14))
    b.thing("cafe table", [(65, 16), (66, 16), (69, 16), (70, 16)])  # the terrace
    b.outdoor_arena("Bluebell Cafe", "terrace", (63, 15, 17, 3))
    b.building(COLLEGE, 87, 3, "Oakhill College",
               {"1": "lecture hall", "2": "classroom", "3": "faculty office", "4": "computer lab",
                "5": "hallway"}, {"1": "wood", "2": "wood", "3": "carpet", "4": "tile", "5": "stone"},
               COLLEGE_LEGEND, lot=(85, 1, 34, 19))
    b.outdoor_arena("Oakhill College", "quad", (86, 18, 32, 3))
    b.thing("park bench", [(92, 19), (93, 19), (108, 19), (109, 19)])
    b.building(DORM, 85, 31, "Oakhill College dorm",
               {"1": "Priya's room", "2": "dorm room 2", "3": "dorm room 3", "4": "dorm room 4",
                "5": "dorm bathroom", "6": "common room", "8": "dorm kitchen"},
               {"1": "carpet", "2": "carpet", "3": "carpet", "4": "carpet", "5": "tile", "6": "wood",
                "8": "tile"}, DORM_LEGEND, lot=(85, 30, 34, 19))
    b.outdoor_arena("Oakhill College dorm", "dorm garden", (86, 42, 32, 5))
    b.thing("picnic table", [(90, 44), (91, 44)])
    b.thing("flower bed", [(100 + i, 43) for i in range(8)])
    b.building(LIBRARY, 90, 61, "Oakhill College library", {"1": "reading room", "2": "stacks"},
               "carpet", LIBRARY_LEGEND, lot=(88, 59, 28, 16))
    b.building(MARKET, 45, 59, "Greenway Market and Pharmacy", {"1": "grocery", "2": "pharmacy"},
               "stone", MARKET_LEGEND, lot=(44, 58, 26, 11))
    b.building(PUB, 48, 71, "The Copper Kettle", {"1": "pub", "2": "pub kitchen", "3": "Marcus's flat"},
               {"1": "wood", "2": "tile", "3": "carpet"}, PUB_LEGEND, lot=(46, 70, 24, 13))
    b.building(SUPPLY, 6, 71, "Brody's Supply Store", {"1": "shop floor", "2": "storeroom"},
               "stone", SUPPLY_LEGEND, lot=(4, 70, 24, 12))
    park(b, 44, 31, 35, 21)
    b.finish_walls()
    trees(b, random.Random(11), 260)
    # town edge: a row of hedges with gaps is not needed; leave the grass open
    out.mkdir(parents=True, exist_ok=True)
    write_tmx(out / "town.tmx", b.ground, b.furn, b.sectors, b.arenas, b.objects,
              properties={"town": TOWN})
    write_tsx(out)
    print(f"wrote {out / 'town.tmx'}: {W}x{H}, {len(b.sectors)} sectors, {len(b.arenas)} arenas, "
          f"{len({o.name for o in b.objects})} kinds of objects")


if __name__ == "__main__":
    make(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "game" / "maps" / "default")
