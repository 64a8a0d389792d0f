#!/usr/bin/env bash
# Issue 28, section 2: `calc vram --kv-precision` and mixture of experts (`--active-params`, the Mixtral 8x7B and
# Qwen3-30B-A3B presets) on `calc vram` and `calc decode`. Figures worked by hand in tests/unit/test_models_moe.cpp
# and tests/unit/test_models_vram.cpp (KvCacheFormatsStretchContextAndUsers).
# Usage: bash test_calc_moe_kv.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_calc_moe_kv.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage}
BENCH="$BIN_DIR/gpulab-bench"
mkdir -p "$SCRATCH"
[[ -x "$BENCH" ]] || { echo "FAIL: $BENCH not found"; exit 1; }
source "$(dirname "$0")/cli_checks.sh"
expect() {  # expect PATTERN ARGS...: calc ARGS prints PATTERN (a fixed string)
  local pattern=$1; shift
  local out
  out=$("$BENCH" calc "$@" 2>&1) || fail "calc $* exited $?: $out"
  grep -qF -- "$pattern" <<<"$out" || fail "calc $*: no '$pattern' in: $out"
}
usage() { "$BENCH" calc "$@" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "calc $* was not refused with exit 2"; }

# KV-cache formats: the 7B in FP16 on 24 GB at 4,096 tokens fits 4, 8, 14 users; one user reaches 17,115 / 34,230 /
# 60,853 tokens (issue 36: a prefill chunk's working space, and q4_0's scales in an INT4 cache).
expect "most users that fit at 4,096 tokens: 4" vram --params 7e9 --precision fp16 --card-gb 24
expect "most users that fit at 4,096 tokens: 8" vram --params 7e9 --precision fp16 --card-gb 24 --kv-precision fp8
expect "most users that fit at 4,096 tokens: 14" vram --params 7e9 --precision fp16 --card-gb 24 --kv-precision int4
expect "1 user): 60,853 tokens" vram --params 7e9 --precision fp16 --card-gb 24 --kv-precision int4
expect "147,456 B/token (INT4)" vram --params 7e9 --precision fp16 --kv-precision int4
expect '"kv_precision": "FP8"' vram --params 7e9 --precision fp16 --kv-precision fp8 --json
usage vram --params 7e9 --precision fp16 --kv-precision fp32
usage vram --params 7e9 --mode lora --kv-precision fp8

# Mixture of experts: memory follows the total, decode the active parameters.
expect "93.4 GB" vram --model mixtral-8x7b --precision fp16
expect "25.8 GB" vram --model mixtral-8x7b --precision fp16
expect "fits: NO" vram --model mixtral-8x7b --precision fp16 --card "H100 SXM"
expect '"active_params": 3300000000' vram --model qwen3-30b-a3b --precision bf16 --json
expect "at most 130 tokens/s" decode --params 46.7e9 --active-params 12.9e9 --bandwidth 3350 --precision fp16
expect "read whole: at most 35.9 tokens/s" decode --params 46.7e9 --active-params 12.9e9 --bandwidth 3350 --precision fp16
expect "at most 508 tokens/s" decode --params 30.5e9 --active-params 3.3e9 --card "H100 SXM" --precision bf16
usage decode --params 7e9 --active-params 8e9 --bandwidth 3350
usage vram --params 7e9 --active-params 8e9

finish
