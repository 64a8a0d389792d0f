#!/usr/bin/env bash
# The device check fits its budget on the lent GPUs, proven without one: `device-check.sh --plan CARD` prices every
# step (the bench steps from the suites' own plans against the card's datasheet row), and here each step's estimate
# must stay within 80 % of its cap and the whole run within 420 s, for the H200 and the H100. A suite that grows
# past its cap fails this test in CI instead of spending a lent GPU's minutes finding out.
# Usage: test_device_check_plan.sh BIN_DIR SCRATCH_DIR
set -u
BIN="$1"
SCRATCH="$2"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$REPO/tests/gpu/device-check.sh"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$BIN/gpulab-bench" ] || fail "no $BIN/gpulab-bench"

problems=0
for card in "H200 SXM" "H100 SXM"; do
  out="$SCRATCH/plan-${card// /_}.txt"
  GPULAB_PLAN_BENCH="$BIN/gpulab-bench" bash "$CHECK" --plan "$card" >"$out" 2>"$out.err" ||
    { cat "$out" "$out.err"; fail "--plan \"$card\" exited non-zero"; }
  cat "$out"
  grep -q "^# device-check plan for $card" "$out" || fail "--plan \"$card\": no heading naming the card"
  # Every bench step of both groups is priced from its plan: a number, not a blank.
  for step in matmul precision transfer decode batch bandwidth vram amdahl roofs \
              vulkan-matmul vulkan-bandwidth vulkan-transfer vulkan-decode vulkan-roofs; do
    grep -Eq "^$step [0-9]+(\.[0-9]+)? [0-9]+$" "$out" || fail "--plan \"$card\": no priced line for $step"
  done
  # Steps over 80 % of their cap, and the total over 420 s, are failures.
  over=$(awk '!/^#/ && $1 != "total" && NF == 3 && $2 > 0.8 * $3 { printf "%s %s s of a %s s cap; ", $1, $2, $3 }' "$out")
  if [ -n "$over" ]; then
    echo "FAIL: $card: over 80 % of the cap: $over" >&2
    problems=$((problems + 1))
  fi
  total=$(awk '$1 == "total" { print $2 }' "$out")
  [ -n "$total" ] || fail "--plan \"$card\": no total line"
  if awk -v t="$total" 'BEGIN { exit !(t > 420) }'; then
    echo "FAIL: $card: the steps add up to $total s, over 420 s" >&2
    problems=$((problems + 1))
  fi
done

# An unknown card is refused with the catalogue's names (exit 2), before anything is built or run.
GPULAB_PLAN_BENCH="$BIN/gpulab-bench" bash "$CHECK" --plan "No Such GPU 9000" >"$SCRATCH/unknown.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || { cat "$SCRATCH/unknown.txt"; fail "an unknown card exited $rc, expected 2"; }
grep -q "H200 SXM" "$SCRATCH/unknown.txt" || fail "the refusal of an unknown card does not list the catalogue"

[ $problems -eq 0 ] || exit 1
echo "PASS: the device check's plan fits its caps on the H200 and the H100"
