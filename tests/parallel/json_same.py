#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""json_same.py [--errors] A B: two JSON reports of one run, whole and split
(docs/parallel.md), are equal but for their "simulation" part (wall time,
events, memory). Prints the top-level keys that differ; exits 1 if any do.

--errors: when A ended in an error, only the error messages are compared
(the figures up to an error may differ by a window), with addresses and the
rank named by a short send buffer's fault normalised: such a fault is taken
where the data are read, in the sender's worker when they leave for another.
"""
import json
import re
import sys


def normalised_error(report):
    said = re.sub("0x[0-9a-f]+", "0x", report.get("error", ""))
    said = re.sub(r"rank \d+ (crashed inside an MPI call|\))", r"rank N \1", said)
    return re.sub(r"delivered to rank \d+", "delivered to rank N", said)


def main(argv):
    errors = "--errors" in argv
    paths = [a for a in argv if a != "--errors"]
    a, b = (json.load(open(p)) for p in paths[:2])
    if errors and a.get("status") == "error":
        same = normalised_error(a) == normalised_error(b)
        print("" if same else "error")
        return 0 if same else 1
    for d in (a, b):
        d.pop("simulation", None)
    diff = [k for k in a if a[k] != b.get(k)] + [k for k in b if k not in a]
    print(" ".join(diff))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
