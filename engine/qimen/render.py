"""Text rendering of a Qimen chart as the usual 3×3 grid (south on top).

    巽4 離9 坤2
    震3 中5 兌7
    艮8 坎1 乾6

Each cell: palace and deity; star (with a hosted 天禽 as 禽) and gate; heaven stem over
earth stem (a hosted centre stem follows its companion).
"""

from __future__ import annotations

import unicodedata

from .symbols import PALACE_NAMES

__all__ = ["render_qimen_grid"]

_GRID = ((4, 9, 2), (3, 5, 7), (8, 1, 6))


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _cell(chart: dict, p: int) -> list[str]:
    palace = chart["palaces"][str(p)]
    deity = palace.get("deity") or ""
    star = (palace.get("star") or "") + ("禽" if palace.get("star_hosted") else "")
    gate = palace.get("gate") or ""
    heaven = (palace.get("heaven") or "") + (palace.get("heaven_hosted") or "")
    earth = palace["earth"] + (palace.get("earth_hosted") or "")
    return [f"{PALACE_NAMES[p]}{p} {deity}".rstrip(), f"{star} {gate}".strip(),
            f"天{heaven} 地{earth}" if heaven else f"地{earth}"]


def _header(chart: dict) -> str:
    parts = [f"{chart['dun']}遁{chart['ju']}局"]
    parts += [chart[k] for k in ("yuan", "term") if chart.get(k)]
    parts.append(f"旬首 {chart['xun_head']}")
    parts.append(f"值符 {chart['duty_star']}" + (f"→{chart['duty_star_palace']}" if "duty_star_palace" in chart else ""))
    parts.append(f"值使 {chart['duty_gate']}" + (f"→{chart['duty_gate_palace']}" if "duty_gate_palace" in chart else ""))
    if chart.get("void"):
        parts.append("空 " + "".join(chart["void"]))
    if chart.get("horse"):
        parts.append(f"馬 {chart['horse']}")
    return "  ".join(parts)


def render_qimen_grid(chart: dict) -> str:
    """The chart as a header line and a boxed 3×3 grid of palaces."""
    cells = {p: _cell(chart, p) for row in _GRID for p in row}
    width = max(_width(line) for cell in cells.values() for line in cell) + 2
    rule = "+" + "+".join("-" * width for _ in range(3)) + "+"
    lines = [_header(chart), rule]
    for row in _GRID:
        for i in range(3):
            lines.append("|" + "|".join(_pad(" " + cells[p][i], width) for p in row) + "|")
        lines.append(rule)
    return "\n".join(lines)
