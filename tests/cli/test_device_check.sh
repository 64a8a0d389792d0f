#!/usr/bin/env bash
# tests/gpu/device-check.sh end to end on this machine, acting as a bare GPU server: the dependencies come only
# from a folder made by tools/fetch-core-deps (CMake is told to ignore /, /usr and /usr/local, so no system
# nlohmann-json, GoogleTest, OpenBLAS, Vulkan headers or glslc is found), GoogleTest is built from the sources in
# that folder, the Vulkan loader, headers and glslc are unpacked from its .debs into a private prefix, and with no
# GPU the CPU path runs: configure, build, a short bench, the Vulkan module on lavapipe (allowed on purpose:
# GPULAB_VULKAN_ALLOW_CPU=1), `ctest -L gpu` (skipping), one recording.
# First it checks the refusals: without nlohmann-json, and without GoogleTest, the script stops at once (exit 3)
# and names what is missing, before building anything. Last, on the same build folder: a suite cut by its cap is
# marked "cut" and is not a failure (exit 0); a failing step makes the exit status 1 and leaves a partial
# recording; `--resume` with that recording runs only what is missing and keeps what the first try measured.
# Usage: test_device_check.sh BIN_DIR SCRATCH_DIR (BIN_DIR is unused: device-check builds its own core).
set -u
SCRATCH="$2"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$REPO/tests/gpu/device-check.sh"
# The build folder outlives the scratch folder, so a second run rebuilds only what changed.
BUILD="${SCRATCH%/}-build"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"

fail() { echo "FAIL: $*" >&2; exit 1; }
# GPULAB_CHECK_CUDA=off: with no GPU the script would build the CUDA module for sm_90 only to prove it compiles,
# a third compile of it in CI (the normal build compiles it for every architecture, tests/compilers.sh with gcc 11);
# about a third of this test's 757 s on a fresh clone. On the lent GPU the module is built for the GPU, as before.
BARE=(env GPULAB_BUILD_DIR="$BUILD" GPULAB_VULKAN_ALLOW_CPU=1 GPULAB_CHECK_CUDA=off
      "GPULAB_CHECK_CMAKE_ARGS=-DCMAKE_IGNORE_PREFIX_PATH=/;/usr;/usr/local")

# ---- the dependencies, as a GPU server would get them ----
"$REPO/tools/fetch-core-deps" "$SCRATCH/deps" >"$SCRATCH/fetch.log" 2>&1 || { cat "$SCRATCH/fetch.log"; fail "tools/fetch-core-deps failed"; }
cat "$SCRATCH/fetch.log"
[ -f "$SCRATCH/deps/usr/include/nlohmann/json.hpp" ] || fail "fetch-core-deps brought no nlohmann/json.hpp"
[ -f "$SCRATCH/deps/usr/src/googletest/CMakeLists.txt" ] || fail "fetch-core-deps brought no GoogleTest sources"
for pkg in libvulkan1 libvulkan-dev glslc libshaderc1 libglvnd0; do
  ls "$SCRATCH"/deps/vulkan/${pkg}_*.deb >/dev/null 2>&1 || [ -d "$SCRATCH/deps/vulkan/unpacked" ] ||
    fail "fetch-core-deps brought no $pkg for the Vulkan step"
done
[ -e "$SCRATCH/deps/usr/lib/x86_64-linux-gnu/libvulkan.so.1" ] && fail "the Vulkan packages were unpacked into the deps prefix (they must stay .debs)"
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

# ---- bad usage: exit 2 at once ----
bash "$CHECK" --no-such-flag "$SCRATCH/usage" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "an unknown flag exited $rc, expected 2"
bash "$CHECK" --resume "$SCRATCH/no-such-recording.json" "$SCRATCH/usage" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--resume with a missing recording exited $rc, expected 2"

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
grep -E '^(FAIL|MISS|CUT|REFUSED)' "$S" && fail "a step did not pass (see above)"
for what in "dependency-probe" "googletest-from-source" "vulkan-unpack" "configure" "build-core" "devices" "quick" \
            "build-vulkan" "vulkan-probe" "vulkan-matmul" "build-tests" "ctest -L gpu"; do
  grep -q "^PASS  $what" "$S" || fail "summary.txt has no PASS for \"$what\""
done
# The bench and the CUDA module are built before any test target (a test that fails to compile cannot cost the
# recording), and the tests after the suites.
order=$(grep -n -E '^PASS  (build-core|quick|build-tests)' "$S" | cut -d: -f1 | paste -sd' ')
[ "$(echo "$order" | tr ' ' '\n' | sort -n | paste -sd' ')" = "$order" ] && [ "$(echo "$order" | wc -w)" = 3 ] ||
  fail "expected build-core, then the suites, then build-tests (summary lines $order)"
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
steps = ctx["device_check_steps"]
for s in ("quick=pass", "vulkan-matmul=pass", "configure=pass", "build-core=pass"):
    assert s in steps, "device_check_steps names %s: %s" % (s, steps)
assert ctx["device_check_cut"] == "none" and ctx["device_check_failed"] == "none", "nothing cut or failed"
assert ctx.get("device_check_budget"), "the budget is stated"
assert ctx.get("device_check_host"), "the host is named"
vk = [r for r in results if r["backend"] == "vulkan"]
assert vk and all(r["plan"] in ("matmul", "roofs") for r in vk), "the Vulkan part measured the matmul and roofs suites"
assert any(r["plan"] == "matmul" for r in vk) and any(r["plan"] == "roofs" for r in vk), "both Vulkan suites are in"
assert [r for r in vk if r["plan"] == "matmul" and r["error"] == "" and r["gflops"] > 0], "lavapipe's GEMM ladder was measured"
assert all(r["backend"] == "vulkan" for r in results if r["plan"] == "matmul"), "--gpu-only: no CPU jobs in it"
# lavapipe is not a GPU: the suite keeps the page's 60³ there (real sizes are for real GPUs)
vk_gemm = [r for r in vk if r["plan"] == "matmul"]
assert {r["params"]["n"] for r in vk_gemm} == {60.0}, sorted({r["params"]["n"] for r in vk_gemm})
assert ctx.get("vulkan_device_type", "").startswith("CPU"), "lavapipe is named a CPU device: %r" % ctx.get("vulkan_device_type")
print("recording: %d results (%d measured, %d on Vulkan), suite %s" % (len(results), len(ok), len(vk), ctx["suite"]))
PY
"$BUILD/bin/gpulab-bench" bench --check "${recs[0]}" >/dev/null || fail "gpulab-bench --check refuses the merged recording"

# ---- a suite cut by its cap is "cut", not a failure; a failing step is; --resume runs only what is missing ----
# The cut suite must outlast its cap on any machine and measure something before it. quick (3-5 s here) finished
# inside a 4 s cap on CI's machine (stop 33). In this build (no OpenBLAS, --budget 0.25) batch takes ~34 s on a
# 2-core machine and has six results after 2 s, so an 8 s cap cuts it with something kept.
# Only the bench steps run (--only bench); the build folder is the one above, already configured and built.
OUT2="$SCRATCH/out-resume"
start=$SECONDS
"${BARE[@]}" GPULAB_BENCH_SUITES="batch:8 no-such-suite:20" bash "$CHECK" --deps "$SCRATCH/sources" --only bench "$OUT2" \
  >"$SCRATCH/cut.stdout" 2>&1
rc=$?
cat "$SCRATCH/cut.stdout"
[ $rc -eq 1 ] || fail "a run with a failing suite exited $rc, expected 1"
S2="$OUT2/summary.txt"
grep -q "^CUT   batch (stopped at its 8s cap" "$S2" || fail "the batch suite stopped at its cap is not marked CUT"
grep -q "^FAIL  no-such-suite" "$S2" || fail "the failing suite is not marked FAIL"
grep -q "^PASS  configure (already configured" "$S2" || fail "a second run configured again"
grep -E "^(PASS|FAIL|CUT|SKIP)  (build-vulkan|vulkan-probe|vulkan-matmul|build-tests|ctest)" "$S2" &&
  fail "--only bench ran more than the bench"
grep -q -- "--resume $OUT2/recording-" "$S2" || fail "the summary does not say how to run only what failed"
first=("$OUT2"/recording-*.json)
[ ${#first[@]} -eq 1 ] || fail "expected one partial recording, found: ${first[*]}"
python3 - "${first[0]}" <<'PY' || fail "the partial recording does not say what was cut and what failed"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
assert ctx["device_check_cut"] == "batch", ctx["device_check_cut"]
assert ctx["device_check_failed"] == "no-such-suite", ctx["device_check_failed"]
assert doc["complete"] is False, "a cut suite leaves the recording partial"
assert [r for r in doc["results"] if r["plan"] == "batch"], "what the cut suite measured is kept"
PY
sleep 1  # a new recording name (its date has seconds)
"${BARE[@]}" GPULAB_BENCH_SUITES="batch:8 amdahl:60" bash "$CHECK" --deps "$SCRATCH/sources" --only bench \
  --resume "${first[0]}" "$OUT2" >"$SCRATCH/resume.stdout" 2>&1
rc=$?
cat "$SCRATCH/resume.stdout"
[ $rc -eq 0 ] || fail "the resumed run exited $rc, expected 0"
grep -q "^KEPT  batch (cut in the earlier try" "$S2" || fail "the resumed run did not keep the cut suite"
grep -q "^PASS  amdahl" "$S2" || fail "the resumed run did not run what was missing"
grep -q "^PASS  batch\|^CUT   batch" "$S2" && fail "the resumed run measured the kept suite again"
recs=("$OUT2"/recording-*.json)
[ ${#recs[@]} -eq 1 ] && [ "${recs[0]}" != "${first[0]}" ] || fail "expected the resumed recording alone, found: ${recs[*]}"
python3 - "${recs[0]}" <<'PY' || fail "the resumed recording lacks the first try's results or this one's"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx, plans = doc["context"], {r["plan"] for r in doc["results"]}
assert {"batch", "amdahl"} <= plans, plans
assert "batch=cut" in ctx["device_check_steps"] and "amdahl=pass" in ctx["device_check_steps"], ctx["device_check_steps"]
print("resumed recording: %d results, steps %s" % (len(doc["results"]), ctx["device_check_steps"]))
PY
[ "$(find "$OUT2" -mindepth 1 | wc -l)" -le 8 ] || fail "more than 8 entries in OUTDIR after the resume"
echo "== cut, failure and resume checks: $((SECONDS - start)) s"
echo "PASS"
