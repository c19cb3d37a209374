#!/usr/bin/env bash
# Compiled against eager end to end (tools/gpu/gpu_bench_compile_e2e.py) on every GPU of a host. The jobs (ViT-S
# and ViT-Ti, seeds 0 and 1) go to the cards in turn, and each card trains its jobs one after another. Within a job the
# three modes take turns on its card, in an order rotated from job to job.
#
#   E2E_JOBS  comma-separated "arch seed" jobs (default "vit_small 0,vit_small 1,vit_tiny 0,vit_tiny 1")
#   DATA   CIFAR-10 as an ImageFolder tree (default .data/cifar10);  EPOCHS  (default 15)
#   LIM    seconds after which each job is stopped, keeping the modes it finished (default: none)
#   R      folder of the results (default runs/compile_e2e), copied to $OUT when set
#
#   EPOCHS=15 bash tools/gpu/gpu_bench_compile_e2e.sh
#   E2E_JOBS="vit_small 0" bash tools/gpu/gpu_bench_compile_e2e.sh     # one job, on the first card
set -u
DATA=${DATA:-.data/cifar10}; EPOCHS=${EPOCHS:-15}; R=${R:-runs/compile_e2e}; LIM=${LIM:-}
E2E_JOBS=${E2E_JOBS:-"vit_small 0,vit_small 1,vit_tiny 0,vit_tiny 1"}
export MPLBACKEND=Agg OMP_NUM_THREADS=4 PYTHONUNBUFFERED=1
mkdir -p "$R"; nvidia-smi -L; date -u
source "$(dirname "$0")/cards.sh"
G=$(cards)
ORDERS=("none default reduce-overhead" "default reduce-overhead none" "reduce-overhead none default"
        "none reduce-overhead default")
# the jobs named, each "arch seed"; blank entries left out
IFS=, read -ra named <<< "$E2E_JOBS"
todo=()
for j in "${named[@]}"; do
  set -- $j
  [ $# -eq 0 ] && continue
  [ $# -eq 2 ] || { echo "E2E_JOBS: '$j' is not \"arch seed\""; exit 2; }
  todo+=("$j")
done
# one job: its index in the list (the modes' order) and its card
job() {
  local i=$1 card=$2; set -- ${todo[$i]}
  ${LIM:+timeout -s INT $LIM} python3 tools/gpu/gpu_bench_compile_e2e.py --data "$DATA" --arch $1 --seed $2 \
    --epochs $EPOCHS --modes ${ORDERS[$((i % ${#ORDERS[@]}))]} --device cuda:$card --out "$R/$1_seed$2.json" \
    > "$R/$1_seed$2.log" 2>&1
}
for card in $(seq 0 $((G - 1))); do
  (for i in "${!todo[@]}"; do [ $((i % G)) -ne "$card" ] || job "$i" "$card"; done) &
done
wait; date -u
grep -h "seed" "$R"/*.log; grep -ch "skipping cudagraphs" "$R"/*.log
[ -n "${OUT:-}" ] && cp "$R"/*.json "$R"/*.log "$OUT"/
