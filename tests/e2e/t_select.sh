#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Syscall selection (issue 24): ktraceb -e trace=SET / -e status=SET / -Z,
# strace's language, chosen in the kernel.
#  - the same programs under strace -f -e ... and under ktraceb -i -e ...:
#    the calls each names, counted per name, must agree (execve aside: strace
#    sees the command's own, ktraceb starts tracing at it)
#  - what was not selected is not in the file; the file says its selection
#  - a selection follows -i's children, an attached process (-p), a
#    recording (-R) and a non-root caller's trace
#  - a file keeps its first selection: a trace into it with another is
#    refused in one line
#  - a malformed selection: one line, exit 64, nothing traced
#  - kdump -e trace= / -e status= / -Z on a whole trace of the same program
#    agree with strace too, in the text, -J and -Y; other systems' traces
#    and bad selections are one-line errors
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
DET=$PROGS/fac_det
FORKEXEC=$PROGS/forkexec

# strace_names FILE: "name count" for each call strace -f -o FILE printed
strace_names()
{
	sed -E 's/^(\[pid +[0-9]+\] |[0-9]+ +)//' "$1" |
		grep -Ev '^(<\.\.\.|\+\+\+|---)' |
		sed -nE 's/^([a-z_0-9]+)\(.*/\1/p' | grep -vx execve | sort | uniq -c |
		awk '{ print $2, $1 }'
}

# ktr_names NORMFILE: "name count" for each CALL kdump printed
ktr_names()
{
	awk -F'\t' '$4 == "CALL" { n = $5; sub(/\(.*/, "", n); print n }' "$1" |
		grep -vx execve | sort | uniq -c | awk '{ print $2, $1 }'
}

# compare P OPTIONS... -- PROG ARGS: strace and ktraceb with the same -e
# selections; P.strace and P.ktr names agree
compare()
{
	local p=$1 sel=() a
	shift
	while [ "$1" != "--" ]; do
		sel+=("$1")
		shift
	done
	shift
	strace -f -qq "${sel[@]}" -o "$TMP/$p.strace" "$@" >"$TMP/$p.sout" 2>&1
	strace_names "$TMP/$p.strace" >"$TMP/$p.snames"
	ktr "$p" -i "${sel[@]}" -f "$TMP/$p.ktr" "$@"
	kd "$p" "$TMP/$p.ktr"
	ktr_names "$TMP/$p.norm" >"$TMP/$p.knames"
}

# kdump_names P FULLTRACE OPTIONS...: kdump's selection of a whole trace, into P.knames
kdump_names()
{
	local p=$1 f=$2
	shift 2
	kd "$p" "$f" "$@"
	ktr_names "$TMP/$p.norm" >"$TMP/$p.knames"
}

# t_same_names P: the two name lists agree, and are not empty
t_same_names()
{
	if [ ! -s "$TMP/$1.snames" ]; then
		echo "    strace recorded nothing for $1" >&2
		return 1
	fi
	cmp -s "$TMP/$1.snames" "$TMP/$1.knames" && return 0
	echo "    strace (<) and ktraceb (>) differ:" >&2
	diff "$TMP/$1.snames" "$TMP/$1.knames" | head -n 10 | sed 's/^/      /' >&2
	return 1
}

if command -v strace >/dev/null 2>&1; then
	# --- names -------------------------------------------------------------------
	compare names -e trace=openat,close,getpid -- "$DET"
	check names_run t_krc 0 names
	check names_as_strace t_same_names names
	check names_only_those t_eq "$(ktr_names "$TMP/names.norm" | awk '$1 !~ /^(openat|close|getpid)$/' | wc -l)" 0
	# every RET follows its CALL: a selected call is recorded whole
	check names_rets t_eq "$(qn "$TMP/names.norm" '$4 == "RET"')" "$(qn "$TMP/names.norm" '$4 == "CALL"')"
	check names_says_selection t_grep $'\tINFO\tsyscall selection: trace=openat,close,getpid' "$TMP/names.norm"

	# --- classes, negation, regex ------------------------------------------------
	compare file -e trace=%file -- "$DET"
	check class_file_as_strace t_same_names file
	# syscalls DIR wants an empty directory: strace's run and ktraceb's have one each
	mkdir "$TMP/sc"
	strace -f -qq -e trace=%desc -o "$TMP/desc.strace" "$PROGS/syscalls" "$TMP/sc" >"$TMP/desc.sout" 2>&1
	strace_names "$TMP/desc.strace" >"$TMP/desc.snames"
	mkdir "$TMP/sc2"
	ktr desc -i -e trace=%desc -f "$TMP/desc.ktr" "$PROGS/syscalls" "$TMP/sc2"
	kd desc "$TMP/desc.ktr"
	ktr_names "$TMP/desc.norm" >"$TMP/desc.knames"
	check class_desc_as_strace t_same_names desc
	compare regex -e 'trace=/^(open|read)' -- "$DET"
	check regex_as_strace t_same_names regex
	compare neg -e 'trace=!%memory,close' -- "$DET"
	check negation_as_strace t_same_names neg
	check negation_drops t_eq "$(ktr_names "$TMP/neg.norm" | awk '$1 ~ /^(mmap|munmap|mprotect|brk|close)$/' | wc -l)" 0

	# --- status ------------------------------------------------------------------
	compare failed -e status=failed -- "$DET"
	check failed_as_strace t_same_names failed
	check failed_all_errors t_eq "$(q "$TMP/failed.norm" '$4 == "RET"' | grep -vc ' errno ')" 0
	check failed_some t_num "$(qn "$TMP/failed.norm" '$4 == "RET"')" -ge 3
	# -Z is not an -e; strace's -Z is status=failed too
	strace -f -qq -Z -o "$TMP/zflag.strace" "$DET" >"$TMP/zflag.sout" 2>&1
	strace_names "$TMP/zflag.strace" >"$TMP/zflag.snames"
	ktr zflag -i -Z -f "$TMP/zflag.ktr" "$DET"
	kd zflag "$TMP/zflag.ktr"
	ktr_names "$TMP/zflag.norm" >"$TMP/zflag.knames"
	check Z_is_status_failed t_same_names zflag
	compare okfile -e trace=%file -e status=successful -- "$DET"
	check successful_as_strace t_same_names okfile
	check successful_no_errors t_eq "$(q "$TMP/okfile.norm" '$4 == "RET"' | grep -c ' errno ')" 0

	# --- kdump's selection of a whole trace: the same answers ------------------
	ktr full -i -f "$TMP/full.ktr" "$DET"
	for p in names file regex neg failed okfile; do
		cp "$TMP/$p.snames" "$TMP/kd_$p.snames"
	done
	kdump_names kd_names "$TMP/full.ktr" -e trace=openat,close,getpid
	check kdump_names_as_strace t_same_names kd_names
	kdump_names kd_file "$TMP/full.ktr" -e trace=%file
	check kdump_class_as_strace t_same_names kd_file
	kdump_names kd_regex "$TMP/full.ktr" -e 'trace=/^(open|read)'
	check kdump_regex_as_strace t_same_names kd_regex
	kdump_names kd_neg "$TMP/full.ktr" -e 'trace=!%memory,close'
	check kdump_negation_as_strace t_same_names kd_neg
	kdump_names kd_failed "$TMP/full.ktr" -Z
	check kdump_Z_as_strace t_same_names kd_failed
	check kdump_Z_all_errors t_eq "$(q "$TMP/kd_failed.norm" '$4 == "RET"' | grep -vc ' errno ')" 0
	kdump_names kd_okfile "$TMP/full.ktr" -e trace=%file -e status=successful
	check kdump_status_as_strace t_same_names kd_okfile
	# what a left-out call records goes with it: no path of a call not selected
	kd kd_nami "$TMP/full.ktr" -e trace=getpid
	check kdump_no_stray_records t_eq "$(qn "$TMP/kd_nami.norm" '$4 == "NAMI" || $4 == "STRU" || $4 == "GIO"')" 0
	# -J and -Y honour it
	"$KDUMP" -J -Z -f "$TMP/full.ktr" >"$TMP/kd_json.out" 2>&1
	check kdump_json_Z t_eq "$(grep -c '"type":"RET"' "$TMP/kd_json.out")" \
		"$(awk '{ n += $2 } END { print n }' "$TMP/failed.snames")"
	check kdump_json_Z_errors t_eq "$(grep '"type":"RET"' "$TMP/kd_json.out" | grep -c '"error":0,')" 0
	"$KDUMP" -Y -e trace=openat,close -f "$TMP/full.ktr" >"$TMP/kd_sum.out" 2>&1
	check kdump_summary_only_those t_eq "$(awk '$NF ~ /^[a-z_0-9]+$/ && $NF != "syscall" && $NF != "total"' \
		"$TMP/kd_sum.out" | awk '{ print $NF }' | sort | tr '\n' ' ')" "close openat "

	# --- -i: the children select the same -------------------------------------
	compare kids -e trace=getpriority,wait4,clone,exit_group -- "$FORKEXEC" /bin/true
	check children_as_strace t_same_names kids
	check children_three_pids t_eq "$(q "$TMP/kids.norm" '$4 == "CALL"' | cut -f1 | sort -u | wc -l)" 3
else
	skip strace_comparisons "strace is not installed (scripts/install-deps.sh)"
fi

# --- -p: an attached process ----------------------------------------------------
bg tick "$ATT_TICK" 20 0 4747
A=$(wait_role "$TMP/tick.pout" pid)
ktr att -e trace=getpriority -f "$TMP/att.ktr" -p "$A"
check attach_set t_krc 0 att
sleep 0.5
ktr attc -c -p "$A"
tkill "$A" 2>/dev/null
kd att "$TMP/att.ktr"
check attach_calls t_num "$(q "$TMP/att.norm" '$4 == "CALL"' | grep -c 'getpriority(PRIO_PROCESS,4747)')" -ge 5
check attach_only_those t_eq "$(q "$TMP/att.norm" '$4 == "CALL"' | grep -vc 'getpriority(')" 0

# --- one file, one selection: another trace appending to it (-a) ---------------
bg tick2 "$ATT_TICK" 20 0 4848
B=$(wait_role "$TMP/tick2.pout" pid)
bg tick3 "$ATT_TICK" 20 0 4949
C=$(wait_role "$TMP/tick3.pout" pid)
ktr one -e trace=getpriority -f "$TMP/one.ktr" -p "$B"
ktr other -a -e trace=nanosleep,clock_nanosleep -f "$TMP/one.ktr" -p "$C"
check other_selection_refused t_num "$KRC" -ne 0
check other_selection_oneline t_oneline other
check other_selection_says t_grep "traced with the syscall selection 'trace=getpriority': give the same selection" \
	"$TMP/other.err"
ktr every -a -f "$TMP/one.ktr" -p "$C"
check every_call_refused t_num "$KRC" -ne 0
ktr same -a -e trace=getpriority -f "$TMP/one.ktr" -p "$C"
check same_selection_joins t_krc 0 same
sleep 0.5
ktr onec -c -p "$B"
ktr onec2 -c -p "$C"
tkill "$B" "$C" 2>/dev/null
kd one "$TMP/one.ktr"
check joined_both_pids t_eq "$(q "$TMP/one.norm" '$4 == "CALL"' | cut -f1 | sort -u | wc -l)" 2
check joined_only_those t_eq "$(q "$TMP/one.norm" '$4 == "CALL"' | grep -vc 'getpriority(')" 0

# --- -R: a recording keeps the selection ----------------------------------------
ktr rec -R 256k,exit -e trace=openat -f "$TMP/rec.ktr" "$PROGS/exitcode" 3
kd rec "$TMP/rec.ktr"
check recording_openat t_num "$(q "$TMP/rec.norm" '$4 == "CALL"' | grep -c '^.*openat(')" -ge 1
check recording_only_those t_eq "$(q "$TMP/rec.norm" '$4 == "CALL"' | grep -vc 'openat(')" 0

# --- a non-root caller ----------------------------------------------------------
if user_setup; then
	uktr user -e trace=getpriority -f "$UDIR/user.ktr" "$UBIN/att_tick" 1 3 5151
	check user_runs t_krc 0 user
	kd user "$UDIR/user.ktr"
	check user_calls t_eq "$(q "$TMP/user.norm" '$4 == "CALL"' | grep -c 'getpriority(PRIO_PROCESS,5151)')" 3
	check user_only_those t_eq "$(q "$TMP/user.norm" '$4 == "CALL"' | grep -vc 'getpriority(')" 0
else
	skip user "$USER_WHY"
fi

# --- malformed selections ---------------------------------------------------------
bad()
{
	local p=bad_$1 why=$2
	shift 2
	ktr "$p" "$@" -f "$TMP/$p.ktr" /bin/true
	check "${p}_exit64" t_krc 64 "$p"
	check "${p}_oneline" t_oneline "$p"
	check "${p}_says" t_grep "$why" "$TMP/$p.err"
	check "${p}_no_file" t_eq "$([ -e "$TMP/$p.ktr" ] && echo exists)" ""
}
bad unknown 'nosuchcall' -e trace=nosuchcall
bad class 'nosuchclass' -e trace=%nosuchclass
bad regex 'regular expression' -e 'trace=/[a-'
bad status 'bogus' -e status=bogus
bad empty 'trace=' -e trace=
bad syswide '-S' -S -e sched:sched_switch -e trace=openat
# kdump's: the same words, on its stderr
"$KDUMP" -e trace=nosuchcall -f "$TMP/att.ktr" >"$TMP/kdbad.out" 2>"$TMP/kdbad.err"
check kdump_bad_exit1 t_eq "$?" 1
check kdump_bad_oneline t_lines 1 "$TMP/kdbad.err"
check kdump_bad_says t_grep "^kdump: -e trace=nosuchcall: unknown system call 'nosuchcall'\$" "$TMP/kdbad.err"
check kdump_bad_no_output t_lines 0 "$TMP/kdbad.out"
"$KDUMP" -e sched:sched_switch -f "$TMP/att.ktr" >/dev/null 2>"$TMP/kdev.err"
check kdump_event_refused t_grep '^kdump: -e sched:sched_switch: kdump selects system calls' "$TMP/kdev.err"
BSDFILE=$(ls "$REPO"/tests/fixtures/bsd/freebsd-* 2>/dev/null | head -n 1)
if [ -n "$BSDFILE" ]; then
	"$KDUMP" -Z -f "$BSDFILE" >/dev/null 2>"$TMP/kdbsd.err"
	check kdump_bsd_file_refused t_grep "another system's trace: -e and -Z select Linux system calls" \
		"$TMP/kdbsd.err"
	check kdump_bsd_file_oneline t_lines 1 "$TMP/kdbsd.err"
fi
ktr quiet -e 'trace=?nosuchcall,getpid' -f "$TMP/quiet.ktr" /bin/true
check unknown_with_question_mark t_krc 0 quiet
ktr kc -k -t n -f "$TMP/kc.ktr" /bin/true
check k_without_c_exit64 t_krc 64 kc
check k_without_c_oneline t_oneline kc

e2e_done
