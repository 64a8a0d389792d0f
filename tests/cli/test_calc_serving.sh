#!/usr/bin/env bash
# Issue 36: `calc decode` counts every user's KV cache in a batched step and checks that the caches fit, and a
# mixture of experts under batching reads the experts the batch touches. Figures worked by hand in
# tests/unit/test_models_serving.cpp.
# Usage: bash test_calc_serving.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_calc_serving.sh BIN_DIR SCRATCH}
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
absent() {  # absent PATTERN ARGS...: calc ARGS does not print PATTERN
  local pattern=$1; shift
  local out
  out=$("$BENCH" calc "$@" 2>&1) || fail "calc $* exited $?: $out"
  grep -qF -- "$pattern" <<<"$out" && fail "calc $*: '$pattern' should not be in: $out"
  return 0
}
usage() { "$BENCH" calc "$@" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "calc $* was not refused with exit 2"; }

SHOP=(decode --params 7e9 --card "RTX 4090" --precision fp16 --users 8)
# 8 users at 4,096 tokens on the 24 GB card (24 GiB, 25.8 GB): 14.0 GB + 17.2 GB read a step, 32.3 tokens/s each
# (not 72), and the caches do not fit: 5 users do at that context, 8 up to 2,561 tokens each (counted as 24 x 10^9
# bytes it was 4 users and 2,139 tokens: the card's memory is in GiB, as its driver reports).
expect "+ 17.2 GB of KV cache" "${SHOP[@]}" --context 4096
expect "32.3 per user" "${SHOP[@]}" --context 4096
absent "72.0 per user (" "${SHOP[@]}" --context 4096
expect "DOES NOT FIT - the caches do not fit beside the weights" "${SHOP[@]}" --context 4096
expect "at most 5 users fit; 8 users fit up to 2,561 tokens each" "${SHOP[@]}" --context 4096
# The default context is the VRAM page's 4,096.
expect "8 users at 4,096 tokens each" "${SHOP[@]}"
# At a context that fits (2,048) the rate still counts the cache: 14.0 + 8.6 GB -> 44.6 per user, 357 in total.
expect "44.6 per user" "${SHOP[@]}" --context 2048
expect "357 tokens/s in total" "${SHOP[@]}" --context 2048
expect "23.6 GB of 25.8 GB (24 GiB): fits" "${SHOP[@]}" --context 2048
# Grouped-query attention (Llama 3 8B, 8 KV heads): a cache 4x smaller, 8 users fit at 4,096 tokens.
expect "536.9 MB a user" decode --model llama-3-8b --card "RTX 4090" --precision fp16 --users 8
expect "49.5 per user" decode --model llama-3-8b --card "RTX 4090" --precision fp16 --users 8
# An FP8 cache halves the cache: twice the users fit at 4,096 tokens (10 against FP16's 5).
expect "at most 10 users fit" "${SHOP[@]}" --kv-precision fp8
# JSON carries the fit.
json=$("$BENCH" calc "${SHOP[@]}" --json 2>&1) || fail "json exited $?"
python3 - "$json" <<'PY' || fail "calc decode --json: the batch's fit is wrong"
import json, sys
d = json.loads(sys.argv[1])
b = d["rows"][0]["batch"]
assert b["context_tokens"] == 4096, b
assert abs(b["per_user_tokens_per_s"] - 32.33) < 0.01, b
assert abs(b["per_user_tokens_per_s_without_kv"] - 72.0) < 1e-9, b
assert b["fit"]["fits"] is False and b["fit"]["max_users_at_context"] == 5, b  # of 24 GiB
PY

# Mixture of experts under batching: Mixtral's 8 users touch 1 - 0.75^8 = 90 % of each layer's experts, so a step
# reads 84.4 GB (of 93.4), not 25.8.
MIX=(decode --params 46702792704 --active-params 12.9e9 --bandwidth 3350 --precision fp16 --context 0)
expect "a step reads 84.4 GB of weights (the batch touches 90.0% of each layer's experts)" "${MIX[@]}" --users 8
expect "39.7 per user" "${MIX[@]}" --users 8
expect "a step reads 25.8 GB of weights" "${MIX[@]}" --users 1
expect "90.0%" decode --params 46.7e9 --active-params 12.9e9 --experts 8 --active-experts 2 --bandwidth 3350 --users 8
expect "the weights alone (93.4 GB + 1 GB overhead) are more than the card" \
  decode --model mixtral-8x7b --card "H100 SXM" --precision fp16 --users 8
usage decode --params 7e9 --bandwidth 3350 --experts 8
usage decode --params 7e9 --active-params 2e9 --bandwidth 3350 --experts 8 --active-experts 8
usage decode --params 7e9 --bandwidth 3350 --kv-precision fp32
usage decode --params 7e9 --card "RTX 4090" --card-gb 24
usage decode --model no-such-model --bandwidth 3350

finish
