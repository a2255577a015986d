"""Plain records that flow from the data files to a backend.

A loader never talks to a database: it yields :class:`Node` and :class:`Edge` records (and the
:class:`Fact` they came from); a backend (NetworkX, Neo4j) stores them.  Every property value is
storable in Neo4j as it is: str, int, float, bool or a list of str.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Citation:
    """A passage of a source text: document id and 1-based line of the Chinese paragraph; or, for a standard
    table, a work of ``ontology/sources.csv`` and a *section* of it (``XJBF:卷二十七·月表八``, line 0)."""

    doc: str
    line: int
    section: str = ""

    @property
    def standard(self) -> bool:
        """Whether this cites a work outside the seeds (a standard table's source), not a seed passage."""
        return bool(self.section)

    def __str__(self) -> str:
        return f"{self.doc}:{self.section}" if self.section else f"{self.doc}:{self.line}"


@dataclass(frozen=True, slots=True)
class Ref:
    """A node reference as written in a data file: ``Label:name``."""

    label: str
    name: str

    def __str__(self) -> str:
        return f"{self.label}:{self.name}"


@dataclass(slots=True)
class Node:
    """One graph node; ``id`` is ``Label:key``."""

    id: str
    label: str
    props: dict = field(default_factory=dict)


@dataclass(slots=True)
class Edge:
    """One graph relation; ``key`` is unique in the whole graph."""

    src: str
    dst: str
    type: str
    key: str
    props: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Fact:
    """One row of a fact table after validation (node references resolved to node ids)."""

    id: str  # "<file>#<row>", stable while the file is not reordered
    relation: str
    subject: str  # node id
    object: str  # node id
    qualifiers: tuple[tuple[str, str | list], ...]  # (key, node id | literal)
    node_qualifiers: frozenset[str]  # keys whose value is a node id
    src: tuple[Citation, ...]
    terms: tuple[str, ...]
    variant: str
    note: str
    item: str
    file: str
    row: int
    when: str = ""  # the rule's condition (docs/rules.md), blank for a plain fact
    polarity: str = ""  # 吉 凶 平 混 of a rule's outcome
    judgment: str = ""  # what the text leaves to the reader, when anything

    @property
    def docs(self) -> set[str]:
        return {c.doc for c in self.src}

    def qualifier_dict(self) -> dict:
        return {k: v for k, v in self.qualifiers}

    def _named(self, *keys: str) -> tuple[str, ...]:
        return tuple(v for k, v in self.qualifiers if k.rstrip("0123456789") in keys and isinstance(v, str))

    @property
    def subject_alternatives(self) -> tuple[str, ...]:
        """The nodes the row names as alternatives of its subject (qualifiers ``alt``, ``alt2`` …, in order): 004:71
        截空與刑害 is one row of 截空 with alt 刑 and alt2 害."""
        return self._named("alt")

    @property
    def object_alternatives(self) -> tuple[str, ...]:
        """The nodes the row names as alternatives of its object (qualifiers ``or``, ``or2`` …, in order): 004:55
        惟忌驚傷與杜死 is one row of 值使 AVOIDS 驚門 with or 傷門, or2 杜門, or3 死門."""
        return self._named("or")

    def qualifiers_json(self) -> str:
        if not self.qualifiers:
            return "{}"
        return json.dumps(self.qualifier_dict(), ensure_ascii=False, sort_keys=True)


@dataclass(slots=True)
class GraphData:
    """Everything a backend needs: nodes, edges, and the facts they were built from."""

    nodes: list[Node]
    edges: list[Edge]
    facts: list[Fact]
    rules: list = field(default_factory=list)  # loaders.conditions.Rule, one per fact with a `when`
