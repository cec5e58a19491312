# SPDX-License-Identifier: BSD-3-Clause
"""The Python tests' harness (tests/lib/harness.sh's counterpart):
check() and fail() count, skip() exits 77 for ctest, json_get() reads simpi's JSON,
near() compares numbers, finish() gives the verdict.

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
    from harness import check, finish
"""
import json
import sys

fails = 0


def check(cond, what):
    """Counts a check: 'ok   what' or 'FAIL what'; returns cond."""
    global fails
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        fails += 1
    return cond


def fail(what):
    """Counts a failed check: 'FAIL what'."""
    check(False, what)


def skip(why):
    """The test cannot run here: ctest reports it skipped (exit 77)."""
    print('SKIPPED: ' + why)
    sys.exit(77)


def json_get(path, keys=''):
    """The value at keys ('simulation.messages', 'jobs.0.slowdown') of the
    JSON document in the file path."""
    with open(path) as f:
        d = json.load(f)
    for k in keys.split('.') if keys else []:
        d = d[int(k)] if isinstance(d, list) else d[k]
    return d


def near(a, b, tolerance=1e-12):
    """Whether two numbers differ by at most tolerance (a picosecond in
    seconds by default)."""
    return abs(float(a) - float(b)) <= tolerance


def finish(name):
    """The verdict line; exits 0 if every check passed, else 1."""
    if fails == 0:
        print(name + ': all checks passed')
    sys.exit(1 if fails else 0)
