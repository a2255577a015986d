"""Issue #29 item 10: a path shows what decided it. Every condition a rule tests is in the finding's path or its
evidence, and the readable reading shows both: 002:159's colour 白 is 火 死 → 白, so the vigour 死 is shown beside
火 -colour-> 白."""

from __future__ import annotations

from click.testing import CliRunner

import leishen
from leishen.cli.main import main as cli

MOMENT = "2026-12-01T10:00+09:00"  # 初傳 午 (火) in a 亥 month: 火 is 死 in winter


def test_the_colour_finding_carries_its_vigour():
    reading = leishen.read(MOMENT, topic="射覆")
    white = next(f for f in reading["findings"] if f["src"] == ["002:159"] and f["meaning"]["zh"] == "白")
    walks = [white["path"], *white["evidence"]]
    names = [[(h.get("node") or {}).get("name") or h.get("rel") for h in w] for w in walks]
    assert names[0] == ["午", "HAS_ELEMENT", "火", "HAS_COLOUR", "白"]
    assert ["午", "VIGOUR", "死"] in names  # the condition vigour(初傳, 死) is a walk of its own


def test_the_readable_line_shows_every_condition():
    text = CliRunner().invoke(cli, ["read", MOMENT, "--topic", "射覆", "--lang", "en", "--all"]).output
    line = next(x for x in text.splitlines() if x.strip().startswith("· white"))
    path, vigour = line.split(" ＋ ")[:2]
    assert "-has the colour-> 白" in path and vigour.endswith("初傳 午 -has the vigour-> 死")
    assert line.endswith("[002:159]")
