#!/usr/bin/env bash
# Issue 28, section 2: `calc decode --prompt N` prints the time to first token (the prefill: one batch of N,
# compute-bound once N passes the ridge) beside the decode ceiling (one token a pass, memory-bound). Figures worked
# by hand in tests/unit/test_models_prefill.cpp: 7B FP16 on an H100 SXM (989.4 TFLOP/s, 3,350 GB/s), 1,000 tokens:
# 1.4e13 FLOPs = 14.15 ms against 4.18 ms of weights; 100 tokens: 1.42 ms against 4.18 ms; ridge 295.3 tokens.
# Usage: bash test_calc_prefill.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_calc_prefill.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage}
BENCH="$BIN_DIR/gpulab-bench"
mkdir -p "$SCRATCH"
[[ -x "$BENCH" ]] || { echo "FAIL: $BENCH not found"; exit 1; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {  # expect PATTERN ARGS...: calc ARGS prints PATTERN (a fixed string)
  local pattern=$1; shift
  local out
  out=$("$BENCH" calc "$@" 2>&1) || fail "calc $* exited $?: $out"
  grep -qF -- "$pattern" <<<"$out" || fail "calc $*: no '$pattern' in: $out"
}
usage() { "$BENCH" calc "$@" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "calc $* was not refused with exit 2"; }

H100=(--params 7e9 --card "H100 SXM" --precision fp16)
expect "time to first token >= 14.15 ms (compute-bound, compute-bound from ~296 tokens), then 239 tokens/s" \
  decode "${H100[@]}" --prompt 1000
expect "14.0 GB of weights = 4.18 ms" decode "${H100[@]}" --prompt 1000
expect "time to first token >= 4.18 ms (memory-bound" decode "${H100[@]}" --prompt 100
# The same with a peak given by hand instead of the card's.
expect "time to first token >= 14.15 ms" decode --params 7e9 --bandwidth 3350 --peak-tflops 989.4 --precision fp16 --prompt 1000
# JSON: the prefill's figures by name.
json=$("$BENCH" calc decode "${H100[@]}" --prompt 1000 --json 2>&1) || fail "json exited $?"
python3 - "$json" <<'PY' || fail "json prefill figures: $json"
import json, sys
row = json.loads(sys.argv[1])["rows"][0]["prefill"]
assert abs(row["time_to_first_token_s"] - 0.0141500) < 1e-6, row
assert abs(row["memory_s"] - 0.0041791) < 1e-6, row
assert row["compute_bound"] is True, row
assert abs(row["compute_bound_from_tokens"] - 295.343) < 1e-2, row
PY
# Mixtral 8x7B: each token multiplies by 12.9e9 active params, but a prompt reads every expert (93.4 GB): a
# 1,000-token prompt is still memory-bound (26.08 ms of compute, 27.88 ms of weights), compute-bound from ~1,070.
expect "time to first token >= 27.88 ms (memory-bound, compute-bound from ~1,070 tokens)" \
  decode --params 46702792704 --active-params 12.9e9 --card "H100 SXM" --precision fp16 --prompt 1000
# Without a compute roof there is no prefill time; a prompt is a whole number of tokens.
usage decode --params 7e9 --bandwidth 3350 --prompt 1000
usage decode "${H100[@]}" --prompt 0
usage decode "${H100[@]}" --prompt 10.5

[[ $failures -eq 0 ]] && echo "PASS" || exit 1
