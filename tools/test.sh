#!/usr/bin/env bash
# README command 2: set up (tools/dev/setup.sh) and run every check CI runs; ends with a line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/dev/setup.sh
# the setup's seconds, for check.py's table of step times
export GRIDPE_SETUP_S=$SECONDS
. "${GRIDPE_VENV:-.venv}/bin/activate"
python tools/dev/check.py "$@"
