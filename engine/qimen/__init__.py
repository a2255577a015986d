"""Qimen Dunjia (奇門遁甲) chart engine: the hour chart on the turning plate (時家 轉盤).

See docs/engine-qimen.md. Main entry points: :func:`~.chart.qimen_chart`,
:func:`~.validate.validate_qimen`, :func:`~.render.render_qimen_grid`, :func:`~.plate.build_plate`.
"""

from .chart import qimen_chart
from .plate import build_plate
from .render import render_qimen_grid
from .validate import validate_qimen

__all__ = ["qimen_chart", "build_plate", "render_qimen_grid", "validate_qimen"]
