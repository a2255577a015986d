"""Rules of 004 家宅 / 求財 read in round 2 of the third audit against the texts (2026-12-02).

A narrowed rule holds where the text says and not where the old condition alone held (``assert_mended``); a rule
whose condition left out a part the text names, a part the vocabulary cannot state, now needs judgment: at a moment
where the old condition held it is reported as ``needs_judgment``, no longer as ``holds``.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


MENDED = [
    ("facts/004/jiazhai.csv#131", "家宅", "1966-02-13T06:04+08:00", "1958-06-30T11:53+08:00",
     "金水刑囚 (004:107) asks both states of a metal or water 值使: its palace overcomes it and it is out of season; "
     "the old row held on either one (the failing moment has only one)"),
    ("facts/004/qiucai.csv#74", "求財", "1943-02-20T10:33+08:00", "2035-06-11T03:55+08:00",
     "天馬 (004:43) is 卯 on the day (寄宮 or 日支, 4.P.42); the old row took any 卯 clashed or punished where it "
     "landed (the failing moment has 卯 clashed away from the day)"),
    ("facts/004/qiucai.csv#75", "求財", "2035-06-11T03:55+08:00", "2041-05-29T16:20+08:00",
     "私門 (004:43) is 六合 太陰 太常 landing on the day (4.P.43); the old row took them clashed or punished on any "
     "position"),
]

JUDGED = [
    ("facts/004/jiazhai.csv#156", "家宅", "1953-04-13T14:51+08:00",
     "尅戰 of 甲乙 and 天蓬 in the 飛牒 palace (004:115) was left out, so the row held as decided on any 九天 丙丁 "
     "palace with 乙 or 天蓬; which symbol must overcome which is not said, so it now needs judgment"),
]
