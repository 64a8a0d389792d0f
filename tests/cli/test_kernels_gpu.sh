#!/usr/bin/env bash
# `gpulab-bench kernels --file F.cu --gpu`: the GPU timing from the command line, without a GPU and without paying
# for nvcc. A fake nvcc (written below: it answers --version, --list-gpu-arch and --dryrun as nvcc 13 does on a
# machine without a GPU, and "compiles" into a script that prints the harness's JSON line) drives the real CLI path:
# no nvcc → exit 3 and what to install; no CUDA device → exit 3 and CUDA's answer; timed → exit 0, the timing line
# and a "gpu" object marked measured; a kernel the emulator finds wrong is not timed. The real nvcc build of the
# harness is tests/lab/test_lab_gpu_build.cpp. Usage: bash test_kernels_gpu.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_kernels_gpu.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_kernels_gpu.sh BIN_DIR SCRATCH}
BENCH="$BIN_DIR/gpulab-bench"
KERNELS="$(cd "$(dirname "$0")/../lab/kernels" && pwd)"
mkdir -p "$SCRATCH"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The GPU timing runs after the emulator's check passed: without clang that check cannot pass here.
if ! command -v clang++ >/dev/null && ! ls /usr/bin/clang++-* >/dev/null 2>&1; then
  echo "SKIP (clang is not installed: the emulator's check, which --gpu follows, cannot run)"
  exit 0
fi

# --gpu needs a file; --gpu-size needs --gpu.
"$BENCH" kernels --gpu >/dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] || fail "--gpu without --file exited $rc, not 2"
"$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --gpu-size 512 >/dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] || fail "--gpu-size without --gpu exited $rc, not 2"

# No nvcc: exit 3, the line says what to install, the JSON says no_nvcc and nothing measured.
out=$(GPULAB_LAB_NVCC=/nonexistent/nvcc "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 --gpu 2>"$SCRATCH/stderr"); rc=$?
[[ $rc -eq 3 ]] || fail "without nvcc --gpu exited $rc, not 3: $(head -c 400 "$SCRATCH/stderr")"
grep -q "^GPU: not timed: .*CUDA toolkit" <<<"$out" || fail "without nvcc the line does not say what to install: $out"
GPULAB_LAB_NVCC=/nonexistent/nvcc "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 --gpu --json \
  >"$SCRATCH/no_nvcc.json" 2>/dev/null
python3 - "$SCRATCH/no_nvcc.json" <<'PY' || fail "the JSON without nvcc"
import json, sys
g = json.load(open(sys.argv[1]))["gpu"]
assert g["status"] == "no_nvcc" and g["measured"] is False, g
assert "student" not in g and "cublas" not in g, g
PY

# The fake nvcc: nvcc 13's answers on a machine without a GPU; "compiling" writes a script printing $FAKE_LINE.
FAKE="$SCRATCH/fake_cuda/bin"
mkdir -p "$FAKE"
cat >"$FAKE/nvcc" <<'SH'
#!/usr/bin/env bash
case " $* " in
  *" --version "*) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0 ;;
  *" --list-gpu-arch "*) printf 'compute_75\ncompute_80\ncompute_90\n'; exit 0 ;;
  *" --dryrun "*)
    [[ " $* " == *" -arch=native "* ]] && echo "nvcc warning : Cannot find valid GPU for '-arch=native', default arch is used" >&2
    echo "#\$ ptxas -arch=sm_75 -m64 x.ptx" >&2; exit 0 ;;
esac
out=""; prev=""
for a in "$@"; do [[ $prev == "-o" ]] && out=$a; prev=$a; done
printf '#!/usr/bin/env bash\necho "a line of the kernel'"'"'s own"\necho %q\nexit %s\n' "$FAKE_LINE" "$FAKE_EXIT" >"$out"
chmod +x "$out"
SH
chmod +x "$FAKE/nvcc"

# No CUDA device: exit 3 and CUDA's answer; built for sm_75 because nvcc found no GPU for native.
export FAKE_EXIT=3
export FAKE_LINE='{"gpulab_student_timing":1,"status":"no_device","nvcc_version":"13.0.88","nvcc_flags":"-O3 -arch=sm_75 -lcublas","reason":"no CUDA device: cudaGetDeviceCount says cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime version)","cuda_error":35}'
GPULAB_LAB_NVCC="$FAKE/nvcc" "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 --gpu --json \
  >"$SCRATCH/no_device.json" 2>"$SCRATCH/stderr"; rc=$?
[[ $rc -eq 3 ]] || fail "without a device --gpu exited $rc, not 3: $(head -c 400 "$SCRATCH/stderr")"
grep -q "no CUDA device" "$SCRATCH/stderr" || fail "stderr does not say there is no device: $(cat "$SCRATCH/stderr")"
python3 - "$SCRATCH/no_device.json" <<'PY' || fail "the JSON without a device"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["check"]["passed"] is True, d["check"]
g = d["gpu"]
assert g["status"] == "no_device" and g["measured"] is False, g
assert "cudaErrorInsufficientDriver" in g["reason"], g
assert g["exit_code"] == 3, g
assert g["compile"]["arch"] == "sm_75" and "no GPU" in g["compile"]["arch_note"], g["compile"]
assert g["compile"]["flags"] == "-O3 -arch=sm_75 -lcublas" and g["compile"]["nvcc_version"] == "13.0.88", g["compile"]
PY

# Timed: exit 0, the line says measured on the device with both speeds, the JSON carries them.
export FAKE_EXIT=0
export FAKE_LINE='{"gpulab_student_timing":1,"status":"timed","nvcc_version":"13.0.88","nvcc_flags":"-O3 -arch=sm_75 -lcublas","device":{"name":"FAKE GPU","compute_capability":"9.0","sms":132},"m":4096,"n":4096,"k":4096,"seed":42,"check":{"passed":true,"max_abs_error":0.0001,"atol":0.0052,"rtol":4.7e-07,"wrong_cells":0,"nonfinite_cells":0},"student":{"median_s":0.0275,"samples":4,"gflops":5000},"cublas":{"median_s":0.00275,"samples":3,"gflops":50000},"method":"CUDA events"}'
out=$(GPULAB_LAB_NVCC="$FAKE/nvcc" "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 --gpu 2>"$SCRATCH/stderr"); rc=$?
[[ $rc -eq 0 ]] || fail "a timed run exited $rc: $(head -c 400 "$SCRATCH/stderr")"
grep -q "^GPU, measured on FAKE GPU (compute capability 9.0) at 4096x4096x4096: your kernel 5000 GFLOP/s .*cuBLAS 50000 GFLOP/s .*10.0 % of cuBLAS" <<<"$out" ||
  fail "no timing line: $out"
GPULAB_LAB_NVCC="$FAKE/nvcc" "$BENCH" kernels --file "$KERNELS/right_grid_stride.cu" --size 32 --gpu --json \
  >"$SCRATCH/timed.json" 2>/dev/null
python3 - "$SCRATCH/timed.json" <<'PY' || fail "the JSON of a timed run"
import json, sys
g = json.load(open(sys.argv[1]))["gpu"]
assert g["status"] == "timed" and g["measured"] is True, g
assert g["device"]["name"] == "FAKE GPU" and g["m"] == 4096, g
assert g["student"]["gflops"] == 5000 and g["cublas"]["gflops"] == 50000, g
assert abs(g["share_of_cublas"] - 0.1) < 1e-12, g
PY

# A kernel the emulator finds wrong is never timed.
"$BENCH" kernels --file "$KERNELS/write_past_end.cu" --size 32 --gpu --json >"$SCRATCH/wrong.json" 2>/dev/null; rc=$?
[[ $rc -eq 1 ]] || fail "a wrong kernel with --gpu exited $rc, not 1"
python3 - "$SCRATCH/wrong.json" <<'PY' || fail "a wrong kernel's gpu object"
import json, sys
g = json.load(open(sys.argv[1]))["gpu"]
assert g["status"] == "not_run" and g["measured"] is False, g
PY

[[ $failures -eq 0 ]] && echo "PASS"
exit $failures
