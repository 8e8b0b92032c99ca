"""`make bench`: one table of speed and memory figures.

Each bench/bench_*.py module defines `rows()`, yielding tuples
(area, measure, value, unit, note). Modules are run in name order.
"""
