#!/usr/bin/env bash
# Space-time runs of nbs/experiments/spacetime.ipynb: a video ViT on Moving Fashion-MNIST (embedded, generated on the
# host) with six positional embeddings (none, ape, rope_axial, rope_mixed, gridpe 3-D, composed = GridPE 2-D on (y, x) +
# RoPE 1-D on t), SEEDS seeds each, trained at 8 frames on a 32-pixel canvas and evaluated at canvases 24-64 and clip
# lengths 4-16. One GPU; the runs go as --jobs processes on it (MPS when available).
# Resumable: every run saves its state after each epoch (gridpe-compare --resume, the default), so calling this again
# continues cut runs and skips finished ones. Runs land in $R (default runs/); with OUT set, they are also packed into
# $OUT/runs.tgz (checkpoints left out). LIM: seconds the job may run before it is stopped (SIGINT, checkpoints kept;
# default: no limit). JOBS: processes at once (default 6).
#
# Size: video_vit_tiny (embed 192, 6 blocks, 4 heads of 48 channels), 1 x 4 x 4 tubelets: 512 tokens a clip at 8 frames
# of 32 px; 8,000 training clips (2,000 test clips per canvas), 15 epochs, batch 128. Estimate: its forward and backward
# cost 8.2 GFLOP a clip (torch FlopCounterMode), as ViT-S on a 32-px CIFAR image (8.3 GFLOP), and on the CPU it took
# 0.68x the time of that image; gpu_runs_cifar10.sh measured ~14k ViT-S images/s on one H100 with several processes
# under MPS, so 18 runs x 8,000 clips x 15 epochs take ~2.6 min, evaluation (validation each epoch, 5 canvases and 5
# lengths at the end: ~0.3M clip-equivalents) ~0.4 min, start-up (imports, drawing the clips) ~0.5 min per round of
# JOBS processes, ~1.5 min: ~4.5 min in all; a cut job resumes where it stopped.
#
# Needs: gridpe importable from this checkout (its dependencies installed, or their wheels in .whl/rt for an offline
# host: installed into ${TMPDIR:-/tmp}/gridpe-site). No data: the clips are drawn from the embedded Fashion-MNIST subset.
set -u
LIM=${LIM:-}; R=${R:-runs}; SEEDS=${SEEDS:-0 1 2}; JOBS=${JOBS:-6}; SITE=${TMPDIR:-/tmp}/gridpe-site
EPOCHS=${EPOCHS:-15}; CLIPS=${CLIPS:-8000}
[ -d .whl/rt ] && python3 -m pip install -q --no-index --no-deps --target $SITE .whl/rt/*.whl 2>/dev/null
export PYTHONPATH=$SITE:$PWD MPLBACKEND=Agg OMP_NUM_THREADS=2 MKL_NUM_THREADS=2
nvidia-smi -L; date -u
echo quit | nvidia-cuda-mps-control 2>/dev/null; sleep 1; nvidia-cuda-mps-control -d && echo "MPS started"
mkdir -p $R/logs
B="video --arch video_vit_tiny --n-heads 4 --size 32 --patch-size 4 --tubelet 1 --frames 8 --eval-sizes 24 32 40 48 64
   --eval-frames 4 6 8 12 16 --clips $CLIPS --epochs $EPOCHS --bs 128 --lr 1e-3 --warmup-epochs 1 --min-lr 1e-5
   --seeds $SEEDS --jobs $JOBS --quiet"
( ${LIM:+timeout -s INT $LIM} python3 -m gridpe.compare $B --pe none ape rope_axial rope_mixed gridpe composed \
    --out $R/spacetime_video_vit_tiny > $R/logs/spacetime.log 2>&1
  echo "exit status $? (124: stopped at the time limit, to be resumed)" >> $R/logs/spacetime.log )
date -u; tail -40 $R/logs/spacetime.log
for f in $R/*/history_*; do echo "$f $(($(wc -l < $f) - 1)) epochs"; done
echo "finished runs: $(ls $R/*/parts/*.csv 2>/dev/null | wc -l)"
[ -n "${OUT:-}" ] && tar czf $OUT/runs.tgz --exclude='*.pth' --exclude='*.tmp' -C $(dirname $R) $(basename $R)
