# SPDX-License-Identifier: BSD-3-Clause
# The shell tests' harness, sourced by every tests/*/run-* script:
#   . "$(dirname "$0")/../lib/harness.sh"
# ok / fail count checks; skip tells ctest the test could not run (exit 77,
# reported "Skipped", never "Passed"); json_get, json_check and near read
# simpi's JSON (json_eval computes from it) and compare numbers (python3, as every test machine has it);
# with_timeout bounds a command; wait_for waits for a state, never for a
# time; finish prints the verdict and exits with it.
# shellcheck shell=sh

fails=0

ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# skip WHY: the test cannot run here (a tool is missing): exit 77
skip() { echo "SKIPPED: $*"; exit 77; }

# json_get FILE PATH: the value at PATH (keys and list indices joined by
# dots: simulation.messages, jobs.0.slowdown) of the JSON document in FILE
# (- for standard input), printed as Python prints it (floats exactly, by
# repr); false, with why on stderr, if FILE is no JSON or PATH is absent
json_get() {
  python3 -c '
import json, sys
f, path = sys.argv[1], sys.argv[2]
try:
    d = json.load(sys.stdin if f == "-" else open(f))
    for k in path.split(".") if path else []:
        d = d[int(k)] if isinstance(d, list) else d[k]
except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
    sys.exit("json_get %s %s: %r" % (f, path, e))
print(json.dumps(d) if isinstance(d, (dict, list, bool)) or d is None else d)
' "$1" "$2"
}

# json_check FILE EXPRESSION: whether the Python EXPRESSION holds, with d
# the JSON document in FILE; false (and why on stderr) otherwise
json_check() {
  python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    ok = eval(sys.argv[2], {"d": d, "abs": abs, "len": len, "sum": sum, "min": min, "max": max})
except Exception as e:
    sys.exit("json_check %s: %r" % (sys.argv[1], e))
sys.exit(0 if ok else "json_check %s: %s does not hold" % (sys.argv[1], sys.argv[2]))
' "$1" "$2"
}

# json_eval FILE EXPRESSION: the value of the Python EXPRESSION, with d
# the JSON document in FILE (sum(r['messages_sent'] for r in d['ranks']))
json_eval() {
  python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    print(eval(sys.argv[2], {"d": d, "abs": abs, "len": len, "sum": sum, "min": min, "max": max}))
except Exception as e:
    sys.exit("json_eval %s: %r" % (sys.argv[1], e))
' "$1" "$2"
}

# near A B [TOLERANCE]: whether |A - B| <= TOLERANCE (default 1e-12, a
# picosecond in seconds) for two numbers
near() {
  python3 -c 'import sys; a, b, t = map(float, sys.argv[1:4]); sys.exit(0 if abs(a - b) <= t else 1)' \
    "$1" "$2" "${3:-1e-12}" 2> /dev/null
}

# ratio A B: A / B, to 3 decimals
ratio() { python3 -c 'import sys; print("%.3f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }

# with_timeout SECONDS COMMAND...: COMMAND, killed after SECONDS (status
# 124), then SIGKILLed 10 s later if it ignores SIGTERM
with_timeout() { timeout -k 10 "$@"; }

# wait_for SECONDS COMMAND...: runs COMMAND every tenth of a second until
# it succeeds (a state reached); false if SECONDS pass first (the bound
# only stops a hang: a loaded machine still gets there)
wait_for() {
  _limit=$(($1 * 10)); shift
  _i=0
  while ! "$@" 2> /dev/null; do
    _i=$((_i + 1))
    [ "$_i" -ge "$_limit" ] && return 1
    sleep 0.1
  done
}

# finish NAME: the verdict, and the exit status ctest reads: 1 if a check
# failed; else 77 ("Skipped") if a part could not run (the script set
# skipped to why), else 0
finish() {
  if [ "$fails" != 0 ]; then
    echo "$1: $fails failed"
    exit 1
  fi
  if [ -n "${skipped:-}" ]; then
    echo "SKIPPED: $skipped"
    exit 77
  fi
  echo "$1: all checks passed"
  exit 0
}
