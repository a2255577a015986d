"""Issue #31: the needs-judgment reasons in zh and ko (ontology/readings/judgment_notes.csv, service/notes.py).

Every reason a rule row gives (collected as ``leishen coverage --rules`` collects them) has a zh and a ko rendering,
and every row of the table is a reason some row still gives; a ko (and zh) ``read --all`` lists the reasons with no
English word; the reading JSON carries ``judgment_names`` on its needs-judgment findings and undated 應期 without
changing the reader's own findings; a bad row of the table is refused naming file, row and column.
"""

from __future__ import annotations

import csv
import re

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.errors import OntologyError
from leishen.service import lore
from leishen.service.notes import COLUMNS, NOTES_TABLE, judgment_names, judgment_note, read_notes

MOMENT = "2026-12-01T10:00+09:00"
UNDATED = "2026-12-03T22:00+09:00"  # 求財: a date its row cannot fix (the 財庫 undefined), so undated saying why
#: the reason judgments/timing.py gives an 應期 whose TIMES row names no computable place and carries none
TIMING_FALLBACK = "the text names no place the tables can compute"
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def _reasons() -> dict[str, str]:
    """Every needs-judgment reason of the rule tables → the first fact giving it (as `coverage --rules` lists)."""
    out: dict[str, str] = {}
    for doc in lore.rule_coverage()["documents"].values():
        for row in doc["needs_judgment"]:
            out.setdefault(row["judgment"], row["fact"])
    return out


@pytest.fixture(scope="module")
def reasons() -> dict[str, str]:
    return _reasons()


def test_every_reason_of_the_rule_tables_has_zh_and_ko(reasons):
    assert len(reasons) > 50  # the rule tables' reasons were found (98 distinct ones of 134 rows, 2026-12)
    missing = [f"{fact}: {text}" for text, fact in reasons.items()
               if not judgment_note(text, "zh") or not judgment_note(text, "ko")]
    assert not missing, "reasons with no row in ontology/readings/judgment_notes.csv:\n" + "\n".join(missing)


def test_every_row_is_a_live_reason(reasons):
    stale = [en for en in read_notes() if en not in reasons and en != TIMING_FALLBACK]
    assert not stale, "rows of judgment_notes.csv no rule gives any more (reworded? update or drop):\n" + \
        "\n".join(stale)


def test_renderings_are_short_and_in_their_language():
    for en, row in read_notes().items():
        assert len(row["zh"]) <= len(en) and len(row["ko"]) <= len(en), en
        assert not ENGLISH_WORD.search(row["zh"]) and not ENGLISH_WORD.search(row["ko"]), en
        assert re.search(r"[\u4e00-\u9fff]", row["zh"]), en


def test_en_is_the_text_and_a_bad_language_is_refused():
    text = next(iter(read_notes()))
    assert judgment_note(text, "en") == text
    assert judgment_note("not a reason any row gives", "ko") is None
    assert judgment_names(text)["en"] == text and judgment_names(text)["ko"] == read_notes()[text]["ko"]
    with pytest.raises(ValueError, match="lang: 'ja'"):
        judgment_note(text, "ja")


def test_a_patterns_joined_reasons_are_rendered_part_by_part():
    """A 格局's finding joins its rows' reasons with "; " (readings/findings.py); a reason may hold "; " itself."""
    notes = read_notes()
    inner = next(en for en in notes if "; " in en)
    plain = next(en for en in notes if "; " not in en)
    joined = f"{plain}; {inner}"
    assert judgment_note(joined, "ko") == f"{notes[plain]['ko']}; {notes[inner]['ko']}"
    assert judgment_note(joined, "zh") == f"{notes[plain]['zh']}；{notes[inner]['zh']}"
    assert judgment_note(f"{plain}; not a reason", "zh") is None


def _read_all(lang: str) -> str:
    out = CliRunner().invoke(main, ["read", MOMENT, "--topic", "*", "--lang", lang, "--all"])
    assert out.exit_code == 0, out.output
    return out.output


@pytest.mark.parametrize("lang,header", [("ko", "판단 필요"), ("zh", "待斷")])
def test_the_needs_judgment_list_has_no_english_word(lang, header):
    text = _read_all(lang)
    head = next(line for line in text.splitlines() if line.startswith(f"{header} ("))
    listed = text.split(head, 1)[1].strip().splitlines()
    assert int(head.split("(")[1].split(")")[0]) == len(listed) > 10
    assert head.rstrip().endswith(":")  # no pointer to --lang en: every reason is rendered
    words = {w for line in listed for w in ENGLISH_WORD.findall(line)}
    assert not words, f"English in the {lang} needs-judgment list: {sorted(words)}"


def test_the_judged_reading_gives_undated_timing_in_the_language():
    out = CliRunner().invoke(main, ["read", UNDATED, "--topic", "*", "--lang", "ko"])
    assert out.exit_code == 0, out.output
    undated = [line for line in out.output.splitlines() if line.startswith("응기:") and "날짜 미정" in line]
    assert undated and not any(ENGLISH_WORD.search(line) for line in undated)


def test_the_reading_json_carries_judgment_names():
    from leishen.service import readings as door
    reading = door.read(MOMENT, topic="*")
    judged = [f for f in reading["findings"] if f["certainty"] == "needs_judgment"]
    assert len(judged) == len(reading["needs_judgment"]) > 10
    for f in judged:
        names = f["judgment_names"]
        assert names["en"] == f["judgment"] and names["zh"] and names["ko"], f["id"]
    assert all("judgment_names" not in f for f in reading["findings"] if f["certainty"] == "holds")
    undated = [w for j in door.read(UNDATED, topic="*")["judgments"] for w in j["when"] if w.get("judgment")]
    assert undated and all(w["judgment_names"]["ko"] and w["judgment_names"]["en"] == w["judgment"]
                           for w in undated)
    # the fallback reason of a row with no place to date by is rendered too (#41: dated only once its event is
    # found, so a given moment may not show it)
    assert judgment_note(TIMING_FALLBACK, "ko") and judgment_note(TIMING_FALLBACK, "zh")
    raw = door.reader_for().read(_chart(), topic="*")
    assert not any("judgment_names" in f for f in raw["findings"])  # the reader's findings were copied


def _chart() -> dict:
    from leishen.engine.chart import ChartRequest
    from leishen.service.charts import chart_of
    return chart_of(MOMENT, ChartRequest())


def _table(tmp_path, rows: list[list[str]]):
    path = tmp_path / "judgment_notes.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([list(COLUMNS), *rows])
    return path


GOOD = ["有救: which rescuer counts is not said", "有救：何者為救，未言", "有救: 무엇을 구원으로 치는지 말하지 않음", "004:135"]


@pytest.mark.parametrize("row,message", [
    (GOOD[:2] + ["", GOOD[3]], "row 3 column ko: empty"),
    (GOOD[:3] + ["004-135"], "row 3 column src: '004-135' is not a citation"),
    ([GOOD[0], GOOD[2], GOOD[2], GOOD[3]], "row 3 column zh: "),
    ([GOOD[0], GOOD[1], GOOD[1], GOOD[3]], "row 3 column ko: "),
    ([GOOD[0], GOOD[1] + "。", GOOD[2], GOOD[3]], "row 3 column en: repeats the reason of row 2"),
])
def test_a_bad_row_is_refused_naming_file_row_and_column(tmp_path, row, message):
    path = _table(tmp_path, [GOOD, row])
    with pytest.raises(OntologyError) as exc:
        read_notes(path)
    assert message in str(exc.value) and "judgment_notes.csv" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_table_lacking_a_column_is_refused(tmp_path):
    path = tmp_path / "judgment_notes.csv"
    path.write_text("en,zh,src\na,b,004:1\n", encoding="utf-8")
    with pytest.raises(OntologyError, match="row 1: lacks column"):
        read_notes(path)


def test_the_shipped_table_reads():
    # (no fixed count: reasons leave the table as rules become structured, e.g. 4 with the standard tables, #29 item 7)
    notes = read_notes()
    assert NOTES_TABLE.is_file() and len(notes) > 50 and TIMING_FALLBACK in notes
