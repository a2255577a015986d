"""Judgments on hand-checked charts: the 用神, facets, verdicts, conflicts, set-aside rows, 應期 dates and 年景
read on the 立春 chart. Each test says the reasoning from the text it checks."""

from __future__ import annotations

from datetime import date

import pytest

from leishen.engine.calendar import day_index, sexagenary_name, term_start
from tests.judgments.conftest import facet, moments, values

SEASON_PHASE = {"春": "木", "夏": "火", "秋": "金", "冬": "水"}  # 旺 = the season's own phase
GENERATES = {"木": "火", "火": "土", "土": "金", "金": "水", "水": "木"}
BRANCH_PHASE = dict(zip("子丑寅卯辰巳午未申酉戌亥", "水土木木土火火土金金土水"))
SEASON_OF_MONTH = dict(zip("寅卯辰巳午未申酉戌亥子丑", "春春春夏夏夏秋秋秋冬冬冬"))
LODGE = dict(zip("甲乙丙丁戊己庚辛壬癸", "寅辰巳未巳未申戌亥丑"))  # 寄宮 of the day stem


def wang_xiang(branch: str, month_branch: str) -> bool:
    """旺 or 相 in the month's season (the earth months' own 土 is not counted here: the rows say 旺相)."""
    season = SEASON_PHASE[SEASON_OF_MONTH[month_branch]]
    return BRANCH_PHASE[branch] in (season, GENERATES[season])


def test_shefu_text_example_002_163(judged):
    """002:163's example: 正月 甲子日 卯時, 亥加卯, 三傳 戌午寅. 甲 is a 剛日, so the branch over the day stem
    (干上) is read first (002:151); 月將加時 reads only the 初傳 (專看). The 無物 test (天空 as the 用's general,
    the 用 void and the hour void) fails — 卯 is not void in the 甲子 旬 — so there is a thing (有物); whether it
    came from the void quarter 寅卯 (then 閒物) only the asker can say: a question, never the answer."""
    reading, js = judged("2002-02-25T06:00+08:00", "射覆")
    chart = reading["chart"]["liuren"]
    assert chart["transmissions"] == ["戌", "午", "寅"] and chart["plate"]["卯"] == "亥"
    j = js["射覆"]
    first = [g for g in j["use_god"] if g["role"] == "先看"]
    assert [(g["slot"], g["node"]["name"], g["src"]) for g in first] == [("課1上", "戌", ["002:151"])]
    assert any(g["role"] == "專看" and g["slot"] == "初傳" for g in j["use_god"])
    assert values(j, "有無") == {"有物"}
    assert facet(j, "有無")["src"] == ["002:163"]
    asked = facet(j, "有無")["questions"]
    assert [q["value"] for q in asked] == ["閒物"] and asked[0]["src"] == ["002:163"]
    assert all(q["ask"][lang] for q in asked for lang in ("zh", "ko", "en"))


@pytest.mark.parametrize("moment", ["2026-12-01T10:00+09:00", "2024-06-21T12:00+08:00", "1999-09-09T09:09+08:00",
                                    "2025-02-03T23:30+08:00", "2030-01-15T04:00+08:00", "2002-02-25T06:00+08:00"])
def test_shefu_edible_follows_002_151(judged, moment):
    """002:151: the 用 (初傳) over the day stem or the day branch and 旺相 → 可食; otherwise (反是) 不可食. The
    expected answer is computed here from the chart alone, independently of the rules."""
    reading, js = judged(moment, "射覆")
    lr = reading["chart"]["liuren"]
    first, day, month = lr["transmissions"][0], lr["day"], reading["pillars"]["month"][1]
    over_day = first in (lr["plate"][LODGE[day[0]]], lr["plate"][day[1]])
    expected = "可食" if over_day and wang_xiang(first, month) else "不可食"
    f = facet(js["射覆"], "可食否")
    assert f["status"] == "decided" and values(js["射覆"], "可食否") == {expected}, (first, over_day)


def test_chuxing_the_duty_gate_weighs_most(judged):
    """出行 (004:75): 出行直使最為重 — the 值使 outweighs everything, and 用空 落空 反伏 迫 格 刑沖 on it mean 起程不得.
    On 2030-01-15 04:00 (庚戌日 戊寅時) the hour's 納音 does not harm the asker and generates him (004:71 論干支:
    堪策驥, 先稱意, 吉), but 起程不得 holds at the 值使: the verdict is 凶, decided by 004:75, and the 論干支 吉
    lines stay findings the verdict sets aside. The 值使's palace is read as a 用神 (004:75), first (最為重), then the
    asker's day stem (004:71 論干支)."""
    reading, js = judged("2030-01-15T04:00+08:00", "出行")
    j = js["出行"]
    assert j["use_god"][0]["slot"] == "值使宮"
    assert j["use_god"][1]["slot"] == "日干" and j["use_god"][1]["node"]["name"] == "庚"
    assert any(g["slot"] == "值使宮" and g["src"] == ["004:75"] for g in j["use_god"])
    assert j["verdict"] == "凶" and j["verdict_by"]["facet"] == "可行否" and "004:75" in j["verdict_by"]["src"]
    by_id = {x["id"]: x for x in reading["findings"]}
    assert any(by_id[x]["meaning"]["zh"] == "堪策驥" for x in by_id), "004:71's 吉 line holds on this chart"
    assert j["summary"]["zh"].startswith("出行：凶") and "004:75" in j["summary"]["en"]


def test_undecided_names_both_and_mixed_option(judged):
    """Where the lines of one tier of the topic's procedure give 吉 and 凶 and no line orders them (行人: 004:47 只從時日
    and 004:55 刑格迫伏未回蹤 are both decisive), the verdict is 未定 with both named; under verdict_conflict=mixed
    it is 混. The first such moment of a seeded run is read."""
    for moment in moments(40, 47):
        _, js = judged(moment, "行人")
        if js["行人"]["verdict"] == "未定":
            break
    else:
        pytest.fail("no 未定 行人 judgment in 40 seeded moments")
    f = facet(js["行人"], "來否")
    assert {a["value"] for a in f["conflict"]} == {"吉", "凶"} and all(a["findings"] for a in f["conflict"])
    assert "行人" in js["行人"]["summary"]["zh"] and "未定" in js["行人"]["summary"]["zh"]
    _, mixed = judged(moment, "行人", options={"verdict_conflict": "mixed"})
    assert mixed["行人"]["verdict"] == "混" and mixed["行人"]["verdict_by"]["option"] == "verdict_conflict=mixed"


def test_unknown_judgment_option_is_refused(judged):
    from leishen.judgments.procedure import JudgmentOptionError
    with pytest.raises(JudgmentOptionError, match="options.timing_stem: 'sky'"):
        judged("2030-01-15T04:00+08:00", "出行", options={"timing_stem": "sky"})
    with pytest.raises(JudgmentOptionError, match="unknown judgment option 'speed'"):
        judged("2030-01-15T04:00+08:00", "出行", options={"speed": 1})


def test_every_rain_sign_counts_003_55(judged):
    """天時 2024-06-24 03:00: 003:55 天蓬遊於坎兌震 … 皆主雨 holds (天蓬 in 震三), while the clause 遊坎兌震不乘水神亦無雨
    is about 天柱 and 天沖 only: it cannot cancel 天蓬's sign. Every rain sign of the line counts (procedures.csv:
    tier 0), whatever the 用神: the facet is decided 雨, by 003:55, and the rain is dated by the palaces where it
    was found — where 遲速 is decided, of the stars near or far from the 值符 that decide it (與值符近則雨速)."""
    reading, js = judged("2024-06-24T03:00+08:00", "天時")
    j = js["天時"]
    f = facet(j, "雨否")
    assert f["status"] == "decided" and values(j, "雨否") == {"雨"} and f["src"] == ["003:55"]
    by_id = {x["id"]: x for x in reading["findings"]}

    def palaces(facet_json):
        return {by_id[x]["bindings"]["宮"] for x in facet_json["findings"] if "宮" in by_id[x]["bindings"]}
    speed = facet(j, "遲速")
    dated_at = palaces(speed) if speed["status"] == "decided" else palaces(f)
    rain = [w for w in j["when"] if w["for"]["zh"] == "雨"]
    assert rain and {w["palace"] for w in rain} == dated_at and dated_at <= palaces(f)


def test_when_dates_carry_the_named_stem(judged):
    """003:55: the day is fixed by the stem of the palace where the rain was found (天柱等所落宮): the first day at or
    after the moment whose day pillar has that stem; fine weather and snow, not found on this chart, are not dated
    and say why."""
    reading, js = judged("2024-06-22T12:00+08:00", "天時")
    when = js["天時"]["when"]
    assert {w["for"]["zh"] for w in when} == {"雨"}
    assert [u["for"]["zh"] for u in js["天時"]["undated"]] == ["晴", "雪"]
    palaces = reading["chart"]["qimen"]["palaces"]
    for w in when:
        d = date.fromisoformat(w["date"])
        assert sexagenary_name(day_index(d))[0] == w["stem"] == w["pillar"][0]
        assert 0 <= (d - date(2024, 6, 22)).days < 10
        assert palaces[w["palace"].removeprefix("Palace:p")]["earth"] == w["stem"]
        assert w["src"] == ["003:55"]
    assert when[0]["speed"] == "遲"  # the rain star far from the 值符 (003:55 遠則雨遲)


def test_rain_beside_fine_weather_is_undecided_and_undated(judged):
    """2024-06-21 12:00: 003:55 finds rain and 003:51 fine weather on one chart; the texts order neither
    (exclusive.csv): both facets are 未定 naming each other, and neither is dated."""
    _, js = judged("2024-06-21T12:00+08:00", "天時")
    j = js["天時"]
    for name, first in (("雨否", "雨"), ("晴否", "晴")):
        f = facet(j, name)
        assert f["status"] == "未定" and [a["value"] for a in f["conflict"]][0] == first
    assert not j["when"] and {u["for"]["zh"] for u in j["undated"]} >= {"晴", "雨"}
    assert facet(j, "遲速")["status"] == "not asked"


def test_when_heaven_plate_option(judged):
    """The school option timing_stem=heaven dates by the heaven-plate stem of the palace instead."""
    reading, js = judged("2024-06-22T12:00+08:00", "天時", options={"timing_stem": "heaven"})
    palaces = reading["chart"]["qimen"]["palaces"]
    assert js["天時"]["when"]
    for w in js["天時"]["when"]:
        assert palaces[w["palace"].removeprefix("Palace:p")]["heaven"] == w["stem"] and w["stem_plate"] == "heaven"


def test_nianjing_is_read_on_the_lichun_chart(judged):
    """003:75: the year's outlook is read on the chart of the 立春 instant (交春, to the minute). 2030-01-15 is
    before 2030's 立春, so the 2029 立春 chart is read; its findings join the reading, each marked read_on."""
    reading, js = judged("2030-01-15T04:00+08:00", "年景")
    j = js["年景"]
    lichun = term_start("立春", 2029)
    assert j["read_on"]["term"] == "立春" and j["read_on"]["src"] == ["003:75"]
    assert j["read_on"]["moment"]["utc"].startswith(lichun.astimezone().strftime("%Y-%m-%d"))
    added = [f for f in reading["findings"] if f["id"].startswith("立春/")]
    assert added and all(f["read_on"] == j["read_on"]["moment"] for f in added)
    assert not [f for f in reading["findings"] if f["topic"] == "年景" and not f["id"].startswith("立春/")]
    ids = {f["id"] for f in reading["findings"]}
    assert j["reasons"] and all(r["finding"] in ids for r in j["reasons"])


def test_nianjing_asked_chart_option(judged):
    """nianjing_chart=asked reads 年景 on the asked chart (the option for a school that does not follow 003:75)."""
    reading, js = judged("2030-01-15T04:00+08:00", "年景", options={"nianjing_chart": "asked"})
    assert js["年景"]["read_on"]["moment"] == reading["moment"] and js["年景"]["read_on"]["term"] is None
    assert not any(f["id"].startswith("立春/") for f in reading["findings"])


def test_a_rescue_sets_aside_its_base_row_at_the_same_palace_003_103(judged):
    """003:103 (蠶): a 凶格 in a metal or wood palace gives no profit (3.R.02), but where the gate of that
    palace generates it, half (3.R.03, modifies=3.R.02). On 2034-01-19 18:00 both are read in 巽4: the
    rescue sets the base row aside, with both sources, and decides 蠶利 alone."""
    _, judgments = judged("2034-01-19T18:00+08:00", "蠶")
    silk = judgments["蠶"]
    base, rescue = ("qimen/rules/facts/003/n_crops_silk.csv#46@Palace:p4",
                    "qimen/rules/facts/003/n_crops_silk.csv#47@Palace:p4")
    assert {"finding": base, "by": rescue, "src": ["003:103"], "by_src": ["003:103"]} in silk["overridden"]
    assert facet(silk, "蠶利")["status"] == "decided" and facet(silk, "蠶利")["findings"] == [rescue]


def test_a_rescue_at_another_palace_leaves_the_base_row_standing(judged):
    """On 1972-06-19 01:00 the base row holds in 震3 and the rescue in 坎1: a rescue read at one palace does
    not set aside a row read at another, so the two answers stand as a conflict (未定), both named."""
    _, judgments = judged("1972-06-19T01:00+08:00", "蠶")
    silk = judgments["蠶"]
    assert silk["overridden"] == []
    assert facet(silk, "蠶利")["status"] == "未定"
    assert set(facet(silk, "蠶利")["findings"]) == {"qimen/rules/facts/003/n_crops_silk.csv#46@Palace:p3",
                                                   "qimen/rules/facts/003/n_crops_silk.csv#47@Palace:p1"}


def test_a_branch_on_itself_is_no_combination_002_155(judged):
    """射覆 2026-06-15 15:00: the 用 申 on the day branch 申 (伏吟) is in the same 三合 frame as itself, yet 002:155's
    用加支合 正當時 needs the 用 and the day branch to combine: no 正當時 (round 13 of audit-5)."""
    _, js = judged("2026-06-15T15:00+08:00", "射覆")
    f = facet(js["射覆"], "及時過時")
    assert "正當時" not in {a["value"] for a in f["answer"] + (f["conflict"] or [])}
