#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One vocabulary (issue 70): every key simpi's JSON documents hold is
listed in docs/json.md with its unit. Runs the commands that write JSON
(a replay with the critical path and intervals, flow contention on a fat
tree, a sweep, jobs, fault draws, a split replay, the sensitivity table, a
failed run, simpi topo, on-line runs measured and repeated), collects every
key path (objects' keys joined by '.', a list's elements as '[]'), and
fails for each path docs/json.md does not list; and for each path the
documentation lists that no document held (a key documented but never
written). Usage: json_keys.py BUILD SOURCE [--print]"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import check, fail, finish, skip  # noqa: E402

build, src = (os.path.abspath(a) for a in sys.argv[1:3])
simpi = os.path.join(build, "simpi")
halo = os.path.join(src, "examples", "traces", "halo2d.trace")
fat_tree = os.path.join(src, "examples", "platforms", "fat-tree-k4.yaml")
jobs = os.path.join(src, "examples", "jobs", "two-jobs.yaml")

# the keys of an object whose keys are data (a sweep point's platform keys)
# stand as '*'; a collective's name as '<collective>'
DYNAMIC = {"set"}
COLLECTIVES = {"barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather",
               "alltoall", "reduce_scatter", "scan", "exscan"}


def paths(value, prefix, out):
    """Every key path in value, into out (a set)."""
    if isinstance(value, dict):
        for k, v in value.items():
            name = ("*" if prefix.rsplit(".", 1)[-1] in DYNAMIC else
                    "<collective>" if k in COLLECTIVES else k)
            p = prefix + "." + name if prefix else name
            out.add(p)
            paths(v, p, out)
    elif isinstance(value, list):
        for v in value:
            paths(v, prefix + "[]", out)


def documented():
    """The key paths docs/json.md's tables list (their first column)."""
    keys = set()
    for line in open(os.path.join(src, "docs", "json.md")):
        m = re.match(r"\| `([^`]+)` \|", line)
        if m:
            keys.add(m.group(1))
    return keys


def run(tmp, name, args, expect_rc=(0,)):
    """simpi ARGS with --json tmp/name.json; the document (None if absent)."""
    out = os.path.join(tmp, name + ".json")
    # (simpi run: its options before the program)
    r = subprocess.run([simpi, args[0], "--json", out] + args[1:], cwd=tmp, capture_output=True,
                       text=True)
    if r.returncode not in expect_rc:
        fail("%s: exit %d: %s" % (name, r.returncode, r.stderr[-300:]))
        return None
    try:
        return json.load(open(out))
    except (OSError, ValueError) as e:
        fail("%s: no JSON (%s)" % (name, e))
        return None


def main():
    if not os.access(simpi, os.X_OK):
        skip("no simpi in " + build)
    found = set()
    with tempfile.TemporaryDirectory() as tmp:
        heat = os.path.join(tmp, "heat")
        cc = subprocess.run([os.path.join(build, "simpicc"), "-O2", "-o", heat,
                             os.path.join(src, "examples", "heat", "heat.c")], capture_output=True, text=True)
        check(cc.returncode == 0, "heat built with simpicc")
        stencils = []
        for n in (4, 9, 16):
            stencils.append(os.path.join(tmp, "st%d.trace" % n))
            subprocess.run([simpi, "gen", "stencil", "--ranks", str(n), "--iters", "2", "-o",
                            stencils[-1]], check=True)
        a2av = []  # alltoallv with uneven counts: their band
        for n in (4, 8, 16):
            a2av.append(os.path.join(tmp, "v%d.trace" % n))
            with open(a2av[-1], "w") as t:
                t.write("simpi-trace 1\nranks %d\n" % n)
                for r in range(n):
                    counts = ",".join(str(64 + (8 if q % 2 else -8)) for q in range(n))
                    t.write("%d compute 1us\n%d alltoallv 64 send=%s recv=%s\n" % (r, r, counts, counts))
        rings = []  # sends whose sizes alternate from one repetition to the next: their band
        for n in (4, 6, 8):
            rings.append(os.path.join(tmp, "ring%d.trace" % n))
            with open(rings[-1], "w") as t:
                t.write("simpi-trace 1\nranks %d\n" % n)
                for r in range(n):
                    for i in range(n):
                        t.write("%d irecv %d %d req=0\n" % (r, (r - 1) % n, 1000 + 200 * ((r - 1 + i) % 2)))
                        t.write("%d isend %d %d req=1\n%d waitall\n" % (r, (r + 1) % n, 1000 + 200 * ((r + i) % 2), r))
                        t.write("%d compute 10us\n" % r)
        solver = []  # iterations to a tolerance: 30, 31, 30 (the data's): their share moved
        for n, iters in ((4, 30), (9, 31), (16, 30)):
            solver.append(os.path.join(tmp, "tol%d.trace" % n))
            subprocess.run([simpi, "gen", "stencil", "--ranks", str(n), "--iters", str(iters), "-o",
                            solver[-1]], check=True)
        steps = []  # time steps run 15, 22, 30 times (a P^1/2 law, roughly): their band
        for n, iters in ((4, 15), (9, 22), (16, 30)):
            steps.append(os.path.join(tmp, "steps%d.trace" % n))
            subprocess.run([simpi, "gen", "stencil", "--ranks", str(n), "--iters", str(iters), "-o",
                            steps[-1]], check=True)
        cases = [
            ("replay", ["replay", "-q", "--critical-path", halo]),
            ("flow", ["replay", "-q", "--platform", fat_tree, "--set", "network.contention=flow", halo]),
            ("sweep", ["replay", "-q", "--set", "inter.latency=1us,2us", halo]),
            ("jobs", ["replay", "-q", "--jobs", jobs]),
            ("seeds", ["replay", "-q", "--set", "ranks_per_node=1", "--fault",
                       "kind=random,target=nodes,mtbf=1ms", "--seeds", "3", halo], (0, 1)),
            ("split", ["replay", "-q", "--procs", "2", "--procs-exact", "--set", "ranks_per_node=1", halo]),
            ("sensitivity", ["replay", "-q", "--sensitivity", "2", halo]),
            ("extrapolated", ["replay", "-q", "--extrapolate", "64"] + stencils),
            ("extrapolated-counts", ["replay", "-q", "--extrapolate", "32"] + a2av),
            ("extrapolated-sizes", ["replay", "-q", "--extrapolate", "16"] + rings),
            ("extrapolated-aligned", ["replay", "-q", "--extrapolate", "64"] + solver),
            ("extrapolated-iterations", ["replay", "-q", "--extrapolate", "64"] + steps),
            ("failed", ["replay", "-q", os.path.join(tmp, "absent.trace")], (1,)),
            ("topo", ["topo", "--platform", fat_tree]),
            ("online", ["run", "-n", "4", "-q", heat, "64"]),
            ("repeat", ["run", "-n", "2", "-q", "--repeat", "2", heat, "32"]),
            ("online-ignore", ["run", "-n", "2", "-q", "--cpu=ignore", heat, "32"]),
        ]
        for case in cases:
            name, args = case[0], case[1]
            doc = run(tmp, name, args, *case[2:])
            if doc is not None:
                paths(doc, "", found)
    listed = documented()
    if "--print" in sys.argv:
        print("\n".join(sorted(found)))
    missing = sorted(found - listed)
    for p in missing:
        fail("docs/json.md does not list the key %s" % p)
    check(not missing, "every one of the %d key paths written is in docs/json.md" % len(found))
    unwritten = sorted(listed - found)
    for p in unwritten:
        fail("docs/json.md lists %s, which no document here held" % p)
    check(not unwritten, "every one of the %d keys docs/json.md lists was written" % len(listed))
    finish("json keys")


main()
