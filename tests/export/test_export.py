"""``leishen export``: GraphML, JSON and CSV of the graph or a neighbourhood, read back with the same tools."""

from __future__ import annotations

import csv
import json

import networkx as nx
import pytest
from click.testing import CliRunner

from leishen.backends import export
from leishen.cli.main import main as cli


@pytest.fixture(scope="module")
def relations(nx_backend):
    return export.relation_graph(nx_backend.graph)


def run(*args):
    result = CliRunner().invoke(cli, ["export", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_relation_graph_has_every_fact_as_an_edge_with_its_citations(nx_backend, relations):
    facts = [n for n, a in nx_backend.graph.nodes(data=True) if a["label"] == "Fact"]
    assert relations.number_of_edges() == len(facts)
    assert not any(a["label"] in ("Fact", "Passage") for _, a in relations.nodes(data=True))
    assert all(d["src"] and d["fact"] for _, _, d in relations.edges(data=True))


def test_graphml_reads_back(tmp_path, relations):
    out = tmp_path / "lore.graphml"
    report = json.loads(run("--format", "graphml", "-o", str(out), "--json"))
    back = nx.read_graphml(out)
    assert report["nodes"] == back.number_of_nodes() == relations.number_of_nodes()
    assert back.number_of_edges() == relations.number_of_edges()
    assert back.nodes["Branch:zi"]["name"] == "子"
    assert back.nodes["Branch:zi"]["label"] == "子" and back.nodes["Branch:zi"]["type"] == "Branch"
    edge = next(d for _, v, d in back.out_edges("Branch:zi", data=True) if d["relation"] == "HAS_ELEMENT")
    assert edge["label"].startswith("HAS_ELEMENT ") and "type" not in edge
    assert edge["src"] and all(":" in s for s in edge["src"].split("|"))


def test_json_keeps_lists_and_maps(tmp_path, relations):
    out = tmp_path / "lore.json"
    run("--format", "json", "-o", str(out))
    back = nx.node_link_graph(json.loads(out.read_text(encoding="utf-8")), edges="edges")
    assert back.number_of_edges() == relations.number_of_edges()
    stages = [d for _, _, d in back.out_edges("Stem:jia", data=True) if d["relation"] == "LIFE_STAGE"]
    assert stages and all(isinstance(d["src"], list) and d["qualifiers"]["stage"].startswith("LifeStage:") for d in stages)


def test_graphml_nodes_show_their_name_as_label_and_their_type_apart(tmp_path, nx_backend):
    """Gephi and Cytoscape show a node's ``label``: it is the display name, the schema label is ``type``."""
    out = tmp_path / "lore.graphml"
    run("--format", "graphml", "-o", str(out))
    back = nx.read_graphml(out)
    stored = nx_backend.graph.nodes
    assert all(a["label"] in (stored[n]["name"], f"{stored[n]['name']} ({stored[n]['label']})",
                              f"{stored[n]['name']} ({stored[n]['label']} {stored[n]['key']})")
               and a["type"] == stored[n]["label"] for n, a in back.nodes(data=True))
    assert {a["type"] for _, a in back.nodes(data=True)} >= {"Branch", "Stem", "General", "Element"}
    assert len({a["label"] for _, a in back.nodes(data=True)}) == back.number_of_nodes()  # unique (#39)
    assert sum(a["label"] == stored[n]["name"] for n, a in back.nodes(data=True)) > back.number_of_nodes() // 2


def test_csv_nodes_show_their_name_as_label(tmp_path, nx_backend):
    folder = tmp_path / "all"
    run("--format", "csv", "-o", str(folder))
    nodes = list(csv.DictReader((folder / "nodes.csv").open(encoding="utf-8")))
    assert list(nodes[0])[:3] == ["id", "label", "type"]
    stored = nx_backend.graph.nodes
    assert all(r["label"].startswith(stored[r["id"]]["name"]) and r["type"] == stored[r["id"]]["label"]
               for r in nodes)
    assert len({r["label"] for r in nodes}) == len(nodes)
    zi = next(r for r in nodes if r["id"] == "Branch:zi")
    assert (zi["label"], zi["type"], zi["name"]) == ("子", "Branch", "子")


def test_csv_neighbourhood(tmp_path, nx_backend, relations):
    folder = tmp_path / "zi"
    run("--format", "csv", "-o", str(folder), "--symbol", "子", "--depth", "1")
    nodes = list(csv.DictReader((folder / "nodes.csv").open(encoding="utf-8")))
    edges = list(csv.DictReader((folder / "edges.csv").open(encoding="utf-8")))
    ids = {n["id"] for n in nodes}
    assert "Branch:zi" in ids and "Element:water" in ids and len(ids) < relations.number_of_nodes()
    assert all(e["source"] in ids and e["target"] in ids and e["src"] for e in edges)
    # Gephi's edge table: `type` is the edge kind (Directed/Undirected/Mixed), `label` what it shows
    assert {e["type"] for e in edges} == {"Directed"} and all(e["label"].startswith(e["relation"]) for e in edges)
    clash = next(e for e in edges if e["relation"] == "CLASHES")
    assert clash["label"] == "CLASHES 沖" and {clash["source_name"], clash["target_name"]} == {"子", "午"}
    want = export.neighbourhood(relations, *export.symbol_neighbourhood(nx_backend, ["Branch:zi"], 1))
    assert len(edges) == want.number_of_edges() and ids == set(want.nodes)


def _view_neighbourhood(backend, name, depth):
    """The nodes and facts ``leishen view NAME --depth N`` draws (never cut)."""
    from leishen.viz.symbol import symbol_graph

    page, _, cut = symbol_graph(backend, name, depth=depth, max_nodes=10**6)
    assert not cut
    return set(page.nodes), {part["fact"] for edge in page.edges.values() for part in edge.parts}


@pytest.mark.parametrize("name, depth", [("子", 1), ("長生", 1), ("長生", 2), ("General:白虎", 2)])
def test_export_and_view_show_the_same_neighbourhood(tmp_path, nx_backend, name, depth):
    """One definition: the exported nodes are the view's nodes and the exported edges its facts (the view
    merges parallel facts into one drawn edge and adds a dashed edge per qualifier role, so it draws fewer
    or more lines, never other facts)."""
    out = tmp_path / "n.graphml"
    report = json.loads(run("--format", "graphml", "-o", str(out), "--symbol", name, "--depth", str(depth), "--json"))
    back = nx.read_graphml(out)
    nodes, facts = _view_neighbourhood(nx_backend, name, depth)
    assert set(back.nodes) == nodes and report["nodes"] == len(nodes)
    assert sorted(d["fact"] for _, _, d in back.edges(data=True)) == sorted(facts)
    assert report["relations"] == len(facts)


def test_a_neighbourhood_reaches_the_facts_naming_the_symbol_as_a_qualifier(nx_backend, relations):
    """長生 is the qualifier of the 長生 facts (甲 長生 at 亥 …): its neighbourhood holds those facts' ends."""
    nodes, facts = export.symbol_neighbourhood(nx_backend, ["LifeStage:chang_sheng"], 1)
    sub = export.neighbourhood(relations, nodes, facts)
    pairs = {(u, v) for u, v, d in sub.edges(data=True) if d["relation"] == "LIFE_STAGE"}
    assert ("Stem:jia", "Branch:hai") in pairs
    assert all(d["qualifiers"].get("stage") == "LifeStage:chang_sheng" for u, v, d in sub.edges(data=True)
               if d["relation"] == "LIFE_STAGE")


def test_stdout_and_bad_input(relations):
    text = run("--format", "csv", "--symbol", "Branch:zi", "--depth", "0")
    assert list(csv.DictReader(text.splitlines())) == [] and text.startswith("source,target,type,relation,label,")
    graphml = nx.parse_graphml(run("--format", "graphml", "--symbol", "Branch:zi", "--depth", "0"))
    assert list(graphml.nodes) == ["Branch:zi"] and graphml.number_of_edges() == 0
    result = CliRunner().invoke(cli, ["export", "--format", "csv", "--symbol", "no-such-symbol-x"])
    assert result.exit_code == 2 and "no-such-symbol-x" in result.output
    result = CliRunner().invoke(cli, ["export", "--format", "xlsx"])
    assert result.exit_code == 2
    with pytest.raises(export.ExportError, match="--depth"):
        export.symbol_neighbourhood(None, ["Branch:zi"], -1)
