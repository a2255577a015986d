"""A reading's ``names``: the chart's own name of a node where it is not the node's (the Qimen deities 勾陳 and
朱雀 of 陽遁 under ``qimen_deities = by_dun``, the nodes 白虎 and 玄武); the readable reading and the reading
page show the chart's name."""

from __future__ import annotations

import leishen
from leishen.cli.read_cmds import render_reading
from leishen.engine.chart import ChartRequest
from leishen.service.book import reader
from leishen.viz.reading import reading_graph

YANG = "2024-06-01T10:00:00+08:00"  # 陽遁 (before 夏至)


def _reading(request=None, topic="出行"):
    return reader().read(leishen.chart(YANG, request=request), topic=topic)


def test_the_default_naming_has_no_other_names():
    chart = leishen.chart(YANG)
    assert chart["qimen"]["dun"] == "陽" and {"白虎", "玄武"} <= {c["deity"] for c in chart["qimen"]["palaces"].values()}
    assert _reading()["names"] == {}


def test_by_dun_names_the_deities_of_yang_dun_as_the_chart_does():
    by_dun = ChartRequest(qimen={"deities": "by_dun"})
    chart = leishen.chart(YANG, request=by_dun)
    assert {"勾陳", "朱雀"} <= {c["deity"] for c in chart["qimen"]["palaces"].values()}
    reading = _reading(by_dun)
    assert reading["names"] == {"Deity:bai_hu": "勾陳", "Deity:xuan_wu": "朱雀"}
    deity_hops = [f for f in reading["findings"] if f["system"] == "qimen"
                  and any(h.get("node", {}).get("id") == "Deity:xuan_wu" for h in f["path"])]
    assert deity_hops, "a Qimen finding passes the deity 玄武/朱雀"
    text = render_reading(reading, "zh")
    assert "[神] 朱雀" in text and "[神] 玄武" not in text
    label = reading_graph(reading).nodes["Deity:xuan_wu"]
    assert label["label"] == "朱雀" and "朱雀 (玄武)" in label["title"]
