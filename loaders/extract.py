"""Cross-check the hand-written fact tables against the texts' regular enumerations.

Where a passage is a regular list (relation lists, ``甲乙日…`` tables, ``X屬Y`` lists) an
extractor reads it by pattern from the corpus at run time and :func:`cross_check` compares the
tuples with the fact rows that cite the same passages:

>>> from leishen.loaders.corpus import load_corpus            # doctest: +SKIP
>>> from leishen.loaders.build import load_facts
>>> cross_check(load_corpus(), load_facts())                  # [] when every table agrees

Rules of the comparison (see docs/extraction.md):

* every tuple the text gives must be a fact row (a regular row or a variant row, which records
  the text's own reading);
* a text tuple that names no node because of a known scribal slip (:data:`SLIPS`: 亥刑害, 氏 for
  氐, 云 for 雲) is accepted when a variant row records exactly the corrected tuple;
* every fact row must be found in the text, except a regular row whose variant row — its partner:
  one slot different, of the same counted item or else the nearest row — the text shows (000:95
  writes 午's mansions 柳星張 after 未: the text rows 未→柳… stand for the regular 午→柳…);
* a row found in the text must cite the passage that gives it (extractors run line by line).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from leishen.loaders.corpus import Corpus
from leishen.loaders.extract_000 import SPECS as SPECS_000
from leishen.loaders.extract_002 import SPECS as SPECS_002
from leishen.loaders.extract_lx000 import SPECS as SPECS_LX000
from leishen.loaders.extract_qimen import SPECS as SPECS_QIMEN
from leishen.loaders.extract_util import Row, Spec
from leishen.loaders.schema import load_schema, ontology_dir
from leishen.loaders.tables import Registry, read_entities

__all__ = ["SLIPS", "SPECS", "Difference", "cross_check", "differences", "extract_all"]

SPECS: list[Spec] = [*SPECS_000, *SPECS_LX000, *SPECS_002, *SPECS_QIMEN]
SLIPS = {"害": "亥", "氏": "氐", "云": "雲"}  # written → meant, each recorded as a variant row


@dataclass(frozen=True, order=True)
class Difference:
    """One disagreement: ``kind`` is ``text-only`` (the text has a tuple no row holds),
    ``table-only`` (a row the text does not show) or ``wrong-line`` (a row the text gives in
    another passage than the one it cites); ``where`` names the passages or the file and row."""

    spec: str
    kind: str
    row: Row
    where: str = ""

    def __str__(self) -> str:
        shown = " ".join(x for x in self.row if x)
        if self.kind == "text-only":
            return f"{self.spec}: the text ({self.where}) gives ({shown}) but no fact row holds it"
        if self.kind == "wrong-line":
            return f"{self.spec}: ({shown}) {self.where}"
        return f"{self.spec}: {self.where} ({shown}) is not in the text"


def passage_text(corpus: Corpus, spec: Spec) -> str:
    """The passages a spec reads, one per line."""
    lines = corpus.passages.get(spec.doc, {})
    return "\n".join(lines[n] for n in spec.lines if n in lines)


def extract_all(corpus: Corpus) -> dict[str, set[Row]]:
    """Every extractor's tuples, by spec name, as the text writes them."""
    return {spec.name: spec.extract(passage_text(corpus, spec)) for spec in SPECS}


@cache
def _index() -> tuple[dict, dict]:
    """(label, name or alias) → node id, and node id → name, from the entity tables."""
    registry, errors = Registry(load_schema()), []
    read_entities(ontology_dir() / "entities", registry, errors)
    return registry.index, {nid: node.props["name"] for nid, node in registry.nodes.items()}


def canonical(labels, name: str) -> str:
    """*name* as its node's name under the first of *labels* that knows it (aliases resolved)."""
    index, names = _index()
    for label in (labels,) if isinstance(labels, str) else labels or ():
        if (label, name) in index:
            return names[index[(label, name)]]
    return name


def _canon(spec: Spec, row: Row) -> Row:
    return tuple(canonical(spec.labels[i] if i < len(spec.labels) else None, x) for i, x in enumerate(row))


def _same(spec: Spec, a: Row, b: Row) -> bool:
    if a == b:
        return True
    return spec.fuzzy and a[:-1] == b[:-1] and bool(a[-1]) and bool(b[-1]) and (a[-1] in b[-1] or b[-1] in a[-1])


def _has(spec: Spec, rows, row: Row) -> bool:
    return any(_same(spec, row, r) for r in rows)


def _one_slot(a: Row, b: Row) -> bool:
    return len(a) == len(b) and a[0] == b[0] and sum(x != y for x, y in zip(a, b)) == 1


def _passages(spec: Spec) -> str:
    first, last = spec.lines[0], spec.lines[-1]
    return f"{spec.doc}:{first}" + (f"–{last}" if last != first else "")


def _where(fact: dict) -> str:
    file, _, row = fact["id"].partition("#")
    flag = f", variant {fact['variant']}" if fact["variant"] else ""
    return f"{file} row {row}{flag}"


def _distance(a: dict, b: dict) -> tuple[bool, int]:
    """How far apart two rows are: same counted item first, then rows of one file by row number."""
    (fa, _, ra), (fb, _, rb) = a["id"].partition("#"), b["id"].partition("#")
    same_item = bool(a["item"]) and a["item"] == b["item"]
    return (not same_item, abs(int(ra) - int(rb)) if fa == fb else 10**6)


def _explained(regular: list[tuple[dict, Row]], missing: set[str], variants: list[tuple[dict, Row]]) -> set[str]:
    """Ids of the missing regular rows that a variant row found in the text stands for.

    A variant row's partner is the regular row it differs from in one slot — the one of its
    counted item, else the nearest in its file; the partner is explained when the text lacks it.
    """
    done = set()
    for v, vrow in variants:
        options = [f for f, r in regular if _one_slot(r, vrow)]
        if options and (partner := min(options, key=lambda f: _distance(f, v))["id"]) in missing:
            done.add(partner)
    return done


def _shown(spec: Spec, found: set[Row]) -> set[Row]:
    """The text's tuples under node names, each also with its known slips corrected."""
    text = {_canon(spec, t) for t in found}
    return text | {tuple(SLIPS.get(x, x) for x in t) for t in text}


def compare(spec: Spec, found: set[Row], facts: list[dict]) -> list[Difference]:
    """The differences between one extractor's tuples and the fact rows it covers."""
    rows = [(f, r) for f in facts if (r := spec.row(f)) is not None]
    variants = {r for f, r in rows if f["variant"]}
    every = [r for _, r in rows]
    out = []
    for t in sorted({_canon(spec, t) for t in found}):
        fixed = tuple(SLIPS.get(x, x) for x in t)
        if not _has(spec, every, t) and not (fixed != t and fixed in variants):
            out.append(Difference(spec.name, "text-only", t, _passages(spec)))
    shown = _shown(spec, found)
    missing = {f["id"] for f, r in rows if not _has(spec, shown, r)}
    regular = [(f, r) for f, r in rows if not f["variant"]]
    explained = _explained(regular, missing, [(f, r) for f, r in rows if f["variant"] and f["id"] not in missing])
    out += [Difference(spec.name, "table-only", r, _where(f))
            for f, r in rows if f["id"] in missing and f["id"] not in explained]
    return out


def compare_lines(spec: Spec, by_line: dict[int, set[Row]], facts: list[dict]) -> list[Difference]:
    """Rows found in the text but not in the passage they cite (``wrong-line``)."""
    shown = {n: _shown(spec, found) for n, found in by_line.items()}
    anywhere = set().union(*shown.values())
    out = []
    for f in facts:
        r = spec.row(f)
        if r is None or not _has(spec, anywhere, r):
            continue
        cited = [int(src.partition(":")[2]) for src in f["src"] if src in spec.srcs]
        if not any(_has(spec, shown.get(n, ()), r) for n in cited):
            at = [f"{spec.doc}:{n}" for n, rows in shown.items() if _has(spec, rows, r)]
            out.append(Difference(spec.name, "wrong-line", r, f"{_where(f)} cites {'|'.join(f['src'])}, "
                                                             f"the text gives it at {'|'.join(at)}"))
    return out


def differences(corpus: Corpus, facts: list[dict], names: set[str] | None = None) -> list[Difference]:
    """Run every extractor (or those named) and compare it with *facts* (``load_facts()``)."""
    out = []
    for spec in SPECS:
        if names is None or spec.name in names:
            lines = corpus.passages.get(spec.doc, {})
            by_line = {n: spec.extract(lines[n]) for n in spec.lines if n in lines}
            out += compare(spec, set().union(*by_line.values()), facts)
            out += compare_lines(spec, by_line, facts)
    return out


def cross_check(corpus: Corpus, facts: list[dict]) -> list[str]:
    """Every difference between the texts' regular enumerations and the fact tables, readable."""
    return [str(d) for d in differences(corpus, facts)]
