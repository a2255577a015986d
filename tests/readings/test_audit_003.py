"""Rules of document 003 mended after the audit against the text (2026-12-01): each fires where the
text says, and not on a chart where the text says it must not."""

from __future__ import annotations

from datetime import datetime

import pytest

from leishen.engine.chart import build_chart
from leishen.readings import reader


def _facts(moment: str, topic: str) -> set[str]:
    reading = reader().read(build_chart(datetime.fromisoformat(moment)), topic=topic)
    return {f["rule"]["fact"] for f in reading["findings"]}


@pytest.mark.parametrize("rule, topic, holds, fails, why", [
    ("facts/003/f_rain_fine_snow.csv#37", "天時", "2038-02-05T03:43:00+08:00", "2029-06-24T07:45:00+08:00",
     "near to 值符 times a rain already found (003:55): no rain star of 3.H.09/11 in the second chart"),
    ("facts/003/f_rain_fine_snow.csv#38", "天時", "2044-08-24T18:42:00+08:00", "1982-08-05T14:24:00+08:00",
     "far from 值符 times a rain already found (003:55): no rain star of 3.H.09/11 in the second chart"),
    # 3.Q: the day stem's gate is one gate; the old test saw neither chart (丙 of 中五 hosted; a 甲 day)
    ("facts/003/n_crops_silk.csv#43", "蝗", "2025-03-18T10:00:00+08:00", "1970-05-14T02:17:00+08:00",
     "丙 day: 丙 of 中五 hosted in 坤二 under 死門 (003:99); 甲 day: its 儀 lies under a gate not listed"),
    ("facts/003/n_crops_silk.csv#44", "蝗", "1970-05-14T02:17:00+08:00", "2025-03-18T10:00:00+08:00",
     "甲 day: its 儀 lies under a gate not listed (非此, 003:99); 丙 day: 死門 over the hosted 丙"),
    # 3.Y.05: a hosted 天禽 carries 天寄 丙 in the first chart (the old test missed it); no 芮禽 with 丙丁 in the second
    ("facts/003/w_dig.csv#40", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
    ("facts/003/w_dig.csv#41", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
    ("facts/003/w_dig.csv#42", "穿地", "2029-06-24T07:45:00+08:00", "1982-08-05T14:24:00+08:00",
     "芮禽 carrying 丙 or 丁 (003:131): the hosted 天禽's stem is 天寄"),
])
def test_mended_rules_003(rule, topic, holds, fails, why):
    assert rule in _facts(holds, topic), why
    assert rule not in _facts(fails, topic), why
