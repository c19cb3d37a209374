#!/usr/bin/env bash
# Run one set of the pre-registered experiments (nbs/experiments/protocol.md, section 5) on every GPU of a host: the
# runs of nbs/experiments/orders/$SET.txt in the file's order, J at a time per card (MPS lets them share it), the cards
# taken in turn. Each run is one `gridpe-compare` process, one kind and one seed, in its arm's folder under $R/$SET.
# Resumable: a finished run is skipped ("done already"), a run another process trains is skipped, and a run cut by the
# optional time limit keeps its per-epoch checkpoint, from which the same command resumes it exactly.
#
#   SET   selection | resolution | rotation_images | dimensions | rotation_scenes | spacetime, or a calibration pilot:
#         dims_pilot (arms kind@n<n>_s<scenes>) | spacetime_pilot (arms kind@c<clips>_e<epochs>)
#   LIM   seconds after which every run is stopped, its checkpoint kept (default: none); MIN_LEFT  no run starts with
#         fewer seconds than this left (default 60: a host whose files do not outlast the limit wants a run's length)
#   J     runs at once per card (default 4);  R  folder of the runs (default runs);  DATA  CIFAR-10 as an ImageFolder
#         tree (default .data/cifar10);  S2 S4 S8  the calibrated scene counts;  CLIPS EPOCHS  the calibrated video
#         settings (the protocol's amendments give them)
#   DONE  a collected SET_runs.csv (collect_set.py): its runs finished on an earlier host and are not started again
#   ONLY  an extended regular expression: only the order's runs whose arm it matches start (the 60-epoch space-time
#         pilots at the chosen clips: ONLY='@c8000_e60$')
#   GRIDPE_COMPARE  the command (default: gridpe-compare, or python3 -m gridpe.compare where it is not installed)
#
#   SET=selection LIM=3600 bash tools/gpu/run_set.sh
#
# Every run records its provenance (commit, torch, card, start and end); on a copy of the code without its .git, set
# GRIDPE_COMMIT to the commit copied. Gather the finished runs with `python tools/gpu/collect_set.py $R/$SET`.
set -u
: "${SET:?SET names the set}"; J=${J:-4}; R=${R:-runs}; DATA=${DATA:-.data/cifar10}
ORDER=$(dirname "$0")/../../nbs/experiments/orders/$SET.txt
[ -f "$ORDER" ] || { echo "no order file $ORDER (python tools/gpu/orders.py writes them)"; exit 2; }
command -v gridpe-compare >/dev/null && GC=${GRIDPE_COMPARE:-gridpe-compare} || GC=${GRIDPE_COMPARE:-python3 -m gridpe.compare}
source "$(dirname "$0")/cards.sh"
# the cards: how many, and each one's id for a run's CUDA_VISIBLE_DEVICES
G=$(cards); IDS=$(card_ids)
COMMON_RES="image --paper --data $DATA --arch vit_tiny --n-heads 2 --lr 5e-4 --size 16 --patch-size 2
  --eval-sizes 16 20 24 28 32 --epochs 50 --eval-scaling none pi ntk yarn --eval-rotations 0 15 30 45 --quiet"
COMMON_DIMS="nd --arch scene_vit --head-dim 64 --n-heads 2 --noise 0.3 --size 32 --epochs 60 --bs 128 --lr 1e-3
  --eval-rotations 0 15 30 45 --quiet"
COMMON_ST="video --arch video_vit_tiny --n-heads 4 --size 32 --patch-size 4 --tubelet 1 --frames 8
  --eval-sizes 24 32 40 48 64 --eval-frames 4 6 8 12 16 --bs 128 --lr 1e-3 --warmup-epochs 1 --min-lr 1e-5
  --label direction_speed --quiet"
AXES='gridpe={"per_block":true,"pe_options":{"base":10000,"rotate":"fixed","directions":"axes"}}'
RANDOM_DIRS='gridpe={"per_block":true,"pe_options":{"base":10000,"rotate":"head","directions":"random"}}'
GSPEC='rope_axial={"per_block":false,"pe_options":{"spectrum":"gridpe","base":10000}}'
AXES_SCENES='gridpe={"pe_options":{"rotate":"fixed","directions":"axes"}}'

# the settings of one arm of the set: the set's common settings, --pe and --kind-options (the JSON holds no spaces)
set_flags() {
  local arm=${1%@*} n=${1#*@n} common
  case $SET in
    selection|resolution) common=$COMMON_RES ;;
    rotation_images) common="$COMMON_RES --train-rotations 45" ;;
    dimensions|rotation_scenes)
      [ "$SET" = dimensions ] || n=2
      local s; eval "s=\${S$n:-}"
      [ -n "$s" ] || { echo "S$n, the calibrated count of scenes at n = $n, is not set" >&2; return 2; }
      common="$COMMON_DIMS --ndim $n --n-scenes $s"
      [ "$SET" = dimensions ] || common="$common --train-rotations 45" ;;
    spacetime)
      [ -n "${CLIPS:-}" ] && [ -n "${EPOCHS:-}" ] || { echo "CLIPS and EPOCHS, the calibrated ones, are not set" >&2; return 2; }
      common="$COMMON_ST --clips $CLIPS --epochs $EPOCHS" ;;
    # pilots: the arm names its level (kind@n<n>_s<scenes>, kind@c<clips>_e<epochs>)
    dims_pilot) local r=${1#*@n}; common="$COMMON_DIMS --ndim ${r%_s*} --n-scenes ${r#*_s}" ;;
    spacetime_pilot) local r=${1#*@c}; common="$COMMON_ST --clips ${r%_e*} --epochs ${r#*_e}" ;;
    *) echo "unknown set $SET" >&2; return 2 ;;
  esac
  case $arm in
    gridpe_axes) [ "$SET" = dimensions ] || [ "$SET" = rotation_scenes ] && echo "$common --pe gridpe --kind-options $AXES_SCENES" \
                   || echo "$common --pe gridpe --kind-options $AXES" ;;
    gridpe_random) echo "$common --pe gridpe --kind-options $RANDOM_DIRS" ;;
    rope_axial_gspec) echo "$common --pe rope_axial --kind-options $GSPEC" ;;
    *) echo "$common --pe $arm" ;;
  esac
}
# the folder of an arm: kind@n<n> -> <kind>/n<n>
folder() { local a=${1/@/\/}; echo "$R/$SET/$a"; }

# one run: card, arm, seed (not started once fewer than MIN_LEFT seconds are left before the deadline)
run_one() {
  local left=$(( ${DEADLINE:-0} - $(date +%s) )) to=
  if [ -n "${DEADLINE:-}" ]; then [ $left -gt "${MIN_LEFT:-60}" ] || return 0; to="timeout -s INT $left"; fi
  local flags; flags=$(set_flags "$2") || { echo "$2 $3: $flags"; return 0; }
  CUDA_VISIBLE_DEVICES=$1 $to $GC $flags --seeds $3 --out "$(folder "$2")" >> "$R/$SET/logs/${2/@/_}.log" 2>&1
  echo "$(date -u +%H:%M:%S) $2 seed $3: exit status $?"
}
if [ "${1:-}" = --flags ]; then set_flags "$2"; exit; fi
export SET R GC MIN_LEFT COMMON_RES COMMON_DIMS COMMON_ST AXES RANDOM_DIRS GSPEC AXES_SCENES S2 S4 S8 CLIPS EPOCHS 2>/dev/null
[ -n "${LIM:-}" ] && export DEADLINE=$(( $(date +%s) + LIM ))
export -f run_one set_flags folder
mkdir -p "$R/$SET/logs"
if command -v nvidia-cuda-mps-control >/dev/null; then
  echo quit | nvidia-cuda-mps-control 2>/dev/null; sleep 1; nvidia-cuda-mps-control -d && echo "MPS started"
fi
# the order's runs whose arm ONLY matches; todo: those less the runs DONE lists (its columns arm and seed)
matching() { awk -v only="${ONLY:-}" 'only == "" || $1 ~ only' "$ORDER"; }
todo() {
  if [ -z "${DONE:-}" ]; then matching; return; fi
  matching | awk -F, '
    NR == FNR { if (FNR == 1) for (i = 1; i <= NF; i++) c[$i] = i; else d[$c["arm"] " " $c["seed"]]; next }
    { split($0, r, " ") } !((r[1] " " r[2]) in d)' "$DONE" -
}
if [ -n "${DONE:-}" ]; then
  [ -f "$DONE" ] || { echo "DONE names $DONE, which does not exist"; exit 2; }
  echo "$(( $(matching | wc -l) - $(todo | wc -l) )) runs finished already (DONE): $DONE"
fi
date -u; echo "set $SET: $(todo | wc -l) runs, $G card(s), $J at a time per card, ${LIM:-no} time limit"
todo | awk -v ids="$IDS" 'BEGIN { n = split(ids, c, " ") } { print c[(NR - 1) % n + 1], $1, $2 }' \
  | xargs -P $((G * J)) -L 1 bash -c 'run_one "$@"' _
command -v nvidia-cuda-mps-control >/dev/null && { sleep 2; echo quit | nvidia-cuda-mps-control 2>/dev/null; }
echo "finished runs: $(ls "$R/$SET"/*/parts/*.csv "$R/$SET"/*/*/parts/*.csv 2>/dev/null | wc -l) of $(wc -l < "$ORDER")"
