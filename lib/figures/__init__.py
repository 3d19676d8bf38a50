"""Figures of the book, one module per idea; each function returns a matplotlib Figure.

Labels come from ``lib.tr`` so the same call draws a Chinese or an English figure.
"""
