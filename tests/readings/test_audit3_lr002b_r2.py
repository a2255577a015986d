"""射覆 rules of document 002 read in the second round of the third audit (2026-12-02). ``MENDED``: two rows
tested the day stem's 刑 on the stem itself, which has no 刑 relation, so that part of their condition never held;
the stem now punishes through its 寄宮 (as 000:51's 刑干 rows read it). ``PINNED``: rows whose line allows another
reading keep their condition and name the other reading in their note or judgment; the tests pin the reading
each takes, so that a later change is deliberate. Each row fires at the first moment and not at the second.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations

import pytest

from fired import assert_mended, findings

MENDED = [
    ("facts/002/shefu_rules.csv#20", "射覆", "1920-10-06T11:01:00+08:00", "2026-09-04T13:27:00+08:00",
     "休囚刑剋 (002:155): 丁酉 day, 用 丑 休 in autumn, punished by 未 (the 寄宮 of 丁), nothing else punishes or "
     "overcomes it (before: never, the stem itself has no 刑); 辛巳 day, 用 丑 休 beside 戌 (丑 punishes 戌, not "
     "the reverse): no"),
    ("facts/002/shefu_rules.csv#50", "射覆", "1998-11-30T13:00:00+08:00", "2026-09-04T13:27:00+08:00",
     "囚死更兼刑剋 (002:167): 辛巳 day in winter, the branch over 子 囚死 (先看子上神, round 14 of audit-5), 用 未 "
     "punished by 戌 (the 寄宮 of 辛) only (before: never); a 休 用 with no 刑 or 剋 from the day does not count"),
]


PINNED = [
    ("facts/002/shefu_rules.csv#133", "射覆", "2002-08-21T17:37:00+08:00", "2013-04-27T00:15:00+08:00",
     "用在陽 (002:187) read as the 用's own polarity: a yang 用 on yin ground counts; a yin 用 on yang ground "
     "(the Korean translation's reading, the place it falls on) does not"),
    ("facts/002/shefu_rules.csv#134", "射覆", "2013-04-27T00:15:00+08:00", "2002-08-21T17:37:00+08:00",
     "陰是死 (002:187) read as the 用's own polarity: a yin 用 on yang ground counts; a yang 用 on yin ground "
     "does not"),
    ("facts/002/shefu_rules.csv#18", "射覆", "2018-11-11T04:58:00+08:00", "2045-03-26T06:10:00+08:00",
     "休廢 無用物 (002:155) asks the 用 and its ground both to be 休廢, as 利用人 asks both 旺相 (round 10 of "
     "audit-5): a weak 用 on strong ground does not count"),
    ("facts/002/shefu_rules.csv#17", "射覆", "2021-02-04T02:51:00+08:00", "1958-06-30T11:53:00+08:00",
     "有氣 利用人 (002:155) asks the 用 and its ground both to be 旺相: a strong 用 on weak ground does not "
     "count"),
]


@pytest.mark.parametrize("rule, topic, holds, fails, why", PINNED)
def test_pinned_readings(rule, topic, holds, fails, why):
    assert_mended(rule, topic, holds, fails, why)


@pytest.mark.parametrize("rule", ["facts/002/shefu_rules.csv#133", "facts/002/shefu_rules.csv#134"])
def test_yang_yin_of_the_use_is_left_to_judgment(rule):
    """Which yang or yin 002:187 means (and whether the 月厭 must be met) is left to the reader."""
    moment = "2002-08-21T17:37:00+08:00" if rule.endswith("#133") else "2013-04-27T00:15:00+08:00"
    assert findings(moment, "射覆")[rule] == "needs_judgment"
