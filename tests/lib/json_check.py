#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
"""Checks kdump's JSON outputs with a real JSON parser, for the e2e tests.

  json_check.py lines FILE...       kdump -J: every line one JSON object, the
                                    first {"type":"info","format":"ktraceb-json",
                                    "version":2}, every record with its common
                                    members (docs/JSON.md); prints the count
                                    of each
  json_check.py chrome FILE...      kdump -P: the Chrome trace-event rules
                                    (docs/TIMELINE.md); prints the event count
  json_check.py select FILE COND [VALUE]
                                    kdump -J records r for which the Python
                                    expression COND holds: VALUE (an
                                    expression of r) or the record, one a line
  json_check.py events FILE COND [VALUE]
                                    the same over a -P file's events (e)

A file that breaks a rule: one line per problem on stderr (the first 20) and
exit status 1.  A JSON-lines file cut by an error (kdump's "-J" output up to a
bad record) is still whole lines: "lines" checks every line it has.
"""
import json
import signal
import sys

COMMON = {"type": str, "ktr_type": int, "pid": int, "tid": int, "comm": str,
          "cpu": int, "ts_ns": int, "wall_ns": int}
PHASES = set("BEXiIMCbneOsft")


class Problems:
    def __init__(self):
        self.n = 0

    def __call__(self, msg):
        self.n += 1
        if self.n <= 20:
            print(msg, file=sys.stderr)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def load_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    out = []
    for i, line in enumerate(data.split(b"\n"), 1):
        if line == b"":
            continue
        out.append((i, line))
    return data, out


def check_stru(path, i, r, own, bad):
    """A STRU: its members from the decoder's fields, never the text
    (docs/JSON.md): "fields" (an object or an array) or "value" in
    ktraceb's files, else "data" (hex) for a structure kdump does not
    decode; another BSD's structure: "data"."""
    if "text" in r:
        bad("%s:%d: STRU with a captured text" % (path, i))
    has = [k for k in ("fields", "value", "data") if k in r]
    if len(has) != 1 and not (own and not has):  # none: out of memory
        bad("%s:%d: STRU with members %s" % (path, i, has))
    if "fields" in r and not isinstance(r["fields"], (dict, list)):
        bad("%s:%d: STRU fields neither object nor array" % (path, i))
    if "data" in r and (not isinstance(r["data"], str) or
                        any(c not in "0123456789abcdef" for c in r["data"])):
        bad("%s:%d: STRU data not hex" % (path, i))
    if not own and "data" not in r:
        bad("%s:%d: another system's STRU without its data" % (path, i))


def check_lines(path):
    bad = Problems()
    data, lines = load_lines(path)
    if data and not data.endswith(b"\n"):
        bad("%s: the last line has no newline" % path)
    recs = []
    for i, line in lines:
        try:
            r = json.loads(line)
        except ValueError as e:
            bad("%s:%d: not JSON: %s" % (path, i, e))
            continue
        if not isinstance(r, dict):
            bad("%s:%d: not an object" % (path, i))
            continue
        recs.append((i, r))
    if not recs:
        bad("%s: no lines" % path)
    else:
        head = recs[0][1]
        if (head.get("type"), head.get("format"), head.get("version")) != \
                ("info", "ktraceb-json", 2):
            bad("%s:1: not the format line: %s" % (path, head))
    own = recs and recs[0][1].get("system") == "ktraceb"
    for i, r in recs[1:]:
        if r.get("ktr_type") == 8 and not r.get("invalid"):  # KTR_STRUCT
            check_stru(path, i, r, own, bad)
        for k, t in COMMON.items():
            if not isinstance(r.get(k), t) or isinstance(r.get(k), bool):
                bad("%s:%d: member %s missing or not %s" % (path, i, k, t.__name__))
        if r.get("type") == "CALL" and not r.get("invalid"):
            for a in r.get("args", None) or []:
                if set(a) != {"name", "value", "raw"}:
                    bad("%s:%d: argument %s" % (path, i, a))
    if bad.n:
        return 1
    print(len(recs))
    return 0


def load_chrome(path, bad):
    with open(path, "rb") as f:
        try:
            doc = json.load(f)
        except ValueError as e:
            bad("%s: not JSON: %s" % (path, e))
            return None
    if isinstance(doc, dict):
        evs = doc.get("traceEvents")
    else:
        evs = doc
    if not isinstance(evs, list):
        bad("%s: no traceEvents array" % path)
        return None
    return evs


def check_chrome(path):
    bad = Problems()
    evs = load_chrome(path, bad)
    if evs is None:
        return 1
    stacks = {}  # (pid, tid) -> [(name, ts)]
    last_ts = {}  # (pid, tid) -> ts of its latest B/E
    xs = {}  # (pid, tid) -> [(start, end)]
    named_threads, named_procs, used = set(), set(), set()
    for n, e in enumerate(evs):
        where = "%s: event %d" % (path, n)
        if not isinstance(e, dict):
            bad("%s: not an object" % where)
            continue
        ph = e.get("ph")
        if not isinstance(ph, str) or ph not in PHASES:
            bad("%s: bad ph %r" % (where, ph))
            continue
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            bad("%s: pid and tid must be integers" % where)
            continue
        key = (e["pid"], e["tid"])
        if "args" in e and not isinstance(e["args"], dict):
            bad("%s: args not an object" % where)
        if ph == "M":
            name = e.get("name")
            arg = (e.get("args") or {}).get("name")
            if name not in ("process_name", "thread_name", "process_sort_index",
                            "thread_sort_index", "process_labels"):
                bad("%s: unknown metadata %r" % (where, name))
            elif name in ("process_name", "thread_name") and not isinstance(arg, str):
                bad("%s: %s without args.name" % (where, name))
            elif name == "process_name":
                named_procs.add(e["pid"])
            elif name == "thread_name":
                named_threads.add(key)
            continue
        if not isinstance(e.get("name"), str) and ph != "E":
            bad("%s: no name" % where)
        ts = e.get("ts")
        if not is_num(ts) or ts < 0:
            bad("%s: bad ts %r" % (where, ts))
            continue
        used.add(key)
        if ph == "i" or ph == "I":
            if e.get("s", "t") not in ("g", "p", "t"):
                bad("%s: bad instant scope %r" % (where, e.get("s")))
        elif ph == "X":
            if not is_num(e.get("dur")) or e["dur"] < 0:
                bad("%s: X without a duration" % where)
            else:
                xs.setdefault(key, []).append((ts, ts + e["dur"]))
        elif ph in "BE":
            if ts < last_ts.get(key, 0):
                bad("%s: %s at %s before the thread's previous %s" %
                    (where, ph, ts, last_ts[key]))
            last_ts[key] = ts
            st = stacks.setdefault(key, [])
            if ph == "B":
                st.append((e["name"], ts))
            elif not st:
                bad("%s: E without a B on %s" % (where, key))
            else:
                name, t0 = st.pop()
                if "name" in e and e["name"] != name:
                    bad("%s: E %r ends B %r" % (where, e["name"], name))
                if ts < t0:
                    bad("%s: E before its B" % where)
    for key, st in stacks.items():
        if st:
            bad("%s: %d slices left open on %s: %s" % (path, len(st), key, st[-1][0]))
    for key, iv in xs.items():
        iv.sort(key=lambda x: (x[0], -x[1]))
        open_ends = []
        for s, t in iv:
            while open_ends and open_ends[-1] <= s:
                open_ends.pop()
            if open_ends and t > open_ends[-1]:
                bad("%s: X slices overlap on %s at %s" % (path, key, s))
            open_ends.append(t)
    for key in sorted(used):
        if key not in named_threads:
            bad("%s: thread %s has no thread_name" % (path, key))
        if key[0] not in named_procs:
            bad("%s: process %d has no process_name" % (path, key[0]))
    if bad.n:
        return 1
    print(len(evs))
    return 0


def select(path, cond, value, chrome):
    if chrome:
        evs = load_chrome(path, Problems()) or []
        env_name = "e"
    else:
        evs = [json.loads(line) for _, line in load_lines(path)[1]]
        env_name = "r"
    c = compile(cond, "COND", "eval")
    v = compile(value, "VALUE", "eval") if value else None
    for x in evs:
        env = {env_name: x}
        try:
            ok = eval(c, env)
        except (KeyError, TypeError, IndexError, AttributeError):
            ok = False
        if not ok:
            continue
        print(json.dumps(x) if v is None else eval(v, env))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] in ("lines", "chrome"):
        check = check_lines if argv[1] == "lines" else check_chrome
        return max(check(path) for path in argv[2:])
    if len(argv) in (4, 5) and argv[1] in ("select", "events"):
        return select(argv[2], argv[3], argv[4] if len(argv) == 5 else None,
                      argv[1] == "events")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # select ... | head
    sys.exit(main(sys.argv))
