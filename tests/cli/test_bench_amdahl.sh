#!/usr/bin/env bash
# The amdahl suite: the thread ladder runs through the Qt-free bench, every thread count is timed in the same
# rounds (equal sample counts), each speed-up is recorded with its Karp–Flatt serial share, the summary says
# how the measured speed-ups compare with the law, and the app replays the recording on its Amdahl page.
# Usage: test_bench_amdahl.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$SCRATCH/amdahl.json"
env -u GPULAB_CUDA_MODULE "$BIN/gpulab-bench" bench --suite amdahl --out "$out" >"$SCRATCH/stdout" 2>"$SCRATCH/stderr" ||
  { cat "$SCRATCH/stdout" "$SCRATCH/stderr"; fail "bench --suite amdahl exited $?"; }
cat "$SCRATCH/stdout"
grep -q "Amdahl job, 5% serial, .* threads: .*× measured, 1\.[0-9][0-9]× by Amdahl's law" "$SCRATCH/stdout" ||
  fail "the summary has no Amdahl line"

python3 - "$out" <<'PY' || exit 1
import json, math, sys
doc = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        print("FAIL:", what, file=sys.stderr)
        sys.exit(1)
need(doc["context"]["suite"] == "amdahl", "context.suite is amdahl")
rs = [r for r in doc["results"] if r["experiment"] == "amdahl_scaling"]
threads = [r["params"]["threads"] for r in rs]
need(len(rs) >= 2 and threads[0] == 1 and threads[1] == 2, "thread ladder starts 1, 2: %s" % threads)
need(len({r["stats"]["n"] for r in rs}) == 1, "every thread count has the same number of rounds")
for r in rs:
    p = r["params"]
    need(r["check"]["passed"], "check passed at %d threads" % p["threads"])
    need(p["serial_share"] == 0.05, "serial share 0.05 (the page's default)")
    need(0 < p["serial_s"] <= r["stats"]["max_s"] * 1.001, "serial prefix inside the run")
    need(math.isfinite(p["speedup"]) and p["speedup"] > 0, "speed-up recorded")
    if p["threads"] > 1:
        s, n = p["speedup"], p["threads"]
        need(abs(p["implied_serial_share"] - (1 / s - 1 / n) / (1 - 1 / n)) < 1e-9, "Karp–Flatt share")
need(rs[0]["params"]["speedup"] == 1.0, "one thread is the reference")
print("amdahl suite: %s threads, speed-ups %s" % (threads, [round(r["params"]["speedup"], 2) for r in rs]))
PY

# Replayed by the app: the Amdahl page's measured-scaling CSV carries the recorded points, in a series named for
# its recording (two recordings open are two series).
if [ "${GPULAB_APP:-1}" != 0 ] && [ -x "$BIN/gpulab" ]; then
  csv="$SCRATCH/amdahl_measured.csv"
  "$BIN/gpulab" export --page amdahl --plot amdahl_measured --format csv --open "$out" --out "$csv" \
    >"$SCRATCH/export.log" 2>&1 || { cat "$SCRATCH/export.log"; fail "export of the replayed Amdahl page"; }
  grep -q '^"recorded on [^"]*","recorded on ' "$csv" || { cat "$csv"; fail "the replayed CSV has no recorded rows"; }
fi
echo "PASS"
