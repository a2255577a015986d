"""Offline pyvis pages: one vis-network page as an HTML string that loads nothing from the network.

pyvis 0.3.2 is not offline as shipped: ``cdn_resources="local"`` (its default) still loads
vis-network from cdnjs, and ``"in_line"`` inlines vis-network but still links Bootstrap CSS/JS
on jsdelivr (pyvis issues #228/#229).  :func:`page_html` builds with ``"in_line"``, strips those
two tags and the empty headings, adds our own title, styles and a small script, and refuses to
return a page that still names a remote script, stylesheet or image.  ``Network.show()`` is
never called (it crashes outside notebooks).
"""

from __future__ import annotations

import html
import json
import re

from pyvis.network import Network

from leishen.errors import LeishenError

# the Bootstrap <link>/<script> pyvis writes whatever cdn_resources says
_BOOTSTRAP = re.compile(r'<(?:link|script)\b[^>]*cdn\.jsdelivr\.net/npm/bootstrap[^>]*>(?:\s*</script>)?', re.S)
_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.S)
# any tag attribute that would make the browser fetch from another host
_REMOTE = re.compile(r'<(?:link|script|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["\']?(?:https?:)?//', re.I)

# above this many nodes vis-network's improvedLayout (slow for big pages) is off
LARGE = 80

PAGE_STYLE = """
html, body { margin: 0; height: 100%; font-family: "Noto Sans CJK SC", "Noto Sans CJK TC", sans-serif; }
body { display: flex; flex-direction: column; }
#leishen-head { padding: 6px 12px; border-bottom: 1px solid #ddd; font-size: 14px; }
#leishen-head h1 { font-size: 18px; margin: 0 0 2px 0; display: inline; }
#leishen-head .note { color: #666; margin-left: 1em; }
#leishen-legend span { display: inline-block; margin-right: 10px; font-size: 12px; }
#leishen-legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; border-radius: 5px; }
.card { flex: 1; min-height: 0; }
#mynetwork { height: 100% !important; border: none !important; float: none !important; }
div.vis-tooltip { white-space: pre-wrap !important; max-width: 36em; font-family: inherit; }
#loadingBar { display: none !important; }
"""

# after drawGraph(): freeze a physics layout once it has settled (pyvis #204), and publish what was
# drawn as data attributes of <body> for the browser tests: the node and edge counts and ``ready``
# at once (vis-network builds its body inside the constructor), ``drawn`` after the next paint,
# ``settled`` once the layout stands still.  pyvis's own loading bar is hidden (the page settles
# behind it otherwise, and it would cover a screenshot).
PAGE_SCRIPT = """
(function () {
  function freeze() { network.setOptions({physics: false}); document.body.dataset.settled = "1"; }
  network.once("afterDrawing", function () { document.body.dataset.drawn = "1"; });
  if (%(physics)s) {
    network.once("stabilizationIterationsDone", freeze);
    network.once("stabilized", freeze);
  } else {
    network.fit();
    document.body.dataset.settled = "1";
  }
  document.body.dataset.nodes = String(network.body.nodeIndices.length);
  document.body.dataset.edges = String(network.body.edgeIndices.length);
  document.body.dataset.ready = "1";
})();
"""


class VizError(LeishenError):
    """A page could not be built (for example it would load a remote asset)."""


def new_network(*, hierarchical: bool = False, size: int = 0) -> Network:
    """An empty directed pyvis network with the options leishen pages use."""
    net = Network(height="100%", width="100%", directed=True, cdn_resources="in_line", heading="")
    physics = {"enabled": True, "stabilization": {"enabled": True, "iterations": 400, "fit": True}}
    if hierarchical:
        layout = {"hierarchical": {"enabled": True, "direction": "UD", "sortMethod": "directed",
                                   "levelSeparation": 130, "nodeSpacing": 95, "treeSpacing": 110}}
        physics = {"enabled": False}
    else:
        layout = {"randomSeed": 7, "improvedLayout": size <= LARGE}
        physics["stabilization"]["iterations"] = 400 if size <= LARGE else 200
        physics["solver"] = "forceAtlas2Based"
        physics["forceAtlas2Based"] = {"gravitationalConstant": -60, "centralGravity": 0.012,
                                       "springLength": 90, "avoidOverlap": 0.3}
    net.options = {
        "layout": layout, "physics": physics,
        "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False},
        "nodes": {"font": {"size": 16 + min(size // 25, 12), "face": "Noto Sans CJK SC, sans-serif"}},
        "edges": {"font": {"size": 11, "align": "horizontal" if hierarchical else "middle", "face": "Noto Sans CJK SC, sans-serif"},
                  # a large page's edges are not simulated (dynamic edges add a physics node each)
                  "smooth": {"enabled": True, "type": "dynamic" if size <= LARGE else "continuous"},
                  "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}}},
    }
    return net


def legend_html(items: list[tuple[str, str]]) -> str:
    """A row of colour swatches: ``[(colour, text), …]``."""
    return "".join(f'<span><i style="background:{html.escape(c)}"></i>{html.escape(t)}</span>' for c, t in items)


def page_html(net: Network, *, title: str, note: str = "", legend: list[tuple[str, str]] = (), tools: str = "",
              style: str = "", script: str = "", lang: str = "zh") -> str:
    """The network as one self-contained HTML page (no remote load), with a title bar and legend; *tools* (HTML),
    *style* (CSS) and *script* (run after the page's own script) add a page's own controls."""
    raw = net.generate_html()
    page = _HEADING.sub("", _BOOTSTRAP.sub("", raw))
    head = (f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{html.escape(title)}</title>\n<link rel="icon" href="data:,">\n'
            f"<style>{PAGE_STYLE}{style}</style>\n</head>")
    page = page.replace("</head>", head, 1)
    bar = (f'<div id="leishen-head"><h1>{html.escape(title)}</h1>'
           f'<span class="note">{html.escape(note)}</span>'
           f'<div id="leishen-legend">{legend_html(list(legend))}</div></div>{tools}')
    page = page.replace("<body>", "<body>\n" + bar, 1)
    own = PAGE_SCRIPT % {"physics": json.dumps(physics_on(net))}
    page = _rsplit_replace(page, "</body>", f"<script>{own}</script>\n" + (f"<script>{script}</script>\n" if script
                                                                            else "") + "</body>")
    page = page.replace("<html>", f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">', 1)
    remote = _REMOTE.search(page)
    if remote:
        raise VizError(f"page would load a remote asset: {remote.group(0)[:120]}")
    return page


def physics_on(net: Network) -> bool:
    return bool(net.options.get("physics", {}).get("enabled"))


def _rsplit_replace(text: str, old: str, new: str) -> str:
    head, sep, tail = text.rpartition(old)
    if not sep:
        raise VizError(f"pyvis page has no {old}")
    return head + new + tail
