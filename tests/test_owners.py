"""Who writes what (issue 40): each field of a resident's state (``Resident``, game/engine/state.py)
and of a mind's state (``MindCore``, game/mind/core.py; ``Agenda``, game/mind/planning/agenda.py) is
written by one module, its owner; the other parts ask the owner through a method.

A write is an assignment to ``x.field`` (plain, augmented, annotated, to an item of it, or ``del``)
and, for a field that holds a container, a call that changes it (``x.field.append(...)``, ``.pop``,
``.clear``...).  Whose field ``x.field`` is comes from the sources, read with ``ast`` like
tests/test_structure.py: ``self`` is the class it is written in; a name, from its annotation; an
attribute of an object, from the annotations of that object's class.  A receiver whose type the
sources do not say (a loop's variable, an unannotated local) counts as a write of every record that
has the field: a test that errs towards seeing a second writer.  The test prints the table."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from test_structure import ROOT, _listing, game_imports_of, sources, tree

# the records of state, by class name: the module that defines each
RECORDS = {"Resident": "game.engine.state", "MindCore": "game.mind.core", "Agenda": "game.mind.planning.agenda"}

# calls that change the container they are called on
MUTATORS = {"append", "appendleft", "extend", "insert", "pop", "popleft", "popitem", "clear", "update", "add",
            "discard", "remove", "setdefault", "sort", "reverse", "rotate", "subtract"}
CONTAINERS = {"list", "dict", "set", "Counter", "deque", "OrderedDict", "defaultdict"}

# (record, field) -> why more than one module writes it; empty: every field has one owner
ALLOWED: dict[tuple[str, str], str] = {}


# -- what the sources declare ----------------------------------------------------------------------------

def _type_name(expr: ast.expr | None) -> str:
    """The class an annotation or a constructor call names: ``Resident | None`` -> Resident,
    ``dict[str, Resident]`` -> dict, ``Counter()`` -> Counter."""
    if expr is None:
        return ""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            expr = ast.parse(expr.value, mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(expr, ast.BinOp):  # X | None
        left, right = _type_name(expr.left), _type_name(expr.right)
        return left if left != "None" else right
    if isinstance(expr, ast.Subscript | ast.Call):
        return _type_name(expr.value if isinstance(expr, ast.Subscript) else expr.func)
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Constant) and expr.value is None:
        return "None"
    return ""


def _init_args(cls: ast.ClassDef) -> dict[str, ast.expr]:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            return {a.arg: a.annotation for a in node.args.args + node.args.kwonlyargs if a.annotation is not None}
    return {}


def class_attributes(cls: ast.ClassDef) -> dict[str, ast.expr]:
    """A class's attributes and their types: annotated in its body (a dataclass's fields), or set on
    ``self`` in ``__init__`` (annotated, a parameter's annotation, or a constructor called); and its
    methods, by what they return."""
    out: dict[str, ast.expr] = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            out[node.name] = node.returns
    args = _init_args(cls)
    for node in cls.body:
        if not (isinstance(node, ast.FunctionDef) and node.name == "__init__"):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Attribute) and _on_self(sub.target):
                out[sub.target.attr] = sub.annotation
            elif isinstance(sub, ast.Assign):
                for target in sub.targets:
                    if isinstance(target, ast.Attribute) and _on_self(target) and target.attr not in out:
                        value = sub.value
                        found = args.get(value.id) if isinstance(value, ast.Name) else value
                        if found is not None:
                            out[target.attr] = found
    return out


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


_ITEMS = {"list", "Sequence", "Iterable", "Iterator", "set", "frozenset", "deque", "tuple", "Collection",
          "ValuesView", "KeysView"}
_MAPS = {"dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "Counter"}


def _args(ann: ast.Subscript) -> list[ast.expr]:
    return list(ann.slice.elts) if isinstance(ann.slice, ast.Tuple) else [ann.slice]


def element(ann: ast.expr | None, values: bool = False) -> ast.expr | None:
    """What iterating over (``values``: over ``.values()`` of) a thing of type ``ann`` gives."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        ann = ast.parse(ann.value, mode="eval").body
    if isinstance(ann, ast.BinOp):
        return element(ann.left, values) or element(ann.right, values)
    if not isinstance(ann, ast.Subscript):
        return None
    base, args = _type_name(ann.value), _args(ann)
    if base in _MAPS and len(args) == 2:
        return args[1] if values else args[0]
    if base in _ITEMS and not values:
        return args[0]
    return None


def all_classes() -> dict[str, tuple[str, ast.ClassDef]]:
    """Every class of the game by name (a name two modules use is left out: it says no type)."""
    seen: dict[str, list[tuple[str, ast.ClassDef]]] = defaultdict(list)
    for name, path in sources().items():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ClassDef):
                seen[node.name].append((name, node))
    return {cls: found[0] for cls, found in seen.items() if len(found) == 1}


def record_fields() -> dict[str, dict[str, str]]:
    """record -> its fields and their types (properties and methods are not fields)."""
    known = all_classes()
    out = {}
    for record, module in RECORDS.items():
        mod, cls = known[record]
        assert mod == module, f"{record} is defined in {mod}, not {module}"
        methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        out[record] = {k: _type_name(v) for k, v in class_attributes(cls).items() if k not in methods}
    return out


# -- who writes them -------------------------------------------------------------------------------------

class _Writes(ast.NodeVisitor):
    """The writes of one module: (record, field) -> the lines, for the fields of ``fields``."""

    def __init__(self, fields: dict[str, dict[str, str]], classes: dict[str, tuple[str, ast.ClassDef]],
                 near: set[str] | None = None) -> None:
        self.fields, self.classes = fields, classes
        self.near = set(fields) if near is None else near  # the records a receiver of no known type may be
        self.attrs: dict[str, dict[str, ast.expr]] = {}
        self.cls: list[str] = []
        self.names: list[dict[str, ast.expr]] = [{}]
        self.found: dict[tuple[str, str], list[int]] = defaultdict(list)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.cls.append(node.name)
        self.generic_visit(node)
        self.cls.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        names = dict(self.names[-1])
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        names.update({a.arg: a.annotation for a in args if a.annotation is not None})
        self.names.append(names)
        for sub in ast.walk(node):  # the locals, as far as their values say
            if isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Name):
                names[sub.target.id] = sub.annotation
            elif isinstance(sub, ast.Assign):
                for target in sub.targets:
                    self._bind(target, sub.value)
            elif isinstance(sub, ast.For | ast.AsyncFor | ast.comprehension) and isinstance(sub.target, ast.Name):
                found = self._element(sub.iter)
                if found is not None:
                    names[sub.target.id] = found
        self.generic_visit(node)
        self.names.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts, strict=True):
                self._bind(t, v)
        elif isinstance(target, ast.Name):
            found = self.annotation_of(value)
            if found is not None:
                self.names[-1][target.id] = found

    def _element(self, it: ast.expr) -> ast.expr | None:
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "values":
            return element(self.annotation_of(it.func.value), values=True)
        return element(self.annotation_of(it))

    def _attributes(self, cls: str) -> dict[str, ast.expr]:
        if cls not in self.attrs:
            self.attrs[cls] = class_attributes(self.classes[cls][1]) if cls in self.classes else {}
        return self.attrs[cls]

    def annotation_of(self, expr: ast.expr) -> ast.expr | None:
        """The type of ``expr`` as the sources annotate it; None: not said."""
        if isinstance(expr, ast.Name):
            if expr.id == "self" and self.cls:
                return ast.Name(self.cls[-1])
            return self.names[-1].get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = _type_name(self.annotation_of(expr.value))
            return self._attributes(base).get(expr.attr) if base else None
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            if expr.func.attr in ("get", "pop", "setdefault"):  # of a mapping: one of its values
                found = element(self.annotation_of(expr.func.value), values=True)
                if found is not None:
                    return found
            return self.annotation_of(expr.func)  # a method: what it returns
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in self.classes:
            return expr.func  # a constructor
        if isinstance(expr, ast.Subscript):
            return element(self.annotation_of(expr.value), values=True) or element(self.annotation_of(expr.value))
        return None

    def type_of(self, expr: ast.expr) -> str | None:
        return _type_name(self.annotation_of(expr)) or None

    def _write(self, target: ast.expr, lineno: int, mutation: bool = False) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self._write(elt, lineno)
            return
        if isinstance(target, ast.Subscript):
            target, mutation = target.value, True
        if not isinstance(target, ast.Attribute):
            return
        owner = self.type_of(target.value)
        for record, fields in self.fields.items():
            if target.attr not in fields or (owner is not None and owner != record) or (
                    owner is None and record not in self.near):
                continue
            if mutation and fields[target.attr] not in CONTAINERS:
                continue  # a call on an object that keeps its own state (a memory stream asked to add)
            self.found[(record, target.attr)].append(lineno)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._write(target, node.lineno)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._write(node.target, node.lineno)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._write(node.target, node.lineno)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._write(target, node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            self._write(node.func.value, node.lineno, mutation=True)
        self.generic_visit(node)


def writers() -> dict[tuple[str, str], dict[str, list[int]]]:
    """(record, field) -> the modules that write it -> the lines where."""
    fields, classes = record_fields(), all_classes()
    table: dict[tuple[str, str], dict[str, list[int]]] = {
        (record, field): {} for record, fs in fields.items() for field in fs}
    for name, path in sources().items():
        found = _Writes(fields, classes, near(name, path))
        found.visit(tree(path))
        for key, lines in found.found.items():
            table[key][name] = sorted(lines)
    return table


def near(name: str, path: Path) -> set[str]:
    """The records a module may write through a receiver of no known type: those of its own package
    (game.engine, game.mind) and of the packages it imports from (a tar member's ``name`` is not a
    resident's)."""
    mods = sources()
    packages = {".".join(name.split(".")[:2])} | {".".join(d.split(".")[:2]) for d in
                                                   game_imports_of(name, path, set(mods))}
    return {record for record, module in RECORDS.items() if ".".join(module.split(".")[:2]) in packages}


def owner_table(table: dict[tuple[str, str], dict[str, list[int]]]) -> list[str]:
    rows = []
    for (record, field), mods in sorted(table.items()):
        where = "; ".join(f"{m} ({', '.join(map(str, lines))})" for m, lines in sorted(mods.items()))
        rows.append(f"{record}.{field}: {where or '(not written)'}")
    return rows


# -- the checks ------------------------------------------------------------------------------------------

def test_the_records_and_their_fields_are_read() -> None:
    fields = record_fields()
    assert {"pos", "needs_decision", "salient", "seeking"} <= set(fields["Resident"])
    assert {"memory", "stats", "identity"} <= set(fields["MindCore"])
    assert {"plan", "queue", "current"} <= set(fields["Agenda"])
    assert fields["MindCore"]["stats"] == "Counter" and fields["Resident"]["salient"] == "list"


def test_a_write_is_found_through_an_annotated_name_and_not_through_another_class(tmp_path: Path) -> None:
    src = ("class Other:\n    def __init__(self) -> None:\n        self.salient = []\n"
           "    def f(self, r: Resident, o: 'Other', x) -> None:\n"
           "        r.salient.append(1)\n        o.salient.append(2)\n        x.seeking = None\n"
           "        self.salient.clear()\n        r.reacted['a'] = 1\n")
    found = _Writes(record_fields(), all_classes())
    found.visit(ast.parse(src))
    assert dict(found.found) == {("Resident", "salient"): [5], ("Resident", "seeking"): [7],
                                 ("Resident", "reacted"): [9]}


def test_each_field_of_a_residents_and_a_minds_state_has_one_writer() -> None:
    table = writers()
    print("owner table (issue 40):" + _listing(owner_table(table)))
    bad = [row for row, ((record, field), mods) in zip(owner_table(table), sorted(table.items()), strict=True)
           if len(mods) > 1 and (record, field) not in ALLOWED]
    assert not bad, ("fields written by more than one module (give the field to one part and let the others "
                     f"ask it through a method):{_listing(bad)}")
    stale = [f"{r}.{f}" for (r, f) in ALLOWED if len(table.get((r, f), {})) <= 1]
    assert not stale, f"allowed to have several writers but has one now (drop it from ALLOWED):{_listing(stale)}"


def test_the_owner_table_reads_the_game_of_this_checkout() -> None:
    assert (ROOT / "game" / "engine" / "state.py").exists()
