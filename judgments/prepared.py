"""What a judgment reads that is the same on every chart, made once per reader (issue #28: a judgment adds
≤ 1 ms to its reading): fact id → :class:`~leishen.judgments.usegod.FactInfo` (qualifiers read once), and per
topic a :class:`TopicTable` — the zh names of its scope, its facets, the index of their answers (what a
finding's meaning, label, category or polarity answers, over every facet at once), its unconditional method
facts, READ_FROM facts and TIMES rows. A reader's tables are kept on the reader (they go
with it) and never change: the tables they are made from are read once per process."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from leishen.judgments.beside import read_beside
from leishen.judgments.tables import Answer, Facet, facet_table
from leishen.judgments.timing import tombs
from leishen.readings.topics import TopicError
from leishen.judgments.usegod import fact_info, is_method

ANY_POLARITY = ("polarity", "*")  # facet_answers.csv's polarity=*: any of 吉 凶 混
POLARITIES = ("吉", "凶", "混")
SYSTEMS = ("liuren", "qimen", "ninestar")  # the systems a finding is of
NO_ANSWERS: dict = {}  # what best_answers gives a finding that answers nothing (never changed)


@dataclass(frozen=True, slots=True)
class TopicTable:
    """One topic's tables (``topic`` None: the general reading): the zh names of the topics a reading of it
    covers (``{None}`` for the general reading), its facets in the table's order, ``answers`` — system → the
    :class:`AnswerIndex` of the facets read in it (None: of those that name no system), each facet's heading
    src as a set (what convention J7 matches a finding's src on) — and its unconditional method facts (each as
    the method step it makes: (fact id, rule, what, src), :func:`method_step`), READ_FROM facts and TIMES rows;
    ``beside``: the zh names of the topics read beside it (READS_BESIDE: named, never weighed; judgments/beside.py)."""

    topic: str | None
    names: frozenset
    facets: tuple[Facet, ...]
    answers: dict
    heading_src: tuple[frozenset, ...]
    method_steps: tuple
    read_from: tuple
    times: tuple
    beside: frozenset = frozenset()

    def answers_in(self, system: str | None) -> AnswerIndex:
        """The :class:`AnswerIndex` of the facets read in *system* (a system no facet or SYSTEMS names: of the
        facets that name none)."""
        found = self.answers.get(system)
        return found if found is not None else self.answers[None]


@dataclass(frozen=True, slots=True)
class TopicFacts:
    """What a judgment reads of a reader's tables besides the findings: fact id → Fact, fact id → FactInfo, topic
    id (None: the general reading) → :class:`TopicTable`, a topic's zh / ko / en name or id → its topic id
    (as the reader's own ``topic_id`` gives it), and the branches' tombs (004:47 投墓)."""

    facts: dict
    info: dict
    tables: dict
    topic_ids: dict
    tombs: dict  # branch name → (the branch its phase's 墓 is at, its src): 004:47 投墓 (judgments.timing.tombs)

    def table(self, topic_id) -> TopicTable:
        """The :class:`TopicTable` of a topic id (None: the general reading)."""
        return self.tables[topic_id]

    def topic_id(self, reader, asked: str):
        """The topic id a name denotes: looked up among the names the reader's ``topic_id`` was asked once, else
        asked of the reader (which names the fault of a bad name)."""
        found = self.topic_ids.get(asked)
        return found if found is not None else reader.topic_id(asked)


@dataclass(frozen=True, slots=True)
class AnswerIndex:
    """The first answer of each facet of a topic read in one system (the facets of that system and those that
    name none), by what a finding matches on — its meaning node (``node``), the meaning's label, its row's
    category, its polarity: value → ((facet position, answer position, answer), …) — and by any of 吉 凶 混
    (``polarity=*``). ``given`` keeps what :func:`best_answers` found for each (fact, meaning, polarity) a finding
    has had: those three decide it, and a reader's rules have a bounded number of them. ``by_polarity``: when
    no answer matches on a node, label or category (the general reading's facets), polarity → what
    :func:`best_answers` finds for a finding of that polarity, for every polarity that answers (else None)."""

    node: dict
    label: dict
    category: dict
    polarity: dict
    any_polarity: tuple
    given: dict
    by_polarity: dict | None = None


def answer_index(facets: tuple[Facet, ...], system: str | None) -> AnswerIndex:
    """The :class:`AnswerIndex` of the facets read in *system*, from each facet's first answer per key
    (:attr:`Facet.first`), so that a finding's keys are looked up once for every facet."""
    keyed: dict = {"node": defaultdict(list), "label": defaultdict(list), "category": defaultdict(list),
                   "polarity": defaultdict(list)}
    for n, facet in enumerate(facets):
        if facet.system and facet.system != system:
            continue
        for (key, value), (k, answer) in facet.first.items():
            keyed[key][value].append((n, k, answer))
    any_polarity = tuple(keyed["polarity"].pop(ANY_POLARITY[1], ()))
    index = AnswerIndex(*({v: tuple(hits) for v, hits in keyed[key].items()}
                          for key in ("node", "label", "category", "polarity")), any_polarity, {})
    if index.node or index.label or index.category:
        return index
    answering = {*index.polarity, *(POLARITIES if any_polarity else ())}
    return replace(index, by_polarity={p: _best_answers(index, None, None, p, {}, {}) for p in answering})


def best_answers(index: AnswerIndex, finding: dict, info: dict, props: dict) -> dict[int, tuple[int, Answer]]:
    """facet position → (answer position, answer) of the first answer of that facet a finding gives, by its
    meaning node, the meaning's label, its row's category (*info*: fact id → FactInfo) or its polarity (as
    :meth:`Facet.answer_for` finds it, for every facet of the index at once); found once per (fact, meaning,
    polarity) in ``index.given``, or per polarity (``index.by_polarity``) in an index that matches on polarity
    alone (the caller does not change what it gets)."""
    fact, polarity = finding["rule"]["fact"], finding.get("polarity")
    if index.by_polarity is not None:  # the index matches on polarity alone
        return index.by_polarity.get(polarity, NO_ANSWERS)
    meaning = (finding.get("meaning") or {}).get("id")
    key = (fact, meaning, polarity)
    found = index.given.get(key)
    if found is None:
        found = index.given[key] = _best_answers(index, fact, meaning, polarity, info, props)
    return found


def _best_answers(index: AnswerIndex, fact: str, meaning, polarity, info: dict, props: dict) -> dict:
    """:func:`best_answers` of a (fact, meaning, polarity). A key no answer of the index matches on is not looked
    up (the general reading's facets answer by polarity alone)."""
    groups = [index.polarity.get(polarity), index.any_polarity if polarity in POLARITIES else None]
    if index.node or index.label:
        groups += [index.node.get(meaning), index.label.get(props.get(meaning, {}).get("label"))]
    if index.category:
        i = info.get(fact)
        groups.append(index.category.get(i.category if i is not None else None))
    best: dict = {}
    for hits in groups:
        for n, k, answer in hits or ():
            if n not in best or k < best[n][0]:
                best[n] = (k, answer)
    return best


def _fact_groups(facts: dict) -> tuple[dict, dict, dict]:
    """(topic id → unconditional method facts, topic id → its READ_FROM facts among them, topic id → TIMES rows),
    each in the tables' order."""
    method, read_from, times = defaultdict(list), defaultdict(list), defaultdict(list)
    for fact in facts.values():
        topic = fact.qualifier_dict().get("topic")
        if fact.relation == "TIMES" and topic:
            times[topic].append(fact)
        elif not fact.when and is_method(fact):
            for t in {topic, fact.subject} - {None}:
                method[t].append(fact)
            if fact.relation == "READ_FROM":
                read_from[fact.subject].append(fact)
    return method, read_from, times


def method_step(fact, props: dict) -> tuple:
    """(fact id, rule, what, src) of the method step an unconditional method fact makes (the same on every
    chart): its subject → object, the object's names, its citations."""
    obj = props.get(fact.object, {})
    what = {"id": fact.object, "zh": obj.get("name"), "ko": obj.get("ko"), "en": obj.get("en")}
    src = tuple(f"{c.doc}:{c.line}" for c in fact.src)
    return fact.id, f"{props[fact.subject]['name']}→{obj.get('name')}", what, src


def _topic_names(reader) -> dict:
    """Each topic's id, zh, ko and en name → the topic id the reader's ``topic_id`` gives for it (a name two
    topics share, which the reader refuses, is left out)."""
    out = {}
    for t in reader.topics():
        for name in (t["id"], t["zh"], t["ko"], t["en"]):
            try:
                out[name] = reader.topic_id(name)
            except TopicError:
                continue
    return out


def prepare(reader) -> TopicFacts:
    """A reader's :class:`TopicFacts`, made from its facts, props and topics."""
    facts = getattr(reader, "facts", None) or {f.id: f for f in reader.data.facts}
    method, read_from, times = _fact_groups(facts)
    tables, beside = {}, read_beside(facts, reader.props)
    for topic_id in (None, *reader.topic_ids):
        names = frozenset({None} if topic_id is None else
                          {reader.props[t]["name"] for t in reader.topic_scope(topic_id)}) - beside.get(topic_id, set())
        facets = facet_table().get(topic_id, ())
        systems = {None, *SYSTEMS, *(f.system for f in facets)}
        answers = {system: answer_index(facets, system) for system in systems}
        tables[topic_id] = TopicTable(topic_id, names, facets, answers, tuple(frozenset(f.src) for f in facets),
                                      tuple(method_step(f, reader.props) for f in method.get(topic_id, ())),
                                      tuple(read_from.get(topic_id, ())), tuple(times.get(topic_id, ())),
                                      beside.get(topic_id, frozenset()))
    info = {fid: fact_info(fact, reader.props) for fid, fact in facts.items()}
    return TopicFacts(facts, info, tables, _topic_names(reader), tombs(facts, reader.props))


def topic_facts(reader) -> TopicFacts:
    """The reader's :class:`TopicFacts` (made on first use, kept on the reader: no module state; two threads
    that both make it make equal tables)."""
    found = getattr(reader, "topic_facts_made", None)
    if found is None:
        found = reader.topic_facts_made = prepare(reader)
    return found
