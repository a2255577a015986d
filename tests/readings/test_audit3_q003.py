"""Rules of document 003 mended after the third audit against the texts (2026-12-02): each fires where the
text says and not where it must not. 年景 (003:79, 003:83): 在吉處 of 天輔, 天禽 and 天柱 was a wonder, a good gate,
a good deity or a generating palace (about 87% of charts, often beside the 加凶宿 branch of the same line); it is
now the mirror of 加凶宿, a palace whose home star is a 吉宿. 得生旺地 of 天英 tested the season's vigour, always
相 for fire on the 立春 chart that 年景 is read on; it is now the palace's own: generating the star or of its
phase. 田禾 (003:95): 景英心開 on an earth or wood palace is a gate (景/開) with a star (英/心) in that palace, no
longer any one of the four alone; 庚辛相制 is 庚 and 辛 facing each other, no longer 庚 over 庚 or 辛 over 辛.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


from fired import findings, random_moments

MENDED = [
    ("facts/003/k_year_regions.csv#85", "年景", "2026-09-01T03:58:00+08:00", "1962-02-03T17:44:00+08:00",
     "天輔 在吉處 (003:79): 天輔 on a 吉宿 palace; on a 凶宿 palace it is 加凶宿, though a wonder, good gate or good "
     "deity is with it"),
    ("facts/003/k_year_regions.csv#86", "年景", "2026-09-01T03:58:00+08:00", "1962-02-03T17:44:00+08:00",
     "天輔 在吉處 人民安樂 (003:79), as 3.M.14"),
    ("facts/003/k_year_regions.csv#89", "年景", "1962-02-03T17:44:00+08:00", "2026-09-01T03:58:00+08:00",
     "天禽 在吉處 (003:83): the hosted 天禽 on a 吉宿 palace; on a 凶宿 palace no longer, whatever stands with it"),
    ("facts/003/k_year_regions.csv#90", "年景", "1962-02-03T17:44:00+08:00", "2026-09-01T03:58:00+08:00",
     "天禽 在吉處 人物蕃盛 (003:83), as 3.M.17"),
    ("facts/003/k_year_regions.csv#98", "年景", "1962-02-03T17:44:00+08:00", "2026-09-01T03:58:00+08:00",
     "天柱 在吉處 半熟 (003:83): 天柱 on a 吉宿 palace; the wonders are the line's own later case (若有三奇)"),
    ("facts/003/k_year_regions.csv#99", "年景", "1962-02-03T17:44:00+08:00", "2026-09-01T03:58:00+08:00",
     "天柱 在吉處 人民瘟瘴 (003:83), as 3.M.26"),
    ("facts/003/k_year_regions.csv#112", "年景", "1982-12-03T06:05:00+00:00", "2024-02-04T17:00:00+08:00",
     "天英 得生旺地 (003:83): in winter, 天英 in 離九 (its own phase: 旺 there); on the 立春 day of 2024 the old seasonal "
     "test (fire 相 in spring) held wherever 天英 stood, here in a palace neither generating it nor of its phase"),
    ("facts/003/k_year_regions.csv#113", "年景", "1982-12-03T06:05:00+00:00", "2024-02-04T17:00:00+08:00",
     "天英 得生旺地 人民安慶 (003:83), as 3.M.39"),
    ("facts/003/n_crops_silk.csv#29", "田禾", "2042-04-05T17:36:00+08:00", "1962-02-03T17:44:00+08:00",
     "景英心開 加於土木之宮 (003:95): a gate 景/開 with a star 英/心 in an earth or wood palace; one of them alone there "
     "no longer counts"),
    ("facts/003/n_crops_silk.csv#39", "田禾", "1962-02-03T17:44:00+08:00", "2026-09-01T03:58:00+08:00",
     "門克宮 or 庚辛相制 (003:95): a chart with no gate overcoming its palace and 庚 over 庚 only (伏吟) no longer "
     "counts"),
]


def test_good_place_and_bad_star_exclude_each_other():
    """天輔 never stands in 中五, so on every chart exactly one of 在吉處 (3.M.14) and 加凶宿 (3.M.16) holds."""
    for m in random_moments(12, 31):
        fired = findings(m.isoformat(), "年景")
        good = "facts/003/k_year_regions.csv#85" in fired
        bad = "facts/003/k_year_regions.csv#87" in fired
        assert good != bad, m
