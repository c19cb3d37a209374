#!/usr/bin/env bash
# Create ./.venv (if missing) and install gridpe into it, editable, with its training harness (the train extra), its
# dev and docs tools and torch; then KaTeX for the Quarto-free docs site (`npm ci` in tools/dev/site, skipped while its
# node_modules is current). Each step prints one line with the seconds so far; pip shows its own progress.
# torch: kept where torch and torchvision are installed. Otherwise, on Linux without an NVIDIA GPU, torch's CPU build
# from torch's CPU index (GRIDPE_CPU_INDEX) where that answers within 5 s; else torch and torchvision from pip's index,
# after one line saying which build that is and roughly how large. GRIDPE_TORCH sets what pip installs instead, e.g.
# GRIDPE_TORCH="torch==2.9.1 torchvision==0.24.1". `--plan` prints that line and pip's arguments, and installs nothing.
# The editable install is skipped while it points here and pyproject.toml has not changed since.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${GRIDPE_VENV:-.venv}
CPU_INDEX=${GRIDPE_CPU_INDEX:-https://download.pytorch.org/whl/cpu}
step() { echo "setup [${SECONDS} s]: $*"; }
# pip, without the lines that say nothing new: requirements already there, the venv's location warning
quiet_pip() { python -m pip "$@" 2>&1 | grep -v -e '^Requirement already satisfied' -e '^WARNING: Location' -e '^ *$'; }
# what is installed, read from the packages' metadata (importing torch takes seconds)
installed() {
  python -I -c "import sys, importlib.metadata as m; print(*(m.version(p) for p in sys.argv[1:]))" "$@" 2>/dev/null
}

# which torch to install: sets `plan` (one line: what, from where, how large) and `args` (pip's arguments)
torch_plan() {
  local gpu probe
  gpu=$( { command -v nvidia-smi || ls /proc/driver/nvidia/version; } 2>/dev/null || true)
  probe="import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + '/torch/', timeout=5)"
  args="torch torchvision"
  if [ -n "${GRIDPE_TORCH:-}" ]; then
    plan="installing $GRIDPE_TORCH (GRIDPE_TORCH)"
    args=$GRIDPE_TORCH
  elif [ "$(uname -s)" != Linux ]; then
    plan="installing torch and torchvision from pip's index (the CPU build here: a few hundred MB)"
  elif [ -n "$gpu" ]; then
    plan="installing torch and torchvision from pip's index: the CUDA build, for the NVIDIA GPU (about 3 GB to"
    plan+=" download, 5 GB installed)"
  elif "${PYTHON:-python3}" -c "$probe" "$CPU_INDEX" 2>/dev/null; then
    plan="no NVIDIA GPU: installing torch's CPU build from $CPU_INDEX (about 200 MB to download, 1 GB"
    plan+=" installed)"
    args="torch torchvision --index-url $CPU_INDEX"
  else
    plan="no NVIDIA GPU, but $CPU_INDEX does not answer: installing torch and torchvision from pip's index, on Linux"
    plan+=" usually the CUDA build (about 3 GB to download, 5 GB installed; GRIDPE_TORCH chooses another)"
  fi
}
# --plan: say what would be installed for torch, install nothing
if [ "${1:-}" = --plan ]; then torch_plan; echo "$plan"; echo "pip install $args"; exit 0; fi

if [ ! -x "$VENV/bin/python" ]; then
  step "creating $VENV"
  "${PYTHON:-python3}" -m venv "$VENV"
  . "$VENV/bin/activate"
  quiet_pip install --upgrade pip || true
else
  . "$VENV/bin/activate"
fi

if installed torch torchvision >/dev/null; then
  step "torch $(installed torch) is installed: kept"
else
  torch_plan
  step "$plan"
  # shellcheck disable=SC2086 (GRIDPE_TORCH holds several words)
  quiet_pip install $args || true
  if ! python -c "import torch, torchvision"; then echo "torch did not install (pip install $args)"; exit 1; fi
fi

# installed editable from this folder, after pyproject.toml's last change, with the extras' tools importable (-I: the
# installed metadata, not the gridpe.egg-info a build leaves here)
current=$(python -I - <<'EOF' 2>/dev/null || true
import json, os
from importlib.metadata import distribution
d = distribution('gridpe')
url = json.loads(d.read_text('direct_url.json') or '{}')
here = url.get('url') == 'file://' + os.getcwd() and url.get('dir_info', {}).get('editable')
print('yes' if here and os.path.getmtime(d._path) > os.path.getmtime('pyproject.toml') else '')
EOF
)
if [ "$current" = yes ] && installed fastai nbdev myst-nb playwright >/dev/null; then
  step "gridpe is installed from here and pyproject.toml is unchanged since: kept"
else
  step "installing gridpe from here, editable, with its training harness and its dev and docs tools"
  # PYTHONWARNINGS: setuptools warns on every editable install ("Editable installation ... be careful")
  PYTHONWARNINGS=ignore quiet_pip install -e ".[train,dev,docs]" || true
  python -c "import gridpe, fastai, nbdev, myst_nb, playwright" || { echo "gridpe did not install"; exit 1; }
fi

SITE=tools/dev/site
if [ "$SITE/node_modules/.package-lock.json" -nt "$SITE/package-lock.json" ]; then :
elif command -v npm >/dev/null; then
  step "installing KaTeX for the docs site (npm ci in $SITE)"
  npm ci --prefix "$SITE" --no-audit --no-fund --silent || { echo "npm ci in $SITE failed"; exit 1; }
else echo "npm not found: the docs site (tools/dev/docs_site.py) needs Node.js and npm for KaTeX"; fi
echo "gridpe installed in $VENV (torch $(installed torch)) in ${SECONDS} s"
