"""The topic a user typed, as the graph names it: zh, ko or en names, common words, 占X (no pydantic: the CLI's
``leishen read`` names its topic without importing the HTTP models of :mod:`leishen.service.requests`)."""

from __future__ import annotations

import re

#: common words users type for a topic (en lower-case, ko), each → the topic's zh name; the topics' own zh, ko
#: and en names are read from the graph (:func:`topic_name`)
TOPIC_WORDS = (
    ("求財", ("wealth", "money", "finance", "profit", "재물", "돈", "재운")),
    ("天時", ("weather", "rain", "forecast", "날씨", "비")),
    ("出行", ("travel", "journey", "trip", "여행")),
    ("疾病", ("illness", "sickness", "disease", "health", "병", "건강")),
    ("射覆", ("hidden object", "guess", "guessing", "shefu")),
    ("家宅", ("house", "home", "household", "집")),
    ("科試", ("exam", "exams", "examination", "시험")),
    ("功名", ("career", "fame", "rank", "office", "출세")),
    ("行人", ("traveller", "traveler", "someone away", "missing person")),
    ("年景", ("harvest", "the year", "year's outlook", "한해")),
    ("田禾", ("crops", "farming")), ("出陣", ("battle", "war")), ("行兵", ("campaign", "military")),
    ("飲食", ("food", "drink")), ("顏色", ("colour", "color", "colours", "colors")),
    ("買貨", ("buying", "buy")), ("賣貨", ("selling", "sell")), ("索債取捕", ("debt", "debts")),
    ("栽植", ("planting",)), ("蝗", ("locust",)), ("蠶", ("silkworm",)), ("數目", ("numbers", "number")),
    ("姓氏", ("surname", "surnames")), ("地理", ("geography",)), ("天文", ("sky",)), ("宮室", ("buildings",)),
    ("器用", ("implements", "tools")), ("臟腑", ("organs",)), ("人物", ("persons", "people", "person")),
    ("穿地", ("digging",)), ("謀為", ("plans", "schemes")), ("用事", ("undertakings",)),
    ("飛潛動植", ("creatures", "animals", "plants")), ("出入", ("going out",)), ("求謀", ("seeking",)),
)


def _bare_en(english: str) -> str:
    """An English topic name without its closing bracket (``buying goods (in 求財)`` → ``buying goods``)."""
    return re.sub(r"\s*\([^()]*\)$", "", english).strip().lower()


def topic_name(topic: str | None, topics: list[dict] | None = None) -> str | None:
    """The zh name of the topic *topic* denotes: its zh, ko or en name (or the en name without its bracket),
    a word of :data:`TOPIC_WORDS`, any of these after 占/점 ("占天時"); None and '*' as themselves. *topics*:
    the topics (``{"zh", "ko", "en"}``), by default the graph's. TopicError (field ``topic``) listing every
    topic when it denotes none, or the topics when it denotes several (a Korean name two share)."""
    from leishen.readings.topics import TopicError
    if topic is None or topic == "*":
        return topic
    if topics is None:
        from leishen.service.book import topics as graph_topics
        topics = graph_topics()
    wanted = " ".join(str(topic).split()).lower()
    for word in (wanted, re.sub(r"^(占|점)\s*", "", wanted)):
        found = [t for t in topics if word in (t["zh"], t["ko"], t["en"].lower(), _bare_en(t["en"]))]
        found = found or [t for t in topics for zh, words in TOPIC_WORDS if t["zh"] == zh and word in words]
        if len(found) > 1:
            raise TopicError(f"topic: {topic!r} is more than one topic: "
                             f"{', '.join(t['zh'] + ' (' + t['en'] + ')' for t in found)}; give it in zh or en")
        if found:
            return found[0]["zh"]
    raise TopicError(f"topic: unknown topic {topic!r}; topics: {' '.join(t['zh'] for t in topics)} "
                     f"(their ko and en names: leishen topics, GET /topics); also wealth, weather, travel, illness …")
