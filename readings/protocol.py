"""The Predicate protocol: one evaluator class per condition kind, registered under the vocabulary's name for it.

Each class states, side by side, what the reading engine asks of a kind of condition:

- ``compile(call, vocab, system, sub)``: the compiled node of a parsed call (``sub`` compiles a part);
- ``ev(env, ctx, answers)``: ``(holds, witnesses, scope instances)`` from the chart and the backend's answers;
- ``need(env, ctx, out)``: three-valued (True / False / None = the graph decides), adding to *out* the ground
  checks the backend must answer;
- ``reads(rd)``: every chart value ``ev`` may read, as atoms (what a recalled outcome is kept under);
- ``slot_args()``, ``cost()``, ``chart_decided()``: the slots it reads outside inner scopes, what it costs
  to decide, whether the chart alone decides it.

A class declares the vocabulary predicates it evaluates (``names``) and their ``decided_by``. When a reader
is built, :func:`check_registered` refuses a vocabulary row with no class, or with a class of another
``decided_by``, naming the file, the row and the column. A new condition kind is one class (decorated with
:func:`register`) and one row of ontology/rules/vocabulary.toml.
"""

from __future__ import annotations

from leishen.errors import OntologyError
from leishen.loaders.conditions import Call, Vocabulary, vocabulary, vocabulary_path, vocabulary_row

FAIL = (False, [], [])


class Predicate:
    """A compiled condition of one kind (see the module's docstring for what each method answers)."""

    __slots__ = ()
    names: tuple[str, ...] = ()
    decided_by: str = ""

    @classmethod
    def compile(cls, call: Call, vocab: Vocabulary, system: str | None, sub) -> "Predicate":
        raise NotImplementedError

    def ev(self, env: dict, ctx, answers) -> tuple[bool, list, list]:
        raise NotImplementedError

    def need(self, env: dict, ctx, out: set) -> bool | None:
        return holds(self, env, ctx, {})

    def parts(self) -> tuple:
        """The nodes this one combines (none for a leaf)."""
        return ()

    def reads(self, rd) -> None:
        """Add to the collector *rd* (:class:`leishen.readings.outcomes.Reads`) every chart value this node's
        ``ev`` may read; the default: its parts' (a leaf that does not say is unread: never recalled)."""
        parts = self.parts()
        if not parts:
            rd.unread(self)
        for part in parts:
            part.reads(rd)

    def slot_args(self) -> list:
        """The slot arguments this node reads outside any inner scope, each once, in the condition's order."""
        return unique_args(a for part in self.parts() for a in part.slot_args())

    def cost(self) -> int:
        """What deciding it costs, to order the parts of an ``all``: a leaf 1, a logic node its parts' sum."""
        parts = self.parts()
        return sum(p.cost() for p in parts) if parts else 1

    def chart_decided(self) -> bool:
        """Whether the chart and the request alone decide it (no graph predicate, no pattern)."""
        return all(p.chart_decided() for p in self.parts())


def holds(node: Predicate, env: dict, ctx, answers) -> bool:
    """Whether *node* holds (its ``ev`` without the witnesses)."""
    ok, _, _ = node.ev(env, ctx, answers)
    return ok


def unique_args(args) -> list:
    """Slot arguments, each (local, name, path) once, in order."""
    found: dict = {}
    for a in args:
        if a is not None and a.slot is not None:
            found.setdefault((a.local, a.name, a.path), a)
    return list(found.values())


def register(cls: type) -> type:
    """Mark an evaluator class as the one for each vocabulary name it evaluates (a class decorator; the
    registry is read from the marked subclasses of :class:`Predicate`, :func:`registered`: no module state)."""
    cls.registered = "names"
    return cls


def register_templated(cls: type) -> type:
    """Mark the class that evaluates every predicate of its ``decided_by`` a vocabulary row defines by a
    template (``path`` or ``fact``), besides its own names."""
    cls.registered = "templated"
    return cls


def _subclasses(cls: type):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def registered(name: str, decided_by: str) -> type | None:
    """The marked evaluator class of the vocabulary name *name*, else the templated class of *decided_by*."""
    marked = [c for c in _subclasses(Predicate) if "registered" in c.__dict__]
    return (next((c for c in marked if name in c.names), None)
            or next((c for c in marked if c.registered == "templated" and c.decided_by == decided_by), None))


def predicate_class(name: str, vocab: Vocabulary | None = None) -> type:
    """The evaluator class of the predicate *name* of *vocab* (by default the vocabulary file's); OntologyError
    naming the file, row and column when no class is registered for it or the class is of another
    ``decided_by``."""
    pdef = (vocab or vocabulary()).predicates.get(name)
    if pdef is None:
        raise OntologyError(f"{vocabulary_path()}: no row predicates.{name}")
    kind = pdef.get("decided_by")
    cls = registered(name, kind if ("path" in pdef or "fact" in pdef) else None)
    if cls is None:
        raise OntologyError(f"{vocabulary_row(vocabulary_path(), name)}, column decided_by: no evaluator class is "
                            f"registered for predicate {name!r} (decided_by {kind!r})")
    if cls.decided_by != kind:
        raise OntologyError(f"{vocabulary_row(vocabulary_path(), name)}, column decided_by: {kind!r}, but its "
                            f"evaluator {cls.__name__} is decided by {cls.decided_by!r}")
    return cls


def check_registered(vocab: Vocabulary) -> None:
    """Every predicate of the vocabulary has an evaluator class of its ``decided_by`` (:func:`predicate_class`)."""
    for name in vocab.predicates:
        predicate_class(name, vocab)


def compile_condition(call: Call, vocab: Vocabulary, system: str | None = None,
                      interned: dict | None = None) -> Predicate:
    """The evaluator tree of a parsed condition (see :mod:`leishen.loaders.conditions`) of a rule of *system*
    (``void`` tests that system's void; None: the void of any system the chart has). With *interned*, equal
    conditions (and equal parts of conditions) of the same system are compiled once, into the same node, so
    what is kept per node is shared by every rule that has them."""
    def sub(part: Call) -> Predicate:
        return compile_condition(part, vocab, system, interned)

    if interned is None:
        return predicate_class(call.pred, vocab).compile(call, vocab, system, sub)
    key = (call, system)
    found = interned.get(key)
    if found is None:
        found = interned[key] = predicate_class(call.pred, vocab).compile(call, vocab, system, sub)
        if hasattr(found, "serial"):  # (a node whose results the reader keeps, by this number)
            found.serial = len(interned)
    return found
