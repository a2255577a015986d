"""Qimen Dunjia (奇門遁甲) chart engine: the hour chart on the turning plate (時家 轉盤).

See docs/engine-qimen.md. Main entry points: :func:`~.chart.qimen_chart`,
:func:`~.validate.validate_qimen`, :func:`~.render.render_qimen_grid`, :func:`~.plate.build_plate`, each
imported from its module when first asked for (``from leishen.engine.qimen.frozen import …`` loads that
module alone).
"""

import importlib

__all__ = ["qimen_chart", "build_plate", "render_qimen_grid", "validate_qimen"]

#: each entry point's module
_HOMES = {"qimen_chart": ".chart", "build_plate": ".plate", "render_qimen_grid": ".render",
          "validate_qimen": ".validate"}


def __getattr__(name: str):
    """An entry point of :data:`__all__`, imported from its module on first use."""
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
