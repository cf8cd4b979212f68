"""Aggregation, statistics, charts and the HTML report over a run folder."""
