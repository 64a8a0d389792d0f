#!/usr/bin/env bash
# Every plot reads at a glance: `gpulab export --all` as SVG (live numbers, and again with a recording open) has
# no exponent-style tick label — no 10^14 drawn as "10" and a raised "14", no 1e+09 — anywhere
# (tests/cli/svg_tick_labels.py). First the checker proves it would catch them, on SVGs made to hold them.
# Usage: bash test_si_ticks.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_si_ticks.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_si_ticks.sh BIN_DIR SCRATCH}
GPULAB="$BIN_DIR/gpulab"
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CHECK="$HERE/svg_tick_labels.py"
if [[ "${GPULAB_APP:-1}" == "0" || "${GPULAB_APP:-1}" == "OFF" ]]; then echo "SKIP: built without the app"; exit 0; fi
[[ -x "$GPULAB" ]] || { echo "FAIL: $GPULAB not found"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the SVGs"; exit 1; }
rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
export GPULAB_NO_SETTINGS=1
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- the checker catches what it is for ----
svg() {  # svg FILE TEXT SIZE [TEXT SIZE]...: an SVG with these texts, each in its own font size
  local f=$1; shift
  { echo '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
    while [[ $# -ge 2 ]]; do echo "<g font-size=\"$2\"><text x=\"0\" y=\"10\">$1</text></g>"; shift 2; done
    echo '</svg>'; } >"$f"
}
svg "$SCRATCH/power.svg" "1 TFLOP/s" 20 "10" 20 "14" 15
svg "$SCRATCH/enote.svg" "1e+09" 20
svg "$SCRATCH/dot.svg" "2.5·10" 20 "9" 15
svg "$SCRATCH/clean.svg" "100 TFLOP/s" 20 "10" 20 "14 GB" 20 "1 in 10 million" 20 "10" 20
for f in power enote dot; do
  python3 "$CHECK" "$SCRATCH/$f.svg" >/dev/null
  [[ $? -eq 1 ]] || fail "the checker missed the exponent in $f.svg"
done
python3 "$CHECK" "$SCRATCH/clean.svg" || fail "the checker flags plain SI labels"

# ---- every plot, live and with a recording open ----
export_all() {  # export_all DIR [ARGS...]
  local dir=$1; shift
  "$GPULAB" export --all --format svg --size 1600x900 --out "$dir" "$@" >"$SCRATCH/export.log" 2>&1 ||
    { fail "export --all $* failed: $(tail -5 "$SCRATCH/export.log")"; return 1; }
  local n
  n=$(ls "$dir"/*.svg 2>/dev/null | wc -l)
  [[ $n -ge 10 ]] || fail "export --all $* wrote only $n SVGs"
  echo "export --all $*: $n SVGs"
  if ! python3 "$CHECK" "$dir"/*.svg >"$SCRATCH/hits.txt"; then
    fail "exponent-style labels in $(cut -d: -f1 "$SCRATCH/hits.txt" | sort -u | xargs -n1 basename | paste -sd' ')"
    head -20 "$SCRATCH/hits.txt"
  fi
}
export_all "$SCRATCH/live"
export_all "$SCRATCH/live-normal" --theme normal
REC=$(ls "$REPO"/resources/recordings/*.json 2>/dev/null | head -1)
if [[ -n "$REC" ]]; then
  export_all "$SCRATCH/recorded" --open "$REC"
else
  echo "note: no sample recording in resources/recordings; only live plots checked"
fi

# The roofline's FLOP/s axis reads "… FLOP/s" (the issue's example), not a bare number.
grep -q "FLOP/s" "$SCRATCH/live/roofline_roofline.svg" || fail "the roofline's ticks have no FLOP/s"

[[ $failures -eq 0 ]] && echo "PASS" || { echo "$failures failure(s)"; exit 1; }
