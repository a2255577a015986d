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

import json
import re
from collections import Counter
from typing import Literal

__all__ = ["FINDING_FIELDS", "DEFAULT_FIELDS", "FindingField", "LANGS", "Lang", "chart_summary", "compact_judgment",
           "compact_findings", "compact_reading", "compact_fact", "compact_text", "plain"]

#: the keys of a finding (docs/readings.md)
FINDING_FIELDS = ("id", "system", "topic", "query", "rule", "polarity", "certainty", "judgment", "bindings", "path",
                  "evidence", "meaning", "src", "variant", "options")
#: the keys a finding keeps when none are asked for
DEFAULT_FIELDS = ("id", "meaning", "polarity", "src")
FindingField = Literal[FINDING_FIELDS]

LIUREN_KEYS = ("month_general", "plate", "generals", "lessons", "transmissions", "method", "course", "void", "xun",
               "horse")
QIMEN_KEYS = ("dun", "ju", "term", "yuan", "xun_head", "duty_star", "duty_star_palace", "duty_gate",
              "duty_gate_palace", "void", "horse", "palaces")
#: an inventory item number in brackets, "(4.36.01)": left out of what a user reads
CODE_NOTE = re.compile(r"\s*\(\d+\.\d+\.[\w.]+\)")
LANGS = ("zh", "ko", "en")
Lang = Literal[LANGS]
#: what only the project's own bookkeeping reads: convention numbers (J3), inventory row ids (002-S28.SF-02),
#: "inventory meta row …", "issue #29"
INTERNAL = re.compile(r"\bJ\d+\b|\b\d{3}-S\d[\w.]*(?:-\d+)?|inventory (?:meta )?row|\bissue #\d+", re.I)
NINESTAR_KEYS = ("year", "month", "day", "day_dun")


def _pick(data: dict | None, keys) -> dict | None:
    """The *keys* of *data* that it has (None for no data)."""
    return None if data is None else {k: data[k] for k in keys if k in data}


def chart_summary(chart: dict) -> dict:
    """The chart's moment, pillars, solar term and the values of each system a reading turns on (Liu Ren: 月將,
    the plate (earth branch → heaven branch) and the 將 over each heaven branch, 四課, 三傳, method and course,
    旬空; Qimen: 陰陽遁, 局, 值符 and 值使 with their palaces, each palace's stems, star, gate and deity; Nine
    Stars: the year, month and day centre stars); a system not charted is left out."""
    out = {"moment": chart.get("moment"), "pillars": chart.get("pillars"),
           "solar_term": (chart.get("solar_term") or {}).get("name")}
    liuren = _pick(chart.get("liuren"), LIUREN_KEYS)
    if liuren is not None:
        liuren["generals_of_transmissions"] = [t.get("general") for t in chart["liuren"].get("transmission_details", ())]
        liuren["noble"] = (chart["liuren"].get("noble") or {}).get("branch")
    qimen = _pick(chart.get("qimen"), QIMEN_KEYS)
    if qimen and qimen.get("palaces"):  # a palace's empty places left out (the centre has only its earth stem)
        qimen["palaces"] = {n: {k: v for k, v in p.items() if v is not None} for n, p in qimen["palaces"].items()}
    for key, part in (("liuren", liuren), ("qimen", qimen),
                      ("ninestar", _pick(chart.get("ninestar"), NINESTAR_KEYS))):
        if part is not None:
            out[key] = part
    return out


def plain(text):
    """*text* as a user reads it: a leading convention number ("J3: ") dropped and every clause (split at ";")
    naming an internal code (J3, 002-S28.SF-02, inventory rows, issue #) left out; None when nothing is left."""
    if not isinstance(text, str):
        return text
    text = CODE_NOTE.sub("", text)
    clauses = [re.sub(r"^\s*J\d+\s*[:：]\s*", "", c).strip() for c in re.split(r"\s*;\s*", text)]
    kept = "; ".join(c for c in clauses if c and not INTERNAL.search(c))
    return kept or None


def named(names, lang: str):
    """A {zh, ko, en} name in *lang* (else the Chinese one, else English); a plain string as itself."""
    if not isinstance(names, dict):
        return plain(names)
    return plain(names.get(lang) or names.get("zh") or names.get("name") or names.get("en"))


def _gloss(out: dict, names, lang: str) -> dict:
    """*out* with the *lang* name of *names* under the key *lang* (none added for zh: the value is zh)."""
    if lang != "zh" and isinstance(names, dict) and names.get(lang):
        out[lang] = names[lang]
    return out


def _answer(answer: dict, lang: str = "en") -> dict:
    """A facet's answer: its value (zh) with its gloss in *lang*, the findings that give it and their src."""
    out = _gloss({"value": answer.get("value")}, answer, lang)
    out.update({"findings": answer.get("findings", []), "src": answer.get("src", [])})
    for key in ("place", "seasons"):
        if answer.get(key):
            out[key] = answer[key]
    return out


def _facet(facet: dict, lang: str = "en") -> dict:
    """A decided or undecided facet: its question (zh, and in *lang*), status, the heading's src where no answer
    cites it already, answers (or the conflicting ones)."""
    out = _gloss({"facet": facet["facet"]}, facet.get("names"), lang)
    cited = {src for a in (*facet.get("answer", ()), *(facet.get("conflict") or ())) for src in a.get("src", ())}
    out.update({"status": facet.get("status"),
                "heading_src": [src for src in facet.get("heading_src", ()) if src not in cited],
                "answer": [_answer(a, lang) for a in facet.get("answer", ())]})
    if facet.get("verdict"):
        out["verdict"] = True
    if facet.get("conflict"):
        out["conflict"] = [_answer(a, lang) for a in facet["conflict"]]
    return out


def _use_god(use: dict, lang: str = "en") -> dict:
    """A 用神: the slot read, its role (先看, 兼看 …), the node there (named in *lang* too), why (en only, internal
    codes left out), the finding and its src."""
    node = use.get("node") or {}
    out = {"system": use.get("system"), "slot": use.get("slot"), "role": use.get("role"),
           "node": _gloss({"id": node.get("id"), "name": node.get("name")}, node, lang)}
    if lang == "en" and plain(use.get("why")):
        out["why"] = plain(use.get("why"))
    if use.get("finding"):
        out["finding"] = use["finding"]
    out["src"] = use.get("src", [])
    return out


def _use_gods(uses, lang: str = "en") -> list[dict]:
    """The 用神 compacted (:func:`_use_god`), a why already given by an earlier one not repeated."""
    out, said = [], set()
    for use in uses:
        one = _use_god(use, lang)
        if "why" in one and one["why"] in said:
            del one["why"]
        said.add(one.get("why"))
        out.append(one)
    return out


def _reasons(reasons, lang: str = "en", meanings=None) -> list[dict]:
    """The reasons grouped by why they count (in *lang*), in the order of their first reason: ``{"why",
    "items"}``, each item the finding, what it means (in *lang*, from *meanings*: finding id → its {zh, ko, en}
    meaning), its polarity (left out when it has none) and its src."""
    groups: dict[str, list] = {}
    for reason in reasons:
        meaning = (meanings or {}).get(reason.get("finding")) or reason.get("meaning")
        item = {"finding": reason.get("finding"), "meaning": named(meaning, lang), "polarity": reason.get("polarity"),
                "src": reason.get("src", [])}
        groups.setdefault(named(reason.get("why"), lang), []).append({k: v for k, v in item.items() if v is not None})
    return [{"why": why, "items": items} for why, items in groups.items()]


def _when(when: dict, lang: str = "en") -> dict:
    """An 應期 item: what it dates (named in *lang*), the date, its pillar, days, speed, where it is read and
    src; why it has no date, when it has none."""
    out = {"for": named(when.get("for"), lang)}
    out.update({k: when[k] for k in ("date", "pillar", "days", "speed", "star", "palace", "stem", "branch")
                if when.get(k) is not None})
    judgment = named(when.get("judgment_names") or when.get("judgment"), lang)
    if judgment:
        out["judgment"] = judgment
    out["src"] = when.get("src", [])
    return out


def compact_judgment(judgment: dict, lang: str = "en", meanings=None) -> dict:
    """A judgment (docs/judgments.md) without the paths and repeated glosses: topic, verdict (with what gives
    it), the 用神, the facets (answered ones whole, open ones by name), reasons, set-aside findings, 應期, the
    chart read on (when not the asked one), the method steps by rule and src, and the counts (the school
    options, the same for every judgment of a reading, are the reading's ``judgment_options``). Names and
    glosses in *lang*; ``summary`` (one line answering the question) in *lang* when the judgment has one; no
    internal code (J3, row ids) is kept."""
    facets = judgment.get("facets", [])
    read_on = judgment.get("read_on") or {}
    by = judgment.get("verdict_by") or {}
    out = {"topic": judgment.get("topic"), "name": named(judgment.get("names"), lang)}
    if judgment.get("summary"):
        out["summary"] = named(judgment["summary"], lang)
    out.update({"verdict": judgment.get("verdict"), f"verdict_{lang}": named(judgment.get("verdict_names"), lang),
           "verdict_by": {k: v for k, v in (("facet", by.get("facet")), ("why", named(by, lang) if not by.get(
               "facet") else None), ("src", by.get("src"))) if v},
           "use_god": _use_gods(judgment.get("use_god", ()), lang),
           "facets": [_facet(f, lang) for f in facets if f.get("status") != "open"],
           "open_facets": [f["facet"] for f in facets if f.get("status") == "open"],
           "conflicts": [c.get("facet") for c in judgment.get("conflicts", ())],
           "reasons": _reasons(judgment.get("reasons", ()), lang, meanings),
           "overridden": judgment.get("overridden", []), "when": [_when(w, lang) for w in judgment.get("when", ())],
           "method": [{"rule": m.get("rule"), "finding": m.get("finding"), "src": m.get("src", [])}
                      for m in judgment.get("method", ())],
           "counts": judgment.get("counts")})
    if read_on.get("term"):
        out["read_on"] = read_on
    return out


def _briefer(judgment: dict, asked) -> dict:
    """The general reading's judgment in the reading of one topic, its reasons by finding id only (``ids`` of the
    ``read`` tool gives them whole): the asked topic's judgment is what the reading is for."""
    if judgment.get("topic") is not None or asked in (None, "*"):
        return judgment
    return {**judgment, "reasons": [{"why": g["why"], "findings": [i["finding"] for i in g["items"]]}
                                    for g in judgment["reasons"]]}


def compact_findings(findings: list[dict], fields=DEFAULT_FIELDS, limit: int = 50, ids=()) -> dict:
    """The findings asked for: those whose id is in *ids* (every one, in the reading's order), else the first
    *limit*; each with the keys *fields* only. ``total`` counts all of them, ``shown`` those given."""
    wanted = set(ids)
    chosen = [f for f in findings if f.get("id") in wanted] if wanted else findings[:limit]
    keys = tuple(dict.fromkeys(("id", *fields)))
    return {"total": len(findings), "shown": len(chosen), "items": [{k: f.get(k) for k in keys} for f in chosen]}


def compact_reading(reading: dict, *, findings: bool = False, fields=DEFAULT_FIELDS, limit: int = 50,
                    ids=(), lang: str = "en") -> dict:
    """*reading* compacted (module docstring), named in *lang*: the chart summary, compact judgments, tally,
    counts and the findings counted by system; the findings (:func:`compact_findings`) only when *findings* or
    *ids*."""
    every, judgments = reading.get("findings", []), reading.get("judgments", [])
    meanings = {f.get("id"): f.get("meaning") for f in every if isinstance(f.get("meaning"), dict)}
    out = {"moment": reading.get("moment"), "topic": reading.get("topic"), "lang": lang,
           "names": reading.get("names"), "systems": reading.get("systems"),
           "chart": chart_summary(reading.get("chart") or {}),
           "judgments": [_briefer(compact_judgment(j, lang, meanings), reading.get("topic"))
                         for j in judgments],
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


def compact_text(data) -> str:
    """*data* as the one-line JSON text an assistant reads: no indentation, no spaces after separators, CJK and
    Hangul as themselves (a pretty-printed reading is about 45 % indentation)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
