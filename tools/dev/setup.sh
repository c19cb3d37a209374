#!/usr/bin/env bash
# Create ./.venv (if missing) and install gridpe into it, editable, with its dev and docs tools and a torch pair that works
# here; then KaTeX for the Quarto-free docs site (`npm ci` in tools/dev/site, skipped while its node_modules is current).
# GRIDPE_TORCH overrides the torch pair, e.g. GRIDPE_TORCH="torch torchvision --index-url https://download.pytorch.org/whl/cpu".
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${GRIDPE_VENV:-.venv}
[ -x "$VENV/bin/python" ] || "${PYTHON:-python3}" -m venv "$VENV"
. "$VENV/bin/activate"
python -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
if [ -z "${GRIDPE_TORCH:-}" ]; then
  if [ -f /etc/xdg/pip/constraints.txt ] && [ "$(uname -m)" = x86_64 ]; then GRIDPE_TORCH="torch==2.14.1 torchvision==0.29.1"   # the pair a pip constraints file there pins
  elif [ "$(uname -m)" = aarch64 ]; then GRIDPE_TORCH="torch==2.9.1 torchvision==0.24.1"
  else GRIDPE_TORCH="torch torchvision"; fi
fi
python -c "import torch, torchvision" 2>/dev/null || python -m pip install -q $GRIDPE_TORCH 2>&1 | grep -v '^WARNING: Location' || true
python -c "import torch, torchvision" || { echo "torch/torchvision did not install (tried: $GRIDPE_TORCH)"; exit 1; }
# PYTHONWARNINGS: setuptools warns on every editable install ("Editable installation ... be careful"), which says nothing here
PYTHONWARNINGS=ignore python -m pip install -q -e ".[dev,docs]" 2>&1 | grep -v -e '^WARNING: Location' -e '^ *$' || true
python -c "import gridpe, nbdev, myst_nb, playwright" || { echo "gridpe did not install"; exit 1; }
SITE=tools/dev/site
if [ "$SITE/node_modules/.package-lock.json" -nt "$SITE/package-lock.json" ]; then :
elif command -v npm >/dev/null; then npm ci --prefix "$SITE" --no-audit --no-fund --silent || { echo "npm ci in $SITE failed"; exit 1; }
else echo "npm not found: the docs site (tools/dev/docs_site.py) needs Node.js and npm for KaTeX"; fi
echo "gridpe installed in $VENV (torch $(python -c 'import torch; print(torch.__version__)')) in ${SECONDS} s"
