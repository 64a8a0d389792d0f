#!/usr/bin/env python3
"""merge_recordings.py OUT [--base OLD.json [--drop STEP,...]] [--context-file FILE] PART.json [PART.json ...]

Joins the recordings that device-check.sh's bench steps wrote (one per step: PART is named STEP.json, e.g.
matmul.json or vulkan-decode.json) into one gpulab recording that `gpulab --open` replays: the first part's
context, every part's results in order.

  --base OLD.json     a recording from an earlier try (device-check --resume): its results come first, except
                      those of the steps named by --drop (they are being measured again). A result's step is its
                      plan, prefixed "vulkan-" when it ran on the Vulkan backend. Its machine facts (nvidia-smi,
                      toolkit, host, versions) are kept as "tryN_<key>": a resumed run may be on another machine.
  --context-file FILE lines "key<TAB>value" added to the context (the device check's step states, nvidia-smi's
                      clocks and power limit at start and end, the toolkit's version): values stay strings, so
                      the recording format is unchanged and old readers open it.

The context also gets what a reader needs to trust the numbers, lifted from the results' own provenance: the
cuBLAS and cuBLASLt versions, the cuBLASLt algorithm chosen for INT8 and FP8, the Vulkan device and driver.
Parts that are missing, empty or unreadable are named on stderr and left out (a step killed before its first save).
The output is written atomically (a temporary file beside it, then a rename).
Exit status: 0 when at least one part (or the base) was merged, 1 otherwise, 2 for bad usage."""
import json
import os
import sys
import tempfile

# provenance key of a CUDA result -> context key of the merged recording
CUDA_FACTS = {"cublas": "cuda_cublas_version", "cublaslt": "cuda_cublaslt_version", "driver": "cuda_driver_api",
              "runtime": "cuda_runtime", "cublaslt_algo_int8": "cublaslt_algo_int8",
              "cublaslt_algo_fp8": "cublaslt_algo_fp8"}
VULKAN_FACTS = {"device": "vulkan_device", "device_type": "vulkan_device_type", "driver": "vulkan_driver",
                "vendor": "vulkan_vendor", "vulkan_api": "vulkan_api_version"}


# Context keys that describe the machine and the run that measured (nvidia-smi's readings, the toolkit, the host,
# the versions lifted from the results). A resumed run may be on another lent machine: the base's facts are kept
# under "tryN_" (N = the try that measured them) instead of being overwritten by this run's.
MACHINE_FACT_PREFIXES = ("smi_", "cuda_", "vulkan_", "cublaslt_algo_", "device_check_host", "device_check_budget",
                         "gpu", "host", "cpu", "libraries", "date", "nvml_")


def is_machine_fact(key):
    return key.startswith(MACHINE_FACT_PREFIXES)


def keep_earlier_facts(ctx):
    """Moves the base's machine facts to "tryN_<key>" and returns N (1 for a first try's recording)."""
    tries = [int(k[3:k.index("_")]) for k in ctx if k.startswith("try") and "_" in k and k[3:k.index("_")].isdigit()]
    n = max(tries, default=0) + 1
    for key in [k for k in ctx if is_machine_fact(k)]:
        ctx["try%d_%s" % (n, key)] = ctx.pop(key)
    ctx["device_check_tries"] = str(n + 1)
    return n


def step_of(result):
    plan = result.get("plan") or "?"
    return ("vulkan-" + plan) if result.get("backend") == "vulkan" else plan


def read_recording(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("format") != "gpulab-recording" or not isinstance(doc.get("results"), list):
        raise ValueError("not a gpulab recording")
    return doc


def read_context_file(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or "\t" not in line:
                continue
            key, value = line.split("\t", 1)
            out[key.strip()] = value.strip()
    return out


def lift_facts(context, results):
    """Copies the versions and algorithm choices a reader needs into the context (first result that has each)."""
    for r in results:
        prov = r.get("provenance") or {}
        table = CUDA_FACTS if r.get("backend") == "cuda" else VULKAN_FACTS if r.get("backend") == "vulkan" else {}
        for src, dst in table.items():
            value = prov.get(src)
            if isinstance(value, str) and value and dst not in context:
                context[dst] = value


def parse_args(argv):
    out, base, drop, context_file, parts = None, None, set(), None, []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--base", "--drop", "--context-file"):
            if i + 1 >= len(argv):
                raise ValueError(a + " needs a value")
            value = argv[i + 1]
            i += 2
            if a == "--base":
                base = value
            elif a == "--drop":
                drop |= {s for s in value.split(",") if s}
            else:
                context_file = value
            continue
        if a.startswith("--"):
            raise ValueError("unknown option " + a)
        if out is None:
            out = a
        else:
            parts.append(a)
        i += 1
    if out is None or (not parts and base is None):
        raise ValueError("need OUT and at least one PART or --base")
    return out, base, drop, context_file, parts


def main(argv):
    try:
        out, base, drop, context_file, parts = parse_args(argv)
    except ValueError as e:
        print("merge_recordings: %s\n%s" % (e, __doc__), file=sys.stderr)
        return 2
    merged = None
    notes = []
    suites = []
    duration = 0.0
    all_complete = True
    if base is not None:
        try:
            merged = read_recording(base)
        except (OSError, ValueError) as e:
            print("merge_recordings: leaving out the base %s: %s" % (base, e), file=sys.stderr)
        if merged is not None:
            kept = [r for r in merged["results"] if step_of(r) not in drop]
            ctx = merged.setdefault("context", {})
            notes.append("from %s: %d of %d results kept%s" % (
                os.path.basename(base), len(kept), len(merged["results"]),
                " (measured again: %s)" % ", ".join(sorted(drop)) if drop else ""))
            merged["results"] = kept
            suites = [s for s in ctx.get("suite", "").split("+") if s and s not in drop]
            try:
                duration = float(ctx.get("duration_s", "0"))
            except ValueError:
                pass
            all_complete = merged.get("complete", True) is not False
            # The base's own step states are replaced by this run's (the context file says both); its machine
            # facts stay, as the earlier try's.
            ctx.pop("device_check_parts", None)
            n = keep_earlier_facts(ctx)
            notes.append("machine facts of the earlier try kept as try%d_*" % n)
    this_run = []  # the results this run measured: the facts lifted into the context are theirs
    for path in parts:
        step = os.path.splitext(os.path.basename(path))[0]
        try:
            doc = read_recording(path)
        except (OSError, ValueError) as e:
            print("merge_recordings: leaving out %s: %s" % (path, e), file=sys.stderr)
            notes.append("%s: no recording (%s)" % (step, e.__class__.__name__))
            continue
        ctx = doc.get("context", {})
        # "complete" is false for a part that was stopped or killed (a SIGKILL leaves no "cancelled" behind);
        # files from before the field existed count as complete.
        part_complete = doc.get("complete", True) is not False and "cancelled" not in ctx
        state = "complete" if part_complete else "stopped early"
        notes.append("%s: %d results, %s s, %s" % (step, len(doc["results"]),
                                                   ctx.get("duration_s", "?").split(".")[0], state))
        if merged is None:
            merged = doc
            merged["context"] = dict(ctx)
        else:
            merged["results"].extend(doc["results"])
            # This run's machine (the base's moved to tryN_ above; the first part of this run names it).
            for key, value in ctx.items():
                if is_machine_fact(key) and key not in merged["context"]:
                    merged["context"][key] = value
            if "cancelled" in ctx:
                merged["context"]["cancelled"] = ctx["cancelled"]
        this_run.extend(doc["results"])
        suites.append(step)
        all_complete = all_complete and part_complete
        try:
            duration += float(ctx.get("duration_s", "0"))
        except ValueError:
            pass
    if merged is None:
        print("merge_recordings: no part could be read", file=sys.stderr)
        return 1
    merged["complete"] = all_complete  # the whole is complete only when every part is
    c = merged["context"]
    c["suite"] = "+".join(suites) if suites else c.get("suite", "?")
    c["duration_s"] = "%.3f" % duration
    c["device_check_parts"] = "; ".join(notes)
    lift_facts(c, this_run if base is not None else merged["results"])
    if context_file:
        try:
            c.update(read_context_file(context_file))
        except OSError as e:
            print("merge_recordings: no context file %s: %s" % (context_file, e), file=sys.stderr)
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".merge-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(merged, f, indent=1, ensure_ascii=False)
            f.write("\n")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a recording is for sharing
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    print("merge_recordings: %s: %d results from %s" % (out, len(merged["results"]), c["suite"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
