#!/usr/bin/env bash
# `gpulab export` as slides (issue 15): --all puts each plot's title and sources on it (on by default; --no-caption
# leaves them off); on-screen hints ("press Run (Space)") are never in an export; an empty plot is skipped and
# listed by --all and refused alone with exit code 3; the CLI prints no library warnings; --deck writes one PDF
# with a page per exported plot; with no GPU and no recording, published GPU results appear with their source.
# Usage: bash test_export_slides.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_export_slides.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_export_slides.sh BIN_DIR SCRATCH}
GPULAB="$BIN_DIR/gpulab"
if [[ "${GPULAB_APP:-1}" == "0" || "${GPULAB_APP:-1}" == "OFF" ]]; then echo "SKIP: built without the app"; exit 0; fi
if [[ ! -x "$GPULAB" ]]; then echo "FAIL: $GPULAB not found or not executable"; exit 1; fi
rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
export GPULAB_NO_SETTINGS=1
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Only our own lines on stderr: anything else is a library talking (QCustomPlot's "graph has no data", Qt's …).
only_our_lines() {
  local foreign
  foreign=$(grep -v '^gpulab export:' "$1" | head -5)
  [[ -z "$foreign" ]] || fail "$2: stderr has lines that are not gpulab's: $foreign"
}

# 1. The whole lesson as SVG (text stays text, so it can be searched), no GPU, no recording.
"$GPULAB" export --all --no-gpu --format svg --size 1280x720 --out "$SCRATCH/svg" >"$SCRATCH/all.out" 2>"$SCRATCH/all.err"
rc=$?
[[ $rc -eq 0 ]] || fail "--all exited $rc: $(head -c 400 "$SCRATCH/all.err")"
only_our_lines "$SCRATCH/all.err" "--all"
grep -q "graph has no data" "$SCRATCH/all.err" && fail "QCustomPlot's warning reached stderr"
n_svg=$(ls "$SCRATCH/svg" 2>/dev/null | grep -c '\.svg$')
[[ $n_svg -ge 5 ]] || fail "--all wrote only $n_svg SVGs"
# Empty plots: listed on stderr, and no file for them.
grep -q "skipped [0-9]* empty plot" "$SCRATCH/all.err" || fail "--all did not list skipped empty plots: $(head -c 300 "$SCRATCH/all.err")"
skipped=$(sed -n 's/^gpulab export:   \([a-z0-9-]*\)\/\([a-z0-9-]*\):.*/\1_\2/p' "$SCRATCH/all.err")
[[ -n "$skipped" ]] || fail "no skipped plot named as page/plot"
for s in $skipped; do
  [[ ! -e "$SCRATCH/svg/$s.svg" ]] || fail "empty plot $s was written anyway"
done
# The decode page's batching plot has nothing before its chain is run; the VRAM page's live bars (a custom-painted
# widget) have only their "press Run" text without a GPU.
echo "$skipped" | grep -qx "decode_decode-batching" || fail "decode/decode-batching (empty before a run) was not skipped"
echo "$skipped" | grep -qx "vram_vram-live" || fail "vram/vram-live (only a hint without a GPU) was not skipped"
# Hints never exported.
if grep -l -i -E '\(Space\)|press Run' "$SCRATCH"/svg/*.svg >"$SCRATCH/hints" 2>/dev/null; then
  fail "on-screen hints in exports: $(tr '\n' ' ' <"$SCRATCH/hints")"
fi
# A hint marked as one (markOnScreenHint) stays off the slide even when the page rebuilds its items for the export
# (the precision chart draws all three panels afresh for a slide).
if [[ -f "$SCRATCH/svg/precision_precision.svg" ]]; then
  grep -q "errors appear after a run" "$SCRATCH/svg/precision_precision.svg" && fail "the precision slide shows its on-screen hint"
else
  fail "no precision SVG"
fi
# Captions: the title and the sources are on the slide.
svg_text() { python3 - "$1" <<'PY'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
out = []
for t in doc.getElementsByTagName("text"):
    out.append("".join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE))
print("\n".join(out))
PY
}
if [[ -f "$SCRATCH/svg/roofline_roofline.svg" ]]; then
  svg_text "$SCRATCH/svg/roofline_roofline.svg" >"$SCRATCH/roofline.txt"
  grep -q "Roofline" "$SCRATCH/roofline.txt" || fail "roofline SVG lacks its title"
  grep -q "datasheet" "$SCRATCH/roofline.txt" || fail "roofline SVG caption does not name the datasheet"
  grep -q "published: siboehm/SGEMM_CUDA, RTX A6000" "$SCRATCH/roofline.txt" || fail "roofline SVG lacks the published points' source"
else
  fail "no roofline SVG"
fi
if [[ -f "$SCRATCH/svg/matmul_published-ladder.svg" ]]; then
  svg_text "$SCRATCH/svg/matmul_published-ladder.svg" >"$SCRATCH/ladder.txt"
  grep -q "published: siboehm/SGEMM_CUDA, RTX A6000" "$SCRATCH/ladder.txt" || fail "published ladder lacks its source"
  grep -q "cuBLAS" "$SCRATCH/ladder.txt" || fail "published ladder lacks its cuBLAS step"
else
  fail "the matmul page exported no published GPU ladder (no GPU, no recording)"
fi
if [[ -f "$SCRATCH/svg/decode_decode-ceiling.svg" ]]; then
  svg_text "$SCRATCH/svg/decode_decode-ceiling.svg" >"$SCRATCH/decode.txt"
  grep -q "published: pytorch-labs/gpt-fast README, A100" "$SCRATCH/decode.txt" || fail "decode ceiling lacks the published A100 bars"
  grep -q "published: ggerganov/llama.cpp PR 4766, RTX 4090" "$SCRATCH/decode.txt" || fail "decode ceiling lacks the published RTX 4090 bars"
else
  fail "no decode ceiling SVG"
fi

# 2. --no-caption: no title on the slide.
"$GPULAB" export --all --no-gpu --no-caption --page roofline --format svg --size 1280x720 --out "$SCRATCH/nocap" \
  >/dev/null 2>"$SCRATCH/nocap.err" || fail "--no-caption run failed: $(head -c 300 "$SCRATCH/nocap.err")"
svg_text "$SCRATCH/nocap/roofline_roofline.svg" | grep -q "Roofline: measured" && fail "--no-caption still drew the title"

# 3. One empty plot alone: refused, exit 3, a reason, no file.
"$GPULAB" export --no-gpu --page decode --plot decode-batching --out "$SCRATCH/empty.png" >/dev/null 2>"$SCRATCH/empty.err"
rc=$?
[[ $rc -eq 3 ]] || fail "an empty plot alone exited $rc, expected 3"
grep -q "empty" "$SCRATCH/empty.err" || fail "no reason given for the refused empty plot: $(cat "$SCRATCH/empty.err")"
[[ ! -e "$SCRATCH/empty.png" ]] || fail "the empty plot was written"
only_our_lines "$SCRATCH/empty.err" "single empty plot"

# 4. A single plot with --caption, no warnings on stderr (the Amdahl page used to make QCustomPlot complain).
"$GPULAB" export --no-gpu --page amdahl --out "$SCRATCH/amdahl.png" --caption >/dev/null 2>"$SCRATCH/amdahl.err" \
  || fail "amdahl export failed: $(head -c 300 "$SCRATCH/amdahl.err")"
[[ -s "$SCRATCH/amdahl.err" ]] && fail "single export printed on stderr: $(head -c 300 "$SCRATCH/amdahl.err")"

# 5. The deck: one PDF, a page per exported plot, in one run with the PNGs to count against.
"$GPULAB" export --all --no-gpu --format png --size 640x360 --out "$SCRATCH/png" --deck "$SCRATCH/deck.pdf" \
  >"$SCRATCH/deck.out" 2>"$SCRATCH/deck.err" || fail "--deck run failed: $(head -c 300 "$SCRATCH/deck.err")"
only_our_lines "$SCRATCH/deck.err" "--deck"
if [[ -f "$SCRATCH/deck.pdf" ]]; then
  [[ "$(head -c 4 "$SCRATCH/deck.pdf")" == "%PDF" ]] || fail "deck is not a PDF"
  pages=$(grep -a -c -E '/Type */Page([^s]|$)' "$SCRATCH/deck.pdf")
  n_png=$(ls "$SCRATCH/png" | grep -c '\.png$')
  [[ $pages -eq $n_png && $pages -ge 5 ]] || fail "deck has $pages pages, the same run wrote $n_png plots"
  grep -qx "$SCRATCH/deck.pdf" "$SCRATCH/deck.out" || fail "deck path not printed on stdout"
else
  fail "--deck wrote no file"
fi
# `--all --format pdf` is the deck: into a folder, a PDF per plot and gpulab-deck.pdf beside them; with an --out
# FILE.pdf, the deck alone.
"$GPULAB" export --all --no-gpu --format pdf --size 640x360 --out "$SCRATCH/pdfs" >"$SCRATCH/pdfs.out" 2>"$SCRATCH/pdfs.err" \
  || fail "--all --format pdf failed: $(head -c 300 "$SCRATCH/pdfs.err")"
only_our_lines "$SCRATCH/pdfs.err" "--all --format pdf"
n_pdf=$(ls "$SCRATCH/pdfs" 2>/dev/null | grep -v '^gpulab-deck.pdf$' | grep -c '\.pdf$')
pages=$(grep -a -c -E '/Type */Page([^s]|$)' "$SCRATCH/pdfs/gpulab-deck.pdf" 2>/dev/null)
[[ -n "$pages" && $pages -eq $n_pdf && $pages -ge 5 ]] || fail "--all --format pdf: deck has ${pages:-no} pages for $n_pdf plots"
"$GPULAB" export --all --no-gpu --page roofline --format pdf --out "$SCRATCH/lesson.pdf" >/dev/null 2>&1 || fail "--all --out FILE.pdf failed"
[[ -f "$SCRATCH/lesson.pdf" && ! -d "$SCRATCH/lesson.pdf" ]] || fail "--all --out FILE.pdf did not write a file"
[[ $(grep -a -c -E '/Type */Page([^s]|$)' "$SCRATCH/lesson.pdf" 2>/dev/null) -eq 1 ]] || fail "--all --page roofline --out FILE.pdf is not a one-page deck"
"$GPULAB" export --all --format png --out "$SCRATCH/y.pdf" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "--all --format png --out y.pdf is not a usage error"

# The decode ceiling's CSV keeps a published measurement out of the ceiling column.
"$GPULAB" export --no-gpu --page decode --plot decode-ceiling --out "$SCRATCH/decode.csv" >/dev/null 2>&1 || fail "decode CSV failed"
if [[ -f "$SCRATCH/decode.csv" ]]; then
  head -1 "$SCRATCH/decode.csv" | grep -q "published_measured_tokens_per_s" || fail "decode CSV has no column for published figures"
  python3 - "$SCRATCH/decode.csv" <<'PY' || fail "decode CSV: a published row has a ceiling, or none has its figure"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
pub = [r for r in rows if r["source"].startswith("published: ")]
assert pub, "no published rows"
for r in pub:
    assert r["ceiling_tokens_per_s"] == "" and float(r["published_measured_tokens_per_s"]) > 0, r
for r in rows:
    if r not in pub:
        assert r["published_measured_tokens_per_s"] == "" and float(r["ceiling_tokens_per_s"]) > 0, r
PY
fi

# The deck alone (no --out), and usage errors.
"$GPULAB" export --all --no-gpu --page roofline --deck "$SCRATCH/one.pdf" >/dev/null 2>&1 || fail "--all --deck without --out failed"
[[ $(grep -a -c -E '/Type */Page([^s]|$)' "$SCRATCH/one.pdf" 2>/dev/null) -eq 1 ]] || fail "a one-page deck does not have one page"
"$GPULAB" export --page roofline --deck "$SCRATCH/x.pdf" --out "$SCRATCH/x.png" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "--deck without --all is not a usage error"
"$GPULAB" export --all --deck "$SCRATCH/x.png" >/dev/null 2>&1; [[ $? -eq 2 ]] || fail "--deck x.png is not a usage error"

if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "ok"
