# Sourced by device-check.sh: running a step under its cap and keeping its state, the recording's context file
# (step states, nvidia-smi's view of the GPU, the toolkit), and the private Vulkan prefix. Not run on its own.
# Uses from the caller: SUMMARY DEADLINE BUDGET CTX_FILE STATUS, the arrays declared below.

declare -A STATE=() SECS=() PREV=()  # this run's step states (pass cut fail skip warn miss kept), seconds, the base's
ORDER=()                             # steps in the order they were decided

note() { echo "$*" | tee -a "$SUMMARY"; }

# Seconds left, at most $1.
allow() {
  local left=$(( DEADLINE - $(date +%s) ))
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}

# set_state STEP STATE [SECONDS]: STEP is a step's id, the first word of its name ("build-core (gpulab-bench …)").
set_state() {
  local id=${1%% *}
  [ -n "${STATE[$id]+x}" ] || ORDER+=("$id")
  STATE[$id]=$2
  SECS[$id]=${3:-0}
  case "$2" in fail|miss) STATUS=1 ;; esac
}

# step NAME LIMIT_S LOG COMMAND...: runs COMMAND under timeout, output appended to LOG; PASS, or FAIL (a non-bench
# step stopped at its cap is a failure: a build or a test that needs longer is something wrong). STEP_SIGNAL
# (default TERM) is what the cap sends first; KILL follows 15 s later. Returns COMMAND's status (124: capped).
# run_capped NAME CAP LOG SIGNAL COMMAND...: runs COMMAND under what is left of its cap, logged, and sets RAN_RC,
# RAN_TOOK and RAN_CAP. Returns 1 (after noting MISS) when the budget has no time left to start it.
run_capped() {
  local name=$1 limit=$2 log=$3 signal=$4
  shift 4
  RAN_CAP=$(allow "$limit")
  if [ "$RAN_CAP" -le 3 ]; then
    note "MISS  $name (not started: the ${BUDGET}s budget is spent)"
    set_state "$name" miss
    return 1
  fi
  local start=$(date +%s)
  echo "== $name: $* (cap ${RAN_CAP}s)" >>"$log"
  timeout -s "$signal" --kill-after=15 "$RAN_CAP" "$@" >>"$log" 2>&1
  RAN_RC=$?
  RAN_TOOK=$(( $(date +%s) - start ))
  echo "== $name: exit $RAN_RC after ${RAN_TOOK}s" >>"$log"
  return 0
}

# step NAME CAP LOG COMMAND...: passes on exit 0, fails otherwise (a test stopped at its cap has failed).
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  run_capped "$name" "$limit" "$log" "${STEP_SIGNAL:-TERM}" "$@" || return 124
  local rc=$RAN_RC took=$RAN_TOOK t=$RAN_CAP
  if [ $rc -eq 0 ]; then
    note "PASS  $name (${took}s)"
    set_state "$name" pass "$took"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    note "FAIL  $name (stopped at its ${t}s cap; see $(basename "$log"))"
    set_state "$name" fail "$took"
  else
    note "FAIL  $name (exit $rc after ${took}s; see $(basename "$log"))"
    set_state "$name" fail "$took"
  fi
  return $rc
}

# bench_step NAME CAP LOG PART COMMAND...: a bench run stopped at its cap by SIGINT saves what it measured and is
# "cut", not failed: the suite ran, the cap (sized for a healthy GPU) only shortened it. It fails when it stopped
# with nothing saved, ignored the SIGINT (killed 15 s later), exited non-zero itself (a result failed its check,
# the save failed), or never started.
bench_step() {
  local name=$1 limit=$2 log=$3 part=$4
  shift 4
  run_capped "$name" "$limit" "$log" INT "$@" || return 124
  local rc=$RAN_RC took=$RAN_TOOK t=$RAN_CAP
  local saved=0
  [ -s "$part" ] && saved=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$part" 2>/dev/null || echo 0)
  if [ $rc -eq 0 ]; then
    note "PASS  $name (${took}s, $saved results)"
    set_state "$name" pass "$took"
  elif [ $rc -eq 124 ] && [ "$saved" -gt 0 ]; then
    note "CUT   $name (stopped at its ${t}s cap with $saved results saved: not a failure)"
    set_state "$name" cut "$took"
  elif [ $rc -eq 124 ]; then
    note "FAIL  $name (stopped at its ${t}s cap before its first result; see $(basename "$log"))"
    set_state "$name" fail "$took"
  elif [ $rc -eq 137 ]; then
    note "FAIL  $name (did not stop within 15 s of SIGINT and was killed; see $(basename "$log"))"
    set_state "$name" fail "$took"
  else
    note "FAIL  $name (exit $rc after ${took}s, $saved results; see $(basename "$log"))"
    set_state "$name" fail "$took"
  fi
  return $rc
}

skip() {  # skip NAME REASON: not run, and that is fine (a tool or a device this machine lacks)
  note "SKIP  $1 ($2)"
  set_state "$1" skip
}

warn() {  # warn NAME REASON: an extra ran and complained, or was cut; said, and not a failure of the run
  note "WARN  $1 ($2)"
  set_state "$1" warn
}

# The previous try's step states, from its recording's context (device_check_steps "a=pass 12s; b=cut 35s").
read_previous_states() {
  local line step state
  while IFS=$'\t' read -r step state; do
    [ -n "$step" ] && PREV[$step]=$state
  done < <(python3 - "$1" <<'PY'
import json, sys
ctx = json.load(open(sys.argv[1])).get("context", {})
for item in ctx.get("device_check_steps", "").split(";"):
    item = item.strip()
    if "=" in item:
        step, rest = item.split("=", 1)
        print("%s\t%s" % (step.strip(), rest.split()[0] if rest.split() else ""))
PY
)
}

# The context file merge_recordings.py adds to the recording: this run's step states (and the base's, for steps
# not run again), which were cut, the budget, then the device facts gathered so far (FACTS_FILE).
write_context() {
  local s steps="" cut="" missing=""
  for s in "${ORDER[@]}"; do
    steps+="${steps:+; }$s=${STATE[$s]} ${SECS[$s]}s"
    [ "${STATE[$s]}" = cut ] && cut+="${cut:+, }$s"
    case "${STATE[$s]}" in fail|miss) missing+="${missing:+, }$s" ;; esac
  done
  for s in "${!PREV[@]}"; do
    [ -n "${STATE[$s]+x}" ] || steps+="${steps:+; }$s=${PREV[$s]} (earlier try)"
  done
  {
    printf 'device_check_steps\t%s\n' "$steps"
    printf 'device_check_cut\t%s\n' "${cut:-none}"
    printf 'device_check_failed\t%s\n' "${missing:-none}"
    printf 'device_check_budget\t%s\n' "$BUDGET_NOTE"
    [ -f "$FACTS_FILE" ] && cat "$FACTS_FILE"
  } >"$CTX_FILE"
}

# ---- what a reader needs to trust the numbers: nvidia-smi's view of the GPU, the toolkit ----------------------
# The PCIe link as trained now and at most (a card in a x8 slot, or one that trained at Gen 3, moves half or a
# quarter of what the datasheet's host link says: the transfer suite's numbers need it beside them).
SMI_FIELDS="name driver_version pstate clocks.sm clocks.mem clocks.max.sm clocks.max.mem power.limit power.max_limit enforced.power.limit power.draw persistence_mode temperature.gpu clocks_event_reasons.active pcie.link.gen.current pcie.link.gen.max pcie.link.width.current pcie.link.width.max"
# smi_facts WHEN: one query of every field (each alone when the driver refuses a name), as context lines
# "smi_<when>_<field>". Reads the card only; its settings are never changed.
smi_facts() {
  local when=$1 f value all
  all=$(timeout 5 nvidia-smi --query-gpu="$(echo $SMI_FIELDS | tr ' ' ',')" --format=csv,noheader 2>/dev/null | head -1)
  if [ -n "$all" ] && ! echo "$all" | grep -qi "not a valid field"; then
    local i=1
    for f in $SMI_FIELDS; do
      value=$(echo "$all" | cut -d, -f$i | sed 's/^ *//; s/ *$//')
      printf 'smi_%s_%s\t%s\n' "$when" "$(echo "$f" | tr '.' '_')" "$value"
      i=$((i + 1))
    done
  else
    for f in $SMI_FIELDS; do
      value=$(timeout 2 nvidia-smi --query-gpu="$f" --format=csv,noheader 2>/dev/null | head -1)
      printf 'smi_%s_%s\t%s\n' "$when" "$(echo "$f" | tr '.' '_')" "${value:-unknown (nvidia-smi refused the field)}"
    done
  fi
}

toolkit_facts() {  # toolkit_facts NVCC
  [ -n "$1" ] && printf 'cuda_toolkit\t%s\n' "$("$1" --version 2>/dev/null | grep -i release | sed 's/.*release //')"
  # Lazy loading moves the module's load into the first launch of each kernel (the driver's default since 12.2):
  # what the run had decides whether a first timed launch could include it.
  printf 'cuda_module_loading\t%s\n' "${CUDA_MODULE_LOADING:-unset (the driver default: LAZY since CUDA 12.2)}"
  local smi_cuda
  smi_cuda=$(timeout 5 nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -1 | cut -d' ' -f3)
  [ -n "$smi_cuda" ] && printf 'cuda_driver_supports\t%s\n' "$smi_cuda"
  printf 'device_check_host\t%s\n' "$(uname -srm), $(nproc) cores"
}

# ---- the Vulkan loader and build tools, brought as .deb files, unpacked into a private prefix (never over /) ----
# unpack_vulkan DEPS_DIR ROOT: prints the prefix (ROOT/usr) when something was unpacked.
unpack_vulkan() {
  local deps=$1 root=$2 deb
  rm -rf "$root" && mkdir -p "$root" || return 1
  for deb in "$deps"/vulkan/*.deb; do
    [ -f "$deb" ] || continue
    if command -v dpkg-deb >/dev/null 2>&1; then
      dpkg-deb -x "$deb" "$root" || return 1
    else  # a .deb is an ar archive holding data.tar.*: enough to unpack without dpkg
      (cd "$root" && ar p "$deb" "$(ar t "$deb" | grep '^data\.tar')" | tar -x -a -f - 2>/dev/null ||
        ar p "$deb" "$(ar t "$deb" | grep '^data\.tar')" | tar -x -J -f - 2>/dev/null ||
        ar p "$deb" "$(ar t "$deb" | grep '^data\.tar')" | tar -x -z -f -) || return 1
    fi
  done
  [ -d "$deps/vulkan/unpacked" ] && cp -a "$deps/vulkan/unpacked/." "$root/"
  [ -d "$root/usr" ] && echo "$root/usr"
}

# NVIDIA's ICD file, for when the loader finds no driver by itself (a driver mounted outside the loader's search
# path, as on the lent H200 servers: /usr/local/nvidia). GPULAB_VULKAN_ICD names another.
nvidia_icd() {
  local f
  for f in "${GPULAB_VULKAN_ICD:-}" /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
           /usr/local/nvidia/etc/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
    if [ -n "$f" ] && [ -f "$f" ]; then echo "$f"; return 0; fi
  done
  return 1
}
