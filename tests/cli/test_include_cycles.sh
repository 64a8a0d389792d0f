#!/bin/bash
# No include cycle between files of app/ and gpu/ (issue 25): x.h and x.cpp are one node, so a header and its
# source that reach each other through another file fail here. tools/include-cycles.py builds the graph from the
# `#include "..."` lines and prints each cycle it finds.
# Usage: test_include_cycles.sh BIN_DIR SCRATCH_DIR (neither is used: the check reads the source tree)
set -euo pipefail
src_root=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$src_root/tools/include-cycles.py" "$src_root"
