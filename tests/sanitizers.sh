#!/bin/bash
# The sanitizer step of the test run (tools/run-tests calls it):
#  1. AddressSanitizer + UndefinedBehaviorSanitizer over the unit, cpu, cli and emu (CUDA emulator) tests (Qt-free core
#     build), not the slow ones (the device check builds its own plain core: nothing of it runs under ASan);
#  2. ThreadSanitizer over the experiment runner's tests (the app's worker thread);
#  3. the recording loader under libFuzzer for a bounded time (clang).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${GPULAB_FUZZ_SECONDS:-60}

echo "== sanitizers: ASan + UBSan (core: unit, cpu, cli, emu tests)"
# No Vulkan module here: its tests would run Mesa's lavapipe (an LLVM JIT) inside the ASan process, whose own
# allocations LeakSanitizer reports; the Vulkan tests run in the normal build (label vulkan, validation layer on).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGPULAB_APP=OFF -DGPULAB_CUDA=OFF -DGPULAB_VULKAN=OFF \
  -DGPULAB_SANITIZE=ON -DGPULAB_TESTS=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -L 'unit|cpu|cli|emu' -LE slow --output-on-failure -j "$jobs"

echo "== sanitizers: TSan (experiment runner)"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGPULAB_CUDA=OFF -DGPULAB_TSAN=ON -DGPULAB_TESTS=ON
cmake --build build-tsan -j "$jobs" --target runner_test_runner
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp" QT_QPA_PLATFORM=offscreen GPULAB_NO_SETTINGS=1 \
  build-tsan/tests/runner_test_runner

fuzz_probe=$(mktemp -d)
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$fuzz_probe/p.cpp"
if command -v clang++ >/dev/null 2>&1 && clang++ -fsanitize=fuzzer "$fuzz_probe/p.cpp" -o "$fuzz_probe/p" 2>/dev/null; then
  echo "== fuzz: recording loader for ${fuzz_seconds}s"
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULAB_DEBUG_INFO=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DGPULAB_APP=OFF -DGPULAB_CUDA=OFF -DGPULAB_TESTS=ON -DGPULAB_FUZZ=ON
  cmake --build build-fuzz -j "$jobs" --target fuzz_recording
  mkdir -p build-fuzz/corpus
  cp tests/fuzz/corpus/* build-fuzz/corpus/ 2>/dev/null || true
  build-fuzz/tests/fuzz_recording -max_total_time="$fuzz_seconds" -max_len=65536 -rss_limit_mb=2048 \
    build-fuzz/corpus
else
  echo "== fuzz: skipped (clang++ with libFuzzer is not installed: tools/install-deps adds clang libclang-rt-dev)"
fi
echo "sanitizers: all passed"
