#!/usr/bin/env bash
# Compiled against eager end to end (tools/gpu/gpu_bench_compile_e2e.py) on a host of 4 GPUs: ViT-S on cards 0 and 1
# (seeds 0 and 1), ViT-Ti on cards 2 and 3 (seeds 0 and 1). On each card the three modes take turns, in an order
# rotated from card to card. CIFAR-10 as an ImageFolder tree in $DATA (default .data/cifar10); EPOCHS (default 15);
# results in $R (default runs/compile_e2e), copied to $OUT when set.
set -u
DATA=${DATA:-.data/cifar10}; EPOCHS=${EPOCHS:-15}; R=${R:-runs/compile_e2e}; LIM=${LIM:-}
export MPLBACKEND=Agg OMP_NUM_THREADS=4 PYTHONUNBUFFERED=1
mkdir -p $R; nvidia-smi -L; date -u
ORDERS=("none default reduce-overhead" "default reduce-overhead none" "reduce-overhead none default"
        "none reduce-overhead default")
i=0
for job in "vit_small 0" "vit_small 1" "vit_tiny 0" "vit_tiny 1"; do
  set -- $job
  ${LIM:+timeout -s INT $LIM} python3 tools/gpu/gpu_bench_compile_e2e.py --data $DATA --arch $1 --seed $2 --epochs $EPOCHS \
    --modes ${ORDERS[$i]} --device cuda:$i --out $R/$1_seed$2.json > $R/$1_seed$2.log 2>&1 &
  i=$((i + 1))
done
wait; date -u
grep -h "seed" $R/*.log; grep -ch "skipping cudagraphs" $R/*.log
[ -n "${OUT:-}" ] && cp $R/*.json $R/*.log $OUT/
