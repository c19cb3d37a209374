#!/usr/bin/env bash
# README command 1: set up (tools/setup.sh) and run the main job. Until `gridpe-compare` lands, the main job is the theory
# checks: every derivation of nbs/00_theory.ipynb re-run and asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
. "${GRIDPE_VENV:-.venv}/bin/activate"
nbdev-test --path nbs/00_theory.ipynb --do-print && echo "theory checks passed"
