"""Read and check the rules' conditions (the ``when`` column) against the vocabulary.

A condition is one Python-syntax expression (``all(eq(初傳, Branch.卯), …)``), parsed with the
standard :mod:`ast` module and never executed. Every predicate, slot, scope, suffix, relation type and
symbol is checked against ``ontology/rules/vocabulary.toml`` and the schema; an error names the file,
the row and the column ``when`` (with the offset in the cell), and no graph is built while any is bad.

The checked condition is a tree of :class:`Call` (predicate name and arguments), whose leaves are
:class:`Slot`, :class:`Sym` (a node id), :class:`Rel`, :class:`Scope` or ``int``.
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from leishen.loaders.records import Fact
from leishen.loaders.schema import Schema, ontology_dir

POLARITIES = ("吉", "凶", "平", "混")
LOGIC = ("all", "any", "not", "some", "every", "at")
#: what decides a predicate (its ``decided_by`` in vocabulary.toml); the readings register one evaluator class per
#: predicate under it (leishen.readings.protocol)
DECIDED_BY = ("chart", "graph", "rules", "request", "logic")
TRANSMISSIONS = ("初傳", "中傳", "末傳")  # the slots ``at`` names a transmission by (scope 傳)


@dataclass(frozen=True, slots=True)
class Slot:
    """A chart slot, optionally with suffixes (``初傳.將`` → name 初傳, path ("將",))."""

    name: str
    path: tuple[str, ...] = ()

    def __str__(self) -> str:
        return ".".join((self.name, *self.path))


@dataclass(frozen=True, slots=True)
class Sym:
    """A symbol of the graph, resolved to its node id; *name*: the name it was written with (``Deity.勾陳`` is the
    node 白虎 named 勾陳: a Qimen deity rule matches the deity as the chart names it)."""

    id: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class Rel:
    """A relation type; ``reverse`` when written ``~TYPE``."""

    type: str
    reverse: bool = False


@dataclass(frozen=True, slots=True)
class Scope:
    name: str


@dataclass(frozen=True, slots=True)
class Call:
    """A predicate applied to its arguments."""

    pred: str
    args: tuple


@dataclass(frozen=True, slots=True)
class Rule:
    """A fact whose meaning holds when its condition does."""

    fact: str  # fact id
    system: str
    when: Call
    polarity: str
    judgment: str
    text: str


@dataclass(frozen=True)
class Vocabulary:
    systems: dict
    scopes: dict
    suffixes: dict
    predicates: dict

    def slot_label(self, system: str, name: str) -> str | None:
        sysdef = self.systems[system]
        name = sysdef.get("aliases", {}).get(name, name)
        return sysdef["slots"].get(name)

    def systems_of(self, name: str) -> set[str]:
        return {s for s, d in self.systems.items() if name in d["slots"] or name in d.get("aliases", {})}


def row_line(path: Path, table: str, column: str | None = None) -> int:
    """The 1-based line of a TOML table's header ``[table]`` (or of its *column* key) in *path*; 0 when absent."""
    header, line = None, 0
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = text.strip()
        if stripped.startswith("["):
            if header is not None:
                break
            if stripped.replace('"', "") == f"[{table}]":
                header = line = n
        elif header is not None and column and stripped.split("=")[0].strip() == column:
            return n
    return line


def check_decided_by(predicates: dict, path: Path) -> None:
    """Every predicate row names what decides it (``decided_by``, one of DECIDED_BY): OntologyError naming the
    file, the row and the column otherwise."""
    from leishen.errors import OntologyError
    for name, pdef in predicates.items():
        kind = pdef.get("decided_by")
        if kind not in DECIDED_BY:
            found = "is missing" if kind is None else f"is {kind!r}"
            raise OntologyError(f"{vocabulary_row(path, name)}, column decided_by {found}; expected one of "
                                f"{', '.join(DECIDED_BY)}")


def vocabulary_row(path: Path, name: str) -> str:
    """``FILE:LINE: row predicates.NAME`` of a predicate row of the vocabulary (the line of its decided_by)."""
    line = row_line(path, f"predicates.{name}", "decided_by")
    return f"{path}:{line}: row predicates.{name}" if line else f"{path}: row predicates.{name}"


@cache
def _vocabulary(path: Path) -> Vocabulary:
    """The vocabulary of *path*; OntologyError naming the file when it is no regular UTF-8 TOML file."""
    from leishen.errors import OntologyError
    from leishen.loaders.regular import read_utf8
    try:
        raw = tomllib.loads(read_utf8(path, str(path), OntologyError))
    except tomllib.TOMLDecodeError as exc:
        raise OntologyError(f"{path}: not TOML ({exc})") from None
    missing = [key for key in ("systems", "scopes", "suffixes", "predicates") if key not in raw]
    if missing:
        raise OntologyError(f"{path}: lacks the table(s) {', '.join(missing)}")
    check_decided_by(raw["predicates"], path)
    return Vocabulary(raw["systems"], raw["scopes"], raw["suffixes"], raw["predicates"])


def vocabulary_path() -> Path:
    return ontology_dir() / "rules" / "vocabulary.toml"


def vocabulary() -> Vocabulary:
    """The vocabulary of ``ontology/rules/vocabulary.toml``."""
    return _vocabulary(vocabulary_path())


class ConditionError(ValueError):
    """One problem in a condition, with the 0-based offset in the cell."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


class _Checker:
    """Turns the ast of one condition into checked :class:`Call` trees."""

    def __init__(self, vocab: Vocabulary, schema: Schema, index: dict, system_hint: str):
        self.vocab, self.schema, self.index = vocab, schema, index
        self.hint = system_hint
        self.systems: set[str] = set(vocab.systems)
        self.scopes: list[str] = []  # enclosing scopes, innermost last

    def fail(self, node: ast.AST, message: str):
        raise ConditionError(message, getattr(node, "col_offset", 0))

    def call(self, node: ast.AST) -> Call:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):  # `not(…)` parses as the operator
            inner = self.call(node.operand)
            if inner.pred == "some" and isinstance(inner.args[1], Call) and inner.args[1].pred == "not":
                return Call("every", (inner.args[0], inner.args[1].args[0]))  # not(some(S, not(c))) = every(S, c)
            return Call("not", (inner,))
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.keywords:
            self.fail(node, "expected a predicate call such as eq(初傳, Branch.卯)")
        name = node.func.id
        pdef = self.vocab.predicates.get(name)
        if pdef is None:
            known = ", ".join(sorted(self.vocab.predicates))
            self.fail(node, f"unknown predicate {name!r} (known: {known})")
        kinds = pdef["args"]
        star = bool(kinds) and kinds[-1].endswith("*")
        if (not star and len(node.args) != len(kinds)) or (star and len(node.args) < len(kinds)):
            want = f"at least {len(kinds)}" if star else str(len(kinds))
            self.fail(node, f"{name} takes {want} argument(s), got {len(node.args)}")
        if name in ("some", "every", "at"):
            return self._scoped(name, node)
        within = pdef.get("scope")  # a predicate of one instance of a scope (pattern_here: the palace)
        if within and (not self.scopes or self.scopes[-1] != within):
            self.fail(node, f"{name} tests one instance of {within}: write it inside some({within}, …), "
                            f"every({within}, …) or at(<a {within} slot>, …)")
        args = []
        for i, arg in enumerate(node.args):
            kind = kinds[min(i, len(kinds) - 1)].rstrip("*")
            args.append(self.arg(arg, kind, name, i))
        if name == "eq" and isinstance(args[1], int):
            label = self.label_of(args[0], node.args[0])
            if label != "int":
                self.fail(node.args[1], f"eq: {args[0]} is a {label} slot; a number compares only with a "
                                        "number slot (局)")
        if name in ("eq", "among", "same"):
            self._check_labels(name, node, args)
        return Call(name, tuple(args))

    def _check_labels(self, name: str, node: ast.Call, args: list) -> None:
        """A slot compared with a symbol or a slot of another label can never hold: refuse it."""
        want = self.labels_of(args[0], node.args[0])
        for arg, arg_node in zip(args[1:], node.args[1:]):
            if isinstance(arg, Sym):
                got = {arg.id.partition(":")[0]}
            elif isinstance(arg, Slot):
                got = self.labels_of(arg, arg_node)
            else:
                continue
            if not want & got:
                shown = ast.unparse(arg_node) if isinstance(arg, Sym) else f"the {'/'.join(sorted(got))} slot {arg}"
                self.fail(arg_node, f"{name}: {args[0]} binds {'/'.join(sorted(want))} nodes only, never {shown}")

    def labels_of(self, slot: Slot, node: ast.AST) -> set[str]:
        """The labels a slot may be bound to (a local slot such as 課's 下 may take two)."""
        label = self.label_of(slot, node)
        if not slot.path:
            for scope in reversed(self.scopes):
                found = self.vocab.scopes[scope]["locals"].get(slot.name)
                if found:
                    return set(found.split("|"))
        return {label.rstrip("*")}

    def _scoped(self, name: str, node: ast.Call) -> Call:
        first = node.args[0]
        if name in ("some", "every"):
            if not isinstance(first, ast.Name) or first.id not in self.vocab.scopes:
                self.fail(first, f"{name}: {ast.unparse(first)!r} is not a scope ({', '.join(self.vocab.scopes)})")
            scope = first.id
            head: object = Scope(scope)
        else:
            head = self.slot(first)
            scope = self._scope_of(head, first)
        self._restrict({self.vocab.scopes[scope]["system"]}, first)
        self.scopes.append(scope)
        try:
            body = self.call(node.args[1])
        finally:
            self.scopes.pop()
        return Call(name, (head, body))

    def _scope_of(self, slot: Slot, node: ast.AST) -> str:
        """The scope whose instance ``at(slot, …)`` names."""
        if slot.name in TRANSMISSIONS and not slot.path:
            return "傳"
        label = self.label_of(slot, node)
        if label == "Palace":
            return "宮"
        if label in ("Branch", "Stem") and self.systems & {"liuren"}:
            return "位"
        self.fail(node, f"at: slot {slot} names no scope instance (a transmission, a palace or a branch)")

    def _restrict(self, systems: set[str], node: ast.AST) -> None:
        left = self.systems & systems
        if not left:
            self.fail(node, f"mixes slots of different systems ({', '.join(sorted(self.systems | systems))})")
        self.systems = left

    def arg(self, node: ast.AST, kind: str, pred: str, i: int):
        options = kind.split("|")
        if "cond" in options:
            return self.call(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and "int" in options:
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert) and "rel" in options:
            return self.rel(node.operand, reverse=True)
        if isinstance(node, ast.Name) and "rel" in options and node.id.isascii() and node.id.isupper():
            return self.rel(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in self.schema.labels:
            want = [o.partition(":")[2] for o in options if o.startswith("node")]
            if not want:
                self.fail(node, f"{pred}: argument {i + 1} must be a {kind}, not a symbol")
            return self.symbol(node, [w for w in want if w])
        if isinstance(node, (ast.Name, ast.Attribute)) and "slot" in options:
            return self.slot(node)
        self.fail(node, f"{pred}: argument {i + 1} {ast.unparse(node)!r} is not a {kind}")

    def rel(self, node: ast.AST, reverse: bool = False) -> Rel:
        if not isinstance(node, ast.Name) or node.id not in self.schema.relations:
            self.fail(node, f"unknown relation type {ast.unparse(node)!r}")
        return Rel(node.id, reverse)

    def symbol(self, node: ast.Attribute, labels: list[str]) -> Sym:
        label, name = node.value.id, node.attr
        if labels and label not in labels:
            self.fail(node, f"{label}.{name}: expected a {' or '.join(labels)}")
        found = self.index.get((label, name))
        if found is None:
            self.fail(node, f"unknown symbol {label}.{name} (no {label} of that name or alias)")
        return Sym(found, name)

    def slot(self, node: ast.AST) -> Slot:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            self.fail(node, f"{ast.unparse(node)!r} is not a slot")
        slot = Slot(node.id, tuple(reversed(parts)))
        self.label_of(slot, node)
        if self._local(node.id) is None:  # a chart-level alias (干上) is stored as its slot (課1上)
            for sysdef in self.vocab.systems.values():
                slot = Slot(sysdef.get("aliases", {}).get(slot.name, slot.name), slot.path)
        return slot

    def label_of(self, slot: Slot, node: ast.AST) -> str:
        """The label a slot is bound to (checks the name, the suffixes and the system)."""
        label = self._local(slot.name)
        if label is None:
            systems = self.vocab.systems_of(slot.name)
            if not systems:
                local = f"; local slots here: {', '.join(self._locals())}" if self.scopes else ""
                self.fail(node, f"unknown slot {slot.name!r}{local}")
            self._restrict(systems, node)
            system = self.hint if self.hint in self.systems else sorted(self.systems)[0]
            label = self.vocab.slot_label(system, slot.name)
        for suffix in slot.path:
            sdef = self.vocab.suffixes.get(suffix)
            if sdef is None:
                self.fail(node, f"unknown slot suffix .{suffix} (known: {', '.join(self.vocab.suffixes)})")
            if label.rstrip("*") not in sdef["on"]:
                self.fail(node, f"{slot}: .{suffix} applies to a {'/'.join(sdef['on'])} slot, not {label}")
            self._restrict({sdef["system"]}, node)
            label = sdef["gives"]
        return label

    def _locals(self) -> list[str]:
        return [n for s in self.scopes for n in self.vocab.scopes[s]["locals"]]

    def _local(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            found = self.vocab.scopes[scope]["locals"].get(name)
            if found:
                return found.split("|")[0]
        return None


def parse_condition(text: str, *, schema: Schema, index: dict, system_hint: str = "liuren",
                    vocab: Vocabulary | None = None) -> tuple[Call, str]:
    """The checked condition of *text* and its system (against *vocab*, by default the vocabulary file's);
    ConditionError on any problem."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ConditionError(f"not an expression: {exc.msg}", max((exc.offset or 1) - 1, 0)) from None
    except RecursionError:
        raise ConditionError("nested too deeply") from None
    checker = _Checker(vocab or vocabulary(), schema, index, system_hint)
    try:
        call = checker.call(tree.body)
    except ConditionError as exc:  # ast offsets count UTF-8 bytes; report characters
        exc.offset = len(text.strip().encode()[: exc.offset].decode(errors="ignore"))
        raise
    systems = checker.systems
    return call, system_hint if system_hint in systems else sorted(systems)[0]


def _hint(vocab: Vocabulary, fact: Fact) -> str:
    for system, sysdef in vocab.systems.items():
        if any(d in fact.docs for d in sysdef.get("docs", ())):
            return system
    return "liuren"


def read_rules(facts: list[Fact], schema: Schema, index: dict, errors: list[str]) -> list[Rule]:
    """The rules of every fact that has a ``when``; errors name file, row and column."""
    vocab, rules = vocabulary(), []
    for fact in facts:
        where = f"{fact.file} row {fact.row}"
        if not fact.when:
            if fact.polarity or fact.judgment:
                errors.append(f"{where}, column when: polarity/judgment given without a condition")
            continue
        if fact.polarity not in POLARITIES:
            errors.append(f"{where}, column polarity: {fact.polarity!r} is not one of {' '.join(POLARITIES)}")
            continue
        try:
            call, system = parse_condition(fact.when, schema=schema, index=index, system_hint=_hint(vocab, fact),
                                           vocab=vocab)
        except ConditionError as exc:
            errors.append(f"{where}, column when (at {exc.offset}): {exc}")
            continue
        rules.append(Rule(fact.id, system, call, fact.polarity, fact.judgment, fact.when))
    return rules
