#!/usr/bin/env bash
# The dimension sweep of nbs/experiments/dimensions.ipynb (gridpe-compare nd) on one GPU; resumable: a cut run keeps
# its finished runs and epoch checkpoints, and the same command goes on. $R: the runs folder; $OUT (optional): where
# runs.tgz (finished runs, no checkpoints) is copied; LIM: seconds each gridpe-compare may take (default: no limit).
#   MODE=calib  difficulty: n = 2 and 8, rope_axial and gridpe, 500, 1000 or 2000 training scenes, 60 epochs, one
#               seed (at 4000 scenes and 30 epochs, 16 or 32 tokens and noise 0.1 or 0.3, both kinds reached 93-100%;
#               at 1000 scenes, 41-49% at n = 2 and 81-84% at n = 8: the main settings)
#   MODE=main   n = 1 2 3 4 6 8, the five kinds, seeds $SEEDS (default 0 1 2), head size 64 (scene_vit, 4 blocks)
#   MODE=wide   head size 128 at n = 4 6 8 (same settings otherwise)
#   MODE=knobs  GridPE's own settings at n = 2 4 8: rotations fixed (random is the default), base 10000 instead of
#               the ratio at the e^(1/n) bound
# The settings of main, wide and knobs are $B below; every n is its own gridpe-compare process (their jobs run at once
# under MPS), then one more call of the whole sweep writes sweep.csv and sweep.png from the finished runs.
set -u
MODE=${MODE:-main}; LIM=${LIM:-}; R=${R:-runs}; SEEDS=${SEEDS:-0 1 2}; T=${TMPDIR:-/tmp}
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target $T/gridpe-site .whl/*.whl 2>/dev/null
export PYTHONPATH=$T/gridpe-site:$PWD MPLBACKEND=Agg OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
export CUDA_MPS_PIPE_DIRECTORY=$T/gridpe-mps CUDA_MPS_LOG_DIRECTORY=$T/gridpe-mpslog; mkdir -p $T/gridpe-mps $T/gridpe-mpslog
nvidia-smi -L; date -u; mkdir -p $R/logs
echo quit | nvidia-cuda-mps-control 2>/dev/null; sleep 1; nvidia-cuda-mps-control -d && echo "MPS started"
B=${B:---arch scene_vit --head-dim 64 --n-heads 2 --n-scenes 1000 --epochs 60 --bs 128 --size 32 --noise 0.3 --quiet}
run() { local name=$1; shift; ${LIM:+timeout -s INT $LIM} python3 -m gridpe.compare nd "$@" --out $R/$name >> $R/logs/$name.log 2>&1
        echo "exit status $?" >> $R/logs/$name.log; }
sweep() { local name=$1 dims=$2; shift 2
          for n in $dims; do run $name $B --ndim $n "$@" & done; wait; run $name $B --ndim $dims "$@"; }
KINDS="none ape rope_axial rope_mixed gridpe"
if [ $MODE = calib ]; then
  for s in 500 1000 2000; do
    run calib_s$s $B --n-scenes $s --epochs 60 --ndim 2 8 --pe rope_axial gridpe --seeds 0 --jobs 4 &
  done; wait
fi
[ $MODE = main ] && sweep nd "1 2 3 4 6 8" --pe $KINDS --seeds $SEEDS --jobs 5
[ $MODE = wide ] && B="$B --head-dim 128" sweep nd_wide "4 6 8" --pe $KINDS --seeds $SEEDS --jobs 5
if [ $MODE = knobs ]; then
  sweep nd_fixed "2 4 8" --pe gridpe --seeds $SEEDS --jobs 3 --kind-options 'gridpe={"pe_options":{"rotate":"fixed"}}' &
  sweep nd_base "2 4 8" --pe gridpe --seeds $SEEDS --jobs 3 --kind-options 'gridpe={"pe_options":{"base":10000}}' &
  wait
fi
date -u; grep -h "exit status" $R/logs/*.log | sort | uniq -c
echo "finished runs: $(ls $R/*/*/parts/*.csv 2>/dev/null | wc -l)"
echo quit | nvidia-cuda-mps-control; touch $R/done
[ -n "${OUT:-}" ] && tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' --exclude='*.lock' -C $(dirname $R) $(basename $R)
true
