"""Coverage of the rules: which rule-like facts carry a structured condition (docs/rules.md).

A *rule fact* is every ``REQUIRES`` row, every row with a ``when``, and every row of a relation that
states a meaning (``SIGNIFIES``, ``PLACEMENT_MEANS`` …) whose meaning depends on a conditioning
qualifier (``on``, ``rides``, ``with``, ``in``, ``season`` …). It is *structured* when it has a
``when`` and no ``judgment``, *needs judgment* when it has both, and *not yet structured* without a
``when``. A ``condition=`` qualifier left in a table is a *prose condition*.
"""

from __future__ import annotations

import re
from collections import defaultdict

from leishen.loaders.records import Fact

MEANING_RELATIONS = ("SIGNIFIES", "PLACEMENT_MEANS", "SYMBOLIZES", "HAS_COLOUR", "HAS_TASTE", "HAS_NUMBER",
                     "FAVOURS", "AVOIDS", "MODIFIES", "NOT_VOID", "TIMES", "IS")
#: qualifier keys that make a meaning depend on the chart (numbered and alt_ forms included)
CONDITIONING = re.compile(r"^(?:alt_)?(on|position|rides|with|in|in_element|and|and_in|or|star|season|vigour|"
                          r"stage|day|ju|state|condition|overcomes|generates|combines|punishes|deity|month|"
                          r"phase|element|at|shensha|pattern|alt)\d*$")


def is_rule_fact(fact: Fact) -> bool:
    """Whether a fact is rule-like (see the module docstring)."""
    if fact.when or fact.relation == "REQUIRES":
        return True
    return fact.relation in MEANING_RELATIONS and any(CONDITIONING.match(k) for k, _ in fact.qualifiers)


def _doc(fact: Fact) -> str:
    return min(fact.docs)


def _row(fact: Fact) -> dict:
    return {"fact": fact.id, "item": fact.item, "relation": fact.relation, "when": fact.when or None,
            "judgment": fact.judgment or None,
            "condition": dict(fact.qualifiers).get("condition")}


def rule_coverage(facts: list[Fact]) -> dict:
    """Per document: rule facts, structured, needing judgment, not yet structured (with the rows),
    and the rows still holding a prose ``condition=``."""
    docs: dict[str, dict] = defaultdict(lambda: {"rules": 0, "structured": 0, "needs_judgment": [],
                                                 "unstructured": [], "prose": []})
    for fact in facts:
        if any(k == "condition" for k, _ in fact.qualifiers):
            docs[_doc(fact)]["prose"].append(_row(fact))
        if not is_rule_fact(fact):
            continue
        d = docs[_doc(fact)]
        d["rules"] += 1
        if not fact.when:
            d["unstructured"].append(_row(fact))
        elif fact.judgment:
            d["needs_judgment"].append(_row(fact))
        else:
            d["structured"] += 1
    total = {"rules": sum(d["rules"] for d in docs.values()),
             "structured": sum(d["structured"] for d in docs.values()),
             "needs_judgment": sum(len(d["needs_judgment"]) for d in docs.values()),
             "unstructured": sum(len(d["unstructured"]) for d in docs.values()),
             "prose": sum(len(d["prose"]) for d in docs.values())}
    total["structured_share"] = round(total["structured"] / total["rules"], 4) if total["rules"] else 1.0
    return {"documents": dict(sorted(docs.items())), "total": total}
