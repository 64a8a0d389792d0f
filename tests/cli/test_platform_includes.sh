#!/bin/bash
# No POSIX, Linux or Windows header is included in gpu/ or app/ outside the platform layer (gpu/platform/, and the
# Linux-only CUDA emulator gpu/cuda_emu/), so a change that builds on Linux cannot break the Windows build unseen.
# tools/platform-includes.py prints each offending include. The check itself is checked first: a scratch tree with
# one offending file must fail it.
# Usage: test_platform_includes.sh BIN_DIR SCRATCH_DIR
set -euo pipefail
src_root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${2:-$(mktemp -d)}
rm -rf "$scratch" && mkdir -p "$scratch/gpu/cpu" "$scratch/gpu/platform"
printf '#include <unistd.h>\nint f();\n' >"$scratch/gpu/cpu/offender.cpp"
printf '#include <unistd.h>\nint g();\n' >"$scratch/gpu/platform/allowed_linux.cpp"
if out=$(python3 "$src_root/tools/platform-includes.py" "$scratch" 2>&1); then
  echo "FAIL: the check passed a tree with <unistd.h> in gpu/cpu/: $out" >&2
  exit 1
fi
grep -q "gpu/cpu/offender.cpp:1: includes <unistd.h>" <<<"$out" || { echo "FAIL: the check did not name the file: $out" >&2; exit 1; }
grep -q allowed_linux <<<"$out" && { echo "FAIL: the check flagged gpu/platform/: $out" >&2; exit 1; }
python3 "$src_root/tools/platform-includes.py" "$src_root"
