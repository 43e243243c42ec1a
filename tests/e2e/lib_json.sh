# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Helpers for the kdump -J and -P tests (t_json, t_json_input), sourced after
# lib.sh: run kdump into a file, check it with tests/lib/json_check.py
# (Python's json module), and pick values out of it with Python expressions
# of a record r (-J) or an event e (-P).

JC="python3 $REPO/tests/lib/json_check.py"
if ! python3 -c 'import json' 2>/dev/null; then
	fail python3 "python3 is needed (scripts/install-deps.sh)"
	e2e_done
fi

# kj P FILE [kdump args...]: kdump -J into $TMP/P.jsonl, stderr $TMP/P.kderr, status $KDRC
kj()
{
	local p=$1 f=$2
	shift 2
	timeout -k 5 60 "$KDUMP" -J "$@" -f "$f" >"$TMP/$p.jsonl" 2>"$TMP/$p.kderr" </dev/null
	KDRC=$?
}

# kp P FILE [kdump args...]: kdump -P into $TMP/P.json
kp()
{
	local p=$1 f=$2
	shift 2
	timeout -k 5 60 "$KDUMP" -P "$@" -f "$f" >"$TMP/$p.json" 2>"$TMP/$p.kderr" </dev/null
	KDRC=$?
}

# sel P COND [VALUE]: VALUE (or the record) of each record r of $TMP/P.jsonl where COND
sel()
{
	$JC select "$TMP/$1.jsonl" "$2" ${3:+"$3"}
}

# evs P COND [VALUE]: the same over the events e of $TMP/P.json
evs()
{
	$JC events "$TMP/$1.json" "$2" ${3:+"$3"}
}

# lines_ok P / chrome_ok P: the checker accepts $TMP/P.jsonl / $TMP/P.json;
# the count of records or events in $TMP/P.count
lines_ok()
{
	$JC lines "$TMP/$1.jsonl" >"$TMP/$1.count"
}

chrome_ok()
{
	$JC chrome "$TMP/$1.json" >"$TMP/$1.count"
}

# ends_cleanly P: no crash, no hang, at most one line of error
ends_cleanly()
{
	[ "$KDRC" -ne 124 ] && [ "$KDRC" -lt 128 ] && [ "$(wc -l <"$TMP/$1.kderr")" -le 1 ] &&
		return 0
	echo "    exit $KDRC, stderr: $(head -c 300 "$TMP/$1.kderr")" >&2
	return 1
}

# many_ok KIND DIR: every output in DIR passes json_check.py KIND (one run)
many_ok()
{
	local ext=jsonl
	[ "$1" = chrome ] && ext=json
	$JC "$1" "$2"/*."$ext" >/dev/null
}
