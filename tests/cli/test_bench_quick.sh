#!/usr/bin/env bash
# Runs the quick suite through each front end and checks the recording: the exact schema fields, and that the
# naive loop and BLAS both ran and passed their check. Usage: test_bench_quick.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"

fail() { echo "FAIL: $*" >&2; exit 1; }

validate() {  # validate FILE.json
  python3 - "$1" <<'PY' || exit 1
import json, math, sys
path = sys.argv[1]
with open(path) as f:
    doc = json.load(f)

def need(cond, what):
    if not cond:
        print("FAIL:", path + ":", what, file=sys.stderr)
        sys.exit(1)

need(doc.get("format") == "gpulab-recording", "format")
need(doc.get("version") == 1, "version")
ctx = doc.get("context")
need(isinstance(ctx, dict), "context is an object")
for key in ("host", "cpu", "gpu", "libraries", "date", "suite", "gpulab_version"):
    need(isinstance(ctx.get(key), str) and ctx[key] != "", "context." + key)
need(ctx["suite"] == "quick", "context.suite is quick")
if ctx["gpu"] == "none":
    need(ctx.get("gpu_reason"), "context.gpu_reason says why there is no GPU")

results = doc.get("results")
need(isinstance(results, list) and results, "results is a non-empty list")
result_keys = {"experiment", "backend", "variant", "precision", "params", "check", "stats", "samples_s", "flops",
               "bytes", "gflops", "gbps", "provenance", "error", "plan"}
check_keys = {"passed", "max_abs_err", "max_rel_err", "first_bad_index", "checked", "message"}
stats_keys = {"median_s", "min_s", "max_s", "mean_s", "rel_spread", "n"}
precisions = {"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8"}
for i, r in enumerate(results):
    at = "results[%d]" % i
    need(set(r) == result_keys, at + " has exactly the schema fields, got " + str(sorted(r)))
    need(set(r["check"]) == check_keys, at + ".check fields")
    need(set(r["stats"]) == stats_keys, at + ".stats fields")
    need(r["backend"] in ("cpu", "cuda"), at + ".backend")
    need(r["precision"] in precisions, at + ".precision")
    need(isinstance(r["params"], dict) and all(isinstance(v, (int, float)) for v in r["params"].values()),
         at + ".params are numbers")
    need(isinstance(r["provenance"], dict) and all(isinstance(v, str) for v in r["provenance"].values()),
         at + ".provenance are strings")
    for k in stats_keys - {"n"}:
        v = r["stats"][k]
        need(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0, at + ".stats." + k)
    need(isinstance(r["stats"]["n"], int) and r["stats"]["n"] >= 0, at + ".stats.n")
    if r["samples_s"]:
        need(len(r["samples_s"]) == r["stats"]["n"], at + ": stats.n matches samples_s")

def find(variant, **params):
    return [r for r in results if r["experiment"] == "gemm" and r["backend"] == "cpu" and r["variant"] == variant
            and all(r["params"].get(k) == v for k, v in params.items())]

for variant in ("naive", "reordered", "blas"):
    rs = find(variant, m=512, n=512, k=512)
    need(rs, "a cpu gemm %s result at 512^3" % variant)
    for r in rs:
        need(r["error"] == "" and r["check"]["passed"], "%s passed its check: %s" % (variant, r["error"]))
        need(r["stats"]["median_s"] > 0 and r["gflops"] > 0, variant + " was timed")
need(len(find("blas", m=512)) >= 2, "blas with 1 thread and all threads")
direct = find("blas-direct", m=512)
need(direct and all(r["error"] == "" and r["stats"]["median_s"] > 0 for r in direct), "the direct BLAS control")
for kind in ("copy", "triad"):
    need([r for r in results if r["experiment"] == "bandwidth" and r["variant"] == kind and r["error"] == ""],
         "a bandwidth %s result" % kind)
PY
}

run_front_end() {  # run_front_end NAME COMMAND...
  local name="$1"; shift
  local out="$SCRATCH/$name.json"
  local start=$SECONDS
  "$@" --suite quick --out "$out" >"$SCRATCH/$name.stdout" 2>"$SCRATCH/$name.stderr"
  local rc=$?
  echo "== $name: exit $rc after $((SECONDS - start)) s"
  cat "$SCRATCH/$name.stdout"
  [ $rc -eq 0 ] || { tail -20 "$SCRATCH/$name.stderr"; fail "$name exited $rc"; }
  [ -s "$out" ] || fail "$name wrote no recording"
  validate "$out"
  grep -q "harness BLAS / direct OpenBLAS" "$SCRATCH/$name.stdout" || fail "$name: no harness-vs-direct ratio in the summary"
  grep -q "speed-up" "$SCRATCH/$name.stdout" || fail "$name: no naive-vs-BLAS speed-up in the summary"
  grep -q '^\[ *[0-9]*%\] gemm' "$SCRATCH/$name.stderr" || fail "$name: no progress lines on stderr"
  # Issue 13: the peak with the spread of its bursts and the model beside it; each naive run's predicted time
  # beside the real one, with the rate's basis (a probe of the same product).
  grep -qE '^CPU peak FP32: [0-9.]+ GFLOP/s, best of [0-9]+ register-FMA bursts .*spread [0-9]+ %.*model [0-9.]+ GFLOP/s' \
    "$SCRATCH/$name.stdout" || fail "$name: no peak line with its bursts' spread and the model"
  [ "$(grep -cE '^predicted / actual, gemm naive fp32 [0-9]+³: .* predicted, .* actual .*timed just now' \
    "$SCRATCH/$name.stdout")" -ge 2 ] || fail "$name: no predicted/actual pair for the naive runs"
  python3 - "$out" <<'PY' || fail "$name: the naive results do not keep their prediction"
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["results"] if r["variant"] == "naive"]
assert rs and all(float(r["provenance"]["predicted_s"]) > 0 and float(r["provenance"]["actual_s"]) > 0 for r in rs), rs
PY
  # The atomic write leaves only the recording behind.
  ls "$SCRATCH" | grep -q -e '\.tmp-' -e '\.probe-' && fail "$name left a temporary file: $(ls "$SCRATCH")"
  return 0
}

run_front_end gpulab-bench "$BIN/gpulab-bench" bench
if [ "${GPULAB_APP:-0}" = "1" ]; then
  [ -x "$BIN/gpulab" ] || fail "GPULAB_APP=1 but $BIN/gpulab is missing"
  run_front_end gpulab "$BIN/gpulab" bench
fi
echo "PASS"
