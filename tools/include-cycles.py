#!/usr/bin/env python3
"""Prints the include cycles between files of app/ and gpu/; exits 1 when there is one (issue 25).

A node is a file name without its extension, so x.h, x.hpp, x.cpp and x.cu are one node: a header and its source
are one unit to whoever reads them, and a cycle through the .cpp (a.cpp includes b.h, b.cpp includes a.h) couples
the two units as tightly as one through the headers. Only `#include "..."` lines count; one is resolved as the
compiler would find it: beside the including file, then under the include roots the build gives (app/, gpu/include/,
gpu/), then the repository root. An include that resolves to no file of the tree (a generated or system header) is
left out.

Usage: include-cycles.py [REPO_ROOT] [--dirs app gpu]
"""
import argparse
import os
import re
import sys

SOURCE_EXTS = (".h", ".hpp", ".cpp", ".cu", ".cuh", ".inl")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files_under(root, dirs):
    for d in dirs:
        for folder, _, names in os.walk(os.path.join(root, d)):
            for name in names:
                if name.endswith(SOURCE_EXTS):
                    yield os.path.relpath(os.path.join(folder, name), root)


def node_of(path):
    return os.path.splitext(path)[0]


def build_graph(root, dirs):
    files = set(files_under(root, dirs))
    include_roots = ["app", "gpu/include", "gpu", ""]
    graph = {}
    for f in sorted(files):
        src = node_of(f)
        graph.setdefault(src, set())
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            candidates = [os.path.join(os.path.dirname(f), inc)] + [os.path.join(r, inc) for r in include_roots]
            target = next((os.path.normpath(c) for c in candidates if os.path.normpath(c) in files), None)
            if target is None:
                continue
            dst = node_of(target)
            if dst != src:  # x.cpp including x.h is the node itself
                graph[src].add(dst)
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm, iterative (the graph has ~1000 nodes; recursion would do, but needs no limit this way)."""
    index, low, on_stack, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def one_cycle(graph, component):
    """A shortest cycle through the component's first node, for the message (breadth-first inside the component)."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in previous:
                previous[w] = v
                queue.append(w)
    return component


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--dirs", nargs="+", default=["app", "gpu"])
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    graph = build_graph(root, args.dirs)
    cycles = strongly_connected(graph)
    edges = sum(len(v) for v in graph.values())
    print(f"include graph of {' '.join(args.dirs)}: {len(graph)} nodes, {edges} edges, {len(cycles)} cycle(s)")
    for component in cycles:
        print(f"cycle among {len(component)} files: " + " -> ".join(one_cycle(graph, component)))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
