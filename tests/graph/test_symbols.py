"""Alias resolution, shared names, and relations found from both ends."""

from __future__ import annotations

import pytest

from leishen.service.lore import resolve_symbol
from leishen.errors import UnknownSymbolError


def ids(backend, text):
    return [r["id"] for r in resolve_symbol(backend, text)]


@pytest.mark.parametrize("text", ["子", "神后", "Branch:子", "Branch:神后", "Branch:자", "Branch:rat"])
def test_every_name_of_zi_resolves_to_one_node(nx_backend, text):
    assert ids(nx_backend, text) == ["Branch:zi"]


@pytest.mark.parametrize("text", ["자", "Rat", "rat"])
def test_readings_of_zi_list_it_first_among_homophones(nx_backend, text):
    assert ids(nx_backend, text)[0] == "Branch:zi"


@pytest.mark.parametrize("text,node", [("元武", "General:xuan_wu"), ("玄琥", "General:xuan_wu"), ("蓬", "QimenStar:tian_peng"),
                                       ("天蓬", "QimenStar:tian_peng"), ("符", "Deity:zhi_fu"), ("值符", "Deity:zhi_fu"),
                                       ("登明", "Branch:hai"), ("貪狼", "FlyingStar:yi_bai")])
def test_aliases_resolve_to_the_same_node(nx_backend, text, node):
    assert node in ids(nx_backend, text)


@pytest.mark.parametrize("name", ["六合", "螣蛇", "太陰", "白虎", "玄武"])
def test_names_shared_by_generals_and_deities_are_distinct_nodes(nx_backend, name):
    found = ids(nx_backend, name)
    assert {i.split(":")[0] for i in found} >= {"General", "Deity"}
    assert len(found) == len(set(found)) >= 2


def test_variant_deity_names_list_both_systems(nx_backend):
    assert set(ids(nx_backend, "勾陳")) >= {"General:gou_chen", "Deity:bai_hu"}
    assert set(ids(nx_backend, "朱雀")) >= {"General:zhu_que", "Deity:xuan_wu"}


def test_tai_yi_names_a_month_general_and_a_star(nx_backend):
    assert set(ids(nx_backend, "太乙")) >= {"Branch:si", "FlyingStar:yi_bai"}
    assert ids(nx_backend, "FlyingStar:太乙") == ["FlyingStar:yi_bai"]


def test_label_prefix_picks_one(nx_backend):
    assert ids(nx_backend, "General:白虎") == ["General:bai_hu"]
    assert ids(nx_backend, "Deity:白虎") == ["Deity:bai_hu"]


def test_unknown_symbol_offers_close_matches(nx_backend):
    with pytest.raises(UnknownSymbolError) as exc:
        resolve_symbol(nx_backend, "神後")
    assert "unknown symbol '神後'" in str(exc.value) and "神后" in exc.value.matches


@pytest.mark.parametrize("relation", ["CLASHES", "COMBINES", "HARMS", "BREAKS"])
def test_symmetric_relations_are_found_from_both_ends(nx_backend, relation):
    pairs = {"CLASHES": ("子", "午"), "COMBINES": ("子", "丑"), "HARMS": ("子", "未"), "BREAKS": ("子", "酉")}
    a, b = (ids(nx_backend, x)[0] for x in pairs[relation])
    from_a = {(r["direction"], r["other"]["id"]) for r in nx_backend.run("symbol_relations", node_id=a) if r["type"] == relation}
    from_b = {(r["direction"], r["other"]["id"]) for r in nx_backend.run("symbol_relations", node_id=b) if r["type"] == relation}
    assert ("out", b) in from_a and ("in", a) in from_b


def test_symbol_relations_carry_src_and_zh(nx_backend):
    rows = nx_backend.run("symbol_relations", node_id="Branch:hai")
    self_punish = [r for r in rows if r["type"] == "PUNISHES" and r["other"]["id"] == "Branch:hai"]
    assert {r["variant"] for r in self_punish} == {None, "typo"}
    assert all(r["zh"] == "刑" and r["src"] == ["000:51"] for r in self_punish)


def test_qualifier_rows_reach_ternary_facts(nx_backend):
    rows = nx_backend.run("symbol_relations", node_id="LifeStage:di_wang")
    assert any(r["direction"] == "qualifier" and r["role"] == "stage" and r["other"]["id"] == "Stem:ding"
               and r["via"]["id"] == "Branch:si" for r in rows)


def test_shortest_path_is_typed_and_deterministic(nx_backend):
    (row,) = nx_backend.run("shortest_path", source="Branch:zi", target="Branch:wu")
    assert [n["id"] for n in row["nodes"]] == ["Branch:zi", "Branch:wu"] and row["types"] == ["CLASHES"]
    assert nx_backend.run("shortest_path", source="Branch:zi", target="Branch:zi")[0]["types"] == []


def test_relations_among_a_chart_set(nx_backend):
    rows = nx_backend.run("relations_among", node_ids=["Branch:zi", "Branch:wu", "Branch:mao"])
    got = {(r["type"], r["source"]["name"], r["target"]["name"]) for r in rows if r["type"] != "ALIAS_OF"}
    assert {("CLASHES", "子", "午"), ("PUNISHES", "子", "卯"), ("PUNISHES", "卯", "子"), ("BREAKS", "午", "卯"),
            ("PUNISHES", "午", "午")} <= got
