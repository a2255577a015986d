"""The graph pages: offline, drawn from the named queries, Fact/Passage nodes only when asked."""

from __future__ import annotations

import pytest

from leishen.errors import UnknownSymbolError
from leishen.loaders.corpus import load_corpus, parse_citation
from leishen.viz import reading_page, schema_page, symbol_page
from leishen.viz.readingtool import FIRST_MAX
from leishen.viz.style import CHART_HOP, POLARITY_COLOURS, SYSTEM_COLOURS
from pagedata import REMOTE, datasets, first_datasets, hop_id, node_ids, reading_node_ids


def assert_offline(page: str) -> None:
    assert REMOTE.search(page) is None
    assert "cdn.jsdelivr" not in page and "cdnjs.cloudflare" not in page
    assert "vis.Network(" in page  # vis-network is inlined, not fetched


def test_symbol_page_is_offline_and_has_the_neighbourhood(nx_backend):
    page = symbol_page(nx_backend, "子")
    assert_offline(page)
    rows = nx_backend.run("symbol_relations", node_id="Branch:zi")
    expected = {"Branch:zi"} | {r["other"]["id"] for r in rows} | {r["via"]["id"] for r in rows if r["via"]}
    assert node_ids(page) == expected
    nodes, edges = datasets(page)
    kinds = {(e["from"], e["to"], e["label"]) for e in edges}
    assert ("Branch:zi", "Element:water", "HAS_ELEMENT") in kinds
    assert not any(n.startswith(("Fact:", "Passage:")) for n in node_ids(page))


def test_symbol_page_merges_parallel_facts_and_cites_them(nx_backend, corpus_dir):
    rows = [r for r in nx_backend.run("symbol_relations", node_id="Branch:zi")
            if r["direction"] == "in" and r["type"] == "HOME_BRANCH" and r["other"]["id"] == "General:tian_hou"]
    assert len(rows) == 2  # 000:87 and 002:143 both say it
    _, edges = datasets(symbol_page(nx_backend, "子"))
    (edge,) = [e for e in edges if (e["from"], e["to"], e["label"]) == ("General:tian_hou", "Branch:zi", "HOME_BRANCH")]
    passage = load_corpus(corpus_dir).passage(parse_citation("000:87"))
    assert "000:87" in edge["title"] and "002:143" in edge["title"]
    assert passage[:20] in edge["title"]


def test_facts_and_passages_only_when_asked(nx_backend):
    rows = nx_backend.run("symbol_relations", node_id="General:tian_kong")
    ids = node_ids(symbol_page(nx_backend, "天空", show_facts=True))
    assert {i for i in ids if i.startswith("Fact:")} == {f"Fact:{r['fact']}" for r in rows}
    assert {i for i in ids if i.startswith("Passage:")} == {f"Passage:{s}" for r in rows for s in r["src"]}
    assert not any(i.startswith(("Fact:", "Passage:")) for i in node_ids(symbol_page(nx_backend, "天空")))


def test_qualifier_rows_draw_the_relation_they_qualify(nx_backend):
    rows = [r for r in nx_backend.run("symbol_relations", node_id="Topic:射覆") if r["direction"] == "qualifier"]
    assert rows
    _, edges = datasets(symbol_page(nx_backend, "Topic:射覆"))
    kinds = {(e["from"], e["to"], e["label"]) for e in edges}
    for r in rows:
        assert (r["other"]["id"], r["via"]["id"], r["type"]) in kinds
        assert ("Topic:射覆", r["other"]["id"], r["role"]) in kinds


def test_depth_two_reaches_further_and_stops_at_the_cap(nx_backend):
    one = node_ids(symbol_page(nx_backend, "子"))
    two = node_ids(symbol_page(nx_backend, "子", depth=2, max_nodes=250))
    assert one < two and len(two) <= 250
    assert "cut at 250 nodes" in symbol_page(nx_backend, "子", depth=2, max_nodes=250)


def test_unknown_symbol_names_close_matches(nx_backend):
    with pytest.raises(UnknownSymbolError, match="unknown symbol"):
        symbol_page(nx_backend, "no-such-symbol-xyz")


def test_schema_page_counts_every_label_and_relation(nx_backend):
    page = schema_page(nx_backend)
    assert_offline(page)
    stats = nx_backend.run("stats")[0]
    nodes, _ = datasets(page)
    by_id = {n["id"]: n for n in nodes}
    for label, count in stats["nodes"].items():
        assert by_id[f"label:{label}"]["label"].endswith(f" {count}")
    for rel, count in stats["relations"].items():
        assert by_id[f"rel:{rel}"]["label"].endswith(f" {count}")


def test_reading_page_draws_slots_paths_and_findings(reading):
    page = reading_page(reading)
    assert_offline(page)
    nodes, edges = datasets(page)
    by_id = {n["id"]: n for n in nodes}
    path_nodes = {h["node"]["id"] for f in reading["findings"] for h in f["path"] if "node" in h}
    slots = {f"slot:{f['system']}:{s}" for f in reading["findings"] for s in f["bindings"]}
    findings = {f"finding:{f['id']}" for f in reading["findings"]}
    assert set(by_id) == path_nodes | slots | findings == reading_node_ids(reading)
    for f in reading["findings"]:
        assert by_id[f"finding:{f['id']}"]["color"]["background"] == POLARITY_COLOURS[f["polarity"]]
        for slot in f["bindings"]:
            assert by_id[f"slot:{f['system']}:{slot}"]["color"] == SYSTEM_COLOURS[f["system"]]
    chart_hops = [e for e in edges if e["rel"] == "RIDDEN_BY"]
    assert chart_hops and all(e["dashes"] and e["color"] == CHART_HOP for e in chart_hops)
    cited = [e for e in edges if e["rel"] == "PLACEMENT_MEANS"]
    assert cited and all(e["color"] == POLARITY_COLOURS["凶"] for e in cited)
    assert all("level" in n for n in nodes)  # hierarchical layout: every node has its column


def test_reading_page_of_a_real_reading(chart, nx_backend):
    from leishen.service.book import read
    reading = read(chart, topic=None, backend=nx_backend)
    assert reading["findings"]
    page = reading_page(reading)
    assert_offline(page)
    nodes, edges = datasets(page)
    assert {n["id"] for n in nodes} == reading_node_ids(reading)
    # laid out in layers, physics off, whatever its size (#39: settled at once; at most FIRST_MAX drawn first)
    assert '"hierarchical": {"enabled": true' in page and '"physics": {"enabled": false}' in page
    first, _ = first_datasets(page)
    assert len(first) <= FIRST_MAX < len(nodes) or len(first) == len(nodes) <= FIRST_MAX
    drawn = {(e["from"], e["to"], e["rel"]) for e in edges}
    for f in reading["findings"]:
        hops = f["path"]
        for before, rel, after in zip(hops[0::2], hops[1::2], hops[2::2]):
            a, b = hop_id(before["node"]), hop_id(after["node"])
            assert ((a, b) if rel.get("forward", True) else (b, a)) + (rel["rel"],) in drawn


def test_a_name_of_two_symbols_centres_both(nx_backend):
    page = symbol_page(nx_backend, "六合")
    nodes, _ = datasets(page)
    centres = {n["id"] for n in nodes if n["size"] == 30}
    assert centres == {"Deity:liu_he", "General:liu_he"}
    assert "<title>Deity 六合 / General 六合</title>" in page
    assert {n["id"] for n in nodes} == node_ids(symbol_page(nx_backend, "Deity:六合")) | node_ids(symbol_page(nx_backend, "General:六合"))


def test_without_a_corpus_hovers_cite_only(nx_backend, corpus_dir):
    passage = load_corpus(corpus_dir).passage(parse_citation("000:87"))
    _, edges = datasets(symbol_page(nx_backend, "子", corpus=False))
    (edge,) = [e for e in edges if (e["from"], e["to"], e["label"]) == ("General:tian_hou", "Branch:zi", "HOME_BRANCH")]
    assert "000:87" in edge["title"] and passage[:20] not in edge["title"]


def test_a_qualifier_naming_a_node_shows_its_name_on_the_hover(nx_backend):
    """PLACEMENT_MEANS facts are qualified by nodes (on=Branch:zi, rides=General:xuan_wu): the hover names them."""
    import re
    _, edges = datasets(symbol_page(nx_backend, "子"))
    titles = " ".join(e["title"] for e in edges)
    assert "rides=" in titles and "on=" in titles
    assert not re.search(r"=(Branch|General|Stem|Topic|Vigour):", titles), re.findall(r"=\w+:\w+", titles)[:5]


def test_written_pages_have_a_viewport_meta_and_inline_vis_network(nx_backend):
    """A ``leishen view`` file opens offline on its own (vis-network inlined) and fits a phone's width."""
    from leishen.viz import schema_page
    from leishen.viz.assets import vis_text
    page = schema_page(nx_backend)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert vis_text() in page
