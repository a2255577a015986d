"""The rule index prunes without changing a result: on random charts, every rule in scope evaluated
unpruned holds exactly where the reading found it; and an all() of two some() over the same scope is
never taken to need both in one instance."""

from __future__ import annotations

import leishen
from leishen.loaders.conditions import parse_condition
from leishen.service.book import reader
from leishen.readings.bindings import chart_bindings
from leishen.readings.evaluate import Context
from leishen.readings.evaluators import Answers
from leishen.readings.index import necessary_keys

from fired import random_moments


def test_pruned_reading_finds_what_every_rule_unpruned_finds():
    r = reader()
    for moment in random_moments(120, seed=11):
        chart = leishen.chart(moment)
        reading = r.read(chart, topic="*", lore=False, trail=False)
        found = {f["rule"]["fact"] for f in reading["findings"] if f["query"] == "rules"}
        ctx = Context(chart_bindings(chart, r.lex, r.seasons), r.vocab, r.labels, "*")
        patterns = {(f["system"], h["node"]["id"]) for f in reading["findings"] if f["query"] == "patterns"
                    for h in f["path"] if h.get("node", {}).get("label") == "Pattern"}
        ctx = Context(ctx.bindings, r.vocab, r.labels, "*", patterns={p: [] for p in patterns},
                      cases=r.scope_of(ctx.bindings.systems, ctx.topics).here)  # (the palaces pattern_here reads)
        every = Answers(r, r.kept_answers())  # every check answered, as it is asked
        held = {rule.fact for rule in r.others if rule.system in ctx.bindings.systems
                and r.compiled[rule.fact].ev({}, ctx, every)[0]}
        assert found == held, (moment, sorted(held - found)[:5], sorted(found - held)[:5])


def test_two_some_of_one_scope_are_two_instances():
    r = reader()
    when = ("all(some(宮, all(eq(宮, Palace.乾六), eq(門, Gate.開門))), "
            "some(宮, all(eq(宮, Palace.巽四), eq(門, Gate.杜門))))")
    call, _ = parse_condition(when, schema=r.data_schema, index=r.lex.index, system_hint="qimen")
    locals_of = {name: set(sdef["locals"]) for name, sdef in r.vocab.scopes.items()}
    alts = necessary_keys(call, locals_of)
    assert all(len({v for s, v in pairs if s == "宮"}) <= 1 for _, pairs in alts), alts


def test_the_checks_a_reading_asks_decide_it_as_every_answer_does():
    """A reader without the cache asks only the checks the three-valued collection says can matter, in
    one round trip; its readings equal those of the cached reader, which can ask any check."""
    from leishen.backends import get_backend
    from leishen.readings.read import Reader
    cached, asking = reader(), Reader(get_backend("networkx"), cache=False)
    for i, moment in enumerate(random_moments(60, seed=12)):
        chart = leishen.chart(moment)
        for topic in (None, "*", cached.topics()[i % len(cached.topics())]["id"]):
            a, b = cached.read(chart, topic=topic), asking.read(chart, topic=topic)
            assert a["findings"] == b["findings"], (moment, topic)
            assert 0 < b["counts"]["checks"]


def _keys(when: str, system: str, r=None):
    from leishen.readings.index import functional_predicates
    r = r or reader()
    call, _ = parse_condition(when, schema=r.data_schema, index=r.lex.index, system_hint=system)
    locals_of = {name: set(sdef["locals"]) for name, sdef in r.vocab.scopes.items()}
    return necessary_keys(call, locals_of, functional=frozenset(functional_predicates(r.vocab)))


def test_derived_pairs_key_suffixes_at_and_functional_predicates():
    """The index keys on what the chart derives: the node a suffix reaches, the local of the instance an
    at() names, the stage a fact gives; a rule of one stage is not tried where the stage is another."""
    from leishen.loaders.conditions import Call, Slot
    from leishen.readings.index import At
    assert _keys("eq(初傳.將, General.白虎)", "liuren") == [
        (None, frozenset({(Slot("初傳", ("將",)), "General:bai_hu")}))]
    assert _keys("at(值使宮, eq(門, Gate.休門))", "qimen") == [
        (None, frozenset({(At(Slot("值使宮"), "門"), "Gate:xiu")}))]
    assert _keys("stage(日干, 初傳, LifeStage.長生)", "liuren") == [
        (None, frozenset({(Call("stage", (Slot("日干"), Slot("初傳"))), "LifeStage:chang_sheng")}))]
    r = reader()
    for moment in random_moments(20, seed=13):
        chart = leishen.chart(moment)
        reading = r.read(chart, topic="*", lore=False, trail=False)
        stages = {h["node"]["id"] for f in reading["findings"] if f["rule"]["fact"].startswith("facts/000/changsheng")
                  for h in f["path"] if h.get("node", {}).get("label") == "LifeStage"}
        assert stages, moment  # some stage rule holds in every chart: the 長生 stages of its slots


def test_equal_conditions_are_compiled_into_one_node():
    """Rules with equal conditions of one system share one compiled node, and so do equal parts of
    different conditions (the graph predicates' memo and a scope body's kept checks are shared); the
    same condition of another system is compiled apart (``void`` tests that system's void)."""
    from collections import defaultdict

    from leishen.readings.evaluate import Ranging, compile_condition

    r = reader()
    by = defaultdict(list)
    for rule in r.data.rules:
        by[(rule.when, rule.system)].append(rule.fact)
    shared = [facts for facts in by.values() if len(facts) > 1]
    assert len(shared) > 100
    assert all(len({id(r.compiled[f]) for f in facts}) == 1 for facts in shared)
    assert len({id(n) for n in r.compiled.values()}) == len(by)
    scopes = [p for n in r.compiled.values() for p in getattr(n, "subs", ()) if isinstance(p, Ranging)]
    assert len({id(p) for p in scopes}) < len(scopes)  # a scope shared by conditions that differ elsewhere
    interned: dict = {}
    when = r.data.rules[0].when
    assert compile_condition(when, r.vocab, "liuren", interned) is compile_condition(when, r.vocab, "liuren", interned)
    assert compile_condition(when, r.vocab, "liuren", interned) is not compile_condition(when, r.vocab, "qimen", interned)
