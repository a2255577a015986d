"""``leishen export --format gexf`` (issue #39): networkx's GEXF writer, read back by networkx with the node and
edge counts of the GraphML export; every node label unique (its type in brackets where names repeat), in zh,
ko and en; the fact's topic, system and citation as edge attributes of their own (what Gephi filters by)."""

from __future__ import annotations

import json
from collections import Counter

import networkx as nx
from click.testing import CliRunner

from leishen.cli.main import main as cli


def run(*args) -> dict:
    result = CliRunner().invoke(cli, ["export", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_gexf_reads_back_with_the_counts_of_graphml(tmp_path):
    gexf, graphml = tmp_path / "lore.gexf", tmp_path / "lore.graphml"
    run("--format", "gexf", "-o", str(gexf))
    run("--format", "graphml", "-o", str(graphml))
    back, other = nx.read_gexf(gexf), nx.read_graphml(graphml)
    assert back.number_of_nodes() == other.number_of_nodes() > 2000
    assert back.number_of_edges() == other.number_of_edges() > 4000
    assert set(back) == set(other)
    for field in ("label", "label_ko", "label_en"):
        labels = Counter(a[field] for _, a in back.nodes(data=True))
        assert [label for label, n in labels.items() if n > 1] == [], field
    shown = {a["label"] for _, a in back.nodes(data=True)}
    assert {"太陰 (General)", "太陰 (Deity)", "子"} <= shown  # a shared name with its type; a unique one bare
    assert not [n for n in back if back.degree(n) == 0]  # no isolated node
    edges = [d for _, _, d in back.edges(data=True)]
    assert all(d["citation"] and d["system"] in ("liuren", "qimen", "ninestar") for d in edges)
    assert {d["system"] for d in edges} == {"liuren", "qimen", "ninestar"}
    topics = Counter(d["topic"] for d in edges if d["topic"])
    assert topics["射覆"] > 100 and topics["疾病"] > 100
    assert all(d["label_en"] and d["label_ko"] for d in edges if d["relation"] == "CLASHES")


def test_a_neighbourhood_as_gexf(tmp_path):
    out = tmp_path / "zi.gexf"
    report = run("--format", "gexf", "-o", str(out), "--symbol", "子", "--depth", "1")
    back = nx.read_gexf(out)
    assert report["nodes"] == back.number_of_nodes() and report["relations"] == back.number_of_edges() > 100
    assert back.nodes["Branch:zi"]["label"] == "子" and back.nodes["Branch:zi"]["label_en"] == "Zi (Rat)"
