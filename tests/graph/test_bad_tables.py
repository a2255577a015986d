"""Damaged tables and a damaged corpus (issue #11, "Tables and corpus"): one line naming the file,
row and column (or byte offset), exit code 2, never a traceback; a damaged corpus blocks only the
commands that need the texts."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders.schema import ontology_dir

HEADER = "item,relation,subject,object,qualifiers,src,terms,variant,note\n"
GOOD = ",CLASHES,Branch:子,Branch:午,,000:51,,,\n"


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


@pytest.fixture()
def onto(tmp_path):
    copy = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def fails(onto, corpus_dir, first_line, *commands):
    """Every command exits 2 and the first line of its message is *first_line* (a prefix of it)."""
    env = {"LEISHEN_ONTOLOGY": str(onto), "LEISHEN_CORPUS": str(corpus_dir)}
    for command in commands or (["build"], ["stats"], ["symbol", "子"], ["check"], ["path", "子", "午"],
                                ["cypher", "MATCH (n:Branch) RETURN n.name LIMIT 1"]):
        result = run(*command, env=env)
        assert result.exit_code == 2, (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"error: {first_line}"), (command, result.stderr)
        assert "Traceback" not in result.output


def write(path, text: str | bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def test_non_utf8_byte_in_a_fact_table(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER.encode() + GOOD.encode() + b",CLASHES,Branch:\xff,Branch:\xe5,,000:51,,,\n")
    fails(onto, corpus_dir, "facts/000/zz.csv row 3: not UTF-8 (byte 0xff at byte offset")


def test_non_utf8_byte_in_a_glossary_and_an_entity_table(onto, corpus_dir):
    path = onto / "glossary/core.csv"
    write(path, path.read_bytes() + b"Concept,\xc3(,x,y,\n")
    fails(onto, corpus_dir, "glossary/core.csv row ")
    assert "not UTF-8" in run("stats", env={"LEISHEN_ONTOLOGY": str(onto)}).stderr


def test_a_directory_where_a_table_belongs(onto, corpus_dir):
    (onto / "facts/000/zz.csv").mkdir()
    fails(onto, corpus_dir, "facts/000/zz.csv: is a directory where a file belongs")


def test_a_directory_where_a_schema_file_belongs(onto, corpus_dir):
    (onto / "schema/zz.toml").mkdir()
    fails(onto, corpus_dir, "schema/zz.toml: is a directory where a file belongs")


def test_a_duplicated_column_name(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", "item,relation,subject,object,qualifiers,src,terms,variant,src\n" + GOOD)
    fails(onto, corpus_dir, "facts/000/zz.csv row 1 column 9: column 'src' appears twice (columns 6 and 9)")


def test_an_unbalanced_quote_names_its_row_and_the_lines_it_swallows(onto, corpus_dir):
    rows = [GOOD.replace("午", b) for b in "午"] + [',CLASHES,Branch:丑,Branch:未,,000:51,,,"opened here\n'] + \
        [GOOD.replace("子", "寅").replace("午", "申")] * 1 + [GOOD.replace("子", "卯").replace("午", "酉")]
    write(onto / "facts/000/zz.csv", HEADER + "".join(rows))
    fails(onto, corpus_dir, "facts/000/zz.csv row 3 column note: a quote opened here is not closed on its line; "
                            "it swallows lines 3–5")


@pytest.mark.parametrize("end", ["\n", ""], ids=["newline", "no-newline"])
def test_an_unbalanced_quote_in_the_last_row_is_refused(onto, corpus_dir, end):
    """#31 hostile 10: csv takes the end of the file as the end of an open quoted cell, so a quote opened in
    the last row neither spans lines nor stays in its cell; it is refused all the same."""
    write(onto / "facts/000/zz.csv", HEADER + GOOD + ',CLASHES,Branch:丑,Branch:未,,000:51,,,"never closed' + end)
    fails(onto, corpus_dir, "facts/000/zz.csv row 3 column note: a quote opened here is never closed "
                            "(the file ends inside it)")


def test_an_unbalanced_quote_in_the_last_row_of_an_entity_table(onto, corpus_dir):
    path = onto / "entities/branch.csv"
    text = path.read_text(encoding="utf-8")
    rows = text.count("\n") + (not text.endswith("\n"))
    head, _, last = text.rstrip("\n").rpartition(",")
    write(path, f'{head},"{last}\n')  # the last row's last cell opens a quote
    fails(onto, corpus_dir, f"entities/branch.csv row {rows} column ")
    assert "never closed" in run("stats", env={"LEISHEN_ONTOLOGY": str(onto)}).stderr


def test_a_quoted_last_cell_that_closes_is_read(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER + GOOD + ',CLASHES,Branch:丑,Branch:未,,000:51,,,"closed, here"\n')
    result = run("stats", env={"LEISHEN_ONTOLOGY": str(onto), "LEISHEN_CORPUS": str(corpus_dir)})
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("table, header", [
    ("facts/000/zz.csv", HEADER.rstrip("\n") + ",extra\n"),
    ("coverage/documents.csv", "doc,title,expected,extra\n"),
    ("coverage/missing_qm004.csv", "item,section,reason,extra\n"),
])
def test_an_unknown_extra_column_is_refused(onto, corpus_dir, table, header):
    """#31 hostile 10: a column no loader reads is refused with its file and row 1, in every kind of table."""
    path = onto / table
    rows = path.read_text(encoding="utf-8").splitlines(keepends=True)[1:] if path.exists() else [GOOD]
    write(path, header + "".join(r.rstrip("\n") + ",x\n" for r in rows))
    command = ["coverage"] if table.startswith("coverage") else ["build"]
    fails(onto, corpus_dir, f"{table} row 1: unknown column(s) extra", command)


def test_an_unknown_column_in_an_entity_table(onto, corpus_dir):
    path = onto / "entities/gate.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    write(path, lines[0].rstrip("\n") + ",extra\n" + "".join(r.rstrip("\n") + ",x\n" for r in lines[1:]))
    fails(onto, corpus_dir, "entities/gate.csv row 1: unknown column(s) extra")


def test_a_stray_quote(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER + ',CLASHES,Branch:子,Branch:午,,000:51,,,a "stray quote\n')
    fails(onto, corpus_dir, "facts/000/zz.csv row 2 column note: a stray quote")


def test_a_duplicated_row(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER + GOOD + GOOD)
    fails(onto, corpus_dir, "facts/000/zz.csv row 3: repeats row 2")


def test_too_many_cells(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER + GOOD.rstrip("\n") + ",extra\n")
    fails(onto, corpus_dir, "facts/000/zz.csv row 2: 10 cells but the header has 9 columns")


def test_a_header_only_fact_file(onto, corpus_dir):
    path = onto / "facts/000/changsheng.csv"
    write(path, path.read_text(encoding="utf-8").splitlines(keepends=True)[0])
    fails(onto, corpus_dir, "facts/000/changsheng.csv: a header and no rows")


def test_an_empty_fact_file(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", "")
    fails(onto, corpus_dir, "facts/000/zz.csv: empty file")


def test_order_must_be_a_whole_number(onto, corpus_dir):
    path = onto / "entities/branch.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = lines[2].rstrip("\n").split(",")
    cells[header.index("order")] = "x"
    lines[2] = ",".join(cells) + "\n"
    write(path, "".join(lines))
    fails(onto, corpus_dir, "entities/branch.csv row 3 column order: 'x' is not a whole number")


def test_an_empty_core_toml_is_blamed_on_itself(onto, corpus_dir):
    write(onto / "schema/core.toml", "")
    fails(onto, corpus_dir, "schema/core.toml: defines no labels and no relations")


def test_a_broken_coverage_table(onto, corpus_dir):
    write(onto / "coverage/documents.csv", b"doc,expected\n000,\xfe\n")
    fails(onto, corpus_dir, "coverage/documents.csv row 2: not UTF-8", ["coverage"])


def test_many_errors_start_with_the_first_one(onto, corpus_dir):
    write(onto / "facts/000/zz.csv", HEADER + ",CLASHESS,Branch:子,Branch:午,,000:51,,,\n,NOPE,Branch:子,Branch:午,,000:51,,,\n")
    fails(onto, corpus_dir, "facts/000/zz.csv row 2 column relation: unknown relation type 'CLASHESS'", ["build"])


# --- a damaged corpus -----------------------------------------------------------------------

@pytest.fixture()
def damaged_corpus(tmp_path, corpus_dir):
    copy = tmp_path / "seeds"
    shutil.copytree(corpus_dir, copy)
    path = next(copy.glob("003_*.txt"))
    raw = path.read_bytes()
    path.write_bytes(raw[:100] + b"\xff" + raw[100:])
    return copy, path


NEEDS_NO_TEXT = [["stats"], ["symbol", "子"], ["facts", "--doc", "000"], ["path", "子", "午"],
                 ["cypher", "MATCH (n:Branch) RETURN n.name LIMIT 1"]]
NEEDS_TEXT = [["build"], ["check"], ["coverage"]]


@pytest.mark.parametrize("command", NEEDS_NO_TEXT)
def test_a_damaged_corpus_does_not_block_what_needs_no_text(damaged_corpus, command):
    folder, _ = damaged_corpus
    result = run(*command, env={"LEISHEN_CORPUS": str(folder)})
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", NEEDS_TEXT)
def test_a_damaged_corpus_blocks_what_needs_the_texts_in_one_line(damaged_corpus, command):
    folder, path = damaged_corpus
    result = run(*command, env={"LEISHEN_CORPUS": str(folder)})
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: corpus file {path} is not UTF-8: byte 0xff at byte offset 100 (line ")


def test_a_damaged_corpus_file_blocks_only_its_own_passages(damaged_corpus):
    """Before: `passage 000:51` exited 2 naming the damaged 003 file. Now a text that cannot be decoded counts as
    missing: the other texts' passages answer with one warning, one of its own is one error saying why."""
    folder, path = damaged_corpus
    result = run("passage", "000:51", env={"LEISHEN_CORPUS": str(folder)})
    assert result.exit_code == 0, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"warning: corpus file {path} is not UTF-8: byte 0xff at byte offset 100 (line "), line
    result = run("passage", "003:5", env={"LEISHEN_CORPUS": str(folder)})
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: 003:5: corpus file {path} is not UTF-8") and "unreadable as a whole" in line


def test_a_directory_where_a_corpus_file_belongs(tmp_path, corpus_dir):
    copy = tmp_path / "seeds"
    shutil.copytree(corpus_dir, copy)
    path = next(copy.glob("002_*.txt"))
    path.unlink()
    path.mkdir()
    result = run("check", env={"LEISHEN_CORPUS": str(copy)})
    assert result.exit_code == 2 and "is a directory where a text file belongs" in result.stderr
    assert run("stats", env={"LEISHEN_CORPUS": str(copy)}).exit_code == 0
