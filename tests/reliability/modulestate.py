"""Find module-level mutable state in Python source, by reading its AST (no import, nothing run).

A finding is a name bound at module level (or in a class body) to a mutable object that code changes at run
time:

- a container (``{}``, ``[]``, ``set()``, a comprehension, ``dict(...)``, ``collections.defaultdict(...)``,
  ``OrderedDict``, ``deque``, ``Counter``, a weakref dictionary or set) that a function of the module, or of a
  module importing it, changes: ``NAME[k] = v``, ``NAME[k] += v``, ``del NAME[k]``, ``NAME.append(...)``,
  ``NAME.update(...)`` and the other mutating methods, or ``cls.NAME`` / ``Class.NAME`` likewise for a class
  attribute;
- a synchronisation or counting object (a lock, semaphore, condition, event, queue, ``threading.local``,
  ``itertools.count``, an anyio or asyncio limiter): such an object exists to be changed, so it is a finding
  wherever it is bound at module level;
- a module-level name a function rebinds through ``global NAME`` (a lazily filled cache or singleton);
- a module-level object (bound to a call) whose attributes a function sets: ``STATE.reader = r``.

Constants and frozen tables pass: tuples, frozensets, ``MappingProxyType``, strings, numbers, frozen
dataclass instances, and a dict or list no code changes. A ``functools.lru_cache`` / ``cache`` on a function
passes too: it memoises a pure function of its arguments (the project's data loaders), which is not state a
caller can observe.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

#: calls that make a mutable container
CONTAINERS = frozenset({"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict", "deque", "Counter",
                        "ChainMap", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"})
#: calls that make an object whose whole purpose is to be changed
SYNC = frozenset({"Lock", "RLock", "Semaphore", "BoundedSemaphore", "Condition", "Event", "Barrier", "Queue",
                  "LifoQueue", "PriorityQueue", "SimpleQueue", "local", "count", "CapacityLimiter"})
#: methods that change a container in place
MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault",
                      "add", "discard", "difference_update", "intersection_update", "symmetric_difference_update",
                      "appendleft", "extendleft", "popleft", "rotate", "sort", "reverse", "__setitem__",
                      "__delitem__", "acquire", "release", "set"})


@dataclass(frozen=True)
class Finding:
    """One piece of module-level mutable state: where it is bound and why it counts."""

    path: str
    line: int
    name: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name}: {self.why}"


def _called(node: ast.AST) -> str | None:
    """The last name of the callable a Call node calls (``collections.defaultdict(list)`` → ``defaultdict``)."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def kind_of(value: ast.AST | None) -> str | None:
    """"container", "sync" or None for the value bound to a name."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return "container"
    name = _called(value)
    if name in CONTAINERS:
        return "container"
    if name in SYNC:
        return "sync"
    return None


def _bound(body: list[ast.stmt]) -> dict[str, tuple[int, str]]:
    """name → (line, kind) of each name *body* binds to a mutable value."""
    out = {}
    for stmt in body:
        targets, value = [], None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        kind = kind_of(value)
        for target in targets:
            if kind and isinstance(target, ast.Name):
                out[target.id] = (stmt.lineno, kind)
    return out


def _root(node: ast.AST) -> str | None:
    """The dotted name a mutation changes: ``NAME`` or ``owner.NAME`` (``cls._cache``, ``Reader._seen``)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def mutated(tree: ast.AST) -> set[str]:
    """The names (``NAME`` or ``owner.NAME``) code inside the functions of *tree* changes in place, and the
    names a function rebinds through ``global``."""
    out: set[str] = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(func):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                out.update(_root(t) for t in targets if isinstance(t, ast.Subscript) or isinstance(node, ast.AugAssign))
                out.update(f"attr {t.value.id}" for t in targets
                           if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                out.add(_root(node.func.value))
            elif isinstance(node, ast.Global):
                out.update(f"global {name}" for name in node.names)
    out.discard(None)
    return out


def module_findings(source: str, path: str = "<snippet>", extra_mutated: set[str] = frozenset()) -> list[Finding]:
    """The module-level mutable state of the module *source* (*extra_mutated*: names other modules change)."""
    tree = ast.parse(source)
    changed = mutated(tree) | set(extra_mutated)
    found = []
    for name, (line, kind) in _bound(tree.body).items():
        if kind == "sync":
            found.append(Finding(path, line, name, "a lock, semaphore, counter or queue at module level"))
        elif name in changed:
            found.append(Finding(path, line, name, "a module-level container changed at run time"))
    for stmt in tree.body:
        for target in _assigned_names(stmt):
            if isinstance(stmt.value, ast.Call) and f"attr {target}" in changed:
                found.append(Finding(path, stmt.lineno, target, "a module-level object whose attributes are set "
                                     "at run time"))
        if isinstance(stmt, ast.ClassDef):
            shadowed = _instance_names(stmt)  # set on the instance: self.NAME is the instance's own
            for name, (line, kind) in _bound(stmt.body).items():
                owners = {f"cls.{name}", f"{stmt.name}.{name}"} | (set() if name in shadowed else {f"self.{name}"})
                if kind == "sync" or owners & changed:
                    found.append(Finding(path, line, f"{stmt.name}.{name}", "a class-level container or lock shared "
                                         "by every instance, changed at run time"))
    globals_ = {n.removeprefix("global ") for n in changed if n.startswith("global ")}
    for stmt in tree.body:
        for target in _assigned_names(stmt):
            if target in globals_:
                found.append(Finding(path, stmt.lineno, target, "a module-level name rebound at run time (global)"))
                globals_.discard(target)
    return found


def _instance_names(cls: ast.ClassDef) -> set[str]:
    """The attribute names the methods of *cls* bind on the instance (``self.NAME = ...``)."""
    return {t.attr for node in ast.walk(cls) if isinstance(node, (ast.Assign, ast.AnnAssign))
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}


def _assigned_names(stmt: ast.stmt) -> list[str]:
    """The plain names a module-level statement binds."""
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def imported_mutations(tree: ast.AST, module: str) -> dict[str, set[str]]:
    """module → the names this *tree* imports from it (``from leishen.x import NAME``) and changes in place, or
    changes as ``alias.NAME`` after ``import leishen.x as alias``."""
    changed = mutated(tree)
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if (alias.asname or alias.name) in changed:
                    out.setdefault(node.module, set()).add(alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name
                names = {c.split(".", 1)[1] for c in changed if c.startswith(local + ".") and "." in c}
                if names:
                    out.setdefault(alias.name, set()).update(names)
    return out


def tree_findings(root: Path, folders: tuple[str, ...], package: str = "leishen") -> list[Finding]:
    """The findings of every module under *root*/*folder* for each of *folders*; a name counts as changed when
    its own module or any module of the walk changes it."""
    paths = sorted(p for folder in folders for p in (root / folder).rglob("*.py"))
    sources = {p: p.read_text(encoding="utf-8") for p in paths}
    names = {p: ".".join((package, *p.relative_to(root).with_suffix("").parts)).removesuffix(".__init__")
             for p in paths}
    elsewhere: dict[str, set[str]] = {}
    for path, source in sources.items():
        for module, changed in imported_mutations(ast.parse(source), names[path]).items():
            elsewhere.setdefault(module, set()).update(changed)
    return [finding for path, source in sources.items()
            for finding in module_findings(source, str(path.relative_to(root)), elsewhere.get(names[path], set()))]
