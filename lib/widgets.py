"""Widgets that respond without a kernel: a figure function and its parameter grid become
precomputed frames.

On the static website there is no Python: an ``interact`` callback cannot run, so its slider
moves and its plot stays. :func:`frames_widget` draws every combination of the parameters
once, as small PNG ``Image`` widgets inside (nested) ``Stack`` widgets, and ``jslink`` s each
control's ``index`` to the ``selected_index`` of the stacks at its level. The links live in the
browser, so the shown frame follows the controls on the website, in Jupyter, on Binder and in a
notebook exported with its widget state.

Where ``ipywidgets`` has no ``Stack`` (version 7, e.g. an old Colab), the same controls drive a
single ``Image`` through a Python callback (a kernel is there).
"""
from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

#: frames above this count make the page heavy: the grid should be coarsened
MAX_FRAMES = 120


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def figure_png(fig, dpi: float = 80, colors: int | None = 256) -> bytes:
    """The figure as PNG bytes (palette-quantised to keep a frame near 15 KB); closes it."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", pad_inches=0.08,
                    facecolor="white")
    finally:
        plt.close(fig)
    data = buf.getvalue()
    if colors:
        from PIL import Image

        img = Image.open(io.BytesIO(data)).convert("RGB")
        out = io.BytesIO()
        img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) \
           .save(out, format="PNG", optimize=True)
        if len(out.getvalue()) < len(data):
            data = out.getvalue()
    return data


def _control(name: str, values: Sequence[Any], label: str):
    """The control of one parameter: ToggleButtons for booleans, Dropdown for strings with
    many options, SelectionSlider for the rest. Each has an ``index`` trait."""
    import ipywidgets as w

    options = [(_fmt(v), i) for i, v in enumerate(values)]
    style = {"description_width": "initial"}
    if all(isinstance(v, bool) for v in values) or (len(values) <= 4 and all(isinstance(v, str) for v in values)):
        ctl = w.ToggleButtons(options=options, value=0, description=label, style=style)
    elif all(isinstance(v, str) for v in values):
        ctl = w.Dropdown(options=options, value=0, description=label, style=style)
    else:
        ctl = w.SelectionSlider(options=options, value=0, description=label, style=style,
                                continuous_update=True, readout=True,
                                layout=w.Layout(width="min(100%, 28em)"))
    ctl.param_name = name
    return ctl


def frames_widget(draw: Callable[..., Any], params: Mapping[str, Sequence[Any]],
                  labels: Mapping[str, str] | None = None, *, dpi: float = 80,
                  colors: int | None = 256):
    """A widget of precomputed frames that answers its controls without a kernel.

    Parameters
    ----------
    draw:
        ``draw(**values) -> matplotlib.figure.Figure`` for one combination of the parameters.
        The figure is closed after it is drawn.
    params:
        an ordered mapping ``{name: [value, …]}``; the first value of each is shown first.
        Booleans get toggle buttons, strings a dropdown (or toggle buttons when few), numbers a
        slider. The product of the lengths is the number of frames (keep it ≤ ~60).
    labels:
        the text shown beside each control, ``{name: label}`` (default: the name); pass
        ``lib.tr(zh=…, en=…)`` strings.
    dpi:
        resolution of the frames (80 gives ~15 KB for a 5 × 3.5 in figure).

    Returns an ``ipywidgets.VBox`` (controls above the picture) with extra attributes:
    ``controls`` ({name: control}), ``stacks`` (one list of Stacks per level), ``images``
    (the frames, in ``itertools.product`` order of ``params``) and ``links``.
    """
    import ipywidgets as w

    if not isinstance(params, Mapping) or not params:
        raise ValueError(f"params must be a non-empty mapping {{name: [values]}}, got {params!r}")
    names = list(params)
    grids = [list(params[n]) for n in names]
    for n, g in zip(names, grids):
        if len(g) == 0:
            raise ValueError(f"params[{n!r}] is empty: give at least one value")
    total = 1
    for g in grids:
        total *= len(g)
    if total > MAX_FRAMES:
        raise ValueError(f"params give {total} frames (more than {MAX_FRAMES}): coarsen the grid "
                         f"{ {n: len(g) for n, g in zip(names, grids)} }")
    labels = dict(labels or {})
    unknown = set(labels) - set(names)
    if unknown:
        raise ValueError(f"labels name parameters that params lacks: {sorted(unknown)}")

    controls = {n: _control(n, g, labels.get(n, n)) for n, g in zip(names, grids)}

    pngs = []
    for combo in itertools.product(*grids):
        fig = draw(**dict(zip(names, combo)))
        if fig is None or not hasattr(fig, "savefig"):
            raise TypeError(f"draw must return a matplotlib Figure, returned {type(fig).__name__}")
        pngs.append(figure_png(fig, dpi=dpi, colors=colors))

    img_layout = dict(max_width="100%", height="auto")
    images = [w.Image(value=p, format="png", layout=w.Layout(**img_layout)) for p in pngs]

    if not hasattr(w, "Stack"):  # ipywidgets 7: a kernel drives a single Image
        return _live_fallback(w, controls, names, grids, images)

    # nested stacks: level 0 is chosen by the first parameter, the leaves are the images
    stacks: list[list[Any]] = [[] for _ in names]

    def build(level: int, offset: int) -> Any:
        size = 1
        for g in grids[level + 1:]:
            size *= len(g)
        if level == len(names) - 1:
            children = images[offset:offset + len(grids[level])]
        else:
            children = [build(level + 1, offset + i * size) for i in range(len(grids[level]))]
        stack = w.Stack(children=children, selected_index=0)
        stacks[level].append(stack)
        return stack

    root = build(0, 0)
    links = [w.jslink((controls[n], "index"), (stack, "selected_index"))
             for level, n in enumerate(names) for stack in stacks[level]]
    box = w.VBox([*controls.values(), root], layout=w.Layout(max_width="100%"))
    box.add_class("frames-widget")
    box.controls, box.stacks, box.images, box.links = controls, stacks, images, links
    return box


def _live_fallback(w, controls, names, grids, images):
    image = w.Image(value=images[0].value, format="png", layout=w.Layout(max_width="100%", height="auto"))
    strides = []
    for level in range(len(names)):
        s = 1
        for g in grids[level + 1:]:
            s *= len(g)
        strides.append(s)

    def update(_change=None):
        idx = sum((controls[n].index or 0) * s for n, s in zip(names, strides))
        image.value = images[idx].value

    for ctl in controls.values():
        ctl.observe(update, names="index")
    box = w.VBox([*controls.values(), image])
    box.controls, box.stacks, box.images, box.links = controls, [], images, []
    return box
