"""The rule index prunes without changing a result: on random charts, every rule in scope evaluated
unpruned holds exactly where the reading found it; and an all() of two some() over the same scope is
never taken to need both in one instance."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import leishen
from leishen.loaders.conditions import parse_condition
from leishen.readings import reader
from leishen.readings.bindings import chart_bindings
from leishen.readings.evaluate import Context
from leishen.readings.index import necessary_keys


def _moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1920, 1, 1, tzinfo=timezone.utc)
    return [start + timedelta(minutes=rng.randrange(160 * 365 * 24 * 60)) for _ in range(n)]


def test_pruned_reading_finds_what_every_rule_unpruned_finds():
    r = reader()
    for moment in _moments(120, seed=11):
        chart = leishen.chart(moment)
        reading = r.read(chart, topic="*", lore=False, trail=False)
        found = {f["rule"]["fact"] for f in reading["findings"] if f["query"] == "rules"}
        ctx = Context(chart_bindings(chart, r.lex, r.seasons), r.vocab, r.labels, "*")
        patterns = {h["node"]["id"] for f in reading["findings"] if f["query"] == "patterns"
                    for h in f["path"] if h.get("node", {}).get("label") == "Pattern"}
        ctx = Context(ctx.bindings, r.vocab, r.labels, "*", patterns={p: [] for p in patterns})
        held = {rule.fact for rule in r.others if rule.system in ctx.bindings.systems
                and r.compiled[rule.fact].ev({}, ctx, _All(r))[0]}
        assert found == held, (moment, sorted(held - found)[:5], sorted(found - held)[:5])


class _All:
    """Every check answered (through the reader's cache)."""

    def __init__(self, r):
        self.r = r

    def get(self, check):
        if check not in self.r._answers:
            self.r.answer({check})
        return self.r._answers[check]


def test_two_some_of_one_scope_are_two_instances():
    r = reader()
    when = ("all(some(宮, all(eq(宮, Palace.乾六), eq(門, Gate.開門))), "
            "some(宮, all(eq(宮, Palace.巽四), eq(門, Gate.杜門))))")
    call, _ = parse_condition(when, schema=r.data_schema, index=r.lex.index, system_hint="qimen")
    locals_of = {name: set(sdef["locals"]) for name, sdef in r.vocab.scopes.items()}
    alts = necessary_keys(call, locals_of)
    assert all(len({v for s, v in pairs if s == "宮"}) <= 1 for _, pairs in alts), alts
