"""Reading a matplotlib figure back in tests: its text, and whether that text is Chinese."""
import matplotlib.text


def texts(fig) -> list[str]:
    """Every text artist of the figure: titles, labels, tick labels, annotations, legends."""
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text)]


def has_cjk(s: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in s)
