"""What a ``find`` asks of a reader: the rules it names, the patterns they test and the systems they need (the
range scan itself is :func:`leishen.service.readings.find_rule`)."""

from __future__ import annotations

import re

from leishen.errors import FindError

LORE_QUERIES = ("kin", "stages", "vigour", "relations", "leixiang", "shensha")
FINDING_ID = re.compile(r"^(?:liuren|qimen|ninestar)/(?:rules|patterns)/(facts/[^@]+)(?:@.*)?$")


class Selecting:
    """What a :class:`~leishen.readings.read.Reader` answers about the rules a ``find`` asks for, from its
    ``rules``, ``requires``, ``facts``, ``props`` and ``_name`` (a fact as subject→object)."""

    def select(self, wanted: str) -> tuple[set, bool]:
        """(the rule facts a ``find`` of *wanted* evaluates, whether a lore query is asked): those it names
        (:meth:`named`) and every REQUIRES rule of a pattern they test (``pattern(P)``), to decide it."""
        chosen, lore = self.named(wanted)
        patterns = {p for r in self.rules if r.fact in chosen for p in r.patterns}
        return chosen | {r.fact for r in self.requires if self.facts[r.fact].subject in patterns}, lore

    def named(self, wanted: str) -> tuple[set, bool]:
        """The rule facts a ``find`` asks for (by fact id, item, pattern or meaning name — zh, ko, the hanja's
        Korean reading (ko_hanja) or en — or ``subject→object``; a pattern with every REQUIRES rule of it), and whether a lore query (kin,
        stages, vigour, relations …) is asked."""
        chosen = set()
        if not isinstance(wanted, str):
            raise FindError(f"rule: expected a rule name or id, found {type(wanted).__name__}", "rule")
        wanted = wanted.strip()
        finding = FINDING_ID.match(wanted)  # a finding's own id names its fact (…/rules/facts/000/x.csv#5@p1)
        wanted = finding.group(1) if finding else wanted
        folded = wanted.lower()
        if not wanted:  # no name: nothing is chosen (some facts have no item)
            return chosen, False
        for rule in self.rules:
            fact = self.facts[rule.fact]
            subject, obj = self.props.get(fact.subject, {}), self.props.get(fact.object, {})
            names = {fact.id, fact.item, self._name(fact), subject.get("name"), obj.get("name"), obj.get("ko"),
                     obj.get("ko_hanja"), (obj.get("en") or "").lower() or None}
            if wanted in names or folded in names:
                chosen.add(rule.fact)
        if any(self.facts[f].relation == "REQUIRES" for f in chosen):  # a pattern: all its parts
            patterns = {self.facts[f].subject for f in chosen if self.facts[f].relation == "REQUIRES"}
            chosen |= {r.fact for r in self.requires if self.facts[r.fact].subject in patterns}
        return chosen, wanted in LORE_QUERIES

    def systems_of(self, facts: set) -> tuple[str, ...]:
        """The systems the rules of these facts need (liuren for the lore readings)."""
        wanted = {r.system for r in self.rules if r.fact in facts} or {"liuren"}
        return tuple(s for s in ("liuren", "qimen", "ninestar") if s in wanted)


def patterns_tested(call) -> set[str]:
    """The patterns a condition tests (``pattern(P)`` or ``pattern_here(P)`` anywhere in it)."""
    if getattr(call, "pred", None) in ("pattern", "pattern_here"):
        return {call.args[0].id}
    return {p for a in getattr(call, "args", ()) for p in patterns_tested(a)}
