"""Figures of the book, one module per idea; each function returns a matplotlib Figure.

Labels come from ``lib.tr`` so the same call draws a Chinese or an English figure. Modules load
on first use, so a notebook can call ``lib.figures.attention.plot_weights(…)`` after a plain
``import lib``.
"""
from __future__ import annotations

import importlib
import pkgutil

__all__ = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def __getattr__(name: str):
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}; figure modules: {__all__}")
