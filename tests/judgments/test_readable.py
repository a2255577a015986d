"""`leishen read` without --all (issue #28 item 7): the chart first, then per asked topic the verdict line, the
用神, each facet with its answer and citations, the 應期 and the conflicts — in the chosen language, one topic of a
typical chart within 60 lines."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from leishen.cli.main import main as cli
from leishen.cli.render_judged import kin_of, word

MOMENTS = ("2026-12-01T10:00+09:00", "2025-02-03T23:30+08:00", "2024-06-21T12:00+08:00",
           "1999-09-09T09:09+08:00", "2030-01-15T04:00+08:00")
TOPICS = ("射覆", "天時", "科試", "求財", "行人", "出行", "家宅", "疾病")


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_chart_comes_first_then_the_topic_judged():
    text = run("read", "2026-12-01T10:00+09:00", "--topic", "射覆", "--lang", "zh")
    lines = text.splitlines()
    assert lines[0].startswith("2026-12-01T10:00:00+09:00") and "丙午 己亥 己酉 己巳" in lines[0]
    # the four lessons read from the fourth to the first, as the board shows them; 己 lodges at 未: 課1 辰/己
    assert re.search(r"上神\s+卯\s+午\s+丑\s+辰", text) and re.search(r"下神\s+午\s+酉\s+辰\s+己", text)
    # the three transmissions with their general, kin to the day stem 己 and hidden stem; 卯 is void (寅卯)
    assert re.search(r"初傳\s+午\s+天空\s+印\s+丙", text) and re.search(r"中傳\s+卯\s+六合\s+鬼.*空", text)
    assert "元首" in text and "陰遁5局" in text and "值符 天禽" in text
    head = lines.index("== 射覆 ==")
    assert lines[head + 1].split()[1] == "判斷" or word("verdict", "zh") in lines[head + 1]
    assert any(line.startswith(f"{word('use_god', 'zh')}: ") for line in lines[head:])


@pytest.mark.parametrize("moment", MOMENTS)
def test_one_topic_fits_in_sixty_lines(moment):
    for topic in TOPICS:
        text = run("read", moment, "--topic", topic, "--lang", "en")
        assert len(text.splitlines()) <= 60, (moment, topic, len(text.splitlines()))


def test_an_undated_timing_rule_says_why_and_a_conflict_names_both_sides():
    text = run("read", "2026-12-01T10:00+09:00", "--topic", "求財", "--lang", "en")
    timing = next(line for line in text.splitlines() if line.startswith("timing: "))
    assert "no date" in timing and "財庫" in timing and "[004:31]" in timing and "None" not in timing
    conflict = next(line for line in text.splitlines() if line.startswith("conflicts "))
    assert "ill [004:23]" in conflict and "good [004:23]" in conflict
    assert "? verdict 未定" in text


def test_dated_timing_rules_show_the_date_and_its_day_pillar():
    text = run("read", "2026-12-01T10:00+09:00", "--topic", "天時", "--lang", "zh")
    timing = next(line for line in text.splitlines() if line.startswith("應期: "))
    # 003:55: rain on the day whose stem is the stem of 天柱's palace; the chart's day is 己酉 (12-01)
    assert re.search(r"2026-12-05 癸丑 \(雨 遲\) \[003:55\]", timing)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_english_scaffolding_in_zh_and_no_code_words(lang):
    text = run("read", "2026-12-01T10:00+09:00", "--topic", "出行", "--lang", lang)
    assert "None" not in text and "[]" not in text
    assert word("use_god", lang) in text and word("reasons", lang) in text


@pytest.mark.parametrize("day_stem, branch, kin", [("己", "午", "印"), ("己", "卯", "鬼"), ("己", "子", "財"),
                                                   ("己", "辰", "兄"), ("甲", "午", "子"), ("甲", "甲", "兄")])
def test_kin_of_a_branch_to_the_day_stem(day_stem, branch, kin):
    """000:27's five kin: 生我 印, 我生 子, 我剋 財, 剋我 鬼, 比和 兄."""
    assert kin_of(day_stem, branch) == kin
