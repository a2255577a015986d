"""Readings: patterns positive and negative, the walk of every finding checked hop by hop on 1,000
random readings, the CLI (read, find) and the unknown-topic answer."""

from __future__ import annotations

import copy
import json
import random
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from lunar_python.util import LunarUtil

import leishen
from leishen.cli.main import main
from leishen.engine.calendar import BRANCHES, STEMS
from leishen.engine.liuren.tables import STEM_LODGING
from leishen.service.book import reader
from leishen.readings.bindings import HOSTS, PALACE_NAMES, QIMEN_CELL

ZONES = [timezone(timedelta(hours=h)) for h in (8, 9, 0, -5, 5.5, 3, -8, 10)]


def _moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=timezone.utc)
    return [(start + timedelta(minutes=rng.randrange(200 * 365 * 24 * 60))).astimezone(rng.choice(ZONES))
            for _ in range(n)]


@pytest.fixture(scope="module")
def graph():
    return leishen.graph()


def _chart_hop_holds(r, chart: dict, a: str, rel: str, b: str) -> bool:
    """Whether a chart hop a -rel-> b is what the chart says."""
    lr, qm, name = chart.get("liuren") or {}, chart.get("qimen") or {}, lambda n: r.props[n]["name"]
    general = lambda g: r.lex.id("General", g)  # noqa: E731
    if rel == "PLATE_OVER":
        return lr["plate"][name(a)] == name(b)
    if rel == "UNDER":
        return lr["plate"][name(b)] == name(a)
    if rel == "RIDDEN_BY":
        return general(lr["generals"][name(a)]) == b
    if rel == "LODGES":
        return BRANCHES[STEM_LODGING[STEMS.index(name(a))]] == name(b)
    if rel in HOSTS.values():
        local = next(k for k, v in HOSTS.items() if v == rel)
        field, label = QIMEN_CELL[local]
        number = next(n for n, p in PALACE_NAMES.items() if p == name(a))
        return r.lex.id(label, qm["palaces"][str(number)].get(field)) == b
    if rel == "STANDS_IN":
        number = next(n for n, p in PALACE_NAMES.items() if p == name(b))
        cell = qm["palaces"][str(number)]
        if name(a) == "甲":  # 六甲遁於六儀: a 甲 day or hour stem stands where its 旬's 儀 stands
            from leishen.engine.calendar import sexagenary_index
            from leishen.engine.qimen.plate import xun_of_hour
            yis = {xun_of_hour(sexagenary_index(p))[1] for p in (qm.get("day_pillar"), qm.get("hour_pillar"))
                   if p and p[0] == "甲"}
            return bool(yis & {cell.get("heaven"), cell.get("heaven_hosted")})
        return name(a) in (cell.get("heaven"), cell.get("heaven_hosted"))
    if rel == "FLYING_STAR":
        number = next(n for n, p in PALACE_NAMES.items() if p == name(a))
        return any(plate[str(number)] == name(b) for plate in chart["ninestar"]["plates"].values())
    if rel == "PILLAR":  # a stem paired with its branch in one of the chart's pillars
        return name(a) + name(b) in _pillars(chart)
    if rel == "NAYIN":  # a pillar's branch → the phase of that pillar's 納音 (lunar_python's table)
        return any(p[1] == name(a) and LunarUtil.NAYIN[p][-1] == name(b) for p in _pillars(chart))
    if rel == "HIDES_AS":  # a pillar's stem 甲 → the 儀 of the pillar's 旬 (六甲遁於六儀)
        from leishen.engine.calendar import sexagenary_index
        from leishen.engine.qimen.plate import xun_of_hour
        return name(a) == "甲" and any(p[0] == "甲" and xun_of_hour(sexagenary_index(p))[1] == name(b)
                                       for p in _pillars(chart))
    if rel == "IS_SLOT":
        return r.props[b]["name"] in chart_slots_of(r, chart, a)
    return rel == "MEETS"  # the chart meets the rule's condition at that node (the condition was evaluated)


def _pillars(chart) -> set:
    qm = chart.get("qimen") or {}
    return {*(chart.get("pillars") or {}).values(), qm.get("day_pillar"), qm.get("hour_pillar")} - {None}


def chart_slots_of(r, chart, node) -> set:
    from leishen.readings.bindings import chart_bindings
    b = chart_bindings(chart, r.lex, r.seasons)
    return {k for k, v in b.slots.items() if v.value == node}


def _check_walk(r, graph, chart, walk) -> int:
    assert walk and "node" in walk[0] or "value" in walk[0]
    checked = 0
    for i in range(1, len(walk) - 1, 2):
        hop, a, b = walk[i], walk[i - 1].get("node", {}).get("id"), walk[i + 1]["node"]["id"]
        if hop["chart"]:
            assert _chart_hop_holds(r, chart, a, hop["rel"], b), (a, hop, b)
        else:
            u, v = (a, b) if hop["forward"] else (b, a)
            data = graph.get_edge_data(u, v, hop["key"])
            assert data is not None and data["type"] == hop["rel"], (a, hop, b)
            assert hop["src"] and hop["src"] == list(data.get("src") or graph.nodes[u].get("src") or ())
        checked += 1
    return checked


def test_every_hop_of_1000_random_readings_is_real(graph):
    r = reader()
    topics = [None] + [t["id"] for t in r.topics()]
    rng = random.Random(7)
    findings = hops = 0
    for moment in _moments(1000, seed=11):
        chart = leishen.chart(moment)
        reading = r.read(chart, topic=rng.choice(topics))
        for f in reading["findings"]:
            assert f["path"] and f["src"], f["id"]
            # a path starts at a chart slot, unless no slot of the chart decided it (a rule of the
            # procedure that holds for every chart of its topic): then it is the rule's own edge alone
            assert f["path"][0].get("slot") or (len(f["path"]) == 3 and not f["evidence"]), f["id"]
            for walk in [f["path"], *f["evidence"]]:
                hops += _check_walk(r, graph, chart, walk)
            findings += 1
    assert findings > 10_000 and hops > findings


def _typed(transmissions: list[str]) -> dict:
    chart = copy.deepcopy(leishen.chart("2026-12-01T10:00+09:00"))
    chart["liuren"]["transmissions"] = transmissions
    return chart


def _patterns(reading: dict) -> set[str]:
    return {h["node"]["name"] for f in reading["findings"] for h in f["path"]
            if h.get("node", {}).get("label") == "Pattern"}


def test_zhuolun_holds_on_mao_xu_si_and_its_path_is_cited():
    r = reader()
    reading = r.read(_typed(["卯", "戌", "巳"]))
    found = [f for f in reading["findings"] if f["meaning"] and f["meaning"]["zh"] == "受印乘軒"]
    assert len(found) == 1
    f = found[0]
    names = [h.get("node", {}).get("name") or h["rel"] for h in f["path"]]
    assert names == ["卯", "REQUIRES", "斫輪", "SIGNIFIES", "受印乘軒"] and f["path"][0]["slot"] == "初傳"
    assert f["src"] == ["000:3"] and f["polarity"] == "吉" and f["certainty"] == "holds"
    assert "斫輪" not in _patterns(r.read(_typed(["卯", "戌", "午"])))


def test_shizhong_cannot_fire_on_an_ordinary_course():
    """始終 needs 初傳 = 旬首 and 末傳 = 旬尾 (000:15): of the 720 courses only the 庚寅 伏吟 gives it (申 寅 巳
    in the 甲申 旬: head 申, tail 巳), so it holds there and on no ordinary course."""
    r = reader()
    chart = leishen.chart("2025-01-21T00:30:00+08:00")
    assert chart["liuren"]["day"] == "庚寅" and chart["liuren"]["transmissions"] == ["申", "寅", "巳"]
    assert "始終" in _patterns(r.read(chart))
    for moment in _moments(300, seed=5):
        lr = (chart := leishen.chart(moment))["liuren"]
        special = lr["day"] == "庚寅" and lr["transmissions"] == ["申", "寅", "巳"]
        assert ("始終" in _patterns(r.read(chart))) is special


def test_every_topic_at_once_fires_the_topic_rules_of_each_topic():
    """topic(T) holds in a reading of every topic (``*``) as in a reading of T, and never in the general
    reading; 002 method.csv#6 (射覆, no topic qualifier) is a 射覆 rule by its condition."""
    r = reader()
    chart = leishen.chart("2026-12-01T10:00+09:00")
    every, general = r.read(chart, topic="*"), r.read(chart)
    for fact, topic in (("facts/004/chuxing.csv#3", "出行"), ("facts/002/method.csv#6", "射覆")):
        ids = [f for f in every["findings"] if f["rule"]["fact"] == fact]
        assert [f["topic"] for f in ids] == [topic]
        assert [f["id"] for f in r.read(chart, topic=topic)["findings"] if f["rule"]["fact"] == fact] == [ids[0]["id"]]
        assert not [f for f in general["findings"] if f["rule"]["fact"] == fact]


def test_unknown_topic_exits_2_listing_the_topics():
    result = CliRunner().invoke(main, ["read", "2026-12-01T10:00+09:00", "--topic", "astrology"])
    assert result.exit_code == 2
    assert "unknown topic 'astrology'; topics:" in result.output and "射覆" in result.output


def test_topics_by_zh_ko_or_en():
    r = reader()
    assert r.topic_id("射覆") == r.topic_id("사부") == r.topic_id("Topic:射覆")


def test_read_json_and_text():
    runner = CliRunner()
    out = json.loads(runner.invoke(main, ["read", "2026-12-01T10:00+09:00", "--json"]).output)
    assert set(out) >= {"findings", "tally", "needs_judgment", "trail", "bindings", "counts"}
    assert out["trail"]["liuren"]["method"] == "賊剋" and out["trail"]["qimen"]["ju"] == 5
    assert [j["topic"] for j in out["judgments"]] == [None]  # the general reading's judgment
    text = runner.invoke(main, ["read", "2026-12-01T10:00+09:00", "--lang", "en"]).output
    assert "tally:" in text and "【Da Liu Ren】" in text and "== (general reading) ==" in text
    every = runner.invoke(main, ["read", "2026-12-01T10:00+09:00", "--lang", "en", "--all"]).output
    assert "tally:" in every and "【Da Liu Ren · general · kin】" in every


def test_read_a_typed_chart(tmp_path):
    """A typed chart is read as typed (without its moment: 三傳 that contradict a moment are refused)."""
    path = tmp_path / "chart.json"
    typed = _typed(["卯", "戌", "巳"])
    del typed["moment"]
    path.write_text(json.dumps(typed, ensure_ascii=False), encoding="utf-8")
    out = json.loads(CliRunner().invoke(main, ["read", "--chart", str(path), "--json"]).output)
    assert any(f["meaning"] and f["meaning"]["zh"] == "受印乘軒" for f in out["findings"])


def test_a_typed_chart_is_checked_before_it_is_read(tmp_path):
    """``read --chart`` checks the values of a typed chart (exit 2 naming the file and the field), and a
    Liu Ren section without its day takes the day pillar."""
    chart = leishen.chart("2026-12-01T10:00+09:00")
    runner, path = CliRunner(), tmp_path / "chart.json"
    for section, key, value, field in (("liuren", "day", "", "liuren.day"), ("liuren", "xun", "X", "liuren.xun"),
                                       ("qimen", "horse_palace", 10, "qimen.horse_palace")):
        bad = json.loads(json.dumps(chart))
        bad[section][key] = value
        path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
        result = runner.invoke(main, ["read", "--chart", str(path)])
        assert result.exit_code == 2 and f"{path}: {field}:" in result.output, result.output
    del chart["liuren"]["day"]
    path.write_text(json.dumps(chart, ensure_ascii=False), encoding="utf-8")
    out = json.loads(runner.invoke(main, ["read", "--chart", str(path), "--json"]).output)
    assert out["bindings"]["日干"] == "Stem:ji" and out["bindings"]["日支"] == "Branch:you"
    chart.pop("pillars")
    path.write_text(json.dumps(chart, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(main, ["read", "--chart", str(path)])
    assert result.exit_code == 2 and "liuren.day: a reading of Liu Ren needs the day" in result.output


def test_find_gives_json_lines_and_refuses_an_unknown_rule():
    runner = CliRunner()
    result = runner.invoke(main, ["find", "vigour", "--from", "2026-01-01T00:00+08:00", "--to", "2026-01-01T05:00+08:00"])
    lines = [json.loads(x) for x in result.output.splitlines() if x.startswith("{")]
    assert result.exit_code == 0 and len(lines) == 6 and all(x["findings"] for x in lines)
    bad = runner.invoke(main, ["find", "nothing-such", "--from", "2026-01-01T00:00+08:00", "--to", "2026-01-02T00:00+08:00"])
    assert bad.exit_code == 2 and "unknown rule 'nothing-such'" in bad.output
    for blank in ("", "  "):  # no name is no rule (it once matched the facts without an item)
        bad = runner.invoke(main, ["find", blank, "--from", "2026-01-01T00:00+08:00", "--to", "2026-01-02T00:00+08:00"])
        assert bad.exit_code == 2 and "unknown rule" in bad.output, bad.output


def test_read_defaults_to_now_and_names_a_bad_moment():
    runner = CliRunner()
    now = runner.invoke(main, ["read", "--json"])
    assert now.exit_code == 0 and json.loads(now.output)["findings"]
    bad = runner.invoke(main, ["read", "2023-02-29T10:00+08:00"])
    assert bad.exit_code == 2 and "no such date" in bad.output
    gap = runner.invoke(main, ["read", "2024-03-10T02:30", "--tz", "America/New_York"])
    assert gap.exit_code == 2 and "Traceback" not in gap.output


def test_the_python_api_checks_a_chart_dict_and_a_topic():
    """``leishen.read`` checks a chart dict as ``read --chart`` does, and a topic that is not a name is a
    TopicError, not an AttributeError."""
    from leishen.errors import ChartError
    from leishen.readings.topics import TopicError

    with pytest.raises(ChartError, match=r"^liuren\.plate: Field required"):
        leishen.read({"liuren": {"day": 5}})
    chart = leishen.chart("2026-12-01T10:00+09:00")
    assert [f["id"] for f in leishen.read(chart)["findings"]] == [f["id"] for f in leishen.read("2026-12-01T10:00+09:00")["findings"]]
    with pytest.raises(TopicError, match="expected a topic name, found int"):
        leishen.read(chart, topic=5)


def test_the_shared_reader_is_one_however_it_is_named():
    """``reader()``, ``reader("networkx")`` and ``reader(backend="networkx")`` hand out the one shared reader,
    the one ``leishen.read`` reads with (a second would be built, at about a second and its own caches, for a
    call spelt differently)."""
    from leishen.service.book import reader_of as _reader
    shared = reader()
    assert reader("networkx") is shared and reader(backend="networkx") is shared and _reader(None) is shared
