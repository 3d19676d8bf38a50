"""lib.widgets.frames_widget: every frame precomputed, the controls linked to the stacks in the
browser (jslink), small frames, figures closed. (tests/test_site.py moves a slider on the site.)"""
from __future__ import annotations

import io
import itertools

import matplotlib

matplotlib.use("Agg")
import ipywidgets as w  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import lib  # noqa: E402
from lib.widgets import frames_widget  # noqa: E402

PARAMS = {"temperature": [0.5, 1.0, 2.0], "scaled": [False, True], "head": ["h0", "h1"]}


def draw(temperature, scaled, head):
    z = np.array([2.0, 1.0, 0.1]) / (2.0 if scaled else 1.0)
    p = lib.softmax(z, temperature=temperature)
    fig, ax = plt.subplots(figsize=(4, 2.6))
    ax.bar(["獎盃", "行李箱", head], p)
    ax.set_ylim(0, 1)
    ax.set_title(f"τ={temperature} {scaled} {head}")
    return fig


@pytest.fixture(scope="module")
def box():
    lib.setup("zh")
    return frames_widget(draw, PARAMS, labels={"temperature": "溫度 τ"})


def pixels(image) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(image.value)).convert("RGB"))


def test_one_frame_per_combination(box):
    assert len(box.images) == 3 * 2 * 2
    assert all(isinstance(i, w.Image) and i.format == "png" for i in box.images)
    # every frame is different (each combination draws a different picture)
    arrays = [pixels(i).tobytes() for i in box.images]
    assert len(set(arrays)) == len(arrays)


def test_frames_are_small(box):
    sizes = [len(i.value) for i in box.images]
    assert max(sizes) < 30_000, f"frames of {max(sizes)} bytes: lower dpi"
    assert min(sizes) > 1_000  # a real picture, not an empty PNG


def test_figures_are_closed():
    plt.close("all")
    frames_widget(draw, {"temperature": [1.0, 2.0], "scaled": [True], "head": ["h"]})
    assert plt.get_fignums() == []


def test_nested_stacks_follow_the_parameter_order(box):
    assert [len(level) for level in box.stacks] == [1, 3, 6]
    root = box.stacks[0][0]
    assert isinstance(root, w.Stack)
    for (i, j, k), flat in zip(itertools.product(range(3), range(2), range(2)), range(12)):
        leaf = root.children[i].children[j].children[k]
        assert leaf is box.images[flat]
    # the frame a path selects is the one draw() gives for those values
    i, j, k = 2, 1, 0
    want = frames_widget(draw, {"temperature": [2.0], "scaled": [True], "head": ["h0"]}).images[0]
    assert np.array_equal(pixels(root.children[i].children[j].children[k]), pixels(want))


def test_controls_match_the_value_types(box):
    c = box.controls
    assert isinstance(c["temperature"], w.SelectionSlider)
    assert isinstance(c["scaled"], w.ToggleButtons)
    assert isinstance(c["head"], (w.ToggleButtons, w.Dropdown))
    assert c["temperature"].description == "溫度 τ"
    assert c["scaled"].description == "scaled"
    assert [label for label, _ in c["temperature"].options] == ["0.5", "1", "2"]


def test_every_stack_is_jslinked_to_its_control(box):
    """The links run in the browser: a control's index drives the stacks of its level."""
    from ipywidgets.widgets.widget_link import Link

    assert all(isinstance(link, Link) for link in box.links)
    pairs = {(id(link.source[0]), link.source[1], id(link.target[0]), link.target[1]) for link in box.links}
    for level, name in enumerate(PARAMS):
        for stack in box.stacks[level]:
            assert (id(box.controls[name]), "index", id(stack), "selected_index") in pairs
    assert len(box.links) == 1 + 3 + 6


def test_embedded_state_carries_the_links(box):
    """What the static page gets: the widget state includes the Link models and the PNGs."""
    from ipywidgets.embed import dependency_state, embed_data

    data = embed_data(views=[box], state=dependency_state([box, *box.links]))
    models = data["manager_state"]["state"]
    names = [m["model_name"] for m in models.values()]
    assert names.count("LinkModel") == len(box.links)
    assert names.count("ImageModel") == len(box.images)
    assert names.count("StackModel") == 1 + 3 + 6


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="params"):
        frames_widget(draw, {})
    with pytest.raises(ValueError, match="empty"):
        frames_widget(draw, {"temperature": []})
    with pytest.raises(ValueError, match="frames"):
        frames_widget(draw, {"temperature": list(range(11)), "scaled": list(range(11)), "head": ["h"]})
    with pytest.raises(ValueError, match="labels"):
        frames_widget(draw, {"temperature": [1.0], "scaled": [True], "head": ["h"]}, labels={"tau": "x"})
    with pytest.raises(TypeError, match="Figure"):
        frames_widget(lambda x: None, {"x": [1]})
