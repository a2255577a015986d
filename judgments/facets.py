"""Answering a topic's facets from the findings of its reading, in the texts' order (docs/judgments.md):

1. a rescue or reversal row (``modifies=``) sets aside the findings of the row it modifies (000:3, 003:79 …);
2. findings read at a 用神 come before the others, the first-read 用神 (先看) before those read as well
   (兼看) — 002:151; at one place the rows of the passage that asks the facet's question (its heading) come
   before rows of other passages (convention J7; not for a 吉凶 facet, whose answers come from every paragraph of
   the topic), and a finding that needs judgment after one that holds (J2);
3. a facet ordered ``judged_by`` (the general reading's 吉凶) takes, at one place, the findings through the
   general the place rides and the 煞 it belongs to and sits on first: they fix its 吉凶 (000:3, 000:23, 000:79);
   a facet ordered ``text`` (a topic's 吉凶) takes the topic's paragraphs in the text's order — 004's topics open
   with 論干支 and close with 論吉凶格 — save a paragraph a line says to read first (004:7 科試先須論值符):
   convention J9;
4. of a facet whose answers exclude each other, the answers of the first rank decide it; two different
   answers there are a conflict: both are named and the facet is 未定, never a silent pick."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from leishen.judgments.tables import Answer, Facet, paragraph_rank, value_names
from leishen.judgments.usegod import place_rank

POLARITIES = ("吉", "凶", "混")
OTHER_PLACES = 2  # the rank of a finding read at no 用神


@dataclass(frozen=True, slots=True)
class Candidate:
    """A finding that answers a facet: the answer it gives and its rank (lower is read first)."""

    finding: dict
    value: str
    rank: tuple
    season: str | None = None  # when in the year it comes (a row's season= qualifier: 003's 年景 and 天時 rows)
    aim: str | None = None  # what the 用神 it is read at is read for (per=用神)


def overridden_by(findings: list, info: dict) -> dict[str, dict]:
    """finding id → the finding of the rescue / reversal row that sets it aside (its fact's ``modifies=``
    names the base row's inventory item) at the same place: a rescue read at one palace (or slot) leaves a
    base row read at another standing (:func:`same_place`); *info*: fact id → FactInfo."""
    by_item = defaultdict(list)
    for f in findings:
        i = info.get(f["rule"]["fact"])
        if i is not None and i.item:
            by_item[i.item].append(f)
    out = {}
    for f in findings:
        i = info.get(f["rule"]["fact"])
        for base in by_item.get(i.modifies, ()) if i is not None and i.modifies else ():
            if base["id"] != f["id"] and i.item != info[base["rule"]["fact"]].item and same_place(base, f):
                out.setdefault(base["id"], f)
    return out


def same_place(a: dict, b: dict) -> bool:
    """Whether two findings are read at one place: no variable both bind (宮, the 傳 …) is bound to two
    different nodes."""
    one, two = a.get("bindings") or {}, b.get("bindings") or {}
    return all(one[k] == two[k] for k in one.keys() & two.keys())


def answer_value(answer: Answer, finding: dict) -> str:
    """The answer a finding gives: the row's value, the meaning's own name (``=name``) or the polarity."""
    if answer.value == "=name":
        return (finding.get("meaning") or {}).get("zh") or ""
    if answer.value == "=polarity":
        return finding.get("polarity") or ""
    return answer.value


def rank_of(finding: dict, places: dict) -> tuple:
    """(place rank: the best 用神 it is read at, else OTHER_PLACES; 0 when it holds, 1 when it needs judgment);
    *places* from usegod.god_places."""
    return place_rank(finding, places, OTHER_PLACES), 0 if finding.get("certainty") == "holds" else 1


def qualifies(finding: dict) -> bool:
    """A finding that fixes the 吉凶 of what it is read at (000:3 視所乘何神、所屬何煞、所臨何煞; 000:23; 000:79): it
    passes the general riding the place (a RIDDEN_BY chart hop) or it is a 神煞 seen there."""
    if finding.get("query") == "shensha":
        return True
    return any(step.get("rel") == "RIDDEN_BY" or (step.get("node") or {}).get("label") == "Shensha"
               for step in finding.get("path") or ())


def order_key(facet: Facet, finding: dict) -> tuple:
    """What orders a facet's answers at one place, by its ``order``: ``judged_by`` — the general and the 煞 first
    (000:3); ``text`` — the topic's paragraphs in the text's order (convention J9, reading_order.csv); else none."""
    if facet.order == "judged_by":
        return (0 if qualifies(finding) else 1,)
    if facet.order == "text":
        return paragraph_rank(facet.topic, finding.get("src"))
    return ()


def finding_keys(findings: list, info: dict, props: dict, ranks: dict, aims: dict) -> list[tuple]:
    """(finding, meaning id, the meaning's label, its row's category, polarity, rank, season) of each finding:
    what a facet's answers are matched on, the order it is read in and the season its row names, found once."""
    out = []
    for f in findings:
        i = info.get(f["rule"]["fact"])
        meaning = (f.get("meaning") or {}).get("id")
        season = i.season if i is not None else None
        out.append((f, meaning, props.get(meaning, {}).get("label"), i.category if i is not None else None,
                    f.get("polarity"), ranks[f["id"]], props.get(season, {}).get("name", season) if season else None,
                    aims.get(f["id"])))
    return out


def candidates(facet: Facet, keyed: list[tuple]) -> list[Candidate]:
    """The findings that answer a facet (of its system, when it names one), each with its answer and rank."""
    out = []
    for f, meaning, label, category, polarity, rank, season, aim in keyed:
        if facet.system and f.get("system") != facet.system:
            continue
        answer = facet.answer_for(meaning, label, category, polarity)
        if answer is not None:
            value = answer_value(answer, f)
            if value:  # J7: at one place, the rows of the passage that asks a (descriptive) question come first
                own = 0 if answer.value == "=polarity" or set(f.get("src") or ()) & set(facet.src) else 1
                out.append(Candidate(f, value, (rank[0], order_key(facet, f), own, rank[1]), season, aim))
    return sorted(out, key=lambda c: c.rank)


def value_json(value: str, cands: list[Candidate]) -> dict:
    """An answer: its value with zh/ko/en (the meaning's names when the value is the meaning's name) and the
    findings that give it."""
    meaning = next((c.finding["meaning"] for c in cands if (c.finding.get("meaning") or {}).get("zh") == value), None)
    ko, en = value_names().get(value, (None, None))
    if meaning:
        ko, en = meaning.get("ko"), meaning.get("en")
    seasons = list(dict.fromkeys(c.season for c in cands if c.season))
    return {"value": value, "id": meaning.get("id") if meaning else None, "zh": value, "ko": ko, "en": en,
            "findings": [c.finding["id"] for c in cands], "src": _src_of(cands), "seasons": seasons}


def _src_of(cands: list[Candidate]) -> list[str]:
    """The citations of some candidates' findings, in order, once each."""
    return list(dict.fromkeys(s for c in cands for s in c.finding.get("src") or ()))


def _by_value(cands: list[Candidate]) -> dict[str, list[Candidate]]:
    grouped: dict = {}
    for c in cands:
        grouped.setdefault(c.value, []).append(c)
    return grouped


def _place(c: Candidate, per: str | None):
    """The place a candidate is answered at, for a facet answered per place: the palace of its binding
    (``per=宮``), or what the 用神 it is read at is read for (``per=用神``: 003:91 花草 from 天沖, 樹木 from 天輔)."""
    if per == "用神":
        return c.aim
    return (c.finding.get("bindings") or {}).get(per) if per else None


def _decide(facet: Facet, cands: list[Candidate]) -> tuple[list, dict]:
    """(the deciding candidates, their answers by value) of a facet at one place: every candidate of a facet
    whose answers add up, else those of the first rank."""
    deciding = cands if facet.kind == "many" else [c for c in cands if c.rank == cands[0].rank]
    return deciding, _by_value(deciding)


def answer_facet(facet: Facet, cands: list[Candidate]) -> dict:
    """A facet's JSON: ``decided`` (its answers and the findings that decide it), ``未定`` (a conflict: the
    first rank holds different answers of a facet whose answers exclude each other) or ``open`` (no finding
    answers it on this chart). A facet answered per place is decided at each place apart; different places
    with different answers are no conflict (each answer names its ``place``)."""
    out = {"facet": facet.name, "names": {"zh": facet.name, "ko": facet.ko, "en": facet.en}, "kind": facet.kind,
           "verdict": facet.verdict, "per": facet.per, "heading_src": list(facet.src), "status": "open",
           "answer": [], "findings": [], "src": [], "conflict": None}
    places: dict = {}
    for c in cands:
        places.setdefault(_place(c, facet.per), []).append(c)
    conflict = []
    for place, group in places.items():
        deciding, values = _decide(facet, group)
        out["findings"] += [c.finding["id"] for c in deciding]
        answers = [{**value_json(v, cs), "place": place} for v, cs in values.items()]
        if facet.kind == "one" and len(values) > 1:
            conflict += answers
        else:
            out["answer"] += answers
    out["src"] = list(dict.fromkeys(s for c in cands if c.finding["id"] in out["findings"]
                                    for s in c.finding.get("src") or ()))
    if conflict:
        out["status"], out["conflict"] = "未定", conflict
    elif out["answer"]:
        out["status"] = "decided"
    return out
