#!/bin/bash
# Adding a page is copying a neighbour's two places and renaming (docs/page-authoring.md): this test does exactly
# that with the many-GPUs page, the simplest one with every part, and shows the copy becomes a page and a suite
# without a line changed anywhere else.
#   1. copies app/pages/multigpu/ and gpu/experiments/plans/multigpu.{hpp,cpp} to a scratch tree as "probe"
#      (MultiGpu -> Probe, multigpu -> probe, in names and text);
#   2. compiles each copied file with its neighbour's own compile command from compile_commands.json, so the model
#      compiles in the models layer (an upward include would fail) and the view in the pages layer;
#   3. indexes the plan files the way the build does (cmake/plans_index.cmake over plans/*.cpp plus the copy) and
#      links the copy into the app with gpulab's own link command;
#   4. runs that app: `export --list` shows a page "probe" and `bench --list` a suite "probe".
# Usage: test_page_from_copy.sh BIN_DIR SCRATCH_DIR
set -euo pipefail
bin_dir=$(cd "$1" && pwd)
scratch=$2
build_dir=$(dirname "$bin_dir")
src_root=$(cd "$(dirname "$0")/../.." && pwd)
db="$build_dir/compile_commands.json"
[ "${GPULAB_APP:-1}" != 0 ] || { echo "SKIP: this build has no app (GPULAB_APP=OFF)"; exit 0; }
[ -f "$db" ] && [ -x "$bin_dir/gpulab" ] || { echo "SKIP: no app build with $db here"; exit 0; }
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

python3 - "$db" "$src_root" "$build_dir" "$scratch" <<'EOF'
import glob, json, os, re, shlex, shutil, subprocess, sys

db, root, build, scratch = sys.argv[1:5]
entries = {os.path.realpath(e["file"]): e for e in json.load(open(db))}

def renamed(text):
    return text.replace("MultiGpu", "Probe").replace("multigpu", "probe")

# 1. The copy: the page's folder and its plan, renamed.
copies = []  # (copied file, the original it came from)
src_app = os.path.join(scratch, "src", "app")
src_plans = os.path.join(scratch, "src", "plans")
for original in sorted(glob.glob(os.path.join(root, "app/pages/multigpu/**/*.*"), recursive=True)):
    rel = os.path.relpath(original, os.path.join(root, "app"))
    copy = os.path.join(src_app, renamed(rel))
    copies.append((copy, original))
for original in sorted(glob.glob(os.path.join(root, "gpu/experiments/plans/multigpu.*"))):
    copies.append((os.path.join(src_plans, "plans", renamed(os.path.basename(original))), original))
for copy, original in copies:
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    open(copy, "w").write(renamed(open(original).read()))
print("copied %d files" % len(copies))

def run(args, cwd):
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: %s\n%s%s" % (" ".join(args)[:400], r.stdout[-1500:], r.stderr[-3000:]))
        sys.exit(1)
    return r.stdout

def compile_like(original, source, obj, extra_includes):
    """Compiles `source` with the compile command of `original`, plus include roots for the copy."""
    e = entries.get(os.path.realpath(original))
    if e is None:
        print("FAIL: no compile command for %s" % original)
        sys.exit(1)
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    if os.path.basename(args[0]) == "ccache":
        args = args[1:]
    args = [a for a in args if os.path.realpath(os.path.join(e["directory"], a)) != os.path.realpath(e["file"])]
    args[args.index("-o") + 1] = obj
    args += ["-I" + inc for inc in extra_includes] + ["-c", source]
    run(args, e["directory"])
    return obj

# 2. Compile each copied source with its neighbour's command; the page's header also goes through moc.
# The model sees only its own folder of the copy (as the models layer's root holds only models' folders).
model_root = os.path.join(scratch, "model_root")
os.makedirs(os.path.join(model_root, "pages", "probe"))
os.symlink(os.path.join(src_app, "pages", "probe", "model"), os.path.join(model_root, "pages", "probe", "model"))
objects = []
for copy, original in copies:
    if copy.endswith(".cpp"):
        roots = [model_root, src_plans] if "/model/" in copy else [src_app, src_plans]
        objects.append(compile_like(original, copy, copy + ".o", roots))
page_cpp = os.path.join(root, "app/pages/multigpu/multigpu_page.cpp")
moc_out = os.path.join(scratch, "moc_probe_page.cpp")
run(["/usr/lib/qt6/libexec/moc" if os.path.exists("/usr/lib/qt6/libexec/moc") else "moc",
     os.path.join(src_app, "pages/probe/probe_page.h"), "-o", moc_out], scratch)
objects.append(compile_like(page_cpp, moc_out, moc_out + ".o", [src_app, src_plans]))

# 3. The plan index over the real plan files and the copy, written by the build's own CMake code.
plan_files = sorted(glob.glob(os.path.join(root, "gpu/experiments/plans/*.cpp")))
plan_files.append(os.path.join(src_plans, "plans", "probe.cpp"))
index = os.path.join(scratch, "plans_index.cpp")
run(["cmake", "-DOUTPUT=" + index, "-DPLAN_SOURCES=" + ";".join(plan_files), "-P",
     os.path.join(root, "cmake/plans_index.cmake")], scratch)
objects.append(compile_like(os.path.join(root, "gpu/experiments/suite_registry.cpp"), index, index + ".o", []))

# The app's link command, with the copy's objects first: the index replaces the build's own (which stays unused
# in the core's archive), and the probe page registers itself like every page.
commands = run(["ninja", "-C", build, "-t", "commands", "bin/gpulab"], build).strip().split("\n")
# Ninja's link line is "[cd DIR &&] : && <link> && :" (the empty pre- and post-link steps): keep the link itself.
link_dir = build
parts = [p.strip() for p in commands[-1].split(" && ")]
if parts[0].startswith("cd "):
    link_dir = os.path.join(build, parts.pop(0)[3:].strip())
link = next(p for p in parts if " -o " in p)
args = shlex.split(link)
if os.path.basename(args[0]) == "ccache":
    args = args[1:]
args[args.index("-o") + 1] = os.path.join(scratch, "gpulab-probe")
args[1:1] = objects
run(args, link_dir)
print("linked %s" % os.path.join(scratch, "gpulab-probe"))
EOF

export QT_QPA_PLATFORM=offscreen GPULAB_NO_SETTINGS=1
pages=$("$scratch/gpulab-probe" export --list)
suites=$("$scratch/gpulab-probe" bench --list)
fail=0
grep -q "^probe	" <<<"$pages" || { echo "FAIL: the copied page is not in export --list"; fail=1; }
grep -q "^probe " <<<"$suites" || { echo "FAIL: the copied plan's suite is not in bench --list"; fail=1; }
grep -q "^multigpu	" <<<"$pages" || { echo "FAIL: the neighbour page went missing"; fail=1; }
[ $fail = 0 ] && echo "ok: a page copied from multigpu and renamed is a page (export --list) and a suite (bench --list)"
exit $fail
