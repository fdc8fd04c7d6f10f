"""Benchmarks: `make bench` prints figures; it asserts nothing.

Each benchmark module exposes ``run(report)``; add new ones to ``BENCHMARKS`` in ``__main__``.
"""
