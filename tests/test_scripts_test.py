"""scripts/test says what it does to the machine and skips each step on its switch (LEISHEN_NO_PIP,
LEISHEN_NO_APT, LEISHEN_NO_CARGO), except under CI=true, where every step runs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SWITCHES = ("LEISHEN_NO_PIP", "LEISHEN_NO_APT", "LEISHEN_NO_CARGO")


def test_each_step_is_skipped_on_its_switch():
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {s: "1" for s in SWITCHES}
    done = subprocess.run(["bash", "scripts/test", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "tests/test_scripts_test.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [f"note: {s}=1: step skipped" for s in SWITCHES]
    assert "test_each_step_is_skipped_on_its_switch" in done.stdout


def test_under_ci_the_switches_are_ignored():
    """The switch function itself, sourced alone (running the steps would install packages)."""
    text = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    body = text[text.index("skip() {"):text.index("\n}\n", text.index("skip() {")) + 3]
    script = body + "\nif skip APT; then echo skipped; else echo runs; fi\n"
    for ci, want in (("true", "runs"), ("", "skipped")):
        done = subprocess.run(["bash", "-c", script], env={"PATH": os.environ["PATH"], "CI": ci, "LEISHEN_NO_APT": "1"},
                              capture_output=True, text=True, timeout=30)
        assert done.stdout.strip() == want, (ci, done.stdout, done.stderr)
    for name in SWITCHES:
        assert name in text and name in (ROOT / "README.md").read_text(encoding="utf-8")
