"""The compact reading: what a reading answers, small enough for an assistant's context (the MCP ``read`` tool).

A full reading (:func:`leishen.service.readings.read`) holds every finding with its path and evidence: 170 KB for
the general reading of one moment, 260 KB for one topic, 850 KB for every topic. :func:`compact_reading` keeps

- the chart's summary (:func:`chart_summary`: pillars, the Liu Ren lessons and transmissions, the Qimen 局 and
  duty star, the Nine Stars' year, month and day stars; the ``chart`` tool gives the whole chart),
- each judgment compacted (:func:`compact_judgment`: verdict, 用神, decided facets and their answers, reasons,
  set-aside findings, 應期 — every item with its ``src`` and the ids of the findings behind it; the paths are
  left to the findings),
- ``tally`` (findings by topic and polarity), ``counts`` and the findings counted by system,

and the findings themselves only when asked (:func:`compact_findings`: the first *limit*, or those of the ids
given, with the keys *fields* only). Nothing is summarised in words of its own: every value is the reading's.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

__all__ = ["FINDING_FIELDS", "DEFAULT_FIELDS", "FindingField", "chart_summary", "compact_judgment",
           "compact_findings", "compact_reading", "compact_fact"]

#: the keys of a finding (docs/readings.md)
FINDING_FIELDS = ("id", "system", "topic", "query", "rule", "polarity", "certainty", "judgment", "bindings", "path",
                  "evidence", "meaning", "src", "variant", "options")
#: the keys a finding keeps when none are asked for
DEFAULT_FIELDS = ("id", "meaning", "polarity", "src")
FindingField = Literal[FINDING_FIELDS]

LIUREN_KEYS = ("month_general", "lessons", "transmissions", "method", "course", "void", "xun", "horse")
QIMEN_KEYS = ("dun", "ju", "term", "yuan", "xun_head", "duty_star", "duty_star_palace", "duty_gate",
              "duty_gate_palace", "void", "horse")
NINESTAR_KEYS = ("year", "month", "day", "day_dun")


def _pick(data: dict | None, keys) -> dict | None:
    """The *keys* of *data* that it has (None for no data)."""
    return None if data is None else {k: data[k] for k in keys if k in data}


def chart_summary(chart: dict) -> dict:
    """The chart's moment, pillars, solar term and the few values of each system a reading turns on
    (Liu Ren: 月將, 四課, 三傳, method and course, 旬空; Qimen: 陰陽遁, 局, 值符 and 值使 with their palaces;
    Nine Stars: the year, month and day centre stars); a system not charted is left out."""
    out = {"moment": chart.get("moment"), "pillars": chart.get("pillars"),
           "solar_term": (chart.get("solar_term") or {}).get("name")}
    liuren = _pick(chart.get("liuren"), LIUREN_KEYS)
    if liuren is not None:
        liuren["generals_of_transmissions"] = [t.get("general") for t in chart["liuren"].get("transmission_details", ())]
        liuren["noble"] = (chart["liuren"].get("noble") or {}).get("branch")
    for key, part in (("liuren", liuren), ("qimen", _pick(chart.get("qimen"), QIMEN_KEYS)),
                      ("ninestar", _pick(chart.get("ninestar"), NINESTAR_KEYS))):
        if part is not None:
            out[key] = part
    return out


def _answer(answer: dict) -> dict:
    """A facet's answer: its value (zh) with the English gloss, the findings that give it and their src."""
    out = {"value": answer.get("value"), "en": answer.get("en"), "findings": answer.get("findings", []),
           "src": answer.get("src", [])}
    for key in ("place", "seasons"):
        if answer.get(key):
            out[key] = answer[key]
    return out


def _facet(facet: dict) -> dict:
    """A decided or undecided facet: its question (zh and en), status, answers (or the conflicting ones)."""
    out = {"facet": facet["facet"], "en": (facet.get("names") or {}).get("en"), "status": facet.get("status"),
           "heading_src": facet.get("heading_src", []), "answer": [_answer(a) for a in facet.get("answer", ())]}
    if facet.get("verdict"):
        out["verdict"] = True
    if facet.get("conflict"):
        out["conflict"] = [_answer(a) for a in facet["conflict"]]
    return out


def _use_god(use: dict) -> dict:
    """A 用神: the slot read, its role (先看, 兼看 …), the node there, why, the finding and its src."""
    node = use.get("node") or {}
    return {"system": use.get("system"), "slot": use.get("slot"), "role": use.get("role"),
            "node": {"id": node.get("id"), "name": node.get("name")}, "why": use.get("why"),
            "finding": use.get("finding"), "src": use.get("src", [])}


def _reasons(reasons) -> list[dict]:
    """The reasons grouped by why they count (en), in the order of their first reason: ``{"why", "items"}``,
    each item the finding, what it means, its polarity and its src."""
    groups: dict[str, list] = {}
    for reason in reasons:
        why = reason.get("why")
        groups.setdefault(why.get("en") if isinstance(why, dict) else why, []).append(
            {"finding": reason.get("finding"), "meaning": reason.get("meaning"), "polarity": reason.get("polarity"),
             "src": reason.get("src", [])})
    return [{"why": why, "items": items} for why, items in groups.items()]


def compact_judgment(judgment: dict) -> dict:
    """A judgment (docs/judgments.md) without the paths and repeated glosses: topic, verdict (with what gives
    it), the 用神, the facets (answered ones whole, open ones by name), reasons, set-aside findings, 應期, the
    chart read on (when not the asked one), the method steps by rule and src, and the counts (the school
    options, the same for every judgment of a reading, are the reading's ``judgment_options``)."""
    facets = judgment.get("facets", [])
    read_on = judgment.get("read_on") or {}
    out = {"topic": judgment.get("topic"), "names": judgment.get("names"), "verdict": judgment.get("verdict"),
           "verdict_en": (judgment.get("verdict_names") or {}).get("en"), "verdict_by": judgment.get("verdict_by"),
           "use_god": [_use_god(u) for u in judgment.get("use_god", ())],
           "facets": [_facet(f) for f in facets if f.get("status") != "open"],
           "open_facets": [f["facet"] for f in facets if f.get("status") == "open"],
           "conflicts": [c.get("facet") for c in judgment.get("conflicts", ())],
           "reasons": _reasons(judgment.get("reasons", ())),
           "overridden": judgment.get("overridden", []), "when": judgment.get("when", []),
           "method": [{"step": m.get("step"), "rule": m.get("rule"), "finding": m.get("finding"),
                       "src": m.get("src", [])} for m in judgment.get("method", ())],
           "counts": judgment.get("counts")}
    if read_on.get("term"):
        out["read_on"] = read_on
    return out


def compact_findings(findings: list[dict], fields=DEFAULT_FIELDS, limit: int = 50, ids=()) -> dict:
    """The findings asked for: those whose id is in *ids* (every one, in the reading's order), else the first
    *limit*; each with the keys *fields* only. ``total`` counts all of them, ``shown`` those given."""
    wanted = set(ids)
    chosen = [f for f in findings if f.get("id") in wanted] if wanted else findings[:limit]
    keys = tuple(dict.fromkeys(("id", *fields)))
    return {"total": len(findings), "shown": len(chosen), "items": [{k: f.get(k) for k in keys} for f in chosen]}


def compact_reading(reading: dict, *, findings: bool = False, fields=DEFAULT_FIELDS, limit: int = 50,
                    ids=()) -> dict:
    """*reading* compacted (module docstring): the chart summary, compact judgments, tally, counts and the
    findings counted by system; the findings (:func:`compact_findings`) only when *findings* or *ids*."""
    every, judgments = reading.get("findings", []), reading.get("judgments", [])
    out = {"moment": reading.get("moment"), "topic": reading.get("topic"), "names": reading.get("names"),
           "systems": reading.get("systems"), "chart": chart_summary(reading.get("chart") or {}),
           "judgments": [compact_judgment(j) for j in judgments],
           "judgment_options": judgments[0].get("options") if judgments else None,
           "tally": reading.get("tally"), "counts": reading.get("counts"),
           "findings_by_system": dict(Counter(f.get("system") for f in every)),
           "needs_judgment": len(reading.get("needs_judgment", ()))}
    if findings or ids:
        out["findings"] = compact_findings(every, fields, limit, ids)
    return out


def _end(end) -> str | None:
    """A fact's subject, object or qualifier as its name (a literal as itself)."""
    return end.get("name") if isinstance(end, dict) else end


def compact_fact(fact: dict) -> dict:
    """A fact in the export shape (``leishen facts --json``) as one short row: id, subject, relation (type and
    zh), object and qualifiers by name, variant, note and inventory item."""
    return {"id": fact.get("id"), "subject": _end(fact.get("subject")), "relation": fact.get("relation"),
            "zh": fact.get("zh"), "object": _end(fact.get("object")),
            "qualifiers": {k: _end(v) for k, v in (fact.get("qualifiers") or {}).items()},
            "variant": fact.get("variant"), "note": fact.get("note"), "item": fact.get("item")}
