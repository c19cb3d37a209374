#!/usr/bin/env bash
# Tests of tools/gpu/run_set.sh, in seconds, with a stand-in for gridpe-compare that only writes down its arguments:
# the runs start in the order file's order, a run whose arm and seed a collected SET_runs.csv lists (DONE) is not
# started again, MIN_LEFT keeps a run from starting near the time limit, and --flags gives an arm's settings; and
# tools/gpu/collect_set.py collects the runs of a commit before the kind column was renamed (`pe`) and after (`kind`).
# Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source tools/dev/shell_checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the stand-in: one line per call, the seed and the arm's folder
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in --seeds) s=$2;; --out) o=$2;; esac; shift; done\n%s\n' \
  'echo "$s $o ${CUDA_VISIBLE_DEVICES:-}" >> "'"$tmp"'/calls"' > "$tmp/gc"
chmod +x "$tmp/gc"
drive() { env PATH="$PATH" GRIDPE_COMPARE="$tmp/gc" R="$tmp/runs" J=1 "$@" bash tools/gpu/run_set.sh > "$tmp/out" 2>&1; }
calls() { cut -d' ' -f1,2 "$tmp/calls" 2>/dev/null | sed "s|$tmp/runs/selection/||" | awk '{print $2, $1}'; }

drive SET=selection
check "every run of the order starts, in the file's order" '[ "$(calls)" = "$(cat nbs/experiments/orders/selection.txt)" ]'

rm -f "$tmp/calls"
drive SET=selection CUDA_VISIBLE_DEVICES=1,3
check "the runs go in turn to the cards this process may use, by their ids" \
  '[ "$(cut -d" " -f3 "$tmp/calls" | sort | uniq -c | tr -s " " | tr "\n" ";")" = " 3 1; 3 3;" ]'

rm -f "$tmp/calls"
printf 'arm,pe,seed,commit\ngridpe,gridpe,201,abc\nrope_mixed,rope_mixed,200,abc\n' > "$tmp/done.csv"
drive SET=selection DONE="$tmp/done.csv"
check "a run listed in DONE (a collected SET_runs.csv) does not start again; the others do, in order" \
  '[ "$(calls)" = "$(grep -v -e "^gridpe 201$" -e "^rope_mixed 200$" nbs/experiments/orders/selection.txt)" ]'
check "the driver says how many runs DONE holds" 'grep -q "2 runs finished already (DONE)" "$tmp/out"'

rm -f "$tmp/calls"
drive SET=selection DONE="$tmp/missing.csv"
check "a DONE file that does not exist stops the driver before any run" '[ ! -s "$tmp/calls" ] && grep -q "missing.csv" "$tmp/out"'

rm -f "$tmp/calls"
drive SET=selection LIM=30 MIN_LEFT=60
check "no run starts with fewer than MIN_LEFT seconds left" '[ ! -s "$tmp/calls" ]'

flags=$(SET=resolution bash tools/gpu/run_set.sh --flags rope_axial_gspec)
check "--flags gives an arm's kind and options" \
  '[[ "$flags" == *"--size 16"*"--pe rope_axial --kind-options rope_axial={\"per_block\":false,"* ]]'
flags=$(SET=dims_pilot bash tools/gpu/run_set.sh --flags rope_mixed@n4_s500)
check "--flags gives a scene pilot its dimension and scene count" \
  '[[ "$flags" == "nd "*"--ndim 4 --n-scenes 500 --pe rope_mixed" ]]'
flags=$(SET=spacetime_pilot bash tools/gpu/run_set.sh --flags composed@c8000_e60)
check "--flags gives a space-time pilot its clips and epochs, once each" \
  '[[ "$flags" == "video "*"--clips 8000 --epochs 60"*"--pe composed" && "$flags" != *"--clips  "* ]]'

rm -f "$tmp/calls"
drive SET=spacetime_pilot ONLY='@c8000_e60$'
check "ONLY starts the order's runs whose arm it matches, in order" \
  '[ "$(cut -d" " -f2 "$tmp/calls" | sed "s|$tmp/runs/spacetime_pilot/||" | sort -u | tr "\n" " ")" = \
     "ape/c8000_e60 composed/c8000_e60 gridpe/c8000_e60 none/c8000_e60 rope_axial/c8000_e60 rope_mixed/c8000_e60 " ] \
   && [ "$(wc -l < "$tmp/calls")" -eq 12 ]'
# a finished run as gridpe-compare leaves it, its kind column named $2: arm folder $1
fake_run() {
  mkdir -p "$1/parts"
  echo '{"task": "image", "out": "here", "seeds": [200]}' > "$1/config.json"
  printf '%s,seed,checkpoint,epoch,size,metric,value\ngridpe,200,last,49,16,top1,0.5\n' "$2" > "$1/parts/gridpe_seed200.csv"
  echo '{"provenance": {"commit": "abc", "torch": "2.10", "card": "H200", "resumed": []}}' > "$1/parts/gridpe_seed200.json"
}
for col in pe kind; do
  fake_run "$tmp/sets/$col/selection/gridpe" $col
  python3 tools/gpu/collect_set.py "$tmp/sets/$col/selection" --dest "$tmp/collected/$col" > /dev/null
  check "collect_set collects runs whose kind column is $col, keeping its name" \
    '[ "$(head -1 "$tmp/collected/'$col'/selection.csv")" = "arm,'$col',seed,checkpoint,epoch,size,metric,value" ] \
     && [[ "$(head -1 "$tmp/collected/'$col'/selection_runs.csv")" == "arm,'$col',seed,commit,"* ]] \
     && [ "$(sed -n 2p "$tmp/collected/'$col'/selection_runs.csv" | cut -d, -f1-3)" = "gridpe,gridpe,200" ]'
done
# a second session's run, added to the collected files, leaves the first run's rows as they were, byte for byte
second=$tmp/sets/second/selection/rope_mixed
fake_run "$second" kind
for x in csv json; do sed 's/,200,/,201,/' "$second/parts/gridpe_seed200.$x" > "$second/parts/gridpe_seed201.$x"; done
rm "$second"/parts/gridpe_seed200.*
cp -r "$tmp/collected/kind" "$tmp/before"
python3 tools/gpu/collect_set.py "$tmp/sets/second/selection" --dest "$tmp/collected/kind" --add > /dev/null
same() { [ "$(head -n "$(wc -l < "$tmp/before/$1")" "$tmp/collected/kind/$1")" = "$(cat "$tmp/before/$1")" ]; }
check "collect_set --add keeps the committed rows byte for byte and adds the new run's" \
  'same selection_runs.csv && same selection.csv \
   && [ "$(sed -n 3p "$tmp/collected/kind/selection_runs.csv" | cut -d, -f1-3)" = "rope_mixed,gridpe,201" ]'
summary
