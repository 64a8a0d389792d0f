#!/usr/bin/env bash
# An nvcc older than CUDA 12.0 is refused at configure time in one sentence: fatal with GPULAB_CUDA=ON, a status line
# with AUTO (and the rest still configures, without the module); a 12.0 nvcc passes the check. The nvcc here is a fake
# that only answers --version, so the test needs no toolkit; the real configure (top-level CMakeLists.txt) runs.
# Usage: test_nvcc_floor.sh SOURCE_DIR SCRATCH_DIR
set -u
SRC=${1:?usage: test_nvcc_floor.sh SOURCE_DIR SCRATCH}
SCRATCH=${2:?usage: test_nvcc_floor.sh SOURCE_DIR SCRATCH}
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
fail() { echo "FAIL: $*" >&2; exit 1; }

said() { tr -s ' \n' '  ' <"$SCRATCH/$1.log" | grep -q "$2"; }  # CMake wraps long messages
fake_nvcc() {  # fake_nvcc FILE VERSION: an nvcc that says it is CUDA VERSION
  printf '#!/bin/sh\necho "nvcc: NVIDIA (R) Cuda compiler driver"\necho "Cuda compilation tools, release %s, V%s.89"\n' \
    "$2" "$2" >"$1"
  chmod +x "$1"
}
configure() {  # configure NAME NVCC MODE: the project's configure, core only, with that nvcc
  cmake -S "$SRC" -B "$SCRATCH/$1" -G Ninja -DGPULAB_APP=OFF -DGPULAB_TESTS=OFF -DGPULAB_VULKAN=OFF \
    -DCMAKE_CUDA_COMPILER="$2" -DGPULAB_CUDA="$3" >"$SCRATCH/$1.log" 2>&1
}

fake_nvcc "$SCRATCH/nvcc-11.8" 11.8
configure old-on "$SCRATCH/nvcc-11.8" ON && fail "GPULAB_CUDA=ON accepted CUDA 11.8"
said old-on "is CUDA 11.8, and the CUDA module needs CUDA 12.0 or newer" ||
  { cat "$SCRATCH/old-on.log"; fail "GPULAB_CUDA=ON with CUDA 11.8 did not say why it stopped"; }
echo "ON + CUDA 11.8: refused at configure time"

configure old-auto "$SCRATCH/nvcc-11.8" AUTO || { cat "$SCRATCH/old-auto.log"; fail "AUTO with CUDA 11.8 did not configure"; }
said old-auto "the CUDA module is not built" || fail "AUTO with CUDA 11.8 did not say the module is skipped"
grep -q "Build files have been written" "$SCRATCH/old-auto.log" || fail "AUTO with CUDA 11.8 did not finish configuring"
grep -q '^GPULAB_CUDA:STRING=AUTO' "$SCRATCH/old-auto/CMakeCache.txt" || fail "the cache lost GPULAB_CUDA"
[ -e "$SCRATCH/old-auto/gpu/cuda" ] && fail "AUTO with CUDA 11.8 still configured gpu/cuda"
echo "AUTO + CUDA 11.8: configured without the CUDA module"

# 12.0 passes the version check (the fake cannot compile, so CMake's own compiler test stops it after that).
fake_nvcc "$SCRATCH/nvcc-12.0" 12.0
configure new-on "$SCRATCH/nvcc-12.0" ON
said new-on "needs CUDA 12.0 or newer" && fail "CUDA 12.0 was refused as too old"
said new-on "is CUDA 12.0: building the CUDA module" || { cat "$SCRATCH/new-on.log"; fail "CUDA 12.0 was not accepted"; }
echo "ON + CUDA 12.0: accepted by the version check"
echo PASS
