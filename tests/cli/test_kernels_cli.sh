#!/usr/bin/env bash
# `gpulab-bench kernels`: the ladder traced on the CPU emulator from the command line. Every step is listed and
# checked, --json is valid with the hand-countable figures (naive: 32 sectors per A request at a row stride of
# 64 floats), and bad input exits 2. Usage: bash test_kernels_cli.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_kernels_cli.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_kernels_cli.sh BIN_DIR SCRATCH}
BENCH="$BIN_DIR/gpulab-bench"
mkdir -p "$SCRATCH"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! "$BENCH" kernels --size 8 --step 01_naive >/dev/null 2>"$SCRATCH/probe.err"; then
  if grep -q "no traced kernels" "$SCRATCH/probe.err"; then
    echo "SKIP: this build has no traced kernels (clang++ missing)"
    exit 0
  fi
fi

out=$("$BENCH" kernels --size 64 2>"$SCRATCH/stderr"); rc=$?
[[ $rc -eq 0 ]] || fail "kernels --size 64 exited $rc: $(head -c 300 "$SCRATCH/stderr")"
for step in 01_naive 02_coalesced 03_shared_tiles 04_blocktile_1d 05_blocktile_2d 06_vectorized 07_warptile; do
  grep -q "^$step .* ok$" <<<"$out" || fail "no checked row for $step"
done
grep -q "counts exact, times not a GPU's" <<<"$out" || fail "the table does not say where its numbers come from"

"$BENCH" kernels --size 64 --step 01_naive --json >"$SCRATCH/naive.json" 2>"$SCRATCH/stderr" ||
  fail "kernels --json exited $?"
python3 - "$SCRATCH/naive.json" <<'PY' || fail "the JSON does not hold the hand-counted figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "traced on the CPU emulator", d["kind"]
step = d["steps"][0]
a = next(i for i in step["instructions"] if i["name"] == "load A")
assert a["requests"] == 64 * 64 * 64 // 32, a
assert a["sectors"] == 32 * a["requests"], a
assert step["check_passed"] is True
PY

for bad in "--size 0" "--size 513" "--m x" "--bogus"; do
  # shellcheck disable=SC2086
  "$BENCH" kernels $bad >/dev/null 2>&1; rc=$?
  [[ $rc -eq 2 ]] || fail "kernels $bad exited $rc, not 2"
done

if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "PASS: kernels CLI"
