"""List the import cycles among the project's modules.

    .venv/bin/python tools/import_cycles.py [PACKAGE ...]   (default: annotations transcripts)

Builds the import graph with grimp (what import-linter uses: imports inside functions
count, ``TYPE_CHECKING`` ones too), finds its strongly connected components, and prints
each component that holds a module of the named packages, with the modules that import
each other directly and one chain around it. Exits 1 when it found a cycle, 0 otherwise.
"""

import sys
from pathlib import Path

import grimp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root

ROOTS = ("engine", "anonreview", "transcripts", "annotations")


def components(graph) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def main(packages: list[str]) -> int:
    graph = grimp.build_graph(*ROOTS)
    cycles = [
        members
        for members in components(graph)
        if any(m == p or m.startswith(p + ".") for m in members for p in packages)
    ]
    for members in cycles:
        print(f"cycle of {len(members)} modules: {', '.join(members)}")
        pairs = sorted(
            (a, b)
            for a in members
            for b in graph.find_modules_directly_imported_by(a)
            if a < b and a in graph.find_modules_directly_imported_by(b)
        )
        for a, b in pairs:
            print(f"  {a} <-> {b}")
        first, second = members[0], members[1]
        there = graph.find_shortest_chain(first, second)
        back = graph.find_shortest_chain(second, first)
        print("  e.g. " + " -> ".join([*there, *back[1:]]))
    if not cycles:
        print(f"no import cycles in {', '.join(packages)}")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["annotations", "transcripts"]))
