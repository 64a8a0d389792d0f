# Sourced by device-check.sh after the CUDA suites: the same GPU measured through the Vulkan backend, the first
# real-GPU run of that code, in the same minutes. The module is built now (not before the CUDA suites: a Vulkan
# build problem must not cost the CUDA recording); the loader comes from the private prefix the deps' .debs were
# unpacked into (LD_LIBRARY_PATH), and when it finds no driver, NVIDIA's ICD file is named (VK_DRIVER_FILES).
# Each suite runs with --gpu-only: the CUDA parts already measured the CPU. Missing Vulkan pieces on a machine
# that was not given them are skipped with the reason; no Vulkan device on a machine with an NVIDIA GPU and the
# loader brought along is a failure.

vulkan_wanted=0
for entry in $VK_SUITES; do
  if QUIET=1 wanted "vulkan-${entry%%:*}" vulkan; then vulkan_wanted=1; fi
done
VK_MODULE="$BUILD/bin/libgpulab_vulkan.so"
# The bench's own words for the Vulkan device it would use ("used by --device vulkan: NAME"), or ""; what
# `devices --vulkan` said goes to bench.log. It starts only the Vulkan driver (neither CUDA nor the CPU backend's
# peak timing); NVIDIA's driver can take seconds to start the first time, so a try gets $1 seconds (default 12),
# all tries together the vulkan-probe cap.
vulkan_device() {
  VK_DEVICES=$(timeout "${1:-12}" "$BENCH" devices --vulkan 2>&1)
  local rc=$?
  { echo "== devices --vulkan (Vulkan probe${VK_DRIVER_FILES:+, VK_DRIVER_FILES=$VK_DRIVER_FILES}; exit $rc)"; echo "$VK_DEVICES"; } >>"$BENCH_LOG"
  [ $rc -eq 124 ] && echo "      vulkan: the probe did not answer within ${1:-12} s (a slow driver start?)" >>"$BENCH_LOG"
  echo "$VK_DEVICES" | sed -n 's/^  used by --device vulkan: //p' | head -1
}

if [ $vulkan_wanted = 0 ]; then
  :
elif [ $BUILT != 1 ]; then
  note "FAIL  vulkan (the core did not build)"
  set_state vulkan fail
elif ! grep -qs 'gpulab_vulkan' "$BUILD/build.ninja" && [ ! -f "$BUILD/gpu/vulkan/Makefile" ]; then
  skip vulkan "the Vulkan module was not configured: no Vulkan headers or glslc (tools/fetch-core-deps brings them in DIR/vulkan)"
elif step "build-vulkan (gpulab_vulkan)" "$(cap "$(fixed_cap build-vulkan)" 300)" "$BUILD_LOG" cmake --build "$BUILD" -j "$JOBS" --target gpulab_vulkan; then
  start=$(date +%s)
  probe_cap=$(allow "$(cap "$(fixed_cap vulkan-probe)" 60)")
  VK_DEVICE=$(vulkan_device $(( probe_cap * 3 / 5 )))
  if [ -z "$VK_DEVICE" ] && ICD=$(nvidia_icd); then
    # The loader searched its usual folders and found no driver: name NVIDIA's (both variables, for old loaders).
    export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
    note "      vulkan: the loader found no usable device by itself; naming NVIDIA's ICD file $ICD"
    left=$(( probe_cap - ($(date +%s) - start) ))
    VK_DEVICE=$(vulkan_device $(( left > 5 ? left : 5 )))
  fi
  if [ -n "$VK_DEVICE" ]; then
    note "PASS  vulkan-probe ($VK_DEVICE, $(( $(date +%s) - start ))s)"
    set_state vulkan-probe pass $(( $(date +%s) - start ))
    for entry in $VK_SUITES; do
      suite=${entry%%:*}
      wanted "vulkan-$suite" vulkan || continue
      RERUN+=("vulkan-$suite")
      rm -f "$PARTS/vulkan-$suite.json"
      bench_step "vulkan-$suite" "${entry##*:}" "$BENCH_LOG" "$PARTS/vulkan-$suite.json" \
        "$BENCH" bench --device vulkan --gpu-only --suite "$suite" $BENCH_ARGS --out "$PARTS/vulkan-$suite.json"
      merge
    done
  elif [ "$GPUS" -gt 0 ]; then
    note "FAIL  vulkan-probe (no Vulkan device: $(timeout 10 "$BENCH" devices --vulkan 2>/dev/null | grep -A3 '^Vulkan' | tr '\n' ' '); see bench.log)"
    set_state vulkan-probe fail
  else
    skip vulkan-probe "no Vulkan GPU here$([ "${GPULAB_VULKAN_ALLOW_CPU:-0}" = 1 ] || echo "; GPULAB_VULKAN_ALLOW_CPU=1 would use a CPU-type device")"
  fi
fi
