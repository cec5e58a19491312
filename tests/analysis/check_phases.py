#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the interval characteristics of phases.trace (replayed with
T(S) = 10 us + S x 10 ns between four nodes, a dissemination barrier)
against values worked out by hand. Usage: check_phases.py REPORT.json

solve: ranks enter at 0 and compute 100, 200, 300, 400 us, then the barrier.
  Round 1 (r sends to r+1, T(0) = 10 us): done at max(entry, entry of r-1 + 10)
  = 410, 200, 300, 400; round 2 (r to r+2): r0 max(410, 300+10) = 410,
  r1 max(200, 400+10) = 410, r2 max(300, 410+10) = 420, r3 max(400, 200+10) = 400.
  exec = 410, 410, 420, 400; T = 420; cpu = 1000 us in all, max 400.
  idle = 10+10+0+20 = 40; imbalance = 300+200+100+0 = 600;
  barrier = 310+210+120+0 = 640; sync loss = last entry 400 - entries = 600;
  lost = 4 x 420 - 1000 = 680 = idle + barrier; efficiency = 1000 / 1680;
  spread of the barrier's completion = 420 - 400 = 20.
exchange (entered at 410, 410, 420, 400): rank 1 sends 100000 B (rendezvous)
  to rank 0, both compute 50 us then wait: matched at max(410, 410 + 10) = 420,
  data done at 420 + 10 + (10 + 1000) = 1440. Waits 460 -> 1440 = 980 each;
  overlap 50 each (the computation inside the transfer). Nested 'late':
  rank 2 receives 8 B from rank 3, which computes 100 us first: rank 2 waits
  470 -> 550 + 10.08 = 560.08 (sync loss 550 - 470 = 80), rank 3 ends at 550.
  exchange exec = 1030, 1030, 140.08, 150; T = 1030; cpu = 50, 50, 50, 150;
  idle = 0 + 0 + 889.92 + 880 = 1769.92; imbalance = 100 x 3 = 300;
  p2p = 980 + 980 + 90.08 = 2050.08; lost = 4 x 1030 - 300 = 3820.
late: exec = 0, 0, 90.08, 100; T = 100; cpu 100; idle = 100 + 100 + 9.92 = 209.92;
  lost = 400 - 100 = 300; efficiency 0.25.
whole program: finish = 1440, 1440, 560.08, 550; cpu = 150, 250, 350, 550;
  lost = 4 x 1440 - 1300 = 4460; efficiency = 1300 / 5760."""
import json
import sys

US = 1e-6
d = json.load(open(sys.argv[1]))
iv = {i["name"]: i for i in d["intervals"]}
fails = 0


def near(what, got, want):
    global fails
    if abs(got - want) > 1e-9 * max(1.0, abs(want)) + 1e-15:
        print(f"FAIL {what}: got {got!r}, expected {want!r}")
        fails += 1


def check(name, **want):
    for k, v in want.items():
        if k.startswith("rank_"):
            field = k[5:]
            for r, x in enumerate(v):
                near(f"{name}.{field}[{r}]", iv[name]["per_rank"][field][r], x)
        else:
            near(f"{name}.{k}", iv[name][k], v)


check("solve", entries=4, time=420 * US, cpu=1000 * US, idle=40 * US, imbalance=600 * US,
      sync_loss=600 * US, lost=680 * US, efficiency=1000 / 1680, comm=640 * US, overlap=0,
      collective_calls=1, rank_time=[410 * US, 410 * US, 420 * US, 400 * US],
      rank_barrier=[310 * US, 210 * US, 120 * US, 0])
near("solve spread", iv["solve"]["collective_spread"]["total"], 20 * US)
near("solve barrier", iv["solve"]["collectives"]["barrier"], 640 * US)
check("exchange", time=1030 * US, cpu=300 * US, idle=1769.92 * US, imbalance=300 * US,
      p2p=2050.08 * US, lost=3820 * US, overlap=100 * US, sync_loss=80 * US,
      efficiency=300 / 4120, rank_overlap=[50 * US, 50 * US, 0, 0])
check("late", time=100 * US, cpu=100 * US, idle=209.92 * US, lost=300 * US, efficiency=0.25,
      sync_loss=80 * US, rank_time=[0, 0, 90.08 * US, 100 * US])
check("whole program", time=1440 * US, cpu=1300 * US, lost=4460 * US, efficiency=1300 / 5760,
      idle=(0 + 0 + 879.92 + 890) * US, sync_loss=680 * US, overlap=100 * US)
if iv["late"]["parent"] != iv["exchange"]["id"] or iv["exchange"]["parent"] != 0:
    print("FAIL the tree: late is not inside exchange inside the whole program")
    fails += 1
# the dissemination barrier's messages (r to r+1, then r to r+2), the
# exchange's 100000 B from 1 to 0 and the late 8 B from 3 to 2
m = d["matrix"]
want_msgs = [0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0]
want_bytes = [0] * 16
want_bytes[1 * 4 + 0], want_bytes[3 * 4 + 2] = 100000, 8
if m["groups"] != 4 or m["messages"] != want_msgs or m["bytes"] != want_bytes:
    print("FAIL communication matrix: %s" % m)
    fails += 1
if d["unbalanced_intervals"] != 0:
    print("FAIL unbalanced intervals reported for a balanced trace")
    fails += 1
sys.exit(1 if fails else 0)
