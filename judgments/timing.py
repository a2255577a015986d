"""應期 — when the answer comes — and the chart a topic is read on.

A TIMES row names what fixes the date: 003:51 the stem of the palace where 天英 (火神) or 天輔 (風伯) falls;
003:55 the 干支 of the palace where 天柱 falls (near the 值符 fast, far slow); 003:63 the stem of 天心's
palace. The date is the first day at or after the moment whose day stem is that stem, counted on the engine's
own day pillar (pure calendar arithmetic: the chart's day pillar and the 60-cycle). A TIMES row whose place the
tables cannot compute (004:47 投墓支干, 004:31 財庫) is listed with no date and the text's reason.

003:75: the year's outlook (年景) is read on the chart of the 立春 instant of the year, to the minute."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache

from leishen.engine.calendar import STEMS, day_index, sexagenary_index, sexagenary_name, term_start
from leishen.judgments.tables import _rows, _src
from leishen.judgments.usegod import palace_of

TIMING_STEM = ("earth", "heaven")  # school option timing_stem: the palace's own (earth-plate) stem, or the heaven's
READ_ON_LICHUN = {"Topic:年景": "003:75"}  # topics the text reads on the 立春 chart


def local_moment(chart: dict) -> datetime:
    """The chart's moment on its own clock."""
    return datetime.fromisoformat(chart["moment"]["local"])


def day_with_stem(chart: dict, stem: str) -> dict:
    """The first day at or after the chart's day whose day stem is *stem*: its civil date and pillar. The chart's
    own day pillar is day 0 (after 23:00 under 子初換日 it is the next civil date's)."""
    pillar = chart["pillars"]["day"]
    start = sexagenary_index(pillar)
    date0 = local_moment(chart).date()
    shift = 0 if day_index(date0) == start else 1  # the late 子 hour already counts as tomorrow
    for k in range(10):
        if sexagenary_name(start + k)[0] == stem:
            return {"date": (date0 + timedelta(days=shift + k)).isoformat(), "pillar": sexagenary_name(start + k),
                    "days": k}
    raise ValueError(f"not a stem: {stem!r}")  # unreachable: ten days hold every stem


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


def star_dated(fact, props: dict) -> bool:
    """Whether a TIMES row dates by the palace of a star (003:51, 003:55, 003:63), so that the palaces where its
    event was found can date it."""
    return bool(_stars(fact, props))


def times_entry(fact, chart: dict, props: dict, stem_plate: str = "earth", palaces=()) -> list[dict]:
    """The dated 應期 of one TIMES row: for each palace the event was found at (*palaces*: the rain that was
    found is dated by the palace of the star that brings it) or else each star the row names, that palace's
    stem and the first day with that day stem; with no palace, one entry without a date and the reason."""
    src = [f"{c.doc}:{c.line}" for c in fact.src]
    answer = props.get(fact.object, {})
    base = {"for": {"id": fact.object, "zh": answer.get("name"), "ko": answer.get("ko"), "en": answer.get("en")},
            "fact": fact.id, "src": src, "rule": fact.qualifier_dict().get("by") or fact.note}
    out = []
    places = [(None, p) for p in palaces] or [(s, palace_of(chart, "QimenStar", s)) for s in _stars(fact, props)]
    for star, palace in places:
        if palace is None:
            continue
        star = star or chart["qimen"]["palaces"][palace.removeprefix("Palace:p")].get("star")
        stem = chart["qimen"]["palaces"][palace.removeprefix("Palace:p")].get(stem_plate)
        if stem in STEMS:
            out.append({**base, "star": star, "palace": palace, "stem": stem, "branch": None,
                        "stem_plate": stem_plate, **day_with_stem(chart, stem)})
    if not out:
        out.append({**base, "date": None, "pillar": None, "stem": None, "branch": None,
                    "judgment": fact.judgment or "the text names no place the tables can compute"})
    return out


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
