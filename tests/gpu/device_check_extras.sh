# Sourced by device-check.sh after the recording and the GPU tests: compute-sanitizer on the small ladder tests,
# torch.matmul beside cuBLAS. They run only in the time the budget has left and are skipped (not failed) when it
# has too little: the recording and the tests come first.

# extra_time CAP: true when the whole cap fits in what is left.
extra_time() { [ "$(allow "$1")" -ge "$1" ]; }

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
  elif ! extra_time 40; then
    skip compute-sanitizer "$(allow 40) s left of the budget; it needs 40"
  else
    step "compute-sanitizer-memcheck (small ladder)" 20 "$TEST_LOG" \
      "$SANITIZER" --tool memcheck --leak-check full --error-exitcode 3 "$SMALL"
    # Races would be in the hand-written kernels' shared-memory tiles; cuBLAS's are NVIDIA's.
    step "compute-sanitizer-racecheck (small ladder)" 20 "$TEST_LOG" \
      "$SANITIZER" --tool racecheck --error-exitcode 3 "$SMALL" --gtest_filter=CudaLadderSmall.OwnKernels
  fi

  if ! wanted torch.matmul extras; then
    :
  elif [ "$GPUS" -eq 0 ]; then
    skip torch.matmul "vs cuBLAS: no GPU"
  elif ! extra_time 45; then
    skip torch.matmul "vs cuBLAS: $(allow 45) s left of the budget; it needs 45 with torch's import"
  elif ! timeout 15 python3 -c "import torch" >/dev/null 2>&1; then
    skip torch.matmul "vs cuBLAS: no python3 with torch"
  elif [ ! -s "$REC" ]; then
    skip torch.matmul "vs cuBLAS: no recording to compare with"
  else
    step "torch.matmul vs cuBLAS (4096³ fp32, bf16)" 30 "$BENCH_LOG" \
      python3 "$REPO/tests/gpu/torch_matmul.py" --out "$TORCH_JSON" --recording "$REC"
  fi
fi
