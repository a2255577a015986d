"""Rules of document 003 (穿地, 地理) mended in the second round of the third audit (2026-12-02): each fires where
the text says and not where it must not. The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


MENDED = [
    ("facts/003/w_dig.csv#17", "穿地", "1948-10-21T23:19:00+08:00", "1989-06-28T11:27:00+08:00",
     "丙加符甲 with 休門 (003:127): the hour's 儀 lies in 中五, so the duty star is 天禽 and the 儀 is hosted on the "
     "earth plate of 坤二, where 丙 stands with 休門 (the old home-palace test never saw it); 丙 with 休門 over a "
     "hosted 己 while the duty star is 天心 is not 丙 over the duty 儀"),
    ("facts/003/w_dig.csv#21", "穿地", "1933-04-14T06:38:00+08:00", "2017-03-01T13:02:00+08:00",
     "丙加符甲 with 傷門 (003:127): the same hosted case with 傷門; 丙 with 傷門 in the host palace under 天蓬 as "
     "duty star does not count"),
    ("facts/003/t_terrain_numbers.csv#46", "地理", "2013-04-27T00:15:00+08:00", "1958-06-30T11:53:00+08:00",
     "門迫 halves the count (003:115), read for the duty gate (符使): the 值使 overcomes its palace; a 門迫 of some "
     "other gate only no longer halves it"),
]
