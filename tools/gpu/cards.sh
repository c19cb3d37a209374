# Sourced by the GPU scripts. `cards` prints how many GPUs this process may use: the entries of CUDA_VISIBLE_DEVICES
# where it is set, else the GPUs that nvidia-smi lists (not their MIG instances), else 1 (the default device).
cards() {
  local n
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then n=$(tr ',' '\n' <<< "$CUDA_VISIBLE_DEVICES" | grep -c .)
  else n=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c .); fi
  if [ "$n" -gt 0 ]; then echo "$n"; else echo 1; fi
}
# `card_ids` prints their ids for a child's CUDA_VISIBLE_DEVICES, space-separated: the entries where it is set, else
# 0 to cards - 1.
card_ids() {
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then tr ',' '\n' <<< "$CUDA_VISIBLE_DEVICES" | grep . | paste -sd' '
  else seq -s' ' 0 $(($(cards) - 1)); fi
}
