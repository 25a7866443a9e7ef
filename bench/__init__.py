"""Benchmarks that print figures (median, p99, ratios against a brute-force baseline measured in
the same run). They never pass or fail on time."""
