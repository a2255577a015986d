"""validate_qimen: a hand-typed chart is accepted when it is a real plate, else the error names the field."""

from __future__ import annotations

import copy
from datetime import datetime

import pytest

from leishen.engine.calendar import CHINA_STANDARD_TIME
from leishen.engine.qimen.chart import qimen_chart
from leishen.engine.qimen.validate import validate_qimen
from leishen.errors import ChartError


@pytest.fixture()
def chart() -> dict:
    """陽遁2局, 庚午 hour: 值符 天芮 on 巽4 carrying 天禽; a writable copy."""
    return copy.deepcopy(qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CHINA_STANDARD_TIME)))


def _book_copy(chart: dict) -> dict:
    """The same chart as a book prints it: short names, 天禽 in the centre, no hosted keys, no hour."""
    book = {"dun": "陽遁", "ju": "2", "xun_head": chart["xun_head"], "duty_star": "芮", "duty_gate": "死",
            "palaces": {}}
    short = {"門": ""}
    for key, palace in chart["palaces"].items():
        entry = {k: palace[k] for k in ("earth", "heaven", "star", "gate", "deity")}
        if entry["gate"]:
            entry["gate"] = entry["gate"].translate(str.maketrans(short))
        book["palaces"][key] = entry
    book["palaces"]["5"]["star"] = "天禽"
    return book


def test_computed_charts_validate_unchanged(chart):
    assert validate_qimen(chart) == chart


def test_a_book_copy_with_short_names_is_normalised(chart):
    checked = validate_qimen(_book_copy(chart))
    assert checked["dun"] == "陽" and checked["ju"] == 2 and checked["duty_star"] == "天芮"
    assert checked["palaces"]["4"]["gate"] == chart["palaces"]["4"]["gate"]


@pytest.mark.parametrize("mutate, message", [
    (lambda c: c["palaces"]["3"].update(star="天X"), r"^qimen\.palaces\.3\.star: '天X' is not a star$"),
    (lambda c: c["palaces"]["3"].update(star=c["palaces"]["1"]["star"]), r"^qimen\.palaces\.3\.star: '天沖' appears twice"),
    (lambda c: c["palaces"]["3"].update(gate="休門"), r"^qimen\.palaces\.(3|9)\.gate: '休門' appears twice"),
    (lambda c: (c["palaces"]["3"].update(gate=c["palaces"]["4"]["gate"]),
                c["palaces"]["4"].update(gate="驚門")), r"^qimen\.palaces\.3\.gate: '開門' breaks the turning of the gates"),
    (lambda c: c["palaces"]["1"].update(earth="丙"), r"^qimen\.palaces\.1\.earth: '丙', but 陽遁2局 puts '乙' there"),
    (lambda c: c["palaces"]["1"].update(heaven="丙"), r"^qimen\.palaces\.1\.heaven: '丙', but 天沖 carries '己'"),
    (lambda c: c["palaces"]["9"].update(deity="九地"), r"^qimen\.palaces\.9\.deity: '九地'.*clockwise in 陽遁"),
    (lambda c: c["palaces"]["9"].update(deity="青龍"), r"^qimen\.palaces\.9\.deity: '青龍' is not one of the eight deities$"),
    (lambda c: c["palaces"]["5"].update(gate="死門"), r"^qimen\.palaces\.5\.gate: the centre palace has no gate"),
    (lambda c: c["palaces"]["4"].pop("star_hosted"), r"天禽 must be placed exactly once"),
    (lambda c: c["palaces"]["4"].update(heaven_hosted="丙"), r"^qimen\.palaces\.4\.heaven_hosted: '丙'"),
    (lambda c: c["palaces"].pop("7"), r"^qimen\.palaces: expected palaces '1'\.\.'9'"),
    (lambda c: c["palaces"]["7"].update(colour="red"), r"^qimen\.palaces\.7: unknown field"),
    (lambda c: c.update(dun="中"), r"^qimen\.dun: '中' is not 陽 or 陰$"),
    (lambda c: c.update(ju=0), r"^qimen\.ju: 0 is not a 局 number"),
    (lambda c: c.update(duty_star="天蓬"), r"^qimen\.duty_star: '天蓬', but 甲子戊 sits in palace 2"),
    (lambda c: c.update(duty_gate="休門"), r"^qimen\.duty_gate: '休門', but the 值使 of 甲子戊 is '死門'"),
    (lambda c: c.update(xun_head="甲子己"), r"^qimen\.xun_head: '甲子己' is not a 旬首"),
    (lambda c: c.update(void=["子", "丑"]), r"^qimen\.void: "),
    (lambda c: c.update(hour_pillar="辛未"), r"^qimen\.palaces\.1\.star: '天沖', but 陽遁2局 at hour 辛未 puts '天蓬' there"),
    (lambda c: c.update(hour_pillar="甲丑"), r"^qimen\.hour_pillar: '甲丑' is not a stem-branch pair"),
    (lambda c: c.update(horse="寅"), r"^qimen\.horse: '寅', but the 驛馬 of 午 is '申'"),
])
def test_errors_name_the_field(chart, mutate, message):
    mutate(chart)
    with pytest.raises(ChartError, match=message):
        validate_qimen(chart)


def test_a_rotated_star_ring_that_is_not_rigid_is_refused(chart):
    p = chart["palaces"]
    p["1"]["star"], p["8"]["star"] = p["8"]["star"], p["1"]["star"]
    p["1"]["heaven"], p["8"]["heaven"] = p["8"]["heaven"], p["1"]["heaven"]
    with pytest.raises(ChartError, match=r"breaks the turning of the stars"):
        validate_qimen(chart)


def test_not_an_object():
    with pytest.raises(ChartError, match=r"^qimen: expected an object"):
        validate_qimen(["陽", 2])
