"""The graph a page draws: nodes and merged edges, collected before they become a pyvis network."""

from __future__ import annotations

from dataclasses import dataclass, field

from leishen.viz.hover import Passages, qualifiers_of, relation_title
from leishen.viz.offline import new_network


@dataclass
class PageEdge:
    source: str
    target: str
    kind: str
    zh: str | None = None
    parts: list[dict] = field(default_factory=list)
    colour: str = "#888888"
    dashes: bool = False
    label: str | None = None
    width: float = 1.5


@dataclass
class PageGraph:
    """Nodes by id (first description wins) and edges merged by (source, target, kind):
    parallel facts of one relation become one edge whose hover lists every citation."""

    passages: Passages
    nodes: dict[str, dict] = field(default_factory=dict)
    edges: dict[tuple[str, str, str], PageEdge] = field(default_factory=dict)

    def add_node(self, node_id: str, **attrs) -> None:
        if node_id not in self.nodes:
            self.nodes[node_id] = attrs
        elif "level" in attrs and "level" in self.nodes[node_id]:
            self.nodes[node_id]["level"] = min(self.nodes[node_id]["level"], attrs["level"])

    def add_edge(self, source: str, target: str, kind: str, *, part: dict | None = None, **attrs) -> PageEdge:
        key = (source, target, kind)
        edge = self.edges.get(key)
        if edge is None:
            edge = self.edges[key] = PageEdge(source, target, kind, **attrs)
        if part is not None and part not in edge.parts:
            edge.parts.append(part)
        return edge

    def network(self, *, hierarchical: bool = False):
        """The pyvis network of this page (nodes first, then edges with their hover texts)."""
        from leishen.service.lore import readings
        net = new_network(hierarchical=hierarchical, size=len(self.nodes))
        for node_id, attrs in self.nodes.items():
            net.add_node(node_id, **attrs)
        ids = {v for edge in self.edges.values() for part in edge.parts for v in qualifiers_of(part).values()
               if isinstance(v, str) and ":" in v}
        names = readings(ids) if ids else {}  # a qualifier naming a node (rides=General:xuan_wu) shows its name
        for edge in self.edges.values():
            net.add_edge(edge.source, edge.target, label=edge.kind if edge.label is None else edge.label, rel=edge.kind,
                         title=relation_title(edge.kind, edge.zh, edge.parts, self.passages, names),
                         color=edge.colour, dashes=edge.dashes, width=edge.width)
        return net
