#!/bin/bash
# WSL2 (issue 38): the Windows driver's libcuda.so.1 and nvidia-smi live in /usr/lib/wsl/lib, which neither PATH
# nor the dynamic linker always searches. With a fake tree standing in for that folder (GPULAB_WSL_LIB_DIR):
#  - the CUDA loader opens the fake libcuda.so.1 from there before the module (its constructor says so on stderr),
#    and does not when the folder lacks it;
#  - tools/record-your-gpu.sh check finds the fake nvidia-smi there and names its GPU.
# Usage: test_wsl_paths.sh BIN_DIR SCRATCH_DIR
set -uo pipefail
BIN=$(cd "$1" && pwd)
SCRATCH="$2"
src_root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH/wsl" "$SCRATCH/empty"
cd "$SCRATCH" || exit 1

# The fake driver: a libcuda.so.1 whose constructor prints a marker; a "module" with no entry point, so the loader
# goes as far as opening it (the driver is opened just before) and then refuses it.
cat >fake_libcuda.c <<'C'
#include <stdio.h>
__attribute__((constructor)) static void loaded(void) { fputs("fake-wsl-libcuda loaded\n", stderr); }
int cuInit(unsigned flags) { (void)flags; return 100; /* CUDA_ERROR_NO_DEVICE */ }
C
echo 'int not_a_gpulab_module(void) { return 0; }' >fake_module.c
cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o wsl/libcuda.so.1 fake_libcuda.c || fail "cannot build the fake libcuda"
cc -shared -fPIC -o fake_module.so fake_module.c || fail "cannot build the fake module"

if python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  echo "note: a libcuda.so.1 is found by name here (a real driver): the loader rightly uses it; the WSL case is not tested"
else
  GPULAB_WSL_LIB_DIR="$SCRATCH/wsl" GPULAB_CUDA_MODULE="$SCRATCH/fake_module.so" "$BIN/gpulab-bench" devices \
    >with.txt 2>&1
  grep -q "fake-wsl-libcuda loaded" with.txt || { cat with.txt; fail "the CUDA loader did not open libcuda.so.1 from the WSL folder"; }
  grep -q "not a gpulab CUDA module" with.txt || { cat with.txt; fail "the fake module was not reached after the driver"; }
  GPULAB_WSL_LIB_DIR="$SCRATCH/empty" GPULAB_CUDA_MODULE="$SCRATCH/fake_module.so" "$BIN/gpulab-bench" devices \
    >without.txt 2>&1
  grep -q "fake-wsl-libcuda" without.txt && fail "the loader opened a libcuda.so.1 that is not in the WSL folder"
  echo "ok: the CUDA loader opens libcuda.so.1 from the WSL folder, and only from there"
fi

# nvidia-smi in the WSL folder only (a PATH without any other nvidia-smi).
cat >wsl/nvidia-smi <<'SMI'
#!/bin/sh
case "$*" in
  -L) echo "GPU 0: NVIDIA Fake WSL GPU (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
  *name*) echo "NVIDIA Fake WSL GPU" ;;
  *compute_cap*) echo "8.9" ;;
  *) echo "fake nvidia-smi" ;;
esac
SMI
chmod +x wsl/nvidia-smi
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/nvidia-smi" ] || printf '%s:' "$d"; done)
PATH="${clean_path%:}" GPULAB_WSL_LIB_DIR="$SCRATCH/wsl" bash "$src_root/tools/record-your-gpu.sh" check \
  >check.txt 2>&1
grep -q "NVIDIA Fake WSL GPU" check.txt || { cat check.txt; fail "record-your-gpu.sh check did not find nvidia-smi in the WSL folder"; }
PATH="${clean_path%:}" GPULAB_WSL_LIB_DIR="$SCRATCH/empty" bash "$src_root/tools/record-your-gpu.sh" check \
  >check-empty.txt 2>&1
grep -q "NVIDIA Fake WSL GPU" check-empty.txt && fail "record-your-gpu.sh found a GPU without the WSL folder"
echo "ok: record-your-gpu.sh check finds nvidia-smi in the WSL folder"
echo PASS
