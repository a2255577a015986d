"""engine/options.csv, the one declaration of the chart's school options (issue #37 item 5): every row cites its
source and carries its labels, each choice names the school it follows, and a bad row is refused naming the file,
the row and the column. The engines' enumerations and option records are made from it."""

from __future__ import annotations

import csv
import pickle

import pytest

from leishen.engine.chart import ChartRequest
from leishen.engine.liuren.options import LiurenOptions, SheHaiRule
from leishen.engine.options import TABLE, QimenOptions, options, read_table
from leishen.errors import ChartError, OntologyError


def test_every_row_is_cited_and_labelled():
    for spec in options():
        assert spec.src and all(dict(spec.names).values()) and all(dict(spec.docs).values())
        assert spec.kind == "int" or spec.default in spec.values
        for choice in spec.choices:
            assert choice.src and choice.school and choice.doc and all(dict(choice.names).values())
    assert {spec.system for spec in options()} == {"liuren", "qimen", "ninestar"}


def test_the_records_are_made_from_the_table():
    assert LiurenOptions().to_dict() == {s.key: s.default for s in options() if s.system == "liuren"}
    assert ChartRequest().qimen.to_dict() == {s.key: s.default for s in options() if s.system == "qimen"}
    assert [m.value for m in SheHaiRule] == list(next(s for s in options() if s.name == "shehai").values)
    assert "《課經》" in SheHaiRule.__doc__  # the enumeration's doc names each choice's school
    assert pickle.loads(pickle.dumps(ChartRequest(qimen={"method": "zhi_run"}))) == ChartRequest(
        qimen=QimenOptions(method="zhi_run"))


@pytest.mark.parametrize(("mapping", "message"), [
    ({"method": "bogus"}, "qimen.options.method: 'bogus' is not one of chai_bu, zhi_run"),
    ({"leap_threshold": "15"}, "qimen.options.leap_threshold: '15' is not a whole number 1-14"),
    ({"leap_threshold": True}, "qimen.options.leap_threshold: True is not a whole number 1-14"),
    ({"colour": "red"}, "qimen.options.colour: unknown option; known: method, centre_host, deities, leap_threshold"),
])
def test_a_bad_option_is_refused_naming_it_and_its_choices(mapping, message):
    with pytest.raises(ChartError) as caught:
        ChartRequest(qimen=mapping)
    assert str(caught.value) == message


def _rows() -> list[dict]:
    with TABLE.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _write(path, rows):
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize(("row", "column", "value", "said"), [
    (1, "src", "", "row 3, column src: empty"),
    (0, "school", "", "row 2, column school"),  # an option row needs no school: its docs are checked instead
    (1, "school", "", "row 3, column school: empty"),
    (0, "system", "taiyi", "row 2, column system: 'taiyi' is not one of"),
    (0, "default", "sometimes", "option month_general, column default: 'sometimes' is not one of its choices"),
    (1, "option", "other", "row 3, column option: a choice of 'other' before its option row"),
    (0, "doc_ko", "", "row 2, column doc_ko: empty"),
])
def test_a_bad_row_is_refused_naming_file_row_and_column(tmp_path, row, column, value, said):
    rows = _rows()
    rows[row][column] = value
    path = _write(tmp_path / "options.csv", rows)
    if column == "school" and row == 0:
        assert read_table(path)  # nothing wrong
        return
    with pytest.raises(OntologyError) as caught:
        read_table(path)
    assert str(caught.value).startswith("options.csv") and said in str(caught.value)
