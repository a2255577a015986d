"""A new condition kind is one class and one vocabulary row (issue #30, item 1), and the vocabulary refuses a row
whose kind has no class, names another decided_by, or names none — with the file, the row and the column.

The kind added here, ``clashes(A, B)`` (A's branch clashes with B's, 沖), is decided by the graph through a
class of its own (no path template): it grounds one check, the backend answers it, and its witness is the
CLASHES edge. tests/neo4j/test_readings_conformance.py reads it on Neo4j too.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from leishen.engine.calendar import BRANCHES
from leishen.engine.chart import build_chart
from leishen.errors import OntologyError
from leishen.loaders.conditions import check_decided_by, vocabulary
from leishen.readings.predicates import Arg
from leishen.readings.protocol import FAIL, Predicate, check_registered, register, unique_args
from leishen.readings.records import GraphWitness, PathCheck
from leishen.readings.read import Reader
from leishen.service.book import new_reader

ROW = {"args": ["slot|node", "slot|node"], "decided_by": "graph", "en": "A's branch clashes with B's (沖)"}


@register
class Clashes(Predicate):
    """``clashes(A, B)``: a CLASHES edge joins A's node and B's (either way)."""

    __slots__ = ("ends",)
    names, decided_by = ("clashes",), "graph"

    def __init__(self, ends):
        self.ends = ends

    @classmethod
    def compile(cls, call, vocab, system, sub):
        return cls([Arg(a, vocab) for a in call.args])

    def checks(self, env, ctx) -> list:
        a, z = (e.value(env, ctx.bindings) for e in self.ends)
        return [PathCheck("path", a, (("CLASHES", "either"),), z)] if isinstance(a, str) and isinstance(z, str) else []

    def ev(self, env, ctx, answers):
        for check in self.checks(env, ctx):
            hops = answers.get(check)
            if hops:
                start = self.ends[0].bound(env, ctx.bindings)
                return True, [GraphWitness("graph", hops, start.chain if start and start.value == hops[0].source else None,
                                           None)], []
        return FAIL

    def need(self, env, ctx, out):
        checks = self.checks(env, ctx)
        out.update(checks)
        return None if checks else False

    def reads(self, rd):
        for a in self.ends:
            rd.arg(a)

    def slot_args(self):
        return unique_args(self.ends)

    def cost(self):
        return 4

    def chart_decided(self):
        return False


def extended_vocabulary():
    """The vocabulary with the row of ``clashes``."""
    vocab = vocabulary()
    return dataclasses.replace(vocab, predicates={**vocab.predicates, "clashes": ROW})


def clash_charts() -> tuple[dict, dict]:
    """(a chart whose 初傳 clashes with its 日支, one whose 初傳 does not), searched hour by hour."""
    found: dict = {}
    t = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    while len(found) < 2:
        chart = build_chart(t)
        lr = chart["liuren"]
        first, day = BRANCHES.index(lr["transmissions"][0]), BRANCHES.index(lr["day"][1])
        found.setdefault((first - day) % 12 == 6, chart)
        t += timedelta(hours=2)
    return found[True], found[False]


def read_clashes(reader: Reader) -> tuple[dict, dict]:
    """``clashes(初傳, 日支)`` tested on the two charts, the reader reading the extended vocabulary."""
    reader.vocab = extended_vocabulary()
    return tuple(reader.test(chart, "clashes(初傳, 日支)") for chart in clash_charts())


@pytest.fixture(scope="module")
def readers():
    return new_reader(), new_reader(cache=False)


def test_a_new_kind_is_one_class_and_one_row(readers):
    for reader in readers:  # the cached answers (asked lazily) and the batched checks (asked in one call)
        holds, fails = read_clashes(reader)
        assert holds["holds"] and not fails["holds"]
        walk = holds["walks"][0]
        assert walk[0]["slot"] == "初傳" and walk[1]["rel"] == "CLASHES" and walk[1]["src"]
        assert fails["walks"] == []
    assert read_clashes(readers[0]) == read_clashes(readers[1])


def test_a_row_without_its_class_is_refused():
    vocab = extended_vocabulary()
    unknown = dataclasses.replace(vocab, predicates={**vocab.predicates, "opposes": ROW})
    with pytest.raises(OntologyError, match=r"vocabulary\.toml: row predicates\.opposes, column decided_by: no "
                                            r"evaluator class"):
        check_registered(unknown)
    other = dataclasses.replace(vocab, predicates={**vocab.predicates, "clashes": {**ROW, "decided_by": "chart"}})
    with pytest.raises(OntologyError, match=r"row predicates\.clashes, column decided_by: 'chart', but its "
                                            r"evaluator Clashes is decided by 'graph'"):
        check_registered(other)
    check_registered(vocab)  # the row and its class agree


def test_a_missing_or_unknown_decided_by_is_refused_at_load(tmp_path):
    path = tmp_path / "vocabulary.toml"
    path.write_text('[predicates.eq]\nargs = ["slot", "node"]\ndecided_by = "chart"\n\n'
                    '[predicates.odd]\nargs = ["slot"]\ndecided_by = "guess"\n', encoding="utf-8")
    with pytest.raises(OntologyError, match=r"vocabulary\.toml:7: row predicates\.odd, column decided_by is "
                                            r"'guess'; expected one of chart, graph, rules, request, logic"):
        check_decided_by({"eq": {"decided_by": "chart"}, "odd": {"decided_by": "guess"}}, path)
    with pytest.raises(OntologyError, match=r"row predicates\.odd, column decided_by is missing"):
        check_decided_by({"odd": {"args": ["slot"]}}, path)
