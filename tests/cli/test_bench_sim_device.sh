#!/usr/bin/env bash
# gpulab-bench against the emulated CUDA module with a simulated device (gpu/cuda_emu/device_behaviour.hpp):
#  - a sticky fault (GPULAB_EMU_FAULT=sticky-after:N) ends the run non-zero with a sentence naming the fault, and the
#    recording names it (before: every GPU result failed, the run passed);
#  - a host smaller than the jobs (GPULAB_EMU_HOST_MEM_MB) gets each GPU job refused with its reason and numbers,
#    and the recording states the host memory at the start.
# Usage: test_bench_sim_device.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
source "$(dirname "$0")/cli_checks.sh"

MODULE="$BIN/libgpulab_cuda_emulated.so"
[[ -f "$MODULE" ]] || { echo "SKIP: the emulated CUDA module was not built (no CUDA headers)"; exit 0; }
bench() { env -u GPULAB_EMU_CLOCK -u GPULAB_EMU_FAULT -u GPULAB_EMU_HOST_MEM_MB GPULAB_CUDA_MODULE="$MODULE" "$@"; }

# ---- A sticky fault at the third launch: the FMA peak's calibration meets it, every later GPU job fails with it.
out="$SCRATCH/fault.json"
bench GPULAB_EMU_FAULT=sticky-after:3 "$BIN/gpulab-bench" bench --suite roofs --gpu-only --budget 0.05 --out "$out" \
  >"$SCRATCH/fault.stdout" 2>"$SCRATCH/fault.stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "a run with a sticky GPU fault exited $rc, not 1"
grep -q "gpulab bench: the GPU faulted: CUDA error 700 (cudaErrorIllegalAddress" "$SCRATCH/fault.stderr" ||
  fail "no sentence naming the fault on stderr: $(tail -3 "$SCRATCH/fault.stderr")"
grep -q "the device's context is lost" "$SCRATCH/fault.stderr" || fail "the sentence does not say the context is lost"
python3 - "$out" <<'PY' || fail "the recording does not name the fault"
import json, sys
doc = json.load(open(sys.argv[1]))
assert "cudaErrorIllegalAddress" in doc["context"].get("device_fault", ""), doc["context"]
PY

# ---- A 1 MiB host: the GPU jobs that keep host copies are refused with the numbers, none silently; the recording
# states the host memory at the start, the machine's and the module's.
out="$SCRATCH/host.json"
bench GPULAB_EMU_HOST_MEM_MB=1 "$BIN/gpulab-bench" bench --suite quick --gpu-only --budget 0.05 --out "$out" \
  >"$SCRATCH/host.stdout" 2>"$SCRATCH/host.stderr"
rc=$?
[[ $rc -eq 0 ]] || fail "refusals for host memory are not failures, but the run exited $rc: $(tail -3 "$SCRATCH/host.stderr")"
python3 - "$out" <<'PY' || fail "host memory: see above"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
assert "available of" in ctx.get("host_memory", ""), "no host memory at the start: %r" % ctx.get("host_memory")
assert ctx.get("gpu_module_host_memory", "").startswith("1 MiB (GPULAB_EMU_HOST_MEM_MB"), ctx.get("gpu_module_host_memory")
gpu = [r for r in doc["results"] if r["backend"] == "cuda" and r["experiment"] in ("gemm", "bandwidth", "transfer")]
assert gpu, "no GPU GEMM, bandwidth or transfer results"
for r in gpu:
    err = r.get("error", "")
    assert err, "ran on a 1 MiB host: %s %s" % (r["experiment"], r["variant"])
    if "of host memory" not in err:
        continue  # a job refused for another reason first (a size the emulator does not take) says that reason
    assert "is available (GPULAB_EMU_HOST_MEM_MB" in err, err
# What the kernels were compiled for and how they load, beside every GPU result (issue 35).
prov = [r["provenance"] for r in doc["results"] if r["backend"] == "cuda" and "compiled_architectures" in r["provenance"]]
assert prov, "no CUDA result names its compiled architectures"
assert "emulator" in prov[0]["compiled_architectures"] and prov[0].get("cuda_module_loading"), prov[0]
refused = [r for r in gpu if "of host memory" in r.get("error", "")]
assert len(refused) >= 3, "only %d job(s) refused for host memory" % len(refused)
print("%d GPU job(s) refused for host memory, e.g.: %s" % (len(refused), refused[0]["error"]))
PY
grep -q "not run: .* needs .* of host memory" "$SCRATCH/host.stdout" || fail "the summary does not give the reason"

finish "a sticky fault fails the run with its name; a small host refuses jobs with its numbers"
