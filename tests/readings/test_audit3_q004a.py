"""Rules of 004 求財 / 行人 / 出行 mended in the third audit against the texts (2026-12-02): each holds where the
text says and not where it must not. For a narrowed rule the "must not" moment is one where the old condition
held; for a widened one (截空 added) the "holds" moment is one the old condition missed.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


MENDED = [
    ("facts/004/xingren.csv#17", "行人", "1944-01-08T06:36:00+08:00", "2038-10-30T01:34:00+08:00",
     "休囚刑尅 (004:51), the pair of 旺相逢生: the 值符 out of season and overcome by its palace; out of season "
     "alone (the old either-one condition held) no longer counts"),
    ("facts/004/xingren.csv#9", "行人", "2035-04-21T03:47:00+08:00", "2035-06-11T03:55:00+08:00",
     "截空 (004:47): a 壬 day at a 寅 hour is 截路空亡 (丁壬 寅卯), with no 刑 and no 墓 (the old row missed it); "
     "a 寅 hour on a day of another stem, with no 刑 or 墓, is not"),
    ("facts/004/chuxing.csv#9", "出行", "2035-04-21T03:47:00+08:00", "2035-06-11T03:55:00+08:00",
     "截空 (004:71): the same 壬 day, 寅 hour, with no 刑 and no 害 (the old row missed it); another day's 寅 hour "
     "is not"),
    ("facts/004/xingren.csv#25", "行人", "2073-09-17T02:38:00+08:00", "2069-11-22T13:37:00+08:00",
     "刑格迫伏 (004:55) on the 值使: 庚 over 己 in the 值使's palace (no 門迫 of the 值使, no 伏吟); a 刑格 "
     "only in another palace (the old row held on it) no longer counts"),
]
