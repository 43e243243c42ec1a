# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Helpers for the end-to-end tests (bash).  A test script sources this file,
# runs real programs under $KTRACEB, reads the trace back with $KDUMP and
# checks what kdump prints.  Every check prints one line for tests/run.sh:
#   PASS: e2e/<group>/<check>
#   FAIL: e2e/<group>/<check>        (details on stderr)
#   SKIP: e2e/<group>/<check> (reason)
# and the script exits 1 if any check failed.
#
# kdump output is parsed into a "norm" file, one record per line with tab-
# separated fields  pid  tid  comm  TAG  body:
#   " 1234:1234  cat      RET   openat 3"  ->  1234 1234 cat RET "openat 3"
# Lines that are not records (GIO data, ...) get TAG "-" and the raw line.

set -u
umask 022

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$E2E_DIR/../.." && pwd)
O=${O:-$REPO/build}
case $O in
/*) ;;
*) O=$REPO/$O ;;
esac
KTRACEB=${KTRACEB:-$O/ktraceb}
KDUMP=${KDUMP:-$O/kdump}
PROGS=$O/tests/progs
GROUP=$(basename "$0" .sh)
GROUP=${GROUP#t_}
NFAIL=0
KTR_TIMEOUT=${KTR_TIMEOUT:-120}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktr-e2e-$GROUP.XXXXXX") || exit 1
chmod 755 "$TMP"
trap 'e2e_cleanup' EXIT

e2e_cleanup()
{
	local p
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	# a daemon left in the mount namespace of own_bpffs would serve the next test
	[ -n "${KTR_OWN_BPFFS:-}" ] && kill_daemons
	if [ -n "${KTR_KEEP:-}" ]; then
		echo "e2e/$GROUP: kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}

pass()
{
	echo "PASS: e2e/$GROUP/$1"
}

# fail NAME [DETAIL...]
fail()
{
	local name=$1
	shift
	echo "FAIL: e2e/$GROUP/$name"
	echo "--- e2e/$GROUP/$name" >&2
	[ $# -gt 0 ] && printf '    %s\n' "$@" >&2
	NFAIL=$((NFAIL + 1))
}

skip()
{
	echo "SKIP: e2e/$GROUP/$1 ($2)"
}

# check NAME CMD [ARGS...]: PASS if the command succeeds.  The t_* assertion
# helpers below print why they failed on stderr.
check()
{
	local name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name" "check: $*"
	fi
}

e2e_done()
{
	[ "$NFAIL" -eq 0 ] && exit 0
	exit 1
}

# --- preconditions ------------------------------------------------------------

# The BPF tests need root; without it every check of the script is one SKIP.
need_tracer()
{
	if [ "$(id -u)" -ne 0 ]; then
		skip all "needs root (BPF)"
		exit 0
	fi
	if [ ! -r /sys/kernel/btf/vmlinux ]; then
		skip all "kernel has no BTF (/sys/kernel/btf/vmlinux)"
		exit 0
	fi
	need_kdump
	if [ ! -x "$KTRACEB" ]; then
		fail build "$KTRACEB not built (make O=$O)"
		exit 1
	fi
}

# need_usdt: on a kernel without what USDT probes need (bpf_loop(), Linux
# 5.17), a trace with -t u is recorded without them and says so in one line
# naming the kernel that has it: checked, and the rest of the script, which
# needs probes recorded, skipped.
need_usdt()
{
	kernel_before 5.17 || return 0
	ktr usdt_lacking -t cu -f "$TMP/usdt_lacking.ktr" "$PROGS/uev_sdt" 1
	check usdt_lacking_runs t_krc 0 usdt_lacking
	check usdt_lacking_said t_grep \
		'^ktraceb: -t u: USDT probes are not recorded on this kernel: the kernel has no .* \(Linux 5\.1[57]\)$' \
		"$TMP/usdt_lacking.err"
	skip all "USDT probes need Linux 5.17 (bpf_loop())"
	e2e_done
}

need_kdump()
{
	local p
	for p in "$KDUMP" "$PROGS/ktrwalk" "$PROGS/ktrgen"; do
		if [ ! -x "$p" ]; then
			fail build "$p not built (make O=$O test)"
			exit 1
		fi
	done
}

# --- signals and waits ----------------------------------------------------------

# A test signals only what it started.  tests/run.sh starts each script as a
# session of its own (setsid), which a test's processes stay in unless they
# leave it, as the daemon does.  So a pid is the test's own if it is
#  - in the test's session (when the test leads one: the runner's), or
#  - a descendant of the test (a script run by hand, in its shell's session), or
#  - a daemon of this build: it holds a socket $SOCK_RX names (t_builds.sh
#    sets it to its twin's for the twin's daemons).
# An empty or stale pid is the test's own error, never "kill 0" (the test's
# process group, and with it whatever shares the group) or "kill -1".

# proc_ids PID: PS_PPID, PS_PGRP and PS_SID of PID from /proc/PID/stat (the
# fields after the command's name, which may hold spaces and parentheses)
proc_ids()
{
	local s
	read -r s 2>/dev/null <"/proc/$1/stat" || return 1
	s=${s##*) }
	read -r _ PS_PPID PS_PGRP PS_SID _ <<<"$s"
	[ -n "$PS_SID" ]
}

TEST_SID=
proc_ids $$ && [ "$PS_SID" = $$ ] && TEST_SID=$$

# own_pid PID: 0 if PID is the test's own (above); 1 if not, or gone
own_pid()
{
	local p=$1 i inos
	proc_ids "$p" || return 1
	[ -n "$TEST_SID" ] && [ "$PS_SID" = "$TEST_SID" ] && return 0
	for ((i = 0; i < 200; i++)); do
		[ "$PS_PPID" = $$ ] && return 0
		[ "$PS_PPID" -gt 1 ] 2>/dev/null && proc_ids "$PS_PPID" || break
	done
	inos=$(RX=$SOCK_RX awk '$NF ~ ENVIRON["RX"] && $6 == "01" { print $7 }' /proc/net/unix |
		sort -u)
	[ -n "$inos" ] || return 1
	[ -n "$(sock_holders "$inos" "/proc/$p/fd")" ]
}

# sock_holders "INODE..." [FD_DIRS...]: the pids whose descriptors (in
# FD_DIRS, default every process's) are one of the sockets INODE..., by one
# find: a busy machine takes seconds to run an ls per process
sock_holders()
{
	local ino args=()
	for ino in $1; do
		[ ${#args[@]} -gt 0 ] && args+=(-o)
		args+=(-lname "socket:\\[$ino\\]")
	done
	shift
	[ ${#args[@]} -gt 0 ] || return 0
	[ $# -gt 0 ] || set -- /proc/[0-9]*/fd
	find "$@" -mindepth 1 -maxdepth 1 \( "${args[@]}" \) -printf '%h\n' 2>/dev/null |
		awk -F/ '{ print $3 }' | sort -un
}

# tkill [-SIG] PID...: kill for tests.  Each PID must be a number above 1 and
# the test's own (own_pid); anything else is refused with a line on stderr
# and not signalled.  tkill [-SIG] -g PGID: the process group PGID, whose
# leader must be the test's own and not in the test's own group.  The status
# is kill's: 0 if every PID was signalled.
tkill()
{
	local sig=-TERM p rc=0 group=
	case ${1:-} in
	-g | --) ;;
	-*)
		sig=$1
		shift
		;;
	esac
	if [ "${1:-}" = -g ]; then
		group=1
		shift
	fi
	if [ $# -eq 0 ]; then
		echo "    tkill: refused: no pid" >&2
		return 1
	fi
	for p in "$@"; do
		case $p in
		'' | *[!0-9]* | 0 | 1 | 0*)
			echo "    tkill: refused pid '$p' (not a process's id)" >&2
			rc=1
			continue
			;;
		esac
		if ! own_pid "$p"; then
			if [ -d "/proc/$p" ]; then
				echo "    tkill: refused pid $p (not the test's: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60))" >&2
			fi
			rc=1
			continue
		fi
		if [ -n "$group" ]; then
			proc_ids $$
			local ours=$PS_PGRP
			if ! proc_ids "$p" || [ "$PS_PGRP" != "$p" ] || [ "$p" = "$ours" ]; then
				echo "    tkill: refused group $p (not a group of the test's own)" >&2
				rc=1
				continue
			fi
			kill "$sig" -- "-$p" || rc=1
		else
			kill "$sig" "$p" || rc=1
		fi
	done
	return "$rc"
}

# alive PID: PID is a process of the test's that has not exited (a zombie
# not yet waited for counts as alive, as kill -0 has it)
alive()
{
	tkill -0 "$1" 2>/dev/null
}

# wait_until SECONDS CMD...: run CMD every 0.05 s until it succeeds; 1 (and
# a line on stderr) if it has not after SECONDS.  For a busy machine, the
# bound is generous: it costs nothing when the condition comes on time.
wait_until()
{
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	echo "    wait_until: not after $secs s: $*" >&2
	return 1
}

# wait_kd P FILE MIN COND [var=value...]: kd P FILE until at least MIN of
# its norm lines match COND (q's), up to 60 s: records to wait for, not a
# fixed sleep a busy machine's daemon may not have written them in
wait_kd()
{
	local p=$1 f=$2 min=$3 i
	shift 3
	for ((i = 0; i < 300; i++)); do
		kd "$p" "$f"
		[ "$(qn "$TMP/$p.norm" "$@")" -ge "$min" ] && return 0
		sleep 0.2
	done
	echo "    $f: fewer than $min records match $1 after 60 s" >&2
	return 1
}

# --- running the tools -------------------------------------------------------

# The daemon's socket names carry the build's id (ktr_proto.h): root's is
# /run/ktraceb/ktraceb-ID.sock, a user's @ktraceb-ID.UID.  Daemons of other
# builds never serve this build's commands, so no test waits for them.
BUILD_ID=$(sed -n 's/^#define KTRACEB_BUILD_ID "\(.*\)"$/\1/p' "$O/gen/build_id.h" 2>/dev/null)
SOCK_RX="^(@|/run/ktraceb/)ktraceb-${BUILD_ID:-[0-9a-f]+}(\\.[0-9]+|\\.sock)?\$"

# daemon_rings: how many ring buffers a daemon makes here: one a possible CPU
# ("0-3", "0,2-5" in the kernel's list), a power of two, 8 at most
daemon_rings()
{
	local n
	n=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-");
		n += (2 in r) ? r[2] - r[1] + 1 : 1 } print n }' /sys/devices/system/cpu/possible)
	awk -v n="${n:-1}" 'BEGIN { w = 1; while (w < n && w < 8) w *= 2; print w }'
}

# daemon_sockets: this build's daemon sockets bound now
daemon_sockets()
{
	RX=$SOCK_RX awk '$NF ~ ENVIRON["RX"] { print $NF }' /proc/net/unix | sort -u
}

# kill_daemons: kill -9 this build's daemons (root's and users'), found by their
# sockets; another build's, or another test run's, live on
kill_daemons()
{
	local inos p
	inos=$(RX=$SOCK_RX awk '$NF ~ ENVIRON["RX"] && $6 == "01" { print $7 }' /proc/net/unix |
		sort -u)
	[ -n "$inos" ] || return 0
	for p in $(sock_holders "$inos"); do
		tkill -KILL "$p" 2>/dev/null
	done
	return 0
}

# daemon_gone SECONDS: 0 once no daemon of this build listens.  ktraceb hands
# traces to a daemon that outlives it by about a second, and -b only sizes the
# ring of a daemon it starts: tests of -b wait for the old one to go first.
daemon_gone()
{
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		[ -z "$(daemon_sockets)" ] && return 0
		sleep 0.1
	done
	return 1
}

# own_bpffs "$@": the rest of the script runs in a mount namespace of its
# own, on a bpffs of its own, this build's daemons killed first: what its
# daemons pin (the recordings a kill -9 leaves, the programs kept for the
# next daemon) no other daemon on the machine sees, and none touches (an
# older build's removes what a dead daemon of another build left).  Where
# there is no such namespace, the script runs as it is.
own_bpffs()
{
	if [ -n "${KTR_OWN_BPFFS:-}" ]; then
		mount -t bpf -o mode=0700 bpf /sys/fs/bpf
		return 0
	fi
	[ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null || return 0
	kill_daemons
	daemon_gone 10
	rm -rf "$TMP"
	KTR_OWN_BPFFS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
}

# ktr P [ktraceb args...]: run ktraceb; stdout in $TMP/P.out, stderr in
# $TMP/P.err, exit status in $KRC.
ktr()
{
	local p=$1
	shift
	timeout -k 5 "$KTR_TIMEOUT" "$KTRACEB" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# kd P TRACEFILE [kdump args...]: kdump -f TRACEFILE into $TMP/P.kd (stdout),
# $TMP/P.kderr, $TMP/P.norm; exit status in $KDRC.
kd()
{
	local p=$1 f=$2
	shift 2
	timeout -k 5 "$KTR_TIMEOUT" "$KDUMP" "$@" -f "$f" >"$TMP/$p.kd" 2>"$TMP/$p.kderr" </dev/null
	KDRC=$?
	norm <"$TMP/$p.kd" >"$TMP/$p.norm"
}

# norm: kdump text on stdin -> tab-separated pid tid comm TAG body
norm()
{
	awk '
	$1 ~ /^[0-9]+(:[0-9]+)?$/ && $3 ~ /^[A-Z]+$/ {
		split($1, pt, ":")
		tid = (2 in pt) ? pt[2] : ""
		body = $0
		sub(/^ *[^ ]+ +[^ ]+ +[A-Z]+ */, "", body)
		printf "%s\t%s\t%s\t%s\t%s\n", pt[1], tid, $2, $3, body
		next
	}
	{ printf "\t\t\t-\t%s\n", $0 }'
}

# ktr_summary P: "N M FILE" from the last line of $TMP/P.err:
#   "ktraceb: N records written to FILE, M lost"
ktr_summary()
{
	sed -n 's/^ktraceb: \([0-9][0-9]*\) records written to \(.*\), \([0-9][0-9]*\) lost$/\1 \3 \2/p' \
		"$TMP/$1.err" | tail -n 1
}

# walk P TRACEFILE: ktrwalk into $TMP/P.walk; the status is ktrwalk's
walk()
{
	"$PROGS/ktrwalk" "$2" >"$TMP/$1.walk" 2>&1
}

# walkval P KEY: a value from $TMP/P.walk ("records", "lost_total", "type 1", ...)
walkval()
{
	awk -v k="$2" '
	{ key = $1; for (i = 2; i < NF; i++) key = key " " $i }
	key == k { v = $NF } END { print (v == "" ? 0 : v) }' "$TMP/$1.walk"
}

# q NORMFILE AWK-CONDITION [var=value...]: the matching norm lines.
# Fields: $1 pid, $2 tid, $3 comm, $4 TAG, $5 body.
q()
{
	local f=$1 cond=$2
	shift 2
	local args=()
	for a in "$@"; do
		args+=(-v "$a")
	done
	awk -F'\t' "${args[@]}" "$cond" "$f"
}

# qn NORMFILE COND [var=value...]: how many norm lines match
qn()
{
	q "$@" | wc -l | tr -d ' '
}

# --- assertions: return 0/1, explain failures on stderr ------------------------

t_eq()
{
	[ "$1" = "$2" ] && return 0
	echo "    got '$1', expected '$2'${3:+ ($3)}" >&2
	return 1
}

t_ne()
{
	[ "$1" != "$2" ] && return 0
	echo "    got '$1' twice, expected two different values${3:+ ($3)}" >&2
	return 1
}

t_match()
{
	printf '%s\n' "$1" | grep -Eq -- "$2" && return 0
	echo "    '$1' does not match /$2/" >&2
	return 1
}

# t_grep REGEX FILE: some line matches
t_grep()
{
	grep -Eq -- "$1" "$2" && return 0
	echo "    no line of $2 matches /$1/; first lines:" >&2
	head -n 15 "$2" | cut -c1-200 | sed 's/^/      /' >&2
	return 1
}

t_nogrep()
{
	grep -Eq -- "$1" "$2" || return 0
	echo "    unexpected lines in $2 matching /$1/:" >&2
	grep -E -- "$1" "$2" | head -n 5 | cut -c1-200 | sed 's/^/      /' >&2
	return 1
}

t_lines()
{
	local n
	n=$(wc -l <"$2" | tr -d ' ')
	[ "$n" -eq "$1" ] && return 0
	echo "    $2 has $n lines, expected $1:" >&2
	head -n 5 "$2" | cut -c1-200 | sed 's/^/      /' >&2
	return 1
}

# kernel_before X.Y: is the running kernel older than Linux X.Y?
kernel_before()
{
	local have want
	have=$(uname -r | awk -F'[.-]' '{ printf "%d%03d", $1, $2 }')
	want=$(echo "$1" | awk -F. '{ printf "%d%03d", $1, $2 }')
	[ "$have" -lt "$want" ]
}

# t_said N P: ktraceb said N lines ($TMP/P.err).  A kernel without what
# USDT probes need (bpf_loop(), Linux 5.17) says so in one line of every
# trace of the default facilities, which have -t u: there, that line is
# not counted.  t_silent P: it said nothing else.
t_said()
{
	local err=$TMP/$2.err
	if kernel_before 5.17; then
		grep -Ev '^ktraceb: -t u: USDT probes are not recorded on this kernel: ' "$err" \
			>"$err.rest"
		err=$err.rest
	fi
	t_lines "$1" "$err"
}

t_silent()
{
	t_said 0 "$1"
}

t_num()
{
	# t_num A OP B: integer comparison with a message
	if [ "$1" "$2" "$3" ] 2>/dev/null; then
		return 0
	fi
	echo "    expected $1 $2 $3${4:+ ($4)}" >&2
	return 1
}

# t_kdump_ok P: kdump exited 0 and said nothing on stderr
t_kdump_ok()
{
	[ "$KDRC" -eq 0 ] && [ ! -s "$TMP/$1.kderr" ] && return 0
	echo "    kdump exit $KDRC, stderr:" >&2
	head -n 5 "$TMP/$1.kderr" | sed 's/^/      /' >&2
	return 1
}

# is_gzip FILE: starts with gzip's magic and gzip -t accepts it whole
is_gzip()
{
	[ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = 1f8b ] && gzip -t "$1" 2>/dev/null &&
		return 0
	echo "    $1 is not a whole gzip file: $(head -c 2 "$1" | od -An -tx1)" >&2
	return 1
}

# t_exit RC: $KRC == RC, showing ktraceb's stderr otherwise
t_krc()
{
	[ "$KRC" -eq "$1" ] && return 0
	echo "    ktraceb exit $KRC, expected $1; stderr:" >&2
	head -n 10 "$TMP/$2.err" | sed 's/^/      /' >&2
	return 1
}

# --- helpers for kdump output --------------------------------------------------

# hexof N: "0x4d2"
hexof()
{
	printf '%#x' "$1"
}

# retrx VALUE: a regex for a RET value as BSD kdump prints it ("3", "1234/0x4d2")
retrx()
{
	if [ "$1" -ge 0 ] && [ "$1" -le 9 ]; then
		printf '%s' "$1"
	else
		printf '%s(/%s)?' "$1" "$(hexof "$1")"
	fi
}

# around NORM TID PATH: the CALL and RET bodies around the first NAMI "PATH"
# of thread TID, as two lines "CALL body" / "RET body".  The records of one
# thread go CALL, NAMI..., RET.
around()
{
	q "$1" '$2 == tid' tid="$2" | awk -F'\t' -v path="\"$3\"" '
	$4 == "CALL" { call = $5; nami = 0 }
	$4 == "NAMI" && $5 == path { nami = 1; found = call }
	$4 == "RET" && nami && !done { print "CALL " found; print "RET " $5; done = 1 }'
}
