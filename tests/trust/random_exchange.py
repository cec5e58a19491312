#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A random exchange between 2 to 5 ranks that is free of deadlock under
MPI's rules, as a simpi trace on stdout: each rank computes a little, posts
one receive per message it will get (all sizes fitting), sends its
messages (random sizes, eager and rendezvous, random tags), waits for
everything, and (odd seeds) all meet at a barrier. Each message it gets is
counted for a receive of one of three kinds, posted in this order: from
its sender with its tag, from any source with its tag, from any source
with any tag. Whatever the order in which the messages arrive, the first
posted receive matching each is then free (so no run may deadlock).
Usage: random_exchange.py SEED"""
import random
import sys

seed = int(sys.argv[1])
rng = random.Random(seed)
n = rng.randint(2, 5)
incoming = [[] for _ in range(n)]
outgoing = [[] for _ in range(n)]
for r in range(n):
    for _ in range(rng.randint(0, 6)):
        d, tag = rng.randrange(n), rng.randint(0, 2)
        outgoing[r].append((d, rng.choice([8, 100, 5000, 70000]), tag))
        incoming[d].append((r, tag))
lines = ["simpi-trace 1", f"ranks {n}"]
for r in range(n):
    req = 0
    if rng.random() < 0.5:
        lines.append(f"{r} compute {rng.randint(0, 50)}us")
    kinds = ([], [], [])  # from its sender with its tag; any source, its tag; any
    for sender, tag in incoming[r]:
        kinds[rng.randrange(3)].append((sender, tag))
    posts = [f"{s} 70000 tag={t}" for s, t in kinds[0]]
    posts += [f"any 70000 tag={t}" for _, t in kinds[1]]
    posts += ["any 70000 tag=any" for _ in kinds[2]]
    for p in posts:
        lines.append(f"{r} irecv {p} req={req}")
        req += 1
        if rng.random() < 0.3:
            lines.append(f"{r} compute {rng.randint(0, 20)}us")
    for d, size, tag in outgoing[r]:
        lines.append(f"{r} isend {d} {size} tag={tag} req={req}")
        req += 1
        if rng.random() < 0.3:
            lines.append(f"{r} compute {rng.randint(0, 20)}us")
    lines.append(f"{r} waitall")
    if seed % 2:
        lines.append(f"{r} barrier")
print("\n".join(lines))
