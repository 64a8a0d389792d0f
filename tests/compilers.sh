#!/bin/bash
# The compilers a teacher meets (tools/run-tests calls this after the normal build): gcc 11, the compiler of Colab and
# Ubuntu 22.04, builds what a borrowed GPU needs and runs the core's tests.
#  1. The "record your own GPU" recipe's CI test (tests/cli/test_record_recipe.sh) with CXX=g++-11: check, deps,
#     build (gpulab-bench, Release) and record on the CPU path, down to a recording that loads.
#  2. The same build folder, reconfigured with the tests on and, when nvcc is here, the CUDA module for one
#     architecture (sm_75) with g++-11 as nvcc's host compiler: gpulab-bench, the module and the core's unit and cpu
#     tests are built (the core is not compiled twice), and those tests run.
# Only what that needs is built: no app, no Vulkan module, no emulator tests. Skipped, with a note, without g++-11.
set -euo pipefail
cd "$(dirname "$0")/.."
CXX11=${GPULAB_GCC11:-g++-11}
if ! command -v "$CXX11" >/dev/null 2>&1; then
  echo "== compilers: skipped: $CXX11 is not installed (tools/install-deps adds g++-11 where the distribution has it)"
  exit 0
fi
CC11=${CXX11/g++/gcc}
jobs=$(nproc 2>/dev/null || echo 2)
build=${GPULAB_GCC11_BUILD:-$PWD/build-gcc11}  # a folder of its own, apart from build/
start=$SECONDS

echo "== compilers: the record-your-GPU recipe with $CXX11 ($("$CXX11" --version | head -1))"
CXX=$CXX11 CC=$CC11 GPULAB_RECIPE_BUILD=$build \
  bash tests/cli/test_record_recipe.sh "$build/bin" "$build-scratch/record_recipe"
recipe_s=$((SECONDS - start))

echo "== compilers: the core's tests and the CUDA module with $CXX11"
cuda=(-DGPULAB_CUDA=OFF)
targets=(gpulab-bench)
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  # One architecture proves the host compiler works with nvcc; the normal build compiles every architecture.
  cuda=(-DGPULAB_CUDA=ON -DCMAKE_CUDA_HOST_COMPILER="$(command -v "$CXX11")" -DCMAKE_CUDA_ARCHITECTURES=75)
  targets+=(gpulab_cuda)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPULAB_APP=OFF -DGPULAB_TESTS=ON "${cuda[@]}" >/dev/null
# The unit and cpu test executables (one per test file), by name, so nothing else of "all" is built.
mapfile -t tests < <(ninja -C "$build" -t targets all | grep -oE '^(unit|cpu)_test_[A-Za-z0-9_]+(:| )' | tr -d ': ' | sort -u)
[ ${#tests[@]} -gt 0 ] || { echo "compilers: found no unit or cpu test targets" >&2; exit 1; }
cmake --build "$build" -j "$jobs" --target "${targets[@]}" "${tests[@]}"
ctest --test-dir "$build" -L 'unit|cpu' -LE slow --output-on-failure -j "$jobs"
echo "== compilers: $CXX11 passed in $((SECONDS - start)) s (recipe $recipe_s s; ${#tests[@]} test programs$(
  [ ${#targets[@]} -gt 1 ] && echo ", CUDA module for sm_75"))"
