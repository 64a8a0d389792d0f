#!/usr/bin/env bash
# `gpulab --help`, `--version` and every verb's --help work with no display at all (no DISPLAY, no WAYLAND_DISPLAY,
# no QT_QPA_PLATFORM), as on a GPU server over ssh: each prints its text and exits 0, and nothing asks Qt for a
# screen ("could not connect to display" was an abort). The window itself, asked for without a display, says what
# to do and exits 1 instead of aborting.
# Usage: bash test_help_without_display.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_help_without_display.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_help_without_display.sh BIN_DIR SCRATCH}
source "$(dirname "$0")/cli_checks.sh"
need_app "$BIN_DIR"
rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM

# expect_text WORD ARGS...: exit 0, WORD on stdout, no display complaint.
expect_text() {
  local word=$1; shift
  timeout 60 "$GPULAB" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"; local rc=$?
  if [[ $rc -ne 0 ]]; then fail "gpulab $* exited $rc: $(head -c 300 "$SCRATCH/err")"; return; fi
  grep -q -- "$word" "$SCRATCH/out" || fail "gpulab $*: no '$word' in its output: $(head -c 300 "$SCRATCH/out")"
  if grep -qi "display\|platform plugin" "$SCRATCH/err"; then fail "gpulab $* asked for a display: $(head -c 300 "$SCRATCH/err")"; fi
}

expect_text "--open" --help
expect_text "--open" -h
expect_text "--open" --help-all
expect_text "--open" gui --help
expect_text "--open" --page matmul --help   # help wins wherever it stands
expect_text "gpulab" --version
expect_text "gpulab" gui --version
expect_text "export" --help                 # the help names the verbs
for verb in devices bench calc kernels export bench-gui; do
  expect_text "usage" "$verb" --help
done

# The window without a display: a sentence and exit 1, never Qt's abort (134).
timeout 60 "$GPULAB" >"$SCRATCH/out" 2>"$SCRATCH/err"; rc=$?
[[ $rc -eq 1 ]] || fail "gpulab with no display exited $rc, expected 1: $(head -c 300 "$SCRATCH/err")"
grep -q "QT_QPA_PLATFORM=offscreen" "$SCRATCH/err" || fail "gpulab with no display did not say what to do: $(head -c 300 "$SCRATCH/err")"

finish "help and version without a display"
