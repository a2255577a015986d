"""Coverage of the inventory: expected counts per section against the items present in the facts."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from leishen.loaders.csvfile import read_dicts
from leishen.loaders.records import Fact
from leishen.loaders.schema import ontology_dir
from leishen.loaders.tables import raise_errors


#: the columns of each kind of coverage table (a header lacking one or holding another is refused)
COLUMNS = {"missing_*.csv": ("item", "section", "reason"), "expected_*.csv": ("section", "doc", "title", "expected"),
           "documents.csv": ("doc", "title", "expected"), "extraction_known.csv": ("spec", "kind", "row", "src", "reason")}


def _rows(pattern: str) -> list[dict]:
    """The rows of every ``coverage/<pattern>`` table, read strictly (its columns exactly those of
    :data:`COLUMNS`); OntologyError naming file and row."""
    out, errors = [], []
    for path in sorted((ontology_dir() / "coverage").glob(pattern)):
        rows = read_dicts(path, f"coverage/{path.name}", errors, rows_required=not path.name.startswith("missing_"),
                          columns=COLUMNS[pattern])
        out += [{**r, "_file": path.name} for _, r in rows]
    raise_errors(errors, "the coverage tables")
    return out


def section_of(item: str) -> str:
    """The section of an inventory item id: everything before its last '.'."""
    return item.rsplit(".", 1)[0]


def coverage_report(facts: list[Fact], citations: dict | None = None) -> dict:
    """Expected vs present per section and per document, with the missing items and their reasons."""
    present: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        if fact.item:
            present[section_of(fact.item)].add(fact.item)
    missing: dict[str, list[dict]] = defaultdict(list)
    for row in _rows("missing_*.csv"):
        missing[row["section"]].append({"item": row["item"], "reason": row["reason"]})
    sections, per_doc = [], defaultdict(int)
    for row in _rows("expected_*.csv"):
        sec, expected = row["section"], int(row["expected"])
        have = len(present.get(sec, ()))
        listed = missing.get(sec, [])
        sections.append({"section": sec, "doc": row["doc"], "title": row["title"], "expected": expected,
                         "present": have, "missing": listed, "unlisted": max(0, expected - have - len(listed))})
        per_doc[row["doc"]] += min(have, expected)
    known = {s["section"] for s in sections}
    stray = sorted(s for s in present if s not in known)
    documents = {r["doc"]: {"expected": int(r["expected"]), "present": min(per_doc[r["doc"]], int(r["expected"]))}
                 for r in _rows("documents.csv")}
    total = {"expected": sum(d["expected"] for d in documents.values()),
             "present": sum(d["present"] for d in documents.values())}
    return {"documents": documents, "total": total, "sections": sections,
            "sections_without_expectation": stray, "citations": citations or {"checked": 0, "failed": 0}}


def known_extraction_differences() -> dict[tuple, str]:
    """The understood differences between the texts' enumerations and the tables
    (``coverage/extraction_known.csv``): (spec, kind, row tuple) → reason."""
    return {(r["spec"], r["kind"], tuple(r["row"].split("|"))): r["reason"]
            for r in _rows("extraction_known.csv")}


def coverage_dir() -> Path:
    return ontology_dir() / "coverage"
