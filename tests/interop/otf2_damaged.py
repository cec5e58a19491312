# SPDX-License-Identifier: BSD-3-Clause
"""Writes an OTF2 archive of two MPI ranks, each in two MPI_Barrier calls,
with OTF2's own Python bindings, damaged as KIND says:
  back  rank 1's third event at 1,500 ticks, after one at 2,000 (OTF2's
        writer refuses that: the event is written at 777,777 and its
        timestamp, 8 little-endian bytes in 1.evt, patched afterwards)
  none  definitions only: no rank records an event
  huge  rank 1's last Leave at 2^63 ns
Usage: otf2_damaged.py DIR KIND"""
import os
import struct
import sys

import otf2
from otf2.enums import GroupType, LocationType, Paradigm, RegionRole

out, kind = sys.argv[1], sys.argv[2]
with otf2.writer.open(out, timer_resolution=1000000000) as t:
    d = t.definitions
    node = d.system_tree_node("node0")
    locs = [d.location("Master thread", type=LocationType.CPU_THREAD,
                       group=d.location_group("MPI Rank %d" % r, system_tree_parent=node))
            for r in range(2)]
    d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locs)
    d.comm("MPI_COMM_WORLD", group=d.group("", group_type=GroupType.COMM_GROUP,
                                           paradigm=Paradigm.MPI, members=[0, 1]))
    barrier = d.region("MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI)
    for r in range(2):
        w = t.event_writer_from_location(locs[r])
        if kind == "none":
            continue
        times = [1000, 2000, 3000, 900000]
        if r == 1 and kind == "back":
            times[2] = 777777
        if r == 1 and kind == "huge":
            times[3] = 2**63
        w.enter(times[0], barrier)
        w.leave(times[1], barrier)
        w.enter(times[2], barrier)
        w.leave(times[3], barrier)
if kind == "back":
    path = os.path.join(out, "traces", "1.evt")
    with open(path, "rb") as f:
        data = f.read()
    old, new = struct.pack("<Q", 777777), struct.pack("<Q", 1500)
    assert data.count(old) == 1, "the timestamp to move is not found once"
    with open(path, "wb") as f:
        f.write(data.replace(old, new))
