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
from typing import NamedTuple

from leishen.judgments.prepared import TopicTable, best_answers
from leishen.judgments.tables import Answer, Facet, paragraph_rank, value_names
from leishen.judgments.usegod import place_rank

POLARITIES = ("吉", "凶", "混")
OTHER_PLACES = 2  # the rank of a finding read at no 用神


class Candidate(NamedTuple):
    """A finding that answers a facet: the answer it gives and its rank (lower is read first). A NamedTuple:
    a judgment makes dozens, and it is made in a third of a frozen dataclass's time."""

    finding: dict
    value: str
    rank: tuple
    season: str | None = None  # when in the year it comes (a row's season= qualifier: 003's 年景 and 天時 rows)
    aim: str | None = None  # what the 用神 it is read at is read for (per=用神)


def overridden_by(rows: list, modifiers: list, info: dict) -> dict[str, dict]:
    """finding id → the finding of the rescue / reversal row that sets it aside (its fact's ``modifies=``
    names the base row's inventory item) at the same place: a rescue read at one palace (or slot) leaves a
    base row read at another standing (:func:`same_place`); *rows*: (finding, FactInfo) of the findings of table
    rows, *modifiers* those of rescue and reversal rows; *info*: fact id → FactInfo. The findings are indexed by
    their row's item only when a rescue or reversal holds."""
    if not modifiers:
        return {}
    by_item = defaultdict(list)
    for f, i in rows:
        if i.item:
            by_item[i.item].append(f)
    out = {}
    for f, i in modifiers:
        for base in by_item.get(i.modifies, ()):
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


def ranks_of(findings: list, places: dict) -> dict[str, tuple]:
    """finding id → (place rank: the best 用神 it is read at, else OTHER_PLACES; 0 when it holds, 1 when it needs
    judgment); *places* from usegod.god_places."""
    return {f["id"]: (place_rank(f, places, OTHER_PLACES), 0 if f.get("certainty") == "holds" else 1)
            for f in findings}


def qualifies(finding: dict) -> bool:
    """A finding that fixes the 吉凶 of what it is read at (000:3 視所乘何神、所屬何煞、所臨何煞; 000:23; 000:79): it
    passes the general riding the place (a RIDDEN_BY chart hop) or it is a 神煞 seen there."""
    if finding.get("query") == "shensha":
        return True
    for step in finding.get("path") or ():
        if step.get("rel") == "RIDDEN_BY":
            return True
        node = step.get("node")
        if node is not None and node.get("label") == "Shensha":
            return True
    return False


def order_key(facet: Facet, finding: dict) -> tuple:
    """What orders a facet's answers at one place, by its ``order``: ``judged_by`` — the general and the 煞 first
    (000:3); ``text`` — the topic's paragraphs in the text's order (convention J9, reading_order.csv); else none."""
    if facet.order == "judged_by":
        return (0 if qualifies(finding) else 1,)
    if facet.order == "text":
        return paragraph_rank(facet.topic, finding.get("src"))
    return ()


def answers_of(table: TopicTable, findings: list, info: dict, props: dict) -> list[tuple[dict, dict, str | None]]:
    """(finding, facet position → (answer position, answer), the season its row names) of each finding that
    answers a facet of the topic, in order: its keys looked up once in the topic's answer index of its system
    (:func:`leishen.judgments.prepared.best_answers`); *info*: fact id → FactInfo."""
    out = []
    for f in findings:
        hits = best_answers(table.answers_in(f.get("system")), f, info, props)
        if hits:
            i = info.get(f["rule"]["fact"])
            out.append((f, hits, i.season if i is not None else None))
    return out


def facet_candidates(table: TopicTable, answering: list, ranks: dict, aims: dict) -> list[list[Candidate]]:
    """For each facet of a topic (in the table's order), the findings that answer it (*answering*, from
    :func:`answers_of`), each with its answer, rank (*ranks*), the season its row names and what the 用神 it is
    read at is read for (*aims*), read first first. Of a facet whose answers exclude each other, answered at one
    place, only the findings read at its best place are kept: :func:`answer_facet` reads its first rank alone,
    and a finding read at a worse place is never in it (its order key is not made)."""
    facets, heading_src = table.facets, table.heading_src
    given, best = [], [OTHER_PLACES + 1] * len(facets)
    for f, hits, season in answering:
        rank = ranks[f["id"]]
        for n, (_, answer) in hits.items():
            value = answer_value(answer, f)
            if value:
                given.append((n, answer, value, f, rank, season))
                if rank[0] < best[n]:
                    best[n] = rank[0]
    out: list[list[Candidate]] = [[] for _ in facets]
    for n, answer, value, f, rank, season in given:
        facet = facets[n]
        if rank[0] > best[n] and facet.kind == "one" and not facet.per:
            continue
        # J7: at one place, the rows of the passage that asks a (descriptive) question come first
        own = 0 if answer.value == "=polarity" or not heading_src[n].isdisjoint(f.get("src") or ()) else 1
        order = order_key(facet, f) if facet.order else ()
        out[n].append(Candidate(f, value, (rank[0], order, own, rank[1]), season, aims.get(f["id"])))
    for cands in out:
        if len(cands) > 1:
            cands.sort(key=_rank)
    return out


def _rank(c: Candidate) -> tuple:
    return c.rank


def value_json(value: str, cands: list[Candidate], place=None) -> dict:
    """An answer at a place: its value with zh/ko/en (the meaning's names when the value is the meaning's name:
    the first candidate's whose is), the findings that give it, their citations and the seasons their rows name
    (in order, once each)."""
    meaning = next((m for c in cands if (m := c.finding.get("meaning")) and m.get("zh") == value), None)
    if meaning:
        ko, en = meaning.get("ko"), meaning.get("en")
    else:
        ko, en = value_names().get(value, (None, None))
    return {"value": value, "id": meaning.get("id") if meaning else None, "zh": value, "ko": ko, "en": en,
            "findings": [c.finding["id"] for c in cands], "src": _src_of(cands),
            "seasons": list(dict.fromkeys(c.season for c in cands if c.season)), "place": place}


def _src_of(cands: list[Candidate]) -> list[str]:
    """The citations of some candidates' findings, in order, once each."""
    out: dict = {}
    for c in cands:
        for cited in c.finding.get("src") or ():
            out[cited] = None
    return list(out)


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
    if not cands:
        return out
    if facet.per:
        places: dict = {}
        for c in cands:
            places.setdefault(_place(c, facet.per), []).append(c)
    else:
        places = {None: cands}
    conflict, deciding = [], []
    for place, group in places.items():
        decided, values = _decide(facet, group)
        deciding += decided
        answers = [value_json(v, cs, place) for v, cs in values.items()]
        if facet.kind == "one" and len(values) > 1:
            conflict += answers
        else:
            out["answer"] += answers
    out["findings"] = [c.finding["id"] for c in deciding]
    if facet.per:  # the citations in the candidates' order, whatever the order of the places
        ids = set(out["findings"])
        deciding = [c for c in cands if c.finding["id"] in ids]
    out["src"] = _src_of(deciding)
    if conflict:
        out["status"], out["conflict"] = "未定", conflict
    elif out["answer"]:
        out["status"] = "decided"
    return out
