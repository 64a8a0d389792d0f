#!/usr/bin/env python3
"""Does the CUDA module still compile with CUDA 12.0? A check that needs no CUDA toolkit.

CI builds the module with one toolkit (13.0); a name that toolkit declares but 12.x did not (cudaErrorTensorMemoryLeak
appeared in 12.8) compiles there and breaks every teacher's older toolkit. So this script derives, from the module's
sources, every CUDA runtime, cuBLAS, cuBLASLt, library-type and FP8/FP16/BF16 name they use, and checks each against
cuda-12.0-names.txt (the names CUDA 12.0 declares, with the version that added each; see that file for its source).
A name newer than 12.0 is allowed only inside a version guard at least as new as the name, e.g.

    #if CUDART_VERSION >= 12080
    static_assert(cudaErrorTensorMemoryLeak == 721);
    #endif

Usage: check_cuda_names.py SOURCE_DIR NAMES_FILE   (exit 0: every name is in 12.0 or guarded; 1: not)
       check_cuda_names.py --selftest               (the scanner's own rules, on small snippets)
"""
import os
import re
import sys

# The families of names the module takes from CUDA's headers. Project names (gpulab::cuda::..., GPULAB_*) never match.
NAME = re.compile(
    r"\b(cuda[A-Z]\w*|cublas[A-Z]\w*|CUBLAS(?:LT)?_[A-Z0-9_]+|CUDA_[RC]_\w+|CUDART_VERSION"
    r"|__nv_\w+|__NV_\w+|__half\w*|__float2half\w*|__float2bfloat16\w*|__bfloat16\w*"
    r"|MAJOR_VERSION|MINOR_VERSION|PATCH_LEVEL)\b")
# A conditional that enables its branch only from some toolkit version on.
GUARD = re.compile(r"\b(CUDART_VERSION|CUDA_VERSION|CUBLAS_VERSION|CUBLASLT_VERSION)\s*>=?\s*(\d+)")
PROP_DECL = re.compile(r"\bcudaDeviceProp\s+(\w+)")
SOURCE_EXT = (".cpp", ".cu", ".hpp", ".h", ".cuh")


def version_of_guard(macro, number):
    """(major, minor) a guard's number stands for: CUDART_VERSION 12080 is 12.8, CUBLAS_VERSION 120100 is 12.1."""
    n = int(number)
    if macro in ("CUBLAS_VERSION", "CUBLASLT_VERSION"):
        return (n // 10000, (n // 100) % 100)
    return (n // 1000, (n % 1000) // 10)


def parse_version(text):
    if text == "-":
        return (0, 0)  # older than the oldest version the source tracks
    major, minor = text.split(".")[:2]
    return (int(major), int(minor))


def strip_comments_and_strings(text):
    """The text with comments and string/char literals blanked (newlines kept, so line numbers stay right)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def scan(text):
    """[(name, line, guard_version or None)] for every CUDA name in one file's text."""
    found = []
    # Each open conditional: the version its current branch guarantees (None when it guarantees none).
    stack = []
    props = set(PROP_DECL.findall(strip_comments_and_strings(text)))
    lines = strip_comments_and_strings(text).split("\n")
    for number, line in enumerate(lines, 1):
        if re.match(r"\s*#\s*include\b", line):
            continue  # a header's file name (cublasLt.h) is not a name the code uses
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
        if directive:
            kind, rest = directive.groups()
            guard = GUARD.search(rest)
            here = version_of_guard(*guard.groups()) if guard and kind in ("if", "elif") else None
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(here)
            elif kind == "elif" and stack:
                stack[-1] = here
            elif kind == "else" and stack:
                stack[-1] = None  # the older toolkits' branch: what is in it must be in 12.0
            elif kind == "endif" and stack:
                stack.pop()
            continue
        guards = [g for g in stack if g is not None]
        guard = max(guards) if guards else None
        for m in NAME.finditer(line):
            found.append((m.group(1), number, guard))
        for var in props:
            for m in re.finditer(r"\b%s\s*\.\s*(\w+)" % re.escape(var), line):
                found.append(("cudaDeviceProp::" + m.group(1), number, guard))
    return found


def load_names(path):
    """{name: (major, minor) added} from the list file."""
    names = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            names[parts[0]] = parse_version(parts[1] if len(parts) > 1 else "-")
    return names


def problems_in(files, names):
    """One message per use of a name that CUDA 12.0 lacks and no sufficient guard covers."""
    problems = []
    for path, text in files:
        for name, line, guard in scan(text):
            where = "%s:%d" % (path, line)
            if name not in names:
                if guard is None:
                    problems.append("%s: %s is not in the CUDA 12.0 list: find the version that added it (see the "
                                    "list's source) and add it there, or guard its use by that version" % (where, name))
                continue
            added = names[name]
            if added <= (12, 0):
                continue
            if guard is None:
                problems.append("%s: %s needs CUDA %d.%d but the module builds with 12.0: put it under "
                                "#if CUDART_VERSION >= %d" % (where, name, added[0], added[1],
                                                              added[0] * 1000 + added[1] * 10))
            elif guard < added:
                problems.append("%s: %s needs CUDA %d.%d but its guard only asks for %d.%d" %
                                (where, name, added[0], added[1], guard[0], guard[1]))
    return problems


def read_sources(root):
    files = []
    for folder, _, entries in os.walk(root):
        for e in sorted(entries):
            if e.endswith(SOURCE_EXT):
                path = os.path.join(folder, e)
                with open(path, encoding="utf-8") as f:
                    files.append((os.path.relpath(path, root), f.read()))
    return files


def selftest():
    names = {"cudaMalloc": (0, 0), "cudaErrorTensorMemoryLeak": (12, 8), "CUBLAS_COMPUTE_32F": (11, 0),
             "cudaDeviceProp": (0, 0), "cudaDeviceProp::major": (0, 0)}
    cases = [
        ("old name", "void f(){ cudaMalloc(0,0); }", 0),
        ("new name unguarded", "int x = cudaErrorTensorMemoryLeak;", 1),
        ("new name guarded", "#if CUDART_VERSION >= 12080\nint x = cudaErrorTensorMemoryLeak;\n#endif", 0),
        ("guard too old", "#if CUDART_VERSION >= 12020\nint x = cudaErrorTensorMemoryLeak;\n#endif", 1),
        ("else branch is the old toolkits'", "#if CUDART_VERSION >= 12080\n#else\nint x = cudaErrorTensorMemoryLeak;\n#endif", 1),
        ("cuBLAS version guard", "#if CUBLAS_VERSION >= 120800\nint x = cudaErrorTensorMemoryLeak;\n#endif", 0),
        ("in a comment or a string", "// cudaErrorTensorMemoryLeak\nconst char* s = \"cudaFooNew\";", 0),
        ("unknown name", "cudaFooNew();", 1),
        ("unknown name guarded", "#if CUDART_VERSION >= 13000\ncudaFooNew();\n#endif", 0),
        ("device property", "cudaDeviceProp prop{}; int a = prop.major; int b = prop.clockRate;", 1),
        ("nested guard closes", "#if CUDART_VERSION >= 12080\n#ifdef X\n#endif\n#endif\nint x = cudaErrorTensorMemoryLeak;", 1),
    ]
    failed = 0
    for label, text, want in cases:
        got = len(problems_in([("t.cpp", text)], names))
        ok = got == want
        failed += not ok
        print("%s selftest: %s (%d problem(s), expected %d)" % ("ok  " if ok else "FAIL", label, got, want))
    return failed


def main(argv):
    if len(argv) == 2 and argv[1] == "--selftest":
        return 1 if selftest() else 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    names = load_names(argv[2])
    files = read_sources(argv[1])
    used = sorted({n for _, text in files for n, _, _ in scan(text)})
    problems = problems_in(files, names)
    for p in problems:
        print("FAIL " + p)
    print("%d source files, %d distinct CUDA names used, %d against CUDA 12.0: %s" %
          (len(files), len(used), len(problems), "ok" if not problems else "see above"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
