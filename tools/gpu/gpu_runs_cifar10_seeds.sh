#!/usr/bin/env bash
# More seeds for the CIFAR-10 ViT-S main table (50 epochs, the settings of MODE=main in gpu_runs_cifar10.sh), to decide
# GridPE against RoPE-Axial and RoPE-Mixed, which 3 seeds leave undecided (nbs/experiments/reproduction.ipynb, section 1).
# One GPU, several runs at once under MPS. Resumable: every run saves its state
# after each epoch, so calling this again continues cut runs and skips finished ones, until every (kind, seed) is done
# (the last line prints how many are). Runs land in $R/cifar10_vit_small_seeds (default R=runs); with OUT set they are
# also packed into $OUT/runs.tgz (checkpoints left out). Gather them with `python tools/gpu/collect_runs.py <runs folder>`.
#
#   SEEDS  seeds to add (default "3 4 5 6 7": 8 seeds per kind with the committed 0 1 2)
#   KINDS  kinds (default "gridpe rope_axial rope_mixed"); every kind runs every seed, so kinds that lack different
#          seeds go in separate calls (each call's finished runs are kept, and collect_runs.py --add merges them)
#   JOBS   runs at once on the GPU (default 4)
#   LIM    seconds before the job is stopped, checkpoints kept (default: no limit)
#   DEVICE one device for every run (default: the workers go round-robin over the GPUs)
#
# What the seeds buy (gridpe.stats.seeds_needed; seed SD 0.5 points at 32 px as measured with 3 seeds, 1.2 at 64 px;
# two-sided Welch test, 80% power): 8 seeds per arm detect a true gap of 0.75 points at 32 px for one planned test
# (1.0 with Holm over the 7 sizes) and 1.8 at 64 px; 12 seeds 0.6 / 0.8; the paper's GridPE − RoPE-Axial of +0.44 at
# its training size needs 22 seeds per arm (35 with Holm over the 7 sizes). Equivalence within ±1 point of two kinds
# that truly agree needs 6 seeds per arm (9 over the 7 sizes).
#
# Time (4x H100 80GB HBM3, MODE=main: 3-4 runs per GPU under MPS took a median 13 s per epoch each, ~14k img/s per GPU):
# about 175 s of one H100 per 50-epoch run, some 20 runs an hour of one H100. The default 15 runs
# (3 kinds x 5 seeds) need about 45 minutes of one H100; to 22 seeds for GridPE and RoPE-Axial only (SEEDS="3 ... 21",
# KINDS="gridpe rope_axial": 38 runs) about 110 minutes. A 4-GPU machine: set JOBS=15; MPS per GPU as in
# gpu_runs_cifar10.sh. On 2x H200 (JOBS=11, round-robin, 6 and 5 runs per GPU) the runs trained about 0.55 epochs
# per second together, some 34 runs an hour.
#
# Needs: gridpe importable from this checkout (or the wheels in .whl/rt for an offline host, installed into
# ${TMPDIR:-/tmp}/gridpe-site) and CIFAR-10 as an ImageFolder tree in .data/cifar10 (train/, test/) or as
# .data/c10train.tgz / .data/c10test.tgz.
set -u
SEEDS=${SEEDS:-3 4 5 6 7}; KINDS=${KINDS:-gridpe rope_axial rope_mixed}; JOBS=${JOBS:-4}; LIM=${LIM:-}
R=${R:-runs}; SITE=${TMPDIR:-/tmp}/gridpe-site
source "$(dirname "$0")/cifar10_setup.sh"
${LIM:+timeout -s INT $LIM} python3 -m gridpe.compare image --paper --data .data/cifar10 --size 32 --patch-size 4 \
  --eval-sizes 16 24 32 40 48 56 64 --epochs 50 --pe $KINDS --seeds $SEEDS --jobs $JOBS ${DEVICE:+--device $DEVICE} --attention --quiet \
  --out $R/cifar10_vit_small_seeds > $R/logs/cifar10_vit_small_seeds.log 2>&1
echo "exit status $? (124: stopped at the time limit, to be resumed)" | tee -a $R/logs/cifar10_vit_small_seeds.log
sleep 3; echo quit | nvidia-cuda-mps-control 2>/dev/null
for f in $R/cifar10_vit_small_seeds/history_*; do [ -f "$f" ] && echo "$f $(($(wc -l < $f) - 1)) epochs"; done
echo "finished runs: $(ls $R/cifar10_vit_small_seeds/parts/*.csv 2>/dev/null | wc -l) of $(($(echo $KINDS | wc -w) * $(echo $SEEDS | wc -w)))"
[ -n "${OUT:-}" ] && tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' -C $(dirname $R) $(basename $R)
