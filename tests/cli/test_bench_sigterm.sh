#!/usr/bin/env bash
# A bench stopped early keeps what it measured. `timeout` (tests/gpu/device-check.sh), a batch system or a
# shutdown sends SIGTERM: the bench must stop at the next sample, save the results so far and exit 130 (its
# documented "stopped" code). A second signal, or SIGKILL, may end it at once, and the file on disk must still be a
# valid recording, because it is rewritten atomically after each result. Every file is checked with the loader the
# app replays with (`bench --check`). Usage: test_bench_sigterm.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
STOPPED=130   # bench --help: "130 stopped early by SIGINT or SIGTERM"

fail() { echo "FAIL: $*" >&2; [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null; exit 1; }

# results_in FILE: how many results the file holds, or -1 when it is absent or not JSON (yet).
results_in() {
  python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$1" 2>/dev/null || echo -1
}

# start_bench NAME COMMAND...: starts the all suite in the background and waits until the recording on disk holds
# at least one result. Sets pid and out.
start_bench() {
  local name="$1"; shift
  out="$SCRATCH/$name.json"
  log="$SCRATCH/$name.log"
  "$@" --suite all --out "$out" >"$log" 2>&1 &
  pid=$!
  local start=$SECONDS
  while [ "$(results_in "$out")" -lt 1 ]; do
    kill -0 "$pid" 2>/dev/null || { tail -5 "$log"; fail "$name ended before writing a result"; }
    [ $((SECONDS - start)) -ge 120 ] &&
      { tail -5 "$log"; fail "$name: no result on disk after 120 s (is the file written only at the end?)"; }
    sleep 0.1
  done
  echo "== $name: first result on disk after ~$((SECONDS - start)) s"
}

# finish NAME LIMIT_S: waits for the bench to end (at most LIMIT_S seconds) and sets rc, and took_ms (how long it
# took after the signal, polled every 20 ms).
finish() {
  local name="$1" limit="$2" start=$SECONDS t0
  t0=$(date +%s%N)
  while kill -0 "$pid" 2>/dev/null; do
    [ $((SECONDS - start)) -ge "$limit" ] && { tail -5 "$log"; fail "$name still running ${limit} s after the signal"; }
    sleep 0.02
  done
  took_ms=$((($(date +%s%N) - t0) / 1000000))
  wait "$pid"
  rc=$?
  pid=""
  echo "   ended ${took_ms} ms after the signal, exit $rc"
}

# check_recording NAME WANT_STOPPED_BY: the project's own loader accepts the file, it holds >= 1 result and says it
# is partial (and, when given, which signal stopped it).
check_recording() {
  local name="$1" stopped_by="$2"
  "$BIN/gpulab-bench" bench --check "$out" >"$SCRATCH/$name.check" 2>&1 ||
    { cat "$SCRATCH/$name.check"; fail "$name: the loader rejects the recording"; }
  grep -q "a valid recording, .*partial" "$SCRATCH/$name.check" ||
    { tail -3 "$SCRATCH/$name.check"; fail "$name: the recording does not say it is partial"; }
  python3 - "$out" "$stopped_by" <<'PY' || fail "$name: recording contents"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "gpulab-recording" and doc["complete"] is False, (doc.get("format"), doc.get("complete"))
assert len(doc["results"]) >= 1, "no results"
if sys.argv[2]:
    assert doc["context"].get("stopped_by") == sys.argv[2], doc["context"]
    assert doc["context"]["cancelled"].startswith("yes"), doc["context"]
print("   %d result(s), complete=false, stopped_by=%s" % (len(doc["results"]), doc["context"].get("stopped_by")))
PY
  # The atomic writes leave only the recording behind.
  ls "$SCRATCH" | grep -q -e '\.tmp-' -e '\.probe-' && fail "$name left a temporary file: $(ls "$SCRATCH")"
  return 0
}

run_front_end() {  # run_front_end NAME COMMAND...
  local name="$1"; shift
  # One SIGTERM, about a second into a measurement: the run stops at the next sample and saves.
  start_bench "$name-term" "$@"
  sleep 1
  kill -TERM "$pid"
  finish "$name-term" 60
  [ $rc -eq $STOPPED ] || { tail -5 "$log"; fail "$name: SIGTERM gave exit $rc, not $STOPPED"; }
  grep -q "stopped by SIGTERM" "$log" || fail "$name: no 'stopped by SIGTERM' message"
  check_recording "$name-term" SIGTERM

  # Two signals: out at once; the file on disk is the last save.
  start_bench "$name-twice" "$@"
  kill -TERM "$pid"; kill -INT "$pid"
  finish "$name-twice" 10
  [ $rc -eq $STOPPED ] || fail "$name: two signals gave exit $rc, not $STOPPED"
  check_recording "$name-twice" ""

  # SIGTERM inside a long measurement (the naive loop at 1024³: seconds per sample, under a minute in all). The
  # naive loop polls the stop token every 64 output cells (issue 13), so the bench stops inside the sample under
  # way: within 0.5 s on a quiet machine, signal watcher (50 ms), summary and final save (an fsync) included. The
  # bound is 3 s: generous for a shared 2-core machine, and still far below the ~10 s of a whole 1024³ sample
  # that the bench used to finish first. The results before it are on disk whatever happens next.
  start_bench "$name-long" "$@"
  local start=$SECONDS
  until grep -q "naive fp32 1024" "$log"; do
    kill -0 "$pid" 2>/dev/null || fail "$name-long ended before the naive 1024³ measurement"
    [ $((SECONDS - start)) -ge 120 ] && fail "$name-long: the naive 1024³ measurement did not start within 120 s"
    sleep 0.1
  done
  sleep 2
  kill -TERM "$pid"
  finish "$name-long" 60
  [ $rc -eq $STOPPED ] || { tail -5 "$log"; fail "$name: SIGTERM in a long measurement gave exit $rc, not $STOPPED"; }
  [ "$took_ms" -lt 3000 ] || fail "$name: SIGTERM inside the naive 1024³ run took ${took_ms} ms to stop (bound 3000 ms)"
  check_recording "$name-long" SIGTERM
  python3 - "$out" <<'PY' || fail "$name-long: the results before the long measurement are missing"
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
assert any(r["variant"] == "naive" and r["params"].get("n") == 512 and r["stats"]["n"] > 0 for r in rs), len(rs)
PY

  # SIGKILL cannot be caught: what is on disk is whatever the bench saved last, still a whole recording.
  start_bench "$name-kill" "$@"
  kill -KILL "$pid"
  finish "$name-kill" 10
  # A kill that lands inside a save leaves that save's unfinished copy beside the recording (nothing can remove
  # it; the rename never came): the recording is the last whole save, which is what is checked. Seen once in CI.
  rm -f "$out".tmp-*
  check_recording "$name-kill" ""
}

run_front_end gpulab-bench "$BIN/gpulab-bench" bench
if [ "${GPULAB_APP:-0}" = "1" ]; then
  [ -x "$BIN/gpulab" ] || fail "GPULAB_APP=1 but $BIN/gpulab is missing"
  run_front_end gpulab "$BIN/gpulab" bench
fi

# --check refuses what is not a recording, naming the problem.
echo '{"format": "gpulab-recording", "version": 1, "complete": "no", "context": {}, "results": []}' >"$SCRATCH/bad.json"
"$BIN/gpulab-bench" bench --check "$SCRATCH/bad.json" >"$SCRATCH/bad.check" 2>&1 && fail "--check accepted a bad file"
grep -q "complete: must be true or false" "$SCRATCH/bad.check" || fail "--check message: $(cat "$SCRATCH/bad.check")"
echo "PASS"
