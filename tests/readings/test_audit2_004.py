"""Rules of document 004 mended after the second audit against the texts (2026-12-01): each fires where the
text says and not where it must not. A moment may carry a birth year (``moment@year``): the rules of the natal
year (年命) need one. The Liu Ren patterns 三門四戶 and 天乙·祿·馬 were tested from Qimen rules and never held;
their "no longer" chart is one where the pattern itself holds and the rest of the line does not.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations

from datetime import datetime


from leishen.engine.chart import ChartRequest, build_chart
from leishen.service.book import reader


MENDED = [
    ("facts/004/jibing.csv#170", "疾病", "1957-05-26T22:41:00+08:00", "1969-04-01T01:56:00+08:00",
     "三門四戶 最忌刑墓 (004:163) in Liu Ren slots: 戊戌 day, 未 over 戌 (the day branch) that punishes it; "
     "丙午 day: a gate branch over 午 with no 刑 and no 墓 (the old Qimen rule never held)"),
    ("facts/004/jibing.csv#171", "疾病", "2025-06-15T10:00:00+08:00@1979", "2025-06-15T10:00:00+08:00@1980",
     "喪吊 (004:163): a 巳 year, born 未 = 喪門 (year branch + 2); born 申 is neither (the old 4.P.46 held for "
     "any birth year)"),
    ("facts/004/jibing.csv#171", "疾病", "2025-06-15T10:00:00+08:00@1975", "2025-06-15T10:00:00+08:00@1980",
     "喪吊 (004:163): a 巳 year, born 卯 = 弔客 (year branch - 2)"),
    ("facts/004/kesi.csv#76", "科試", "2016-12-12T21:03:00+08:00@1944", "2016-12-12T21:03:00+08:00@1940",
     "天乙祿馬 (004:19) written out in Liu Ren slots: the pattern holds; 時來生命: hour 癸 generates a 甲 natal "
     "year, not a 庚 one (the old Qimen rule never held)"),
    ("facts/004/kesi.csv#49", "科試", "2026-01-06T19:00:00+09:00@1984", "2026-01-06T19:00:00+09:00@1980",
     "填合年命用干 (004:19): a good pattern in the natal stem's palace (a 甲子 year stands as 戊) and, since #29, "
     "one in the hour stem's (用干); a 庚 natal stem stands elsewhere, though the pattern holds in the chart"),
    ("facts/004/chuxing.csv#29", "出行", "2000-05-18T02:36:00+08:00", "1960-12-19T10:21:00+08:00",
     "吉格 (004:83) read at the traveller's palaces (day stem, hour stem, 值使): a 吉格 in the day stem's "
     "palace; a 吉格 only in another palace no longer counts"),
    ("facts/004/chuxing.csv#30", "出行", "2033-01-20T17:53:00+08:00", "1969-04-01T01:56:00+08:00",
     "凶格 (004:83) read at the traveller's palaces: a 凶格 at the day stem's, hour stem's and 值使's palaces; "
     "a 凶格 only in 坤二 no longer counts"),
    ("facts/004/kesi.csv#25", "科試", "2000-05-18T02:36:00+08:00", "1959-03-30T18:36:00+08:00",
     "用門無刑格 (004:7): 刑 is 六儀擊刑 too: no 庚 over the 值使's palace, but 擊刑 in it (離九)"),
]


def test_sangdiao_is_a_qimen_pattern_of_the_year_branch():
    """4.P.46 has two cases, 喪門 (year branch + 2) and 弔客 (− 2) on the natal branch, in Qimen slots; without a
    birth year it never holds."""
    r = reader()
    moment = datetime.fromisoformat("2025-06-15T10:00:00+08:00")  # 乙巳 year
    held = {year: r.test(build_chart(moment, ChartRequest(birth_year=year, sex="male")), "pattern(Pattern.喪吊)",
                         system="qimen")["holds"] for year in (1975, 1977, 1979, 1980)}
    assert held == {1975: True, 1977: False, 1979: True, 1980: False}
    assert not r.test(build_chart(moment), "pattern(Pattern.喪吊)", system="qimen")["holds"]


def test_jixing_of_the_instrument_riding_with_tian_qin():
    """六儀擊刑 (004:119) where 天禽 is the 值符: its decade-head instrument rides as the 寄 stem (天寄). 2026-12-01
    11:00 (+08:00): 甲子戊's 值符 天禽 flies to 震三 with 戊 as its 寄 stem, 子刑卯 (round 8 of audit-5), while the
    palace's own heaven stem is not 戊."""
    r = reader()
    chart = build_chart(datetime.fromisoformat("2026-12-01T11:00:00+08:00"))
    assert r.test(chart, "pattern(Pattern.六儀擊刑)", system="qimen")["holds"]
    assert r.test(chart, "at(值符宮, all(eq(天寄, Stem.戊), eq(宮, Palace.震三)))", system="qimen")["holds"]
    assert not r.test(chart, "at(值符宮, eq(天, Stem.戊))", system="qimen")["holds"]


def _qichengbude(moment: str) -> list[dict]:
    """The findings of 004:75's 起程不得 (4.19.16) in a 出行 reading of *moment*."""
    reading = reader().read(build_chart(datetime.fromisoformat(moment)), topic="出行")
    return [f for f in reading["findings"] if (f.get("rule") or {}).get("item") == "4.19.16"]


def test_qichengbude_reads_the_zhishi_gates_own_fanyin():
    """004:75's 反伏 is the 值使's: on 2026-12-01 11:00 (+08:00) the 值使 死門 stands in 艮八, opposite its home (the
    gate ring's 反吟), and the finding is read at the 值使's palace, naming its gate; on 2026-01-01 11:00 only the
    star ring is 反吟 (天蓬 in 離九, 休門 elsewhere), which 004:75 does not read."""
    found = _qichengbude("2026-12-01T11:00:00+08:00")
    assert found and found[0]["bindings"]["宮"] == "Palace:p8"
    assert [h["node"]["name"] for h in found[0]["path"] if "node" in h][:2] == ["艮八", "死門"]
    star_only = _qichengbude("2026-01-01T11:00:00+08:00")
    assert not any(h["node"]["id"] in ("Pattern:反吟", "Concept:對宮") for f in star_only for h in f["path"] if "node" in h)
