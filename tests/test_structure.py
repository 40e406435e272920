"""The shape of ``game/`` (issue 28): objects composed, not mixed in; no import cycle even among
imports made only for the type checker; no private name reached across modules; short files and
short functions; ``Any`` kept rare.

Each check reads the source with ``ast`` (nothing is imported) and fails with the list of
offenders, so one run says everything that is left."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from test_layers import cycles, imports_of, module_name

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
MAX_ANY = 30  # annotations in game/ that mention Any
MAX_TOP_MODULES = 12  # issue 40: modules at the top of game/mind and game/engine (__init__.py not counted)
MAX_FORWARDS = 5  # issue 40: attributes a class forwards to one other object

# bases that are never a mixin of ours: a Protocol names what a part needs, an exception is a kind of error
_ASIDE = {"Protocol", "Exception", "BaseException", "Generic"}


# -- reading the sources ---------------------------------------------------------------------------------

def sources() -> dict[str, Path]:
    """Every module of the game (the built-in towns in game/maps are data, and hold no module)."""
    return {module_name(p): p for p in sorted(GAME.rglob("*.py")) if "__pycache__" not in p.parts}


_TREES: dict[Path, ast.Module] = {}


def tree(path: Path) -> ast.Module:
    if path not in _TREES:
        _TREES[path] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return _TREES[path]


def _base_of(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``from ... import`` names (relative imports resolved)."""
    base = node.module or ""
    if not node.level:
        return base
    pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    pkg = pkg[: len(pkg) - (node.level - 1)]
    return ".".join(pkg + ([base] if base else []))


def _resolve(dotted: str, known: set[str] | dict[str, Path]) -> str | None:
    """The innermost module of the game that ``dotted`` names (itself or a package above it)."""
    parts = dotted.split(".")
    while parts:
        cand = ".".join(parts)
        if cand in known:
            return cand
        parts.pop()
    return None


def game_imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of the game ``name`` imports anywhere, ``if TYPE_CHECKING:`` blocks included
    (test_layers.py reads the imports; it leaves those blocks out of the layers' graph)."""
    return {d for d in imports_of(name, path, known, type_checking=True) if d in known} - {name}


# -- classes ---------------------------------------------------------------------------------------------

def _base_name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


def classes() -> dict[tuple[str, str], list[tuple[str, str] | str]]:
    """(module, class) -> its bases: a (module, class) of the game, or the bare name of any other."""
    mods = sources()
    local: dict[str, dict[str, tuple[str, str]]] = {}
    for name, path in mods.items():
        names: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ImportFrom):
                base = _base_of(name, path, node)
                if _resolve(base, mods) or base == "game":
                    for alias in node.names:
                        names[alias.asname or alias.name] = (base, alias.name)
        for node in tree(path).body:
            if isinstance(node, ast.ClassDef):
                names[node.name] = (name, node.name)
        local[name] = names
    out: dict[tuple[str, str], list[tuple[str, str] | str]] = {}
    for name, path in mods.items():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ClassDef):
                bases: list[tuple[str, str] | str] = []
                for b in node.bases:
                    bn = _base_name(b)
                    bases.append(local[name].get(bn, bn) if isinstance(b, ast.Name | ast.Subscript) else bn)
                out[(name, node.name)] = bases
    return out


def _follow(ref: tuple[str, str], known: dict[tuple[str, str], list[tuple[str, str] | str]]) -> tuple[str, str] | None:
    """Where a class imported through a package's ``__init__`` is defined."""
    mod, cls = ref
    if ref in known:
        return ref
    for (m, c) in known:
        if c == cls and (m == mod or m.startswith(mod + ".")):
            return (m, c)
    return None


def multiple_game_bases() -> list[str]:
    known = classes()

    def aside(ref: tuple[str, str] | str, seen: frozenset[tuple[str, str]] = frozenset()) -> bool:
        """A Protocol or an exception (of the game or not)."""
        if isinstance(ref, str):
            return ref in _ASIDE or ref.endswith(("Error", "Exception"))
        found = _follow(ref, known)
        if found is None or found in seen:
            return False
        return any(aside(b, seen | {found}) for b in known[found])

    bad = []
    for (mod, cls), bases in sorted(known.items()):
        ours = [b for b in bases if isinstance(b, tuple) and _follow(b, known) and not aside(b)]
        if len(ours) > 1:
            bad.append(f"{mod}.{cls}({', '.join(b[1] for b in ours if isinstance(b, tuple))})")
    return bad


# -- private names, lengths, Any -------------------------------------------------------------------------

def private_imports() -> list[str]:
    mods = sources()
    bad = []
    for name, path in mods.items():
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = _base_of(name, path, node)
            if not (_resolve(base, mods) or base == "game"):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    bad.append(f"{name}:{node.lineno} imports {alias.name} from {base}")
    return bad


def long_files() -> list[str]:
    out = []
    for path in sources().values():
        n = len(path.read_bytes().splitlines())
        if n > MAX_FILE_LINES:
            out.append(f"{path.relative_to(ROOT)}: {n} lines")
    return out


def _functions(node: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
            yield sub


def long_functions() -> list[str]:
    out = []
    for path in sources().values():
        for fn in _functions(tree(path)):
            start = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
            n = (fn.end_lineno or fn.lineno) - start + 1
            if n > MAX_FUNCTION_LINES:
                out.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}: {n} lines")
    return out


def _mentions_any(expr: ast.expr | None) -> bool:
    if expr is None:
        return False
    for sub in ast.walk(expr):
        if isinstance(sub, ast.Name) and sub.id == "Any":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and "Any" in sub.value:
            try:
                inner = ast.parse(sub.value, mode="eval").body
            except SyntaxError:
                continue
            if _mentions_any(inner):
                return True
    return False


def annotations(node: ast.AST) -> Iterator[tuple[int, ast.expr]]:
    """Every annotation under ``node``: arguments, returns, annotated assignments, and the right side
    of a type alias (``X = dict[str, Any]``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg) and sub.annotation is not None:
            yield sub.lineno, sub.annotation
        elif isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) and sub.returns is not None:
            yield sub.lineno, sub.returns
        elif isinstance(sub, ast.AnnAssign):
            yield sub.lineno, sub.annotation


def any_annotations() -> list[str]:
    out = []
    for path in sources().values():
        t = tree(path)
        for lineno, ann in annotations(t):
            if _mentions_any(ann):
                out.append(f"{path.relative_to(ROOT)}:{lineno}")
        for node in t.body:  # module-level aliases: X = dict[str, Any] / X: TypeAlias = ...
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Subscript):
                if _mentions_any(node.value):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return sorted(out, key=lambda x: (x.rsplit(":", 1)[0], int(x.rsplit(":", 1)[1])))

# -- forwarding -----------------------------------------------------------------------------------------

# Textual finds an App's key actions and message handlers by name (``action_talk``, ``on_walk``): not counted
_FRAMEWORK_HOOKS = ("action_", "on_")


def _part(expr: ast.expr | None, aliases: frozenset[str] = frozenset()) -> str | None:
    """The part ``self.<part>.<x>`` reaches, or ``<alias>.<x>`` for a local bound to a part in
    ``__init__`` (``self.core = core = ...``); None: no attribute of a part."""
    if not isinstance(expr, ast.Attribute):
        return None
    base = expr.value
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "self":
        return base.attr
    if isinstance(base, ast.Name) and base.id in aliases:
        return base.id
    return None


def _forwarded(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The part a method only hands on to: its body (but a docstring) is one ``return self.p.x``,
    ``[return] [await] self.p.x(...)`` or, in a setter, ``self.p.x = value``."""
    body = [st for st in fn.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
    if len(body) != 1 or fn.name.startswith(_FRAMEWORK_HOOKS):
        return None
    st = body[0]
    if isinstance(st, ast.Assign) and len(st.targets) == 1:
        return _part(st.targets[0]) if isinstance(st.value, ast.Name) else None
    value = st.value if isinstance(st, ast.Return | ast.Expr) else None
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        value = value.func
    return _part(value)


def _bound(init: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, set[str]]:
    """The names ``__init__`` binds on ``self`` to a part's attribute (``self.observe = self.senses.observe``)."""
    aliases = frozenset(t.id for sub in ast.walk(init) if isinstance(sub, ast.Assign)
                        for t in sub.targets if isinstance(t, ast.Name))
    out: dict[str, set[str]] = {}
    for sub in ast.walk(init):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1:
            target, part = sub.targets[0], _part(sub.value, aliases)
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and part is not None):
                out.setdefault(part, set()).add(target.attr)
    return out


def forwards(cls: ast.ClassDef) -> dict[str, set[str]]:
    """part -> the attributes a class hands on to it: methods and properties that only forward
    (Textual's hooks aside), and names bound in ``__init__`` to a part's attribute."""
    out: dict[str, set[str]] = {}
    for node in cls.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        part = _forwarded(node)
        if part is not None:
            out.setdefault(part, set()).add(node.name)
        if node.name == "__init__":
            for part, names in _bound(node).items():
                out.setdefault(part, set()).update(names)
    return out


def forwarding() -> dict[str, dict[str, set[str]]]:
    """``module.Class`` -> part -> the attributes it forwards there, for every class of the game."""
    out: dict[str, dict[str, set[str]]] = {}
    for name, path in sources().items():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ClassDef) and (found := forwards(node)):
                out[f"{name}.{node.name}"] = found
    return out


def top_modules(package: Path) -> list[str]:
    """The modules at the top of ``package`` (its sub-packages and their modules not counted)."""
    return sorted(p.name for p in package.glob("*.py") if p.name != "__init__.py")


def sub_packages(package: Path) -> list[Path]:
    return sorted(p.parent for p in package.glob("*/__init__.py"))


def _listing(items: list[str]) -> str:
    return "\n  " + "\n  ".join(items)


# -- the checks ------------------------------------------------------------------------------------------

def test_the_sources_are_read() -> None:
    mods = sources()
    assert "game.engine.engine" in mods and "game.mind.mind" in mods
    assert ("game.engine.engine", "Engine") in classes()


def test_a_cycle_under_type_checking_is_found(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    a = tmp_path / "game" / "a.py"
    a.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.b import B\n")
    assert game_imports_of("game.a", a, {"game.a", "game.b"}) == {"game.b"}
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_no_class_has_more_than_one_base_class_from_the_game() -> None:
    bad = multiple_game_bases()
    assert not bad, f"classes made of more than one class of the game (compose parts instead):{_listing(bad)}"


def test_no_import_cycle_even_under_type_checking() -> None:
    mods = sources()
    g = {name: game_imports_of(name, path, set(mods)) for name, path in mods.items()}
    found = [" <-> ".join(c) for c in cycles(g)]
    assert not found, f"import cycles among modules of the game (TYPE_CHECKING imports counted):{_listing(found)}"


def test_no_private_name_is_imported_from_another_module() -> None:
    bad = private_imports()
    assert not bad, f"private names imported across modules (make them public or move them):{_listing(bad)}"


def test_no_file_is_over_400_lines() -> None:
    bad = long_files()
    assert not bad, f"files over {MAX_FILE_LINES} lines:{_listing(bad)}"


def test_no_function_is_over_60_lines() -> None:
    bad = long_functions()
    assert not bad, f"functions over {MAX_FUNCTION_LINES} lines:{_listing(bad)}"


def test_any_is_in_at_most_30_annotations() -> None:
    found = any_annotations()
    assert len(found) <= MAX_ANY, (f"{len(found)} annotations mention Any (at most {MAX_ANY}):"
                                   f"{_listing(found)}")


def test_the_mind_and_the_engine_keep_at_most_12_modules_at_their_top_level() -> None:
    for package in (GAME / "mind", GAME / "engine"):
        found = top_modules(package)
        assert len(found) <= MAX_TOP_MODULES, (f"{package.relative_to(ROOT)} has {len(found)} modules at its top "
                                               f"(at most {MAX_TOP_MODULES}; a sub-package holds the rest):"
                                               f"{_listing(found)}")


def test_each_sub_package_of_the_mind_and_the_engine_says_what_it_owns() -> None:
    subs = [sub for package in (GAME / "mind", GAME / "engine") for sub in sub_packages(package)]
    assert len(subs) >= 5
    bare = [str(sub.relative_to(ROOT)) for sub in subs
            if not (ast.get_docstring(tree(sub / "__init__.py")) or "").strip()]
    assert not bare, f"sub-packages whose __init__.py has no docstring:{_listing(bare)}"


def test_forwarding_is_found() -> None:
    src = ("class A:\n    def __init__(self, p):\n        self.p = p = P()\n        self.f = self.p.f\n"
           "        self.k = p.k\n        self.m = math.pi\n    def on_key(self):\n        return self.p.key()\n"
           "    @property\n    def x(self):\n        return self.p.x\n"
           "    async def g(self, n):\n        \"\"\"doc\"\"\"\n        return await self.q.g(n)\n"
           "    def h(self):\n        return len(self.p.y)\n")
    cls = ast.parse(src).body[0]
    assert isinstance(cls, ast.ClassDef)
    assert forwards(cls) == {"p": {"f", "k", "x"}, "q": {"g"}}


def test_no_class_forwards_more_than_5_attributes_to_another() -> None:
    found = forwarding()
    assert "game.engine.engine.Engine" in found and "game.mind.mind.Mind" in found
    bad = [f"{cls} -> {part}: {len(names)} ({', '.join(sorted(names))})" for cls, parts in sorted(found.items())
           for part, names in sorted(parts.items()) if len(names) > MAX_FORWARDS]
    assert not bad, (f"classes that forward more than {MAX_FORWARDS} attributes to another (let callers use the "
                     f"part, or give the part the work):{_listing(bad)}")
