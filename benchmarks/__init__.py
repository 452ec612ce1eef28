"""Benchmarks: side by side with a peer in one process, reported as ratios."""
