#!/usr/bin/env bash
# Tests of tools/gpu/gpu_bench_compile_e2e.sh, in seconds, with stand-ins for nvidia-smi (a host of $CARDS GPUs) and for
# python3 (it writes down the job's card, arch, seed and modes): every job runs once, the jobs go to the cards in turn,
# and a job's modes keep their order whatever the number of cards. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source tools/dev/shell_checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\ni=0; while [ $i -lt "$CARDS" ]; do echo "GPU $i: NVIDIA H200"; i=$((i + 1)); done\n' \
  > "$tmp/bin/nvidia-smi"
printf '#!/bin/sh\nshift; while [ $# -gt 0 ]; do case $1 in --arch) a=$2;; --seed) s=$2;; --device) d=$2;;
  --modes) m="$2 $3 $4";; esac; shift; done\necho "$d $a $s $m" >> "%s/calls"\n' "$tmp" > "$tmp/bin/python3"
chmod +x "$tmp/bin/"*
bench() { rm -f "$tmp/calls"; env PATH="$tmp/bin:$PATH" R="$tmp/r" "$@" bash tools/gpu/gpu_bench_compile_e2e.sh \
            > "$tmp/out" 2>&1; sort "$tmp/calls"; }

calls=$(bench CARDS=4)
check "four cards: one job each, the modes in a rotated order" '[ "$calls" = \
"cuda:0 vit_small 0 none default reduce-overhead
cuda:1 vit_small 1 default reduce-overhead none
cuda:2 vit_tiny 0 reduce-overhead none default
cuda:3 vit_tiny 1 none reduce-overhead default" ]'
calls=$(bench CARDS=2)
check "two cards: the jobs in turn, two each, each job's modes as on four" '[ "$calls" = \
"cuda:0 vit_small 0 none default reduce-overhead
cuda:0 vit_tiny 0 reduce-overhead none default
cuda:1 vit_small 1 default reduce-overhead none
cuda:1 vit_tiny 1 none reduce-overhead default" ]'
calls=$(bench CARDS=1 JOBS="vit_small 0")
check "JOBS names the jobs: one, on the first card" '[ "$calls" = "cuda:0 vit_small 0 none default reduce-overhead" ]'
summary
