#!/usr/bin/env sh
# Create the benchmark-only venv that holds basilisp (never installed into the project venv).
#   sh benchmarks/setup_basilisp.sh            # -> benchmarks/.venv-basilisp
# bench_workloads.py runs basilisp's side in a subprocess of this venv's python.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
VENV="$HERE/.venv-basilisp"
PY=${PYTHON:-python3}
test -x "$VENV/bin/python" || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "basilisp==0.5.1"
"$VENV/bin/python" -c "import basilisp; print('basilisp ready in $VENV')"
