#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Root's daemon log against a user who names his trace files (issue 39,
# item 4): a file name holding newlines, a terminal escape and a backslash,
# of a trace root's daemon refuses (pid 1 is not the user's) and of one it
# serves (his own process, then cleared).  Each trace adds one line to the
# log, whatever its name holds: the newline shows as \n, the escape as
# \x1b, the backslash as \\; no line of the user's making starts a line.
# The daemon logged such a name as it was: three lines for one trace.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
LOG=/run/ktraceb/ktraceb-$BUILD_ID.log
NL=$'\n'
FAKE="2026-01-01T00:00:00 ktracebd[1]: FORGED"

lines() { wc -l <"$LOG" 2>/dev/null || echo 0; }

# log_grows FROM: wait (10 s) until the log has more than FROM lines
log_grows()
{
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(lines)" -gt "$1" ] && return 0
		sleep 0.05
	done
	echo "    the log stayed at $1 lines for 10 s" >&2
	return 1
}

# one_line_added FROM NAME: the log gained exactly one line since FROM, which
# names the file as the escaped NAME, and no line of the user's making
one_line_added()
{
	local got want
	# a message is one write: lines of the user's making would come with the first
	got=$(tail -n +"$(($1 + 1))" "$LOG")
	printf '%s\n' "$got" >"$TMP/added"
	t_lines 1 "$TMP/added" || return 1
	t_nogrep '^2026-01-01T00:00:00 ktracebd\[1\]|^[^0-9]' "$TMP/added" || return 1
	want=$(printf '%s' "$2" | sed -e 's/\\/\\\\/g' -e 's/\x1b/\\x1b/g' | sed -z 's/\n/\\n/g')
	grep -qF -- "$want" "$TMP/added" && return 0
	echo "    the line does not name '$want': $got" >&2
	return 1
}

# root's daemon stays up throughout
bg keeper "$ATT_TICK" 200 0
KEEP=$(wait_role "$TMP/keeper.pout" pid)
ktr keep -f "$TMP/keep.ktr" -p "$KEEP"
check setup_keeper_traced t_krc 0 keep
if [ ! -f "$LOG" ]; then
	skip all "root's daemon keeps no log file ($LOG)"
	e2e_done
fi

START=$(lines)

# --- refused: pid 1 is not the user's; its file was joined, and ends ---
NAME="$UDIR/r${NL}${FAKE} refused${NL}x"$'\e[2J\\'
n0=$(lines)
plain refused -p 1 -f "$NAME"
check refused_refused t_grep '^ktraceb: pid 1: not your process$' "$TMP/refused.err"
log_grows "$n0"
check refused_one_line one_line_added "$n0" "$NAME"

# --- accepted: the user's own process, then cleared ---
ubg mine "$UBIN/att_tick" 100 0
MINE=$(wait_role "$TMP/mine.pout" pid)
NAME="$UDIR/a${NL}${FAKE} accepted${NL}y"$'\e[2J\\'
n0=$(lines)
plain accepted -p "$MINE" -f "$NAME"
check accepted_traced t_krc 0 accepted
plain cleared -c -f "$NAME"
check accepted_cleared t_krc 0 cleared
log_grows "$n0"
check accepted_one_line one_line_added "$n0" "$NAME"
tail -n +"$((START + 1))" "$LOG" >"$TMP/since"
check no_forged_line t_nogrep '^2026-01-01T00:00:00 ktracebd\[1\]' "$TMP/since"
ktr keepc -c -f "$TMP/keep.ktr"
e2e_done
