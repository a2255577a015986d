"""Rules of 004 疾病 / 行人 / 出行 / 科試 read in round 2 of the third audit against the texts (2026-12-02).

No condition changed; a rule whose condition left out a part the text names, a part the vocabulary cannot state,
now needs judgment: at a moment where the old condition held it is reported as ``needs_judgment``, no longer as
``holds``. The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


JUDGED = [
    ("facts/004/jibing.csv#88", "疾病", "2024-05-05T10:00+08:00",
     "刑陷 at the 門戶 (004:135) names a 刑 and a 陷; only the void (陷) was tested, so the row held as decided on "
     "every chart with 辰巳 or 戌亥 void; the 刑 is not defined, so it is now reported as needs_judgment"),
]
