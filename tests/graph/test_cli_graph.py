"""The graph commands, as a user runs them: JSON shapes, readable output, errors with exit code 2."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders.schema import ontology_dir


def run(*args, env=None):
    result = CliRunner().invoke(main, list(args), env=env)
    return result


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_stats_json_shape():
    out = run_json("stats")
    assert set(out) == {"nodes", "relations"}
    assert out["nodes"]["Branch"] == 12 and out["relations"]["CLASHES"] == 6


def test_build_prints_counts():
    out = run_json("build")
    assert out["backend"] == "networkx" and out["facts"] > 500 and out["nodes"] > 500


def test_symbol_json_lists_node_and_relations():
    out = run_json("symbol", "神后")
    (match,) = out["matches"]
    assert match["node"]["id"] == "Branch:zi" and match["node"]["ko"] == "자"
    clash = [r for r in match["relations"] if r["type"] == "CLASHES"]
    assert clash and clash[0]["zh"] == "沖" and clash[0]["other"]["name"] == "午" and clash[0]["src"] == ["000:51"]


def test_symbol_shared_name_lists_every_match():
    out = run_json("symbol", "六合")
    assert {m["node"]["label"] for m in out["matches"]} >= {"General", "Deity"}


def test_symbol_readable_table_in_korean():
    result = run("symbol", "子", "--lang", "ko")
    assert result.exit_code == 0 and "Branch 子" in result.output and "오" in result.output


def test_facts_export_shape():
    rows = run_json("facts", "--doc", "000")
    f = next(r for r in rows if r["relation"] == "CLASHES")
    assert set(f) >= {"relation", "zh", "subject", "object", "qualifiers", "src", "variant"}
    assert set(f["subject"]) == {"label", "key", "name"} and f["src"][0].startswith("000:")
    staged = next(r for r in rows if r["relation"] == "LIFE_STAGE")
    assert staged["qualifiers"]["stage"]["label"] == "LifeStage"


def test_facts_by_symbol():
    rows = run_json("facts", "--symbol", "Vigour:旺")
    def names(r):
        quals = [v["name"] for v in r["qualifiers"].values() if isinstance(v, dict)]
        return {r["subject"]["name"], r["object"]["name"], *quals}
    assert rows and all("旺" in names(r) for r in rows)


def test_path_json():
    out = run_json("path", "子", "午")
    assert out["length"] == 1 and out["path"]["types"] == ["CLASHES"]


def test_unknown_symbol_exit_2_with_close_matches():
    result = run("symbol", "神後")
    assert result.exit_code == 2 and "unknown symbol" in result.output and "神后" in result.output


def test_ambiguous_path_end_asks_for_a_label():
    result = run("path", "白虎", "子")
    assert result.exit_code == 2 and "Label:name" in result.output


@pytest.fixture()
def broken_ontology(tmp_path, corpus_dir):
    copy = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def write_fact(folder, row):
    path = folder / "facts" / "000" / "zz_test.csv"
    path.write_text("item,relation,subject,object,qualifiers,src,terms,variant,note\n" + row + "\n", encoding="utf-8")


@pytest.mark.parametrize("row,message", [
    (",CLASHES,Branch:子,Branch:丑x,,000:51,,,", "facts/000/zz_test.csv row 2 column object: unknown Branch '丑x'"),
    (",CLASHESS,Branch:子,Branch:午,,000:51,,,", "facts/000/zz_test.csv row 2 column relation: unknown relation type 'CLASHESS'"),
    (",CLASHES,Stem:甲,Branch:午,,000:51,,,", "facts/000/zz_test.csv row 2 column relation: CLASHES does not join Stem to Branch"),
    (",CLASHES,Branch:子,Branch:午,,000:5,,,", "facts/000/zz_test.csv row 2 column src: 000:5: line 5 of document 000 is not a Classical Chinese paragraph"),
    (",CLASHES,Branch:子,Branch:午,,000:19,,,", "facts/000/zz_test.csv row 2 column src: passage 000:19 does not contain"),
    (",CLASHES,Branch:子,Branch:午,,000/51,,,", "src must look like"),
    (",CLASHES,Branch:子,Branch:午,,000:51,,typoo,", "row 2 column variant: 'typoo' is not one of"),
])
def test_bad_fact_rows_are_named_by_file_and_row(broken_ontology, corpus_dir, row, message):
    write_fact(broken_ontology, row)
    result = run("build", env={"LEISHEN_ONTOLOGY": str(broken_ontology), "LEISHEN_CORPUS": str(corpus_dir)})
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_label_in_schema_endpoint(broken_ontology, corpus_dir):
    (broken_ontology / "schema" / "zz.toml").write_text(
        '[relations.ZZ]\nzh = "z"\nko = "z"\nen = "z"\nsubject = ["Nope"]\nobject = ["Branch"]\n', encoding="utf-8")
    result = run("stats", env={"LEISHEN_ONTOLOGY": str(broken_ontology), "LEISHEN_CORPUS": str(corpus_dir)})
    assert result.exit_code == 2 and "relation ZZ names unknown label 'Nope'" in result.output


HUBS = ("Polarity", "Element")


def _between(out):
    """The labels of a path's nodes between its ends."""
    return [n["label"] for n in out["path"]["nodes"][1:-1]]


def test_path_goes_around_the_hubs():
    """#31: 子 to 白虎 went 子 -HAS_POLARITY- 陽 -HAS_POLARITY- 白虎; a hub (陰陽, a phase) costs more."""
    out = run_json("path", "子", "General:白虎")
    assert out["length"] == 2 and not set(_between(out)) & set(HUBS) and "via_hubs" not in out
    # the standard tables' relations (申 -DEAD_BREATH-> 子, #29 item 7) cost more too: the seeds' own path is taken
    assert [n["name"] for n in out["path"]["nodes"]] == ["子", "庚", "白虎"]
    assert out["path"]["types"] == ["KIN_BRANCH", "HOME_STEM"]


def test_via_hubs_takes_the_plain_shortest_path():
    out = run_json("path", "子", "General:白虎", "--via-hubs")
    # (#29 item 7: the standard 死氣 table's 申 -DEAD_BREATH-> 子 is now the smallest two-hop path, hub or not;
    # before it, 子 -HAS_POLARITY- 陽 -HAS_POLARITY- 白虎)
    assert [n["name"] for n in out["path"]["nodes"]] == ["子", "申", "白虎"] and out["via_hubs"] is True
    assert out["types"] is None and out["path"]["types"] == ["DEAD_BREATH", "HOME_BRANCH"]
    text = run("path", "子", "General:白虎", "--via-hubs").output
    assert text.splitlines()[0] == "子 -[DEAD_BREATH]- 申 -[HOME_BRANCH]- 白虎"


def test_a_path_only_hubs_join_still_goes_through_them():
    """木物 has no relation but its phase, so every path from it passes a hub: it is still found."""
    out = run_json("path", "Thing:木物", "子")
    assert out["path"] is not None and set(_between(out)) & set(HUBS)
    assert out["length"] == run_json("path", "Thing:木物", "子", "--via-hubs")["length"]


def test_a_hub_may_be_an_end():
    out = run_json("path", "子", "Element:水")
    assert out["length"] == 1 and out["path"]["types"] == ["HAS_ELEMENT"]


def test_with_types_the_path_is_the_plain_one_over_them():
    out = run_json("path", "子", "General:白虎", "--type", "HAS_POLARITY")
    assert [n["name"] for n in out["path"]["nodes"]] == ["子", "陽", "白虎"] and out["types"] == ["HAS_POLARITY"]
