"""Answering a topic's facets from the findings of its reading, in the texts' order (docs/judgments.md):

1. a rescue or reversal row (``modifies=``) sets aside the findings of the row it modifies (000:3, 003:79 …);
2. findings read at a 用神 come before the others, the first-read 用神 (先看) before those read as well
   (兼看) — 002:151; at one place the rows of the passage that asks the facet's question (its heading) come
   before rows of other passages (convention J7; not for a 吉凶 facet, whose answers come from every paragraph of
   the topic), and a finding that needs judgment after one that holds (J2);
3. a facet ordered ``judged_by`` (the general reading's 吉凶) takes, at one place, the findings through the
   general the place rides and the 煞 it belongs to and sits on first: they fix its 吉凶 (000:3, 000:23, 000:79);
   a facet with a procedure (judgments/procedures.py: the topic's own decisive and first-read lines) is ordered
   by its tiers alone, at every place the topic's text reads, never by the place;
4. a finding that needs judgment never decides: it is the asker's question (``questions``), and the facet is
   decided by the findings that hold, or stays open;
5. of a facet whose answers exclude each other, the answers of the first rank decide it; two different
   answers there are a conflict: both are named and the facet is 未定, never a silent pick. A caution line of
   the procedure that holds beside a 吉 answer makes it 未定 too, naming both."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from leishen.judgments.prepared import TopicTable, best_answers
from leishen.judgments.procedures import UNNAMED, procedure_of
from leishen.judgments.tables import Answer, Facet, plain_note, value_names
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
    avoid: bool = False  # an AVOIDS row (忌, 怕): what to avoid, never a prescription
    caution: bool = False  # a caution line of the facet's procedure: names a conflict beside a 吉, never decides
    rescue: int | None = None  # a rescue line's tier: stands beside a 凶 of that tier as a conflict (004:35)


class Answering(NamedTuple):
    """A finding that answers some facet of its topic: facet position → (answer position, answer), the season
    its row names, its row's inventory item and whether the row is an AVOIDS row."""

    finding: dict
    hits: dict
    season: str | None
    item: str | None
    avoid: bool


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
    (000:3); else none (a topic's own priority lines are its procedure, :func:`facet_candidates`)."""
    if facet.order == "judged_by":
        return (0 if qualifies(finding) else 1,)
    return ()


def answers_of(table: TopicTable, findings: list, info: dict, props: dict) -> list[Answering]:
    """The :class:`Answering` of each finding that answers a facet of the topic, in order: its keys looked up
    once in the topic's answer index of its system (:func:`leishen.judgments.prepared.best_answers`); *info*:
    fact id → FactInfo."""
    out = []
    for f in findings:
        hits = best_answers(table.answers_in(f.get("system")), f, info, props)
        if hits:
            i = info.get(f["rule"]["fact"])
            if i is None:
                out.append(Answering(f, hits, None, None, False))
            else:
                out.append(Answering(f, hits, i.season, i.item, i.relation == "AVOIDS"))
    return out


def facet_candidates(table: TopicTable, answering: list, ranks: dict, aims: dict) -> tuple[list, list]:
    """(for each facet of a topic, in the table's order, the findings that hold and answer it, read first
    first; for each facet, the findings that need judgment and would answer it: the asker's questions). Each
    candidate has its answer, its rank (*ranks*), the season its row names and what the 用神 it is read at is
    read for (*aims*). A facet with a procedure ranks by its tiers alone (the topic's decisive lines, then the
    lines its text reads first, then the rest, every place alike); any other by place, then its order."""
    facets, heading_src = table.facets, table.heading_src
    out: list[list[Candidate]] = [[] for _ in facets]
    asks: list[list[Candidate]] = [[] for _ in facets]
    procs = [procedure_of(fc.topic, fc.name) for fc in facets]
    for a in answering:
        f, rank = a.finding, ranks[a.finding["id"]]
        for n, (_, answer) in a.hits.items():
            value = answer_value(answer, f)
            if not value:
                continue
            facet, proc = facets[n], procs[n]
            if proc is not None:  # a verdict or a decisive line by its tier alone; else by tier, then place (002:151)
                key = (proc.tier_of(a.item), () if facet.verdict or proc.decisive(a.item) else (rank[0],), 0, 0)
            else:  # J7: at one place, the rows of the passage that asks a (descriptive) question come first
                own = 0 if answer.value == "=polarity" or not heading_src[n].isdisjoint(f.get("src") or ()) else 1
                key = (rank[0], order_key(facet, f) if facet.order else (), own, 0)
            cand = Candidate(f, value, key, a.season, aims.get(f["id"]), a.avoid and answer.value == "=name",
                             proc is not None and proc.caution(a.item, rank[0] < OTHER_PLACES),
                             proc.rescue_tier(a.item) if proc is not None else None)
            (out if rank[1] == 0 else asks)[n].append(cand)
    for cands in out:
        if len(cands) > 1:
            cands.sort(key=_rank)
    return out, asks


def _rank(c: Candidate) -> tuple:
    return c.rank


def value_json(value: str, cands: list[Candidate], place=None) -> dict:
    """An answer at a place: its value with zh/ko/en (the meaning's names when the value is the meaning's name:
    the first candidate's whose is), the findings that give it, their citations and the seasons their rows name
    (in order, once each). An answer given by AVOIDS rows (忌, 怕) is what to avoid: ``avoid`` is true and its
    names say so ("avoid: …"), never a prescription."""
    meaning = next((m for c in cands if (m := c.finding.get("meaning")) and m.get("zh") == value), None)
    if meaning:
        ko, en = meaning.get("ko"), meaning.get("en")
    else:
        ko, en = value_names().get(value, (None, None))
    zh, avoid = value, bool(cands) and cands[0].avoid
    if avoid:
        zh, ko, en = f"忌{value}", f"피할 것: {ko or value}", f"avoid: {en or value}"
    return {"value": value, "id": meaning.get("id") if meaning else None, "zh": zh, "ko": ko, "en": en,
            "avoid": avoid, "findings": [c.finding["id"] for c in cands], "src": _src_of(cands),
            "seasons": list(dict.fromkeys(c.season for c in cands if c.season)), "place": place}


def question_json(c: Candidate) -> dict:
    """A finding that needs judgment, as the asker's question: the answer it would give, the finding, its
    citation and what the asker must settle (the row's judgment note)."""
    f = c.finding
    meaning = f.get("meaning") or {}
    what = {lang: meaning.get(lang) or meaning.get("zh") or c.value for lang in ("zh", "ko", "en")}
    note = plain_note(f.get("judgment") or "") or what["en"]
    return {"value": c.value, "finding": f["id"], "src": list(f.get("src") or ()), "judgment": f.get("judgment"),
            "meaning": dict(meaning),
            "ask": {"zh": f"待占者自定：{what['zh']}否？", "ko": f"묻는 이가 정할 것: {what['ko']}인가?",
                    "en": f"for the asker to settle: {note}"}}


def _src_of(cands: list[Candidate]) -> list[str]:
    """The citations of some candidates' findings, in order, once each."""
    out: dict = {}
    for c in cands:
        for cited in c.finding.get("src") or ():
            out[cited] = None
    return list(out)


def _by_value(cands: list[Candidate]) -> dict[tuple, list[Candidate]]:
    """(value, avoid) → the candidates that give it: what to avoid is never the same answer as what to do."""
    grouped: dict = {}
    for c in cands:
        grouped.setdefault((c.value, c.avoid), []).append(c)
    return grouped


def _place(c: Candidate, per: str | None):
    """The place a candidate is answered at, for a facet answered per place: the palace of its binding
    (``per=宮``), or what the 用神 it is read at is read for (``per=用神``: 003:91 花草 from 天沖, 樹木 from 天輔)."""
    if per == "用神":
        return c.aim
    return (c.finding.get("bindings") or {}).get(per) if per else None


def _decide(facet: Facet, cands: list[Candidate]) -> tuple[list, dict]:
    """(the deciding candidates, their answers by value) of a facet at one place: every candidate of a facet
    whose answers add up, else those of the first rank — and, where that rank gives 吉, the caution lines of the
    procedure that hold beside it (004:43: named as a conflict, never a verdict of their own), and where it gives
    凶, the rescue lines of its tier that hold (004:35)."""
    if facet.kind == "many":
        if procedure_of(facet.topic, facet.name) is not None:  # ranked: its first tier decides, the rest is `also`
            cands = [c for c in cands if c.rank[0] == cands[0].rank[0]]
        return cands, _by_value(cands)
    lead = [c for c in cands if c.rank == cands[0].rank]
    first = [c for c in lead if not c.caution] or [c for c in lead if c.rank[0] < UNNAMED]  # (a first_caution row)
    if not first:
        return [], {}
    if {c.value for c in first} == {"吉"}:
        first += [c for c in cands if c.caution and c.value == "凶" and c not in first]
    elif {c.value for c in first} == {"凶"}:  # a rescue of the deciding tier stands beside its 凶 (004:35)
        first += [c for c in cands if c.rescue == first[0].rank[0] and c.value == "吉" and c not in first]
    return first, _by_value(first)


def answer_facet(facet: Facet, cands: list[Candidate], asks: list[Candidate] = ()) -> dict:
    """A facet's JSON: ``decided`` (its answers and the findings that decide it), ``未定`` (a conflict: the
    first rank holds different answers of a facet whose answers exclude each other) or ``open`` (no finding
    answers it on this chart). A facet answered per place is decided at each place apart; different places
    with different answers are no conflict (each answer names its ``place``)."""
    out = {"facet": facet.name, "names": {"zh": facet.name, "ko": facet.ko, "en": facet.en}, "kind": facet.kind,
           "verdict": facet.verdict, "per": facet.per, "heading_src": list(facet.src), "status": "open",
           "answer": [], "findings": [], "src": [], "conflict": None,
           "questions": [question_json(c) for c in asks], "asked_if": list(facet.asked_if or ()) or None}
    if not cands:
        return out
    if facet.per:
        places: dict = {}
        for c in cands:
            places.setdefault(_place(c, facet.per), []).append(c)
    else:
        places = {None: cands}
    conflict, deciding, also = [], [], []
    for place, group in places.items():
        decided, values = _decide(facet, group)
        deciding += decided
        chosen = {id(c) for c in decided}
        also += [c for c in group if id(c) not in chosen]
        answers = [value_json(v, cs, place) for (v, _), cs in values.items()]
        if facet.kind == "one" and len(values) > 1:
            conflict += answers
        else:
            out["answer"] += answers
    out["findings"] = [c.finding["id"] for c in deciding]
    if facet.per:  # the citations in the candidates' order, whatever the order of the places
        ids = set(out["findings"])
        deciding = [c for c in cands if c.finding["id"] in ids]
    out["src"] = _src_of(deciding)
    if facet.kind == "many":  # a ranked facet's later tiers: shown as what else the text names, never decided
        out["also"] = [value_json(v, cs) for (v, _), cs in _by_value(also).items()]
    if conflict:
        out["status"], out["conflict"] = "未定", conflict
    elif out["answer"]:
        out["status"] = "decided"
    return out
