# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Helpers for the attach tests (t_attach, t_perm, t_inherit, t_move, t_faults,
# t_multi), sourced after lib.sh:
#  - background processes whose pids the test reads from their own output;
#  - "does this trace file still grow" probes: the daemon writes every 50 ms,
#    so a file that has not changed for a second is no longer written to;
#  - an unprivileged test user (user_setup) with its own copies of ktraceb:
#    $UBIN/ktraceb with cap_bpf,cap_perfmon+ep, $UBIN/plain without, and of
#    kdump and the test programs, in a directory the user can read.

ATT_TICK=$PROGS/att_tick
ATT_TREE=$PROGS/att_tree

need_att_progs()
{
	local p
	for p in "$ATT_TICK" "$ATT_TREE"; do
		if [ ! -x "$p" ]; then
			fail build "$p not built (make O=$O test)"
			exit 1
		fi
	done
}

# bg NAME CMD...: start CMD in the background, stdout in $TMP/NAME.pout;
# its pid in BGPID (killed at exit by lib.sh).
bg()
{
	local name=$1
	shift
	"$@" >"$TMP/$name.pout" 2>"$TMP/$name.perr" </dev/null &
	BGPID=$!
	disown "$BGPID" # no "Killed" notes from bash when the cleanup kills it
	E2E_PIDS="${E2E_PIDS:-} $BGPID"
}

# wait_line FILE REGEX [SECONDS]: wait until a line of FILE matches
wait_line()
{
	local i n=$((${3:-10} * 20))
	for ((i = 0; i < n; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "    $1: no line matches /$2/ after ${3:-10}s" >&2
	return 1
}

# role FILE ROLE: the pid a program printed as "ROLE PID" (0 if none)
role()
{
	local v
	v=$(awk -v r="$2" '$1 == r { print $2; exit }' "$1" 2>/dev/null)
	echo "${v:-0}"
}

# wait_role FILE ROLE: wait for the "ROLE PID" line, then print the pid
wait_role()
{
	wait_line "$1" "^$2 [0-9]+\$" 60 2>/dev/null
	role "$1" "$2"
}

fsize()
{
	stat -c %s "$1" 2>/dev/null || echo 0
}

# grows FILE [SECONDS]: the file gets bigger within SECONDS (default 20:
# a busy machine's daemon may not write for seconds; on time it costs nothing)
grows()
{
	local s0 i n=$((${2:-20} * 20))
	s0=$(fsize "$1")
	for ((i = 0; i < n; i++)); do
		sleep 0.05
		[ "$(fsize "$1")" -gt "$s0" ] && return 0
	done
	echo "    $1 stayed at $s0 bytes for ${2:-20}s" >&2
	return 1
}

# stable FILE: within 20 s (the last flush may come late on a busy machine)
# the size does not change for a second; a file still written to by a
# traced loop (every 50 ms) changes in every second
stable()
{
	settles "$1" 20
}

# settles FILE SECONDS: within SECONDS the file stops changing for a second
settles()
{
	local s0 s1 i
	s0=$(fsize "$1")
	for ((i = 0; i < $2 * 2; i++)); do
		sleep 0.5
		s1=$(fsize "$1")
		if [ "$s1" = "$s0" ] && [ "$i" -ge 1 ]; then
			sleep 0.5
			[ "$(fsize "$1")" = "$s1" ] && return 0
		fi
		s0=$s1
	done
	echo "    $1 still grows after $2s (at $s0 bytes)" >&2
	return 1
}

# wait_size FILE BYTES: wait (up to 60 s) until FILE has more than BYTES
wait_size()
{
	local i
	for ((i = 0; i < 1200; i++)); do
		[ "$(fsize "$1")" -gt "$2" ] && return 0
		sleep 0.05
	done
	echo "    $1 did not pass $2 bytes in 60s" >&2
	return 1
}

# npid NORM PID: how many CALL/RET records of process PID
npid()
{
	qn "$1" '$1 == pid && ($4 == "CALL" || $4 == "RET")' pid="$2"
}

# pids_of NORM: the processes with CALL/RET records, sorted, space separated
pids_of()
{
	q "$1" '$4 == "CALL" || $4 == "RET"' | cut -f1 | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}

# sorted PID...: the same, for the expected side
sorted()
{
	printf '%s\n' "$@" | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}

# t_has_pid NORM PID / t_no_pid NORM PID
t_has_pid()
{
	[ "$(npid "$1" "$2")" -gt 0 ] && return 0
	echo "    no CALL/RET records of pid $2 in $1; pids there: $(pids_of "$1")" >&2
	return 1
}

t_no_pid()
{
	local n
	n=$(npid "$1" "$2")
	[ "$n" -eq 0 ] && return 0
	echo "    $n CALL/RET records of pid $2 in $1" >&2
	return 1
}

# t_oneline P: ktraceb's stderr is exactly one line starting with "ktraceb: "
t_oneline()
{
	t_lines 1 "$TMP/$1.err" && t_grep '^ktraceb: ' "$TMP/$1.err"
}

# ktr_bg P ARGS...: ktraceb in the background (for -F), pid in KTRPID
ktr_bg()
{
	local p=$1
	shift
	"$KTRACEB" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null &
	KTRPID=$!
	E2E_PIDS="${E2E_PIDS:-} $KTRPID"
}

# wait_exit PID SECONDS: wait for a background job; its status in WRC
# (124 if it was still running after SECONDS; then it is killed)
wait_exit()
{
	local i n=$(($2 * 20))
	for ((i = 0; i < n; i++)); do
		if ! tkill -0 "$1" 2>/dev/null; then
			wait "$1"
			WRC=$?
			return 0
		fi
		sleep 0.05
	done
	tkill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	WRC=124
	return 1
}

# --- the test user -----------------------------------------------------------

KUSER=ktrtest
USER_CREATED=
USER_OK=
USER_WHY=

user_cleanup()
{
	local p
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	if [ -n "$USER_CREATED" ]; then
		sleep 0.2
		userdel "$KUSER" 2>/dev/null
	fi
	e2e_cleanup
}

# plain P ARGS...: the test user's ktraceb without capabilities (root's daemon serves
# it), its output in $TMP/P.out and P.err, its status in KRC
plain()
{
	local p=$1
	shift
	timeout -k 5 "$KTR_TIMEOUT" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
		"$UBIN/plain" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# user_setup: the user, $UBIN (root's, 0755: ktraceb with capabilities,
# plain, kdump, the attach programs, suidsleep) and $UDIR (the user's own
# directory for trace files).  USER_OK=1 if all of it worked, else USER_WHY.
user_setup()
{
	trap 'user_cleanup' EXIT
	if ! command -v setcap >/dev/null; then
		USER_WHY="setcap not installed (libcap2-bin)"
		return 1
	fi
	if ! command -v setpriv >/dev/null; then
		USER_WHY="setpriv not installed"
		return 1
	fi
	if ! id -u "$KUSER" >/dev/null 2>&1; then
		if ! useradd -M -r -s /bin/sh "$KUSER" 2>"$TMP/useradd.err"; then
			USER_WHY="useradd failed: $(head -n 1 "$TMP/useradd.err")"
			return 1
		fi
		USER_CREATED=1
	fi
	KUID=$(id -u "$KUSER")
	KGID=$(id -g "$KUSER")
	UBIN=$TMP/bin
	UDIR=$TMP/u
	mkdir -p "$UBIN" "$UDIR"
	chmod 755 "$UBIN"
	chown "$KUID:$KGID" "$UDIR"
	chmod 755 "$UDIR"
	cp "$KTRACEB" "$UBIN/ktraceb"
	cp "$KTRACEB" "$UBIN/plain"
	cp "$KDUMP" "$ATT_TICK" "$ATT_TREE" "$UBIN/"
	cp /bin/sleep "$UBIN/suidsleep"
	chown root:root "$UBIN/suidsleep"
	chmod 4755 "$UBIN/suidsleep"
	chmod 755 "$UBIN"/*
	chmod 4755 "$UBIN/suidsleep"
	if ! setcap cap_bpf,cap_perfmon+ep "$UBIN/ktraceb" 2>"$TMP/setcap.err"; then
		USER_WHY="setcap failed: $(head -n 1 "$TMP/setcap.err")"
		return 1
	fi
	if ! as_user test -x "$UBIN/ktraceb" || ! as_user test -w "$UDIR"; then
		USER_WHY="$KUSER cannot use $UBIN and $UDIR"
		return 1
	fi
	USER_OK=1
}

# Before 5.11 the kernel counts BPF memory against the locked-memory limit
# (64 KiB then, by default): the test user gets room for a daemon's maps,
# as an administrator gives it in limits.conf (without, ktr_loader.c says
# so: t_kernel.sh).  prlimit execs its command.
USER_LIMITS=()
if kernel_before 5.11; then
	USER_LIMITS=(prlimit --memlock=unlimited --)
fi

# as_user CMD...: run CMD as the test user (exec: a background job's $! is CMD)
as_user()
{
	"${USER_LIMITS[@]}" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- "$@"
}

# uktr P ARGS...: the user's capability ktraceb, like ktr
uktr()
{
	local p=$1
	shift
	timeout -k 5 "$KTR_TIMEOUT" "${USER_LIMITS[@]}" setpriv --reuid="$KUID" --regid="$KGID" \
		--init-groups -- "$UBIN/ktraceb" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# ubg NAME CMD...: bg as the test user
ubg()
{
	local name=$1
	shift
	bg "$name" "${USER_LIMITS[@]}" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- "$@"
}

# daemon_prog NAME: the id of the BPF program NAME that this build's root
# daemon holds (another build's daemon has programs of the same name)
daemon_prog()
{
	local d f id
	d=$(daemon_pid) || return 1
	for f in /proc/"$d"/fdinfo/*; do
		id=$(awk '$1 == "prog_id:" { print $2 }' "$f" 2>/dev/null)
		[ -n "$id" ] || continue
		if bpftool prog show id "$id" 2>/dev/null | grep -q " name $1 "; then
			echo "$id"
			return 0
		fi
	done
	return 1
}

# info_pid FILE: the pid of the daemon that wrote FILE (its FILEINFO record, INFO)
info_pid()
{
	"$KDUMP" -f "$1" 2>/dev/null | awk '$3 == "INFO" { split($1, a, ":"); print a[1]; exit }'
}

# sock_pid NAME: the process listening on unix socket NAME (/proc/net/unix's:
# a path, or @name for an abstract one)
sock_pid()
{
	local ino p
	ino=$(awk -v s="$1" '$NF == s && $6 == "01" { print $7; exit }' /proc/net/unix)
	[ -n "$ino" ] || return 1
	p=$(sock_holders "$ino" | head -n 1)
	[ -n "$p" ] && echo "$p"
}

# daemon_pid: the process listening on this build's root daemon socket
daemon_pid()
{
	sock_pid "/run/ktraceb/ktraceb-$BUILD_ID.sock"
}

# foreign_sockets: how many daemon sockets of other builds are bound
foreign_sockets()
{
	RX=$SOCK_RX awk '$NF ~ /^(@|\/run\/ktraceb\/)ktraceb/ && $NF !~ ENVIRON["RX"]' /proc/net/unix | wc -l
}

# wait_no_daemon SECONDS: until no ktraceb daemon listens (they exit when idle)
wait_no_daemon()
{
	local i n=$(($1 * 10))
	for ((i = 0; i < n; i++)); do
		[ -z "$(daemon_sockets)" ] && return 0
		sleep 0.1
	done
	return 1
}
