#!/usr/bin/env bash
# record-your-gpu.sh [options] STEP... — record your own GPU for gpulab in a few minutes: on a notebook GPU (Colab,
# Kaggle, a Jupyter server) or any Linux machine with an NVIDIA GPU. The notebook tools/record-your-gpu.ipynb calls
# these same steps cell by cell; CI runs them on the CPU path (tests/cli/test_record_recipe.sh).
#
# Steps (in this order; `all` = check deps build record):
#   check    is an NVIDIA GPU here (nvidia-smi), what is it (name, compute capability -> sm_XX), is nvcc here?
#            Without a GPU it says what to do and stops (exit 1), unless --cpu-ok.
#   deps     installs what is missing: CMake 3.24+, Ninja, a C++20 compiler, nlohmann-json headers (apt-get when
#            root or sudo works; CMake and Ninja from pip when apt's are too old; nlohmann-json unpacked into
#            REPO/.deps with tools/fetch-core-deps when there is no root)
#   build    builds the Qt-free core (gpulab-bench) and, with a GPU, the CUDA module for this GPU's architecture
#   record   runs `gpulab-bench bench --suite all` under a time budget (what was measured before the budget ran out
#            is kept), checks the recording with the app's own loader, and says where it is
#   pack     (on your own machine) makes gpulab-src.tar.gz of this tree, to upload to a notebook without git access
#
# Options:
#   --minutes N      time budget of the whole bench run (default 8; fractions allowed: 0.5)
#   --suite NAME     bench suite (default all; `gpulab-bench bench --list` lists them)
#   --budget S       seconds per measurement (default 0.5 with a GPU, 0.1 on the CPU path)
#   --max-samples N  most timed samples per measurement (default: gpulab-bench's)
#   --out DIR        where the recording goes (default ./gpulab-recordings)
#   --build DIR      build folder (default REPO/build-record)
#   --cpu-ok         go on without a GPU: a CPU-only recording (how CI tests these steps)
# Exit status: 0 done; 1 a step failed (the message says which and what to do); 2 bad usage.
set -u
set -o pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
MINUTES=8
SUITE=all
BUDGET=""
MAX_SAMPLES=""
OUT="$PWD/gpulab-recordings"
BUILD="$REPO/build-record"
CPU_OK=0
STEPS=()

usage() { sed -n '2,31p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) [ $# -ge 2 ] || usage; MINUTES=$2; shift 2 ;;
    --suite) [ $# -ge 2 ] || usage; SUITE=$2; shift 2 ;;
    --budget) [ $# -ge 2 ] || usage; BUDGET=$2; shift 2 ;;
    --max-samples) [ $# -ge 2 ] || usage; MAX_SAMPLES=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || usage; BUILD=$2; shift 2 ;;
    --cpu-ok) CPU_OK=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    check|deps|build|record|pack) STEPS+=("$1"); shift ;;
    all) STEPS+=(check deps build record); shift ;;
    *) echo "record-your-gpu: unknown argument '$1'" >&2; usage ;;
  esac
done
[ ${#STEPS[@]} -gt 0 ] || usage
echo "$MINUTES" | grep -Eq '^[0-9]+(\.[0-9]+)?$' || { echo "record-your-gpu: --minutes wants a number, not '$MINUTES'" >&2; exit 2; }
case "$BUILD" in /*) ;; *) BUILD="$PWD/$BUILD" ;; esac

say() { printf '%s\n' "$*"; }
die() { printf '\nrecord-your-gpu: %s\n' "$*" >&2; exit 1; }

# ---- what is here ----
# WSL2: the Windows driver's nvidia-smi and libcuda.so.1 live in /usr/lib/wsl/lib, not always on PATH or the
# library path (GPULAB_WSL_LIB_DIR names another folder, for tests/cli/test_wsl_paths.sh).
WSL_LIB=${GPULAB_WSL_LIB_DIR:-/usr/lib/wsl/lib}
if ! command -v nvidia-smi >/dev/null 2>&1 && [ -x "$WSL_LIB/nvidia-smi" ]; then
  export PATH="$PATH:$WSL_LIB" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$WSL_LIB"
fi
GPU_COUNT=0
GPU_NAME=""
GPU_CAP=""
if command -v nvidia-smi >/dev/null 2>&1; then
  GPU_COUNT=$(timeout 20 nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  if [ "$GPU_COUNT" -gt 0 ]; then
    GPU_NAME=$(timeout 10 nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
    GPU_CAP=$(timeout 10 nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' ')
  fi
fi
ARCH=$(printf '%s' "$GPU_CAP" | tr -d '.')
# A driver too old for --query-gpu=compute_cap (before ~510) leaves it empty: CMake then asks the GPU itself.
[ "$GPU_COUNT" -gt 0 ] && [ -z "$ARCH" ] && ARCH=native
NVCC=""
for c in "${CUDACXX:-}" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc \
         $(ls -d /usr/local/cuda-*/bin/nvcc 2>/dev/null | sort -V | tail -1); do
  if [ -n "$c" ] && [ -x "$c" ]; then NVCC=$c; break; fi
done
NVCC_VERSION=""
[ -n "$NVCC" ] && NVCC_VERSION=$("$NVCC" --version 2>/dev/null | grep -o 'release [0-9]*\.[0-9]*' | head -1 | cut -d' ' -f2)
# The C++ compiler CMake will take (CXX when set, else c++), and nvcc's host compiler: the same one, so a CXX=g++-11
# build compiles the module's kernels with gcc 11 as well (CUDAHOSTCXX, when set, still wins).
HOST_CXX=${CXX:-c++}
[ -n "${CXX:-}" ] && [ -z "${CUDAHOSTCXX:-}" ] && export CUDAHOSTCXX="$CXX"
DEPS_DIR="$REPO/.deps"
# pip puts cmake and ninja here when it installs them for this user.
[ -d "$HOME/.local/bin" ] && PATH="$HOME/.local/bin:$PATH"

no_gpu_help() {
  cat <<'EOF'
No NVIDIA GPU is visible here (nvidia-smi lists none, or is not installed).
What to do:
  - Google Colab: Runtime -> Change runtime type -> Hardware accelerator: T4 GPU -> Save, then run the
    notebook again from the first cell (the free tier gives a T4 for a while most days).
  - Kaggle: Settings -> Accelerator -> GPU T4 x2, then run again.
  - Your own or a rented Linux machine: it needs an NVIDIA GPU with its driver installed (`nvidia-smi` must list
    it) and the CUDA toolkit (nvcc).
Without a GPU you need no recording: gpulab measures this machine's CPU live, and shows GPU figures from the
sample recordings or the datasheet model.
EOF
}

step_check() {
  say "== check: is there a GPU?"
  if [ "$GPU_COUNT" -gt 0 ]; then
    say "GPU: $GPU_COUNT x $GPU_NAME, compute capability $GPU_CAP -> the CUDA code is built for sm_$ARCH"
    [ "$ARCH" = native ] && say "(this driver does not report the compute capability: CMake asks the GPU for its architecture)"
    if [ -n "$NVCC" ]; then
      say "nvcc: $NVCC (CUDA ${NVCC_VERSION:-of unknown version})"
      # gpulab's CUDA module needs CUDA 12.0 or newer (C++20 in nvcc, the FP8 types); CMake would refuse it too.
      if [ -n "$NVCC_VERSION" ] && [ "$(printf '%s\n%s\n' 12.0 "$NVCC_VERSION" | sort -V | head -1)" != 12.0 ]; then
        die "nvcc is CUDA $NVCC_VERSION, and gpulab's CUDA module needs CUDA 12.0 or newer: install a CUDA 12 or 13 toolkit (or put its bin folder first on PATH), then run this again."
      fi
    else
      die "a GPU is here but the CUDA toolkit (nvcc) is not. Install it (Debian/Ubuntu: sudo apt-get install nvidia-cuda-toolkit, or NVIDIA's cuda-toolkit package) or put its bin folder on PATH, then run this again."
    fi
    return 0
  fi
  no_gpu_help
  if [ "$CPU_OK" = 1 ]; then
    say "--cpu-ok: going on without a GPU; the recording will hold CPU measurements only."
    return 0
  fi
  die "stopped: no GPU (add --cpu-ok to record the CPU anyway)."
}

# A CMake at least 3.24 (what gpulab's CMakeLists.txt asks for)?
cmake_ok() {
  command -v cmake >/dev/null 2>&1 || return 1
  local v
  v=$(cmake --version 2>/dev/null | head -1 | grep -o '[0-9][0-9.]*' | head -1)
  [ "$(printf '%s\n%s\n' 3.24 "$v" | sort -V | head -1)" = 3.24 ]
}
compiler_ok() {
  if [ -n "${CXX:-}" ]; then command -v "$CXX" >/dev/null 2>&1; return; fi  # the one asked for, or none
  command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1
}
json_ok() {
  local d
  for d in /usr/include /usr/local/include "$DEPS_DIR/usr/include" ${CONDA_PREFIX:+"$CONDA_PREFIX/include"}; do
    [ -f "$d/nlohmann/json.hpp" ] && return 0
  done
  return 1
}

step_deps() {
  say "== deps: CMake 3.24+, Ninja, a C++20 compiler, nlohmann-json"
  local apt=() missing=()
  cmake_ok || missing+=(cmake)
  command -v ninja >/dev/null 2>&1 || missing+=(ninja)
  compiler_ok || missing+=(c++)
  json_ok || missing+=(nlohmann-json)
  if [ ${#missing[@]} -eq 0 ]; then
    say "all here: $(cmake --version | head -1), ninja $(ninja --version), $("$HOST_CXX" --version 2>/dev/null | head -1)"
    return 0
  fi
  say "missing: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
  fi
  if command -v apt-get >/dev/null 2>&1 && [ "$sudo" != none ]; then
    for m in "${missing[@]}"; do
      case "$m" in
        cmake) apt+=(cmake) ;;
        ninja) apt+=(ninja-build) ;;
        c++) apt+=(g++) ;;
        nlohmann-json) apt+=(nlohmann-json3-dev) ;;
      esac
    done
    say "apt-get install ${apt[*]}"
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${apt[@]}" >/dev/null || say "apt-get install failed; trying the other ways"
  fi
  # apt's CMake may be older than 3.24 (Ubuntu 22.04 has 3.22): pip has current ones, no root needed.
  if ! cmake_ok || ! command -v ninja >/dev/null 2>&1; then
    say "CMake 3.24+ or Ninja still missing: python3 -m pip install --user cmake ninja"
    python3 -m pip install -q --user cmake ninja 2>/dev/null || python3 -m pip install -q cmake ninja ||
      die "could not install CMake (3.24 or newer) with pip; install it some other way and run this again."
    hash -r
  fi
  # No root: nlohmann-json's .deb unpacked into REPO/.deps (apt-get download needs no root).
  if ! json_ok; then
    say "nlohmann-json still missing: tools/fetch-core-deps $DEPS_DIR"
    "$REPO/tools/fetch-core-deps" "$DEPS_DIR" >/dev/null 2>&1 || true
  fi
  cmake_ok || die "CMake 3.24 or newer is still missing."
  compiler_ok || die "no C++ compiler (g++ 11+ or clang++ 14+); install one (apt-get install g++) and run this again."
  json_ok || die "nlohmann-json is still missing; install nlohmann-json3-dev (apt) or unpack it into $DEPS_DIR."
  say "ready: $(cmake --version | head -1)$(command -v ninja >/dev/null && echo ", ninja $(ninja --version)")"
}

step_build() {
  say "== build: the Qt-free core (gpulab-bench)$([ "$GPU_COUNT" -gt 0 ] && echo " and the CUDA module for sm_$ARCH") in $BUILD"
  local gen=() cuda=(-DGPULAB_CUDA=OFF) targets=(gpulab-bench) prefix=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  # A folder configured with another generator cannot be reused.
  if [ -f "$BUILD/CMakeCache.txt" ] && [ ${#gen[@]} -gt 0 ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD/CMakeCache.txt"; then
    rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
  fi
  # Nor one configured with another C++ compiler: CMake keeps the first and ignores CXX (a CXX=g++-11 run in a folder
  # an earlier run configured with c++ built with c++ and said g++-11).
  if [ -f "$BUILD/CMakeCache.txt" ]; then
    local cached wanted
    cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -1)
    wanted=$(command -v "$HOST_CXX" 2>/dev/null || echo "$HOST_CXX")
    if [ -n "$cached" ] && [ "$(readlink -f "$cached" 2>/dev/null || echo "$cached")" != "$(readlink -f "$wanted" 2>/dev/null || echo "$wanted")" ]; then
      rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
    fi
  fi
  if [ "$GPU_COUNT" -gt 0 ]; then
    [ -n "$NVCC" ] || die "no nvcc: run the check step and follow what it says."
    cuda=(-DGPULAB_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES="${ARCH:-75}")
    targets+=(gpulab_cuda)
  fi
  [ -d "$DEPS_DIR/usr" ] && prefix=(-DCMAKE_PREFIX_PATH="$DEPS_DIR/usr")
  local host_note=""
  [ "$GPU_COUNT" -gt 0 ] && host_note=", for nvcc too: ${CUDAHOSTCXX:-the default g++}"
  say "C++ compiler: $HOST_CXX ($("$HOST_CXX" --version 2>/dev/null | head -1))$host_note"
  local start=$SECONDS
  cmake -S "$REPO" -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGPULAB_APP=OFF -DGPULAB_TESTS=OFF \
        "${cuda[@]}" "${prefix[@]}" >"$BUILD.configure.log" 2>&1 ||
    { tail -30 "$BUILD.configure.log"; die "configure failed (whole log: $BUILD.configure.log)."; }
  # Progress: one line per file compiled; the whole output goes to a log, shown in part when the build fails.
  cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" 2>&1 | tee "$BUILD.build.log" |
    grep -E --line-buffered '^\[[0-9]+/[0-9]+\]' | cut -c1-110
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    grep -E -A3 'error|undefined reference|FAILED' "$BUILD.build.log" | tail -30
    die "the build failed (whole log: $BUILD.build.log)."
  fi
  say "built in $((SECONDS - start)) s: $BUILD/bin/gpulab-bench"
  say "== what gpulab-bench sees"
  "$BUILD/bin/gpulab-bench" devices | tee "$BUILD.devices.txt"
  if [ "$GPU_COUNT" -gt 0 ] && { grep -q '^GPU: not available' "$BUILD.devices.txt" || ! grep -q '^GPU: ' "$BUILD.devices.txt"; }; then
    die "gpulab-bench does not see the GPU (see above: the CUDA module did not load)."
  fi
}

step_record() {
  local bench="$BUILD/bin/gpulab-bench"
  [ -x "$bench" ] || die "$bench is not built: run the build step first."
  mkdir -p "$OUT" || die "cannot create $OUT"
  OUT=$(cd "$OUT" && pwd)
  local slug budget seconds file rc args=()
  slug=$(printf '%s' "${GPU_NAME:-cpu-only}" | tr -cs 'A-Za-z0-9' '-' | sed 's/^-*//; s/-*$//' | tr 'A-Z' 'a-z')
  file="$OUT/gpulab-$slug-$(date -u +%Y-%m-%d-%H%M).json"
  budget=${BUDGET:-$([ "$GPU_COUNT" -gt 0 ] && echo 0.5 || echo 0.1)}
  seconds=$(awk -v m="$MINUTES" 'BEGIN { s = int(m * 60 + 0.5); print (s < 5 ? 5 : s) }')
  args=(bench --suite "$SUITE" --budget "$budget" --out "$file")
  [ -n "$MAX_SAMPLES" ] && args+=(--max-samples "$MAX_SAMPLES")
  say "== record: gpulab-bench ${args[*]}"
  say "   time budget ${seconds} s: GPU measurements run first; when the budget runs out, what was measured is kept"
  timeout -s INT -k 30 "$seconds" "$bench" "${args[@]}"
  rc=$?
  case $rc in
    0) say "the suite ran to the end." ;;
    1) say "note: a result failed its check or was not run (listed above); the recording keeps it as such." ;;
    124|130) say "the time budget ran out: the recording holds what was measured until then." ;;
    *) [ -s "$file" ] || die "gpulab-bench stopped (exit $rc) before it saved anything." ;;
  esac
  [ -s "$file" ] || die "no recording was written."
  say "== check: the recording, read by the loader the app uses"
  "$bench" bench --check "$file" >"$file.check.txt" 2>&1 || { cat "$file.check.txt"; die "$file is not a valid recording."; }
  tail -3 "$file.check.txt"
  rm -f "$file.check.txt"
  say ""
  say "RECORDING: $file ($(du -h "$file" | cut -f1))"
  say "Download it, then on the classroom laptop: gpulab --open $(basename "$file")  (or File -> Open recording)"
  printf '%s\n' "$file" >"$OUT/latest.txt"
}

step_pack() {
  local tarball="$PWD/gpulab-src.tar.gz"
  say "== pack: $tarball (upload it to the notebook's second cell)"
  if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$REPO" archive --format=tar.gz --prefix=gpulab/ -o "$tarball" HEAD || die "git archive failed"
    say "(the committed tree at $(git -C "$REPO" rev-parse --short HEAD); uncommitted changes are not in it)"
  else
    tar -czf "$tarball" -C "$(dirname "$REPO")" --exclude='build*' --exclude='.deps' \
        --transform "s,^$(basename "$REPO"),gpulab," "$(basename "$REPO")" || die "tar failed"
  fi
  say "$(du -h "$tarball" | cut -f1) $tarball"
}

for s in "${STEPS[@]}"; do
  "step_$s"
done
