#!/bin/bash
# The app's layers are enforced by the build (app/CMakeLists.txt, tools/app-layers.cmake): a file in a lower layer
# that includes a higher one does not compile. This test takes the real compile command of one source file per
# layer from compile_commands.json, swaps in a one-line file, and checks that
#   - an upward include fails with "No such file or directory" (the layer's include root does not hold it), and
#   - an include the layer may use compiles (so the failure is the layer's doing, not a broken command).
# Usage: test_layers.sh BIN_DIR SCRATCH_DIR
set -euo pipefail
bin_dir=$1
scratch=$2
build_dir=$(dirname "$bin_dir")
db="$build_dir/compile_commands.json"
# A build without the app (the sanitizer builds: GPULAB_APP=OFF) has no app layers to check.
[ "${GPULAB_APP:-1}" != 0 ] || { echo "SKIP: this build has no app (GPULAB_APP=OFF)"; exit 0; }
[ -f "$db" ] || { echo "SKIP: no $db"; exit 0; }
mkdir -p "$scratch"
src_root=$(cd "$(dirname "$0")/../.." && pwd)

python3 - "$db" "$scratch" "$src_root" <<'EOF'
import json, os, shlex, subprocess, sys

db, scratch, root = sys.argv[1:4]
entries = json.load(open(db))

def command_for(folder):
    """The compile command of the first source file under app/<folder>/ (or app/ itself for '.')."""
    for e in entries:
        rel = os.path.relpath(e["file"], os.path.join(root, "app"))
        if rel.startswith(".."):
            continue
        # A page's model (pages/<id>/model/) compiles in the models layer: "pages/model" names those files,
        # "pages" the views beside them.
        in_model = rel.startswith("pages/") and "/model/" in rel
        if folder == "pages/model":
            hit = in_model
        else:
            hit = (folder == "." and "/" not in rel) or (rel.startswith(folder + "/") and not in_model)
        if hit:
            if rel.endswith(".cpp") and not rel.startswith("main"):
                return e
    return None

def try_compile(entry, folder, include):
    """Compiles a one-line file with the layer's command. The file sits in the scratch folder: a source in
    app/<folder>/ would first look beside itself, in app/<folder>/, which holds no other layer's folders either."""
    name = os.path.join(scratch, "layer_probe_%s.cpp" % folder.replace("/", "_"))
    with open(name, "w") as f:
        f.write('#include "%s"\nint layer_probe;\n' % include)
    if True:
        args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        # Replace the source and the output; compile only.
        out = os.path.join(scratch, "probe.o")
        i = args.index("-o"); args[i + 1] = out
        args = [a for a in args if os.path.abspath(os.path.join(entry["directory"], a)) != os.path.abspath(entry["file"])]
        args += ["-fsyntax-only", name]
        if "-c" in args:
            args.remove("-c")
        if args[0].endswith("ccache"):
            args = args[1:]
        r = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
        return r.returncode, r.stderr

cases = [
    # layer folder, an include it must NOT see, an include it may use
    ("widgets", "pages/page.h", "widgets/plot_export.h"),
    ("widgets", "main_window.h", "theme.h"),
    ("widgets", "export/exporter.h", "models/measured_spread.h"),
    ("pages", "main_window.h", "widgets/plot_export.h"),
    ("pages", "export/exporter.h", "pages/page.h"),
    ("pages", "shell/presenter_keys.h", "app_context.h"),
    ("models", "widgets/plot_export.h", "models/measured_spread.h"),
    ("models", "app_context.h", "gpulab/results.hpp"),
    ("runner", "pages/page.h", "runner/result_store.h"),
    # A page's model sits in the page's folder but below its view: it sees other models, never a view or Qt widget.
    ("pages/model", "pages/batch/batch_page.h", "pages/decode/model/decode_page_model.h"),
    ("pages/model", "pages/page.h", "models/measured_spread.h"),
    ("widgets", "pages/matmul/matmul_page.h", "pages/roofline/model/roofline_model.h"),
]
failures = 0
for folder, banned, allowed in cases:
    entry = command_for(folder)
    if entry is None:
        print("FAIL: no compile command for a source in app/%s" % folder)
        failures += 1
        continue
    rc, err = try_compile(entry, folder, allowed)
    if rc != 0:
        print("FAIL: app/%s cannot include %s, which its layer may use:\n%s" % (folder, allowed, err[-800:]))
        failures += 1
    rc, err = try_compile(entry, folder, banned)
    if rc == 0:
        print("FAIL: app/%s compiled #include \"%s\": the layer does not stop an upward include" % (folder, banned))
        failures += 1
    elif (banned + ": No such file") not in err:
        print("FAIL: app/%s including %s failed for another reason:\n%s" % (folder, banned, err[-800:]))
        failures += 1
    else:
        print("ok: app/%s may include %s, and cannot include %s" % (folder, allowed, banned))
sys.exit(1 if failures else 0)
EOF
