#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The arm64 kernel matrix's tests (tests/vm/run.sh --arch arm64): the
# cross-built ktraceb traces real arm64 programs on a real arm64 kernel and
# the cross-built kdump's output is checked, record by record.  It runs
# where the x86_64 tests cannot (arm64-guest.sh): POSIX sh and busybox's
# applets only.  The programs traced are busybox's applets (static) and
# the cross-built tests/progs (dynamic: this machine's arm64 glibc).
#
#   O=build-arm64 tests/vm/arm64-smoke.sh [SECTION ...]
#
# SECTIONs (default all): syscalls (arguments, errno, NAMI, GIO, exec and
# exit), fs (the *at calls arm64 has instead of mkdir, symlink, unlink and
# arm64's own open flag values), fork (fork/exec/exit, with -i and
# without), signal (PSIG caught and fatal), usdt (a sys/sdt.h probe with
# its arguments), tracepoint (-e), csw (-t w), attach (-p).  Each check
# prints "PASS: arm64/SECTION/CHECK" or "FAIL: ..." (details on stderr), as
# tests/e2e/lib.sh does; the exit status is 1 if any failed.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-$REPO/build-arm64}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
PROGS=$O/tests/progs
TIMEOUT=${KTR_TIMEOUT:-120}
NFAIL=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktr-arm64.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

pass()
{
	echo "PASS: arm64/$SECTION/$1"
}

# fail NAME [DETAIL...]
fail()
{
	name=$1
	shift
	echo "FAIL: arm64/$SECTION/$name"
	echo "--- arm64/$SECTION/$name" >&2
	[ $# -gt 0 ] && printf '    %s\n' "$@" >&2
	NFAIL=$((NFAIL + 1))
}

# check NAME CMD [ARGS...]: PASS if the command succeeds (it says why not)
check()
{
	name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name" "check: $*"
	fi
}

t_eq()
{
	[ "$1" = "$2" ] && return 0
	echo "    got '$1', expected '$2'" >&2
	return 1
}

t_match()
{
	printf '%s\n' "$1" | grep -Eq -- "$2" && return 0
	echo "    '$1' does not match /$2/" >&2
	return 1
}

# --- running the tools -----------------------------------------------------

# ktr P [ktraceb args...]: stdout in $TMP/P.out, stderr in $TMP/P.err, status in KRC
ktr()
{
	p=$1
	shift
	timeout "$TIMEOUT" "$KTRACEB" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# kd P TRACEFILE: kdump's output in $TMP/P.kd, its stderr in P.kderr, as
# tab-separated pid tid comm TAG body in $TMP/P.norm; status in KDRC
kd()
{
	timeout "$TIMEOUT" "$KDUMP" -f "$2" >"$TMP/$1.kd" 2>"$TMP/$1.kderr" </dev/null
	KDRC=$?
	awk '
	$1 ~ /^[0-9]+:[0-9]+$/ && $3 ~ /^[A-Z]+$/ {
		split($1, pt, ":")
		body = $0
		sub(/^ *[^ ]+ +[^ ]+ +[A-Z]+ */, "", body)
		printf "%s\t%s\t%s\t%s\t%s\n", pt[1], pt[2], $2, $3, body
		next
	}
	{ printf "\t\t\t-\t%s\n", $0 }' "$TMP/$1.kd" >"$TMP/$1.norm"
}

# q P AWK-CONDITION [var=value...]: the matching lines of $TMP/P.norm
# ($1 pid, $2 tid, $3 comm, $4 TAG, $5 body)
q()
{
	f=$TMP/$1.norm
	cond=$2
	shift 2
	for a in "$@"; do
		set -- "$@" -v "$a"
		shift
	done
	awk -F'\t' "$@" "$cond" "$f"
}

# qn P COND [var=value...]: how many
qn()
{
	q "$@" | wc -l | tr -d ' '
}

# around P PATH: the CALL and the RET around the first NAMI "PATH", as the
# two lines "CALL body" and "RET body" (a thread's records go CALL, NAMI, RET)
around()
{
	awk -F'\t' -v path="\"$2\"" '
	$4 == "CALL" { call[$2] = $5 }
	$4 == "NAMI" && $5 == path && tid == "" { tid = $2; c = call[$2] }
	$4 == "RET" && tid != "" && $2 == tid && !done { print "CALL " c; print "RET " $5; done = 1 }' \
		"$TMP/$1.norm"
}

# role P WORD: N from the line "WORD N" a test program printed
role()
{
	awk -v w="$2" '$1 == w { print $2; exit }' "$TMP/$1.out"
}

# retrx N: a RET value as kdump prints it ("3", "24/0x18"), as a regex
retrx()
{
	if [ "$1" -ge 0 ] && [ "$1" -le 9 ]; then
		echo "$1"
	else
		printf '%s/0x%x' "$1" "$1"
	fi
}

# The checks every trace gets: ktraceb's own stderr is its one summary line,
# with nothing lost (any other line of it is a refusal or an error), and
# kdump read the file cleanly, every syscall named from arm64's table.
common()
{
	p=$1
	sum=$(grep '^ktraceb: ' "$TMP/$p.err")
	check "${p}_summary" t_match "$sum" "^ktraceb: [0-9]+ records written to $TMP/$p.ktr, 0 lost\$"
	check "${p}_kdump_clean" t_eq "$KDRC $(cat "$TMP/$p.kderr")" "0 "
	check "${p}_info_aarch64" t_eq "$(q "$p" '$4 == "INFO" { print $3 " " $5; exit }')" \
		"ktraceb ktraceb format 1, aarch64, kernel $(uname -r)"
	check "${p}_syscalls_named" t_eq "$(q "$p" '($4 == "CALL" || $4 == "RET") && $5 ~ /^\[/' | head -n 3)" ""
}

want()
{
	[ -z "$SECTIONS" ] && return 0
	for s in $SECTIONS; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}

# --- syscalls: arguments, errno, paths, I/O data, exec and exit ------------
sec_syscalls()
{
	printf 'ktraceb on arm64\nsecond line\n' >"$TMP/in.txt"
	ktr io -f "$TMP/io.ktr" head -q -n 1 "$TMP/in.txt" /nonexistent/ktr-vm
	kd io "$TMP/io.ktr"
	common io
	P=$(q io '$4 == "NAMI" && $5 == "\"/ktr-vm/bin/head\"" { print $1; exit }')
	check io_exit_1 t_eq "$KRC" 1
	check exec_path t_match "$P" '^[0-9]+$'
	check exec_call_ret t_eq "$(around io /ktr-vm/bin/head | sed 's/(.*)/()/')" \
		"$(printf 'CALL execve()\nRET execve 0')"
	check exec_args t_eq "$(q io '$1 == p && $4 == "ARGS" { print $5 }' p="$P")" \
		"\"head\", \"-q\", \"-n\", \"1\", \"$TMP/in.txt\", \"/nonexistent/ktr-vm\""
	check exec_comm t_eq "$(q io '$1 == p && $4 == "RET" && $5 == "execve 0" { print $3 }' p="$P")" head
	check openat_decoded t_match "$(around io "$TMP/in.txt" | tr '\n' ';')" \
		'^CALL openat\(AT_FDCWD,0x[0-9a-f]+,O_RDONLY\);RET openat 3;$'
	check openat_enoent t_match "$(around io /nonexistent/ktr-vm | tr '\n' ';')" \
		'^CALL openat\(AT_FDCWD,0x[0-9a-f]+,O_RDONLY\);RET openat -1 errno 2 No such file or directory \(ENOENT\);$'
	n=$(wc -c <"$TMP/in.txt" | tr -d ' ')
	# CALL read(3,...), GIO fd 3 read N bytes, its data, RET read N
	check read_call t_match "$(q io '$1 == p && $4 == "CALL" && $5 ~ /^read\(3,/ { print $5; exit }' p="$P")" \
		'^read\(3,0x[0-9a-f]+,0x[0-9a-f]+\)$'
	check read_gio t_eq "$(qn io '$1 == p && $4 == "GIO" && $5 == s' p="$P" s="fd 3 read $n bytes")" 1
	check read_gio_data t_eq "$(q io '$4 == "GIO" && $5 == s { getline; print $5 }' s="fd 3 read $n bytes")" \
		'       "ktraceb on arm64'
	check read_ret t_eq "$(qn io '$1 == p && $4 == "RET" && $5 == s' p="$P" s="read $(retrx "$n")")" 1
	check write_stdout t_eq "$(q io '$1 == p && $4 == "GIO" && $5 ~ /^fd 1 wrote / { print $5; getline; print $5 }' p="$P")" \
		"$(printf 'fd 1 wrote 17 bytes\n       "ktraceb on arm64')"
	check exit_group_1 t_eq "$(qn io '$1 == p && $4 == "CALL" && $5 == "exit_group(1)"' p="$P")" 1
	check exit_last t_eq "$(q io '$1 == p { last = $4 " " $5 } END { print last }' p="$P")" "EXIT exited 1"
	check only_the_command t_eq "$(q io '$4 != "-" && $4 != "INFO" && $4 != "END" && $1 != p' p="$P" | wc -l | tr -d ' ')" 0
}

# --- fs: arm64's *at calls and its own open flag values ---------------------
sec_fs()
{
	ktr fs -i -t cn -f "$TMP/fs.ktr" sh -c "mkdir /tmp; ln -s /nonexistent/ktr-vm $TMP/lnk; rm $TMP/lnk; ls / >/dev/null"
	kd fs "$TMP/fs.ktr"
	common fs
	check fs_exit_0 t_eq "$KRC" 0
	check mkdirat_eexist t_match "$(around fs /tmp | tr '\n' ';')" \
		'^CALL mkdirat\(AT_FDCWD,0x[0-9a-f]+,0777\);RET mkdirat -1 errno 17 File exists \(EEXIST\);$'
	check symlinkat_two_paths t_eq "$(q fs '$4 == "CALL" && $5 ~ /^symlinkat\(/ { c = 1; next }
		c && $4 == "NAMI" { printf "%s ", $5 } c && $4 == "RET" { print $5; exit }')" \
		"\"/nonexistent/ktr-vm\" \"$TMP/lnk\" symlinkat 0"
	check unlinkat t_match "$(q fs '$4 == "CALL" && $5 ~ /^unlinkat\(/ { print $5; exit }')" \
		'^unlinkat\(AT_FDCWD,0x[0-9a-f]+,0\)$'
	# O_DIRECTORY is 040000 on arm64 (x86's O_DIRECT) and O_NONBLOCK 04000
	check opendir_flags t_match "$(q fs '$4 == "CALL" && $5 ~ /^openat\(.*O_DIRECTORY/ { print $5; exit }')" \
		'^openat\(AT_FDCWD,0x[0-9a-f]+,O_RDONLY\|O_NONBLOCK\|O_DIRECTORY\|O_CLOEXEC\)$'
	check getdents64 t_match "$(q fs '$4 == "CALL" && $5 ~ /^getdents64\(/ { print $5; exit }')" \
		'^getdents64\(3,0x[0-9a-f]+,0x[0-9a-f]+\)$'
	check four_processes t_eq "$(q fs '$4 == "EXIT" { print $3 " " $5 }' | sort | tr '\n' ';')" \
		"ln exited 0;ls exited 0;mkdir exited 1;rm exited 0;"
}

# --- fork: fork, exec and exit, inherited with -i and not without ----------
sec_fork()
{
	ktr fork -i -f "$TMP/fork.ktr" "$PROGS/forkexec" /ktr-vm/bin/true
	kd fork "$TMP/fork.ktr"
	common fork
	P=$(role fork parent)
	C=$(role fork child)
	G=$(role fork grandchild)
	check fork_exit_0 t_eq "$KRC" 0
	check three_pids t_match "$P $C $G" '^[0-9]+ [0-9]+ [0-9]+$'
	check clone_flags t_eq "$(q fork '$1 == p && $4 == "CALL" && $5 ~ /^clone\(/ { sub(/,0x[0-9a-f]+\)$/, ",TLS)", $5); print $5 }' p="$P")" \
		"clone(CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD,0,0,0,TLS)"
	check clone_ret_child t_eq "$(qn fork '$1 == p && $4 == "RET" && $5 == "clone " r' p="$P" r="$(retrx "$C")")" 1
	# Traced from the fork on.  arm64's kernels (6.1, 6.12) fire no sys_exit
	# for a new task's return from clone (its ret_from_fork goes back to
	# user space without the syscall exit work), so its first record is its
	# first syscall, glibc's set_robust_list; x86_64's is "RET clone 0".
	first='^(RET clone 0|CALL set_robust_list\(0x[0-9a-f]+,0x18\))$'
	check child_from_fork t_match "$(q fork '$1 == c && $4 != "-" { print $4 " " $5; exit }' c="$C")" "$first"
	check grandchild_from_fork t_match "$(q fork '$1 == g && $4 != "-" { print $4 " " $5; exit }' g="$G")" "$first"
	check grandchild_execs t_eq "$(around fork /ktr-vm/bin/true | sed 's/(.*)/()/')" \
		"$(printf 'CALL execve()\nRET execve 0')"
	check grandchild_comm t_eq "$(q fork '$1 == g && $4 == "EXIT" { print $3 " " $5 }' g="$G")" "true exited 0"
	check child_esrch t_eq "$(q fork '$1 == c && $4 == "CALL" && $5 ~ /^getpriority/ { print $5; getline; print $5 }' c="$C" | tr '\n' ';')" \
		"getpriority(PRIO_PROCESS,4242);getpriority -1 errno 3 No such process (ESRCH);"
	check child_exit_5 t_eq "$(q fork '$1 == c && $4 == "EXIT" { print $5 }' c="$C")" "exited 5"
	check parent_waits t_eq "$(qn fork '$1 == p && $4 == "RET" && $5 == "wait4 " r' p="$P" r="$(retrx "$C")")" 1
	check parent_exit_0 t_eq "$(q fork '$1 == p && $4 == "EXIT" { print $5 }' p="$P")" "exited 0"

	ktr nofork -f "$TMP/nofork.ktr" "$PROGS/forkexec" /ktr-vm/bin/true
	kd nofork "$TMP/nofork.ktr"
	common nofork
	P=$(role nofork parent)
	check nofork_exit_0 t_eq "$KRC" 0
	check nofork_only_parent t_eq "$(q nofork '$4 != "-" && $4 != "INFO" && $4 != "END" { print $1 }' | sort -u)" "$P"
	check nofork_parent_exit t_eq "$(q nofork '$1 == p && $4 == "EXIT" { print $5 }' p="$P")" "exited 0"
}

# --- signal: PSIG for caught signals (handler, mask, si_code) and a fatal one
sec_signal()
{
	ktr sig -f "$TMP/sig.ktr" "$PROGS/fac_sig" caught
	kd sig "$TMP/sig.ktr"
	common sig
	P=$(role sig pid)
	mask=$(role sig mask)
	check sig_exit_0 t_eq "$KRC" 0
	check four_psig t_eq "$(qn sig '$4 == "PSIG"')" 4
	for s in 10:SIGUSR1:SI_USER 12:SIGUSR2:SI_TKILL 1:SIGHUP:SI_QUEUE; do
		nr=${s%%:*}
		name=${s#*:}
		code=${name#*:}
		name=${name%:*}
		h=$(awk -v s="$nr" '$1 == "handler" && $2 == s { print $3 }' "$TMP/sig.out")
		check "psig_$name" t_eq "$(qn sig '$1 == p && $4 == "PSIG" && $5 == b' p="$P" \
			b="$name caught handler=$h mask=$mask code=$code")" 1
	done
	check psig_after_kill t_eq "$(q sig '$1 == p && $4 != "-"' p="$P" |
		awk -F'\t' '$4 == "PSIG" { print prev; getline; print $4 " " $5; exit } { prev = $4 " " $5 }' | tr '\n' ';')" \
		"RET kill 0;CALL rt_sigreturn;"

	ktr fatal -f "$TMP/fatal.ktr" "$PROGS/fac_sig" fatal
	kd fatal "$TMP/fatal.ktr"
	common fatal
	P=$(role fatal pid)
	check fatal_exit_143 t_eq "$KRC" 143
	check fatal_end t_eq "$(q fatal '$1 == p && $4 != "-" { print $4 " " $5 }' p="$P" | tail -n 4 | tr '\n' ';')" \
		"CALL kill($P,SIGTERM);RET kill 0;PSIG SIGTERM SIG_DFL code=SI_USER;EXIT killed by SIGTERM;"
}

# --- usdt: a sys/sdt.h probe site, its semaphore and its arguments ----------
sec_usdt()
{
	# from the guest's tmpfs: on its layered root (an overlay over 9p) the
	# daemon finds no probe sites (the file's device differs from the one
	# /proc/PID/maps shows), in the x86_64 guests too
	cp "$PROGS/uev_sdt" "$TMP/uev_sdt"
	ktr sdt -t u -e usdt:uevtest -f "$TMP/sdt.ktr" "$TMP/uev_sdt" 3
	kd sdt "$TMP/sdt.ktr"
	common sdt
	check sdt_exit_0 t_eq "$KRC" 0
	check sdt_armed t_eq "$(q sdt '$4 == "INFO" && $5 ~ /^USDT probes armed/ { print $5 }')" \
		'USDT probes armed: ktraceb:* uevtest:*'
	check sdt_semaphore_raised t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/sdt.out")" 3
	check sdt_hit_args t_eq "$(q sdt '$4 == "USER" { print $5 }' | grep -cE '^uevtest:hit\([0-2], "hello probe", -5\)$')" 3
	check sdt_entry_return t_eq "$(q sdt '$4 == "USER" { print $5 }' | grep -cE '^<  uevtest:work__return\([0-2]\) [0-9.]+(ns|us|ms)$')" 3
	check sdt_nested t_eq "$(q sdt '$4 == "USER" { print $5 }' | grep -cE '^<    uevtest:job_end\([0-2]\) [0-9.]+(ns|us|ms)$')" 3
	check sdt_only_user t_eq "$(q sdt '$4 != "-" && $4 != "INFO" && $4 != "USER" && $4 != "EXIT" && $4 != "END"' | wc -l | tr -d ' ')" 0
}

# --- tracepoint: kernel events with -e, decoded from the formats ----------
sec_tracepoint()
{
	ktr ev -i -t k -e sched:sched_process_fork -e sched:sched_process_exec \
		-e signal:signal_generate -f "$TMP/ev.ktr" "$PROGS/tp_events" /ktr-vm/bin/true
	kd ev "$TMP/ev.ktr"
	common ev
	P=$(role ev pid)
	C=$(role ev child)
	check ev_exit_0 t_eq "$KRC" 0
	check ev_fork t_eq "$(qn ev '$1 == p && $4 == "TRACE" && $5 == b' p="$P" \
		b="sched:sched_process_fork parent_comm=\"tp_events\" parent_pid=$P child_comm=\"tp_events\" child_pid=$C")" 1
	check ev_exec t_eq "$(qn ev '$1 == c && $4 == "TRACE" && $5 == b' c="$C" \
		b="sched:sched_process_exec filename=\"/ktr-vm/bin/true\" pid=$C old_pid=$C")" 1
	check ev_signal t_eq "$(qn ev '$1 == p && $4 == "TRACE" && index($5, b) == 1' p="$P" \
		b="signal:signal_generate sig=10 errno=0 code=0 comm=\"tp_events\" pid=$P ")" 1
	check ev_no_syscalls t_eq "$(qn ev '$4 == "CALL" || $4 == "RET"')" 0
}

# --- csw: context switches with -t w ----------------------------------------
sec_csw()
{
	ktr csw -t w -f "$TMP/csw.ktr" sleep 0.05
	kd csw "$TMP/csw.ktr"
	common csw
	P=$(q csw '$3 == "sleep" { print $1; exit }')
	check csw_exit_0 t_eq "$KRC" 0
	# the sleep: out in its syscall, back in
	check csw_sleep t_eq "$(q csw '$1 == p && $4 == "CSW" { print $5 }' p="$P" | grep -A1 -x 'stop kernel "sleep"' | head -n 2 | tr '\n' ';')" \
		'stop kernel "sleep";resume kernel;'
	check csw_exit t_eq "$(q csw '$1 == p && $4 == "EXIT" { print $5 }' p="$P")" "exited 0"
}

# --- attach: -p a running process, returning at once ----------------------
sec_attach()
{
	/ktr-vm/busybox sleep 30 &
	S=$!
	sleep 0.2
	ktr att -p "$S" -f "$TMP/att.ktr"
	check att_returns_0 t_eq "$KRC" 0
	kill -TERM "$S"
	wait "$S" 2>/dev/null
	# the daemon writes the last records and closes the file
	i=0
	while [ $i -lt 50 ] && ! "$KDUMP" -f "$TMP/att.ktr" 2>/dev/null | grep -q ' EXIT '; do
		sleep 0.2
		i=$((i + 1))
	done
	kd att "$TMP/att.ktr"
	check att_kdump_clean t_eq "$KDRC $(cat "$TMP/att.kderr")" "0 "
	check att_info_aarch64 t_match "$(q att '$4 == "INFO" { print $5; exit }')" \
		"^ktraceb format 1, aarch64, kernel "
	check att_end t_eq "$(q att '$1 == s && $4 != "-" { print $4 " " $5 }' s="$S" | tail -n 2 | tr '\n' ';')" \
		"PSIG SIGTERM SIG_DFL code=SI_USER;EXIT killed by SIGTERM;"
	check att_only_it t_eq "$(q att '$4 != "-" && $4 != "INFO" && $4 != "END" { print $1 }' | sort -u)" "$S"
}

ALL="syscalls fs fork signal usdt tracepoint csw attach"
SECTIONS="$*"
for SECTION in $SECTIONS; do
	case " $ALL " in
	*" $SECTION "*) ;;
	*) fail unknown "no section $SECTION: $ALL" ;;
	esac
done
for SECTION in $ALL; do
	want "$SECTION" || continue
	"sec_$SECTION"
done
[ "$NFAIL" -eq 0 ]
