#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# User events (-t u): real programs fire USDT probes, through utrace.h
# (uev_spans: spans four deep, an error exit, scoped spans, threads,
# utrace of 0/1/2048/2049 bytes) and plain sys/sdt.h (uev_sdt: a
# semaphore-guarded probe with a string, entry/return and begin/end pairs;
# libuevdl.so, loaded late with dlopen).  Each program prints what it fired;
# kdump's USER lines must say the same, thread by thread, in order, with
# depths, key=values, ok/err and durations.  Then: attaching with -p in the
# middle of a run; the default 'u' arming the ktraceb provider's probes
# alone (another provider's semaphore stays down, its probes make no
# record) and -e usdt:PROVIDER[:NAME] arming what it names, no more; the
# semaphore raised only in the traced process and only while traced, the tree view and the summary, and a user with the
# capability install tracing probes of a program they can read, but not of
# one they cannot.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_usdt
SPANS=$PROGS/uev_spans
# (uev_cxx: the same header from C++)
SDT=$PROGS/uev_sdt
DLO=$PROGS/uev_dlopen
LIBDL=$PROGS/libuevdl.so
for p in "$SPANS" "$SDT" "$DLO" "$LIBDL"; do
	if [ ! -x "$p" ] && [ ! -f "$p" ]; then
		fail build "$p not built (make O=$O test)"
		e2e_done
	fi
done

# events NORM: kdump's USER records as the programs print their events:
#   enter TID DEPTH SUBSYS NAME KV / exit TID DEPTH SUBSYS NAME ok|err KV /
#   utrace TID LEN 0 / probe TID NAME ARGS...  (a pair's exit: its duration)
events()
{
	awk -F'\t' '$4 == "USER" {
		b = $5
		if (b ~ /^[<>] /) {
			mark = substr(b, 1, 1)
			rest = substr(b, 2)
			sp = match(rest, /[^ ]/) - 1
			depth = (sp - 2) / 2
			rest = substr(rest, sp + 1)
			sub(/ \(entered before the trace\)$/, "", rest)
			if (rest ~ /^[a-z]+:/) { # a probe pair
				print "probe", $2, rest
				next
			}
			n = split(rest, w, " ")
			if (mark == ">") {
				kv = n > 2 ? substr(rest, length(w[1]) + length(w[2]) + 3) : "-"
				print "enter", $2, depth, w[1], w[2], kv
			} else {
				kv = n > 4 ? substr(rest, length(w[1]) + length(w[2]) + length(w[3]) + length(w[4]) + 5) : "-"
				print "exit", $2, depth, w[1], w[2], w[4], kv
			}
			next
		}
		if (b ~ /^[0-9]+( |$)/) { split(b, w, " "); print "utrace", $2, w[1], 0; next }
		print "probe", $2, b
	}' "$1"
}

# expected OUT: the program's event lines, but the utrace calls that failed
expected()
{
	awk '$1 == "enter" || $1 == "exit" || ($1 == "utrace" && $4 == 0)' "$1"
}

# per_tid FILE: the lines sorted stably by thread (field 2), order kept within one
per_tid()
{
	awk '{ print $2 "\t" NR "\t" $0 }' "$1" | sort -t$'\t' -k1,1n -k2,2n | cut -f3-
}

t_same_events()
{
	per_tid "$1" >"$1.bytid"
	per_tid "$2" >"$2.bytid"
	if cmp -s "$1.bytid" "$2.bytid"; then
		return 0
	fi
	echo "    the trace's events differ from what the program did:" >&2
	diff "$1.bytid" "$2.bytid" | head -n 20 | sed 's/^/      /' >&2
	return 1
}

# --- 1: a command, every macro --------------------------------------------------
ktr spans -t cu -f "$TMP/spans.ktr" "$SPANS" 3
check spans_exit_0 t_krc 0 spans
kd spans "$TMP/spans.ktr"
check spans_kdump_clean t_kdump_ok spans
expected "$TMP/spans.out" >"$TMP/spans.want"
events "$TMP/spans.norm" >"$TMP/spans.got"
check spans_every_event_in_order t_same_events "$TMP/spans.want" "$TMP/spans.got"
check spans_three_rounds t_eq "$(grep -c '^enter .* app round ' "$TMP/spans.got")" 3
check spans_four_deep t_eq "$(grep -c '^enter [0-9]* 3 db lex tokens=7$' "$TMP/spans.got")" 3
check spans_error_exit t_eq \
	"$(grep -c '^exit [0-9]* 1 db query err err=timeout code=110$' "$TMP/spans.got")" 3
check spans_every_exit_timed t_eq "$(q "$TMP/spans.norm" '$4 == "USER" && $5 ~ /^</' |
	grep -cEv ' [0-9.]+(ns|us|ms|s) (ok|err)')" 0
check spans_utrace_sizes t_eq "$(awk '$1 == "utrace" { print $3 }' "$TMP/spans.got" |
	sort -n | uniq -c | awk '{ print $2 "x" $1 }' | tr '\n' ' ')" "0x3 1x3 2048x3 "
check spans_utrace_2049_einval t_eq "$(grep -c '^utrace [0-9]* 2049 -1$' "$TMP/spans.out")" 3
check spans_utrace_bytes t_grep "^ *\"u{64}\"\$" "$TMP/spans.kd"
check spans_threads_own_depth t_eq \
	"$(grep -c '^enter [0-9]* 1 worker step -$' "$TMP/spans.got")" 6
check spans_syscalls_inside t_num "$(q "$TMP/spans.norm" '$4 == "CALL" && $5 ~ /^getppid/' |
	wc -l)" -ge 6

# the tree view and the summary
timeout -k 5 60 "$KDUMP" -G -f "$TMP/spans.ktr" >"$TMP/tree.out" 2>"$TMP/tree.err"
check tree_exit_0 t_eq "$?" 0
check tree_query_took t_eq "$(grep -cE \
	'^ *< db query err err=timeout code=110: took [0-9.]+(ns|us|ms) and [0-9]+ syscalls \(.* in them\), .* of it in parse$' \
	"$TMP/tree.out")" 3
check tree_getppid_under_lex t_eq "$(grep -A1 '^        > db lex tokens=7$' "$TMP/tree.out" |
	grep -cE '^ {10,}getppid = [0-9]+')" 3
timeout -k 5 60 "$KDUMP" -Y -f "$TMP/spans.ktr" >"$TMP/sum.out" 2>"$TMP/sum.err"
check summary_query_row t_grep '^ +3 +[0-9.]+ +[0-9]+ +[0-9]+ +3 db query$' "$TMP/sum.out"
check summary_job_row t_grep '^ +6 +[0-9.]+ +[0-9]+ +[0-9]+ +worker job$' "$TMP/sum.out"
check summary_utrace_row t_grep '^ +9 +utrace$' "$TMP/sum.out"
timeout -k 5 60 "$KDUMP" -t u -f "$TMP/spans.ktr" >"$TMP/tu.out"
check t_u_only_user t_eq "$(norm <"$TMP/tu.out" | awk -F'\t' '$4 != "USER" && $4 != "-" && $4 != "END"' |
	wc -l)" 0

# --- 2: attached in the middle of a run ------------------------------------------
bg late "$SPANS" 120 25
LATE=$BGPID
wait_line "$TMP/late.pout" 'app round n=10' 20
ktr late -t u -f "$TMP/late.ktr" -p "$LATE"
check late_attach_exit_0 t_krc 0 late
wait_exit "$LATE" 60
# -p returns at once: the daemon writes the last records after the exit, and
# is gone only once the file is complete
check late_daemon_done daemon_gone 20
kd late "$TMP/late.ktr"
check late_kdump_clean t_kdump_ok late
expected "$TMP/late.pout" >"$TMP/late.want"
events "$TMP/late.norm" >"$TMP/late.got"
per_tid "$TMP/late.got" >"$TMP/late.got.bytid"
per_tid "$TMP/late.want" >"$TMP/late.want.bytid"
check late_some_events t_num "$(wc -l <"$TMP/late.got")" -gt 100
# from the third round the trace has: where probes are attached one by one
# (perf-event uprobes, kernels without uprobe_multi), the first rounds may
# have only some of them, and an emulated kernel takes milliseconds each
grep "^[a-z]* $LATE " "$TMP/late.got" |
	awk '$1 == "enter" && $3 == 0 && $4 == "app" && $5 == "round" { r++ } r >= 3' \
		>"$TMP/late.main.got"
grep "^[a-z]* $LATE " "$TMP/late.want" | tail -n "$(wc -l <"$TMP/late.main.got")" \
	>"$TMP/late.main.want"
check late_main_rounds_there t_num "$(wc -l <"$TMP/late.main.got")" -gt 50
check late_events_are_the_end_of_the_run t_same_events "$TMP/late.main.want" "$TMP/late.main.got"
check late_no_invalid t_nogrep 'invalid' "$TMP/late.kd"

# --- 3: sys/sdt.h probes, semaphores only where and while traced ----------------
# the default 'u' arms the ktraceb provider's probes alone: uevtest's stay
# down, never fire, make no record, and nothing is said
ktr sdtdef -t cu -f "$TMP/sdtdef.ktr" "$SDT" 5
check sdt_default_exit_0 t_krc 0 sdtdef
kd sdtdef "$TMP/sdtdef.ktr"
check sdt_default_sem_down t_eq "$(grep -c '^sem [0-9]* 0$' "$TMP/sdtdef.out")" 5
check sdt_default_no_records t_eq "$(q "$TMP/sdtdef.norm" '$4 == "USER"' | wc -l)" 0
check sdt_default_calls_recorded t_eq "$(q "$TMP/sdtdef.norm" '$4 == "CALL" && $5 == "getppid"' |
	wc -l)" 5
check sdt_default_no_info t_eq "$(q "$TMP/sdtdef.norm" '$4 == "INFO" && $5 ~ /USDT/' | wc -l)" 0
check sdt_default_silent t_lines 1 "$TMP/sdtdef.err"
# one probe named: it alone is armed (its semaphore up, the others' pairs never recorded)
ktr sdthit -t u -e usdt:uevtest:hit -f "$TMP/sdthit.ktr" "$SDT" 4
check sdt_one_exit_0 t_krc 0 sdthit
kd sdthit "$TMP/sdthit.ktr"
check sdt_one_sem_up t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/sdthit.out")" 4
check sdt_one_only_it t_eq "$(q "$TMP/sdthit.norm" '$4 == "USER"' | cut -f5 | sed 's/(.*//' |
	sort | uniq -c | awk '{ print $2 "x" $1 }')" "uevtest:hitx4"
check sdt_one_info t_grep $'	INFO	USDT probes armed: ktraceb:\* uevtest:hit$' "$TMP/sdthit.norm"

ktr sdt -t u -e usdt:uevtest -f "$TMP/sdt.ktr" "$SDT" 5
check sdt_exit_0 t_krc 0 sdt
kd sdt "$TMP/sdt.ktr"
check sdt_sem_raised_from_the_start t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/sdt.out")" 5
check sdt_hit_with_string t_eq "$(q "$TMP/sdt.norm" '$4 == "USER"' | cut -f5 |
	grep -cE '^uevtest:hit\([0-4], "hello probe", -5\)$')" 5
check sdt_entry_return_pair t_eq "$(q "$TMP/sdt.norm" '$4 == "USER"' | cut -f5 |
	grep -cE '^<  uevtest:work__return\([0-4]\) [0-9.]+(ns|us|ms)$')" 5
check sdt_begin_end_nested t_eq "$(q "$TMP/sdt.norm" '$4 == "USER"' | cut -f5 |
	grep -cE '^<    uevtest:job_end\([0-4]\) [0-9.]+(ns|us|ms)$')" 5

bg plain "$SDT" 40 20
PLAIN=$BGPID
ktr sdt2 -t u -e 'usdt:uev*:*' -f "$TMP/sdt2.ktr" "$SDT" 40 20
wait_exit "$PLAIN" 30
check sdt_untraced_twin_never_armed t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/plain.pout")" 0
check sdt_traced_twin_armed t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/sdt2.out")" 40

# (long enough for an emulated kernel's attach and detach; ended once lowered)
bg onoff "$SDT" 3000 20
ONOFF=$BGPID
sem_values() { awk '$1 == "sem" { print $3 }' "$TMP/onoff.pout" | uniq | tr '\n' ' '; }
wait_line "$TMP/onoff.pout" '^sem 20 ' 20
ktr onoff -t u -e usdt:uevtest -f "$TMP/onoff.ktr" -p "$ONOFF"
check sdt_onoff_attached t_krc 0 onoff
wait_line "$TMP/onoff.pout" '^sem [0-9]+ 1$' 30
sleep 1
# the iterations that saw the semaphore raised before the clear was even sent
ARMED_BEFORE=$(grep -c '^sem [0-9]* 1$' "$TMP/onoff.pout")
ktr onoffc -c -p "$ONOFF"
for _ in $(seq 300); do
	[ "$(sem_values)" = "0 1 0 " ] && break
	sleep 0.1
done
tkill "$ONOFF" 2>/dev/null
wait_exit "$ONOFF" 10
check sdt_sem_off_on_off t_eq "$(sem_values)" "0 1 0 "
kd onoff "$TMP/onoff.ktr"
# the clear stops the recording at once and takes the probes out after (the
# kernel lowers the semaphores as each goes): the iterations in between saw
# the semaphore raised and were not recorded (more of them the slower the
# kernel lets probes go), but every one before the clear was (the one then
# between its line and its hit aside), and none that did not see it raised
HITS=$(q "$TMP/onoff.norm" '$4 == "USER" && $5 ~ /uevtest:hit/' | wc -l)
ARMED=$(grep -c '^sem [0-9]* 1$' "$TMP/onoff.pout")
check sdt_hits_while_armed t_num "$HITS" -ge $((ARMED_BEFORE - 1))
check sdt_no_hits_unarmed t_num "$HITS" -le "$ARMED"

# --- 4: a library loaded late with dlopen ----------------------------------------
# by default its program's spans (the ktraceb provider), not the library's probe
ktr dldef -t u -f "$TMP/dldef.ktr" "$DLO" "$LIBDL" 3
kd dldef "$TMP/dldef.ktr"
check dl_default_spans_not_probe t_eq "$(q "$TMP/dldef.norm" '$4 == "USER"' | cut -f5 |
	grep -c 'uevdl:')" 0
events "$TMP/dldef.norm" | grep -v '^probe' >"$TMP/dldef.got"
expected "$TMP/dldef.out" >"$TMP/dldef.want"
check dl_default_spans_recorded t_same_events "$TMP/dldef.want" "$TMP/dldef.got"
ktr dl -t u -e usdt:uevdl:tick -f "$TMP/dl.ktr" "$DLO" "$LIBDL" 3
check dl_exit_0 t_krc 0 dl
kd dl "$TMP/dl.ktr"
check dl_unguarded_probe t_eq "$(q "$TMP/dl.norm" '$4 == "USER"' | cut -f5 |
	grep -cE '^uevdl:tick\([0-2], "from the library"\)$')" 3
events "$TMP/dl.norm" | grep -v '^probe' >"$TMP/dl.got"
expected "$TMP/dl.out" >"$TMP/dl.want"
check dl_spans_from_the_first_call t_same_events "$TMP/dl.want" "$TMP/dl.got"

# --- 5: a file full of probe notes takes no more than its share of the sites -----
ktr many -t u -e usdt:uevmany -f "$TMP/many.ktr" "$PROGS/uev_many"
check many_exit_0 t_krc 0 many
check many_all_fired t_grep '^fired 1500$' "$TMP/many.out"
kd many "$TMP/many.ktr"
check many_at_most_1024_sites t_eq "$(q "$TMP/many.norm" '$4 == "USER" && $5 ~ /^uevmany:site/' |
	wc -l)" 1024

# --- 6: C++: a KTR_SPAN guard ends its span when an exception leaves the scope ---
ktr cxx -t u -e usdt:libstdcxx -f "$TMP/cxx.ktr" "$PROGS/uev_cxx"
check cxx_exit_0 t_krc 0 cxx
kd cxx "$TMP/cxx.ktr"
check cxx_spans_end t_eq "$(q "$TMP/cxx.norm" '$4 == "USER"' | cut -f5 | grep ' cxx ' |
	sed -E 's/ [0-9.]+(ns|us|ms|s) / T /' | tr '\n' '|')" \
	">  cxx thrower n=1|<  cxx thrower T ok|>  cxx normal|<  cxx normal T ok|"
# libstdc++'s own probes (no semaphore), pointers as numbers, not as "strings"
check cxx_libstdcxx_probes t_eq "$(q "$TMP/cxx.norm" '$4 == "USER"' | cut -f5 |
	grep -cE '^libstdcxx:(throw|catch)\(0x[0-9a-f]+, 0x[0-9a-f]+\)$')" 2
check cxx_program_saw_it t_eq "$(tr '\n' ' ' <"$TMP/cxx.out")" "caught done 0 "

# --- 7: a program on a layered root (an overlay, as containers have) -------------
# Lower and upper on two filesystems: stat(2) of the program tells the
# overlay's device, /proc/PID/maps (and uprobes) the lower file's.
OVL=$TMP/ovl
mkdir -p "$OVL/lower" "$OVL/upper" "$OVL/root"
if mount -t tmpfs ktr-lower "$OVL/lower" && mount -t tmpfs ktr-upper "$OVL/upper" &&
	cp "$SDT" "$OVL/lower/" && mkdir "$OVL/upper/u" "$OVL/upper/w" &&
	mount -t overlay -o "lowerdir=$OVL/lower,upperdir=$OVL/upper/u,workdir=$OVL/upper/w" \
		ktr-ovl "$OVL/root"; then
	ktr ovl -t u -e usdt:uevtest -f "$TMP/ovl.ktr" "$OVL/root/uev_sdt" 3
	check ovl_exit_0 t_krc 0 ovl
	check ovl_two_identities t_ne "$(stat -c %D "$OVL/root/uev_sdt")" "$(stat -c %D "$OVL/lower/uev_sdt")"
	kd ovl "$TMP/ovl.ktr"
	check ovl_probes_recorded t_eq "$(q "$TMP/ovl.norm" '$4 == "USER"' | cut -f5 |
		grep -cE '^uevtest:hit\([0-2], "hello probe", -5\)$')" 3
	check ovl_sem_raised t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/ovl.out")" 3
else
	skip ovl "cannot mount an overlay here"
fi
# the daemon lets the program's file go at its next tick
for _ in $(seq 50); do umount "$OVL/root" 2>/dev/null && break; sleep 0.1; done
umount "$OVL/upper" "$OVL/lower" 2>/dev/null

# --- 8: a user with the capability install ----------------------------------------
if ! user_setup; then
	skip user "$USER_WHY"
	e2e_done
fi
cp "$SPANS" "$SDT" "$UBIN/"
cp "$SDT" "$UBIN/noread_sdt"
chmod 0711 "$UBIN/noread_sdt" # the user may run it, not read it
if wait_no_daemon 15; then
	uktr uspans -t u -f "$UDIR/uspans.ktr" "$UBIN/uev_spans" 2
	check user_own_daemon t_eq "$(daemon_sockets | tr '\n' ' ')" "@ktraceb-$BUILD_ID.$KUID "
	# a kernel without uprobe_multi's process filter leaves a user's own daemon
	# perf-event uprobes, which Debian's perf_event_paranoid 3 refuses it: said
	# in one line, and a trace of nothing else is refused
	if grep -q '^ktraceb: -t u: USDT probes are not recorded on this kernel: ' \
		"$TMP/uspans.err"; then
		check user_usdt_refused_in_one_line t_lines 1 "$TMP/uspans.err"
		check user_usdt_refused_exit t_num "$KRC" -ne 0
		skip user_spans_every_event "$(head -n 1 "$TMP/uspans.err")"
	else
		check user_spans_exit_0 t_krc 0 uspans
		kd uspans "$UDIR/uspans.ktr"
		expected "$TMP/uspans.out" >"$TMP/uspans.want"
		events "$TMP/uspans.norm" >"$TMP/uspans.got"
		check user_spans_every_event t_same_events "$TMP/uspans.want" "$TMP/uspans.got"
	fi
	uktr noread -t cu -e usdt:uevtest -f "$UDIR/noread.ktr" "$UBIN/noread_sdt" 3
	check user_noread_runs t_krc 0 noread
	kd noread "$UDIR/noread.ktr"
	check user_noread_traced t_num "$(q "$TMP/noread.norm" '$4 == "CALL"' | wc -l)" -gt 5
	check user_noread_not_probed t_eq "$(q "$TMP/noread.norm" '$4 == "USER"' | wc -l)" 0
	check user_noread_not_armed t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/noread.out")" 0
	# refused at the file (it cannot be read), or at the process (an unreadable program's
	# process is not dumpable, so not even its mappings can be read by the user's daemon)
	check user_noread_said t_grep \
		'^ktraceb: (USDT: .*(/noread_sdt: Permission denied|cannot read its mappings: Permission denied)|-t u: USDT probes are not recorded on this kernel: .*)$' \
		"$TMP/noread.err"
else
	skip user_own_daemon "a ktraceb daemon stays up: $(daemon_sockets | tr '\n' ' ')"
fi
e2e_done
