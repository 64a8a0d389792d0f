#!/usr/bin/env bash
# tests/gpu/device-check.sh end to end on this machine, acting as a bare GPU server: the dependencies come only
# from a folder made by tools/fetch-core-deps (CMake is told to ignore /, /usr and /usr/local, so no system
# nlohmann-json, GoogleTest or OpenBLAS is found), GoogleTest is built from the sources in that folder, and with
# no GPU the CPU path runs: configure, build, `ctest -L gpu` (skipping), a short bench, a recording.
# First it checks the refusals: without nlohmann-json, and without GoogleTest, the script stops at once (exit 3)
# and names what is missing, before building anything.
# Usage: test_device_check.sh BIN_DIR SCRATCH_DIR (BIN_DIR is unused: device-check builds its own core).
set -u
SCRATCH="$2"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$REPO/tests/gpu/device-check.sh"
# The build folder outlives the scratch folder, so a second run rebuilds only what changed.
BUILD="${SCRATCH%/}-build"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"

fail() { echo "FAIL: $*" >&2; exit 1; }
BARE=(env GPULAB_BUILD_DIR="$BUILD" "GPULAB_CHECK_CMAKE_ARGS=-DCMAKE_IGNORE_PREFIX_PATH=/;/usr;/usr/local")

# ---- the dependencies, as a GPU server would get them ----
"$REPO/tools/fetch-core-deps" "$SCRATCH/deps" >"$SCRATCH/fetch.log" 2>&1 || { cat "$SCRATCH/fetch.log"; fail "tools/fetch-core-deps failed"; }
cat "$SCRATCH/fetch.log"
[ -f "$SCRATCH/deps/usr/include/nlohmann/json.hpp" ] || fail "fetch-core-deps brought no nlohmann/json.hpp"
[ -f "$SCRATCH/deps/usr/src/googletest/CMakeLists.txt" ] || fail "fetch-core-deps brought no GoogleTest sources"
size=$(du -sb "$SCRATCH/deps" | cut -f1)
[ "$size" -le $((16 << 20)) ] || fail "the deps folder is $size bytes; it must travel with the tree (keep it under 16 MiB)"

# Three variants of it: nothing; nlohmann-json only; nlohmann-json and GoogleTest's sources (no prebuilt library,
# as on a server whose compiler cannot link Debian's libgtest.a).
mkdir -p "$SCRATCH/none"
cp -a "$SCRATCH/deps" "$SCRATCH/json-only"
rm -rf "$SCRATCH"/json-only/usr/src "$SCRATCH"/json-only/usr/include/gtest "$SCRATCH"/json-only/usr/lib/*/libgtest* \
       "$SCRATCH"/json-only/usr/lib/*/cmake/GTest
cp -a "$SCRATCH/deps" "$SCRATCH/sources"
rm -rf "$SCRATCH"/sources/usr/include/gtest "$SCRATCH"/sources/usr/lib/*/libgtest* "$SCRATCH"/sources/usr/lib/*/cmake/GTest

# ---- refusals: at once, exit 3, naming what is missing, nothing built ----
refused() {  # refused DEPS WORD
  local out="$SCRATCH/refused-$(basename "$1")" start=$SECONDS
  "${BARE[@]}" bash "$CHECK" --deps "$1" "$out" >"$out.stdout" 2>&1
  local rc=$?
  cat "$out.stdout"
  [ $rc -eq 3 ] || fail "deps $(basename "$1"): exit $rc, expected 3 (refused)"
  [ $((SECONDS - start)) -le 60 ] || fail "deps $(basename "$1"): the refusal took $((SECONDS - start)) s"
  grep -q "^REFUSED: .*$2" "$out/summary.txt" || fail "deps $(basename "$1"): the summary does not name $2"
  ls "$out" | grep -q recording && fail "deps $(basename "$1"): a recording was written after a refusal"
  grep -q "^PASS  build" "$out/summary.txt" && fail "deps $(basename "$1"): it built before refusing"
  echo "== refused without $2 (exit 3 after $((SECONDS - start)) s)"
}
refused "$SCRATCH/none" "nlohmann-json"
refused "$SCRATCH/json-only" "GoogleTest"

# ---- the whole check on the CPU path ----
OUT="$SCRATCH/out"
start=$SECONDS
"${BARE[@]}" bash "$CHECK" --deps "$SCRATCH/sources" "$OUT"
rc=$?
echo "== device-check: exit $rc after $((SECONDS - start)) s"
[ $rc -eq 0 ] || { tail -30 "$OUT/build.log" "$OUT/tests.log" "$OUT/bench.log" 2>/dev/null; fail "device-check exited $rc"; }

S="$OUT/summary.txt"
grep -E '^(FAIL|TIME|REFUSED)' "$S" && fail "a step did not pass (see above)"
for what in "dependency probe" "googletest from source" "configure" "build" "devices" "ctest -L gpu" "bench --suite"; do
  grep -q "^PASS  $what" "$S" || fail "summary.txt has no PASS for \"$what\""
done
grep -q "^SKIP  compute-sanitizer" "$S" || fail "summary.txt does not say why compute-sanitizer was skipped"
grep -q "^SKIP  torch.matmul" "$S" || fail "summary.txt does not say why the torch comparison was skipped"
grep -q "status PASS" "$S" || fail "summary.txt does not end with status PASS"
grep -q "GTest at $BUILD/_deps/googletest" "$S" || fail "GoogleTest did not come from its sources in the deps folder"
grep -q "nlohmann_json .* at $SCRATCH/sources/" "$S" || fail "nlohmann-json did not come from the deps folder"

# At most 8 files, each a plain file of at most 16 MiB, and no temporary left behind.
count=$(find "$OUT" -mindepth 1 | wc -l)
[ "$count" -le 8 ] || fail "$count entries in OUTDIR (at most 8): $(ls -A "$OUT")"
find "$OUT" -mindepth 1 ! -type f | grep -q . && fail "OUTDIR holds something that is not a plain file"
big=$(find "$OUT" -type f -size +16M)
[ -z "$big" ] || fail "files over 16 MiB: $big"
ls -A "$OUT" | grep -q '^\.' && fail "a hidden (temporary) file was left in OUTDIR: $(ls -A "$OUT")"

recs=("$OUT"/recording-*.json)
[ ${#recs[@]} -eq 1 ] && [ -s "${recs[0]}" ] || fail "expected one recording in OUTDIR, found: ${recs[*]}"
python3 - "${recs[0]}" <<'PY' || fail "the recording is not valid"
import json, sys
with open(sys.argv[1]) as f:
    doc = json.load(f)
assert doc.get("format") == "gpulab-recording" and doc.get("version") == 1, "format/version"
ctx, results = doc["context"], doc["results"]
assert all(isinstance(v, str) for v in ctx.values()), "context values are strings"
assert isinstance(results, list) and len(results) >= 1, "at least one result"
ok = [r for r in results if r["error"] == "" and r["stats"]["median_s"] > 0]
assert ok, "at least one result was measured"
assert ctx["gpu"] == "none" and ctx.get("gpu_reason"), "no GPU here, and it says why"
assert "device_check_parts" in ctx, "the merge says which suites it holds"
print("recording: %d results (%d measured), suite %s" % (len(results), len(ok), ctx["suite"]))
PY
echo "PASS"
