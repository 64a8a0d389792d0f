#!/usr/bin/env bash
# `gpulab bench --suite roofs --device vulkan --allow-cpu-vulkan` (issue 27) writes the three regimes for the CPU
# and for the Vulkan device (lavapipe here): an FMA peak per precision each device runs, checked; the overhead
# floor (an empty launch + wait) and the elementwise sweep, checked; the triad; every roof with how it was measured
# (kernel, chains, threads or invocations, timer); and the issue rate, launches back to back (issue 36). `bench --check` takes the recording, and refuses it once a GEMM
# is written above its device's measured FMA roof. No speed is asserted: lavapipe is a CPU.
# Usage: test_bench_roofs.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
source "$(dirname "$0")/lavapipe_or_skip.sh"

start=$(date +%s)
out=$("$BIN/gpulab" bench --suite roofs --device vulkan --allow-cpu-vulkan --quiet --budget 0.05 --max-samples 3 \
        --out "$SCRATCH/R.json" 2>&1)
rc=$?
echo "$out" | tail -20
echo "roofs suite: $(( $(date +%s) - start )) s"
[ $rc -eq 0 ] || fail "bench exited $rc"

python3 - "$SCRATCH/R.json" "$SCRATCH/above.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        print("FAIL:", what, file=sys.stderr); sys.exit(1)
rs = doc["results"]
for backend in ("cpu", "vulkan"):
    mine = [r for r in rs if r["backend"] == backend]
    peaks = [r for r in mine if r["experiment"] == "peak" and not r["error"]]
    need(any(r["precision"] == "fp32" for r in peaks), backend + ": an FP32 FMA peak ran")
    for r in peaks:
        need(r["check"]["passed"] and r["check"]["checked"] > 0, backend + ": the peak was checked")
        need(r["gflops"] > 0, backend + ": the peak has a rate")
        for key in ("chains", "lanes", "iterations", "invocations"):
            need(key in r["params"], "%s: the peak records %s" % (backend, key))
        for key in ("kernel", "timer"):
            need(r["provenance"].get(key), "%s: the peak records its %s" % (backend, key))
    over = [r for r in mine if r["experiment"] == "overhead" and not r["error"]]
    need(any(r["variant"] == "empty" for r in over), backend + ": the empty launch ran")
    sweep = sorted(r["params"]["elements"] for r in over if r["variant"] == "elementwise")
    need(len(sweep) >= 5 and sweep[0] == 1, backend + ": the elementwise sweep ran from one element: %s" % sweep)
    for r in over:
        need(r["check"]["passed"] and r["params"]["per_op_s"] > 0, backend + ": each overhead run was checked and timed")
    # Issue 36: beside the launch + wait, the pace of launches issued back to back with no wait, checked and timed.
    pace = [r for r in mine if r["experiment"] == "launch_overhead" and not r["error"]]
    need(len(pace) == 1, backend + ": the back-to-back issue rate ran once")
    for r in pace:
        need(r["check"]["passed"] and r["params"]["kernels"] >= 100 and r["params"]["per_launch_s"] > 0,
             backend + ": the issue rate was checked and timed")
        need(r["provenance"].get("timer"), backend + ": the issue rate records its timer")
        empty = min(o["params"]["per_op_s"] for o in over if o["variant"] == "empty")
        print("%s: launch + wait %.2f us, back to back %.2f us a launch" %
              (backend, empty * 1e6, r["params"]["per_launch_s"] * 1e6))
    need(any(r["experiment"] == "bandwidth" and r["variant"] == "triad" and not r["error"] for r in mine),
         backend + ": the triad (memory roof) ran")
    need(not any(r["error"] for r in mine if r["experiment"] in ("peak", "overhead") and r["precision"] == "fp32"),
         backend + ": no FP32 roof failed")
# The same recording with a CPU GEMM written at twice the CPU's FP32 FMA roof: --check must refuse it.
cpu_peak = max((r for r in rs if r["backend"] == "cpu" and r["experiment"] == "peak" and r["precision"] == "fp32"
                and not r["error"]), key=lambda r: r["gflops"])
gemm = json.loads(json.dumps(cpu_peak))
gemm.update(experiment="gemm", variant="blas", gflops=cpu_peak["gflops"] * 2,
            params={"m": 512, "n": 512, "k": 512, "threads": 0})
doc["results"].append(gemm)
json.dump(doc, open(sys.argv[2], "w"))
PY

check=$("$BIN/gpulab" bench --check "$SCRATCH/R.json" 2>&1) || fail "bench --check refused the roofs recording: $check"
if above=$("$BIN/gpulab" bench --check "$SCRATCH/above.json" 2>&1); then
  fail "bench --check took a GEMM above its device's measured FMA roof: $above"
fi
grep -q "above its device's measured FMA roof" <<<"$above" || fail "the refusal does not say why: $above"
echo "PASS"
