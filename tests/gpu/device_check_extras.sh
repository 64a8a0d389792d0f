# Sourced by device-check.sh after the recording and the GPU tests: compute-sanitizer on the small ladder tests,
# torch.matmul beside cuBLAS. They are extras: each is probed first (does the tool run on this GPU at all?) and
# what it finds is reported PASS, WARN (it ran and complained, or stopped at its cap) or SKIP (the tool, the
# device or the time is missing), each with the reason, never as a failed run. They run only in the time the
# budget has left: the recording and the tests come first. ("Device not supported" from compute-sanitizer on a
# sandboxed GPU once made the whole check exit 1.)

# extra_time CAP: true when the whole cap fits in what is left.
extra_time() { [ "$(allow "$1")" -ge "$1" ]; }

# extra_step NAME CAP LOG COMMAND...: like step, but a non-zero exit or the cap is a WARN naming why, not a failure.
extra_step() {
  local name=$1 limit=$2 log=$3
  shift 3
  run_capped "$name" "$limit" "$log" TERM "$@" || return 0
  if [ "$RAN_RC" -eq 0 ]; then
    note "PASS  $name (${RAN_TOOK}s)"
    set_state "$name" pass "$RAN_TOOK"
  elif [ "$RAN_RC" -eq 124 ] || [ "$RAN_RC" -eq 137 ]; then
    warn "$name" "stopped at its ${RAN_CAP}s cap; see $(basename "$log")"
  else
    local why
    why=$(sed -n "/^== ${name%% *}/,\$p" "$log" | grep -m1 -iE 'error|not supported|fail' | cut -c1-160)
    warn "$name" "exit $RAN_RC after ${RAN_TOOK}s${why:+: $why}; see $(basename "$log")"
  fi
}

# sanitizer_refusal SANITIZER PROGRAM: empty when compute-sanitizer runs a small CUDA test here, else its own words
# for why not ("Device not supported", a sandbox without the debugger interface).
sanitizer_refusal() {
  local out rc
  out=$(timeout 30 "$1" --tool memcheck --error-exitcode 3 "$2" --gtest_filter=CudaLadderSmall.Helpers 2>&1)
  rc=$?
  [ $rc -eq 0 ] && return 0
  { echo "== compute-sanitizer probe (exit $rc)"; echo "$out" | tail -20; } >>"$TEST_LOG"
  local line
  line=$(echo "$out" | grep -m1 -iE 'not supported|unable|cannot|failed|error' | sed 's/^=* *//' | cut -c1-160)
  [ $rc -eq 124 ] && line="it did not finish a small test within 30 s"
  echo "${line:-exit $rc on a small test}"
}

if QUIET=1 wanted compute-sanitizer extras || QUIET=1 wanted torch.matmul extras; then
  SANITIZER=""
  for c in "$(command -v compute-sanitizer 2>/dev/null)" "${NVCC:+$(dirname "$NVCC")/compute-sanitizer}" \
           "${NVCC:+$(dirname "$NVCC")/../compute-sanitizer/compute-sanitizer}"; do
    if [ -n "$c" ] && [ -x "$c" ]; then SANITIZER=$c; break; fi
  done
  SMALL=$(find "$BUILD/tests" -maxdepth 2 -type f -name gpu_test_ladder_small 2>/dev/null | head -1)
  if ! wanted compute-sanitizer extras; then
    :
  elif [ -z "$SANITIZER" ]; then
    skip compute-sanitizer "not installed with this CUDA toolkit"
  elif [ "$GPUS" -eq 0 ]; then
    skip compute-sanitizer "no GPU"
  elif [ -z "$SMALL" ]; then
    skip compute-sanitizer "gpu_test_ladder_small was not built (see the build-tests step)"
  elif ! extra_time 70; then
    skip compute-sanitizer "$(allow 70) s left of the budget; it needs 70 with its probe"
  elif why=$(sanitizer_refusal "$SANITIZER" "$SMALL") && [ -n "$why" ]; then
    skip compute-sanitizer "it does not run on this GPU here: $why"
  else
    extra_step "compute-sanitizer-memcheck (small ladder)" 20 "$TEST_LOG" \
      "$SANITIZER" --tool memcheck --leak-check full --error-exitcode 3 "$SMALL"
    # Races would be in the hand-written kernels' shared-memory tiles; cuBLAS's are NVIDIA's.
    extra_step "compute-sanitizer-racecheck (small ladder)" 20 "$TEST_LOG" \
      "$SANITIZER" --tool racecheck --error-exitcode 3 "$SMALL" --gtest_filter=CudaLadderSmall.OwnKernels
  fi

  if ! wanted torch.matmul extras; then
    :
  elif [ "$GPUS" -eq 0 ]; then
    skip torch.matmul "vs cuBLAS: no GPU"
  elif ! extra_time 45; then
    skip torch.matmul "vs cuBLAS: $(allow 45) s left of the budget; it needs 45 with torch's import"
  elif ! torch_probe=$(timeout 15 python3 -c "import torch; print(torch.__version__, torch.cuda.is_available())" 2>&1); then
    skip torch.matmul "vs cuBLAS: no python3 with torch ($(echo "$torch_probe" | tail -1 | cut -c1-120))"
  elif ! echo "$torch_probe" | grep -q "True$"; then
    skip torch.matmul "vs cuBLAS: torch $(echo "$torch_probe" | tail -1 | cut -d' ' -f1) sees no CUDA device"
  elif [ ! -s "$REC" ]; then
    skip torch.matmul "vs cuBLAS: no recording to compare with"
  else
    extra_step "torch.matmul vs cuBLAS (4096³ fp32, bf16)" 30 "$BENCH_LOG" \
      python3 "$REPO/tests/gpu/torch_matmul.py" --out "$TORCH_JSON" --recording "$REC"
  fi
fi
