"""The works outside the seeds that the standard tables cite (``ontology/sources.csv``).

The seeds (``000`` ``002`` ``003`` ``004``) are cited ``doc:line``. A *standard table* — a table every school
assumes and the seeds use without printing (月厭 生氣 死氣 by month, 喪門 弔客 by year branch, the sixty
納音) — is cited ``ID:section``: the id of a work listed in ``ontology/sources.csv`` and a section of it
(卷 and part or entry heading, e.g. ``XJBF:卷二十七·月表八``) that the work's ``section`` pattern accepts.
Such a citation names no seed passage: the corpus checks skip it, and nothing of the work's text is stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from leishen.errors import OntologyError
from leishen.loaders.csvfile import read_dicts

COLUMNS = ("id", "name", "ko", "en", "compiled", "edition", "section", "note")
SOURCE_ID = re.compile(r"^[A-Z]{3,8}$")


@dataclass(frozen=True, slots=True)
class Source:
    """A work a standard table cites: its id, names, edition, and the pattern its sections follow."""

    id: str
    name: str
    ko: str
    en: str
    compiled: str
    edition: str
    section: re.Pattern
    note: str


def _source(n: int, row: dict, errors: list[str]) -> Source | None:
    """The Source of one row of sources.csv, or None after appending what is wrong with it."""
    where = f"sources.csv row {n}"
    if not SOURCE_ID.fullmatch(row["id"]):
        errors.append(f"{where} column id: {row['id']!r} is not 3-8 capital ASCII letters (e.g. XJBF)")
        return None
    if not row["name"] or not row["en"]:
        errors.append(f"{where}: name and en are required")
        return None
    try:
        pattern = re.compile(row["section"])
    except re.error as exc:
        errors.append(f"{where} column section: not a regular expression ({exc})")
        return None
    return Source(row["id"], row["name"], row["ko"], row["en"], row["compiled"], row["edition"], pattern,
                  row["note"])


@cache
def read_sources(folder: Path) -> dict[str, Source]:
    """id → Source, from ``<folder>/sources.csv`` (none when the file is absent); OntologyError naming the
    row of any bad one."""
    path = folder / "sources.csv"
    if not path.exists():
        return {}
    errors: list[str] = []
    out: dict[str, Source] = {}
    for n, row in read_dicts(path, "sources.csv", errors, columns=COLUMNS):
        source = _source(n, row, errors)
        if source is not None and out.setdefault(source.id, source) is not source:
            errors.append(f"sources.csv row {n} column id: {source.id} is listed twice")
    if errors:
        raise OntologyError(errors[0] if len(errors) == 1 else "\n  ".join(errors))
    return out


def sources() -> dict[str, Source]:
    """The works of the ontology folder in use (:func:`leishen.loaders.schema.ontology_dir`)."""
    from leishen.loaders.schema import ontology_dir  # here: schema imports nothing of ours at import time
    return read_sources(ontology_dir())


def source_problem(doc: str, section: str) -> str | None:
    """Why ``doc:section`` is not a standard-source citation (None when it is one)."""
    found = sources().get(doc)
    if found is None:
        known = ", ".join(sorted(sources())) or "none listed"
        return f"{doc!r} is neither a seed document nor a work of ontology/sources.csv ({known})"
    if not found.section.fullmatch(section):
        return f"section {section!r} of {doc} does not follow its form {found.section.pattern}"
    return None
