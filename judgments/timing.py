"""應期 — when the answer comes — and the chart a topic is read on.

A TIMES row names what fixes the date: 003:51 the stem of the palace where 天英 (火神) or 天輔 (風伯) falls;
003:55 the 干支 of the palace where 天柱 falls (near the 值符 fast, far slow); 003:63 the stem of 天心's
palace. The date is the first day at or after the moment whose day stem is that stem, counted on the engine's
own day pillar (pure calendar arithmetic: the chart's day pillar and the 60-cycle). A TIMES row dates its event
only where the event is the judgment's answer (timing.csv), rain by the palaces where it was found; a TIMES row
whose place the tables cannot compute (004:31 財庫) is listed with no date and the text's reason; 004:47's return
is dated where the hour's horse enters its tomb (投墓, 000:43).

003:75: the year's outlook (年景) is read on the chart of the 立春 instant of the year, to the minute."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from leishen.engine.calendar import STEMS, day_index, sexagenary_index, sexagenary_name, term_start
from leishen.judgments.tables import _rows, _src
from leishen.judgments.usegod import palace_of

if TYPE_CHECKING:
    from leishen.judgments.prepared import TopicTable

TIMING_STEM = ("earth", "heaven")  # school option timing_stem: the palace's own (earth-plate) stem, or the heaven's
READ_ON_LICHUN = {"Topic:年景": "003:75"}  # topics the text reads on the 立春 chart


def local_moment(chart: dict) -> datetime:
    """The chart's moment on its own clock."""
    return datetime.fromisoformat(chart["moment"]["local"])


def day_with_stem(chart: dict, stem: str, first: int = 0) -> dict:
    """The first day at or after the chart's day (from day *first* on) whose day stem is *stem*: its civil date
    and pillar. The chart's own day pillar is day 0 (after 23:00 under 子初換日 it is the next civil date's)."""
    pillar = chart["pillars"]["day"]
    start = sexagenary_index(pillar)
    date0 = local_moment(chart).date()
    shift = 0 if day_index(date0) == start else 1  # the late 子 hour already counts as tomorrow
    for k in range(first, first + 10):
        if sexagenary_name(start + k)[0] == stem:
            return {"date": (date0 + timedelta(days=shift + k)).isoformat(), "pillar": sexagenary_name(start + k),
                    "days": k}
    raise ValueError(f"not a stem: {stem!r}")  # unreachable: ten days hold every stem


def day_with_branch(chart: dict, branch: str) -> dict:
    """The first day at or after the chart's day whose day branch is *branch* (the chart's own day is day 0)."""
    start = sexagenary_index(chart["pillars"]["day"])
    for k in range(12):
        if sexagenary_name(start + k)[1] == branch:
            return day_with_stem(chart, sexagenary_name(start + k)[0], k)  # (that very day: its stem's first from k)
    raise ValueError(f"not a branch: {branch!r}")  # unreachable: twelve days hold every branch


def tombs(facts: dict, props: dict) -> dict[str, tuple[str, tuple]]:
    """Branch name → (the branch where its phase enters the tomb, the 墓 row's citations): the yang stem of the
    branch's phase (HAS_ELEMENT, HAS_POLARITY) has its 墓 there (000:43: 甲 未, 丙 戌, 庚 丑, 壬 辰, 戊 戌); the
    regular rows only (a variant reading of the text dates nothing)."""
    name = lambda node: props.get(node, {}).get("name")  # noqa: E731
    phase, yang, tomb = {}, set(), {}
    for f in facts.values():
        if f.variant:
            continue
        if f.relation == "HAS_ELEMENT":
            phase.setdefault(f.subject, f.object)
        elif f.relation == "HAS_POLARITY" and f.subject.startswith("Stem:") and name(f.object) == "陽":
            yang.add(f.subject)
        elif f.relation == "LIFE_STAGE" and name(f.qualifier_dict().get("stage")) == "墓":
            tomb[f.subject] = (name(f.object), tuple(f"{c.doc}:{c.line}" for c in f.src))
    stem_of = {phase[s]: s for s in yang if s in phase}
    return {name(b): tomb[stem_of[p]] for b, p in phase.items() if b.startswith("Branch:") and stem_of.get(p) in tomb}


def _stars(fact, props: dict) -> list[str]:
    """The stars a TIMES row dates by: its subject and its ``alt`` qualifiers."""
    ids = [fact.subject] + [v for k, v in fact.qualifiers if k.startswith("alt") and isinstance(v, str)]
    return [props[i]["name"] for i in ids if props.get(i, {}).get("label") == "QimenStar"]


@lru_cache(maxsize=1)
def dated_events() -> dict[tuple, tuple]:
    """(topic id, event node) → (facet, value, src): an 應期 row dates its event only where that facet of the
    judgment has that answer (ontology/judgments/timing.csv: the day of rain dates a rain that was found)."""
    out = {}
    for number, row in _rows("timing.csv"):
        out[(row["topic"], row["event"])] = (row["facet"], row["value"], _src("timing.csv", number, row["src"]))
    return out


def event_found(topic: str, event: str, facets: list[dict]) -> tuple | None:
    """None when the event an 應期 row dates is the judgment's answer (or timing.csv names no facet for it);
    else (facet, value, src): what would have to be found, and is not."""
    gate = dated_events().get((topic, event))
    if gate is None:
        return None
    facet = next((f for f in facets if f["facet"] == gate[0]), None)
    if facet is not None and facet["status"] == "decided" and any(a["value"] == gate[1] for a in facet["answer"]):
        return None
    return gate


def dated_event(fact, props: dict) -> dict:
    """What an 應期 row dates (its object node), in zh / ko / en, with the row's fact and citations."""
    event = props.get(fact.object, {})
    return {"for": {"id": fact.object, "zh": event.get("name"), "ko": event.get("ko"), "en": event.get("en")},
            "fact": fact.id, "src": [f"{c.doc}:{c.line}" for c in fact.src]}


def star_dated(fact, props: dict) -> bool:
    """Whether a TIMES row dates by the palace of a star (003:51, 003:55, 003:63), so that the palaces where its
    event was found can date it."""
    return bool(_stars(fact, props))


#: the first day a date may fall on, by the 遲速 answer: a rain judged late (雨遲, 003:55) does not fall on the
#: asking day itself, so its stem's day is the next one after it (a project reading: the text dates by the stem
#: and times by nearness, and a late rain dated today would contradict itself)
FIRST_DAY = {"遲": 1}


def times_entry(fact, chart: dict, props: dict, stem_plate: str = "earth", palaces=(), first: int = 0) -> list[dict]:
    """The dated 應期 of one TIMES row: for each palace the event was found at (*palaces*: the rain that was
    found is dated by the palace of the star that brings it) or else each star the row names, that palace's
    stem and the first day with that day stem from day *first* on; with no palace, one entry without a date and
    the reason."""
    base = {**dated_event(fact, props), "rule": fact.qualifier_dict().get("by") or fact.note}
    out = []
    places = [(None, p) for p in palaces] or [(s, palace_of(chart, "QimenStar", s)) for s in _stars(fact, props)]
    for star, palace in places:
        if palace is None:
            continue
        star = star or chart["qimen"]["palaces"][palace.removeprefix("Palace:p")].get("star")
        stem = chart["qimen"]["palaces"][palace.removeprefix("Palace:p")].get(stem_plate)
        if stem in STEMS:
            out.append({**base, "star": star, "palace": palace, "stem": stem, "branch": None,
                        "stem_plate": stem_plate, **day_with_stem(chart, stem, first)})
    if not out:
        out.append({**base, "date": None, "pillar": None, "stem": None, "branch": None,
                    "judgment": fact.judgment or "the text names no place the tables can compute"})
    return out


def tomb_entry(fact, chart: dict, props: dict, tombs_of: dict) -> dict:
    """The 應期 of a row dated where the hour's horse enters its tomb (004:47 投墓支干定返期): the first day whose
    branch is the 墓 of the horse's phase (000:43), with the 墓 row's citation beside the line's."""
    horse = chart["qimen"].get("horse")
    tomb, src = tombs_of.get(horse, (None, ()))
    base = {**dated_event(fact, props), "rule": "投墓: the horse's phase enters its tomb", "star": None,
            "palace": None, "stem": None, "horse": horse}
    if tomb is None:
        return {**base, "date": None, "pillar": None, "branch": None,
                "judgment": "the text names no place the tables can compute"}
    return {**base, "src": list(dict.fromkeys([*base["src"], *src])), "branch": tomb, "stem_plate": None,
            **day_with_branch(chart, tomb)}


def found_palaces(facets: list[dict], gate_facet: str, by_id: dict) -> list[str]:
    """The palaces (in order, once each) of the findings that decide a facet's answer: where the event an 應期
    row dates was found (the rain by the palace of the star that brings it, 003:55)."""
    facet = next((f for f in facets if f["facet"] == gate_facet), None)
    out: dict = {}
    for fid in (facet or {}).get("findings") or ():
        palace = (by_id.get(fid, {}).get("bindings") or {}).get("宮")
        if isinstance(palace, str) and palace.startswith("Palace:p"):
            out[palace] = None
    return list(out)


def not_found(fact, props: dict, gate: tuple) -> dict:
    """An 應期 row left undated because the event it dates was not found: the event, the facet and answer it
    would need, and why, in zh / ko / en."""
    out = dated_event(fact, props)
    name = out["for"]
    return {**out, "needs": {"facet": gate[0], "value": gate[1]},
            "why": {"zh": f"{name['zh']}非所斷，不定其期",
                    "ko": f"{name['ko'] or name['zh']}이(가) 판단의 답이 아니어서 날짜를 정하지 않는다",
                    "en": f"not dated: {name['en'] or name['zh']} is not the judgment's answer"}}


def condition_unmet(fact, props: dict) -> dict:
    """An 應期 row whose own condition does not hold on this chart (004:47 dates the return only where the hour's
    horse is tied to the day branch): left undated, and why."""
    return {**dated_event(fact, props),
            "why": {"zh": "其期之條件此局不具", "ko": "날짜를 정하는 조건이 이 국에 없다",
                    "en": "not dated: the condition the line dates by does not hold on this chart"}}


NO_TIMING = {"zh": "本占之文不言應期", "ko": "이 점의 글은 응기를 말하지 않는다",
             "en": "the text gives no way to date this topic"}


def when_of(table: TopicTable, chart: dict, props: dict, facets: list[dict], stem_plate: str,
            by_id: dict, tombs_of: dict | None = None) -> tuple[list[dict], list[dict]]:
    """(the topic's 應期, what is left undated and why). A TIMES row is dated only where the event it dates is
    the judgment's answer (timing.csv): rain by the palaces where the rain was found (where 遲速 is decided, of the
    stars that decide it), with the speed the 遲速 facet gives, a late rain never on the asking day; a row dated by
    a star's palace dates its event wherever the event was found (by the palaces of the findings that found it,
    else of the stars the row names), its own condition only saying which stars bring it — save a row marked
    ``dates=own`` (003:63: the snow of its own two signs); a topic whose text gives no 應期 says so."""
    if table.topic is None:
        return [], []
    if not table.times:
        return [], [{"for": None, "why": dict(NO_TIMING), "src": []}]
    if not chart.get("qimen"):
        return [], []
    speed = next((f["answer"][0]["value"] for f in facets if f["facet"] == "遲速" and f["status"] == "decided"), None)
    dated, undated = [], []
    held = {f["rule"]["fact"] for f in by_id.values()}
    for fact in table.times:
        gate = event_found(table.topic, fact.object, facets)
        if gate is not None:
            undated.append(not_found(fact, props, gate))
            continue
        own = fact.qualifier_dict().get("dates") == "own"  # (003:63: its own two signs' snow only)
        if fact.when and fact.id not in held and (own or not star_dated(fact, props)):
            undated.append(condition_unmet(fact, props))  # 004:47: 時馬繫日支 does not hold on this chart
            continue  # a star-dated row (003:51 火神 風伯, 003:55 天柱等, 003:63) dates its event wherever it was found
        needs = dated_events().get((table.topic, fact.object))
        rain = needs is not None and needs[0] == "雨否"
        palaces = found_palaces(facets, needs[0], by_id) if needs and star_dated(fact, props) else []
        if rain and speed:  # 003:55: the stars near or far from the 值符 are the ones whose palaces date the rain
            palaces = found_palaces(facets, "遲速", by_id) or palaces
        first = FIRST_DAY.get(speed, 0) if rain else 0
        if fact.qualifier_dict().get("date") == "投墓":
            dated.append({**tomb_entry(fact, chart, props, tombs_of or {}), "speed": None})
            continue
        for entry in times_entry(fact, chart, props, stem_plate, palaces, first):
            dated.append({**entry, "speed": speed if rain else None})
    return dated, undated


def lichun_moment(moment: datetime) -> datetime:
    """The 立春 instant that opens the solar year of *moment*, on *moment*'s clock (a moment in the minute of
    交春 but before its instant belongs to the year before)."""
    start = term_start("立春", moment.year)
    if start > moment:
        start = term_start("立春", moment.year - 1)
    return start.astimezone(moment.tzinfo)


def lichun_chart(chart: dict, request):
    """(the chart of the 立春 instant of the chart's year, cast with the same request, its read_on JSON)."""
    from leishen.engine.chart import ChartRequest, build_chart
    request = request or ChartRequest()
    moment = lichun_moment(local_moment(chart))
    if moment.second or moment.microsecond:  # 003:75 交春 to the minute: the first whole minute of the new term
        moment = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
    other = build_chart(moment, request)
    read_on = {"moment": other["moment"], "term": "立春", "src": ["003:75"],
               "why": {"zh": "年景以交春時刻之局讀之", "ko": "입춘 교절 시각의 국으로 한 해를 본다",
                       "en": "the year's outlook is read on the chart of the 立春 instant, to the minute"}}
    return other, read_on
