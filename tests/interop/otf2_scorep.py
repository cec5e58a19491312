#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes a small MPI program twice: as an OTF2 archive laid out the way
Score-P lays out MPI traces, through OTF2's own Python bindings (an
independent writer: nothing of simpi), and as the same program in simpi's
text trace format. simpi must replay both to the same prediction.

Score-P's layout, as its documentation and source describe it: a system tree
(machine, node), one location group of type PROCESS per MPI rank ("MPI Rank
R") holding its "Master thread" location (and further thread locations for
OpenMP), a COMM_LOCATIONS group of paradigm MPI whose i-th member is the
location of world rank i, COMM_GROUP groups listing ranks, MPI_COMM_WORLD
and MPI_COMM_SELF and derived communicators with their parent, regions of
paradigm MPI named after the calls. Records: Enter/Leave around each call,
MpiSend/MpiRecv, MpiIsend + MpiIsendComplete, MpiIrecvRequest + MpiIrecv
(the source and size are known at completion only), MpiRequestTest,
MpiRequestCancelled, MpiCollectiveBegin/End with Score-P's byte counts
(scorep_mpi_coll_bytes_*: e.g. a bcast's root sends N x the vector),
NonBlockingCollectiveRequest/Complete, BufferFlush.

Usage: otf2_scorep.py OUT_DIR  (writes OUT_DIR/scorep/traces.otf2 and
OUT_DIR/twin.trace)"""
import os
import shutil
import sys

import _otf2
import otf2
from otf2.enums import (CollectiveOp, GroupType, IoOperationFlag, IoOperationMode,
                        IoParadigmClass, IoParadigmFlag, LocationType, LockType, Paradigm,
                        RegionRole, RmaAtomicType, RmaSyncLevel)

N = 4
MPI_TIME = 700  # ns inside each MPI call: recomputed by simpi, never read
TICKS = 1_000_000_000  # timer resolution: nanoseconds


class Program:
    def __init__(self, trace):
        self.trace = trace
        d = trace.definitions
        machine = d.system_tree_node("machine Linux")
        node = d.system_tree_node("node0", class_name="node", parent=machine)
        self.groups = [d.location_group("MPI Rank %d" % r, system_tree_parent=node) for r in range(N)]
        self.locs = [d.location("Master thread", type=LocationType.CPU_THREAD, group=g)
                     for g in self.groups]
        self.locs.append(d.location("OMP thread 1", type=LocationType.CPU_THREAD,
                                    group=self.groups[0]))
        d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                members=self.locs[:N])
        world_g = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                          members=list(range(N)))
        self_g = d.group("", group_type=GroupType.COMM_SELF, paradigm=Paradigm.MPI, members=[])
        self.world = d.comm("MPI_COMM_WORLD", group=world_g)
        self.selfc = d.comm("MPI_COMM_SELF", group=self_g)
        even_g = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                         members=[0, 2])
        odd_g = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=[3, 1])
        self.even = d.comm("MPI_COMM_WORLD.split", group=even_g, parent=self.world)
        self.odd = d.comm("MPI_COMM_WORLD.split", group=odd_g, parent=self.world)
        self.regions = {}
        self.main = d.region("main", region_role=RegionRole.FUNCTION, paradigm=Paradigm.COMPILER)
        self.omp = d.region("!$omp parallel @app.c:12", region_role=RegionRole.PARALLEL,
                            paradigm=Paradigm.OPENMP)
        self.w = [trace.event_writer_from_location(loc) for loc in self.locs[:N]]
        self.now = [1000] * N
        self.twin = ["simpi-trace 1", "ranks %d" % N]
        for r in range(N):
            self.w[r].enter(self.now[r], self.main)
        # simpi defines the derived communicators at the start, from the
        # definitions: one split of the world for each set of disjoint ones,
        # not charged (the program's MPI_Comm_split is, where it is called)
        for r in range(N):
            color = 0 if r in (0, 2) else 1
            key = [0, 2].index(r) if r in (0, 2) else [3, 1].index(r)
            self.twin.append("%d comm_define 0 color=%d key=%d new=1" % (r, color, key))
            self.twin.append("%d comm_self new=2" % r)

    def region(self, name):
        if name not in self.regions:
            role = RegionRole.COLL_ONE2ALL if name != "MPI_Send" else RegionRole.POINT2POINT
            self.regions[name] = self.trace.definitions.region(name, region_role=role,
                                                              paradigm=Paradigm.MPI)
        return self.regions[name]

    def compute(self, r, ns):
        self.now[r] += ns
        self.twin.append("%d compute %dns" % (r, ns))

    def call(self, r, name, records, twin):
        """One MPI call: Enter, its records (each a function of the writer and
        a time), Leave; and its twin lines."""
        w, t = self.w[r], self.now[r]
        w.enter(t, self.region(name))
        for i, rec in enumerate(records):
            rec(w, t + 1 + i)
        self.now[r] = t + MPI_TIME
        w.leave(self.now[r], self.region(name))
        self.twin.extend("%d %s" % (r, line) for line in twin)

    def coll(self, r, name, op, comm, size_comm, me, block, root=None, twin=None):
        """A collective with Score-P's byte counts for a block of `block`."""
        n = size_comm
        sent, recvd = {
            CollectiveOp.BARRIER: (0, 0),
            CollectiveOp.BCAST: (n * block, block) if me == root else (0, block),
            CollectiveOp.REDUCE: (block, n * block) if me == root else (block, 0),
            CollectiveOp.GATHER: (block, n * block) if me == root else (block, 0),
            CollectiveOp.SCATTER: (block, n * block)[::-1] if me == root else (0, block),
            CollectiveOp.ALLREDUCE: (n * block, n * block),
            CollectiveOp.ALLGATHER: (n * block, n * block),
            CollectiveOp.ALLTOALL: (n * block, n * block),
            CollectiveOp.REDUCE_SCATTER_BLOCK: (n * block, n * block),
            CollectiveOp.SCAN: ((n - me) * block, (me + 1) * block),
            CollectiveOp.EXSCAN: ((n - me - 1) * block, me * block),
            CollectiveOp.CREATE_HANDLE: (0, 0),
            CollectiveOp.DESTROY_HANDLE: (0, 0),
        }[op]
        root_ref = root if root is not None else _otf2.UNDEFINED_UINT32
        self.call(r, name, [lambda w, t: w.mpi_collective_begin(t),
                            lambda w, t: w.mpi_collective_end(t, op, comm, root_ref, sent, recvd)],
                  [twin])


def write(out):
    arch = os.path.join(out, "scorep")
    shutil.rmtree(arch, ignore_errors=True)
    with otf2.writer.open(arch, timer_resolution=TICKS) as trace:
        p = Program(trace)
        world = p.world
        # 1. blocking point to point: a ring, odd ranks receive first
        for r in range(N):
            p.compute(r, 5000 + 1000 * r)
        for r in range(N):
            dst, src = (r + 1) % N, (r - 1) % N
            send = p.call if True else None
            s = ("MPI_Send", [lambda w, t, d=dst: w.mpi_send(t, d, world, 7, 4096)],
                 ["send %d 4KiB tag=7" % dst])
            v = ("MPI_Recv", [lambda w, t, s_=src: w.mpi_recv(t, s_, world, 7, 4096)],
                 ["recv %d 4KiB tag=7" % src])
            for name, recs, twin in ((s, v) if r % 2 == 0 else (v, s)):
                send(r, name, recs, twin)
        # 2. a synchronous send, a large one
        p.call(0, "MPI_Ssend", [lambda w, t: w.mpi_send(t, 3, world, 1, 1 << 20)],
               ["ssend 3 1MiB tag=1"])
        p.call(3, "MPI_Recv", [lambda w, t: w.mpi_recv(t, 0, world, 1, 1 << 20)],
               ["recv 0 1MiB tag=1"])
        # 3. non-blocking halo: irecv (source known at completion), isend,
        #    a failed test, waitall completing in another order
        for r in range(N):
            p.compute(r, 20000)
            left, right = (r - 1) % N, (r + 1) % N
            p.call(r, "MPI_Irecv", [lambda w, t: w.mpi_irecv_request(t, 101)],
                   ["irecv %d 64KiB tag=3 req=0" % left])
            p.call(r, "MPI_Irecv", [lambda w, t: w.mpi_irecv_request(t, 102)],
                   ["irecv %d 64KiB tag=4 req=1" % right])
            p.call(r, "MPI_Isend",
                   [lambda w, t, d=right: w.mpi_isend(t, d, world, 3, 65536, 103)],
                   ["isend %d 64KiB tag=3 req=2" % right])
            p.call(r, "MPI_Isend",
                   [lambda w, t, d=left: w.mpi_isend(t, d, world, 4, 65536, 104)],
                   ["isend %d 64KiB tag=4 req=3" % left])
            p.call(r, "MPI_Test", [lambda w, t: w.mpi_request_test(t, 101)], [])
            p.compute(r, 3000)
            p.call(r, "MPI_Waitall",
                   [lambda w, t: w.mpi_isend_complete(t, 104),
                    lambda w, t, s_=right: w.mpi_irecv(t, s_, world, 4, 65536, 102),
                    lambda w, t, s_=left: w.mpi_irecv(t, s_, world, 3, 65536, 101),
                    lambda w, t: w.mpi_isend_complete(t, 103)],
                   ["waitall 3 1 0 2"])
        # 4. a sendrecv, and an irecv cancelled (never matched)
        for r in range(N):
            p.compute(r, 1000)
            peer = r ^ 1
            p.call(r, "MPI_Sendrecv",
                   [lambda w, t, d=peer: w.mpi_send(t, d, world, 9, 1000),
                    lambda w, t, d=peer: w.mpi_recv(t, d, world, 9, 2000)],
                   ["sendrecv %d 1000 %d 2000 tag=9" % (peer, peer)])
            p.call(r, "MPI_Irecv", [lambda w, t: w.mpi_irecv_request(t, 200)], [])
            p.call(r, "MPI_Cancel", [], [])
            p.call(r, "MPI_Wait", [lambda w, t: w.mpi_request_cancelled(t, 200)], [])
        # 5. collectives on the world, with Score-P's byte counts
        colls = [
            ("MPI_Barrier", CollectiveOp.BARRIER, 0, None, "barrier"),
            ("MPI_Bcast", CollectiveOp.BCAST, 8192, 1, "bcast 8KiB root=1"),
            ("MPI_Reduce", CollectiveOp.REDUCE, 800, 2, "reduce 800 root=2"),
            ("MPI_Allreduce", CollectiveOp.ALLREDUCE, 64, None, "allreduce 64"),
            ("MPI_Gather", CollectiveOp.GATHER, 1000, 0, "gather 1000 root=0"),
            ("MPI_Scatter", CollectiveOp.SCATTER, 3000, 3, "scatter 3000 root=3"),
            ("MPI_Allgather", CollectiveOp.ALLGATHER, 512, None, "allgather 512"),
            ("MPI_Alltoall", CollectiveOp.ALLTOALL, 2048, None, "alltoall 2KiB"),
            ("MPI_Reduce_scatter_block", CollectiveOp.REDUCE_SCATTER_BLOCK, 256, None,
             "reduce_scatter 256"),
            ("MPI_Scan", CollectiveOp.SCAN, 48, None, "scan 48"),
            ("MPI_Exscan", CollectiveOp.EXSCAN, 40, None, "exscan 40"),
        ]
        for name, op, block, root, twin in colls:
            for r in range(N):
                p.compute(r, 2000 + 500 * r)
                p.coll(r, name, op, world, N, r, block, root, twin)
        # 6. a derived communicator (its ranks in another order), made by
        #    MPI_Comm_split (charged as simpi charges a split: an allgather
        #    of 8 bytes over the parent), and MPI_COMM_SELF
        for r in range(N):
            sub = p.even if r in (0, 2) else p.odd
            me = [0, 2].index(r) if r in (0, 2) else [3, 1].index(r)
            p.compute(r, 2500)
            p.coll(r, "MPI_Comm_split", CollectiveOp.CREATE_HANDLE, world, N, r, 0, None,
                   "allgather 8")
            p.compute(r, 4000)
            p.coll(r, "MPI_Allreduce", CollectiveOp.ALLREDUCE, sub, 2, me, 4096, None,
                   "allreduce 4KiB comm=1")
            p.coll(r, "MPI_Bcast", CollectiveOp.BCAST, sub, 2, me, 100, 1,
                   "bcast 100 root=1 comm=1")
            p.call(r, "MPI_Send", [lambda w, t, c=sub: w.mpi_send(t, 1 - me, c, 5, 300)]
                   if me == 0 else [lambda w, t, c=sub: w.mpi_recv(t, 0, c, 5, 300)],
                   ["send 1 300 tag=5 comm=1" if me == 0 else "recv 0 300 tag=5 comm=1"])
            p.coll(r, "MPI_Allreduce", CollectiveOp.ALLREDUCE, p.selfc, 1, 0, 8, None,
                   "allreduce 8 comm=2")
            p.call(r, "MPI_Comm_free",
                   [lambda w, t, c=sub: w.mpi_collective_begin(t),
                    lambda w, t, c=sub: w.mpi_collective_end(t, CollectiveOp.DESTROY_HANDLE, c,
                                                             _otf2.UNDEFINED_UINT32, 0, 0)], [])
        # 7. a non-blocking collective, completed by a wait; the trace
        #    buffer flushed once (its time is not the program's)
        for r in range(N):
            p.compute(r, 1500)
            p.call(r, "MPI_Iallreduce",
                   [lambda w, t: w.non_blocking_collective_request(t, 300)],
                   ["iallreduce 1KiB req=5"])
            t0 = p.now[r]
            p.w[r].buffer_flush(t0, t0 + 50000)
            p.now[r] += 50000
            p.compute(r, 7000)
            p.call(r, "MPI_Wait",
                   [lambda w, t: w.non_blocking_collective_complete(
                       t, CollectiveOp.ALLREDUCE, world, _otf2.UNDEFINED_UINT32, 4 * 1024,
                       4 * 1024, 300)],
                   ["wait 5"])
        # 8. MPI-IO: a blocking write (its operation begins and completes in
        #    the call) and a non-blocking read completed by a wait; POSIX I/O
        #    outside MPI calls is the program's own time
        d = trace.definitions
        mpiio = d.io_paradigm("MPI-IO", "MPI I/O", IoParadigmClass.PARALLEL, IoParadigmFlag.NONE)
        posix = d.io_paradigm("POSIX", "POSIX I/O", IoParadigmClass.SERIAL, IoParadigmFlag.NONE)
        node = p.groups[0].system_tree_parent
        fh = d.io_handle("out.dat", file=d.io_regular_file("out.dat", scope=node),
                         io_paradigm=mpiio, comm=world)
        ph = d.io_handle("log.txt", file=d.io_regular_file("log.txt", scope=node),
                         io_paradigm=posix)
        for r in range(N):
            p.compute(r, 1200)
            p.call(r, "MPI_File_write_at",
                   [lambda w, t: w.io_operation_begin(t, fh, IoOperationMode.WRITE,
                                                      IoOperationFlag.NONE, 65536, 11),
                    lambda w, t: w.io_operation_complete(t, fh, 65536, 11)],
                   ["file_io 64KiB req=6", "wait 6"])
            p.call(r, "MPI_File_iread_at",
                   [lambda w, t: w.io_operation_begin(t, fh, IoOperationMode.READ,
                                                      IoOperationFlag.NON_BLOCKING, 4096, 12)],
                   ["file_io 4KiB req=7"])
            t0 = p.now[r]
            p.w[r].io_operation_begin(t0 + 100, ph, IoOperationMode.WRITE, IoOperationFlag.NONE,
                                      80, 13)
            p.w[r].io_operation_complete(t0 + 400, ph, 80, 13)
            p.compute(r, 2500)
            p.call(r, "MPI_Wait", [lambda w, t: w.io_operation_complete(t, fh, 4096, 12)],
                   ["wait 7"])
        # 9. one-sided: a window over the world (its creation charged as a
        #    split), a fence epoch with puts and gets completed by the next
        #    fence, a passive-target epoch (an exclusive lock, a put, the
        #    unlock that completes it)
        win = d.rma_win("window", comm=world)
        undef = _otf2.UNDEFINED_UINT32
        both = RmaSyncLevel.PROCESS | RmaSyncLevel.MEMORY
        for r in range(N):
            p.compute(r, 800)
            p.call(r, "MPI_Win_create",
                   [lambda w, t: w.rma_win_create(t, win),
                    lambda w, t: w.rma_collective_begin(t),
                    lambda w, t: w.rma_collective_end(t, CollectiveOp.CREATE_HANDLE,
                                                      RmaSyncLevel.NONE, win, undef, 0, 0)],
                   ["allgather 8"])
            p.call(r, "MPI_Win_fence",
                   [lambda w, t: w.rma_collective_begin(t),
                    lambda w, t: w.rma_collective_end(t, CollectiveOp.BARRIER, both, win, undef,
                                                      0, 0)], ["barrier"])
            p.compute(r, 3000 + 100 * r)
            p.call(r, "MPI_Put", [lambda w, t, d_=(r + 1) % N: w.rma_put(t, win, d_, 8192, 21)],
                   ["rma_put %d 8KiB req=8" % ((r + 1) % N)])
            p.call(r, "MPI_Get", [lambda w, t, d_=(r + 3) % N: w.rma_get(t, win, d_, 512, 22)],
                   ["rma_get %d 512 req=9" % ((r + 3) % N)])
            p.call(r, "MPI_Win_fence",
                   [lambda w, t: w.rma_collective_begin(t),
                    lambda w, t: w.rma_op_complete_blocking(t, win, 21),
                    lambda w, t: w.rma_op_complete_blocking(t, win, 22),
                    lambda w, t: w.rma_collective_end(t, CollectiveOp.BARRIER, both, win, undef,
                                                      0, 0)], ["waitall 8 9", "barrier"])
            p.compute(r, 1000)
            if r != 2:
                p.call(r, "MPI_Win_lock",
                       [lambda w, t: w.rma_request_lock(t, win, 2, 31, LockType.EXCLUSIVE),
                        lambda w, t: w.rma_acquire_lock(t, win, 2, 31, LockType.EXCLUSIVE)],
                       ["rma_lock 2 exclusive", "rma_grants"])
                p.call(r, "MPI_Accumulate",
                       [lambda w, t: w.rma_atomic(t, win, 2, RmaAtomicType.ACCUMULATE,
                                                  256, 0, 23)], ["rma_put 2 256 req=10"])
                p.call(r, "MPI_Win_unlock",
                       [lambda w, t: w.rma_op_complete_blocking(t, win, 23),
                        lambda w, t: w.rma_release_lock(t, win, 2, 31)],
                       ["wait 10", "rma_unlock 2 exclusive"])
            p.call(r, "MPI_Win_free",
                   [lambda w, t: w.rma_collective_begin(t),
                    lambda w, t: w.rma_collective_end(t, CollectiveOp.DESTROY_HANDLE,
                                                      RmaSyncLevel.NONE, win, undef, 0, 0)], [])
        # 10. the OpenMP thread of rank 0 (its work is inside the master's time)
        omp = trace.event_writer_from_location(p.locs[N])
        omp.enter(p.now[0] - 5000, p.omp)
        omp.leave(p.now[0] - 1000, p.omp)
        for r in range(N):
            p.compute(r, 9000 - 1000 * r)
            p.call(r, "MPI_Finalize", [], [])
            p.compute(r, 200)
            p.w[r].leave(p.now[r], p.main)
    with open(os.path.join(out, "twin.trace"), "w") as f:
        f.write("\n".join(p.twin) + "\n")


if __name__ == "__main__":
    write(sys.argv[1])
