#!/usr/bin/env bash
# device-check --resume merges a recording from an earlier try, perhaps made on another lent machine: each try's
# machine facts (nvidia-smi, toolkit, host, the versions lifted from its results) stay its own. The earlier try's
# go to "tryN_<key>", this run's take the plain keys, and the versions lifted into the context are this run's
# (before, the base's context was kept and overwritten key by key, so facts of two machines were mixed).
# Usage: test_merge_recordings_facts.sh BIN_DIR SCRATCH_DIR
set -u
SCRATCH="$2"
MERGE="$(cd "$(dirname "$0")/../gpu" && pwd)/merge_recordings.py"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH" && cd "$SCRATCH" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 - <<'PY'
import json
def rec(gpu, driver, plan):
    return {"format": "gpulab-recording", "version": 1, "complete": True,
            "context": {"gpu": gpu, "host": "host-of-" + gpu, "smi_start_clocks_sm": "345 MHz" if gpu == "H100" else "1980 MHz",
                        "suite": plan, "duration_s": "1"},
            "results": [{"experiment": "gemm", "plan": plan, "backend": "cuda", "variant": "cublas",
                         "provenance": {"cublas": "cublas-" + driver, "driver": driver}}]}
json.dump(rec("H100", "580", "matmul"), open("first.json", "w"))
json.dump(rec("H200", "590", "precision"), open("precision.json", "w"))
open("ctx.tsv", "w").write("smi_start_clocks_sm\t1980 MHz\n")
PY
python3 "$MERGE" second.json --base first.json --drop precision --context-file ctx.tsv precision.json >/dev/null ||
  fail "the merge failed"
python3 - <<'PY' || exit 1
import json, sys
c = json.load(open("second.json"))["context"]
want = {"try1_gpu": "H100", "try1_host": "host-of-H100", "try1_smi_start_clocks_sm": "345 MHz", "gpu": "H200",
        "host": "host-of-H200", "smi_start_clocks_sm": "1980 MHz", "cuda_driver_api": "590",
        "cuda_cublas_version": "cublas-590", "device_check_tries": "2"}
bad = {k: (c.get(k), v) for k, v in want.items() if c.get(k) != v}
if bad:
    print("FAIL: context keys (got, wanted): %s" % bad, file=sys.stderr)
    sys.exit(1)
print("PASS: each try keeps its own machine facts")
PY
