#!/usr/bin/env bash
# README command 1: set up (tools/setup.sh) and run the main job, `gridpe-compare image`, on the embedded data.
# Extra arguments go to gridpe-compare (e.g. `bash tools/run.sh --seeds 0 1 2`); results land in gridpe-runs/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
. "${GRIDPE_VENV:-.venv}/bin/activate"
gridpe-compare image --out gridpe-runs/image "$@"
