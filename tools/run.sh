#!/usr/bin/env bash
# README command 1: set up (tools/dev/setup.sh) and run the main job, `gridpe-compare image`, on the bundled data.
# Extra arguments go to gridpe-compare (e.g. `bash tools/run.sh --seeds 0 1 2`); results land in gridpe-runs/image
# (gridpe-runs/image-paper with --paper). A results folder holds one set of settings: more seeds or kinds resume it, other
# settings (e.g. `--epochs 10` after a first run) are refused with one line naming them: give those their own folder
# (`bash tools/run.sh --epochs 10 --out gridpe-runs/image-10ep`) or remove the old one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/dev/setup.sh
. "${GRIDPE_VENV:-.venv}/bin/activate"
gridpe-compare image "$@"
