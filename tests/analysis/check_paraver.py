#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reads back the Paraver trace of phases.trace (PREFIX.prv, .pcf, .row) as
the Paraver viewer would and checks it: the header, records sorted by time,
every message of the run as one communication record with the times of
check_phases.py, states and events per rank.
Usage: check_paraver.py PREFIX REPORT.json"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import harness  # noqa: E402
from harness import fail  # noqa: E402

prefix, report = sys.argv[1], json.load(open(sys.argv[2]))

lines = open(prefix + ".prv").read().splitlines()
m = re.match(r"#Paraver \(\d\d/\d\d/\d\d at \d\d:\d\d\):(\d+)_ns:(\d+)\(([\d,]+)\):1:(\d+)\(([\d:,]+)\)$",
             lines[0])
if not m:
    fail("header: " + lines[0])
    sys.exit(1)
if int(m.group(1)) != 1440000 or m.group(2) != "4" or m.group(4) != "4":
    fail("header figures: " + lines[0])
if m.group(5) != "1:1,1:2,1:3,1:4":
    fail("tasks' nodes: " + m.group(5))
recs = [list(map(int, line.split(":"))) for line in lines[1:]]
times = [r[5] for r in recs]
if times != sorted(times):
    fail("records are not sorted by time")
states = [r for r in recs if r[0] == 1]
events = [r for r in recs if r[0] == 2]
comms = [r for r in recs if r[0] == 3]
if len(states) + len(events) + len(comms) != len(recs):
    fail("records of unknown types")
if len(comms) != report["simulation"]["messages"]:
    fail(f"{len(comms)} communication records for {report['simulation']['messages']} messages")
for c in comms:
    if len(c) != 15 or not (c[5] <= c[6] <= c[12] and c[11] <= c[12]):
        fail("communication record times out of order: %s" % c)
big = [c for c in comms if c[13] == 100000]
# task 2 (rank 1) to task 1 (rank 0): logical send 410 us, physical send once
# matched and cleared 430 us, logical receive 410 us, arrival 1440 us
if len(big) != 1 or big[0][3] != 2 or big[0][9] != 1 or big[0][5:7] != [410000, 430000] or \
        big[0][11:13] != [410000, 1440000]:
    fail("the 100000-byte message: %s" % big)
running = {}
for s in states:
    if s[7] == 1:
        running[s[3]] = running.get(s[3], 0) + s[6] - s[5]
if running != {1: 150000, 2: 250000, 3: 350000, 4: 550000}:
    fail("running time per task: %s" % running)
waits = [s for s in states if s[3] == 3 and s[7] == 3]  # rank 2 waiting a message
if [w[5:7] for w in waits] != [[470000, 560080]]:
    fail("rank 2's blocking receive: %s" % waits)
coll = [s for s in states if s[7] == 13]
if sorted((s[3], s[5], s[6]) for s in coll) != [(1, 100000, 410000), (2, 200000, 410000),
                                                 (3, 300000, 420000)]:
    fail("group communication states: %s" % coll)
ivs = [e for e in events if e[6] == 60000001]
if len(ivs) != 4 * 3 * 2:
    fail("%d interval events, expected 24 (4 ranks x 3 intervals x enter and leave)" % len(ivs))
pcf = open(prefix + ".pcf").read()
for want in ("STATES", "Running", "Group Communication", "50000002", "MPI_Barrier", "60000001",
             "exchange", "late"):
    if want not in pcf:
        fail("the .pcf lacks " + want)
row = open(prefix + ".row").read()
if "LEVEL THREAD SIZE 4" not in row or "LEVEL CPU SIZE 4" not in row:
    fail("the .row: " + row[:80])
sys.exit(1 if harness.fails else 0)
