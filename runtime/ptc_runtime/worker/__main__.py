"""`python -m ptc_runtime.worker`: the isolated worker process (see `main`)."""

from ptc_runtime.worker.main import main

main()
