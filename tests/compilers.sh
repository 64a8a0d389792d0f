#!/bin/bash
# The compilers a teacher meets (tools/run-tests calls this after the normal build): gcc 11, the compiler of Colab and
# Ubuntu 22.04, builds what a borrowed GPU needs and runs the core's tests.
#  1. The "record your own GPU" recipe's CI test (tests/cli/test_record_recipe.sh) with CXX=g++-11: check, deps,
#     build (gpulab-bench, Release) and record on the CPU path, down to a recording that loads. CTest runs it so
#     where g++-11 is installed, and this script builds on that run's folder; run alone, it runs the test itself.
#  2. The same build folder, reconfigured as the README's Qt-free configure (-DGPULAB_APP=OFF) and, when nvcc is
#     here, with the CUDA module for one architecture (sm_75) and g++-11 as nvcc's host compiler: everything that
#     configure builds is built (`all`: the core, gpulab-bench, the Vulkan module where its headers are, the CUDA
#     module, the emulator), so no target can be missed by a list (issue 38: the Vulkan module once was).
#  3. The tests turned on in the same folder (the core is not compiled twice): the core's unit and cpu tests and the
#     FP16 conversion's test are built and run.
# Skipped, with a note, without g++-11.
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

# The recipe with g++-11: CTest's run of it (tests/CMakeLists.txt gives it CXX=g++-11 where g++-11 is) left its
# build folder configured with g++-11; the checks below build on that one. Otherwise (this script run alone) the
# recipe's test runs here.
ctest_recipe=$PWD/build/tests/scratch/test_record_recipe-build
if [ -z "${GPULAB_GCC11_BUILD:-}" ] && [ -f "$ctest_recipe/CMakeCache.txt" ] &&
   grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=.*$(basename "$CXX11")\$" "$ctest_recipe/CMakeCache.txt"; then
  build=$ctest_recipe
  echo "== compilers: the record-your-GPU recipe with $CXX11: run by CTest (cli/test_record_recipe); its build folder $build"
else
  echo "== compilers: the record-your-GPU recipe with $CXX11 ($("$CXX11" --version | head -1))"
  CXX=$CXX11 CC=$CC11 GPULAB_RECIPE_BUILD=$build \
    bash tests/cli/test_record_recipe.sh "$build/bin" "$build-scratch/record_recipe"
fi
recipe_s=$((SECONDS - start))

echo "== compilers: everything the Qt-free configure builds, with $CXX11"
cuda=(-DGPULAB_CUDA=OFF)
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  # One architecture proves the host compiler works with nvcc; the normal build compiles every architecture.
  cuda=(-DGPULAB_CUDA=ON -DCMAKE_CUDA_HOST_COMPILER="$(command -v "$CXX11")" -DCMAKE_CUDA_ARCHITECTURES=75)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPULAB_APP=OFF -DGPULAB_TESTS=OFF "${cuda[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
modules=$(ls "$build"/bin/libgpulab_*.so 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
# The module that gcc 11 once could not compile (_Float16) must be among them wherever its headers are.
if [ -f /usr/include/vulkan/vulkan.h ] && command -v glslc >/dev/null 2>&1 && [ ! -f "$build/bin/libgpulab_vulkan.so" ]; then
  echo "compilers: the Vulkan headers and glslc are here, but $CXX11's build made no Vulkan module" >&2
  exit 1
fi
all_s=$((SECONDS - start - recipe_s))

echo "== compilers: the core's tests with $CXX11"
cmake -S . -B "$build" -DGPULAB_TESTS=ON >/dev/null
# The unit and cpu test executables (one per test file) and the FP16 conversion's, by name: the emulator's kernel
# and mutant tests are compiled by the normal build already.
mapfile -t tests < <(ninja -C "$build" -t targets all |
                     grep -oE '^((unit|cpu)_test_[A-Za-z0-9_]+|cuda_emu_test_emu_half_types)(:| )' | tr -d ': ' | sort -u)
[ ${#tests[@]} -gt 0 ] || { echo "compilers: found no unit or cpu test targets" >&2; exit 1; }
cmake --build "$build" -j "$jobs" --target "${tests[@]}"
ctest --test-dir "$build" -L 'unit|cpu' -LE slow --output-on-failure -j "$jobs"
ctest --test-dir "$build" -R 'cuda_emu/test_emu_half_types' --output-on-failure
echo "== compilers: $CXX11 passed in $((SECONDS - start)) s (recipe $recipe_s s; all of the Qt-free build $all_s s, modules: ${modules:-none}; ${#tests[@]} test programs)"
