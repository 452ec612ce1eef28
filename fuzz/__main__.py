"""``python -m fuzz ...``: the fuzz campaigns, run from a source checkout (`fuzz/cli.py`)."""

import sys

from fuzz.cli import main

sys.exit(main(sys.argv[1:]))
