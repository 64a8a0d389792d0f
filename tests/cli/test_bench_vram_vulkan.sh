#!/usr/bin/env bash
# `gpulab bench --suite vram` on the Vulkan device (lavapipe here, allowed on purpose, with a 64 MiB cap so CI
# never holds more): every held step is in the recording with the device's reading and the calculator's prediction,
# the run stops at the step that would not fit (the cap) and frees everything; the results call the device what it
# is (not a GPU) and say its memory is the computer's RAM. --until-refused with the cap stops at the cap too.
# Usage: test_bench_vram_vulkan.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
source "$(dirname "$0")/lavapipe_or_skip.sh"

for mode in stop until; do
  extra=()
  [ "$mode" = until ] && extra=(--until-refused)
  out=$("$BIN/gpulab" bench --suite vram --device vulkan --allow-cpu-vulkan --gpu-only --quiet \
          --hold-cap 67108864 "${extra[@]}" --out "$SCRATCH/$mode.json" 2>&1)
  rc=$?
  echo "$out"
  [ $rc -le 1 ] || fail "bench ($mode) exited $rc"
  python3 - "$SCRATCH/$mode.json" "$mode" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
mode = sys.argv[2]
def need(cond, what):
    if not cond:
        print("FAIL (%s):" % mode, what, file=sys.stderr); sys.exit(1)
hold = [r for r in doc["results"] if r["experiment"] == "hold_memory"]
need(hold, "the recording has the hold's results")
steps = [r for r in hold if r["variant"] == "holding"]
need(len(steps) >= 4, "weights, KV cache, activations and at least one more user were held: %d" % len(steps))
for r in hold:
    need(r["backend"] == "vulkan" and r["provenance"].get("device_type") == "CPU (not a GPU)",
         "every result names the CPU-type device")
    need(r["params"]["shared_memory"] == 1, "the memory is said to be the computer's RAM")
    need(r["params"]["cap"] == 67108864, "the cap is recorded")
predicted = 0
for r in steps:
    p = r["params"]
    predicted += p["step_bytes"]
    need(abs(p["predicted"] - predicted) < 1, "each step carries the calculator's prediction so far")
    need(p["now_free"] > 0 and p["before_free"] > 0, "each step has the device's reading")
    need(p["held"] <= 67108864, "never past the cap")
need([r["params"]["part"] for r in steps[:3]] == [1, 2, 3], "the first steps are weights, KV cache, activations")
stops = [r for r in hold if r["variant"] in ("refused", "out_of_memory")]
need(len(stops) == 1 and "This is where it would not fit" in stops[0]["error"] and "cap" in stops[0]["error"],
     "one stop, at the cap: %s" % [s["error"] for s in stops])
released = [r for r in hold if r["variant"] == "released"]
need(len(released) == 1 and released[0]["params"]["held"] == 0, "freed at the end")
print("ok (%s): %d steps, stop: %s" % (mode, len(steps), stops[0]["error"][:80]))
PY
done
echo "PASS"
