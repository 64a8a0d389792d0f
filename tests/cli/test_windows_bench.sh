#!/bin/bash
# The measuring core on Windows (issue 38): MinGW-w64 cross-builds gpulab-bench.exe and the Vulkan module
# (cmake/toolchains/mingw-w64-x86_64.cmake), and Wine runs them, under Xvfb so that Wine's Vulkan reaches the
# machine's lavapipe. Checked, as a teacher on a Windows laptop would use it:
#  - `devices` names the CPU and the Vulkan device (loaded from libgpulab_vulkan.dll, which loads vulkan-1.dll);
#  - `bench --suite quick` and `bench --suite roofs --device vulkan --allow-cpu-vulkan` write recordings that the
#    Linux gpulab-bench's `bench --check` (the loader the app replays with) accepts, made by Windows code;
#  - Ctrl+C (Wine turns SIGINT into the console's CTRL_C_EVENT) stops a run, exit 130, keeping what it measured.
# Skipped (exit 77) without the MinGW compiler, Wine or Xvfb: tools/install-deps installs them.
# Usage: test_windows_bench.sh BIN_DIR SCRATCH_DIR
#   GPULAB_WINDOWS_BUILD: the build folder (default BIN_DIR/../windows, kept between runs: the build is incremental)
set -uo pipefail
BIN=$(cd "$1" && pwd)
SCRATCH="$2"
src_root=$(cd "$(dirname "$0")/../.." && pwd)
build=${GPULAB_WINDOWS_BUILD:-$BIN/../windows}
start=$SECONDS
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIPPED: $*"; exit 77; }

command -v x86_64-w64-mingw32-g++-posix >/dev/null || skip "no MinGW-w64 compiler (g++-mingw-w64-x86-64-posix)"
WINE=$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null) || skip "no Wine (wine64)"
command -v Xvfb >/dev/null || skip "no Xvfb (xvfb)"

echo "== windows: cross-building gpulab-bench.exe and the Vulkan module in $build"
cmake -S "$src_root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$src_root/cmake/toolchains/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DGPULAB_APP=OFF -DGPULAB_CUDA=OFF -DGPULAB_TESTS=OFF -DGPULAB_VULKAN=ON \
  >"$SCRATCH.configure.log" 2>&1 || { tail -20 "$SCRATCH.configure.log"; fail "configure"; }
cmake --build "$build" --target gpulab-bench gpulab_vulkan -j "$(nproc 2>/dev/null || echo 2)" \
  >"$SCRATCH.build.log" 2>&1 || { grep -m 20 -B2 -A8 "error" "$SCRATCH.build.log"; fail "build"; }
build_s=$((SECONDS - start))
exe="$build/bin/gpulab-bench.exe"
[ -f "$exe" ] && [ -f "$build/bin/libgpulab_vulkan.dll" ] || fail "the build left no gpulab-bench.exe or libgpulab_vulkan.dll"
file "$exe" | grep -q "PE32+ executable (console) x86-64" || fail "not a Windows x86-64 program: $(file "$exe")"

rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
cd "$SCRATCH" || fail "cd $SCRATCH"
# A Wine prefix of its own, without the Mono and Gecko installers Wine offers on first start (a dialog nobody
# answers), quiet, and one Xvfb for every run.
export WINEPREFIX="$SCRATCH/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree=d;mshtml=d"
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3>"$SCRATCH/display" 2>"$SCRATCH/xvfb.log" &
xvfb=$!
WINESERVER=$(command -v wineserver || echo "$(dirname "$WINE")/wineserver")
trap 'kill $xvfb 2>/dev/null; "$WINESERVER" -k 2>/dev/null' EXIT
for _ in $(seq 100); do [ -s "$SCRATCH/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$SCRATCH/display")"
wine_start=$SECONDS

# devices: the CPU by name, and the Vulkan device through Wine's vulkan-1.dll.
timeout 300 "$WINE" "$exe" devices >devices.txt 2>&1 || { cat devices.txt; fail "devices exited $?"; }
cpu_name=$(sed -n 's/^CPU: //p' devices.txt | head -1)
[ -n "$cpu_name" ] && [ "$cpu_name" != "unknown CPU" ] || { cat devices.txt; fail "devices names no CPU"; }
grep -q "^Vulkan devices:" devices.txt && grep -q "llvmpipe" devices.txt ||
  { cat devices.txt; fail "devices names no Vulkan device (llvmpipe through Wine's Vulkan)"; }
grep -q "OpenBLAS: not in this build" devices.txt || { cat devices.txt; fail "OpenBLAS should be reported absent"; }
echo "   devices: CPU \"$cpu_name\"; $(grep -m1 llvmpipe devices.txt | sed 's/^ *//')"

# check NAME: the Linux loader accepts the Windows recording; it was written on Windows, with these results.
check() {
  "$BIN/gpulab-bench" bench --check "$1.json" >"$1.check" 2>&1 || { cat "$1.check"; fail "$1: bench --check rejects it"; }
  python3 - "$1.json" "$2" "$3" <<'PY' || fail "$1: recording contents"
import json, sys
doc = json.load(open(sys.argv[1]))
want_complete, want_backend = sys.argv[2] == "complete", sys.argv[3]
ctx = doc["context"]
assert doc["complete"] is want_complete, ("complete", doc["complete"])
rs = doc["results"]
assert rs, "no results"
oses = {r["provenance"].get("os", "") for r in rs} - {""}  # a result that never ran (no OpenBLAS) has no os
assert oses and all(o.startswith("Windows") for o in oses), oses
if want_backend:
    ok = [r for r in rs if r["backend"] == want_backend and not r["error"] and r["check"]["passed"]]
    assert ok, "no passing %s result: %s" % (want_backend, [(r["backend"], r["variant"], r["error"]) for r in rs])
print("   %s: %d results, complete=%s, os %s" % (sys.argv[1], len(rs), doc["complete"], sorted(oses)[0]))
PY
}

fast=(--budget 0.2 --max-samples 5)
timeout 600 "$WINE" "$exe" bench --suite quick --out quick.json --quiet "${fast[@]}" >quick.log 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -20 quick.log; fail "bench --suite quick exited $rc"; }
check quick complete cpu
grep -q '"openblas": "not in this build"' quick.json || fail "quick: the recording does not say OpenBLAS is absent"

timeout 600 "$WINE" "$exe" bench --suite roofs --device vulkan --allow-cpu-vulkan --out roofs.json --quiet "${fast[@]}" \
  >roofs.log 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -20 roofs.log; fail "bench --suite roofs --device vulkan exited $rc"; }
check roofs complete vulkan

# Ctrl+C: Wine delivers a SIGINT sent to the program as CTRL_C_EVENT to its console control handler. The all suite
# runs for minutes; once a result is on disk, Ctrl+C must stop it at the next sample with exit 130 and keep it.
"$WINE" "$exe" bench --suite all --out stopped.json "${fast[@]}" >stopped.log 2>&1 &
wine_pid=$!
t0=$SECONDS
until python3 -c 'import json,sys; sys.exit(0 if json.load(open("stopped.json"))["results"] else 1)' 2>/dev/null; do
  kill -0 $wine_pid 2>/dev/null || { tail -5 stopped.log; fail "the all suite ended before its first result"; }
  [ $((SECONDS - t0)) -ge 180 ] && fail "no result on disk after 180 s"
  sleep 0.2
done
# The Windows process runs as a Linux process of its own name; the wine64 launcher waits for it.
win_pid=$(pgrep -n -f 'gpulab-bench.exe bench --suite all' | head -1)
[ -n "$win_pid" ] || fail "cannot find the running gpulab-bench.exe"
kill -INT "$win_pid"
t_signal=$SECONDS
while kill -0 $wine_pid 2>/dev/null; do
  [ $((SECONDS - t_signal)) -ge 60 ] && { kill -KILL "$win_pid"; fail "still running 60 s after Ctrl+C"; }
  sleep 0.1
done
wait $wine_pid
rc=$?
[ $rc -eq 130 ] || { tail -5 stopped.log; fail "Ctrl+C gave exit $rc, not 130"; }
grep -q "stopped by Ctrl+C" stopped.log || { tail -5 stopped.log; fail "no 'stopped by Ctrl+C' message"; }
check stopped partial ""
python3 -c 'import json; c = json.load(open("stopped.json"))["context"]; assert c["stopped_by"] == "Ctrl+C", c' ||
  fail "the recording does not say Ctrl+C stopped it"
ls | grep -q -e '\.tmp-' -e '\.probe-' && fail "a temporary file was left: $(ls)"
echo "== windows: PASS (build ${build_s} s, Wine runs $((SECONDS - wine_start)) s, total $((SECONDS - start)) s)"
