#!/usr/bin/env python3
"""Prints every include of an operating system's header outside the platform layer; exits 1 when there is one.

What differs between Linux and Windows (loading a library, CPU and memory facts, the clock, thread affinity, stop
signals, durable file writes) lives in gpu/platform/, behind gpulab/platform.hpp (docs/platforms.md). Every other
file of gpu/ and app/ is portable C++ and Qt: a POSIX, Linux or Windows header there is a Windows (or macOS) build
broken by a change that built fine on Linux. The other places allowed are gpu/cuda_emu/, the CUDA emulator, which
is Linux-only by design (its fibers are ucontext, its tracer reads ELF program headers; gpulab/platform.hpp says so),
and the lab's child process and runner, which run its kernels.

Usage: platform-includes.py [REPO_ROOT] [--dirs gpu app]
"""
import argparse
import os
import re
import sys

SOURCE_EXTS = (".h", ".hpp", ".cpp", ".cu", ".cuh", ".inl", ".c")
# The places allowed to include them, relative to the repository root.
# The lab's child process and its runner host the emulator's kernels, so they are Linux-only with it; the Windows
# build compiles gpu/lab/child_process_windows.cpp instead and says so (gpu/lab/CMakeLists.txt).
ALLOWED = ("gpu/platform/", "gpu/cuda_emu/", "gpu/lab/runner/", "gpu/lab/child_process.cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)

# POSIX headers that ISO C and C++ do not have, Linux's own, and Windows'. Signals are the platform layer's too
# (sigaction, the console's control handler), so <csignal> and <signal.h> count.
POSIX = {
    "unistd.h", "dlfcn.h", "fcntl.h", "pthread.h", "sched.h", "signal.h", "csignal", "poll.h", "termios.h",
    "spawn.h", "dirent.h", "pwd.h", "grp.h", "semaphore.h", "strings.h", "syslog.h", "netdb.h", "ucontext.h",
    "elf.h", "link.h", "execinfo.h", "malloc.h", "alloca.h", "cpuid.h", "features.h", "getopt.h", "libgen.h",
    "glob.h", "fnmatch.h", "wordexp.h", "sys/types.h",
}
WINDOWS = {
    "windows.h", "winbase.h", "windef.h", "winnt.h", "winuser.h", "winreg.h", "winsock2.h", "ws2tcpip.h",
    "psapi.h", "processthreadsapi.h", "sysinfoapi.h", "synchapi.h", "libloaderapi.h", "fileapi.h", "handleapi.h",
    "io.h", "direct.h", "process.h", "conio.h", "intrin.h", "shlobj.h", "shellapi.h", "tlhelp32.h", "dbghelp.h",
}
PREFIXES = ("sys/", "linux/", "asm/", "bits/", "arpa/", "netinet/", "mach/", "mach-o/")


def os_header(name):
    lower = name.lower()
    return lower in POSIX or lower in WINDOWS or lower.startswith(PREFIXES)


def offenders(root, dirs):
    for d in dirs:
        for folder, _, names in os.walk(os.path.join(root, d)):
            for name in sorted(names):
                if not name.endswith(SOURCE_EXTS):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if rel.startswith(ALLOWED):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    if os_header(m.group(1)):
                        line = text.count("\n", 0, m.start()) + 1
                        yield f"{rel}:{line}: includes <{m.group(1)}>"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--dirs", nargs="+", default=["gpu", "app"])
    args = parser.parse_args()
    found = list(offenders(os.path.abspath(args.root), args.dirs))
    for line in found:
        print(line)
    if found:
        print(f"platform-includes: {len(found)} include(s) of an operating system's header outside gpu/platform/: "
              "add what you need to gpulab/platform.hpp, with its Linux and Windows versions side by side")
        return 1
    print("platform-includes: no operating system header outside gpu/platform/ (and the Linux-only gpu/cuda_emu/)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
