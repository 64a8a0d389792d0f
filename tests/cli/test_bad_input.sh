#!/usr/bin/env bash
# Bad input must give a message and a non-zero exit, never a crash (a signal shows as an exit code >= 128).
# A damaged CUDA module must not stop `devices`. Usage: test_bad_input.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
failures=0

# expect WANT_RC PATTERN COMMAND...: WANT_RC is a number, or "nonzero"; PATTERN must appear in stdout+stderr.
expect() {
  local want="$1" pattern="$2"; shift 2
  local log="$SCRATCH/last.log"
  timeout 60 "$@" >"$log" 2>&1
  local rc=$?
  local ok=1
  if [ $rc -ge 124 ]; then ok=0; fi  # 124 = timeout, >= 128 = killed by a signal
  if [ "$want" = "nonzero" ]; then [ $rc -ne 0 ] || ok=0; else [ $rc -eq "$want" ] || ok=0; fi
  grep -q -i -e "$pattern" "$log" || ok=0
  if [ $ok -eq 1 ]; then
    echo "ok   (exit $rc) $*"
  else
    echo "FAIL (exit $rc, wanted $want and /$pattern/) $*"
    sed 's/^/     | /' "$log" | head -15
    failures=$((failures + 1))
  fi
}

front_ends=("$BIN/gpulab-bench")
if [ "${GPULAB_APP:-0}" = "1" ]; then front_ends+=("$BIN/gpulab"); fi

touch "$SCRATCH/plain-file"
head -c 4096 /dev/urandom > "$SCRATCH/garbage.so"
printf 'not a library\n' > "$SCRATCH/text.so"
# A real shared library cut short: valid header, missing body.
real_so=$(ldd "$BIN/gpulab-bench" | awk '/libstdc\+\+/ {print $3}')
[ -n "$real_so" ] && head -c 2000 "$real_so" > "$SCRATCH/truncated.so"

for exe in "${front_ends[@]}"; do
  b=(env -u GPULAB_CUDA_MODULE "$exe" bench)
  expect 2 "unknown suite \"nope\"" "${b[@]}" --suite nope --out "$SCRATCH/x.json"
  expect 2 "suites are: quick" "${b[@]}" --suite "" --out "$SCRATCH/x.json"
  expect 2 "--out" "${b[@]}" --suite quick
  expect 2 "--suite needs a value" "${b[@]}" --out "$SCRATCH/x.json" --suite
  expect 2 "unknown option --frobnicate" "${b[@]}" --frobnicate --out "$SCRATCH/x.json"
  expect 2 "unexpected argument" "${b[@]}" stray --out "$SCRATCH/x.json"
  # The output path is checked before anything runs (the timeout in expect would catch a full run).
  expect 1 "does not exist" "${b[@]}" --out /nonexistent-gpulab-dir/x.json
  expect 1 "not a folder\|cannot" "${b[@]}" --out "$SCRATCH/plain-file/x.json"
  expect 1 "is a folder" "${b[@]}" --out "$SCRATCH"
  for v in 0 -1 1e9 abc nan inf ""; do
    expect 2 "--budget" "${b[@]}" --budget "$v" --out "$SCRATCH/x.json"
  done
  for v in 0 -5 1e12 2.5 ten; do
    expect 2 "--max-samples" "${b[@]}" --max-samples "$v" --out "$SCRATCH/x.json"
  done
  expect 2 "takes no value" "${b[@]}" --list=yes
  expect 0 "quick" "${b[@]}" --list
  expect 0 "usage" "${b[@]}" --help

  d=("$exe" devices)
  expect 2 "unknown option" env -u GPULAB_CUDA_MODULE "${d[@]}" --bogus
  expect 0 "CPU:" env -u GPULAB_CUDA_MODULE "${d[@]}"
  expect 0 "damaged" env GPULAB_CUDA_MODULE="$SCRATCH/garbage.so" "${d[@]}"
  expect 0 "damaged" env GPULAB_CUDA_MODULE="$SCRATCH/text.so" "${d[@]}"
  [ -f "$SCRATCH/truncated.so" ] && expect 0 "damaged.*truncated" env GPULAB_CUDA_MODULE="$SCRATCH/truncated.so" "${d[@]}"
  expect 0 "not found" env GPULAB_CUDA_MODULE="$SCRATCH/missing.so" "${d[@]}"
  expect 0 "\"gpu_available\": false" env GPULAB_CUDA_MODULE="$SCRATCH/garbage.so" "${d[@]}" --json
  # A library that is not a gpulab module (no factory symbol).
  [ -n "$real_so" ] && expect 0 "not a gpulab CUDA module" env GPULAB_CUDA_MODULE="$real_so" "${d[@]}"
done

# Top-level commands of the Qt-free front end.
expect 2 "unknown command" "$BIN/gpulab-bench" frobnicate
expect 2 "usage" "$BIN/gpulab-bench"
expect 0 "gpulab [0-9]" "$BIN/gpulab-bench" --version

# A damaged module does not stop a bench run: it measures the CPU and records why there is no GPU.
out="$SCRATCH/damaged-module.json"
expect 0 "wrote" env GPULAB_CUDA_MODULE="$SCRATCH/garbage.so" "$BIN/gpulab-bench" bench --suite quick \
  --budget 0.05 --max-samples 3 --quiet --out "$out"
if [ -f "$out" ]; then
  python3 -c "
import json, sys
ctx = json.load(open(sys.argv[1]))['context']
assert ctx['gpu'] == 'none' and 'damaged' in ctx['gpu_reason'], ctx
" "$out" && echo "ok   recording names the damaged module" || { echo "FAIL recording context"; failures=$((failures + 1)); }
fi

# Ctrl-C stops the run between samples and still writes what was measured (exit 130, not a crash).
out="$SCRATCH/interrupted.json"
env -u GPULAB_CUDA_MODULE "$BIN/gpulab-bench" bench --suite quick --quiet --out "$out" >"$SCRATCH/int.log" 2>&1 &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc['context']['cancelled'].startswith('yes'), doc['context']
" "$out"; then
  echo "ok   (exit $rc) Ctrl-C saves a partial recording"
else
  echo "FAIL (exit $rc, wanted 130 and a recording marked cancelled) Ctrl-C during bench"; sed 's/^/     | /' "$SCRATCH/int.log" | tail -5
  failures=$((failures + 1))
fi

# Nothing left behind by the writability probe or the atomic save.
if ls "$SCRATCH" | grep -q -e '\.tmp-' -e '\.probe-'; then echo "FAIL temporary files left: $(ls "$SCRATCH")"; failures=$((failures + 1)); fi

if [ $failures -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "PASS"
