#!/usr/bin/env bash
# Tests of tools/dev/setup.sh, in seconds: it chooses torch without looking up one machine's files (the CPU build where
# torch's CPU index answers and there is no NVIDIA GPU; otherwise one line saying which build and how large), shows
# each step, and a second call where .venv is set up installs nothing. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source tools/dev/shell_checks.sh
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT

check "setup.sh reads no file of a particular machine (/etc/...)" "! grep -q '/etc/' tools/dev/setup.sh"
check "setup.sh runs pip without -q, so pip's progress shows" "! grep -Eq 'pip[^|]* -q( |$)' tools/dev/setup.sh"

if [ "$(uname -s)" = Linux ]; then
  # a PATH without nvidia-smi, or with a stand-in for it
  mkdir -p "$tmp/bin" "$tmp/gpu" "$tmp/index/torch"
  for t in bash uname ls grep cat dirname; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
  # the interpreter itself, not a wrapper that needs the rest of PATH (pyenv's shims)
  ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"
  printf '#!/bin/sh\n' > "$tmp/gpu/nvidia-smi"
  chmod +x "$tmp/gpu/nvidia-smi"
  # an index that answers: a local server over an empty torch/ folder
  python3 -c "import http.server as h, functools as f, sys
s = h.ThreadingHTTPServer(('127.0.0.1', 0), f.partial(h.SimpleHTTPRequestHandler, directory=sys.argv[1]))
print(s.server_address[1], flush=True); s.serve_forever()" "$tmp/index" > "$tmp/port" 2>/dev/null &
  server=$!
  for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
  up="http://127.0.0.1:$(cat "$tmp/port")"
  # nothing listens on port 9 here: the index does not answer
  down=http://127.0.0.1:9
  plan() { PATH="$1" GRIDPE_CPU_INDEX="$2" GRIDPE_TORCH="" bash tools/dev/setup.sh --plan 2>&1; }
  no_gpu_up=$(plan "$tmp/bin" "$up")
  no_gpu_down=$(plan "$tmp/bin" "$down")
  gpu_up=$(plan "$tmp/gpu:$tmp/bin" "$up")
  pinned=$(PATH="$tmp/bin" GRIDPE_TORCH="torch==2.9.1 torchvision==0.24.1" bash tools/dev/setup.sh --plan)
  check "no NVIDIA GPU, CPU index answers: torch's CPU build from it" \
    '[[ "$no_gpu_up" == *"CPU build"* && "$no_gpu_up" == *"pip install torch torchvision --index-url $up" ]]'
  check "no NVIDIA GPU, CPU index silent: one line naming the build and its size, then pip's index" \
    '[[ "$(head -1 <<< "$no_gpu_down")" == *"does not answer"*"CUDA build"*" GB "* &&
       "$no_gpu_down" == *"pip install torch torchvision" ]]'
  check "an NVIDIA GPU: the CUDA build, said with its size" \
    '[[ "$gpu_up" == *"CUDA build, for the NVIDIA GPU"*" GB "* && "$gpu_up" != *"--index-url"* ]]'
  check "GRIDPE_TORCH sets what is installed" '[[ "$pinned" == *"pip install torch==2.9.1 torchvision==0.24.1" ]]'
else echo "skip  the choice of torch build: it is tested on Linux"; fi

if [ -x "${GRIDPE_VENV:-.venv}/bin/python" ]; then
  bash tools/dev/setup.sh > "$tmp/first" 2>&1
  again=$(bash tools/dev/setup.sh 2>&1)
  check "a second call keeps torch and the editable install, one line per step" \
    '[[ "$again" == *"torch "*" is installed: kept"* && "$again" == *"gridpe is installed from here"*": kept"* &&
       "$again" != *"installing"* && "$(grep -c "^setup \[" <<< "$again")" == 2 ]]'
else
  echo "skip  a second call: there is no ${GRIDPE_VENV:-.venv} yet (bash tools/dev/setup.sh makes it, in minutes)"
fi
summary
