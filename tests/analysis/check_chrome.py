#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a Chrome trace (Trace Event Format) as Perfetto and chrome://tracing
read it: one JSON object with traceEvents; each event with ph, pid and tid
and a numeric ts; complete events with a duration; every flow start ("s")
with one finish ("f") of the same id; begin/end events balanced per track;
one named track per rank. Usage: check_chrome.py FILE.json RANKS MESSAGES"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import harness  # noqa: E402
from harness import fail  # noqa: E402

path, ranks, messages = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = json.load(open(path))


ev = d["traceEvents"]
names = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
if names != set(range(ranks)):
    fail("thread names for %s" % sorted(names))
starts, ends, depth = {}, {}, {}
for e in ev:
    if e["ph"] not in "MXisfBE" or "pid" not in e:
        fail("event %s" % e)
        continue
    if e["ph"] == "M":
        continue
    if not isinstance(e["ts"], (int, float)) or e["ts"] < 0:
        fail("timestamp of %s" % e)
    if e["ph"] == "X" and not e["dur"] > 0:
        fail("complete event without a duration: %s" % e)
    if e["ph"] == "s":
        starts[e["id"]] = e
    if e["ph"] == "f":
        ends[e["id"]] = e
        if e.get("bp") != "e":
            fail("flow end not bound to its enclosing slice")
    if e["ph"] in "BE":
        depth[e["tid"]] = depth.get(e["tid"], 0) + (1 if e["ph"] == "B" else -1)
        if depth[e["tid"]] < 0:
            fail("an end before its begin on track %d" % e["tid"])
if set(starts) != set(ends) or len(starts) != messages:
    fail("%d flow starts, %d ends, %d messages" % (len(starts), len(ends), messages))
for i, s in starts.items():
    if i in ends and ends[i]["ts"] < s["ts"]:
        fail("message %s arrives before it is sent" % i)
if any(depth.values()):
    fail("unbalanced begin/end: %s" % depth)
sys.exit(1 if harness.fails else 0)
