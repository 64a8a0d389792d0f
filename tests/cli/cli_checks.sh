# Sourced by the CLI tests: counted failures, the end of a test, and the app's binary (skipped when not built).
# A test calls fail for each broken expectation and goes on, so one run lists every problem; finish exits 1 if any.
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# finish [MESSAGE]: exit 1 with the count when a check failed, otherwise print PASS (and MESSAGE).
finish() {
  if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
  echo "PASS${1:+: $1}"
}

# need_app BIN_DIR: sets GPULAB to the app's binary; exits 0 with SKIP when the build has no app (GPULAB_APP=OFF),
# 1 when it should be there and is not. Settings are never read or written by a test.
need_app() {
  GPULAB="$1/gpulab"
  if [[ "${GPULAB_APP:-1}" == "0" || "${GPULAB_APP:-1}" == "OFF" ]]; then echo "SKIP: built without the app"; exit 0; fi
  [[ -x "$GPULAB" ]] || { echo "FAIL: $GPULAB not found"; exit 1; }
  export GPULAB_NO_SETTINGS=1
}
