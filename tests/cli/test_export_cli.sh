#!/usr/bin/env bash
# `gpulab export`: --list names the pages and their plots; one page's plot as PNG/SVG/PDF/CSV is a valid file of
# the asked size; --all writes one folder; bad input exits 2 (I/O 1) with a message, never a crash (>= 128).
# Usage: bash test_export_cli.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_export_cli.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_export_cli.sh BIN_DIR SCRATCH}
GPULAB="$BIN_DIR/gpulab"
if [[ "${GPULAB_APP:-1}" == "0" || "${GPULAB_APP:-1}" == "OFF" ]]; then echo "SKIP: built without the app"; exit 0; fi
if [[ ! -x "$GPULAB" ]]; then echo "FAIL: $GPULAB not found or not executable"; exit 1; fi
rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
export GPULAB_NO_SETTINGS=1
unset DISPLAY WAYLAND_DISPLAY  # the verb must pick the offscreen platform by itself
unset QT_QPA_PLATFORM

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_rc CODE ARGS... : that exit code, a message on stderr when non-zero.
expect_rc() {
  local want=$1; shift
  "$GPULAB" export "$@" >"$SCRATCH/stdout" 2>"$SCRATCH/stderr"; local rc=$?
  if [[ $rc -ge 128 ]]; then fail "export $* crashed (exit $rc)"; return 1; fi
  if [[ $rc -ne $want ]]; then fail "export $* exited $rc, expected $want: $(head -c 400 "$SCRATCH/stderr")"; return 1; fi
  if [[ $want -ne 0 && ! -s "$SCRATCH/stderr" ]]; then fail "export $*: no message on stderr"; return 1; fi
  return 0
}

png_size() {  # prints WIDTHxHEIGHT from the IHDR chunk
  python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; w,h=struct.unpack(">II",d[16:24]); print(f"{w}x{h}")' "$1" 2>/dev/null
}

# --list: page ids with their plots.
if expect_rc 0 --list; then
  grep -qP '^\S+\t' "$SCRATCH/stdout" || fail "--list printed no page lines"
  cp "$SCRATCH/stdout" "$SCRATCH/list.txt"
fi
expect_rc 0 --help && grep -q -- "--theme" "$SCRATCH/stdout" || fail "--help does not describe --theme"

# The first page that offers a plot.
PAGE=$(awk -F'\t' '/^[^ ]/ {page=$1} /^  / && page != "" {print page; exit}' "$SCRATCH/list.txt" 2>/dev/null)
PLOT=$(awk -F'\t' '/^  / {sub(/^  /, "", $1); print $1; exit}' "$SCRATCH/list.txt" 2>/dev/null)
if [[ -z "$PAGE" ]]; then
  echo "note: no page offers a plot yet; only the usage checks run"
else
  if expect_rc 0 --page "$PAGE" --format png --out "$SCRATCH/a.png" --size 1280x720; then
    [[ "$(png_size "$SCRATCH/a.png")" == "1280x720" ]] || fail "PNG is $(png_size "$SCRATCH/a.png"), expected 1280x720"
  fi
  if expect_rc 0 --page "$PAGE" --plot "$PLOT" --out "$SCRATCH/b.png" --size 3840x2160 --theme projector-dark; then
    [[ "$(png_size "$SCRATCH/b.png")" == "3840x2160" ]] || fail "4K PNG is $(png_size "$SCRATCH/b.png")"
  fi
  if expect_rc 0 --page "$PAGE" --out "$SCRATCH/a.svg" --theme normal; then
    head -c 400 "$SCRATCH/a.svg" | grep -q "<svg" || fail "SVG has no <svg> element"
    if command -v python3 >/dev/null; then
      python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$SCRATCH/a.svg" || fail "SVG does not parse"
    fi
  fi
  if expect_rc 0 --page "$PAGE" --format pdf --out "$SCRATCH/a.pdf"; then
    [[ "$(head -c 4 "$SCRATCH/a.pdf")" == "%PDF" ]] || fail "PDF header missing"
    grep -qa "/Page" "$SCRATCH/a.pdf" || fail "PDF has no page"
  fi
  if grep -P "^  $PLOT\t" "$SCRATCH/list.txt" | grep -q "csv"; then
    if expect_rc 0 --page "$PAGE" --plot "$PLOT" --out "$SCRATCH/a.csv"; then
      [[ $(wc -l <"$SCRATCH/a.csv") -ge 1 ]] || fail "CSV has no header"
    fi
  fi
  # The whole lesson into one folder.
  if expect_rc 0 --all --out "$SCRATCH/all" --format png --size 640x360; then
    n=$(ls "$SCRATCH/all" | grep -c '_.*\.png$')
    [[ $n -ge 1 ]] || fail "--all wrote no page-id_plot-id.png files"
    [[ -f "$SCRATCH/all/${PAGE}_${PLOT}.png" ]] || fail "--all lacks ${PAGE}_${PLOT}.png"
  fi
  # Bad plot, unwritable path.
  expect_rc 2 --page "$PAGE" --plot no-such-plot --out "$SCRATCH/x.png"
  expect_rc 1 --page "$PAGE" --out "$SCRATCH/no/such/folder/x.png"
  touch "$SCRATCH/a-file"
  expect_rc 1 --page "$PAGE" --out "$SCRATCH/a-file/x.png"
  expect_rc 1 --all --out "$SCRATCH/a-file"
  # A bad recording is named, and nothing is written.
  echo '{"format": "gpulab-recording", "version": 99, "results": []}' >"$SCRATCH/bad.json"
  if expect_rc 1 --page "$PAGE" --open "$SCRATCH/bad.json" --out "$SCRATCH/c.png"; then
    grep -q "version 99" "$SCRATCH/stderr" || fail "bad recording message does not say what is wrong: $(cat "$SCRATCH/stderr")"
    [[ ! -e "$SCRATCH/c.png" ]] || fail "wrote a PNG despite the bad recording"
  fi
fi

# Usage errors: exit 2 with a message.
expect_rc 2
expect_rc 2 --page no-such-page --out "$SCRATCH/x.png"
expect_rc 2 --page "${PAGE:-stadium}" --out "$SCRATCH/x.jpeg"
expect_rc 2 --page "${PAGE:-stadium}" --format tiff --out "$SCRATCH/x.png"
expect_rc 2 --page "${PAGE:-stadium}" --out "$SCRATCH/x.png" --size 12
expect_rc 2 --page "${PAGE:-stadium}" --out "$SCRATCH/x.png" --size 0x0
expect_rc 2 --page "${PAGE:-stadium}" --out "$SCRATCH/x.png" --scale -1
expect_rc 2 --page "${PAGE:-stadium}" --out "$SCRATCH/x.png" --theme neon
expect_rc 2 --page "${PAGE:-stadium}" --out
expect_rc 2 --page "${PAGE:-stadium}"
expect_rc 2 --bogus
expect_rc 2 --list --out "$SCRATCH/x"
expect_rc 2 --format json --out "$SCRATCH/x.json"

# The GUI with a bad --open still starts (and says why on stderr).
if QT_QPA_PLATFORM=offscreen timeout 60 "$GPULAB" --open "$SCRATCH/bad.json" --screenshot "$SCRATCH/gui.png" 2>"$SCRATCH/gui-stderr"; then
  grep -q "version 99" "$SCRATCH/gui-stderr" || fail "gpulab --open bad.json: stderr lacks the reason"
  [[ -s "$SCRATCH/gui.png" ]] || fail "gpulab --open bad.json did not start"
else
  fail "gpulab --open bad.json did not start (exit $?): $(head -c 300 "$SCRATCH/gui-stderr")"
fi

if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "ok"
