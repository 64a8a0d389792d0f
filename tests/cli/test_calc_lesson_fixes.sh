#!/usr/bin/env bash
# Issue 14: `calc amdahl` never prints "0.0 % of the workers' worth"; `calc vram` assumes the VRAM page's default
# context (4,096 tokens: 17.4 GB for 7B FP16) and says so; full training in INT4 is refused with QLoRA offered.
# Usage: bash test_calc_lesson_fixes.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_calc_lesson_fixes.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage}
BENCH="$BIN_DIR/gpulab-bench"
mkdir -p "$SCRATCH"
[[ -x "$BENCH" ]] || { echo "FAIL: $BENCH not found"; exit 1; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$BENCH" calc amdahl --serial 0.5 --workers 4096)
grep -qF "0.049% of the workers' worth" <<<"$out" || fail "amdahl 0.5/4096: $out"
grep -qF "0.0% of" <<<"$out" && fail "amdahl prints 0.0%: $out"

out=$("$BENCH" calc vram --params 7e9 --precision fp16)
grep -qF "4,096 tokens (default)" <<<"$out" || fail "vram default context not said: $out"
grep -qE "total +17\.4 GB" <<<"$out" || fail "vram 7B FP16 default total is not the page's 17.4 GB: $out"
"$BENCH" calc --help 2>&1 | grep -qF "default 4096" || fail "usage does not state the default context"

err=$("$BENCH" calc vram --params 7e9 --mode train --precision int4 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 ]] || fail "train int4 exited $rc"
grep -qF "QLoRA" <<<"$err" || fail "train int4 does not offer QLoRA: $err"

[[ $failures -eq 0 ]] && echo "PASS" || exit 1
