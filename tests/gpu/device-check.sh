#!/usr/bin/env bash
# device-check.sh [--deps DIR] OUTDIR — build gpulab's Qt-free core and CUDA module on a GPU server, run the GPU
# tests and the benchmark suites, and leave the logs plus one recording in OUTDIR. Made for a shared H100/H200 box
# with nvcc, CMake and a compiler but no Qt, no OpenBLAS and perhaps no nlohmann-json or GoogleTest; it also runs,
# on the CPU path, on a machine without a GPU (that is how CI tests it: tests/cli/test_device_check.sh).
#
#   --deps DIR / GPULAB_DEPS=DIR  a folder made beforehand by `tools/fetch-core-deps DIR` on any Debian/Ubuntu
#                         machine (nlohmann-json, GoogleTest's sources and prebuilt library, optionally OpenBLAS)
#   GPULAB_BUILD_DIR      build folder (default: build-device; the bench runs as build-device/bin/gpulab-bench)
#   GPULAB_CUDA_ARCH      CUDA architecture (default: the GPU's own compute capability, else 90)
#   GPULAB_CHECK_CUDA     auto (default) | off: without a GPU, auto still builds the module for that one
#                         architecture to prove it compiles and links; off skips it
#   GPULAB_CHECK_BUDGET_S the whole run's time limit in seconds (default 470 with a GPU, under 8 minutes;
#                         1200 on the CPU path, where a 2-core machine may build everything from scratch)
#   GPULAB_CHECK_CMAKE_ARGS extra CMake arguments for every configure; -DCMAKE_IGNORE_PREFIX_PATH=/;/usr;/usr/local makes this
#                         machine look like a bare server (only the deps folder is searched)
#   GPULAB_BENCH_ARGS     extra `gpulab-bench bench` options (default: --budget 0.5 with a GPU, --budget 0.25
#                         --max-samples 10 on the CPU path)
#
# Before anything is built it checks that nlohmann-json and GoogleTest can be found (or GoogleTest built from the
# sources in DIR), and refuses at once, naming what is missing, when they cannot (exit 3): the GPU tests are never
# dropped silently. With a GPU the order is: build, `ctest -L gpu`, the bench suites that use the GPU (each under
# its own cap, stopped with SIGINT so what it measured is kept), then the extras: the small ladder tests under
# compute-sanitizer's memcheck and racecheck, and torch.matmul vs cuBLAS, each skipped with a line when absent.
# Caps with a GPU (seconds): probe 10, googletest 30 (only when it must be built), configure 25, build 120,
# devices 10, ctest 40, bench 155 (matmul 60, precision 20, batch 15, transfer 15, bandwidth 15, decode 10,
# vram 10, amdahl 10), memcheck 20, racecheck 20, torch 30, nvidia-smi 5+5: 470 s in all, under 8 minutes, and the
# run also stops at its budget (470 s): a step starts with min(its cap, what is left). A bench step stopped at its
# cap gets SIGINT, saves what it measured (on a GPU within a second) and is killed 15 s later at the latest.
#
# Files written to OUTDIR (at most 7, each a plain text log or JSON, a few MiB at most):
#   summary.txt nvidia-smi.txt build.log tests.log bench.log recording-<date>.json [torch-matmul.json]
# Exit status: 0 when every step passed (a step skipped because its tool is absent still passes), 1 when a step
# failed or was stopped at its cap, 2 for bad usage, 3 when a dependency is missing (nothing was run).
set -u
set -o pipefail

usage() { echo "usage: $0 [--deps DIR] OUTDIR" >&2; exit 2; }
DEPS_ARG=${GPULAB_DEPS:-}
OUTDIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) [ $# -ge 2 ] || usage; DEPS_ARG=$2; shift 2 ;;
    --deps=*) DEPS_ARG=${1#--deps=}; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) usage ;;
    *) [ -z "$OUTDIR" ] || usage; OUTDIR=$1; shift ;;
  esac
done
[ -n "$OUTDIR" ] || usage
mkdir -p "$OUTDIR" || exit 2
OUTDIR=$(cd "$OUTDIR" && pwd)

REPO=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${GPULAB_BUILD_DIR:-build-device}
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
START=$(date +%s)
DATE=$(date -u +%Y-%m-%dT%H-%M-%SZ)
JOBS=$(nproc 2>/dev/null || echo 4)
STATUS=0

SUMMARY="$OUTDIR/summary.txt"
SMI="$OUTDIR/nvidia-smi.txt"
BUILD_LOG="$OUTDIR/build.log"
TEST_LOG="$OUTDIR/tests.log"
BENCH_LOG="$OUTDIR/bench.log"
REC="$OUTDIR/recording-$DATE.json"
TORCH_JSON="$OUTDIR/torch-matmul.json"
: >"$SUMMARY"
: >"$BUILD_LOG"
: >"$TEST_LOG"
: >"$BENCH_LOG"
note() { echo "$*" | tee -a "$SUMMARY"; }

# Seconds left, at most $1.
allow() {
  local left=$(( DEADLINE - $(date +%s) ))
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}

# step NAME LIMIT_S LOG COMMAND...: runs COMMAND under timeout, output appended to LOG, and records the outcome.
# STEP_SIGNAL (default TERM) is what the cap sends first; KILL follows 15 s later.
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  local t
  t=$(allow "$limit")
  if [ "$t" -le 3 ]; then
    note "TIME  $name (not started: the ${BUDGET}s budget is spent)"
    STATUS=1
    return 124
  fi
  local start=$(date +%s)
  echo "== $name: $* (cap ${t}s)" >>"$log"
  timeout -s "${STEP_SIGNAL:-TERM}" --kill-after=15 "$t" "$@" >>"$log" 2>&1
  local rc=$?
  local took=$(( $(date +%s) - start ))
  echo "== $name: exit $rc after ${took}s" >>"$log"
  if [ $rc -eq 0 ]; then
    note "PASS  $name (${took}s)"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    note "TIME  $name (stopped at its ${t}s cap; see $(basename "$log"))"
    STATUS=1
  else
    note "FAIL  $name (exit $rc after ${took}s; see $(basename "$log"))"
    STATUS=1
  fi
  return $rc
}

# Refuses the whole run before anything is built or measured.
refuse() {
  note "REFUSED: $*"
  note "        Fetch the dependencies on a machine with apt: tools/fetch-core-deps .deps"
  note "        carry .deps with the tree, then run: tests/gpu/device-check.sh --deps .deps OUTDIR"
  exit 3
}

# ---- what is here: CMake, a generator, nvcc, a GPU ----
GENERATOR="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && GENERATOR=Ninja
NVCC=""
for c in "${CUDACXX:-}" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc $(ls -d /usr/local/cuda-*/bin/nvcc 2>/dev/null | sort -V | tail -1); do
  if [ -n "$c" ] && [ -x "$c" ]; then NVCC=$c; break; fi
done
GPUS=0
if command -v nvidia-smi >/dev/null 2>&1; then
  GPUS=$(timeout 20 nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
# cap GPU_S CPU_S: a step's cap with a GPU (device time is scarce: the caps sum to under 8 minutes) and on the
# CPU path (a 2-core CI machine building from scratch).
cap() { [ "$GPUS" -gt 0 ] && echo "$1" || echo "$2"; }
BUDGET=${GPULAB_CHECK_BUDGET_S:-$(cap 470 1200)}
DEADLINE=$(( START + BUDGET ))
note "gpulab device check, $DATE, repo $REPO, build $BUILD, $JOBS jobs, budget ${BUDGET}s"
note "host: $(uname -srm)$( . /etc/os-release 2>/dev/null && echo ", $PRETTY_NAME")"
command -v cmake >/dev/null 2>&1 || refuse "cmake is not on PATH"

# ---- the dependencies, checked before anything else ----
PREFIX_PATH=""
if [ -n "$DEPS_ARG" ]; then
  [ -d "$DEPS_ARG" ] || refuse "the deps folder $DEPS_ARG does not exist"
  DEPS=$(cd "$DEPS_ARG" && pwd)
  DEPS_PREFIX=$DEPS
  [ -d "$DEPS/usr" ] && DEPS_PREFIX=$DEPS/usr
  PREFIX_PATH="$DEPS_PREFIX;$DEPS"
  # Shared libraries brought along (OpenBLAS and its Fortran runtime) must be found by the linker and at run time.
  LIBDIRS=$(find "$DEPS_PREFIX/lib" -name '*.so*' -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
  [ -n "$LIBDIRS" ] && export LD_LIBRARY_PATH="$LIBDIRS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  note "deps: $DEPS ($(du -sh "$DEPS" 2>/dev/null | cut -f1)$([ -f "$DEPS/MANIFEST.txt" ] && grep -v '^#' "$DEPS/MANIFEST.txt" | cut -d' ' -f1,2 | paste -sd, - | sed 's/^/; /; s/,/, /g'))"
else
  note "deps: none given (--deps DIR); using what this machine has"
fi

# Extra CMake arguments for every configure (e.g. -DCMAKE_IGNORE_PREFIX_PATH='/;/usr;/usr/local' to act as a bare server).
read -r -a EXTRA_CMAKE <<<"${GPULAB_CHECK_CMAKE_ARGS:-}"
[ ${#EXTRA_CMAKE[@]} -gt 0 ] && note "extra CMake arguments: ${EXTRA_CMAKE[*]}"
mkdir -p "$BUILD/_deps" || exit 2
PROBE="$BUILD/_deps/probe"
rm -rf "$PROBE" && mkdir -p "$PROBE/src"
cat >"$PROBE/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(gpulab_deps_probe LANGUAGES CXX)
find_package(nlohmann_json 3 QUIET)
find_package(GTest QUIET)
if(NOT nlohmann_json_FOUND)
  message(FATAL_ERROR "probe: nlohmann_json not found")
endif()
message(STATUS "probe: nlohmann_json ${nlohmann_json_VERSION} at ${nlohmann_json_DIR}")
if(GTest_FOUND)
  message(STATUS "probe: GTest found at ${GTest_DIR}${GTEST_INCLUDE_DIRS}")
  add_executable(gtest_links t.cpp)
  target_link_libraries(gtest_links PRIVATE GTest::gtest_main nlohmann_json::nlohmann_json)
  set_target_properties(gtest_links PROPERTIES CXX_STANDARD 20)
endif()
EOF
cat >"$PROBE/src/t.cpp" <<'EOF'
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
TEST(Probe, Links) { EXPECT_EQ(nlohmann::json::parse("[1]").size(), 1u); }
EOF
probe() {  # probe PREFIX_PATH: configures (and, when GTest was found, links) the probe; its log goes to build.log
  rm -rf "$PROBE/b"
  : >"$PROBE/log"
  step "dependency probe" "$(cap 10 60)" "$PROBE/log" cmake -S "$PROBE/src" -B "$PROBE/b" -G "$GENERATOR" \
       -DCMAKE_BUILD_TYPE=Release ${1:+"-DCMAKE_PREFIX_PATH=$1"} "${EXTRA_CMAKE[@]}" >/dev/null
  local rc=$?
  if [ $rc -eq 0 ]; then
    if ! grep -q "probe: GTest found" "$PROBE/log"; then rc=2
    elif ! timeout 60 cmake --build "$PROBE/b" >>"$PROBE/log" 2>&1; then rc=3
    fi
  fi
  cat "$PROBE/log" >>"$BUILD_LOG"
  return $rc
}
probe "$PREFIX_PATH"
rc=$?
if [ $rc -eq 1 ]; then
  grep -q "probe: nlohmann_json not found" "$PROBE/log" &&
    refuse "nlohmann-json (nlohmann_jsonConfig.cmake) was not found${DEPS_ARG:+ in $DEPS_ARG} nor on this machine"
  refuse "the dependency probe failed to configure (no C++ compiler?); see build.log"
fi
if [ $rc -ne 0 ]; then
  # GoogleTest missing (2) or its prebuilt library does not link with this compiler (3): build its sources.
  GTEST_SRC=""
  [ -n "$DEPS_ARG" ] && [ -f "$DEPS_PREFIX/src/googletest/CMakeLists.txt" ] && GTEST_SRC=$DEPS_PREFIX/src/googletest
  if [ -z "$GTEST_SRC" ]; then
    [ $rc -eq 2 ] && refuse "GoogleTest (GTestConfig.cmake or libgtest + gtest.h) was not found${DEPS_ARG:+ in $DEPS_ARG}, nor its sources (usr/src/googletest)"
    refuse "the GoogleTest found does not link with this compiler (see build.log) and no sources were given"
  fi
  note "      GoogleTest $([ $rc -eq 2 ] && echo "not found" || echo "prebuilt does not link here"): building it from $GTEST_SRC"
  GT="$BUILD/_deps/googletest"
  LAUNCHER=""
  command -v ccache >/dev/null 2>&1 && LAUNCHER=ccache
  # shellcheck disable=SC2016  # expanded by the inner shell
  step "googletest from source" "$(cap 30 300)" "$BUILD_LOG" bash -c '
    cmake -S "$1" -B "$2-build" -G "$3" -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON \
          -DCMAKE_INSTALL_PREFIX="$2" -DCMAKE_POSITION_INDEPENDENT_CODE=ON ${5:+-DCMAKE_CXX_COMPILER_LAUNCHER=$5} "${@:6}" &&
      cmake --build "$2-build" -j "$4" && cmake --install "$2-build"' _ "$GTEST_SRC" "$GT" "$GENERATOR" "$JOBS" "$LAUNCHER" "${EXTRA_CMAKE[@]}" ||
    refuse "GoogleTest could not be built from $GTEST_SRC (see build.log)"
  PREFIX_PATH="$GT${PREFIX_PATH:+;$PREFIX_PATH}"
  probe "$PREFIX_PATH" || refuse "GoogleTest built from $GTEST_SRC still does not link (see build.log)"
fi
note "      found: $(grep -o 'probe: nlohmann_json .*' "$PROBE/log" | cut -d' ' -f2-); $(grep -o 'probe: GTest found .*' "$PROBE/log" | cut -d' ' -f2,4-)"

# ---- the device as found (clocks idle) ----
if [ "$GPUS" -gt 0 ]; then
  { echo "### nvidia-smi -q before the run"; timeout 5 nvidia-smi -q; } >"$SMI" 2>&1 || note "WARN  nvidia-smi -q failed"
  note "gpu: $GPUS x $(timeout 5 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1)"
else
  { echo "no GPU: $(command -v nvidia-smi >/dev/null 2>&1 && echo "nvidia-smi lists none" || echo "nvidia-smi not found")"; } >"$SMI"
  note "gpu: none ($(command -v nvidia-smi >/dev/null 2>&1 && echo "nvidia-smi lists no GPU" || echo "no nvidia-smi")): the CPU path; GPU tests skip"
fi

# ---- the CUDA module: for this GPU's architecture, or (no GPU) one architecture to prove it builds ----
CUDA_MODE=OFF
ARCH=""
if [ "$GPUS" -gt 0 ]; then
  [ -n "$NVCC" ] || refuse "a GPU is here but nvcc is not (set CUDACXX or put the CUDA toolkit's bin on PATH)"
  CUDA_MODE=ON
  CAPABILITY=$(timeout 5 nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  ARCH=${GPULAB_CUDA_ARCH:-${CAPABILITY:-90}}
  note "cuda: $NVCC, module for sm_$ARCH"
elif [ -n "$NVCC" ] && [ "${GPULAB_CHECK_CUDA:-auto}" != off ]; then
  CUDA_MODE=ON
  ARCH=${GPULAB_CUDA_ARCH:-90}
  note "cuda: $NVCC; no GPU, so the module is built for sm_$ARCH only (to prove it compiles and links)"
else
  note "cuda: module not built ($([ -z "$NVCC" ] && echo "no nvcc" || echo "GPULAB_CHECK_CUDA=off"))"
fi

# ---- configure and build: only what the check runs (gpulab-bench, the module, the GPU tests) ----
CONFIG_ARGS=(-S "$REPO" -B "$BUILD" -G "$GENERATOR" -DGPULAB_APP=OFF -DGPULAB_TESTS=ON -DGPULAB_CUDA=$CUDA_MODE
             -DCMAKE_BUILD_TYPE=Release)
[ "$CUDA_MODE" = ON ] && CONFIG_ARGS+=(-DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES="$ARCH")
[ -n "$PREFIX_PATH" ] && CONFIG_ARGS+=(-DCMAKE_PREFIX_PATH="$PREFIX_PATH")
CONFIG_ARGS+=("${EXTRA_CMAKE[@]}")
# A folder configured with another generator cannot be reused.
if [ -f "$BUILD/CMakeCache.txt" ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=$GENERATOR\$" "$BUILD/CMakeCache.txt"; then
  rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
fi
TARGETS=(gpulab-bench)
for src in "$REPO"/tests/gpu/test_*.cpp; do TARGETS+=("gpu_$(basename "$src" .cpp)"); done
[ "$CUDA_MODE" = ON ] && TARGETS+=(gpulab_cuda)
BENCH="$BUILD/bin/gpulab-bench"
MODULE="$BUILD/bin/libgpulab_cuda.so"

if step "configure" "$(cap 25 120)" "$BUILD_LOG" cmake "${CONFIG_ARGS[@]}"; then
  step "build (${TARGETS[*]})" "$(cap 120 900)" "$BUILD_LOG" cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}"
  if [ "$CUDA_MODE" = ON ]; then
    if [ -f "$MODULE" ]; then
      # What the module exports and links: the runtime only, never the driver library.
      { echo "== exported symbols"; nm -D --defined-only "$MODULE" | grep -i gpulab;
        echo "== libraries"; ldd "$MODULE"; } >>"$BUILD_LOG" 2>&1
      if ldd "$MODULE" | grep -q "libcuda\.so"; then
        note "FAIL  the CUDA module links libcuda.so (it must use the runtime only)"
        STATUS=1
      fi
    else
      note "FAIL  $MODULE was not built"
      STATUS=1
    fi
  fi
fi

# ---- what the programs see ----
[ -x "$BENCH" ] && step "devices" "$(cap 10 30)" "$BENCH_LOG" "$BENCH" devices

# ---- the GPU tests (without a device they skip, each with its reason) ----
if [ -f "$BUILD/CTestTestfile.cmake" ] && [ -x "$BENCH" ]; then
  step "ctest -L gpu" "$(cap 40 120)" "$TEST_LOG" ctest --test-dir "$BUILD" -L gpu -V --timeout "$(cap 35 110)"
  note "      $(grep -E "tests passed" "$TEST_LOG" | tail -1); gtest cases: $(grep -c '^[0-9]*: \[       OK \]' "$TEST_LOG") ok, $(grep -c '^[0-9]*: \[  SKIPPED \]' "$TEST_LOG") skipped, $(grep -c '^[0-9]*: \[  FAILED  \]' "$TEST_LOG") failed"
  [ "$GPUS" -gt 0 ] || note "      (no GPU: the GPU tests ran and skipped; see tests.log for their reasons)"
else
  note "FAIL  ctest -L gpu (nothing was built)"
  STATUS=1
fi

# ---- the benchmark: GPU suites first, each under its own cap, merged into one recording ----
if [ "$GPUS" -gt 0 ]; then
  SUITES=${GPULAB_BENCH_SUITES:-"matmul:60 precision:20 batch:15 transfer:15 bandwidth:15 decode:10 vram:10 amdahl:10"}
  BENCH_ARGS=${GPULAB_BENCH_ARGS:-"--budget 0.5"}
else
  SUITES=${GPULAB_BENCH_SUITES:-"quick:120"}
  BENCH_ARGS=${GPULAB_BENCH_ARGS:-"--budget 0.25 --max-samples 10"}
fi
PARTS="$BUILD/_bench/$DATE"
if [ -x "$BENCH" ]; then
  if command -v python3 >/dev/null 2>&1; then
    mkdir -p "$PARTS"
    parts=()
    for entry in $SUITES; do
      suite=${entry%%:*}
      cap=${entry##*:}
      # SIGINT: the bench stops between samples and saves what it measured.
      STEP_SIGNAL=INT step "bench --suite $suite" "$cap" "$BENCH_LOG" "$BENCH" bench --suite "$suite" $BENCH_ARGS \
        --out "$PARTS/$suite.json"
      [ -s "$PARTS/$suite.json" ] && parts+=("$PARTS/$suite.json")
      # After every suite, so OUTDIR holds a valid recording of everything so far whenever the run is stopped.
      [ ${#parts[@]} -gt 0 ] && python3 "$REPO/tests/gpu/merge_recordings.py" "$REC" "${parts[@]}" >>"$BENCH_LOG" 2>&1
    done
  else
    note "      no python3 to merge per-suite recordings: one bench run of --suite all instead"
    total=0
    for entry in $SUITES; do total=$(( total + ${entry##*:} )); done
    STEP_SIGNAL=INT step "bench --suite all" "$total" "$BENCH_LOG" "$BENCH" bench --suite all $BENCH_ARGS --out "$REC"
  fi
  if [ -s "$REC" ]; then
    n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$REC" 2>/dev/null || echo "?")
    note "      recording: $(basename "$REC") ($(wc -c <"$REC") bytes, $n results)"
  else
    note "FAIL  no recording written"
    STATUS=1
  fi
else
  note "FAIL  bench (gpulab-bench was not built)"
  STATUS=1
fi

# ---- extras, after the recording: compute-sanitizer on the small ladder tests, torch.matmul beside cuBLAS ----
SANITIZER=""
for c in "$(command -v compute-sanitizer 2>/dev/null)" "${NVCC:+$(dirname "$NVCC")/compute-sanitizer}" \
         "${NVCC:+$(dirname "$NVCC")/../compute-sanitizer/compute-sanitizer}"; do
  if [ -n "$c" ] && [ -x "$c" ]; then SANITIZER=$c; break; fi
done
SMALL=$(find "$BUILD/tests" -maxdepth 2 -type f -name gpu_test_ladder_small 2>/dev/null | head -1)
if [ -z "$SANITIZER" ]; then
  note "SKIP  compute-sanitizer (not installed with this CUDA toolkit)"
elif [ "$GPUS" -eq 0 ]; then
  note "SKIP  compute-sanitizer (no GPU)"
elif [ -z "$SMALL" ]; then
  note "FAIL  compute-sanitizer: gpu_test_ladder_small was not built"
  STATUS=1
else
  step "compute-sanitizer memcheck (small ladder)" 20 "$TEST_LOG" \
    "$SANITIZER" --tool memcheck --leak-check full --error-exitcode 3 "$SMALL"
  # Races would be in the hand-written kernels' shared-memory tiles; cuBLAS's are NVIDIA's.
  step "compute-sanitizer racecheck (small ladder)" 20 "$TEST_LOG" \
    "$SANITIZER" --tool racecheck --error-exitcode 3 "$SMALL" --gtest_filter=CudaLadderSmall.OwnKernels
fi

if [ "$GPUS" -eq 0 ]; then
  note "SKIP  torch.matmul vs cuBLAS (no GPU)"
elif ! command -v python3 >/dev/null 2>&1 || ! timeout 20 python3 -c "import torch" >/dev/null 2>&1; then
  note "SKIP  torch.matmul vs cuBLAS (no python3 with torch)"
else
  step "torch.matmul vs cuBLAS (4096³ fp32, bf16)" 30 "$BENCH_LOG" \
    python3 "$REPO/tests/gpu/torch_matmul.py" --out "$TORCH_JSON" --recording "$REC"
fi

# ---- the device after the load (clocks, temperature, throttle reasons) ----
if [ "$GPUS" -gt 0 ]; then
  { echo; echo "### nvidia-smi -q after the run"; timeout 5 nvidia-smi -q; } >>"$SMI" 2>&1 || true
fi
rm -rf "$PARTS"

note "total $(( $(date +%s) - START ))s; status $([ $STATUS -eq 0 ] && echo PASS || echo FAIL)"
exit $STATUS
