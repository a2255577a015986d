"""#40 item 5: a missing or damaged corpus is never silent — every command that shows passages or answers from
citations warns, ``check`` and ``coverage`` exit 2 — and a data table with an unknown column is refused naming
the file and the column."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders import corpus as corpus_module
from leishen.loaders.schema import ontology_dir

WARNING = [
    ["stats"],
    ["symbol", "子"],
    ["facts", "--doc", "000"],
    ["path", "子", "午"],
    ["passage", "002:151"],
    ["view", "子", "--depth", "1"],
    ["read", "2026-12-01T10:00+09:00", "--json"],
]


def invoke(args, **env):
    return CliRunner().invoke(main, args, env=env)


@pytest.fixture
def no_corpus(monkeypatch):
    """A machine with no ../shared/seeds beside the checkout and no LEISHEN_CORPUS."""
    monkeypatch.delenv("LEISHEN_CORPUS", raising=False)
    monkeypatch.setattr(corpus_module, "default_corpus_dir", lambda: None)


@pytest.mark.parametrize("args", WARNING, ids=" ".join)
def test_every_command_warns_without_a_corpus(no_corpus, args):
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert "warning: no corpus folder found" in result.stderr and "passages cannot be shown" in result.stderr


@pytest.mark.parametrize("command", ["check", "coverage"])
def test_check_and_coverage_exit_2_without_a_corpus(no_corpus, command):
    result = invoke([command])
    assert result.exit_code == 2 and "no corpus folder found" in result.stderr


@pytest.fixture
def incomplete(tmp_path, corpus_dir):
    """Copies of the corpus with the 002 text deleted, and with the 003 text emptied."""
    deleted, emptied = tmp_path / "deleted", tmp_path / "emptied"
    for folder in (deleted, emptied):
        shutil.copytree(corpus_dir, folder)
    next(deleted.glob("002_*.txt")).unlink()
    (text,) = emptied.glob("003_*.txt")
    text.write_bytes(b"")
    return {"deleted": (deleted, "has no text 002"), "emptied": (emptied, f"{text.name} holds no Classical Chinese")}


@pytest.mark.parametrize("damage", ["deleted", "emptied"])
@pytest.mark.parametrize("command", ["check", "coverage"])
def test_check_and_coverage_refuse_a_deleted_or_emptied_seed(incomplete, damage, command):
    folder, says = incomplete[damage]
    result = invoke([command], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2 and says in result.stderr, result.output


@pytest.mark.parametrize("damage", ["deleted", "emptied"])
def test_the_answering_commands_warn_on_a_deleted_or_emptied_seed(incomplete, damage):
    folder, says = incomplete[damage]
    result = invoke(["symbol", "子"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 0 and says in result.stderr and "NOT checked" in result.stderr


@pytest.mark.parametrize("table", ["readings/ko_hanja_names.csv", "readings/ui_words.csv",
                                   "coverage/extraction_known.csv", "entities/branch.csv", "glossary/core.csv"])
def test_an_unknown_column_is_refused_naming_file_and_column(tmp_path, table):
    onto = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), onto, ignore=shutil.ignore_patterns("__pycache__"))
    path = onto / table
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0] + ",colour", *(line + ",red" for line in lines[1:])]) + "\n",
                    encoding="utf-8")
    result = invoke(["stats"], LEISHEN_ONTOLOGY=str(onto), LEISHEN_NO_CACHE="1")
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    assert table in first and "colour" in first and "unknown column" in first, first


# --- #40 re-probe: a text cut short or edited, a LEISHEN_CORPUS naming no folder, passage on an incomplete corpus

@pytest.fixture(scope="module")
def altered(tmp_path_factory, corpus_dir):
    """Copies of the corpus with the 002 text cut to its first half (whole lines), and with one character of
    000:23 edited (甲乙日亥子 → 甲乙日亥丑): both read, lack no text and empty none, but their citations fail."""
    made = {}
    for kind in ("cut", "edited"):
        folder = tmp_path_factory.mktemp(kind) / "seeds"
        shutil.copytree(corpus_dir, folder)
        made[kind] = folder
    (cut,) = made["cut"].glob("002_*.txt")
    lines = cut.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:len(lines) // 2]))
    (edited,) = made["edited"].glob("000_*.txt")
    text = edited.read_text(encoding="utf-8")
    assert text.count("甲乙日亥子") == 1
    edited.write_text(text.replace("甲乙日亥子", "甲乙日亥丑"), encoding="utf-8")
    return {"cut": (made["cut"], cut), "edited": (made["edited"], edited)}


def _one_line(stream: str, prefix: str) -> str:
    """The one line of *stream* starting with *prefix* (there must be exactly one)."""
    lines = [line for line in stream.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, stream
    return lines[0]


@pytest.mark.parametrize("kind", ["cut", "edited"])
@pytest.mark.parametrize("command", ["coverage", "build"])
def test_coverage_and_build_refuse_citations_that_fail(altered, kind, command):
    """Before: `coverage` printed `citations: 3737 checked, 529 failed` and exited 0; `build` refused with 50
    lines. Now both exit 2 in one line naming the corpus file, as `check` refuses."""
    folder, text = altered[kind]
    result = invoke([command], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and str(text) in line and "not hold" in line, line
    assert "failed" not in result.stdout
    assert invoke(["check"], LEISHEN_CORPUS=str(folder)).exit_code == 2


@pytest.mark.parametrize("kind", ["cut", "edited"])
@pytest.mark.parametrize("args", [["stats"], ["symbol", "子"], ["passage", "000:51"]], ids=" ".join)
def test_the_answering_commands_warn_on_a_cut_or_edited_text(altered, kind, args):
    """Before: `stats` and `symbol 子` refused (exit 2) with the citation check's error. Now they answer, with one
    warning line naming the corpus file and keeping that error's file, row, column and passage."""
    folder, text = altered[kind]
    result = invoke(args, LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 0, result.output
    warning = _one_line(result.stderr, "warning:")
    first = ("facts/000/core.csv row 68 column terms: passage 000:23 does not contain 甲乙日亥子" if kind == "edited"
             else "is past the last Classical Chinese paragraph of corpus file")
    assert str(text) in warning and first in warning and "NOT checked" in warning, warning
    assert result.stdout.strip() and "error" not in result.stderr


def test_passage_of_a_line_a_cut_took_says_the_text_is_cut_short(altered):
    folder, text = altered["cut"]
    for given in (["--corpus", str(folder)], []):
        result = invoke(["passage", "002:151", *given], LEISHEN_CORPUS=str(folder))
        assert result.exit_code == 2
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("error: 002:151: ") and str(text) in line and "cut short" in line, line


@pytest.mark.parametrize("damage,args", [("deleted", ["passage", "000:23"]), ("emptied", ["passage", "002:151"]),
                                         ("deleted", ["passage", "000:23", "--json"])])
def test_passage_warns_on_a_deleted_or_emptied_seed(incomplete, damage, args):
    """Before: `passage 000:23` with 002 deleted, `passage 002:151` with 003 emptied printed no warning."""
    folder, says = incomplete[damage]
    for given in ([], ["--corpus", str(folder)]):
        result = invoke([*args, *given], LEISHEN_CORPUS=str(folder))
        assert result.exit_code == 0, result.output
        assert says in _one_line(result.stderr, "warning:") and result.stdout.strip()


def test_passage_in_an_emptied_text_says_it_is_emptied(incomplete):
    """Before: `passage 003:…` with 003 emptied said only `not a Classical Chinese paragraph`."""
    folder, says = incomplete["emptied"]
    (text,) = folder.glob("003_*.txt")
    result = invoke(["passage", "003:5"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: 003:5: ") and f"corpus file {text} holds no Classical Chinese paragraph" in line


def test_passage_of_a_sound_corpus_gives_no_warning(corpus_dir):
    result = invoke(["passage", "000:51"], LEISHEN_CORPUS=str(corpus_dir))
    assert result.exit_code == 0 and result.stderr == "", result.stderr


@pytest.mark.parametrize("args", [["stats"], ["symbol", "子"]], ids=" ".join)
def test_a_missing_corpus_folder_is_one_warning_and_an_answer(tmp_path, args):
    """Before: a warning implying the command goes on, then `error: corpus folder … does not exist`, exit 2."""
    gone = tmp_path / "no-such-seeds"
    result = invoke(args, LEISHEN_CORPUS=str(gone))
    assert result.exit_code == 0, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"warning: corpus folder {gone} (LEISHEN_CORPUS) does not exist") and result.stdout.strip()


@pytest.mark.parametrize("args", [["check"], ["coverage"], ["build"], ["passage", "000:51"]], ids=" ".join)
def test_a_missing_corpus_folder_stops_what_needs_the_texts_in_one_line(tmp_path, args):
    gone = tmp_path / "no-such-seeds"
    result = invoke(args, LEISHEN_CORPUS=str(gone))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: corpus folder {gone} (LEISHEN_CORPUS) does not exist"), line


# --- #40 re-probe 2: an unreadable text counts as a missing one; check lists every failure; serve and mcp

@pytest.fixture(scope="module")
def unreadable(tmp_path_factory, corpus_dir):
    """Copies of the corpus whose 002 text is a directory, a FIFO, a link to /dev/zero, larger than
    LEISHEN_CORPUS_MAX_BYTES (given as the env), or not UTF-8: {kind: (folder, the 002 file, env, what is said)}."""
    import os

    made = {}
    for kind in ("directory", "fifo", "zero", "big", "not-utf8"):
        folder = tmp_path_factory.mktemp(kind) / "seeds"
        shutil.copytree(corpus_dir, folder)
        (text,) = folder.glob("002_*.txt")
        env, says = {"LEISHEN_CORPUS": str(folder)}, {
            "directory": "is a directory where a text file belongs", "fifo": "is not a regular file",
            "zero": "is not a regular file", "big": "is larger than", "not-utf8": "is not UTF-8"}[kind]
        if kind in ("directory", "fifo", "zero"):
            text.unlink()
            text.mkdir() if kind == "directory" else os.mkfifo(text) if kind == "fifo" else text.symlink_to("/dev/zero")
        elif kind == "big":
            limit = max(p.stat().st_size for p in folder.glob("*.txt") if p != text) + 10
            text.write_bytes(text.read_bytes() + b"\n" * max(0, limit + 1 - text.stat().st_size))
            env["LEISHEN_CORPUS_MAX_BYTES"] = str(limit)
        else:
            raw = text.read_bytes()
            text.write_bytes(raw[:200] + b"\xff" + raw[200:])
        made[kind] = (folder, text, env, f"corpus file {text} {says}")
    return made


KINDS = ["directory", "fifo", "zero", "big", "not-utf8"]


@pytest.mark.parametrize("args", [["passage", "000:23"], ["passage", "000:23", "--json"], ["symbol", "子"],
                                  ["stats"]], ids=" ".join)
@pytest.mark.parametrize("kind", KINDS)
def test_an_unreadable_text_counts_as_a_missing_one(unreadable, kind, args):
    """Before: `passage 000:23` exited 2 naming the 002 file (a directory, a FIFO, /dev/zero, too big, not UTF-8)
    while a deleted 002 gave an answer and one warning. Now the same: one warning naming the file and why."""
    folder, text, env, says = unreadable[kind]
    result = invoke(args, **env)
    assert result.exit_code == 0, result.output
    warning = _one_line(result.stderr, "warning:")
    assert says in warning and "NOT checked" in warning, warning
    assert "error" not in result.stderr and result.stdout.strip()


@pytest.mark.parametrize("kind", KINDS)
def test_a_passage_of_an_unreadable_text_is_one_error_saying_why(unreadable, kind):
    folder, text, env, says = unreadable[kind]
    result = invoke(["passage", "002:151"], **env)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: 002:151: ") and says in line, line


@pytest.mark.parametrize("command", ["check", "coverage", "build"])
@pytest.mark.parametrize("kind", KINDS)
def test_what_needs_every_text_still_refuses_an_unreadable_one(unreadable, kind, command):
    folder, text, env, says = unreadable[kind]
    result = invoke([command], **env)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and says in line, line


def test_a_text_not_utf8_is_unreadable_as_a_whole(tmp_path, corpus_dir):
    """A bad byte at line 5 of 000: `passage 000:23` (a line before it or after) says the text cannot be decoded
    and so is unreadable as a whole; the other texts' passages are shown with the one warning."""
    folder = tmp_path / "seeds"
    shutil.copytree(corpus_dir, folder)
    (text,) = folder.glob("000_*.txt")
    lines = text.read_bytes().splitlines(keepends=True)
    text.write_bytes(b"".join(lines[:4]) + b"\xff" + b"".join(lines[4:]))
    result = invoke(["passage", "000:23"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: 000:23: corpus file {text} is not UTF-8: byte 0xff") and "(line 5)" in line
    assert "unreadable as a whole" in line, line
    result = invoke(["passage", "002:151"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 0 and str(text) in _one_line(result.stderr, "warning:")


def test_check_lists_every_citation_a_cut_text_fails(altered):
    """Before: 51 lines, the other failures dropped, while every warning says `leishen check names every
    problem`; the first line did not name the corpus file."""
    folder, text = altered["cut"]
    result = invoke(["check"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    first = lines[0]
    assert first.startswith("error: ") and str(text) in first and "not hold" in first, first
    failed = int(first.removeprefix("error: ").split()[0])
    assert failed > 100 and len(lines) == failed + 1, (failed, len(lines))
    assert lines[1] == f"(the other {failed - 1}:)" and all(line.startswith("  facts/") or line.startswith("  ")
                                                           for line in lines[2:])
    assert "more lines left out" not in result.stderr


def test_check_names_the_corpus_file_of_a_one_character_edit(altered):
    folder, text = altered["edited"]
    result = invoke(["check"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert str(text) in line and "facts/000/core.csv row 68 column terms: passage 000:23" in line, line


def _mcp(env):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "leishen.cli.main", "mcp"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, env={**os.environ, **env})


def test_mcp_warns_on_stderr_of_a_missing_corpus_folder(tmp_path):
    """Before: `leishen mcp` started without a word when the corpus was missing or damaged."""
    gone = tmp_path / "no-such-seeds"
    done = _mcp({"LEISHEN_CORPUS": str(gone)})
    assert done.returncode == 0 and done.stdout == "", done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"warning: corpus folder {gone} (LEISHEN_CORPUS) does not exist"), line


@pytest.mark.parametrize("kind", ["directory", "not-utf8"])
def test_mcp_warns_on_stderr_of_a_damaged_text(unreadable, kind):
    folder, text, env, says = unreadable[kind]
    done = _mcp(env)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("warning: ") and says in line, line


def test_mcp_of_a_sound_corpus_says_nothing(corpus_dir):
    done = _mcp({"LEISHEN_CORPUS": str(corpus_dir)})
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr


def test_serve_without_its_corpus_folder_names_no_corpus(tmp_path):
    """Before: `error: corpus folder … does not exist`, with no word of --no-corpus, which serves without it."""
    import os
    import subprocess
    import sys

    gone = tmp_path / "no-such-seeds"
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "serve", "--port", "1"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "LEISHEN_CORPUS": str(gone)})
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: corpus folder {gone} (LEISHEN_CORPUS) does not exist") and "--no-corpus" in line
