#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The test runner: every $O/tests/unit/test_* binary, then every
# tests/e2e/t_*.sh script.  Each prints "PASS: name", "FAIL: name" or
# "SKIP: name (reason)" lines on stdout; their stderr (diagnostics) passes
# through.  A test that exits non-zero without a FAIL line, or that runs into
# the timeout, counts as one FAIL.  The last line is always the summary
# "N passed, N failed[, N skipped]"; the exit status is 1 if anything failed.
#
#   O=build tests/run.sh [PATTERN]   PATTERN: only tests whose name contains it
#
# Each test runs as a session of its own (setsid), so that nothing it
# signals (its own process group, by mistake) reaches the runner or its
# timer; at the timeout every process of that session is sent SIGTERM, then
# SIGKILL 10 s later, and when a test ends, whatever it left in its session
# is killed.  A test's daemons leave its session (setsid) and live on.
#
# Environment: O (build dir, default build), KTR_E2E_DIR (the scripts' folder,
# default tests/e2e: t_runner.sh gives its own), KTR_TEST_TIMEOUT (seconds per
# binary or script, default 300; a script whose header has "# time limit: N"
# gets N where N is more), KTR_TIER: "check" runs only what needs no
# root and no BPF (the unit tests and the e2e scripts that do not call
# need_tracer), as an ordinary user: started by root, it runs itself again
# as nobody when nobody can read the tree.

cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
case $O in
/*) ;;
*) O=$(pwd)/$O ;;
esac
export O
TIMEOUT=${KTR_TEST_TIMEOUT:-300}
PATTERN=${1:-}
TIER=${KTR_TIER:-all}

if [ "$TIER" = check ] && [ "$(id -u)" -eq 0 ] && [ -z "${KTR_CHECK_AS_ROOT:-}" ]; then
	drop="setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all"
	if $drop test -r tests/run.sh -a -x "$O/kdump" 2>/dev/null; then
		echo "check: running as nobody" >&2
		exec $drop env O="$O" KTR_TIER=check KTR_TEST_TIMEOUT="$TIMEOUT" \
			HOME=/nonexistent TMPDIR=/tmp sh tests/run.sh "$PATTERN"
	fi
	echo "check: nobody cannot read $(pwd) or $O: running as root" >&2
	KTR_CHECK_AS_ROOT=1
	ASROOT=1
fi

npass=0
nfail=0
nskip=0
if [ -n "${ASROOT:-}" ]; then
	echo "SKIP: check_as_nobody (the tree is not readable by nobody)"
	nskip=1
fi
out=$(mktemp "${TMPDIR:-/tmp}/ktr-run.XXXXXX") || exit 1
tpid=
wd=
trap 'rm -f "$out" "$out.timedout"' EXIT
# interrupted: the test's session too (TERM first: a runner in it, as
# t_runner.sh's, ends its own test's session)
interrupted()
{
	[ -n "$wd" ] && kill "$wd" 2>/dev/null
	if [ -n "$tpid" ]; then
		kill_session "$tpid" TERM
		sleep 1
		kill_session "$tpid" KILL
	fi
	exit 130
}
trap interrupted INT TERM

# session_pids SID: the processes of session SID (field 6 of /proc/PID/stat,
# the 4th after the command's name, which may hold spaces)
session_pids()
{
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk -v sid="$1" '{ pid = $1; sub(/^.*\) /, ""); if ($4 == sid) print pid }'
}

# kill_session SID SIG: SIG (and SIGCONT, for a stopped one) to every
# process of session SID, until none is left (SIGKILL) or once (others)
kill_session()
{
	_i=0
	while [ "$_i" -lt 50 ]; do
		_p=$(session_pids "$1")
		[ -n "$_p" ] || return 0
		kill -"$2" $_p 2>/dev/null
		kill -CONT $_p 2>/dev/null
		[ "$2" = KILL ] || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
}

# limit_of SCRIPT: its time limit in seconds: the default, or more where its
# header asks for more ("# time limit: N"): a script that does more than
# most (t_tables' scans of the kernel's headers) says so where it is written
limit_of()
{
	_l=$(sed -n '1,40s/^# time limit: \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1)
	if [ -n "$_l" ] && [ "$_l" -gt "$TIMEOUT" ]; then
		echo "$_l"
	else
		echo "$TIMEOUT"
	fi
}

# run NAME CMD...: run one test binary or script and count its lines.  The
# test is the leader of a new session: a background job of this
# non-interactive shell leads no process group, so setsid(1) does not fork
# and $! is the session's id.  The watchdog, outside it, ends it at the
# timeout.
run()
{
	name=$1
	shift
	limit=${LIMIT:-$TIMEOUT}
	rm -f "$out.timedout"
	setsid "$@" >"$out" </dev/null &
	tpid=$!
	(
		trap 'kill "$_s" 2>/dev/null; exit 0' TERM
		sleep "$limit" &
		_s=$!
		wait "$_s"
		: >"$out.timedout"
		kill_session "$tpid" TERM
		sleep 10 &
		_s=$!
		wait "$_s"
		kill_session "$tpid" KILL
	) &
	wd=$!
	wait "$tpid"
	rc=$?
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	kill_session "$tpid" KILL
	tpid=
	wd=
	[ -e "$out.timedout" ] && rc=124
	fails=0
	while IFS= read -r line; do
		case $line in
		PASS:*)
			npass=$((npass + 1))
			echo "$line"
			;;
		FAIL:*)
			nfail=$((nfail + 1))
			fails=$((fails + 1))
			echo "$line"
			;;
		SKIP:*)
			nskip=$((nskip + 1))
			echo "$line"
			;;
		*)
			[ -n "${KTR_TEST_VERBOSE:-}" ] && echo "  $line"
			;;
		esac
	done <"$out"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL: $name (timed out after ${limit}s or killed)"
		nfail=$((nfail + 1))
	elif [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ]; then
		echo "FAIL: $name (exit status $rc)"
		nfail=$((nfail + 1))
	fi
}

matches()
{
	[ -z "$PATTERN" ] && return 0
	case $1 in
	*"$PATTERN"*) return 0 ;;
	esac
	return 1
}

nunit=0
for t in "$O"/tests/unit/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case $t in
	*.o | *.d) continue ;;
	esac
	nunit=$((nunit + 1))
	matches "${t##*/}" || continue
	run "${t##*/}" "$t"
done
if [ "$nunit" -eq 0 ]; then
	echo "FAIL: unit (no test binaries in $O/tests/unit; run make test)"
	nfail=$((nfail + 1))
fi

for t in "${KTR_E2E_DIR:-tests/e2e}"/t_*.sh; do
	[ -f "$t" ] || continue
	matches "${t##*/}" || continue
	if [ "$TIER" = check ] && grep -q '^need_tracer' "$t"; then
		continue
	fi
	LIMIT=$(limit_of "$t")
	run "${t##*/}" bash "$t"
done

summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
