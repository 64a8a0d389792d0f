#!/usr/bin/env bash
# device-check.sh OUTDIR — build gpulab's Qt-free core and CUDA module on a GPU server, run the GPU tests and the
# full benchmark suite, and leave every log plus a recording in OUTDIR. Made for a shared H100/H200 box that has
# nvcc, CMake, ninja and g++ but no Qt, no OpenBLAS and perhaps no nlohmann-json or GoogleTest:
#
#   GPULAB_DEPS=<prefix>  a folder made with `dpkg -x nlohmann-json3-dev_*.deb <prefix>` (and, optionally,
#                         `dpkg -x libgtest-dev_*.deb <prefix>`); it is added to CMake's search path and the include path.
#   GPULAB_BUILD_DIR      build folder (default: build, so the bench runs as build/bin/gpulab-bench)
#   GPULAB_CUDA_ARCH      CUDA architectures (default: 90)
#   GPULAB_CHECK_BUDGET_S the whole run's time limit in seconds (default: 470, under 8 minutes)
#
# Every step runs under `timeout` with what is left of the budget; a failed step is logged and the rest still run
# where they can. Files written to OUTDIR (at most 8, each a plain log or JSON):
#   summary.txt nvidia-smi.txt configure.log build.log ctest.log devices.log bench.log recording-<date>.json
# Exit status: 0 when every step passed, 1 otherwise, 2 for bad usage.
set -u
set -o pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
OUTDIR=$1
mkdir -p "$OUTDIR" || exit 2
OUTDIR=$(cd "$OUTDIR" && pwd)

REPO=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${GPULAB_BUILD_DIR:-build}
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
ARCH=${GPULAB_CUDA_ARCH:-90}
BUDGET=${GPULAB_CHECK_BUDGET_S:-470}
DEADLINE=$(( $(date +%s) + BUDGET ))
DATE=$(date -u +%Y-%m-%dT%H-%M-%SZ)
SUMMARY="$OUTDIR/summary.txt"
JOBS=$(nproc 2>/dev/null || echo 4)
STATUS=0

: >"$SUMMARY"
note() { echo "$*" | tee -a "$SUMMARY"; }

# Seconds left, at most $1.
allow() {
  local left=$(( DEADLINE - $(date +%s) ))
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}

# step NAME LIMIT_S LOG COMMAND...: runs COMMAND under timeout, output appended to LOG, and records the outcome.
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  local t
  t=$(allow "$limit")
  if [ "$t" -le 5 ]; then
    note "SKIP  $name (time budget spent)"
    STATUS=1
    return 1
  fi
  local start
  start=$(date +%s)
  echo "== $name: $* (limit ${t}s)" >>"$log"
  timeout --kill-after=10 "$t" "$@" >>"$log" 2>&1
  local rc=$?
  local took=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    note "PASS  $name (${took}s)"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    note "TIME  $name (stopped after ${took}s, limit ${t}s; see $(basename "$log"))"
    STATUS=1
  else
    note "FAIL  $name (exit $rc after ${took}s; see $(basename "$log"))"
    STATUS=1
  fi
  return $rc
}

note "gpulab device check, $DATE, repo $REPO, build $BUILD, arch $ARCH, $JOBS jobs, budget ${BUDGET}s"
note "host: $(uname -srm)"

# ---- the device as found (clocks idle) ----
SMI="$OUTDIR/nvidia-smi.txt"
if command -v nvidia-smi >/dev/null 2>&1; then
  { echo "### nvidia-smi -q before the run"; timeout 20 nvidia-smi -q; } >"$SMI" 2>&1 || note "WARN  nvidia-smi -q failed"
  note "gpu: $(timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
else
  echo "nvidia-smi not found" >"$SMI"
  note "WARN  nvidia-smi not found"
fi
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || note "WARN  nvcc not on PATH and not at /usr/local/cuda/bin"

# ---- configure ----
PREFIX_PATH=""
if [ -n "${GPULAB_DEPS:-}" ]; then
  DEPS=$(cd "$GPULAB_DEPS" && pwd)
  PREFIX_PATH="$DEPS/usr;$DEPS"
  export CPATH="$DEPS/usr/include${CPATH:+:$CPATH}"
  note "deps: $DEPS"
fi
CONFIG_ARGS=(-S "$REPO" -B "$BUILD" -G Ninja -DGPULAB_APP=OFF -DGPULAB_CUDA=ON
             -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DCMAKE_BUILD_TYPE=Release)
[ -x /usr/local/cuda/bin/nvcc ] && CONFIG_ARGS+=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
[ -n "$PREFIX_PATH" ] && CONFIG_ARGS+=(-DCMAKE_PREFIX_PATH="$PREFIX_PATH")

TESTS=ON
CONF_LOG="$OUTDIR/configure.log"
: >"$CONF_LOG"
if ! step "configure" 90 "$CONF_LOG" cmake "${CONFIG_ARGS[@]}" -DGPULAB_TESTS=ON; then
  # The usual reason on a bare server is a missing GoogleTest: configure again without the tests so the module
  # and the bench still get built and measured.
  if grep -q -i "gtest" "$CONF_LOG"; then
    note "      (GoogleTest not found: configuring without tests; give GPULAB_DEPS an unpacked libgtest-dev)"
    rm -f "$BUILD/CMakeCache.txt"
    TESTS=OFF
    step "configure (no tests)" 90 "$CONF_LOG" cmake "${CONFIG_ARGS[@]}" -DGPULAB_TESTS=OFF || true
  fi
fi

# ---- build ----
BUILD_LOG="$OUTDIR/build.log"
: >"$BUILD_LOG"
if [ -f "$BUILD/build.ninja" ]; then
  step "build" 240 "$BUILD_LOG" cmake --build "$BUILD" -j "$JOBS" || true
  # The compiler's resource report for the module's kernels (registers, spills), cheap and useful later.
  if [ -f "$BUILD/bin/libgpulab_cuda.so" ]; then
    { echo "== exported symbols"; nm -D --defined-only "$BUILD/bin/libgpulab_cuda.so" | grep -i gpulab;
      echo "== libraries"; ldd "$BUILD/bin/libgpulab_cuda.so"; } >>"$BUILD_LOG" 2>&1
    if ldd "$BUILD/bin/libgpulab_cuda.so" | grep -q "libcuda\.so"; then
      note "FAIL  the CUDA module links libcuda.so (it must use the runtime only)"
      STATUS=1
    fi
  else
    note "FAIL  build/bin/libgpulab_cuda.so was not built"
    STATUS=1
  fi
else
  note "SKIP  build (not configured)"
  STATUS=1
fi

BENCH="$BUILD/bin/gpulab-bench"

# ---- what the programs see ----
if [ -x "$BENCH" ]; then
  step "devices" 30 "$OUTDIR/devices.log" "$BENCH" devices || true
fi

# ---- GPU tests ----
if [ "$TESTS" = ON ] && [ -f "$BUILD/CTestTestfile.cmake" ]; then
  step "ctest -L gpu" 150 "$OUTDIR/ctest.log" ctest --test-dir "$BUILD" -L gpu --output-on-failure --timeout 140 || true
else
  echo "tests not built" >"$OUTDIR/ctest.log"
  note "SKIP  ctest -L gpu (tests not built)"
  STATUS=1
fi

# ---- the benchmark suite ----
REC="$OUTDIR/recording-$DATE.json"
if [ -x "$BENCH" ]; then
  step "bench --suite all" 200 "$OUTDIR/bench.log" "$BENCH" bench --suite all --out "$REC" || true
  if [ -s "$REC" ]; then
    note "      recording: $(basename "$REC") ($(wc -c <"$REC") bytes)"
  else
    note "      no recording written"
  fi
else
  note "SKIP  bench (gpulab-bench not built)"
  STATUS=1
fi

# ---- the device after the load (clocks, temperature, throttle reasons) ----
if command -v nvidia-smi >/dev/null 2>&1; then
  { echo; echo "### nvidia-smi -q after the run"; timeout 20 nvidia-smi -q; } >>"$SMI" 2>&1 || true
fi

note "total $(( $(date +%s) - (DEADLINE - BUDGET) ))s; status $([ $STATUS -eq 0 ] && echo PASS || echo FAIL)"
exit $STATUS
