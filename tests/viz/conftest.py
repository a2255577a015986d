"""Fixtures of the page tests: a real chart, and a reading dict in the shape of
``leishen.readings.read`` built from that chart and real graph relations.

The reading is a fixture of the *input shape* of :func:`leishen.viz.reading_page` (every node
and relation in it exists in the graph, every slot in the chart); it is not a reading engine.
"""

from __future__ import annotations

import pytest

from leishen.engine.calendar import parse_moment
from leishen.engine.chart import build_chart

MOMENT = "2026-12-01T09:00:00+08:00"


@pytest.fixture(scope="session")
def chart() -> dict:
    return build_chart(parse_moment(MOMENT, None))


def node_of(backend, label: str, name: str) -> dict:
    (row,) = [r for r in backend.run("resolve", q=name.lower()) if r["label"] == label and r["tier"] == 0]
    return {k: row[k] for k in ("id", "label", "key", "name")}


def real_hop(backend, node_id: str, rel_type: str) -> list[dict]:
    """[relation hop, node hop] of the first stored relation *rel_type* out of *node_id*."""
    row = next(r for r in backend.run("symbol_relations", node_id=node_id)
               if r["direction"] == "out" and r["type"] == rel_type)
    return [{"rel": rel_type, "src": row["src"], "chart": False, "qualifiers": row["qualifiers"]},
            {"node": row["other"]}]


def finding(system: str, rule: str, polarity: str, certainty: str, bindings: dict, path: list[dict]) -> dict:
    src = sorted({s for hop in path if "rel" in hop for s in hop.get("src") or ()})
    return {"id": f"{system}/fixture/{rule}", "system": system, "topic": None, "query": "fixture",
            "rule": {"fact": None, "name": rule}, "polarity": polarity, "certainty": certainty,
            "bindings": bindings, "path": path, "evidence": [], "src": src,
            "meaning": {"zh": rule, "ko": "", "en": f"fixture finding {rule}"}}


@pytest.fixture(scope="session")
def reading(chart, nx_backend) -> dict:
    """Four findings over the chart's 初傳 and its general, a Qimen gate and the year star."""
    b = nx_backend
    first = chart["liuren"]["transmission_details"][0]
    branch, general = node_of(b, "Branch", first["branch"]), node_of(b, "General", first["general"])
    gate = node_of(b, "Gate", chart["qimen"]["palaces"]["1"]["gate"])
    star = node_of(b, "FlyingStar", chart["ninestar"]["year"])
    rides = {"rel": "RIDDEN_BY", "src": None, "chart": True}
    findings = [
        finding("liuren", f"{general['name']}乘{branch['name']}", "凶", "holds",
                {"初傳": branch["id"], "初傳.general": general["id"]},
                [{"node": branch, "slot": "初傳"}, rides, {"node": general}]
                + real_hop(b, general["id"], "PLACEMENT_MEANS")),
        finding("liuren", f"{branch['name']}屬", "平", "needs_judgment", {"初傳": branch["id"]},
                [{"node": branch, "slot": "初傳"}] + real_hop(b, branch["id"], "HAS_ELEMENT")),
        finding("qimen", f"{gate['name']}臨坎", "吉", "holds", {"gate@1": gate["id"]},
                [{"node": gate, "slot": "gate@1"}] + real_hop(b, gate["id"], "SIGNIFIES")),
        finding("ninestar", f"年{star['name']}", "混", "holds", {"year": star["id"]},
                [{"node": star, "slot": "year"}] + real_hop(b, star["id"], "SIGNIFIES")),
    ]
    return {"chart": chart, "topic": None, "findings": findings}
