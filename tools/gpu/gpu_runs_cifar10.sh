#!/usr/bin/env bash
# CIFAR-10 ViT-S runs of nbs/experiments/reproduction.ipynb on a 4-GPU host (see nbs/experiments/gpus.ipynb).
# Resumable: every run saves its state after each epoch (gridpe-compare --resume, the default), so calling this again
# continues cut runs and skips finished ones. Runs land in $R (default runs/); with OUT set, they are also packed into
# $OUT/runs.tgz (checkpoints left out). Gather them with `python tools/gpu/collect_runs.py <runs folder>`.
# LIM: seconds each job may run before it is stopped (SIGINT, checkpoint kept; default: no limit).
#
#   MODE=short  10 epochs (1 warm-up): the five kinds, and the ablation arms positions/rotation/ratio/per_block (as run
#               for the write-up: SEEDS="0 1")
#   MODE=main   50 epochs (5 warm-up): the five kinds, 3 seeds (the main table)
#   MODE=heads  10 epochs: GridPE with 1, 2, 8 and 16 heads at width 384 (64, 32, 8 and 4 scales per head; 4 heads =
#               16 scales is the short set's gridpe), the paper's scales x heads ablation (under 3 min)
#   MODE=heads_kinds  10 epochs, seeds 0 1 2: is the heads effect GridPE's alone? APE, RoPE-Axial and RoPE-Mixed at
#               8 and 16 heads, GridPE with fixed rotations at 16 heads, and seed 2 of the 4-head reference and of
#               GridPE at 8 and 16 heads (27 runs; on one GPU at most JOBS=4 at once under MPS)
#
# Needs: gridpe importable from this checkout (its dependencies installed, or their wheels in .whl/rt for an offline
# host: installed into ${TMPDIR:-/tmp}/gridpe-site) and CIFAR-10 as an ImageFolder tree in .data/cifar10 (train/, test/),
# or as .data/c10train.tgz / .data/c10test.tgz (tar.gz of those trees: 16 + 3 MB, easier to copy than 60,000 files).
# Throughput (4x H100 80GB HBM3): one process trains ViT-S at 32 px at ~3.9k img/s (CPU-bound); several processes per
# GPU under MPS with OMP_NUM_THREADS=2 reached ~8.2k img/s per GPU with fastai's Adam (7 per GPU; start-up and
# evaluation included, ~11.7k from the epoch times); without the thread limit, 3-4 processes per GPU on a 64-core host
# reached only ~4.2k. With ForeachAdam (the Learners' default) MODE=main's 15 processes (3-4 per GPU) took a median
# 13 s per 50,000-image epoch each (~14k img/s per GPU).
set -u
MODE=${MODE:-short}; LIM=${LIM:-}; R=${R:-runs}; SITE=${TMPDIR:-/tmp}/gridpe-site
source "$(dirname "$0")/cifar10_setup.sh"
python3 -c "from gridpe.config import resolve; from gridpe.tasks import TASKS; TASKS['image'].data(resolve('image', paper=True, data='.data/cifar10', size=32, eval_sizes=[16, 64]))"  # fills the cache once
if [ $MODE = main ]; then EP="--epochs 50"; else EP="--epochs 10 --warmup-epochs 1"; fi
SEEDS=${SEEDS:-0 1}; [ $MODE = main ] && SEEDS=${MAIN_SEEDS:-0 1 2}
B="--paper --data .data/cifar10 --size 32 --patch-size 4 --eval-sizes 16 24 32 40 48 56 64 $EP --seeds $SEEDS --jobs $(echo $SEEDS | wc -w) --attention --quiet"
i=0; G=$(nvidia-smi -L | wc -l); END=$(($(date +%s) + ${LIM:-1000000000})); JOBS=${JOBS:-$((4 * G))}
go() { local name=$1 kind=$2; shift 2          # one job per (folder, kind) on one GPU (GPUs in turn), its seeds at once
       while [ $(jobs -rp | wc -l) -ge $JOBS ]; do sleep 2; done          # at most JOBS at once; all stop at LIM
       local left=$((END - $(date +%s))); [ $left -gt 30 ] || return 0
       ( timeout -s INT $left python3 -m gridpe.compare image $B --pe $kind --device cuda:$((i % G)) --out $R/$name "$@" >> $R/logs/${name}_$kind.log 2>&1
         echo "exit status $? (124: stopped at the time limit, to be resumed)" >> $R/logs/${name}_$kind.log ) &
       i=$((i + 1)); }
if [ $MODE = main ]; then                        # one job: its 15 worker processes go round-robin to the GPUs (4, 4, 4, 3)
  ( ${LIM:+timeout -s INT $LIM} python3 -m gridpe.compare image $B --pe none ape rope_axial rope_mixed gridpe --jobs 15 --out $R/cifar10_vit_small > $R/logs/cifar10_vit_small.log 2>&1
    echo "exit status $? (124: stopped at the time limit, to be resumed)" >> $R/logs/cifar10_vit_small.log ) &
elif [ $MODE = heads ]; then
  for h in 1 2 8 16; do go ablation_scales_heads_$h gridpe --n-heads $h; done
elif [ $MODE = heads_kinds ]; then               # one process per run, the longest queue first
  for s in 0 1 2; do for h in 8 16; do for k in ape rope_axial rope_mixed; do
    go ablation_heads_kinds_$h $k --n-heads $h --seeds $s --jobs 1; done; done
    go ablation_heads_fixed_16 gridpe --n-heads 16 --seeds $s --jobs 1 \
       --kind-options 'gridpe={"per_block": true, "pe_options": {"base": 10000, "rotate": "fixed"}}'; done
  for h in 8 16; do go ablation_scales_heads_${h}_seed2 gridpe --n-heads $h --seeds 2 --jobs 1; done
  for k in ape rope_axial rope_mixed gridpe; do go cifar10_vit_small_10ep_seed2 $k --seeds 2 --jobs 1; done
else
  G() { echo "gridpe={\"per_block\": $1, \"pe_options\": {$2\"rotate\": \"$3\"}}"; }
  for k in none ape rope_axial rope_mixed gridpe; do go cifar10_vit_small_10ep $k; done
  for k in rope_axial rope_mixed gridpe; do go ablation_positions_scaled $k --pos-mode scaled; done
  go ablation_rotation_random gridpe --kind-options "$(G true '"base": 10000, ' random)"
  go ablation_rotation_fixed gridpe --kind-options "$(G true '"base": 10000, ' fixed)"
  go ablation_ratio_economy gridpe --kind-options "$(G true '' head)"
  go ablation_ratio_base100 gridpe --kind-options "$(G true '"base": 100, ' head)"
  for k in gridpe rope_mixed; do go ablation_per_block_shared $k --kind-options "$(G false '"base": 10000, ' head)" 'rope_mixed={"per_block": false}'; done
fi
wait                                            # timeout stops each job with SIGINT; its checkpoint stays for the next start
date -u; grep -h "exit status" $R/logs/*.log | sort | uniq -c
sleep 3; pgrep -af "gridpe.compare" && echo "^ still running after the time limit"
for f in $R/*/history_*; do echo "$f $(($(wc -l < $f) - 1)) epochs"; done
echo "finished runs: $(ls $R/*/parts/*.csv 2>/dev/null | wc -l)"
[ -n "${OUT:-}" ] && tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' -C $(dirname $R) $(basename $R)
