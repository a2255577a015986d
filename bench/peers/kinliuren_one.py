"""kinliuren's one-chart process, the peer of ``leishen chart MOMENT`` in the start-up rows (bench/startup.py).

    python bench/peers/kinliuren_one.py 2026-12-01T10:00+09:00

lunar_python gives the 節氣, the lunar month and the day and hour pillars (as bench_liuren.lunar_inputs),
kinliuren computes the chart (``Liuren(...).result(0)``), and the process prints it as JSON: what a user of
kinliuren runs to see one chart. It imports nothing of leishen.
"""

import json
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

from kinliuren import kinliuren
from lunar_python import Solar

LUNAR_MONTHS = "正二三四五六七八九十冬臘"
SIMPLIFIED = str.maketrans({"绿": "綠", "黄": "黃"})


def main(moment: str) -> None:
    t = datetime.fromisoformat(moment).astimezone(ZoneInfo("Asia/Shanghai"))
    lunar = Solar.fromYmdHms(t.year, t.month, t.day, t.hour, t.minute, 0).getLunar()
    eight = lunar.getEightChar()
    eight.setSect(1)
    term = lunar.getPrevJieQi().getName().translate(SIMPLIFIED)
    chart = kinliuren.Liuren(term, LUNAR_MONTHS[abs(lunar.getMonth()) - 1], eight.getDay(), eight.getTime()).result(0)
    print(json.dumps(chart, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main(sys.argv[1])
