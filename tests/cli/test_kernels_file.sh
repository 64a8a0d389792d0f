#!/usr/bin/env bash
# `gpulab-bench kernels --file`: a student's kernel checked and traced from the command line, as a grader would run
# it over a folder of submissions: exit 0 right (with a row beside the ladder's), 1 wrong (the reason on stderr and in
# check.reason), 2 does not compile (file:line: message). Usage: bash test_kernels_file.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_kernels_file.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_kernels_file.sh BIN_DIR SCRATCH}
BENCH="$BIN_DIR/gpulab-bench"
KERNELS="$(cd "$(dirname "$0")/../lab/kernels" && pwd)"
mkdir -p "$SCRATCH"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! command -v clang++ >/dev/null && ! ls /usr/bin/clang++-* >/dev/null 2>&1; then
  "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" 2>"$SCRATCH/stderr"; rc=$?
  [[ $rc -eq 2 ]] || fail "without clang the exit code is $rc, not 2"
  grep -q "install" "$SCRATCH/stderr" || fail "without clang it does not say what to install"
  echo "SKIP (clang is not installed; checked that it says so)"
  exit $failures
fi

# No compiler: exit 2 and what to install.
GPULAB_LAB_CLANG=/nonexistent/clang++ "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" >/dev/null 2>"$SCRATCH/stderr"; rc=$?
[[ $rc -eq 2 ]] || fail "without clang the exit code is $rc, not 2"
grep -q "sudo apt install clang" "$SCRATCH/stderr" || fail "without clang it does not say what to install: $(cat "$SCRATCH/stderr")"

# Right: exit 0, the ladder's rows and the file's.
out=$("$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 2>"$SCRATCH/stderr"); rc=$?
[[ $rc -eq 0 ]] || fail "a right kernel exited $rc: $(head -c 400 "$SCRATCH/stderr")"
grep -q "^01_naive " <<<"$out" || fail "no ladder rows beside the file's"
grep -q "^your kernel .* ok$" <<<"$out" || fail "no checked row for the file: $out"
grep -q "Most like 02_coalesced" <<<"$out" || fail "the closest step is not named: $out"

# Wrong: exit 1, the reason on stderr and in the JSON.
"$BENCH" kernels --file "$KERNELS/write_past_end.cu" --size 32 --json >"$SCRATCH/wrong.json" 2>"$SCRATCH/stderr"; rc=$?
[[ $rc -eq 1 ]] || fail "a kernel that writes past C exited $rc, not 1"
grep -q "past its end" "$SCRATCH/stderr" || fail "stderr does not say why: $(cat "$SCRATCH/stderr")"
python3 - "$SCRATCH/wrong.json" <<'PY' || fail "the JSON of a wrong kernel lacks its reason"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["check"]["passed"] is False
assert "past its end" in d["check"]["reason"], d["check"]
assert d["check"]["line"] == 10, d["check"]
PY

# The JSON of a right kernel: the figures a grader reads.
"$BENCH" kernels --file "$KERNELS/right_tiled_16.cu" --size 32 --seed 7 --json >"$SCRATCH/right.json" 2>"$SCRATCH/stderr" ||
  fail "kernels --file --json exited $?: $(head -c 400 "$SCRATCH/stderr")"
python3 - "$SCRATCH/right.json" <<'PY' || fail "the JSON of a right kernel lacks its figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["check"]["passed"] is True and d["check"]["reason"] == "", d["check"]
assert d["check"]["seed"] == 7
t = d["trace"]
for key in ("sectors_per_request", "bytes_per_flop", "bank_conflicts_per_request"):
    assert isinstance(t[key], (int, float)), key
assert t["shared_reuse"] == 16, t
assert d["closest_step"] == "03_shared_tiles", d["closest_step"]
assert len(d["steps"]) == 7
PY

# Does not compile: exit 2, file:line: message.
"$BENCH" kernels --file "$KERNELS/compile_error.cu" >/dev/null 2>"$SCRATCH/stderr"; rc=$?
[[ $rc -eq 2 ]] || fail "a compile error exited $rc, not 2"
grep -q "compile_error.cu:8: use of undeclared identifier 'colum'" "$SCRATCH/stderr" ||
  fail "the compile error is not at its line: $(cat "$SCRATCH/stderr")"

[[ $failures -eq 0 ]] && echo "PASS"
exit $failures
