"""The rule book: what every reading over one graph shares, made once per graph fingerprint and never changed.

A :class:`RuleBook` holds the rules compiled into their condition trees (one node per distinct condition), the
pattern cases and the other rules in reading order, the tables read off the facts (seasons, meanings, the topics
and what they consult), the node catalogue, and **the graph's answers**: every ground check the compiled graph
leaves can ask (each argument ranging over the nodes of its slot's label, the suffixes followed; a condition class
of its own says its checks by ``every_check``) and every check of
the lore readings, answered by the named traversal query ``rule_checks`` in one call, each that holds with its
smallest witness (its edges and their ``src``), and the rows of ``relations_among`` (every Stem and Branch) and
``relations_from`` (every node, the 類象 / 旬中神煞 / topic-table types). A reading over a book asks no backend:
a check the book was not made with (of a condition class without ``every_check``) is the only one asked.
:mod:`leishen.service.book` stores the book in the disk cache; a reading loads it without the graph.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from leishen.loaders.conditions import vocabulary
from leishen.loaders.rule_coverage import MEANING_RELATIONS
from leishen.loaders.schema import load_schema
from leishen.readings.bindings import Lexicon
from leishen.readings.evaluate import compile_condition
from leishen.readings.leixiang_qimen import TABLE_TYPE, topic_places
from leishen.readings.lore import (LEIXIANG_TYPES, RELATION_TYPES, SHENSHA_TYPES, fact_checks, pair_index,
                                   shensha_places)
from leishen.readings.protocol import check_registered
from leishen.readings.records import ask_checks
from leishen.readings.outcomes import rule_reads
from leishen.readings.search import Selecting, patterns_tested
from leishen.readings.topics import Topics, condition_topic

FACT_PROPS = ("key", "label", "name", "src")  # what a path reads of a Fact node
FROM_TYPES = (*LEIXIANG_TYPES, TABLE_TYPE, *SHENSHA_TYPES)  # the types a reading asks relations_from for


class BookRule(NamedTuple):
    """A rule as a reading reads it (its condition is the book's compiled tree): its fact, system, polarity, the
    judgment the text leaves to the reader, and the patterns its condition tests."""

    fact: str
    system: str
    polarity: str
    judgment: str
    patterns: frozenset


class RuleBook(Topics, Selecting):
    """The compiled rules and tables of one graph (*data*: its records) and, with *backend*, the graph's answers
    (see the module's docstring); *variants*: the rows kept as variants of the text are read too."""

    from_types = FROM_TYPES

    def __init__(self, data, backend=None, *, variants: bool = False):
        self.vocab = vocabulary()
        check_registered(self.vocab)  # every predicate row has its evaluator class (else: file, row, column)
        self.data_schema, self.variants = load_schema(), variants
        self.facts = {f.id: f for f in data.facts}
        self.shensha_places = shensha_places(data.facts)  # where a 神煞 counts: the SEEN_AT rows (000:23)
        self.lex = Lexicon(data.nodes, data.facts)
        self.props = dict(self.lex.props)
        self.props.update((n.id, {k: n.props[k] for k in FACT_PROPS if k in n.props}) for n in data.nodes if n.label == "Fact")
        self.labels = {nid: p["label"] for nid, p in self.props.items()}
        self._fact_tables(data.facts)
        self.places = topic_places(data.facts, self.props)  # the Qimen topics' significators that name a palace
        interned: dict = {}  # equal conditions (and parts) compiled once: one node
        self.compiled = {r.fact: compile_condition(r.when, self.vocab, r.system, interned) for r in data.rules}
        self.rule_topic = {r.fact: dict(self.facts[r.fact].qualifiers).get("topic") or condition_topic(r.when)
                           for r in data.rules}
        self.rules = [BookRule(r.fact, r.system, r.polarity, r.judgment, frozenset(patterns_tested(r.when)))
                      for r in data.rules if variants or not self.facts[r.fact].variant]
        self.chart_only = frozenset(f for f, node in self.compiled.items() if node.chart_decided())
        self.requires = [r for r in self.rules if self.facts[r.fact].relation == "REQUIRES"]
        cases: dict[tuple, list] = defaultdict(list)  # (pattern, case) → its REQUIRES rules, in order
        for r in self.requires:
            fact = self.facts[r.fact]
            cases[(fact.subject, dict(fact.qualifiers).get("case", ""))].append(r)
        self.cases = dict(sorted(cases.items()))
        self.others = [r for r in self.rules if self.facts[r.fact].relation != "REQUIRES"]
        self.locals_of = {name: set(sdef["locals"]) for name, sdef in self.vocab.scopes.items()}
        self.ids_by_label = defaultdict(list)
        for nid in sorted(self.labels):
            self.ids_by_label[self.labels[nid]].append(nid)
        self.stems_branches = frozenset(self.ids_by_label["Stem"] + self.ids_by_label["Branch"])
        self.slot_concept_ids = {name: self.lex.id("Concept", name) for sysdef in self.vocab.systems.values()
                                 for name in sysdef["slots"] if self.lex.id("Concept", name)}
        self.reads = {fact: rule_reads(self, fact) for fact in self.compiled}  # what each outcome depends on
        nodes = sorted(n.id for n in data.nodes)
        self.answers, self.among, self.rows_from = ({}, None, None) if backend is None else self._answered(backend, nodes)

    def _fact_tables(self, facts) -> None:
        """What the book reads off the facts in one pass: the season of each branch (IN_SEASON), the meanings of
        each pattern that have no condition of their own, the domains each topic consults (CONSULTS, for the 類神),
        the topic each sub-topic is a case of (SUBTOPIC_OF), the topics read beside each (READS_BESIDE) and the
        topics that have facts."""
        self.seasons, self.meanings, self.consults, topics = {}, defaultdict(list), defaultdict(set), set()
        self.parent_topic, self.beside_topics = {}, defaultdict(set)
        for f in facts:
            if f.relation == "IN_SEASON":
                self.seasons[f.subject] = f.object
            elif f.relation == "SUBTOPIC_OF":
                self.parent_topic[f.subject] = f.object
            elif f.relation == "READS_BESIDE":
                self.beside_topics[f.subject].add(f.object)
            elif f.relation == "CONSULTS":
                self.consults[f.subject].add(self.props[f.object]["name"])
            elif f.subject.startswith("Pattern:") and f.relation in MEANING_RELATIONS and not f.when:
                self.meanings[f.subject].append(f)
            topics.add(dict(f.qualifiers).get("topic"))
        self.topic_ids = sorted((topics | set(self.consults)) - {None})

    def _answered(self, backend, nodes: list) -> tuple[dict, dict, dict]:
        """(every check the book can ask → its witness hops, or None when it does not hold; the relations_among
        index of every Stem and Branch; node → its relations_from rows of FROM_TYPES), from the backend's named
        traversal queries."""
        answers = {tuple(check): hops for check, hops in ask_checks(backend, self.every_check(), self.variants).items()}
        among = pair_index(backend.run("relations_among", node_ids=sorted(
            self.ids_by_label["Stem"] + self.ids_by_label["Branch"])), RELATION_TYPES)
        rows_from: dict = {}
        for row in backend.run("relations_from", node_ids=nodes, types=list(FROM_TYPES)):
            rows_from.setdefault(row["source"]["id"], []).append(row)
        return answers, among, {node: tuple(found) for node, found in rows_from.items()}

    def every_check(self) -> set:
        """Every ground check a compiled graph leaf can ask (each slot argument ranging over the nodes its slot's
        label names) and every check of the kin / stages / vigour readings."""
        ids, out = self.ids_by_label, set()
        for leaf in asking_leaves(self.compiled.values()):
            out.update(leaf.every_check(self.domain, self.labels))
        for day in ids["Stem"]:
            for branch in ids["Branch"]:
                out.update(fact_checks(self, day, branch, None).values())
        for branch in ids["Branch"]:
            for season in ids["Season"]:
                out.update(fact_checks(self, None, branch, season).values())
        return out

    def domain(self, arg) -> list:
        """The node ids a compiled argument can stand for: a symbol itself; a slot, the nodes of its label (as a
        chart-level slot of any system or a local of any scope), its suffixes followed (``.將``: General …); a set
        or a number none (it grounds no check)."""
        if arg.slot is None:
            return [arg.sym]
        vocab, labels = self.vocab, set()
        for table in (*(s["slots"] for s in vocab.systems.values()), *(s["locals"] for s in vocab.scopes.values())):
            for name in {arg.name, arg.local}:
                labels.update(table.get(name, "").split("|"))
        for suffix in arg.path:
            sdef = vocab.suffixes[suffix]
            labels = {sdef["gives"]} if labels & set(sdef["on"]) else set()
        return [nid for label in sorted(labels) if label and not label.endswith("*")
                for nid in self.ids_by_label.get(label, ())]

    def _name(self, fact) -> str:
        """A rule's name: its subject → its object, each with the alternatives the row names beside it (``alt`` …,
        ``or`` …): 截空|刑|害→進退趦趄 (004:71), 值使→驚門|傷門|杜門|死門 (004:55)."""
        def named(nodes: tuple) -> str:
            return "|".join(self.props.get(n, {}).get("name", n) for n in nodes)
        return f"{named((fact.subject, *fact.subject_alternatives))}→{named((fact.object, *fact.object_alternatives))}"


def asking_leaves(roots) -> list:
    """The distinct nodes of compiled condition trees that say every check they can ask (``every_check``: the
    :class:`~leishen.readings.graph_leaf.Graph` leaves, and any condition class that defines it)."""
    seen, todo, found = set(), list(roots), []
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen.add(id(node))
            if hasattr(node, "every_check"):
                found.append(node)
            todo.extend(node.parts())
    return found
