#!/usr/bin/env bash
# device-check.sh [--deps DIR] [--only STEPS] [--resume RECORDING.json] OUTDIR | --plan CARD — build gpulab's Qt-free core, the
# CUDA module and the Vulkan module on a GPU server, record the benchmark suites through CUDA and then through
# Vulkan, run the GPU tests, and leave the logs plus one recording in OUTDIR. Made for the lent H200 server (nvcc
# 13.0, driver 580, CMake and ninja from pip, 16 cores, no Qt, no package installs, no Vulkan loader); it also
# runs, on the CPU path, on a machine without a GPU (that is how CI tests it: tests/cli/test_device_check.sh).
#
#   --deps DIR / GPULAB_DEPS=DIR  made beforehand by `tools/fetch-core-deps DIR` on any Debian/Ubuntu machine
#                         (nlohmann-json, GoogleTest, and in DIR/vulkan the loader, headers and glslc as .debs:
#                         unpacked here into BUILD/_deps/vulkan-root, never over /)
#   --only STEPS          run only these steps (comma-separated; the build is always brought up to date first):
#                         a suite (matmul precision transfer decode batch bandwidth vram amdahl, or quick on the
#                         CPU path), vulkan-SUITE, or a group: bench (the CUDA suites), vulkan, tests, extras
#   --resume REC.json     a recording an earlier try wrote (OUTDIR/recording-*.json): the steps it says passed or
#                         were cut are not run again and its results are kept; the rest run and are merged in.
#                         On a fresh lent machine: copy the recording that came back into the tree, carry it.
#   --plan CARD           runs nothing: prints "STEP estimate_s cap_s" for every step of a run on the catalogue card
#                         CARD ("H200 SXM", "H100 SXM", ...) and a total line. The bench steps' estimates come from
#                         the suites' own plans and the card's datasheet row (gpulab-bench plan, built if needed;
#                         GPULAB_PLAN_BENCH names one); the others are the fixed figures in FIXED_STEPS below.
#                         CI (tests/cli/test_device_check_plan.sh) fails when a step passes 80 % of its cap or
#                         the total passes 420 s on the H200 or the H100.
#   GPULAB_BUILD_DIR      build folder (default: build-device)
#   GPULAB_CUDA_ARCH      CUDA architecture (default: the GPU's own compute capability, else 90)
#   GPULAB_CHECK_CUDA     auto (default) | off: without a GPU, auto still builds the module for sm_90
#   GPULAB_CHECK_BUDGET_S the whole run's limit (default 415 s with a GPU, under 7 minutes; 1400 s on the CPU path)
#   GPULAB_CHECK_CMAKE_ARGS extra CMake arguments (-DCMAKE_IGNORE_PREFIX_PATH=/;/usr;/usr/local acts as a bare server)
#   GPULAB_BENCH_SUITES, GPULAB_VULKAN_SUITES  "suite:cap …" lists replacing the defaults below
#   GPULAB_BENCH_ARGS     extra bench options (default --budget 0.3 with a GPU; --budget 0.25 --max-samples 10 on CPU)
#   GPULAB_VULKAN_ALLOW_CPU=1  lets the Vulkan steps use a CPU-type device (lavapipe) where there is no GPU
#
# Budget with a GPU (seconds): every step's cap is in FIXED_STEPS and the *_SUITES_DEFAULT lists below; a step gets
# min(its cap, what is left of 415), so the total stays under 7 minutes, and the caps add up to at most 415.
# `device-check.sh --plan CARD` prints each step's estimate beside its cap (the bench steps from the suites' own
# plans, gpulab-bench plan); CI holds every estimate under 80 % of its cap and the total under 420 s for the H200
# and the H100 (tests/cli/test_device_check_plan.sh). The extras (compute-sanitizer memcheck 20 and racecheck 20 on
# the small ladder after a probe, torch.matmul 30) run only in the time left and are skipped, not failed, when
# there is none or their tool does not run here.
# A bench step stopped at its cap gets SIGINT, saves what it measured and is marked CUT (in summary.txt and in
# the recording's context: device_check_cut), which is not a failure. The recording is merged after every step,
# so OUTDIR holds a valid recording whenever the run is stopped.
#
# Files written to OUTDIR (at most 7, each a plain text log or JSON, a few MiB at most):
#   summary.txt nvidia-smi.txt build.log tests.log bench.log recording-<date>.json [torch-matmul.json]
# Exit status: 0 when nothing went wrong (every step passed, was cut at its cap, or was skipped because its tool
# or device is absent; an extra's WARN is said, never a failure), 1 when a step failed or was never started, 2 for bad usage, 3 when a dependency is
# missing (nothing was run). The summary's last lines name what failed and how to run only that again.
set -u
set -o pipefail

usage() { echo "usage: $0 [--deps DIR] [--only STEPS] [--resume RECORDING.json] OUTDIR | --plan CARD" >&2; exit 2; }
DEPS_ARG=${GPULAB_DEPS:-}
OUTDIR=""
ONLY=""
RESUME=""
PLAN_CARD=""
while [ $# -gt 0 ]; do
  case "$1" in
    --deps|--only|--resume|--plan) [ $# -ge 2 ] || usage
      case "$1" in --deps) DEPS_ARG=$2 ;; --only) ONLY=$2 ;; --resume) RESUME=$2 ;; --plan) PLAN_CARD=$2 ;; esac
      shift 2 ;;
    --plan=*) PLAN_CARD=${1#--plan=}; shift ;;
    --deps=*) DEPS_ARG=${1#--deps=}; shift ;;
    --only=*) ONLY=${1#--only=}; shift ;;
    --resume=*) RESUME=${1#--resume=}; shift ;;
    -h|--help) sed -n '2,47p' "$0"; exit 0 ;;
    -*) usage ;;
    *) [ -z "$OUTDIR" ] || usage; OUTDIR=$1; shift ;;
  esac
done
# ---- the steps' caps with a GPU, in one place: the run uses them and --plan prints them ----
# Bench steps "suite:cap" (their estimates come from the suites' own plans, gpulab-bench plan); the other steps
# "id:cap:expected" (expected: what the step took on the lent H200 machines, or for a step not yet run there, the
# estimate written beside it). googletest runs only when the deps' prebuilt library does not link; it is counted.
# The bench caps were rebalanced from the plan's estimates (issue 35): precision, batch, vram and matmul had room
# to spare, the Vulkan transfer and decode sweeps none; the sum of all caps stays under the 415 s budget.
GPU_SUITES_DEFAULT="matmul:20 precision:16 transfer:20 decode:12 batch:8 bandwidth:10 vram:6 amdahl:7 roofs:9"
GPU_VK_SUITES_DEFAULT="matmul:6 bandwidth:5 transfer:13 decode:11 roofs:5"
FIXED_STEPS="dependency-probe:10:3 googletest-from-source:18:12 vulkan-unpack:5:1 nvidia-smi:10:2 configure:60:25
build-core:70:40 devices:10:3 build-vulkan:20:8 vulkan-probe:15:4 build-tests:15:8 ctest:22:12 nvidia-smi-end:5:2"
# fixed_cap ID: the cap of a fixed step with a GPU.
fixed_cap() {
  local e
  for e in $FIXED_STEPS; do [ "${e%%:*}" = "$1" ] && { e=${e#*:}; echo "${e%%:*}"; return 0; }; done
  echo "device-check.sh: no step $1 in FIXED_STEPS" >&2; exit 2
}

# ---- --plan CARD: every step's estimate against its cap, nothing run ----
if [ -n "$PLAN_CARD" ]; then
  [ -z "$OUTDIR" ] || usage
  REPO=$(cd "$(dirname "$0")/../.." && pwd)
  BUILD=${GPULAB_BUILD_DIR:-build-device}
  case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
  PLAN_BENCH=${GPULAB_PLAN_BENCH:-$BUILD/bin/gpulab-bench}
  if [ ! -x "$PLAN_BENCH" ]; then
    # Only the Qt-free bench is built (no CUDA, no tests): the estimate needs the plans, not a device.
    echo "# building gpulab-bench in $BUILD for the estimate" >&2
    cmake -S "$REPO" -B "$BUILD" -DGPULAB_APP=OFF -DGPULAB_TESTS=OFF -DGPULAB_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
      >/dev/null && cmake --build "$BUILD" --target gpulab-bench -j "$(nproc 2>/dev/null || echo 4)" >/dev/null ||
      { echo "$0: --plan: gpulab-bench could not be built in $BUILD" >&2; exit 1; }
  fi
  read -r -a PLAN_ARGS <<<"${GPULAB_BENCH_ARGS:---budget 0.3}"
  suites_of() { local e out=""; for e in $1; do out+="${out:+,}${e%%:*}"; done; echo "$out"; }
  cuda_est=$("$PLAN_BENCH" plan --card "$PLAN_CARD" --device cuda "${PLAN_ARGS[@]}" \
             --suites "$(suites_of "${GPULAB_BENCH_SUITES:-$GPU_SUITES_DEFAULT}")") || exit 2
  vk_est=$("$PLAN_BENCH" plan --card "$PLAN_CARD" --device vulkan --gpu-only "${PLAN_ARGS[@]}" \
           --suites "$(suites_of "${GPULAB_VULKAN_SUITES:-$GPU_VK_SUITES_DEFAULT}")") || exit 2
  echo "# device-check plan for $PLAN_CARD: STEP estimate_s cap_s (nothing was run)"
  echo "$cuda_est" | grep '^#'
  total_est=0
  total_cap=0
  line() {  # line STEP ESTIMATE CAP
    printf '%s %s %s\n' "$1" "$2" "$3"
    total_est=$(awk -v a="$total_est" -v b="$2" 'BEGIN { printf "%.1f", a + b }')
    total_cap=$((total_cap + $3))
  }
  estimate_of() { echo "$1" | awk -v s="$2" '$1 == s { print $2 }'; }
  for e in $FIXED_STEPS; do
    id=${e%%:*}; rest=${e#*:}
    case "$id" in build-vulkan|vulkan-probe|build-tests|ctest|nvidia-smi-end) continue ;; esac
    line "$id" "${rest#*:}" "${rest%%:*}"
  done
  for e in ${GPULAB_BENCH_SUITES:-$GPU_SUITES_DEFAULT}; do
    line "${e%%:*}" "$(estimate_of "$cuda_est" "${e%%:*}")" "${e##*:}"
  done
  for id in build-vulkan vulkan-probe; do e=$(echo $FIXED_STEPS | tr ' ' '\n' | grep "^$id:"); rest=${e#*:}
    line "$id" "${rest#*:}" "${rest%%:*}"; done
  for e in ${GPULAB_VULKAN_SUITES:-$GPU_VK_SUITES_DEFAULT}; do
    line "vulkan-${e%%:*}" "$(estimate_of "$vk_est" "${e%%:*}")" "${e##*:}"
  done
  for id in build-tests ctest nvidia-smi-end; do e=$(echo $FIXED_STEPS | tr ' ' '\n' | grep "^$id:"); rest=${e#*:}
    line "$id" "${rest#*:}" "${rest%%:*}"; done
  echo "total $total_est $total_cap"
  exit 0
fi

[ -n "$OUTDIR" ] || usage
if [ -n "$RESUME" ]; then
  [ -f "$RESUME" ] || { echo "$0: --resume: $RESUME is not a file" >&2; exit 2; }
  RESUME=$(cd "$(dirname "$RESUME")" && pwd)/$(basename "$RESUME")
fi
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
CHECK_DIR="$BUILD/_check/$DATE"   # the bench parts and the context file of this run (removed at the end)
PARTS="$CHECK_DIR/parts"
CTX_FILE="$CHECK_DIR/context.tsv"
FACTS_FILE="$CHECK_DIR/facts.tsv"
for f in "$SUMMARY" "$BUILD_LOG" "$TEST_LOG" "$BENCH_LOG"; do : >"$f"; done
mkdir -p "$PARTS" || exit 2
: >"$FACTS_FILE"
# shellcheck source=device_check_lib.sh
. "$REPO/tests/gpu/device_check_lib.sh"

refuse() {  # refuses the whole run before anything is built or measured
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
# WSL2: the Windows driver's nvidia-smi and libcuda.so.1 live in /usr/lib/wsl/lib, not always on PATH or the
# library path (GPULAB_WSL_LIB_DIR names another folder, for tests/cli/test_wsl_paths.sh).
WSL_LIB=${GPULAB_WSL_LIB_DIR:-/usr/lib/wsl/lib}
if ! command -v nvidia-smi >/dev/null 2>&1 && [ -x "$WSL_LIB/nvidia-smi" ]; then
  export PATH="$PATH:$WSL_LIB" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$WSL_LIB"
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  GPUS=$(timeout 20 nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
# cap GPU_S CPU_S: a step's cap with a GPU (the table above) and on the CPU path (a 2-core CI machine, cold).
cap() { [ "$GPUS" -gt 0 ] && echo "$1" || echo "$2"; }
BUDGET=${GPULAB_CHECK_BUDGET_S:-$(cap 415 1400)}
DEADLINE=$(( START + BUDGET ))
if [ "$GPUS" -gt 0 ]; then
  SUITES=${GPULAB_BENCH_SUITES:-$GPU_SUITES_DEFAULT}
  VK_SUITES=${GPULAB_VULKAN_SUITES:-$GPU_VK_SUITES_DEFAULT}
  BENCH_ARGS=${GPULAB_BENCH_ARGS:-"--budget 0.3"}
else
  SUITES=${GPULAB_BENCH_SUITES:-"quick:120 roofs:90"}
  VK_SUITES=${GPULAB_VULKAN_SUITES:-"matmul:60 roofs:60"}  # lavapipe keeps the page's 60³: seconds
  BENCH_ARGS=${GPULAB_BENCH_ARGS:-"--budget 0.25 --max-samples 10"}
fi
BUDGET_NOTE="${BUDGET} s in all; CUDA suites ${SUITES}; Vulkan suites ${VK_SUITES}; bench ${BENCH_ARGS}"
note "gpulab device check, $DATE, repo $REPO, build $BUILD, $JOBS jobs, budget ${BUDGET}s"
note "host: $(uname -srm)$( . /etc/os-release 2>/dev/null && echo ", $PRETTY_NAME")"
command -v cmake >/dev/null 2>&1 || refuse "cmake is not on PATH"
command -v python3 >/dev/null 2>&1 || refuse "python3 is not on PATH (it merges the suites' recordings)"

# ---- which steps run: --only, and --resume (what the earlier try finished is kept) ----
if [ -n "$RESUME" ]; then
  read_previous_states "$RESUME"
  note "resume: from $RESUME ($(for s in "${!PREV[@]}"; do echo -n "$s=${PREV[$s]} "; done))"
fi
[ -n "$ONLY" ] && note "only: $ONLY (the build is brought up to date first)"
# wanted ID GROUP: whether step ID (in GROUP) runs now; a step the earlier try finished is noted as KEPT
# (QUIET=1: only asks).
wanted() {
  if [ -n "$ONLY" ]; then
    case ",$ONLY," in *",$1,"*|*",$2,"*) ;; *) return 1 ;; esac
  fi
  case "${PREV[$1]:-}" in
    pass|cut)
      [ "${QUIET:-0}" = 1 ] || note "KEPT  $1 (${PREV[$1]} in the earlier try; its results are kept)"
      return 1 ;;
  esac
  return 0
}
RERUN=()  # bench steps measured again now: the base recording's results for them are dropped

# Merges the base (resume) and every part so far, with the step states and device facts, into OUTDIR's recording.
merge() {
  write_context
  local args=() parts=()
  if [ -n "$RESUME" ]; then
    args+=(--base "$RESUME")
    [ ${#RERUN[@]} -gt 0 ] && args+=(--drop "$(IFS=,; echo "${RERUN[*]}")")
  fi
  for p in "$PARTS"/*.json; do [ -s "$p" ] && parts+=("$p"); done
  [ ${#parts[@]} -gt 0 ] || [ -n "$RESUME" ] || return 0
  python3 "$REPO/tests/gpu/merge_recordings.py" "$REC" "${args[@]}" --context-file "$CTX_FILE" "${parts[@]}" \
    >>"$BENCH_LOG" 2>&1
}

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
  DEPS=""
  note "deps: none given (--deps DIR); using what this machine has"
fi
read -r -a EXTRA_CMAKE <<<"${GPULAB_CHECK_CMAKE_ARGS:-}"
[ ${#EXTRA_CMAKE[@]} -gt 0 ] && note "extra CMake arguments: ${EXTRA_CMAKE[*]}"
. "$REPO/tests/gpu/device_check_probe.sh"

# ---- the Vulkan loader, headers and glslc: unpacked from the deps' .debs into a private prefix ----
VKROOT="$BUILD/_deps/vulkan-root"
if [ -n "$DEPS" ] && { ls "$DEPS"/vulkan/*.deb >/dev/null 2>&1 || [ -d "$DEPS/vulkan/unpacked" ]; }; then
  start=$(date +%s)
  if VKPREFIX=$(unpack_vulkan "$DEPS" "$VKROOT") && [ -n "$VKPREFIX" ]; then
    PREFIX_PATH="$VKPREFIX;$PREFIX_PATH"
    export PATH="$VKPREFIX/bin:$PATH"
    VKLIBS=$(find "$VKPREFIX/lib" -name '*.so*' -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
    [ -n "$VKLIBS" ] && export LD_LIBRARY_PATH="$VKLIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    note "PASS  vulkan-unpack ($(ls "$DEPS"/vulkan/*.deb 2>/dev/null | wc -l) .debs into $VKROOT, $(( $(date +%s) - start ))s)"
    set_state vulkan-unpack pass $(( $(date +%s) - start ))
  else
    note "FAIL  vulkan-unpack (the .debs in $DEPS/vulkan could not be unpacked)"
    set_state vulkan-unpack fail
  fi
else
  note "      vulkan: no .debs in the deps folder; the module builds only if this machine has Vulkan headers and glslc"
fi

# ---- the device as found (clocks idle), and what a reader needs to trust the numbers ----
if [ "$GPUS" -gt 0 ]; then
  { echo "### nvidia-smi -q before the run"; timeout 5 nvidia-smi -q; } >"$SMI" 2>&1 || note "WARN  nvidia-smi -q failed"
  note "gpu: $GPUS x $(timeout 5 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1)"
  smi_facts start >>"$FACTS_FILE"
else
  { echo "no GPU: $(command -v nvidia-smi >/dev/null 2>&1 && echo "nvidia-smi lists none" || echo "nvidia-smi not found")"; } >"$SMI"
  note "gpu: none ($(command -v nvidia-smi >/dev/null 2>&1 && echo "nvidia-smi lists no GPU" || echo "no nvidia-smi")): the CPU path; GPU tests skip"
fi
toolkit_facts "$NVCC" >>"$FACTS_FILE"

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

# The CUDA architectures the module is compiled for (machine code for these; other GPUs would JIT its PTX).
[ "$CUDA_MODE" = ON ] && printf 'cuda_architectures\t%s\n' "sm_$ARCH (CMAKE_CUDA_ARCHITECTURES=$ARCH)" >>"$FACTS_FILE"

# ---- configure, then the bench and the CUDA module before anything else: a test that fails to compile cannot
# cost the recording ----
CONFIG_ARGS=(-S "$REPO" -B "$BUILD" -G "$GENERATOR" -DGPULAB_APP=OFF -DGPULAB_TESTS=ON -DGPULAB_CUDA=$CUDA_MODE
             -DCMAKE_BUILD_TYPE=Release)
[ "$CUDA_MODE" = ON ] && CONFIG_ARGS+=(-DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES="$ARCH")
[ -n "$PREFIX_PATH" ] && CONFIG_ARGS+=(-DCMAKE_PREFIX_PATH="$PREFIX_PATH")
command -v ccache >/dev/null 2>&1 && CONFIG_ARGS+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
CONFIG_ARGS+=("${EXTRA_CMAKE[@]}")
# A folder configured with another generator cannot be reused.
if [ -f "$BUILD/CMakeCache.txt" ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=$GENERATOR\$" "$BUILD/CMakeCache.txt"; then
  rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
fi
CORE_TARGETS=(gpulab-bench)
[ "$CUDA_MODE" = ON ] && CORE_TARGETS+=(gpulab_cuda)
TEST_TARGETS=()
for src in "$REPO"/tests/gpu/test_*.cpp; do TEST_TARGETS+=("gpu_$(basename "$src" .cpp)"); done
BENCH="$BUILD/bin/gpulab-bench"
MODULE="$BUILD/bin/libgpulab_cuda.so"
BUILT=0
# A second try in the same lease finds the folder configured with the same arguments: the build tool re-runs CMake
# by itself if a CMakeLists.txt changed, so configuring again would only spend 15-25 s of device time.
CONFIG_STAMP="$BUILD/.device-check-configure"
configured() {
  [ -f "$CONFIG_STAMP" ] && [ "$(cat "$CONFIG_STAMP")" = "${CONFIG_ARGS[*]}" ] &&
    { [ -f "$BUILD/build.ninja" ] || [ -f "$BUILD/Makefile" ]; }
}
if configured; then
  note "PASS  configure (already configured with these arguments)"
  set_state configure pass
  configure_ok=1
else
  rm -f "$CONFIG_STAMP"
  configure_ok=0
  step "configure" "$(cap "$(fixed_cap configure)" 180)" "$BUILD_LOG" cmake "${CONFIG_ARGS[@]}" && configure_ok=1 &&
    echo "${CONFIG_ARGS[*]}" >"$CONFIG_STAMP"
fi
if [ $configure_ok = 1 ]; then
  if step "build-core (${CORE_TARGETS[*]})" "$(cap "$(fixed_cap build-core)" 900)" "$BUILD_LOG" \
       cmake --build "$BUILD" -j "$JOBS" --target "${CORE_TARGETS[@]}"; then
    BUILT=1
  fi
  if [ "$CUDA_MODE" = ON ]; then
    if [ -f "$MODULE" ]; then
      # What the module exports and links: the runtime only, never the driver library.
      { echo "== exported symbols"; nm -D --defined-only "$MODULE" | grep -i gpulab;
        echo "== libraries"; ldd "$MODULE"; } >>"$BUILD_LOG" 2>&1
      if ldd "$MODULE" | grep -q "libcuda\.so"; then
        note "FAIL  the CUDA module links libcuda.so (it must use the runtime only)"
        set_state cuda-module-links fail
      fi
    else
      note "FAIL  $MODULE was not built (see build.log)"
      set_state cuda-module fail
    fi
  fi
fi
[ -x "$BENCH" ] && step "devices" "$(cap "$(fixed_cap devices)" 30)" "$BENCH_LOG" "$BENCH" devices

# ---- the CUDA suites (on the CPU path: the CPU's), each under its cap, merged into one recording ----
if [ -x "$BENCH" ] && [ $BUILT = 1 ]; then
  for entry in $SUITES; do
    suite=${entry%%:*}
    wanted "$suite" bench || continue
    RERUN+=("$suite")
    rm -f "$PARTS/$suite.json"
    bench_step "$suite" "${entry##*:}" "$BENCH_LOG" "$PARTS/$suite.json" \
      "$BENCH" bench --suite "$suite" $BENCH_ARGS --out "$PARTS/$suite.json"
    merge  # after every suite, so OUTDIR holds a valid recording of everything so far
  done
else
  note "FAIL  bench (gpulab-bench was not built)"
  set_state bench fail
fi

# ---- Vulkan: the same device through the Vulkan backend, after the CUDA suites ----
. "$REPO/tests/gpu/device_check_vulkan.sh"

# ---- the GPU tests, built only now (without a device they skip, each with its reason) ----
if wanted build-tests tests || wanted ctest tests; then
  if [ -f "$BUILD/CTestTestfile.cmake" ] && [ $BUILT = 1 ]; then
    if step "build-tests (${TEST_TARGETS[*]})" "$(cap "$(fixed_cap build-tests)" 300)" "$BUILD_LOG" \
         cmake --build "$BUILD" -j "$JOBS" --target "${TEST_TARGETS[@]}"; then
      step "ctest -L gpu" "$(cap "$(fixed_cap ctest)" 120)" "$TEST_LOG" ctest --test-dir "$BUILD" -L gpu -V --timeout "$(cap $(( $(fixed_cap ctest) - 2 )) 110)"
      note "      $(grep -E "tests passed" "$TEST_LOG" | tail -1); gtest cases: $(grep -c '^[0-9]*: \[       OK \]' "$TEST_LOG") ok, $(grep -c '^[0-9]*: \[  SKIPPED \]' "$TEST_LOG") skipped, $(grep -c '^[0-9]*: \[  FAILED  \]' "$TEST_LOG") failed"
      [ "$GPUS" -gt 0 ] || note "      (no GPU: the GPU tests ran and skipped; see tests.log for their reasons)"
    fi
  else
    note "FAIL  build-tests (nothing was configured or the core did not build)"
    set_state build-tests fail
  fi
fi
merge

# ---- extras, in the time left: compute-sanitizer on the small ladder tests, torch.matmul beside cuBLAS ----
. "$REPO/tests/gpu/device_check_extras.sh"

# ---- the device after the load (clocks, temperature, throttle reasons), then the final recording ----
if [ "$GPUS" -gt 0 ]; then
  { echo; echo "### nvidia-smi -q after the run"; timeout 5 nvidia-smi -q; } >>"$SMI" 2>&1 || true
  smi_facts end >>"$FACTS_FILE"
fi
merge
if [ -s "$REC" ]; then
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$REC" 2>/dev/null || echo "?")
  note "      recording: $(basename "$REC") ($(wc -c <"$REC") bytes, $n results)"
  # A resumed run's recording holds the earlier one's results: the earlier file in OUTDIR is superseded.
  [ -n "$RESUME" ] && [ "$(dirname "$RESUME")" = "$OUTDIR" ] && [ "$RESUME" != "$REC" ] && rm -f "$RESUME"
elif [ -n "$ONLY" ] && [ ${#RERUN[@]} -eq 0 ]; then
  note "      no recording: --only ran no suite"
else
  note "FAIL  no recording written"
  STATUS=1
fi
rm -rf "$CHECK_DIR"

failed=()
for s in "${ORDER[@]}"; do case "${STATE[$s]}" in fail|miss) failed+=("$s") ;; esac; done
cut=()
for s in "${ORDER[@]}"; do [ "${STATE[$s]}" = cut ] && cut+=("$s"); done
[ ${#cut[@]} -gt 0 ] && note "cut at their caps (not failures): ${cut[*]}"
warned=()
for s in "${ORDER[@]}"; do [ "${STATE[$s]}" = warn ] && warned+=("$s"); done
[ ${#warned[@]} -gt 0 ] && note "extras with warnings (not failures; see above): ${warned[*]}"
if [ ${#failed[@]} -gt 0 ]; then
  note "failed or not run: ${failed[*]}"
  note "to run only those again: tests/gpu/device-check.sh ${DEPS:+--deps $DEPS }--resume $REC OUTDIR"
fi
note "total $(( $(date +%s) - START ))s; status $([ $STATUS -eq 0 ] && echo PASS || echo FAIL)"
exit $STATUS
