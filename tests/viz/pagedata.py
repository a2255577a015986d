"""Read back what a page will draw: the vis DataSets pyvis wrote into the HTML."""

from __future__ import annotations

import json
import re

_DATASET = re.compile(r"(nodes|edges) = new vis\.DataSet\((\[.*?\])\);", re.S)
# what would make a browser fetch from another host: a src/href/url() to http(s) or //
REMOTE = re.compile(r'<(?:link|script|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["\']?(?:https?:)?//', re.I)


def datasets(page: str) -> tuple[list[dict], list[dict]]:
    found = dict((kind, json.loads(text)) for kind, text in _DATASET.findall(page))
    return found["nodes"], found["edges"]


def node_ids(page: str) -> set[str]:
    return {n["id"] for n in datasets(page)[0]}
