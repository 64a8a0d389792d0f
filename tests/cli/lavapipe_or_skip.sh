# Sourced by the CLI tests that run on the Vulkan device here (lavapipe, allowed on purpose): after `set -u`, with
# BIN (the build's bin folder) and SCRATCH (emptied here) set. They stop at the first broken expectation (fail) and
# skip, exit 0, where this build or machine has no Vulkan on the CPU to run on.
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 0; }

[ -f "$BIN/libgpulab_vulkan.so" ] || skip "this build has no Vulkan module"
export GPULAB_VULKAN_ALLOW_CPU=1
devices=$("$BIN/gpulab" devices 2>&1) || fail "gpulab devices failed: $devices"
grep -q "Vulkan on the CPU" <<<"$devices" || skip "no CPU-type Vulkan device (lavapipe) here: $devices"
unset GPULAB_VULKAN_ALLOW_CPU
