#!/usr/bin/env bash
# Tests of tools/gpu/gpu_bench_compile_e2e.sh and tools/gpu/cards.sh, in seconds, with stand-ins for nvidia-smi (a host
# of $CARDS GPUs, each split into $MIG instances) and for python3 (it writes down the job's card, arch, seed and
# modes): every job runs once, the jobs go to the cards in turn, one at a time per card, a job's modes keep their order
# whatever the number of cards, and the cards counted are the GPUs this process may use. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source tools/dev/shell_checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# nvidia-smi -L: a line per GPU and per MIG instance; --query-gpu=index: a line per GPU
cat > "$tmp/bin/nvidia-smi" <<'STUB'
#!/bin/bash
for ((i = 0; i < CARDS; i++)); do
  if [ "$1" = -L ]; then echo "GPU $i: NVIDIA H200"; for ((m = 0; m < ${MIG:-0}; m++)); do echo "  MIG $m"; done
  else echo $i; fi
done
STUB
# python3: the job's card, arch, seed and modes; in "$tmp/order", its card as it starts and as it ends (0.3 s later)
printf '#!/bin/sh\nshift; while [ $# -gt 0 ]; do case $1 in --arch) a=$2;; --seed) s=$2;; --device) d=$2;;
  --modes) m="$2 $3 $4";; esac; shift; done\necho "$d $a $s $m" >> "%s/calls"
echo "start $d" >> "%s/order"; sleep 0.3; echo "end $d" >> "%s/order"\n' "$tmp" "$tmp" "$tmp" > "$tmp/bin/python3"
chmod +x "$tmp/bin/"*
# the script with the stand-ins, none of the caller's settings, and the given ones: the calls, sorted
bench() {
  rm -f "$tmp/calls"
  env -u E2E_JOBS -u JOBS -u OUT -u LIM -u EPOCHS -u CUDA_VISIBLE_DEVICES PATH="$tmp/bin:$PATH" R="$tmp/r" "$@" \
    bash tools/gpu/gpu_bench_compile_e2e.sh > "$tmp/out" 2>&1
  sort "$tmp/calls" 2>/dev/null
}

calls=$(bench CARDS=4)
check "four cards: one job each, the modes in a rotated order" '[ "$calls" = \
"cuda:0 vit_small 0 none default reduce-overhead
cuda:1 vit_small 1 default reduce-overhead none
cuda:2 vit_tiny 0 reduce-overhead none default
cuda:3 vit_tiny 1 none reduce-overhead default" ]'
rm -f "$tmp/order"
calls=$(bench CARDS=2)
check "a card trains its jobs one after another, the cards at once" \
  '[ "$(grep -c "cuda:0" "$tmp/order")" = 4 ] && [ "$(grep "cuda:0" "$tmp/order" | paste -sd" ")" = \
     "start cuda:0 end cuda:0 start cuda:0 end cuda:0" ] && [ "$(sed -n 2p "$tmp/order" | cut -d" " -f1)" = start ]'
check "two cards: the jobs in turn, two each, each job's modes as on four" '[ "$calls" = \
"cuda:0 vit_small 0 none default reduce-overhead
cuda:0 vit_tiny 0 reduce-overhead none default
cuda:1 vit_small 1 default reduce-overhead none
cuda:1 vit_tiny 1 none reduce-overhead default" ]'
calls=$(bench CARDS=1 E2E_JOBS="vit_small 0")
check "E2E_JOBS names the jobs: one, on the first card" \
  '[ "$calls" = "cuda:0 vit_small 0 none default reduce-overhead" ]'
calls=$(bench CARDS=2 JOBS=15 E2E_JOBS="vit_small 0,,vit_tiny 1, ")
check "blank entries are left out; another script's JOBS is not read" '[ "$calls" = \
"cuda:0 vit_small 0 none default reduce-overhead
cuda:1 vit_tiny 1 default reduce-overhead none" ]'
calls=$(bench CARDS=1 E2E_JOBS="vit_small")
check "an entry without its seed stops the script before any job" \
  '[ -z "$calls" ] && grep -q "E2E_JOBS: .vit_small. is not" "$tmp/out"'
# the count of cards.sh in a shell of the given settings
counted() { env -u CUDA_VISIBLE_DEVICES "$@" "$BASH" -c "source tools/gpu/cards.sh; cards"; }
check "cards: the GPUs, not their MIG instances" '[ "$(counted PATH="$tmp/bin:$PATH" CARDS=2 MIG=3)" = 2 ]'
ids() { "$BASH" -c "source tools/gpu/cards.sh; card_ids"; }
check "card_ids: each card's id for a child's CUDA_VISIBLE_DEVICES" \
  '[ "$(env -u CUDA_VISIBLE_DEVICES PATH="$tmp/bin:$PATH" CARDS=2 bash -c "$(declare -f ids); ids")" = "0 1" ] \
   && [ "$(CUDA_VISIBLE_DEVICES=1,3 ids)" = "1 3" ]'
check "cards: CUDA_VISIBLE_DEVICES's entries where it is set" \
  '[ "$(counted PATH="$tmp/bin:$PATH" CARDS=4 CUDA_VISIBLE_DEVICES=1,3)" = 2 ]'
# a PATH of the tools cards.sh uses, without nvidia-smi
mkdir "$tmp/none"
for t in tr grep; do ln -s "$(command -v $t)" "$tmp/none/$t"; done
check "cards: 1 without nvidia-smi" '[ "$(counted PATH="$tmp/none")" = 1 ]'
summary
