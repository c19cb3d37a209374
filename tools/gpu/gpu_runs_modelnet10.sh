#!/usr/bin/env bash
# ModelNet10 PCT runs of nbs/experiments/reproduction.ipynb on a GPU host (any number of GPUs; see
# nbs/experiments/gpus.ipynb); resumable, $R, $OUT and LIM as in tools/gpu/gpu_runs_cifar10.sh.
#   MODE=main       --paper PCT settings, 50 epochs, trained on 512 points, evaluated on 256…1024 (the data has 1024),
#                   the five kinds, seeds $SEEDS (default 0 1 2): one gridpe-compare job, one worker process per run,
#                   round-robin over the GPUs. $OUT/runs.tgz holds finished runs only (checkpoints are left out), so
#                   where checkpoints do not survive between starts, give each start runs it can finish: e.g.
#                   SEEDS="0 1", then SEEDS=2, unpacked into one folder.
#                   (ran 2026-11-27 on 4x H100 80GB HBM3 in 341 s, all 15 processes at once under MPS, 202–253 s each:
#                   results/modelnet10_pct*)
#   MODE=pos_scale  the position-scale ablation: gridpe and rope_axial seeing xyz × 1, × 10 and × 32, 10 epochs, 2 seeds
#                   (ran 2026-11-26 on one H100 in 234 s, 12 processes under MPS: results/ablation_pct_pos_scale.csv)
#   MODE=pos_scale50  the position-scale ablation on the main table's schedule (50 epochs, seeds 0 1 2): the four arms the
#                   main folder lacks (gridpe × 10 and × 32, rope_axial × 1 and × 32; the official scales, gridpe × 1 and
#                   rope_axial × 10, are modelnet10_pct's runs), 12 processes: results/ablation_pct_pos_scale_50ep.csv
#   MODE=all        main and pos_scale at once (27 processes)
# In the background (setsid nohup ... &), poll for $R/done (written at the end), never `pgrep -f gridpe.compare`: that
# matches the polling shell's own command line. Needs gridpe importable (or .whl/rt, see the CIFAR-10 script) and the
# ModelNet10 HDF5 folder (modelnet40_ply_hdf5_2048 layout) in .data/mn10.
# Throughput (one H100 80GB HBM3, random clouds, --paper recipe, gridpe): with the channel-last neighbour MLP
# (gridpe.pct.PointwiseConv) and the Triton farthest-point sampling, 8 processes under MPS trained ~2,970 shapes/s
# together in steady state (~1,660 with the 1×1 convolutions; 1.3x end to end with start-up); one process ~700. MPS ran
# 8, 12 and 27 PCT processes (one and two H100s) without trouble (a PCT job under MPS hung once at start, not reproduced).
set -u
MODE=${MODE:-main}; LIM=${LIM:-}; R=${R:-runs}; SEEDS=${SEEDS:-0 1 2}; T=${TMPDIR:-/tmp}
[ -d .whl/rt ] && python3 -m pip install -q --no-index --no-deps --target $T/gridpe-site .whl/rt/*.whl 2>/dev/null
export PYTHONPATH=$T/gridpe-site:$PWD MPLBACKEND=Agg OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
export CUDA_MPS_PIPE_DIRECTORY=$T/gridpe-mps CUDA_MPS_LOG_DIRECTORY=$T/gridpe-mpslog; mkdir -p $T/gridpe-mps $T/gridpe-mpslog
[ -f .data/mn10/train_files.txt ] || { echo "ModelNet10 missing under .data/mn10"; exit 3; }
nvidia-smi -L; date -u; mkdir -p $R/logs
echo quit | nvidia-cuda-mps-control 2>/dev/null; sleep 1; nvidia-cuda-mps-control -d && echo "MPS started"
B="--paper --data .data/mn10 --size 512 --eval-sizes 256 384 512 640 768 896 1024 --quiet"
run() { local name=$1; shift; ${LIM:+timeout -s INT $LIM} python3 -m gridpe.compare points $B "$@" --out $R/$name > $R/logs/$name.log 2>&1
        echo "exit status $?" >> $R/logs/$name.log; }
if [ $MODE = main ] || [ $MODE = all ]; then run modelnet10_pct --epochs 50 --seeds $SEEDS --jobs $((5 * $(echo $SEEDS | wc -w))) & fi
if [ $MODE = pos_scale50 ]; then                                                  # on 4 GPUs: 3 runs on each
  G=$(nvidia-smi -L | wc -l); on() { [ $G -ge 4 ] && export CUDA_VISIBLE_DEVICES=$1; shift; run "$@"; }
  ( on 0 ablation_pct_pos_scale_50ep_1 --epochs 50 --pe rope_axial --pos-scale 1 --seeds 0 1 2 --jobs 3 ) &
  ( on 1 ablation_pct_pos_scale_50ep_10 --epochs 50 --pe gridpe --pos-scale 10 --seeds 0 1 2 --jobs 3 ) &
  ( on 2,3 ablation_pct_pos_scale_50ep_32 --epochs 50 --pe gridpe rope_axial --pos-scale 32 --seeds 0 1 2 --jobs 6 ) &
fi
if [ $MODE = size256 ]; then                      # the paper's ratio: trained at 256 points, evaluated up to 4x that
  run modelnet10_pct_256 --epochs 50 --size 256 --eval-sizes 128 192 256 384 512 640 768 1024 --seeds $SEEDS \
      --jobs ${JOBS:-$((5 * $(echo $SEEDS | wc -w)))} &
fi
if [ $MODE = pos_scale ] || [ $MODE = all ]; then
  for s in 1 10 32; do run ablation_pct_pos_scale_$s --epochs 10 --pe gridpe rope_axial --pos-scale $s --seeds 0 1 --jobs 4 & done
fi
wait
date -u; grep -h "exit status" $R/logs/*.log | sort | uniq -c
for f in $R/*/history_*; do echo "$f $(($(wc -l < $f) - 1)) epochs"; done
echo "finished runs: $(ls $R/*/parts/*.csv 2>/dev/null | wc -l)"
echo quit | nvidia-cuda-mps-control; touch $R/done
[ -n "${OUT:-}" ] && tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' -C $(dirname $R) $(basename $R)
