"""Read back what a page will draw: the vis DataSets pyvis wrote into the HTML."""

from __future__ import annotations

import json
import re

_DATASET = re.compile(r"(nodes|edges) = new vis\.DataSet\((\[.*?\])\);", re.S)
# what would make a browser fetch from another host: a src/href/url() to http(s) or //
REMOTE = re.compile(r'<(?:link|script|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["\']?(?:https?:)?//', re.I)


def first_datasets(page: str) -> tuple[list[dict], list[dict]]:
    """The nodes and edges a page draws when it opens (its vis DataSets)."""
    found = dict((kind, json.loads(text)) for kind, text in _DATASET.findall(page))
    return found["nodes"], found["edges"]


def datasets(page: str) -> tuple[list[dict], list[dict]]:
    """The nodes and edges of a page: those drawn at first (its vis DataSets) and, on a reading page, the rest
    its tool adds on request."""
    found = dict((kind, json.loads(text)) for kind, text in _DATASET.findall(page))
    rest = _REST.search(page)
    more = json.loads(rest.group(1).replace("<\\/", "</")) if rest else {"nodes": [], "edges": []}
    return found["nodes"] + more["nodes"], found["edges"] + more["edges"]


_REST = re.compile(r"REST = (\{.*?\}), nodes = network", re.S)


def node_ids(page: str) -> set[str]:
    return {n["id"] for n in datasets(page)[0]}


def hop_id(node: dict) -> str:
    return node.get("id") or f"{node['label']}:{node['key']}"


def reading_node_ids(reading: dict) -> set[str]:
    """What a reading page should draw: every path and evidence node, the chart slots bound to
    them, and one node per finding."""
    ids, slots = set(), set()
    for f in reading["findings"]:
        for hops in [f["path"], *(f.get("evidence") or [])]:
            for hop in hops:
                if "value" in hop:
                    ids.add(f"value:{f['system']}:" + f"{hop.get('slot') or ''} {hop['value']}".strip())
                elif "node" in hop:
                    ids.add(hop_id(hop["node"]))
                    if hop.get("slot"):
                        slots.add(f"slot:{f['system']}:{hop['slot']}")
        ids.add(f"finding:{f['id']}")
    for f in reading["findings"]:
        slots |= {f"slot:{f['system']}:{s}" for s, n in (f.get("bindings") or {}).items()
                  if isinstance(n, str) and n in ids}
    return ids | slots
