"""Every README example runs, and prints the lines README shows, so README cannot go stale.

What is an example: in any section of README.md, a fenced block opened with ```text whose first line
starts with ``$ leishen``. Each ``$ leishen …`` line in it is one example: the command (split as a shell
would, quotes kept together) runs in-process through the ``leishen`` CLI with the default embedded
backend and corpus; the lines after it, up to the next ``$ `` line or the end of the block, are what it
shows (blank lines at the end of an example are dropped). ```bash blocks (install, serve, curl) are not run.

How shown lines are matched against the output (stdout, then stderr), in order:

1. A shown line equals the next output line once runs of white space count as one space (table column
   widths follow the values) and trailing space is dropped. No output line may be skipped silently.
2. A line that is just ``…`` stands for any number of output lines (zero or more) left out; the next
   shown line is looked for further down. Inside a line, ``…`` stands for any text (a machine's corpus
   folder, the rest of a long line). A shown line ending in ``…`` (``}, …``) also leaves out any lines
   after the one it matches, as a ``…`` line would.
3. A number with a decimal point (``0.369``, ``100.0%``) matches any number with a decimal point: times
   vary from run to run. Whole numbers (counts, lines, ids) must be exact.
4. The output may go on after the last shown line only when the last shown line is ``…`` or ends in it.
5. An example whose shown output begins with ``error:`` must exit with code 2; every other one with 0.

To refresh README after a deliberate change of output: ``python3 tests/test_readme.py`` prints every
example's real output, to be pasted (and trimmed with ``…``) into README.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
ELLIPSIS = "…"
DECIMAL = re.compile(r"\d+\.\d+")


@dataclass(frozen=True)
class Example:
    line: int  # README line of the ``$ leishen`` command
    args: tuple[str, ...]
    shown: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"README:{self.line} leishen {' '.join(self.args)}"[:90]


def _blocks(text: str):
    """(first line number, lines) of every ```text block."""
    lines, block, start = text.splitlines(), None, 0
    for number, line in enumerate(lines, 1):
        if block is None and line.strip() == "```text":
            block, start = [], number + 1
        elif block is not None and line.strip() == "```":
            yield start, block
            block = None
        elif block is not None:
            block.append(line)


def examples(text: str) -> list[Example]:
    """The ``$ leishen …`` examples of README *text* (see the module docstring)."""
    found = []
    for start, block in _blocks(text):
        if not block or not block[0].startswith("$ leishen"):
            continue
        commands = [i for i, line in enumerate(block) if line.startswith("$ ")]
        for i, j in zip(commands, commands[1:] + [len(block)]):
            shown = list(block[i + 1:j])
            while shown and not shown[-1].strip():
                shown.pop()
            args = shlex.split(block[i][2:])
            assert args[0] == "leishen", f"README:{start + i}: an example runs leishen, not {args[0]}"
            found.append(Example(start + i, tuple(args[1:]), tuple(shown)))
    return found


def _norm(line: str) -> str:
    return DECIMAL.sub("#.#", " ".join(line.split()))


def _fits(shown: str, actual: str) -> bool:
    """Rules 1, 2 (… inside a line) and 3 for one line."""
    pattern = ".*".join(re.escape(part.strip()) for part in _norm(shown).split(ELLIPSIS))
    return re.fullmatch(pattern, _norm(actual)) is not None


def mismatch(shown: list[str], actual: list[str]) -> str | None:
    """Why *actual* does not show the *shown* lines (None when it does), by the module docstring's rules."""
    at, skipping = 0, False
    for number, want in enumerate(shown, 1):
        if want.strip() == ELLIPSIS:
            skipping = True
            continue
        while skipping and at < len(actual) and not _fits(want, actual[at]):
            at += 1
        if at >= len(actual):
            return f"shown line {number} {want!r}: the output ended ({len(actual)} lines)"
        if not _fits(want, actual[at]):
            return f"shown line {number} {want!r} != output line {at + 1} {actual[at]!r}"
        at += 1
        skipping = want.rstrip().endswith(ELLIPSIS)
    if not skipping and at < len(actual):
        return f"the output goes on after the last shown line: {actual[at]!r} (end the example with …)"
    return None


def run(example: Example):
    """(exit code, stdout lines + stderr lines) of the example's command, in-process."""
    from click.testing import CliRunner

    from leishen.cli.main import main

    # a README table is shown as a pipe prints it (no width limit), whatever COLUMNS the worker inherited
    result = CliRunner().invoke(main, list(example.args), env={"COLUMNS": None})
    return result.exit_code, result.stdout.splitlines() + result.stderr.splitlines(), result


ALL = examples(README.read_text(encoding="utf-8"))


def test_readme_has_its_examples():
    """The parser finds the README's examples (a renamed fence would otherwise run nothing)."""
    commands = {e.args[0] for e in ALL}
    assert {"read", "build", "symbol", "path", "facts", "coverage", "chart", "find"} <= commands
    assert all(e.shown for e in ALL), [e.id for e in ALL if not e.shown]


@pytest.mark.parametrize("example", ALL, ids=lambda e: e.id)
def test_readme_example_shows_what_it_prints(example):
    code, actual, result = run(example)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    wanted_code = 2 if example.shown[0].startswith("error:") else 0
    assert code == wanted_code, f"{example.id}: exit {code}, README implies {wanted_code}\n" + "\n".join(actual[:20])
    why = mismatch(list(example.shown), actual)
    assert why is None, f"{example.id}: {why}"


@pytest.mark.parametrize("shown, actual, ok", [
    (["a  b", "c"], ["a b", "c"], True),
    (["a", "c"], ["a", "b", "c"], False),
    (["a", "…", "c"], ["a", "b", "b", "c"], True),
    (["a", "…", "c"], ["a", "c"], True),
    (["a", "…"], ["a", "b"], True),
    (["a"], ["a", "b"], False),
    (["[", " {", " }, …"], ["[", " {", " },", " {", " }", "]"], True),
    (["t  0.369"], ["t 0.3712"], True),
    (["n  6440"], ["n 6809"], False),
    (["citations  …"], ["citations /work/shared/seeds"], True),
    (["x …/seeds y"], ["x /a/b/seeds y"], True),
    (["x …/seeds y"], ["x /a/b/seeds z"], False),
    (["a …", "b"], ["a 1", "x", "b"], True),
    (["a", "…", "z"], ["a", "b"], False),
])
def test_the_matching_rules(shown, actual, ok):
    """The rules of the module docstring on small cases: each kind of difference is caught."""
    assert (mismatch(shown, actual) is None) is ok


def test_examples_are_read_from_any_section():
    text = "# x\n\n## Judgments\n\n```text\n$ leishen stats --json\n{\n…\n\n$ leishen symbol 'a b'\nerror: x\n```\n"
    found = examples(text)
    assert [(e.line, e.args, e.shown) for e in found] == [
        (6, ("stats", "--json"), ("{", "…")), (10, ("symbol", "a b"), ("error: x",))]


if __name__ == "__main__":  # python3 tests/test_readme.py: every example's real output, to refresh README
    for example in ALL:
        code, actual, _ = run(example)
        print(f"$ leishen {shlex.join(example.args)}    (README:{example.line}, exit {code})", *actual, "", sep="\n")
    sys.exit(0)
