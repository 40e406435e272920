"""No file under ``game/`` is over ``MAX_LINES`` lines (a longer one is split by responsibility,
docs/ARCHITECTURE.md), and the import graph of ``game/`` holds: no cycle between its modules (imports inside functions
included: a function-local import is still a dependency, only a later one), and the layers point
down only: ui > engine > mind, world > llm; ``game/measure`` and ``game/replay`` sit beside the
engine and never import the screen; only ``game/ui`` imports Textual.

A small AST check of our own: every ``import`` and ``from ... import`` in every module, at any
depth, resolved to the module of the game it names.  Imports under ``if TYPE_CHECKING:`` are left
out: they are never run (they name a type for a reader and a type checker)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
MAX_LINES = 500  # issue 14: past this a module holds more than one responsibility

# package -> the packages of the game it must never import (directly or inside a function)
FORBIDDEN = {
    "game.engine": {"game.ui", "game.measure", "game.replay"},
    "game.replay": {"game.ui", "game.measure"},
    "game.measure": {"game.ui"},
    "game.mind": {"game.ui", "game.engine", "game.measure", "game.replay", "game.world"},
    "game.world": {"game.ui", "game.engine", "game.measure", "game.replay", "game.mind", "game.llm"},
    "game.llm": {"game.ui", "game.engine", "game.measure", "game.replay", "game.mind", "game.world"},
    "game.text": {"game"},
    "game.errors": {"game"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(GAME.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str], *, type_checking: bool = False) -> set[str]:
    """The modules of the game ``name`` imports, and every other top-level package it imports;
    with ``type_checking``, the imports under ``if TYPE_CHECKING:`` too (tests/test_structure.py)."""
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    root = ast.parse(path.read_text(encoding="utf-8"))
    for node in (ast.walk(root) if type_checking else _walk(root)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(_resolve(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name.split(".") if is_pkg else name.split(".")[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else _resolve(base, known))
    return out


def _walk(node: ast.AST):
    """Every node under ``node``, but not the body of an ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def _resolve(dotted: str, known: set[str]) -> str:
    """The innermost module of the game that ``dotted`` names (itself, or a package above it)."""
    parts = dotted.split(".")
    while parts:
        cand = ".".join(parts)
        if cand in known:
            return cand
        parts.pop()
    return dotted


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in g.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _within(mod: str, pkg: str) -> bool:
    return mod == pkg or mod.startswith(pkg + ".")


def test_the_graph_is_read():
    g = graph()
    assert "game.engine.engine" in g and "game.engine.state" in g["game.engine.engine"]
    assert "textual" in {m.split(".")[0] for m in g["game.ui.app"]}


def test_type_checking_imports_are_left_out(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import game.ui\n"
                   "def f():\n    import game.llm\n")
    assert imports_of("game.m", mod, {"game.ui", "game.llm"}) == {"typing", "game.llm"}


def test_a_cycle_is_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles_between_modules_of_the_game():
    assert cycles(graph()) == []


def test_the_layers_point_down():
    bad = []
    for mod, deps in graph().items():
        for pkg, forbidden in FORBIDDEN.items():
            if not _within(mod, pkg):
                continue
            for dep in deps:
                if any(_within(dep, f) for f in forbidden) and not _within(dep, pkg):
                    bad.append(f"{mod} imports {dep}")
    assert bad == []


def test_only_the_ui_imports_textual():
    bad = [f"{mod} imports {dep}" for mod, deps in graph().items() if not _within(mod, "game.ui")
           for dep in deps if dep.split(".")[0] == "textual"]
    assert bad == []


def long_files(root: Path, limit: int = MAX_LINES, skip: tuple[str, ...] = ()) -> dict[str, int]:
    """Files under ``root`` (source, templates, data; not caches, not the folders ``skip``) with
    more than ``limit`` lines."""
    out = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        if path.relative_to(root).parts[0] in skip:
            continue
        n = len(path.read_bytes().splitlines())
        if n > limit:
            out[str(path.relative_to(root))] = n
    return out


def test_a_long_file_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * 501)
    (tmp_path / "pkg" / "short.txt").write_text("y\n" * 500)
    assert long_files(tmp_path) == {"pkg/long.py": 501}


def test_no_file_of_the_game_is_over_500_lines():
    # game/maps holds the built-in towns: maps made in Tiled (or by tools/), not modules
    assert long_files(GAME, skip=("maps",)) == {}
