"""Fuzz campaigns spread over processes or a dask cluster (`ptc fuzz ... --jobs/--scheduler`).

`targets` holds each campaign's plan of shards and shard runner, `engine` runs a plan here,
on a local process pool or on a cluster, `failure_db` is the failure database shared by all
of a campaign's runs, and `report` prints the closing table and writes the HTML report.
"""
