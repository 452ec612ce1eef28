"""`python -m ptc_compiler`: the `ptc` command line."""

from ptc_compiler.cli import main

raise SystemExit(main())
