# SPDX-License-Identifier: BSD-3-Clause
"""README's examples, and docs/tutorial.md's (issue 71), run as written (issue 48): every command of its code
blocks (a `$ ` prompt, or a line of a ```sh block starting with simpi or
$HOME/simpi) runs in a folder where examples/ and build/ are the source
tree's and the build's, with build/ first on PATH, and must exit 0; the
output shown under a `$ ` command must be what it prints (the lines that
do not depend on the host: not the wall-clock `simulation:` line, not an
on-line run's measured times). docs/python.md's example runs too.
Usage: python3 readme_examples.py BUILD SOURCE"""
import os
import re
import subprocess
import sys
import tempfile

build, src = (os.path.abspath(a) for a in sys.argv[1:3])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import check, finish  # noqa: E402


def blocks(path):
    """(language, lines) of each fenced code block."""
    out, lang, cur = [], None, None
    for line in open(path).read().split("\n"):
        if line.startswith("```"):
            if cur is None:
                lang, cur = line[3:].strip(), []
            else:
                out.append((lang, cur))
                cur = None
        elif cur is not None:
            cur.append(line)
    return out


def commands(lang, lines):
    """(command, expected output lines) of a block."""
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append([line[2:], []])
        elif out and lines and lines[0].startswith("$ "):
            out[-1][1].append(line)
        elif lang == "sh" and re.match(r"(simpi |\$HOME/simpi/)", line):
            out.append([re.sub(r"\s+#.*$", "", line), []])
    return out


with tempfile.TemporaryDirectory(prefix="simpi-readme-") as tmp:
    for d in ("examples", "tests"):
        os.symlink(os.path.join(src, d), os.path.join(tmp, d))
    os.symlink(build, os.path.join(tmp, "build"))
    env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"], HOME=tmp,
               PYTHONPATH=os.path.join(src, "python"), SIMPI=os.path.join(build, "simpi"),
               MPLBACKEND="Agg")
    installed = False
    for lang, lines in blocks(os.path.join(src, "README.md")):
        for cmd, expected in commands(lang, lines):
            if "$HOME/simpi" in cmd and not installed:  # README's install, as it says
                subprocess.run(["cmake", "--install", build, "--prefix", tmp + "/simpi"],
                               capture_output=True, check=True)
                installed = True
            p = subprocess.run(cmd, shell=True, cwd=tmp, env=env, capture_output=True, text=True)
            check(p.returncode == 0, "README: `%s` exits 0 (%d)%s" % (
                cmd, p.returncode, "" if p.returncode == 0 else ": " + p.stderr[-300:]))
            got = (p.stdout + p.stderr).split("\n")
            online = " run " in cmd
            for want in expected:
                if not want.strip() or "..." in want or want.startswith("simulation:"):
                    continue
                if online and not (want.startswith("heat:") and "simulated" not in want):
                    continue  # an on-line run's measured times vary
                check(want in got, "README: `%s` prints %r" % (cmd, want[:70]))
    # docs/python.md's worked example, and the output it shows
    for lang, lines in blocks(os.path.join(src, "docs", "python.md")):
        if lang == "python" and "import simpi" in lines[0]:
            p = subprocess.run([sys.executable, "-c", "\n".join(lines)], cwd=tmp, env=env,
                               capture_output=True, text=True)
            check(p.returncode == 0, "docs/python.md's example runs: %s" % p.stderr[-300:])
            shown = next(b for l2, b in blocks(os.path.join(src, "docs", "python.md"))
                         if l2 == "" and b and b[0].startswith("<simpi.Result"))
            check([l for l in shown if l] == [l for l in p.stdout.split("\n") if l],
                  "docs/python.md's example prints what the page shows")
            check(os.path.getsize(os.path.join(tmp, "sweep.png")) > 5000, "and draws sweep.png")


def masked(line):
    """A line with its numbers as # and its spaces collapsed: what a run
    whose computation is measured prints the same each time."""
    return " ".join(re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", line).split())


# docs/tutorial.md (issue 71), run as written in a folder of its own: the
# platform file it writes, its commands in order (each must exit 0 and print
# the lines shown under it: exactly, or with the numbers masked where the
# trace recorded from a measured run is involved), and its Python
with tempfile.TemporaryDirectory(prefix="simpi-tutorial-") as tmp:
    os.symlink(os.path.join(src, "examples"), os.path.join(tmp, "examples"))
    env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"], HOME=tmp,
               PYTHONPATH=os.path.join(src, "python"), SIMPI=os.path.join(build, "simpi"),
               MPLBACKEND="Agg")
    doc = os.path.join(src, "docs", "tutorial.md")
    ran = 0
    parts = blocks(doc)
    for i, (lang, lines) in enumerate(parts):
        m = re.match(r"# (\S+\.yaml):", lines[0]) if lines else None
        if lang == "yaml" and m:
            open(os.path.join(tmp, m.group(1)), "w").write("\n".join(lines) + "\n")
            continue
        if lang == "python":
            p = subprocess.run([sys.executable, "-c", "\n".join(lines)], cwd=tmp, env=env,
                               capture_output=True, text=True)
            check(p.returncode == 0, "tutorial's Python runs: %s" % p.stderr[-300:])
            shown = [masked(l) for l in parts[i + 1][1] if l.strip()]
            got = [masked(l) for l in p.stdout.split("\n") if l.strip()]
            check(shown == got, "tutorial's Python prints what it shows: %s" % got)
            check(os.path.getsize(os.path.join(tmp, "latency.png")) > 5000, "and draws latency.png")
            continue
        for cmd, expected in commands(lang, lines):
            p = subprocess.run(cmd, shell=True, cwd=tmp, env=env, capture_output=True, text=True)
            ran += 1
            check(p.returncode == 0, "tutorial: `%s` exits 0 (%d)%s" % (
                cmd, p.returncode, "" if p.returncode == 0 else ": " + p.stderr[-300:]))
            if "--ideal none,network,cpu" in cmd:  # each what-if below the real thing
                t = {k: float(v) for k, v in re.findall(r"ideal=(\w+) +([\d.]+)", p.stdout)}
                check(len(t) == 3 and 0 < t["network"] < t["none"] and 0 < t["cpu"] < t["none"],
                      "tutorial: an ideal network and an ideal CPU each take less: %s" % t)
            measured = "heat.trace" in cmd or " run " in cmd
            got = [(masked(l) if measured else l) for l in (p.stdout + p.stderr).split("\n")]
            for want in expected:
                if not want.strip() or want.startswith("simulation:"):
                    continue
                check((masked(want) if measured else want) in got,
                      "tutorial: `%s` prints %r" % (cmd[:60], want[:70]))
    check(ran >= 8, "tutorial: %d commands run" % ran)
    for f in ("sweep.html", "heat.html"):
        check(os.path.getsize(os.path.join(tmp, f)) > 10000, "tutorial: %s written" % f)
finish("readme")
