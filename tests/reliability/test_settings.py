"""#40 item 3: every LEISHEN_* setting parsed in one place; a bad value exits 2 naming the variable (never a
traceback), a server refuses to start on one, and corpus files are read only when regular and not too large."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from leishen import settings
from leishen.api.settings import Settings
from leishen.cli.main import main
from leishen.errors import SettingError
from leishen.loaders.corpus import CorpusError, read_limited

BAD = [
    ("LEISHEN_ONTOLOGY", "/nonexistent-leishen-ontology", "not an existing folder"),
    ("LEISHEN_ONTOLOGY", "/etc/passwd", "not a folder"),
    ("LEISHEN_ONTOLOGY", "/dev/zero", "not a folder"),
    ("LEISHEN_CORPUS", "/dev/zero", "not a folder (a device)"),
    ("LEISHEN_CORPUS", "/etc/passwd", "not a folder (a file)"),
    ("LEISHEN_CACHE_DIR", "/etc/passwd/cache", "not a folder: /etc/passwd is a file"),
    ("LEISHEN_CYPHER_MAX_IN_FLIGHT", "²", "not a whole number"),
    ("LEISHEN_CYPHER_MAX_IN_FLIGHT", "0", "from 1 to"),
    ("LEISHEN_MAX_IN_FLIGHT", "-3", "from 1 to"),
    ("LEISHEN_NEO4J_START_TIMEOUT", "abc", "not a number"),
    ("LEISHEN_NEO4J_START_TIMEOUT", "１２", "not a number"),  # full-width digits: float() would take them
    ("LEISHEN_API_MAX_INFLIGHT", "3", "not a setting of leishen serve (did you mean LEISHEN_API_MAX_IN_FLIGHT?)"),
    ("LEISHEN_NEO4J_START_TIMEOUT", "inf", "from 1 to"),
    ("LEISHEN_NO_CACHE", "maybe", "not a switch"),
    ("LEISHEN_CORPUS_MAX_BYTES", "1e3", "not a whole number"),
    ("LEISHEN_API_MAX_BODY", "xx", "not a whole number"),
    ("LEISHEN_API_BACKEND", "sqlite", "not one of networkx, neo4j"),
    ("LEISHEN_API_CYPHER_TIMEOUT", "nan", "from 0.01 to"),
    ("LEISHEN_API_COMPUTE_PROCESSES", "two", "not a whole number"),
    ("LEISHEN_API_COMPUTE_PROCESSES", "-1", "from 0 to 256"),
]


@pytest.mark.parametrize(("name", "value", "says"), BAD, ids=[f"{n}={v}" for n, v, _ in BAD])
def test_a_bad_value_exits_2_naming_the_variable(name, value, says):
    result = CliRunner().invoke(main, ["stats"], env={name: value})
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    line = result.output.strip()
    assert line.startswith(f"error: {name}=") and says in line and "\n" not in line, line


def test_the_installed_command_gives_no_traceback():
    """The console script itself (a new process): one line, exit 2, for each case the issue names."""
    for name, value in [("LEISHEN_ONTOLOGY", "/dev/zero"), ("LEISHEN_CYPHER_MAX_IN_FLIGHT", "²"),
                        ("LEISHEN_NEO4J_START_TIMEOUT", "abc")]:
        done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "neo4j", "status"], capture_output=True,
                              text=True, timeout=60, env={**os.environ, name: value})
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert name in done.stderr


@pytest.mark.parametrize("damage", ["empty", "table-missing", "table-fifo", "folder-missing"])
def test_an_ontology_folder_lacking_a_table_exits_2_naming_it(tmp_path, damage):
    """Before: an empty folder in LEISHEN_ONTOLOGY gave a FileNotFoundError traceback from a loader."""
    from leishen.loaders.schema import ontology_dir

    folder = tmp_path / "ontology"
    if damage == "empty":
        folder.mkdir()
    else:
        shutil.copytree(ontology_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    table = folder / "rules" / "vocabulary.toml"
    if damage != "empty":
        table.unlink()
    if damage == "table-fifo":
        os.mkfifo(table)
    if damage == "folder-missing":
        table.write_bytes((ontology_dir() / "rules" / "vocabulary.toml").read_bytes())
        shutil.rmtree(folder / "entities")
    from leishen.loaders.schema import installed_tables
    every = len(installed_tables(ontology_dir()))
    lacks = {"empty": f"and {every - 3} more (", "folder-missing": "lacks entities/"}.get(
        damage, "lacks rules/vocabulary.toml (")
    for command in (["stats"], ["read", "2026-03-01T10:00+08:00", "--topic", "出行"]):
        done = subprocess.run([sys.executable, "-m", "leishen.cli.main", *command], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "LEISHEN_ONTOLOGY": str(folder), "LEISHEN_NO_CACHE": "1"})
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith(f"error: LEISHEN_ONTOLOGY='{folder}': not an ontology folder"), done.stderr
        assert lacks in done.stderr and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("damage", ["dev-zero", "fifo", "garbage", "deleted"])
def test_a_damaged_table_of_an_ontology_copy_is_one_line_naming_it(tmp_path, damage):
    """Before: a facts table linked to /dev/zero read until the OOM killer came (23 GB); a FIFO hung every
    command; binary garbage in rules/vocabulary.toml was a UnicodeDecodeError traceback; a deleted facts table
    turned a 凶 into a 吉 without a word."""
    from leishen.loaders.schema import ontology_dir

    folder = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    table = folder / ("rules/vocabulary.toml" if damage == "garbage" else "facts/000/zz_extra.csv")
    if damage == "garbage":
        table.write_bytes(bytes(range(128, 256)) * 8)
    elif damage == "dev-zero":
        table.symlink_to("/dev/zero")
    elif damage == "fifo":
        os.mkfifo(table)
    else:
        table = folder / "facts" / "000" / "core.csv"
        table.unlink()
    says = {"garbage": "rules/vocabulary.toml row 1: not UTF-8", "deleted": "lacks facts/000/core.csv"}.get(
        damage, "facts/000/zz_extra.csv: is not a regular file (a FIFO, socket or device); it is not read")
    for command in (["stats"], ["read", "2026-03-01T10:00+08:00", "--topic", "出行"]):
        done = subprocess.run([sys.executable, "-m", "leishen.cli.main", *command], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "LEISHEN_ONTOLOGY": str(folder), "LEISHEN_NO_CACHE": "1"})
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith("error: ") and says in done.stderr, done.stderr[-2000:]


def test_the_judgment_and_word_tables_are_read_from_the_ontology_in_use(tmp_path):
    """Before: judgments/*.csv, readings/ui_words.csv and judgment_notes.csv were read from the installed folder
    whatever LEISHEN_ONTOLOGY said."""
    from leishen.loaders.schema import ontology_dir

    folder = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    for table in ("judgments/procedures.csv", "readings/ui_words.csv"):
        (folder / table).write_bytes(b"\xff\xfe garbage\n")
        done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "read", "2026-03-01T10:00+08:00",
                               "--topic", "出行"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "LEISHEN_ONTOLOGY": str(folder), "LEISHEN_NO_CACHE": "1"})
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith("error: ") and f"{table} row 1: not UTF-8" in done.stderr, done.stderr
        (folder / table).write_bytes((ontology_dir() / table).read_bytes())


@pytest.mark.parametrize(("content", "says"), [
    (b"just,garbage\n1,2\n", "judgments/procedures.csv row 1: lacks column(s) topic"),
    (b"", "judgments/procedures.csv: empty file"),
    (b"topic,facet,tier,role,items,src,note\n", "judgments/procedures.csv: a header and no rows"),
], ids=["garbage-header", "empty", "header-only"])
def test_a_judgment_table_with_a_wrong_header_or_no_rows_is_refused(tmp_path, content, says):
    """Before: a garbage header was a KeyError traceback from judgments/procedures.py, and an emptied table
    silently turned 出行's 凶 into 未定; `check` passed both."""
    from leishen.loaders.schema import ontology_dir

    folder = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "judgments" / "procedures.csv").write_bytes(content)
    env = {**os.environ, "LEISHEN_ONTOLOGY": str(folder), "LEISHEN_NO_CACHE": "1"}
    for command in (["read", "2026-03-01T10:00+08:00", "--topic", "出行"], ["check"]):
        done = subprocess.run([sys.executable, "-m", "leishen.cli.main", *command], capture_output=True, text=True,
                              timeout=120, env=env)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith(f"error: {says}") and done.stderr.count("\n") == 1, done.stderr


def test_good_values_parse_to_their_kinds():
    env = {"LEISHEN_NO_CACHE": "Yes", "LEISHEN_MAX_IN_FLIGHT": " 7 ", "LEISHEN_NEO4J_START_TIMEOUT": "2.5",
           "LEISHEN_CORPUS": "~/seeds", "LEISHEN_NO_READING_CACHE": ""}
    assert settings.get("LEISHEN_NO_CACHE", env) is True
    assert settings.max_in_flight(env) == 7
    assert settings.get("LEISHEN_NEO4J_START_TIMEOUT", env) == 2.5
    assert str(settings.get("LEISHEN_CORPUS", env)).endswith("/seeds") and "~" not in str(settings.get("LEISHEN_CORPUS", env))
    assert settings.get("LEISHEN_NO_READING_CACHE", env) is False  # blank is the default
    assert settings.max_in_flight({}) >= 2
    settings.check_all(env)


def test_every_leishen_variable_the_package_names_is_declared():
    """Every ``"LEISHEN_…"`` name in the package's sources is a setting of leishen.settings, and none is read
    with os.environ.get / getenv outside it (the CLI's --no-cache saves and restores its switch only)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    declared = {s.name for s in settings.SETTINGS} | {"LEISHEN_API_", "LEISHEN_NEO4J_READY "}
    named = set()
    for folder in ("leishen", "loaders", "backends", "service", "readings", "judgments", "queries", "engine",
                   "cli", "neo4jserver", "viz", "api", "mcpserver"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            named |= set(re.findall(r'"(LEISHEN_[A-Z0-9_ ]*)"', text))
            readers = re.findall(r'(?:environ\.get|getenv)\("LEISHEN_[A-Z_]+"\)', text)
            assert readers in ([], ['environ.get("LEISHEN_NO_CACHE")']) and (not readers or path.name == "main.py"), path
    assert named <= declared, named - declared
    assert {"LEISHEN_CORPUS", "LEISHEN_ONTOLOGY", "LEISHEN_CACHE_DIR", "LEISHEN_NO_CACHE",
            "LEISHEN_CYPHER_MAX_IN_FLIGHT", "LEISHEN_NEO4J_START_TIMEOUT", "LEISHEN_MAX_IN_FLIGHT"} <= declared


def test_the_api_settings_refuse_a_bad_value_and_round_trip():
    with pytest.raises(SettingError, match="LEISHEN_API_MAX_ROWS='0'"):
        Settings.from_env({"LEISHEN_API_MAX_ROWS": "0"})
    given = Settings.from_env({"LEISHEN_API_MAX_ROWS": "10", "LEISHEN_API_USE_CORPUS": "false",
                               "LEISHEN_API_MAX_IN_FLIGHT": "3", "LEISHEN_API_COMPUTE_PROCESSES": "0"})
    assert (given.max_rows, given.use_corpus, given.max_in_flight, given.compute_processes) == (10, False, 3, 0)
    assert Settings.from_env(given.to_env()) == given
    assert Settings.from_env({}).compute_processes is None  # leishen serve: one worker process per slot


def test_the_server_factory_refuses_to_start(monkeypatch):
    """uvicorn's factory (each worker of ``leishen serve``) raises SettingError: the worker does not start."""
    from leishen.api.app import app_from_env
    monkeypatch.setenv("LEISHEN_API_FIND_TIMEOUT", "soon")
    with pytest.raises(SettingError, match="LEISHEN_API_FIND_TIMEOUT"):
        app_from_env()


def test_serve_refuses_to_start_on_a_bad_value():
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "serve", "--port", "1"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LEISHEN_MAX_IN_FLIGHT": "many"})
    assert done.returncode == 2 and "LEISHEN_MAX_IN_FLIGHT='many'" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def hostile_corpus(tmp_path, corpus_dir):
    """Copies of the corpus whose 002 text is a FIFO, a link to /dev/zero, or too large."""
    made = {}
    for kind in ("fifo", "zero", "big"):
        folder = tmp_path / kind
        shutil.copytree(corpus_dir, folder)
        (text,) = folder.glob("002_*.txt")
        if kind != "big":
            text.unlink()
            os.mkfifo(text) if kind == "fifo" else text.symlink_to("/dev/zero")
        made[kind] = (folder, text)
    return made


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_device_in_the_corpus_never_hangs(hostile_corpus, kind):
    folder, text = hostile_corpus[kind]
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", "stats"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "LEISHEN_CORPUS": str(folder), "LEISHEN_NO_CACHE": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert f"corpus file {text} is not a regular file" in done.stderr
    check = CliRunner().invoke(main, ["check"], env={"LEISHEN_CORPUS": str(folder)})
    assert check.exit_code == 2 and "not a regular file" in check.output


def test_a_corpus_text_past_the_size_limit_is_refused(hostile_corpus):
    folder, text = hostile_corpus["big"]
    with pytest.raises(CorpusError, match="larger than 1,000 bytes .raise LEISHEN_CORPUS_MAX_BYTES"):
        read_limited(text, 1_000, "LEISHEN_CORPUS_MAX_BYTES")
    assert read_limited(text, 100_000_000, "LEISHEN_CORPUS_MAX_BYTES") == text.read_bytes()
    result = CliRunner().invoke(main, ["check"], env={"LEISHEN_CORPUS": str(folder),
                                                      "LEISHEN_CORPUS_MAX_BYTES": "1000"})
    assert result.exit_code == 2 and "LEISHEN_CORPUS_MAX_BYTES" in result.output


def test_the_readme_lists_every_setting():
    """The README's settings table is leishen.settings.markdown_table(), whole."""
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert settings.markdown_table() in readme


# --- the "dir or new" kind: a folder, or a path not there yet under a folder (#40 re-probe items 5 and 6) -------

FOLDERS = ["LEISHEN_CORPUS", "LEISHEN_NEO4J_RUN", "LEISHEN_NEO4J_HOME", "LEISHEN_CACHE_DIR", "LEISHEN_SCREENSHOTS"]


@pytest.fixture
def not_folders(tmp_path):
    """Paths that are no folder and can never be made one: a device, a FIFO, a file, a path under a file."""
    fifo, plain = tmp_path / "fifo", tmp_path / "plain.txt"
    os.mkfifo(fifo)
    plain.write_text("not a folder")
    return {"device": ("/dev/zero", "not a folder (a device)"), "fifo": (str(fifo), "not a folder (a FIFO)"),
            "file": (str(plain), "not a folder (a file)"),
            "under-a-file": (str(plain / "run"), f"not a folder: {plain} is a file")}


@pytest.mark.parametrize("name", FOLDERS)
def test_a_folder_setting_is_a_folder_or_a_new_path(tmp_path, name):
    setting = settings.BY_NAME[name]
    assert setting.kind == "dir or new"
    assert settings.get(name, {name: str(tmp_path)}) == tmp_path
    assert settings.get(name, {name: str(tmp_path / "new" / "deeper")}) == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # parsing makes nothing


@pytest.mark.parametrize("command", ["start", "status", "stop"])
@pytest.mark.parametrize("name", ["LEISHEN_NEO4J_RUN", "LEISHEN_NEO4J_HOME"])
def test_neo4j_refuses_a_run_or_home_that_is_no_folder(not_folders, name, command):
    """Before: `leishen neo4j start` gave a FileExistsError traceback (exit 1). Refused before anything starts."""
    for value, says in not_folders.values():
        result = CliRunner().invoke(main, ["neo4j", command], env={name: value})
        assert result.exit_code == 2, (value, result.output)
        assert result.output == f"error: {name}={value!r}: {says}\n", result.output


@pytest.mark.parametrize("name", FOLDERS)
def test_every_folder_setting_that_is_no_folder_exits_2_naming_it(not_folders, name):
    """A command needing none of these folders is refused too: the value is not of its kind (a FIFO LEISHEN_CORPUS
    used to be reported as a folder that 'does not exist')."""
    for value, says in not_folders.values():
        result = CliRunner().invoke(main, ["stats"], env={name: value})
        assert result.exit_code == 2 and result.output == f"error: {name}={value!r}: {says}\n", result.output


def test_a_corpus_option_that_is_no_folder_says_so(not_folders):
    """``--corpus /dev/zero`` (a device: click lets it through) was reported as 'does not exist'."""
    result = CliRunner().invoke(main, ["passage", "000:51", "--corpus", "/dev/zero"])
    assert result.exit_code == 2 and result.stderr.startswith("error: corpus folder /dev/zero is not a folder"), \
        result.output
