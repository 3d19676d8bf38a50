"""The introduction's figures: the five-station map and the tiny encoder's answer."""
import matplotlib
import pytest

matplotlib.use("Agg")

import lib  # noqa: E402
from lib.figures import intro  # noqa: E402


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pipeline_has_five_stations_in_the_book_language(lang):
    lib.setup(lang)
    fig = intro.plot_pipeline()
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert sum(t.startswith(("①", "②", "③", "④", "⑤")) for t in texts) == 5
    has_cjk = any("\u4e00" <= ch <= "\u9fff" for t in texts for ch in t)
    assert has_cjk == (lang == "zh")


def test_referent_bars_show_the_probabilities():
    lib.setup("en")
    fig = intro.plot_referent({"trophy": 0.9, "suitcase": 0.1}, "big")
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights == pytest.approx([0.9, 0.1])
    assert "big" in fig.axes[0].get_title()


def test_referent_refuses_an_unknown_sentence():
    with pytest.raises(ValueError, match="which must be 'big' or 'small', got 'huge'"):
        intro.plot_referent({"a": 0.5, "b": 0.5}, "huge")


def test_referent_widget_has_one_frame_per_sentence():
    lib.setup("zh")
    w = intro.referent_widget("zh")
    stacks = [c for c in _walk(w) if type(c).__name__ == "Stack"]
    assert stacks and len(stacks[0].children) == 2


def _walk(w):
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def test_pipeline_shades_station_four_only():
    """The text says the understanding happens at station ④: that box, and no other, is shaded."""
    lib.setup("en")
    fig = intro.plot_pipeline()
    boxes = [p for p in fig.axes[0].patches if type(p).__name__ == "FancyBboxPatch"]
    colours = [tuple(b.get_facecolor()) for b in boxes]
    assert len(boxes) == 5
    shaded = [i for i, c in enumerate(colours) if colours.count(c) == 1]
    assert shaded == [intro.HIGHLIGHT] == [3]
