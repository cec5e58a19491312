# SPDX-License-Identifier: BSD-3-Clause
"""The Python package against the simpi command (tests/python/run-python).

Expected times are the models' formulas worked by hand:
- examples/traces/pingpong.trace: 6 rendezvous messages of 1 MiB on one node
  (intra 0.5 us + S / 10 GB/s): 6 x (0.5 + 0.5 + 0.5 + 104.8576) us = 638.1456 us
- one 1000-byte eager message between two nodes (inter L + S / 12.5 GB/s):
  L + 0.08 us: 1.58 us at the built-in 1.5 us, 1.08 us at 1 us, 3.08 us at 3 us.
Usage: python3 test_simpi.py SOURCE_DIR TMPDIR [PROGRAM] (PROGRAM: a simpicc
build of tests/python/pingpong.c; without it the on-line checks are skipped)
"""
import os
import sys

src, tmp = sys.argv[1], sys.argv[2]
program = sys.argv[3] if len(sys.argv) > 3 else None
NO_PANDAS = os.environ.get("SIMPI_TEST_NO_PANDAS") == "1"
if NO_PANDAS:
    sys.modules["pandas"] = None  # import pandas raises ImportError
import simpi  # noqa: E402

fails = 0


def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond


def near(a, b):
    return a is not None and abs(a - b) <= 1e-12 + 1e-9 * abs(b)


def column(table, name):
    return [r[name] for r in table] if NO_PANDAS else list(table[name])


pp = os.path.join(tmp, "pp.trace")
with open(pp, "w") as f:
    f.write("simpi-trace 1\nranks 2\n0 send 1 1000\n1 recv 0 1000\n")

# replay, and load of what it wrote
r = simpi.replay(os.path.join(src, "examples/traces/pingpong.trace"))
check(near(r.predicted_time, 638.1456e-6), "replay: pingpong predicted %s s" % r.predicted_time)
check(r.status == "ok" and r.exit_status == 0, "replay: status ok")
check(len(r.ranks) == 2, "ranks: one row per rank")
check(sum(column(r.ranks, "messages_sent")) == 6, "ranks: 6 messages sent")
check(sum(column(r.ranks, "bytes_sent")) == 6 * 1048576, "ranks: 6 MiB sent")
check(NO_PANDAS == isinstance(r.ranks, list), "ranks: a %s" % type(r.ranks).__name__)
check(r.matrix.groups == 2, "matrix: 2 groups of one rank")
m = r.matrix.messages
check((m[0][1] if NO_PANDAS else m.iloc[0, 1]) == 3, "matrix: 3 messages from rank 0 to 1")
check(len(r.intervals) >= 1 and column(r.intervals, "name")[0] == "whole program",
      "intervals: the whole program")

json_path = os.path.join(tmp, "one.json")
os.system("%s replay -q --set cores_per_node=1 --json %s %s" % (simpi.executable(), json_path, pp))
one = simpi.load(json_path)
check(near(one.predicted_time, 1.58e-6), "load: 1000 B between nodes in 1.58 us")
check(near(one.end_time, 1.58e-6), "load: end_time")
check(near(one.breakdown()["compute"], 0), "load: no computation in the breakdown")

# overrides as keywords and a set dict
r3 = simpi.replay(pp, set={"cores_per_node": 1, "inter.latency": "3us"})
check(near(r3.predicted_time, 3.08e-6), "replay(set=...): 3.08 us at 3 us latency")

# two jobs side by side (docs/jobs.md): each on its own two nodes, sharing
# no interface under the default model, so each takes its 3.08 us alone
r4 = simpi.replay([pp, pp], set={"cores_per_node": 1, "inter.latency": "3us"})
check(len(r4.jobs) == 2 and all(near(t, 3.08e-6) for t in column(r4.jobs, "predicted_time")) and
      column(r4.jobs, "slowdown") == [1, 1], "replay([a, b]): a row per job, each 3.08 us, slowdown 1")

# a sweep: a row per point, a column per swept key
s = simpi.sweep(pp, {"cores_per_node": 1, "inter.latency": ["1us", "3us"],
                     "inter.bandwidth": ["12.5GB/s", "1GB/s"]})
check(len(s) == 4, "sweep: 4 points")
lat, bw, t = (column(s, "inter.latency"), column(s, "inter.bandwidth"),
              column(s, "predicted_time"))
want = {("1us", "12.5GB/s"): 1.08e-6, ("1us", "1GB/s"): 2e-6,  # 1 us + 1000 B / 1 GB/s
        ("3us", "12.5GB/s"): 3.08e-6, ("3us", "1GB/s"): 4e-6}
check(all(near(t[i], want[(lat[i], bw[i])]) for i in range(4)),
      "sweep: each point's time as worked by hand: %s" % list(zip(lat, bw, t)))
check("cores_per_node" not in (s[0] if NO_PANDAS else s.columns), "sweep: single values are not columns")
check(all(c > 0 for c in column(s, "p2p")), "sweep: each point's breakdown")
sweep_json = os.path.join(tmp, "sweep.json")
os.system("%s replay -q --set inter.latency=1us,3us --set cores_per_node=1 --json %s %s"
          % (simpi.executable(), sweep_json, pp))
check(column(simpi.load_sweep(sweep_json), "inter.latency") == ["1us", "3us"], "load_sweep")
try:
    simpi.load(sweep_json)
    check(False, "load of a sweep's JSON refused")
except ValueError as e:
    check("load_sweep" in str(e), "load of a sweep's JSON: %s" % e)

# a failed simulation raises, saying why
bad = os.path.join(tmp, "dead.trace")
with open(bad, "w") as f:
    f.write("simpi-trace 1\nranks 2\n0 recv 1 8\n1 recv 0 8\n")
try:
    simpi.replay(bad)
    check(False, "a deadlock raises SimpiError")
except simpi.SimpiError as e:
    check(e.status == 3 and e.result is not None and e.result.status == "deadlock",
          "a deadlock raises SimpiError (status %s)" % e.status)

# user mistakes (issue 68): a clear TypeError or ValueError at the call,
# never one from inside the package, and options as one string are its
# words (it was split into characters)
pp = os.path.join(src, "examples/traces/pingpong.trace")
r = simpi.replay(pp, options="--quiet --set intra.latency=0s")
check(r.status == "ok", "options as one string: its words")
foreign = os.path.join(tmp, "foreign.json")
with open(foreign, "w") as f:
    f.write('{"name": "another program", "value": 3}')
for call, kind, words in [
        (lambda: simpi.load(foreign), ValueError, "is not a simpi report"),
        (lambda: simpi.replay(pp, set=["inter.latency=2us"]), TypeError, "set: expected a dict"),
        (lambda: simpi.replay(42), TypeError, "trace: expected a path"),
        (lambda: simpi.replay(pp, options=7), TypeError, "options: expected a list"),
        (lambda: simpi.run(pp, n="4"), TypeError, "n: expected a positive number"),
        (lambda: simpi.run(pp, n=2, args="a b"), TypeError, "args: expected a list"),
        (lambda: simpi.sweep(pp, ["inter.latency=1us,2us"]), TypeError, "set: expected a dict")]:
    try:
        call()
        check(False, "a mistake raised nothing (%s)" % words)
    except kind as e:
        check(words in str(e), "a mistake raises %s: %s" % (kind.__name__, e))
    except Exception as e:  # noqa: BLE001 (the test: what else it raised)
        check(False, "a mistake raised %s from inside: %s" % (type(e).__name__, e))

# on-line: a program built with simpicc
if program:
    r = simpi.run(program, n=2, set={"cores_per_node": 1}, cpu="ignore")
    check(near(r.predicted_time, 1.58e-6), "run: 1000 B ping in 1.58 us (%s)" % r.predicted_time)
    check("pong" in r.stdout, "run: the program's output in .stdout")
    s = simpi.sweep(program, {"cores_per_node": 1, "inter.latency": ["1us", "3us"]}, n=2,
                    cpu="ignore")
    check([round(x * 1e9) for x in column(s, "predicted_time")] == [1080, 3080],
          "sweep of a program: 1.08 and 3.08 us")

# plots (matplotlib, without a display)
if not NO_PANDAS:
    import matplotlib
    matplotlib.use("Agg")
    ax = simpi.plot_ranks(simpi.replay(os.path.join(src, "examples/traces/halo2d.trace")))
    png = os.path.join(tmp, "ranks.png")
    ax.figure.savefig(png)
    check(len(ax.patches) == 16 * 4, "plot_ranks: 4 bars for each of 16 ranks")
    # one colour per state, the report's (issue 71): compute, p2p, collective, blocked
    colours = {matplotlib.colors.to_hex(p.get_facecolor()) for p in ax.patches}
    check(colours == {"#2030d0", "#e03030", "#e0c000", "#b30000"}, "plot_ranks: the report's colours %s" % colours)
    r0 = simpi.replay(os.path.join(src, "examples/traces/halo2d.trace")).ranks
    r0 = r0.to_dict("records")[0] if hasattr(r0, "to_dict") else r0[0]
    heights = [p.get_height() for p in ax.patches[0::16]]  # rank 0's four parts
    check(near(sum(heights), r0["finish"]), "plot_ranks: a rank's parts add up to its finish (p2p less blocked)")
    ax = simpi.plot_sweep(s if program else simpi.load_sweep(sweep_json), "inter.latency")
    xd = list(ax.lines[0].get_xdata())
    check(len(ax.lines) == 1 and near(xd[0], 1e-6) and near(xd[1], 3e-6),
          "plot_sweep: one line of 2 points at 1 us and 3 us on a numeric axis (%s)" % xd)
    ax.figure.savefig(os.path.join(tmp, "sweep.png"))
    # quantities that span more than 10 times: a log axis
    bw = simpi.sweep(os.path.join(src, "examples/traces/halo2d.trace"),
                     {"inter.bandwidth": ["100MB/s", "1GB/s", "25GB/s"]})
    ax = simpi.plot_sweep(bw, "inter.bandwidth")
    check(ax.get_xscale() == "log" and "log scale" in ax.get_xlabel(), "plot_sweep: bandwidths on a log axis")
    # the breakdown's labels inside the figure, its legend off the bars
    ax = simpi.plot_breakdown(bw)
    fig = ax.figure
    fig.savefig(os.path.join(tmp, "breakdown.png"))
    renderer = fig.canvas.get_renderer()
    inside = all(t.get_window_extent(renderer).x0 >= 0 for t in ax.get_yticklabels())
    check(inside, "plot_breakdown: its points' labels are not cut")
    legend, axes = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    check(legend.x0 >= axes.x1, "plot_breakdown: the legend is beside the bars, not over them")
    check(os.path.getsize(png) > 5000, "plots written")

print("python: %s" % ("all checks passed" if not fails else "%d failed" % fails))
sys.exit(1 if fails else 0)
