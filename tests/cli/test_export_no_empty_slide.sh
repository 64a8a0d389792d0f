#!/usr/bin/env bash
# No empty slide, ever (issue 26): with no recording and nothing measured, `export --all` writes no picture of an
# empty table or an untraced kernel. The kernel page traces the ladder by itself when shown (deterministic, about
# a second), so its seven views with data are written and the one with nothing for the chosen step (bank
# conflicts of step 1, which has no shared memory) is skipped and listed; that one alone is refused with exit 3.
# Its per-step table as CSV has a row for each of the seven steps.
# Usage: bash test_export_no_empty_slide.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_export_no_empty_slide.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_export_no_empty_slide.sh BIN_DIR SCRATCH}
source "$(dirname "$0")/cli_checks.sh"
need_app "$BIN_DIR"
rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM

if ! "$GPULAB" kernels --size 32 --step 01_naive >/dev/null 2>&1; then
  echo "SKIP: this build has no traced kernels (no clang++)"; exit 0
fi

# The per-step table as CSV: a header and seven rows, each checked.
"$GPULAB" export --all --page kernel --format csv --no-gpu --out "$SCRATCH/csv" >"$SCRATCH/csv.out" 2>"$SCRATCH/csv.err" \
  || fail "export --all --page kernel --format csv failed: $(head -c 400 "$SCRATCH/csv.err")"
steps="$SCRATCH/csv/kernel_steps.csv"
if [[ -f "$steps" ]]; then
  rows=$(($(wc -l <"$steps") - 1))
  [[ $rows -eq 7 ]] || fail "kernel_steps.csv has $rows rows, expected 7: $(cat "$steps")"
  for s in 01_naive 02_coalesced 03_shared_tiles 04_blocktile_1d 05_blocktile_2d 06_vectorized 07_warptile; do
    grep -q "^$s," "$steps" || fail "kernel_steps.csv has no row for $s"
  done
else
  fail "no kernel_steps.csv written: $(head -c 400 "$SCRATCH/csv.err")"
fi

# The page's slides: seven with data, none empty; the empty one skipped and named.
"$GPULAB" export --all --page kernel --format png --no-gpu --size 960x540 --out "$SCRATCH/png" \
  >"$SCRATCH/png.out" 2>"$SCRATCH/png.err" || fail "export --all --page kernel failed: $(head -c 400 "$SCRATCH/png.err")"
written=$(ls "$SCRATCH/png"/kernel_*.png 2>/dev/null | wc -l)
[[ $written -eq 7 ]] || fail "export --all --page kernel wrote $written PNGs, expected 7: $(ls "$SCRATCH/png")"
for id in owners warp_load shared_reuse bytes_per_flop roofline steps timeline; do
  [[ -s "$SCRATCH/png/kernel_$id.png" ]] || fail "kernel_$id.png was not written"
done
[[ ! -e "$SCRATCH/png/kernel_bank_conflicts.png" ]] || fail "the empty bank-conflicts plot of step 1 was written"
grep -q "kernel/bank_conflicts" "$SCRATCH/png.err" || fail "the skipped plot is not listed: $(head -c 400 "$SCRATCH/png.err")"

# Alone, the empty one is refused with exit code 3 and a reason.
"$GPULAB" export --page kernel --plot bank_conflicts --no-gpu --out "$SCRATCH/alone.png" >/dev/null 2>"$SCRATCH/alone.err"
rc=$?
[[ $rc -eq 3 ]] || fail "the empty plot alone exited $rc, expected 3: $(head -c 300 "$SCRATCH/alone.err")"
[[ ! -e "$SCRATCH/alone.png" ]] || fail "the empty plot alone was written"

finish "no empty slide; the kernel page's seven slides and seven-row table"
