#!/usr/bin/env bash
# `gpulab bench` with the Vulkan device (lavapipe here: allowed on purpose) prints Vulkan GEMM / CPU BLAS and
# Vulkan copy / CPU triad from one run of the quick suite, names lavapipe as "Vulkan on the CPU … not a GPU" and
# never as a GPU, runs each GEMM step at the largest size the device accepts (saying 2048³ was refused), and
# prints the bandwidth arrays' size that ran, not the one asked for. No timing is asserted: lavapipe is a CPU.
# Usage: test_bench_vulkan.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
source "$(dirname "$0")/lavapipe_or_skip.sh"

# Short budgets: the test checks what is printed, not how fast anything is.
out=$("$BIN/gpulab" bench --device vulkan --allow-cpu-vulkan --quiet --budget 0.05 --max-samples 3 \
        --out "$SCRATCH/quick.json" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "bench exited $rc"

grep -Eq '^Vulkan GEMM / CPU BLAS: [0-9.e+-]+x \(Vulkan on the CPU gemm [a-z0-9]+ fp32 ([0-9]+)³' <<<"$out" ||
  fail "no 'Vulkan GEMM / CPU BLAS' ratio line"
grep -Eq '^Vulkan copy / CPU triad: [0-9.e+-]+x \(Vulkan on the CPU bandwidth copy' <<<"$out" ||
  fail "no 'Vulkan copy / CPU triad' ratio line"
grep -q "Vulkan on the CPU (llvmpipe) — not a GPU" <<<"$out" || fail "the ratio lines do not name lavapipe as not a GPU"
grep -q "the largest size this device accepts" <<<"$out" || fail "the GEMM's size is not reported as the largest accepted"
if grep -q "Vulkan GPU" <<<"$out"; then fail "lavapipe's results are called 'Vulkan GPU'"; fi

python3 - "$SCRATCH/quick.json" "$out" <<'PY' || exit 1
import json, re, sys
doc = json.load(open(sys.argv[1]))
out = sys.argv[2]
def need(cond, what):
    if not cond:
        print("FAIL:", what, file=sys.stderr); sys.exit(1)
vk = [r for r in doc["results"] if r["backend"] == "vulkan"]
need(vk, "the recording has Vulkan results")
gemm_ok = [r for r in vk if r["experiment"] == "gemm" and not r["error"]]
need(gemm_ok, "some Vulkan GEMM ran")
for r in gemm_ok:
    n = r["params"]["n"]
    refused = [x for x in vk if x["experiment"] == "gemm" and x["variant"] == r["variant"] and x["error"]]
    # Every step ran at the size below which nothing was refused: 2048³ itself, or a note saying 2048³ was refused.
    need(n == 2048 or any(x["params"]["n"] == 2048 and "instead" in x["error"] for x in refused),
         "%s ran at %d³ without a note saying why not 2048³" % (r["variant"], n))
    need(r["provenance"].get("device_type") == "CPU (not a GPU)", "the result's provenance says CPU (not a GPU)")
    # The CPU's BLAS ran at that size too, so the ratio divides like for like.
    need(any(c["backend"] == "cpu" and c["variant"] == "blas" and c["params"]["n"] == n and not c["error"]
             for c in doc["results"]), "CPU BLAS at %d³ is in the run" % n)
for r in vk:
    if r["error"]:
        need(r["provenance"].get("device", "").endswith("not a GPU"), "a Vulkan note names its device")
bw = [r for r in vk if r["experiment"] == "bandwidth" and not r["error"]]
need({r["variant"] for r in bw} >= {"copy", "triad"}, "Vulkan copy and triad both ran")
for r in bw:
    arrays = 3 if r["variant"] == "triad" else 2
    ran_mib = r["bytes"] / arrays / 2**20
    # The summary prints the size that ran (lavapipe caps one buffer at 128 MiB, below the 256 MiB asked).
    line = [l for l in out.splitlines() if l.strip().startswith("Vulkan on the CPU bandwidth " + r["variant"])]
    need(line, "a summary line for Vulkan " + r["variant"])
    need(("%d MiB" % ran_mib) in line[0], "the summary prints %d MiB, what ran: %s" % (ran_mib, line[0]))
    if abs(ran_mib * 2**20 - r["params"]["bytes"]) > 0.01 * r["params"]["bytes"]:
        need("asked" in line[0], "the summary says what was asked when it differs: " + line[0])
PY
echo "PASS"
