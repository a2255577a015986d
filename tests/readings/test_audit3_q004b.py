"""Rules of document 004 (疾病 家宅 科試) mended after the third audit against the texts (2026-12-02): each fires where
the text says and not where it must not. The "must not" moment is one where the old row held, or
(for a rule that missed a case) one where neither holds. The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


MENDED = [
    ("facts/004/jiazhai.csv#135", "家宅", "2035-04-20T19:47:00+00:00", "2035-06-10T19:55:00+00:00",
     "刑墓空亡隔悖害 (004:111) of the palace the house stem (hour stem) arrives at: a 格 / 悖格 / 擊刑 / 入墓 or the "
     "void there; a chart with such a pattern only in other palaces no longer counts (the old row held on 83%)"),
    ("facts/004/jiazhai.csv#137", "家宅", "2049-08-05T05:41:00+00:00", "2035-06-10T19:55:00+00:00",
     "反伏二吟刑囚星 (004:111): 反吟 or 伏吟 together with a 刑 / 囚 star (the 值符's); a chart with only one of the "
     "two sides no longer counts (the old row was an either-or)"),
    ("facts/004/jiazhai.csv#126", "家宅", "2035-06-10T19:55:00+00:00", "2035-04-20T19:47:00+00:00",
     "怕悖迫 (004:107): 悖格 or 迫 in the 值使's palace; a 悖格 in another palace no longer counts"),
    ("facts/004/jibing.csv#187", "疾病", "2035-04-20T19:47:00+00:00", "2076-09-03T02:39:00+00:00",
     "年月日時逢悖格 (004:167): 丙 over a pillar stem (4.P.16 case 1); 悖格 by a variant-school case only no "
     "longer counts"),
    ("facts/004/kesi.csv#9", "科試", "2040-12-20T23:48:00+00:00", "2040-12-21T03:48:00+00:00",
     "刑囚攻截 (004:3): 截 is tested now, as 截空 in 4.12.08: a 癸 day at a 子 hour (戊癸 子丑) with no 刑, the day stem "
     "not 囚 and not overcome by the hour stem (the old row missed it); the 寅 hour of the same day has none of the four"),
]
