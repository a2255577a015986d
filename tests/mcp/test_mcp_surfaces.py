"""``leishen mcp`` as an assistant reads it (issue #39), through the SDK's own stdio client: ``read``'s text content
is one-line JSON of at most 20 KB for every topic on 10 seeded moments, named in the asked ``lang`` and free of
internal codes; its chart summary carries the Liu Ren plate and the Qimen palaces; ``passage`` takes the ``src``
a reading hands out and gives the corpus's Korean translation beside the text."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from leishen.loaders.corpus import load_corpus, parse_citation
from leishen.service.book import topics as all_topics

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"],
                               env={k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")})
LIMIT = 20_000
INTERNAL = re.compile(r"\bJ\d+\b|\b\d{3}-S\d|inventory (meta )?row|issue #", re.I)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def moments() -> list[str]:
    """Ten moments: the README's, then nine drawn with a fixed seed over 1950–2090."""
    rng = random.Random(39)
    return ["2026-12-01T10:00+09:00"] + [
        f"{rng.randint(1950, 2090)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
        f"{rng.choice((0, 30)):02d}+08:00" for _ in range(9)]


async def reads(calls):
    async with Client(SERVER, read_timeout_seconds=120) as client:
        return [await client.call_tool(name, args) for name, args in calls]


@pytest.fixture(scope="module")
def every_topic():
    """read of every topic at every moment, the language turning zh → ko → en with the moment."""
    topics = [t["zh"] for t in all_topics()]
    calls = [("read", {"moment": m, "topic": t, "lang": ("zh", "ko", "en")[i % 3]})
             for i, m in enumerate(moments()) for t in topics]
    return calls, asyncio.run(reads(calls))


def test_read_text_is_compact_and_at_most_20_kb_for_every_topic(every_topic):
    calls, results = every_topic
    assert len(results) >= 10 * 30
    sizes = []
    for (_, args), result in zip(calls, results):
        assert not result.is_error, (args, result.content[0].text)
        text = result.content[0].text
        sizes.append((len(text.encode("utf-8")), args["topic"], args["moment"]))
        assert "\n" not in text and ": " not in text[:200]  # one line, no indentation
        assert json.loads(text) == result.structured_content
        assert not INTERNAL.findall(text), (args, INTERNAL.findall(text))
        assert result.structured_content["lang"] == args["lang"]
    worst = max(sizes)
    assert worst[0] <= LIMIT, worst


def test_read_in_korean_names_in_korean_and_the_chart_carries_plate_and_palaces():
    shefu, = asyncio.run(reads([("read", {"moment": "2026-12-01T10:00+09:00", "topic": "射覆", "lang": "ko"})]))
    data = shefu.structured_content
    judged = next(j for j in data["judgments"] if j["topic"] == "射覆")
    assert HANGUL.search(judged["name"]) and HANGUL.search(judged["verdict_ko"])
    assert all(HANGUL.search(f["ko"]) for f in judged["facets"])
    assert any(HANGUL.search(i["meaning"] or "") for g in judged["reasons"] for i in g["items"])
    assert not any("en" in f for f in judged["facets"])  # the asked language only
    chart = data["chart"]
    assert set(chart["liuren"]["plate"]) == set("子丑寅卯辰巳午未申酉戌亥") == set(chart["liuren"]["generals"])
    assert set(chart["qimen"]["palaces"]) == {str(n) for n in range(1, 10)}
    assert all(p.get("star") and p.get("gate") for n, p in chart["qimen"]["palaces"].items() if n != "5")


def test_passage_takes_the_src_a_reading_hands_out(corpus_dir):
    by_src, by_parts, bad, clash, none = asyncio.run(reads([
        ("passage", {"src": "003:51"}), ("passage", {"doc": "003", "line": 51}), ("passage", {"src": "3-51"}),
        ("passage", {"src": "003:51", "line": 52}), ("passage", {})]))
    assert not by_src.is_error and by_src.structured_content == by_parts.structured_content
    text = load_corpus(corpus_dir).passage(parse_citation("003:51"))
    assert by_src.structured_content["text"] == text and by_src.structured_content["src"] == "003:51"
    assert HANGUL.search(by_src.structured_content["ko"])
    lines = next(corpus_dir.glob("003_*.txt")).read_text(encoding="utf-8").splitlines()
    assert by_src.structured_content["ko"] == next(line for line in lines[51:] if line.strip()).strip()
    for result, field in ((bad, "src"), (clash, "src"), (none, "doc")):
        assert result.is_error and f": {field}: " in result.content[0].text, result.content[0].text


def test_read_takes_a_topic_by_a_common_word_and_lists_every_topic_for_an_unknown_one():
    wealth, weather, unknown = asyncio.run(reads([
        ("read", {"moment": "2026-12-01T10:00+09:00", "topic": "wealth"}),
        ("read", {"moment": "2026-12-01T10:00+09:00", "topic": "날씨", "lang": "ko"}),
        ("read", {"moment": "2026-12-01T10:00+09:00", "topic": "nope"})]))
    assert wealth.structured_content["topic"] == "求財" and weather.structured_content["topic"] == "天時"
    text = unknown.content[0].text
    assert unknown.is_error and "topic" in text and all(t["zh"] in text for t in all_topics())
