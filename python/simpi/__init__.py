# SPDX-License-Identifier: BSD-3-Clause
"""simpi's results in Python.

    import simpi
    r = simpi.load("run.json")          # what `simpi replay/run --json run.json` wrote
    r.predicted_time                     # seconds
    r.ranks                              # one row per rank: compute, p2p, collective, ...
    s = simpi.load_sweep("sweep.json")   # a row per point, a column per swept key
    r = simpi.replay("app.trace", platform="cluster.yaml", set={"inter.latency": "2us"})
    r = simpi.run("./heat", n=16, cpu="ignore")
    s = simpi.sweep("app.trace", {"inter.latency": ["1us", "2us", "4us"]})
    simpi.plot_ranks(r); simpi.plot_sweep(s, "inter.latency")

Tables are pandas DataFrames when pandas is installed (Debian's
python3-pandas), lists of dicts otherwise. The plots need matplotlib
(python3-matplotlib). The simpi command is found in $SIMPI, beside this
package in an installed tree (PREFIX/bin/simpi), or on PATH.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile

__all__ = ["Result", "SimpiError", "load", "load_sweep", "run", "replay", "sweep",
           "plot_ranks", "plot_sweep", "plot_breakdown", "executable"]

try:
    import pandas as _pd
except ImportError:  # plain lists of dicts without pandas
    _pd = None

_BREAKDOWN = ["compute", "p2p", "collective", "blocked"]
# one colour per state, the report's and the sweep page's
_COLOURS = {"compute": "#2030d0", "p2p": "#e03030", "collective": "#e0c000",
            "blocked": "#b30000"}
_LABELS = {"blocked": "blocked (p2p waiting for a partner)"}
_QUANTITY = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z/]*)\s*$")
_UNITS = {"": 1, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12,
          "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
          "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "TiB": 2 ** 40,
          "B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
          "KiB/s": 2 ** 10, "MiB/s": 2 ** 20, "GiB/s": 2 ** 30,
          "bps": 1 / 8, "Kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8,
          "Kb/s": 1e3 / 8, "Mb/s": 1e6 / 8, "Gb/s": 1e9 / 8, "Tb/s": 1e12 / 8,
          "f": 1, "Kf": 1e3, "Mf": 1e6, "Gf": 1e9, "Tf": 1e12}


class SimpiError(RuntimeError):
    """simpi could not run, or the simulation did not complete.

    status is simpi's exit status, stderr what it said, result the Result of
    a run that ended early (a deadlock, a fault), when simpi wrote one."""

    def __init__(self, message, status=None, stderr="", result=None):
        super().__init__(message)
        self.status, self.stderr, self.result = status, stderr, result


def _table(rows, columns=None):
    if _pd is None:
        return list(rows)
    return _pd.DataFrame(list(rows), columns=columns)


class Matrix:
    """The communication matrix: messages[i][j] and bytes[i][j] sent from
    group i to group j (a group is group_size consecutive ranks)."""

    def __init__(self, m):
        self.groups = m.get("groups", 0)
        self.group_size = m.get("group_size", 1)
        n = self.groups
        msgs, byts = m.get("messages", []), m.get("bytes", [])
        rows_m = [msgs[i * n:(i + 1) * n] for i in range(n)]
        rows_b = [byts[i * n:(i + 1) * n] for i in range(n)]
        if _pd is not None:
            self.messages, self.bytes = _pd.DataFrame(rows_m), _pd.DataFrame(rows_b)
        else:
            self.messages, self.bytes = rows_m, rows_b

    def __repr__(self):
        return "<simpi.Matrix %d x %d groups of %d ranks>" % (self.groups, self.groups,
                                                              self.group_size)


class Result:
    """One simulation's results, as `--json` writes them.

    predicted_time   seconds (None when the run did not complete)
    status           "ok", "deadlock", "error", ...; exit_status simpi's code
    ranks            one row per rank: rank, compute, p2p, collective, blocked,
                     finish, messages_sent, bytes_sent, ...
    collectives      one row per collective operation and algorithm
    intervals        one row per interval of the interval tree
    matrix           a Matrix (messages and bytes between groups of ranks)
    network, simulation, host   dicts as in the JSON
    jobs             several jobs side by side (docs/jobs.md): one row per
                     job: name, ranks, start, end, predicted_time,
                     alone_time, slowdown, ... (empty for one job)
    raw              the whole JSON object
    """

    def __init__(self, data, path=None):
        self.raw, self.path = data, path
        self.predicted_time = data.get("predicted_time")
        self.end_time = data.get("end_time")
        self.status = data.get("status")
        self.exit_status = data.get("exit_status")
        self.error = data.get("error", "")
        self.input = data.get("input")
        self.platform = data.get("platform")
        self.ranks = _table(data.get("ranks", []))
        self.collectives = _table(data.get("collectives", []))
        self.intervals = _table([{k: v for k, v in i.items() if k != "per_rank"}
                                 for i in data.get("intervals", [])])
        self.matrix = Matrix(data.get("matrix", {}))
        self.network = data.get("network", {})
        self.simulation = data.get("simulation", {})
        self.host = data.get("host")
        self.jobs = _table(data.get("jobs", []))

    def breakdown(self):
        """The mean rank's seconds in compute, p2p, collective and blocked."""
        ranks = self.raw.get("ranks", [])
        n = max(len(ranks), 1)
        return {k: sum(r.get(k, 0) for r in ranks) / n for k in _BREAKDOWN}

    def __repr__(self):
        t = self.predicted_time
        return "<simpi.Result %s: %s, %d ranks>" % (
            self.input, ("%.9g s" % t) if self.status == "ok" else self.status,
            len(self.raw.get("ranks", [])))


def _sweep_rows(points):
    rows = []
    for p in points:
        row = dict(p.get("set", {}))
        for k, v in p.items():
            if k == "set":
                continue
            if k == "host" and isinstance(v, dict):
                row.update({"host_" + hk: hv for hk, hv in v.items()})
            else:
                row[k] = v
        if row.get("status") != "ok":
            row["predicted_time"] = None
        rows.append(row)
    return rows


def load(path):
    """A run's JSON report (`--json FILE`) as a Result. A file that is no
    simpi report (another program's JSON) raises ValueError."""
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, list) or (isinstance(data, dict) and "points" in data):
        raise ValueError("%s is a sweep's JSON (one entry per point): use simpi.load_sweep"
                         % path)
    if not isinstance(data, dict) or "predicted_time" not in data or "status" not in data:
        raise ValueError("%s is not a simpi report (a run's --json has predicted_time and "
                         "status)" % path)
    return Result(data, path)


def load_sweep(path):
    """A sweep's JSON (`--set K=V1,V2,... --json FILE`, or `--seeds N`): one
    row per point, a column per swept key (its value as given, e.g. "2us"),
    then predicted_time, end_time, status, exit_status and the mean rank's
    compute, p2p, collective and blocked seconds."""
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict) and "points" in data:
        data = data["points"]
    if not isinstance(data, list):
        raise ValueError("%s is one run's JSON, not a sweep's: use simpi.load" % path)
    return _table(_sweep_rows(data))


def executable():
    """The simpi command: $SIMPI, the one of this installed tree, or PATH's."""
    env = os.environ.get("SIMPI")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    # PREFIX/lib/python3*/dist-packages/simpi -> PREFIX/bin/simpi
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(here))))
    beside = os.path.join(prefix, "bin", "simpi")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("simpi")
    if found:
        return found
    raise SimpiError("simpi not found: set SIMPI=/path/to/simpi or put it on PATH")


def _paths(what, value):
    """value, a path or a list of them, as strings (TypeError naming what)."""
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, os.PathLike)) for v in value):
        return [os.fspath(v) for v in value]
    raise TypeError("%s: expected a path or a list of paths, found %r" % (what, value))


def _options(platform=None, set=None, options=None, **kw):
    """The command line's options; user mistakes raise TypeError naming the
    argument (not an error from inside the package)."""
    args = []
    if platform:
        args += ["--platform"] + _paths("platform", platform)[:1]
    if set is not None and not isinstance(set, dict):
        raise TypeError("set: expected a dict {key: value} (e.g. {\"inter.latency\": \"2us\"}), "
                        "found %r" % (set,))
    if isinstance(options, str):  # one string: its words, as a shell splits them
        options = shlex.split(options)
    elif options is not None and not isinstance(options, (list, tuple)):
        raise TypeError("options: expected a list of arguments or a string, found %r"
                        % (options,))
    for k, v in (set or {}).items():
        if isinstance(v, (list, tuple)):
            v = ",".join(str(x) for x in v)
        args += ["--set", "%s=%s" % (k, v)]
    for k, v in kw.items():
        if v is None or v is False:
            continue
        flag = "--" + k.replace("_", "-")
        args += [flag] if v is True else [flag, str(v)]
    return args + list(options or [])


def _simulate(command, loader, check):
    with tempfile.TemporaryDirectory(prefix="simpi-py-") as tmp:
        out = os.path.join(tmp, "result.json")
        proc = subprocess.run(command[:2] + ["--json", out] + command[2:],
                              capture_output=True, text=True)
        result = loader(out) if os.path.exists(out) and os.path.getsize(out) else None
    if result is None or (check and proc.returncode != 0):
        raise SimpiError("%s exited with status %d: %s" % (" ".join(command), proc.returncode,
                                                           proc.stderr.strip()[-2000:]),
                         proc.returncode, proc.stderr, result)
    if not isinstance(result, Result):
        return result
    result.stdout, result.stderr = proc.stdout, proc.stderr
    return result


def replay(trace=None, platform=None, set=None, options=None, check=True, **kw):
    """Replays a trace (`simpi replay`); returns its Result. trace: a path,
    or a list of them to replay side by side as jobs (docs/jobs.md; or
    jobs="FILE.yaml" and no trace). set: {key: value} platform overrides;
    other keywords become options (procs=2 is --procs 2, quiet=True is
    --quiet); options: more arguments. check: a run that does not complete
    raises SimpiError (its Result in .result)."""
    traces = [] if trace is None else _paths("trace", trace)
    cmd = [executable(), "replay"] + _options(platform, set, options, **kw) + traces
    return _simulate(cmd, load, check)


def run(program, n, args=(), platform=None, set=None, options=None, check=True, **kw):
    """Runs a program built with simpicc on n simulated ranks (`simpi run
    -n N`); returns its Result; the program's output is in .stdout."""
    cmd = ([executable(), "run", "-n", str(_count("n", n))] + _options(platform, set, options, **kw) +
           _paths("program", program)[:1] + _args(args))
    return _simulate(cmd, load, check)


def _count(what, n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise TypeError("%s: expected a positive number of ranks, found %r" % (what, n))
    return n


def _args(args):
    if isinstance(args, str):
        raise TypeError("args: expected a list of the program's arguments, found the string %r "
                        "(give [%r] or its words)" % (args, args))
    return [str(a) for a in args]


def sweep(target, set, n=None, args=(), platform=None, options=None, **kw):
    """A sweep: one simulation per combination of set's value lists
    ({"inter.latency": ["1us", "2us"]}); target a trace, or a program when n
    is given. Returns load_sweep's table."""
    verb = ["run", "-n", str(_count("n", n))] if n is not None else ["replay"]
    if not isinstance(set, dict) or not set:
        raise TypeError("set: expected a dict of value lists ({\"inter.latency\": [\"1us\", "
                        "\"2us\"]}), found %r" % (set,))
    cmd = ([executable()] + verb[:1] + verb[1:] + _options(platform, set, options, **kw) +
           _paths("target", target)[:1] + _args(args))
    return _simulate(cmd, load_sweep, check=False)


def _pyplot():
    try:
        import matplotlib
        if not os.environ.get("DISPLAY") and matplotlib.get_backend().lower() != "agg":
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError as e:
        raise ImportError("simpi's plots need matplotlib (apt-get install python3-matplotlib)") from e


def _rows(table):
    return table.to_dict("records") if _pd is not None and isinstance(table, _pd.DataFrame) \
        else list(table)


def _part(row, part):
    """A part of a rank's time as stacked (the parts add up to its finish):
    p2p less its blocked part, which is drawn apart."""
    v = row.get(part) or 0
    return max(v - (row.get("blocked") or 0), 0) if part == "p2p" else v


def _quantity(value):
    """A swept value as a number (a time in s, a size in B, a rate...), or None."""
    if isinstance(value, (int, float)):
        return float(value)
    m = _QUANTITY.match(str(value))
    if not m or m.group(2) not in _UNITS:
        return None
    return float(m.group(1)) * _UNITS[m.group(2)]


def _legend_outside(ax):
    """The legend beside the plot, not over its bars."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize="small")
    ax.figure.tight_layout()


def plot_ranks(result, ax=None):
    """Each rank's compute, p2p, collective and blocked time as stacked bars."""
    plt = _pyplot()
    if ax is None:
        ax = plt.subplots(figsize=(9, 4))[1]
    rows = _rows(result.ranks)
    x = [r["rank"] for r in rows]
    bottom = [0.0] * len(rows)
    for part in _BREAKDOWN:
        h = [_part(r, part) for r in rows]
        ax.bar(x, h, bottom=bottom, label=_LABELS.get(part, part), width=0.9,
               color=_COLOURS[part])
        bottom = [b + v for b, v in zip(bottom, h)]
    ax.set_xlabel("rank")
    ax.set_ylabel("seconds")
    ax.set_title("predicted %.6g s" % (result.predicted_time or 0))
    _legend_outside(ax)
    return ax


def plot_sweep(table, key, ax=None, y="predicted_time"):
    """y (default the predicted time) against swept key, one line per value
    of the other swept keys."""
    plt = _pyplot()
    if ax is None:
        ax = plt.subplots(figsize=(7, 4))[1]
    rows = _rows(table)
    known = {"predicted_time", "end_time", "status", "exit_status"} | set(_BREAKDOWN)
    others = [k for k in (rows[0] if rows else {}) if k not in known and k != key
              and not k.startswith("host_")]
    xs = []
    for r in rows:
        if r[key] not in xs:
            xs.append(r[key])
    lines = {}
    for r in rows:
        label = " ".join("%s=%s" % (k, r[k]) for k in others) or y
        lines.setdefault(label, []).append((xs.index(r[key]), r.get(y)))
    # quantities on a numeric axis (log when they span more than 10 times)
    nums = [_quantity(x) for x in xs]
    numeric = len(xs) > 1 and all(n is not None for n in nums)
    where = nums if numeric else list(range(len(xs)))
    for label, pts in lines.items():
        pts = [(i, v) for i, v in pts if v is not None]
        ax.plot([where[i] for i, _ in pts], [v for _, v in pts], marker="o", label=label)
    log = numeric and min(nums) > 0 and max(nums) > 10 * min(nums)
    if log:
        ax.set_xscale("log")
        ax.minorticks_off()
    ax.set_xticks(where)
    ax.set_xticklabels([str(x) for x in xs])
    ax.margins(x=0.08)
    ax.set_xlabel(key + (" (log scale)" if log else ""))
    ax.set_ylabel(y + (" (s)" if y in known - {"status", "exit_status"} else ""))
    if len(lines) > 1:
        _legend_outside(ax)
    else:
        ax.figure.tight_layout()
    return ax


def plot_breakdown(table, ax=None):
    """Each sweep point's mean rank in compute, p2p, collective, blocked."""
    plt = _pyplot()
    rows = _rows(table)
    if ax is None:
        ax = plt.subplots(figsize=(10, max(3, 0.45 * len(rows) + 1.5)))[1]
    known = {"predicted_time", "end_time", "status", "exit_status"} | set(_BREAKDOWN)
    labels = [" ".join("%s=%s" % (k, v) for k, v in r.items()
                       if k not in known and not k.startswith("host_")) for r in rows]
    left = [0.0] * len(rows)
    for part in _BREAKDOWN:
        w = [_part(r, part) for r in rows]
        ax.barh(range(len(rows)), w, left=left, label=_LABELS.get(part, part),
                color=_COLOURS[part])
        left = [a + b for a, b in zip(left, w)]
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()  # the first point on top, as in the table
    ax.set_xlabel("seconds (mean rank)")
    _legend_outside(ax)  # and tight_layout makes room for the points' labels
    return ax
