"""A judgment per topic read, from the reading's findings and the chart (docs/judgments.md). The steps, each
from the texts or a named project convention:

1. method — the reading's method rows (READ_FROM, SEEN_AT, JUDGED_BY, COUNTS_ONLY_WITH, TIMES, category=method,
   the significators) are steps, not answers;
2. 用神 — what the text says to read first (002:151, 003:51, 003:55, 004's 論干支 significators, use_gods.csv);
   with 月將加時 only the 初傳 counts and the 中傳 / 末傳 are set aside (002:151 中末總棄);
3. rescues and reversals set aside their base rows (``modifies=``);
4. facets — each answered in the texts' order (judgments/facets.py); a conflict is 未定;
5. verdict — the answer of the topic's verdict facet (its rule polarity); a topic the texts ask "what", not
   "whether" (射覆, 天時, 穿地), has verdict 平 (convention J3);
6. 應期 — the TIMES rows dated (judgments/timing.py); 年景 read on the 立春 chart (003:75)."""

from __future__ import annotations

from typing import NamedTuple

from leishen.errors import LeishenError
from leishen.judgments.beside import beside_of, general_line, line_key, of_000, shensha_line
from leishen.judgments.facets import (OTHER_PLACES, answer_facet, answers_of, facet_candidates, overridden_by,
                                      ranks_of)
from leishen.judgments.prepared import TopicTable, topic_facts
from leishen.judgments.procedures import exclusive_answers
from leishen.judgments.summary import summary_of
from leishen.judgments.tables import facet_table, value_names
from leishen.judgments.timing import READ_ON_LICHUN, lichun_chart, when_of
from leishen.judgments.usegod import aims_of, bind_god, general_rows, god_places, place_rank, use_god_json

QUALIFYING = ("吉", "凶")  # the polarities of a finding that qualifies the 用神 it is read at (reasons_of)
TRANSMISSIONS_DROPPED = ("中傳", "末傳")  # 002:151 月將加時專視初, 中末總棄
DEFAULT_OPTIONS = {"timing_stem": "earth", "nianjing_chart": "lichun", "verdict_conflict": "undecided"}
OPTIONS = {"timing_stem": ("earth", "heaven"), "nianjing_chart": ("lichun", "asked"),
           "verdict_conflict": ("undecided", "mixed")}


class TopicFindings(NamedTuple):
    """A reading's findings of one topic's scope (``all``, in the reading's order), sorted once as the steps read
    them: by id, their systems; with its FactInfo, each finding of a 用神 row (READ_FROM, significators) and of a
    rescue / reversal row (``modifies=``); the method rows, those that weigh (neither method nor a school's alternative:
    the facets' candidates once the set-aside ones are left out), those that carry 吉 or 凶, and the 類神
    findings."""

    all: list
    by_id: dict
    systems: set
    gods: list
    modifiers: list
    methods: list
    weigh: list
    qualifying: list
    leixiang: list


def topic_findings(reading: dict, names: frozenset, info: dict) -> TopicFindings:
    """The :class:`TopicFindings` of the reading's findings whose topic is among *names* (one pass, into local
    lists; *info*: fact id → FactInfo)."""
    out = TopicFindings([], {}, set(), [], [], [], [], [], [])
    found, by_id, systems, gods, modifiers, methods, weigh, qualifying, leixiang = out
    for f in reading["findings"]:
        if f.get("topic") not in names:
            continue
        found.append(f)
        by_id[f["id"]] = f
        systems.add(f["system"])
        i = info.get(f["rule"]["fact"])
        if i is None:
            if not f.get("alternative"):
                weigh.append(f)
        else:
            if i.god is not None:
                gods.append((f, i))
            if i.modifies:
                modifiers.append((f, i))
            if i.method:
                methods.append(f)
            elif not f.get("alternative"):
                weigh.append(f)
        if f["polarity"] in QUALIFYING:
            qualifying.append(f)
        if f["query"] == "leixiang":
            leixiang.append(f)
    return out


def topics_judged(reading: dict, reader) -> list:
    """The topics a reading is judged for: the general reading (None), then the topic asked; for ``*`` every
    topic with facets or findings."""
    asked = reading.get("topic")
    if asked is None:
        return [None]
    if asked == "*":
        named = {f["topic"] for f in reading["findings"] if f.get("topic")}
        ids = [t for t in reader.topic_ids if t in facet_table() or reader.props.get(t, {}).get("name") in named]
        return [None, *ids]
    return [None, topic_facts(reader).topic_id(reader, asked)]


def scope_names(reader, topic_id) -> frozenset:
    """The zh names of the topics a reading of *topic_id* covers (the topic and every topic it is a case of;
    ``{None}`` for the general reading)."""
    return topic_facts(reader).table(topic_id).names


def method_steps(methods: list, table: TopicTable) -> list[dict]:
    """The method rows of the reading in the tables' order: its method findings (*methods*), then the topic's
    method facts that hold unconditionally (no ``when``)."""
    steps = [{"finding": f["id"], "fact": f["rule"]["fact"], "rule": f["rule"]["name"], "what": f["meaning"],
              "src": f["src"]} for f in methods]
    if table.topic is not None:
        seen = {s["fact"] for s in steps}
        for fact, rule, what, src in table.method_steps:  # made once per reader (prepared.method_step)
            if fact not in seen:
                steps.append({"finding": None, "fact": fact, "rule": rule, "what": dict(what), "src": list(src)})
    return [{"step": n, **s} for n, s in enumerate(steps, start=1)]


def use_gods(found: TopicFindings, info: dict, table: TopicTable, reading: dict, chart: dict) -> list:
    """The 用神 of a topic on this chart, read first first: the READ_FROM and significator rows that hold (as
    findings, or as facts without a condition), then use_gods.csv for a system the topic names none in; *info*:
    fact id → FactInfo."""
    bindings = reading.get("bindings") or {}
    gods, seen = [], set()
    for f, i in found.gods:
        god = bind_god(i.god, f["id"], bindings, chart)
        if god is not None:
            gods.append(god)
        seen.add(i.god.fact)
    for fact in table.read_from:
        if fact.id not in seen:
            god = bind_god(info[fact.id].god, None, bindings, chart)
            if god is not None:
                gods.append(god)
    systems = found.systems or set(reading.get("systems") or ())
    named = {g.system for g in gods}
    gods += general_rows(None, systems - named, bindings)
    return sorted(gods, key=_read_first)


def _read_first(god) -> tuple:
    """A 用神's place in the list: the topic's own first, by rank, at one rank a place its text says to read first
    (先看: 004:7 科試先須論值符, 004:75 出行直使最為重) before its significators; then the general 用神 of a system
    the topic names none in (use_gods.csv: the Liu Ren 初傳 of a Qimen topic after the topic's 日干 and 時干)."""
    return god.fact is None, god.rank, god.role != "先看"


def set_aside(found: TopicFindings, info: dict, gods: list) -> dict[str, dict]:
    """finding id → the finding that sets it aside: a rescue / reversal of its row, or the 專看 初傳 method
    that drops the middle and last transmissions (002:151), save a line that reads the transmissions itself."""
    out = {}
    if found.modifiers:  # the findings of table rows, with their FactInfo, only when a rescue or reversal holds
        rows = [(f, info[fact]) for f in found.all if (fact := f["rule"]["fact"]) in info]
        out = overridden_by(rows, found.modifiers, info)
    for god in gods:
        if god.role == "專看" and god.slot == "初傳" and god.finding:
            by = found.by_id[god.finding]
            for f in found.all:
                path = f.get("path") or ()
                if f["system"] == god.system and path and path[0].get("slot") in TRANSMISSIONS_DROPPED \
                        and not reads_the_transmissions(f):
                    out.setdefault(f["id"], by)
    return out


def reads_the_transmissions(f: dict) -> bool:
    """Whether a finding held in the scope 傳 (every scope instance its id names is a transmission): a line that
    reads the three transmissions itself (002:183 發用日辰俱入傳, 002:167 傳空加日), which 中末總棄 does not set
    aside."""
    _, _, where = f["id"].partition("@")
    return bool(where) and set(where.split("/")) <= {"初傳", *TRANSMISSIONS_DROPPED}


def ranked(found: TopicFindings, answering: list) -> list:
    """The findings whose rank is read: those that answer a facet (*answering*) and those that carry 吉 or 凶
    (a reason when read at a 用神, :func:`reasons_of`)."""
    answers = {a.finding["id"] for a in answering}
    return [a.finding for a in answering] + [f for f in found.qualifying if f["id"] not in answers]


def aims_by_finding(findings: list, gods: list) -> dict:
    """finding id → what the 用神 it is read at is read for (:func:`aims_of`); empty when no 用神 is read for
    anything."""
    if not any(g.aim for g in gods):
        return {}
    return {f["id"]: aims_of(f, gods) for f in findings}


def overridden_json(out: dict, by_id: dict) -> list[dict]:
    """The set-aside findings with both sources (*by_id*: the findings by id)."""
    return [{"finding": fid, "by": by["id"], "src": by_id[fid]["src"], "by_src": by["src"]} for fid, by in out.items()]


def verdict_names(verdict: str) -> dict:
    """The verdict in zh, ko and en (answer_values.csv)."""
    ko, en = value_names()[verdict]
    return {"zh": verdict, "ko": ko, "en": en}


class JudgmentOptionError(LeishenError):
    """A judgment option that is not known, or a value it does not take."""

    field = "options"


def checked_options(options: dict | None) -> dict:
    """The judgment's options over the defaults; JudgmentOptionError naming an unknown option or value."""
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise JudgmentOptionError(f"options: unknown judgment option {name!r} (one of {', '.join(OPTIONS)})")
        if value not in OPTIONS[name]:
            raise JudgmentOptionError(f"options.{name}: {value!r} is not one of {', '.join(OPTIONS[name])}")
    return {**DEFAULT_OPTIONS, **(options or {})}


ASKS_WHAT = {"zh": "此占問何物，不問吉凶", "ko": "이 점은 무엇인지를 묻고 길흉을 묻지 않는다",
             "en": "the texts ask what, not whether, for this topic"}  # convention J3, in the reader's language
NOTHING_ANSWERS = {"zh": "此局無斷此事之文", "ko": "이 국에는 이 일을 판단하는 글이 없다",
                   "en": "no finding answers the verdict facet on this chart"}  # convention J4


def verdict_of(facets: list[dict], conflict: str = "undecided") -> tuple[str, dict]:
    """(verdict, what gave it): the answer of the verdict facet — decided: its polarity; a conflict: 未定 (or,
    under ``verdict_conflict=mixed``, 混: a school that reads 吉 and 凶 holding together as mixed); no finding
    answers it: 平. A topic with no verdict facet asks what, not whether: 平 (convention J3)."""
    facet = next((f for f in facets if f["verdict"]), None)
    if facet is None:
        return "平", {"convention": "J3", **ASKS_WHAT}
    by = {"facet": facet["facet"], "src": facet["src"] or facet["heading_src"], "heading_src": facet["heading_src"]}
    if facet["status"] == "未定":
        if conflict == "mixed":
            return "混", {**by, "option": "verdict_conflict=mixed"}
        return "未定", by
    if facet["status"] == "open":
        return "平", {**by, "convention": "J4", **NOTHING_ANSWERS}
    values = {a["value"] for a in facet["answer"]}
    if len(values) > 1:  # answered per place: the places differ
        return "混", {**by, "convention": "J6", "en": "the places (regions) differ: each answer names its place"}
    return facet["answer"][0]["value"], by


def reasons_of(gods: list, facets: list[dict], found: TopicFindings, aside: dict, ranks: dict) -> list[dict]:
    """The ordered reasons: the findings that decide each facet (the verdict facet first), the 用神 rows, then
    the findings read at a 用神 that carry 吉 or 凶 — the general it rides and the 煞 it belongs to and sits on
    (000:3, 000:23, 000:79), then the 類神 findings. Every reason is a finding of the same reading."""
    out: dict = {}
    by_id = found.by_id

    def add(fid, why):
        if fid in by_id and fid not in out and fid not in aside:
            f = by_id[fid]
            out[fid] = {"finding": fid, "why": why, "polarity": f["polarity"], "src": f["src"],
                        "meaning": f["meaning"].get("zh"), "avoid": avoids(f)}

    for facet in sorted(facets, key=lambda f: not f["verdict"]):
        for fid in facet["findings"]:
            add(fid, {"en": f"answers {facet['facet']} ({facet['names']['en']})", "zh": f"答 {facet['facet']}",
                      "ko": f"{facet['names']['ko']}에 답한다"})
    for g in gods:
        if g.finding:
            add(g.finding, {"en": f"用神: read {g.slot} ({g.role})", "zh": f"用神 {g.slot}（{g.role}）",
                            "ko": f"용신: {g.slot}（{g.role}）"})
    for f in found.qualifying:  # (holding: a row that needs judgment is the asker's question, never a reason)
        if ranks[f["id"]][0] < OTHER_PLACES and ranks[f["id"]][1] == 0:
            cited = " (000:3, 000:23)" if f["system"] == "liuren" and of_000(f) else ""  # 000's rule, its own lines
            add(f["id"], {"en": f"read at the 用神: qualifies it{cited}", "zh": "臨用神", "ko": "용신에 임하여 그것을 규정한다"})
    for f in found.leixiang:
        add(f["id"], {"en": "類神: what the 用神 stands for in the topic's domains", "zh": "類神", "ko": "유신"})
    if not out:  # a topic with no facet table: its findings, in the reading's order (convention J8)
        for f in found.all:
            add(f["id"], {"en": "a finding of the topic (no facet of the topic orders it)", "zh": "本占所見", "ko": "이 점에서 보이는 것"})
    return list(out.values())


def avoids(finding: dict) -> bool:
    """Whether a finding's row is an AVOIDS row (忌, 怕: what to avoid, never a prescription): its path's last
    hop, the row's own edge, is AVOIDS."""
    path = finding.get("path") or ()
    return len(path) > 1 and path[-2].get("rel") == "AVOIDS"


def not_asked(facets: list[dict]) -> list[dict]:
    """The facets with their ``asked_if`` applied: a question the text asks only where another facet has a given
    answer (002:175: the taste of food only) is ``not asked`` elsewhere, its findings kept as findings only."""
    by_name = {f["facet"]: f for f in facets}
    for f in facets:
        if f["asked_if"]:
            other, value = f["asked_if"]
            held = by_name.get(other)
            if held is None or held["status"] != "decided" or not any(a["value"] == value for a in held["answer"]):
                f.update(status="not asked", answer=[], conflict=None, findings=[], src=[])
    return facets


def also_of(found: TopicFindings, reasons: list, aside: dict, reading: dict, places: dict) -> list[dict]:
    """What else holds for the topic and decides nothing: the topic's weighed findings that are no reason (each
    meaning once), then the general lines named beside every topic (:func:`general_line`: the day's centre star,
    003:3–11, and the Liu Ren 格局, 000:3–15), which no 004 topic's procedure reads, the Liu Ren lines of 000
    read at the judgment's Liu Ren 用神 (:func:`liuren_at_god`; *places*: usegod.god_places) and the 神煞 of
    000:23–87 that hold (:func:`shensha_line`)."""
    shown = {r["finding"] for r in reasons} | set(aside)
    out, meanings = [], {line_key(f) for r in reasons
                         if (f := found.by_id.get(r["finding"])) is not None}  # a reason's line is not repeated
    general = [f for f in reading["findings"] if f.get("topic") is None
               and (general_line(f) or liuren_at_god(f, places) or shensha_line(f))]
    for f in [*found.weigh, *general]:  # the general lines named beside every topic: the day star, the 格局
        key = line_key(f)  # (the same meaning of another line is named)
        if f["id"] not in shown and key not in meanings and f.get("certainty") == "holds":
            meanings.add(key)
            out.append({"finding": f["id"], "meaning": dict(f["meaning"]), "polarity": f["polarity"],
                        "src": list(f["src"]), "avoid": avoids(f),
                        "general": f.get("topic") is None})
    return out


def liuren_at_god(f: dict, places: dict) -> bool:
    """A general Liu Ren line of 000 that carries 吉 or 凶 and is read at one of the judgment's Liu Ren 用神 (000:23:
    a 神煞 counts where it is seen, 干上 支上 and the transmissions; 000:83 白虎 以災喪論 on the 支上)."""
    return (f["system"] == "liuren" and f["polarity"] in QUALIFYING and of_000(f)
            and place_rank(f, places, OTHER_PLACES) < OTHER_PLACES)


def judge_topic(topic_id, reading: dict, chart: dict, reader, options: dict, read_on=None) -> dict:
    """The judgment of one topic (None: the general reading) from a reading's findings."""
    index = topic_facts(reader)
    table = index.table(topic_id)
    found = topic_findings(reading, table.names, index.info)
    by_id = found.by_id
    gods = use_gods(found, index.info, table, reading, chart)
    aside = set_aside(found, index.info, gods)
    live = [f for f in found.weigh if f["id"] not in aside] if aside else found.weigh
    answering = answers_of(table, live, index.info, reader.props)
    places = god_places(gods)
    ranks = ranks_of(ranked(found, answering), places)
    cands, asks = facet_candidates(table, answering, ranks, aims_by_finding([a.finding for a in answering], gods))
    facets = not_asked(exclusive_answers(topic_id, [answer_facet(fc, cs, qs)
                                                    for fc, cs, qs in zip(table.facets, cands, asks)]))
    verdict, verdict_by = verdict_of(facets, options["verdict_conflict"])
    props = reader.props.get(topic_id, {}) if topic_id else {}
    reasons = reasons_of(gods, facets, found, aside, ranks)
    when, undated = when_of(table, chart, reader.props, facets, options["timing_stem"], by_id, index.tombs)
    out = {"topic": props.get("name"), "names": {"zh": props.get("name"), "ko": props.get("ko"),
                                                 "en": props.get("en")} if topic_id else None,
            "verdict": verdict, "verdict_names": verdict_names(verdict), "verdict_by": verdict_by,
            "use_god": [use_god_json(g, reader.props, by_id.get(g.finding)) for g in gods], "facets": facets,
            "reasons": reasons,
            "overridden": overridden_json(aside, by_id),
            "also": also_of(found, reasons, aside, reading, places) if topic_id else [],
            "beside": beside_of(topic_id, table.beside, reading, {r["finding"] for r in reasons}) if topic_id else [],
            "conflicts": [{"facet": f["facet"], "answers": f["conflict"]} for f in facets if f["status"] == "未定"],
            "when": when, "undated": undated,
            "read_on": read_on, "method": method_steps(found.methods, table),
            "options": dict(options),
            "counts": {"findings": len(found.all), "reasons": len(reasons), "facets": len(facets)}}
    return {"summary": summary_of(out, by_id), **out}


def judge_reading(reading: dict, chart: dict, reader, *, request=None, options: dict | None = None) -> list[dict]:
    """The judgments of a reading. A topic the text reads on another moment's chart (年景: the 立春 chart,
    003:75) is judged on a reading of that chart, whose findings are added to the reading (each marked
    ``read_on``), unless the school option ``nianjing_chart`` is ``asked``."""
    options = checked_options(options)
    out = []
    for topic_id in topics_judged(reading, reader):
        if topic_id in READ_ON_LICHUN and options["nianjing_chart"] == "lichun":
            other, read_on = lichun_chart(chart, request)
            other_reading = reader.read(other, topic=reader.props[topic_id]["name"])
            names = scope_names(reader, topic_id)
            added = [{**f, "id": f"立春/{f['id']}", "read_on": read_on["moment"]}
                     for f in other_reading["findings"] if f.get("topic") in names]
            reading["findings"] = [f for f in reading["findings"] if f.get("topic") not in names] + added
            read_on = {**read_on, "findings": len(added)}
            out.append(judge_topic(topic_id, {**reading, "bindings": other_reading["bindings"]}, other, reader,
                                   options, read_on))
        else:
            out.append(judge_topic(topic_id, reading, chart, reader, options,
                                   {"moment": chart.get("moment"), "term": None, "src": [], "why": None}))
    return out
