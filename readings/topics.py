"""The topics a reader's rules are read under: their names in zh, ko and en, the sub-topics (a case of
another topic: 買貨 of 求財) and the scope of a reading (the topic asked and every topic it is a case
of; every topic at once for ``*``)."""

from __future__ import annotations

import re

from leishen.errors import LeishenError

ALL_TOPICS = "*"  # a reading of every topic at once


class TopicError(LeishenError):
    """An unknown topic (the message lists the topics)."""

    field = "topic"


class Topics:
    """What a :class:`~leishen.readings.read.Reader` answers about topics, from its ``props`` (node
    properties), ``topic_ids`` (the topics that have facts) and ``parent_topic`` (SUBTOPIC_OF)."""

    def topics(self) -> list[dict]:
        """The topics that have rules: {"id","zh","ko","en","parent"} (parent: the zh name of the topic a
        sub-topic is a case of, else None)."""
        return [{"id": t, "zh": self.props[t]["name"], "ko": self.props[t]["ko"], "en": self.props[t]["en"],
                 "parent": self.props[self.parent_topic[t]]["name"] if t in self.parent_topic else None}
                for t in self.topic_ids if t in self.props]

    def topic_scope(self, topic_id: str | None) -> frozenset:
        """The topics a reading of *topic_id* covers: the topic, every topic it is a case of (買貨 → 買貨, 求財) and
        the topics read beside them (READS_BESIDE: 家宅 → 宮室, the same question's class symbols in the other art);
        every topic for ALL_TOPICS; none for the general reading."""
        if topic_id == ALL_TOPICS:
            return frozenset(self.topic_ids)
        scope = set()
        while topic_id is not None and topic_id not in scope:
            scope.add(topic_id)
            topic_id = self.parent_topic.get(topic_id)
        return frozenset(scope.union(*(self.beside_topics.get(t, ()) for t in scope)))

    def topic_id(self, topic: str | None) -> str | None:
        """The Topic node id a zh, ko or en topic name (or an id) denotes; TopicError naming the topics."""
        if topic is None or topic == ALL_TOPICS:
            return topic
        if not isinstance(topic, str):
            raise TopicError(f"topic: expected a topic name, found {type(topic).__name__}")
        wanted = topic.strip().lower()
        found = [t for t in self.topics() if wanted in (t["id"].lower(), t["zh"], t["ko"], t["en"].lower(),
                                                        _bare(t["en"]))]
        if len(found) == 1:
            return found[0]["id"]
        named = lambda ts: ", ".join(f"{t['zh']} ({t['en']})" for t in ts)  # noqa: E731
        if found:  # a Korean reading two topics share (買貨 賣貨 are both 매화)
            raise TopicError(f"ambiguous topic {topic!r}: {named(found)}; give it in zh or en")
        raise TopicError(f"unknown topic {topic!r}; topics: {named(self.topics())}")


def _bare(english: str) -> str:
    """An English topic name without its closing parenthesis (``buying goods (in 求財)`` → ``buying goods``)."""
    return re.sub(r"\s*\([^()]*\)$", "", english).lower()


def condition_topic(call) -> str | None:
    """The topic a condition names at its top (``topic(T)``, or ``all(topic(T), …)``), else None."""
    for part in (call, *(call.args if call.pred == "all" else ())):
        if getattr(part, "pred", None) == "topic":
            return part.args[0].id
    return None
