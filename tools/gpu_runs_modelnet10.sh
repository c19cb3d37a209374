#!/usr/bin/env bash
# ModelNet10 PCT runs of issue 12 on a 4-GPU host (not run yet); resumable like tools/gpu_runs_cifar10.sh.
#   MODE=main       --paper PCT settings, 50 epochs, trained on 512 points, evaluated on 256…1024 (the data has 1024),
#                   the five kinds, 3 seeds: one gridpe-compare job whose 15 worker processes go round-robin to the GPUs
#   MODE=pos_scale  the position-scale ablation: gridpe and rope_axial seeing xyz × 1, × 10 and × 32, 20 epochs, 2 seeds
# Needs .whl/rt (see the CIFAR-10 script) and the ModelNet10 HDF5 folder (modelnet40_ply_hdf5_2048 layout) in .data/mn10.
# No MPS here: a PCT job under MPS hung at start once (H100, 2026-11-26; not investigated); several processes per GPU
# without it gave about the throughput of one (~750 shapes/s per H100, with the farthest-point-sampling loop). Since the
# sampling runs as one Triton kernel (gridpe.geometry), one process trains ~700 shapes/s where the loop gave ~500 (one
# H100, tools/gpu_bench_fps.py); several processes per GPU were not measured with it.
set -u
MODE=${MODE:-main}; LIM=${LIM:-540}; R=${R:-/tmp/runs}
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/rt/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD MPLBACKEND=Agg GRIDPE_CACHE=/tmp/gcache OMP_NUM_THREADS=2 MKL_NUM_THREADS=2
[ -f .data/mn10/train_files.txt ] || { echo "ModelNet10 missing under .data/mn10"; exit 3; }
nvidia-smi -L; date -u; mkdir -p $R/logs
B="--paper --data .data/mn10 --size 512 --eval-sizes 256 384 512 640 768 896 1024 --quiet"
if [ $MODE = main ]; then
  timeout -s INT $LIM python3 -m gridpe.compare points $B --epochs 50 --seeds 0 1 2 --jobs 15 --out $R/modelnet10_pct > $R/logs/modelnet10_pct.log 2>&1
  echo "exit status $?" >> $R/logs/modelnet10_pct.log
else
  for s in 1 10 32; do
    ( timeout -s INT $LIM python3 -m gridpe.compare points $B --epochs 20 --pe gridpe rope_axial --pos-scale $s --seeds 0 1 --jobs 4 \
        --device cuda:$((s % 4)) --out $R/ablation_pct_pos_scale_$s > $R/logs/pos_scale_$s.log 2>&1; echo "exit status $?" >> $R/logs/pos_scale_$s.log ) &
  done
  wait
fi
date -u; grep -h "exit status" $R/logs/*.log | sort | uniq -c
for f in $R/*/history_*; do echo "$f $(($(wc -l < $f) - 1)) epochs"; done
echo "finished runs: $(ls $R/*/parts/*.csv 2>/dev/null | wc -l)"
tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' -C $(dirname $R) $(basename $R)
