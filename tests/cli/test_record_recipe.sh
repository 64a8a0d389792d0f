#!/usr/bin/env bash
# "Record your own GPU" (tools/record-your-gpu.sh and tools/record-your-gpu.ipynb) on the CPU path, so the recipe
# cannot rot: the notebook is valid nbformat 4 JSON whose first code cell checks for a GPU (and says what to do
# without one) and whose cells call the script's steps in order; without a GPU `check` stops with that advice;
# `pack` makes a source tarball with the script in it; and `all --cpu-ok` (check, deps, build, record) builds the
# Qt-free core in a scratch build folder and writes a recording that the app's loader accepts (`bench --check`).
# Usage: test_record_recipe.sh BIN_DIR SCRATCH_DIR
set -u
BIN_DIR=${1:?usage: test_record_recipe.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_record_recipe.sh BIN_DIR SCRATCH}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT="$REPO/tools/record-your-gpu.sh"
NOTEBOOK="$REPO/tools/record-your-gpu.ipynb"
# The build folder outlives the scratch folder (ccache and Ninja make a second run quick). tests/compilers.sh runs
# this test again with CXX=g++-11 and its own build folder (GPULAB_RECIPE_BUILD), which it then reuses for the
# core's tests: the recipe must build with the compiler Colab and Ubuntu 22.04 have.
BUILD="${GPULAB_RECIPE_BUILD:-${SCRATCH%/}-build}"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- the notebook: valid nbformat 4, GPU check first, the script's steps in order, a download ----
python3 - "$NOTEBOOK" <<'PY' || fail "the notebook does not do the recipe (above)"
import json, re, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
assert nb.get("nbformat") == 4, "nbformat is %r, not 4" % nb.get("nbformat")
assert isinstance(nb.get("metadata"), dict), "no notebook metadata"
cells = nb["cells"]
for c in cells:
    assert c["cell_type"] in ("code", "markdown", "raw"), c["cell_type"]
    assert isinstance(c["source"], (list, str)), "cell source"
    if c["cell_type"] == "code":
        assert "outputs" in c and "execution_count" in c, "a code cell lacks outputs/execution_count"
code = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells if c["cell_type"] == "code"]
assert code, "no code cells"
first = code[0]
assert "nvidia-smi" in first, "the first code cell does not look for a GPU with nvidia-smi"
assert "Change runtime type" in first and "raise" in first, "the first code cell does not say what to do without a GPU, and stop"
steps = []
for i, src in enumerate(code):
    for line in src.splitlines():
        m = re.match(r'\s*!bash\s+"?\{REPO\}/tools/record-your-gpu\.sh"?\s+(.*)', line)
        if m:
            steps += [(w, i) for w in m.group(1).split() if w in ("check", "deps", "build", "record", "all")]
order = [w for w, _ in steps]
assert order == ["check", "deps", "build", "record"], "the cells run the script's steps %s, not check deps build record" % order
assert any("--minutes" in s and "record-your-gpu.sh" in s for s in code), "the record cell sets no time budget"
assert any("git" in s and "clone" in s for s in code) and any("upload" in s for s in code), "no clone-or-upload cell"
assert "files.download" in code[-1] or "FileLink" in code[-1], "the last code cell does not offer the download"
print("notebook: %d cells, steps %s" % (len(cells), " ".join(order)))
PY

# ---- check without a GPU: stops (exit 1) and says what to do ----
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "note: a GPU is here, so the no-GPU advice is not checked"
else
  bash "$SCRIPT" check >"$SCRATCH/check.out" 2>&1
  rc=$?
  cat "$SCRATCH/check.out"
  [ $rc -eq 1 ] || fail "check without a GPU exited $rc, expected 1"
  grep -q "Change runtime type" "$SCRATCH/check.out" || fail "check without a GPU does not say how to get one on Colab"
fi
# ---- check on a borrowed GPU, faked: a T4 (7.5 -> sm_75) with CUDA 12.2 passes; CUDA 11.8 is refused with the
# reason; a driver that cannot report the compute capability makes the build ask the GPU (native) ----
FAKE="$SCRATCH/fake-gpu"
mkdir -p "$FAKE/bin"
cat >"$FAKE/bin/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
  -L) echo "GPU 0: Tesla T4 (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
  *compute_cap*) [ -n "${FAKE_NO_CAP:-}" ] && exit 2; echo "7.5" ;;
  *name*) echo "Tesla T4" ;;
esac
SMI
fake_nvcc() { printf '#!/bin/sh\necho "Cuda compilation tools, release %s, V%s.1"\n' "$1" "$1" >"$FAKE/bin/nvcc"; chmod +x "$FAKE/bin/nvidia-smi" "$FAKE/bin/nvcc"; }
fake_nvcc 12.2
PATH="$FAKE/bin:$PATH" CUDACXX="$FAKE/bin/nvcc" bash "$SCRIPT" check >"$SCRATCH/t4.out" 2>&1 ||
  { cat "$SCRATCH/t4.out"; fail "check on a (fake) T4 with CUDA 12.2 failed"; }
grep -q "compute capability 7.5 -> the CUDA code is built for sm_75" "$SCRATCH/t4.out" || { cat "$SCRATCH/t4.out"; fail "a T4 is not built for sm_75"; }
grep -q "CUDA 12.2" "$SCRATCH/t4.out" || fail "check does not say the CUDA version"
fake_nvcc 11.8
PATH="$FAKE/bin:$PATH" CUDACXX="$FAKE/bin/nvcc" bash "$SCRIPT" check >"$SCRATCH/t4-old.out" 2>&1
[ $? -eq 1 ] || { cat "$SCRATCH/t4-old.out"; fail "check with CUDA 11.8 did not stop"; }
grep -q "CUDA 11.8, and gpulab's CUDA module needs CUDA 12.0 or newer" "$SCRATCH/t4-old.out" ||
  { cat "$SCRATCH/t4-old.out"; fail "check with CUDA 11.8 did not say why"; }
fake_nvcc 12.0
FAKE_NO_CAP=1 PATH="$FAKE/bin:$PATH" CUDACXX="$FAKE/bin/nvcc" bash "$SCRIPT" check >"$SCRATCH/t4-nocap.out" 2>&1 ||
  { cat "$SCRATCH/t4-nocap.out"; fail "check without a reported compute capability failed"; }
grep -q "CMake asks the GPU for its architecture" "$SCRATCH/t4-nocap.out" || { cat "$SCRATCH/t4-nocap.out"; fail "no native fallback"; }
echo "check on a fake T4: sm_75 with CUDA 12.2, CUDA 11.8 refused, native without a reported compute capability"

bash "$SCRIPT" --minutes soon record >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad --minutes is not a usage error (exit 2)"

# ---- pack: the tarball a notebook without git access gets ----
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$SCRATCH" && bash "$SCRIPT" pack) || fail "pack failed"
  tar -tzf "$SCRATCH/gpulab-src.tar.gz" >"$SCRATCH/pack.list" || fail "pack wrote no readable tarball"
  for f in gpulab/CMakeLists.txt gpulab/gpu/bench_main.cpp gpulab/tools/fetch-core-deps; do
    grep -qx "$f" "$SCRATCH/pack.list" || fail "the tarball lacks $f"
  done
  grep -q '^gpulab/build' "$SCRATCH/pack.list" && fail "the tarball holds a build folder"
  echo "pack: $(wc -l <"$SCRATCH/pack.list") entries, $(du -h "$SCRATCH/gpulab-src.tar.gz" | cut -f1)"
fi

# ---- the whole recipe on the CPU path: check, deps, build, record ----
start=$SECONDS
(cd "$SCRATCH" && bash "$SCRIPT" all --cpu-ok --suite quick --minutes 1 --budget 0.05 --max-samples 3 \
   --build "$BUILD" --out "$SCRATCH/recordings") 2>&1 | tee "$SCRATCH/all.out"
rc=${PIPESTATUS[0]}
echo "== record-your-gpu.sh all: exit $rc after $((SECONDS - start)) s"
[ $rc -eq 0 ] || fail "record-your-gpu.sh all --cpu-ok exited $rc"
grep -q "^RECORDING: " "$SCRATCH/all.out" || fail "it did not say where the recording is"
if [ -n "${CXX:-}" ]; then  # the compiler asked for is the one the recipe built with
  grep -q "^C++ compiler: $CXX " "$SCRATCH/all.out" || fail "the build step did not say it used CXX=$CXX"
  grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=.*$(basename "$CXX")\$" "$BUILD/CMakeCache.txt" ||
    fail "the recipe's build folder was not configured with CXX=$CXX"
fi
grep -q "gpulab --open" "$SCRATCH/all.out" || fail "it did not say how to open the recording"
[ -s "$SCRATCH/recordings/latest.txt" ] || fail "no latest.txt for the notebook's download cell"
rec=$(cat "$SCRATCH/recordings/latest.txt")
[ -s "$rec" ] || fail "latest.txt names $rec, which is not there"
case "$rec" in "$SCRATCH"/recordings/gpulab-cpu-only-*.json) ;; *) fail "unexpected recording name $rec" ;; esac
BENCH="$BIN_DIR/gpulab-bench"
[ -x "$BENCH" ] || BENCH="$BUILD/bin/gpulab-bench"
"$BENCH" bench --check "$rec" >"$SCRATCH/check.txt" 2>&1 || { cat "$SCRATCH/check.txt"; fail "the recording does not load"; }
grep -q "quick: " "$SCRATCH/check.txt" || { cat "$SCRATCH/check.txt"; fail "the recording is not of the quick suite"; }
python3 - "$rec" <<'PY' || fail "the recording is not what the recipe promises"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "gpulab-recording", "format"
ok = [r for r in doc["results"] if r["error"] == "" and r["stats"]["median_s"] > 0]
assert ok, "nothing was measured"
print("recording: %d results, %d measured" % (len(doc["results"]), len(ok)))
PY
echo "PASS"
