#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb -G: a cgroup v2 group the test makes (on the cgroup2 mount the
# machine has, or one it mounts) traced whole: its members when the trace
# begins (sub-groups' too), a child they fork, a process moved in (traced
# from its first call there, not before), one moved out (no longer), a
# sub-group made later, the group removed and made again, a process in a
# pid namespace of its own (unshare --pid) with its ids there (kdump -N), a
# container's name from its group's path; every facility with it (a
# syscall selection, -k, -e, the flight recorder written when a member
# crashes); -c -G; and the rules for a user: refused root's group and a
# group another user owns, his delegated group traced with another user's
# process, a set-uid one and one with his ids but the capabilities of a
# user namespace root made (also refused to his -p) left out and counted, one
# not dumpable when it came in traced from its exec; a
# process root's group
# traces, moved by the user into a sub-group he traces, stays in root's trace;
# a user's group root traces again is root's; a user's share of the group
# slots.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
MOUNTED=
if [ -z "$CGM" ]; then
	CGM=$TMP/cgroup2
	mkdir -p "$CGM"
	if ! mount -t cgroup2 none "$CGM" 2>"$TMP/mount.err"; then
		skip all "no cgroup2 mounted, and mounting one failed: $(head -n 1 "$TMP/mount.err")"
		e2e_done
	fi
	MOUNTED=$CGM
fi
TOP=ktr-e2e-$$
G=$CGM/$TOP
mkdir -p "$G/svc/sub" "$G/out" || {
	fail setup "cannot make $G"
	e2e_done
}

# every process back to the root group, every group made here removed
cg_cleanup()
{
	local p d
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	sleep 0.3
	for d in $(find "$G" -depth -type d 2>/dev/null); do
		while read -r p; do echo "$p" >"$CGM/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
		rmdir "$d" 2>/dev/null
	done
	[ -n "$MOUNTED" ] && umount "$MOUNTED"
	user_cleanup
}
trap cg_cleanup EXIT

# inbg NAME GROUP CMD...: CMD started in GROUP (a directory), its pid in BGPID
inbg()
{
	local name=$1 grp=$2
	shift 2
	bg "$name" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$grp" "$@"
}

# calls NORM PID TAG: getpriority(PRIO_PROCESS,TAG) calls of PID in a norm file
calls()
{
	qn "$1" '$1 == p && $4 == "CALL" && $5 ~ ("^getpriority\\(PRIO_PROCESS,(" t "|" x ")\\)$")' \
		p="$2" t="$3" x="$(printf '0x%x' "$3")"
}

# root's daemon kept up by a trace of an idle process: it serves the user below too, and
# no check waits for a cold start (slow under emulation: tests/vm/run.sh)
# (a client waits 10 s for its answer: a daemon still loading answers the next try)
bg keeper sleep 600
for ((i = 0; i < 6; i++)); do
	ktr keep -t c -f "$TMP/keep.ktr" -p "$BGPID"
	[ "$KRC" -eq 0 ] && break
done
check keeper_exit_0 t_krc 0 keep

# --- bad input: one line, no trace file ---------------------------------------------
ktr bad_name -f "$TMP/bad.ktr" -G "no-such-group-$$"
check bad_name_exit_1 t_krc 1 bad_name
check bad_name_one_line t_lines 1 "$TMP/bad_name.err"
check bad_name_said t_grep "^ktraceb: -G no-such-group-$$: no such group in $CGM" \
	"$TMP/bad_name.err"
check bad_name_no_file t_eq "$(ls "$TMP/bad.ktr" 2>/dev/null)" ""
ktr bad_dotdot -f "$TMP/bad.ktr" -G "$TOP/../.."
check bad_dotdot_refused t_grep "not a group path" "$TMP/bad_dotdot.err"
ktr bad_inherit -f "$TMP/bad.ktr" -i -G "$G"
check bad_inherit_usage t_krc 64 bad_inherit
ktr bad_pid -f "$TMP/bad.ktr" -G "$G" -p 1
check bad_pid_usage t_krc 64 bad_pid

# --- a group traced whole, members first, then those that come ---------------------
inbg m1 "$G/svc" "$ATT_TICK" 30 0 5101
M1=$(wait_role "$TMP/m1.pout" pid)
inbg m2 "$G/svc/sub" "$ATT_TICK" 30 0 5102
M2=$(wait_role "$TMP/m2.pout" pid)
bg outside "$ATT_TICK" 30 0 5103
O1=$(wait_role "$TMP/outside.pout" pid)
echo "$O1" >"$G/out/cgroup.procs"
bg mover "$ATT_TICK" 30 0 5104
MV=$(wait_role "$TMP/mover.pout" pid)
sleep 0.3

ktr set -f "$TMP/g.ktr" -G "$G/svc"
check set_exit_0 t_krc 0 set
check set_silent t_lines 0 "$TMP/set.err"
sleep 0.4
echo "$MV" >"$G/svc/cgroup.procs" # moved in
MOVED_AT=$(date +%s%N)
mkdir "$G/svc/late"
inbg late "$G/svc/late" "$ATT_TICK" 30 0 5105 # made in a sub-group made later
L1=$(wait_role "$TMP/late.pout" pid)
# a member forks: sh moved in before the trace, its child after
inbg forker "$G/svc" sh -c 'sleep 0.6; exec "$0" 30 5 5106' "$ATT_TICK"
sleep 1.2
echo "$M2" >"$G/out/cgroup.procs" # moved out
sleep 0.5
ktr clear -c -G "/$TOP/svc" # the path below the root names it too
check clear_exit_0 t_krc 0 clear
# as -c -p: the one line of the file it ended, cleared by whom
check clear_says_the_end t_lines 1 "$TMP/clear.err"
check clear_end_line t_grep "^ktraceb: $TMP/g.ktr: cleared by pid [0-9]+ \\(uid 0\\); [1-9][0-9]* records written, 0 lost\$" \
	"$TMP/clear.err"
check clear_stops stable "$TMP/g.ktr"
kd g "$TMP/g.ktr"
check kdump_clean t_kdump_ok g
check member_in_group t_num "$(qn "$TMP/g.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^in "\/'"$TOP"'\/svc" when the trace began/' p="$M1")" -eq 1
check member_of_subgroup_in_it t_num "$(qn "$TMP/g.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^in "\/'"$TOP"'\/svc\/sub" when/' p="$M2")" -eq 1
check member_calls t_num "$(calls "$TMP/g.norm" "$M1" 5101)" -ge 5
check subgroup_member_calls t_num "$(calls "$TMP/g.norm" "$M2" 5102)" -ge 5
check outside_not_traced t_no_pid "$TMP/g.norm" "$O1"
check moved_in_said t_num "$(qn "$TMP/g.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^moved into "\/'"$TOP"'\/svc"/' p="$MV")" -eq 1
check moved_in_calls t_num "$(calls "$TMP/g.norm" "$MV" 5104)" -ge 5
# from its first call there: none of its records before the CGRP record, in time (the
# file orders one thread's records; the mover's and the moved's, on two CPUs, may be a
# batch apart).  The RET of the call it slept in is let come first: two virtual CPUs'
# clocks may differ by a little under emulation
kd mvt "$TMP/g.ktr" -T -p "$MV"
MVT=$TMP/mvt.time
awk '$3 ~ /^[0-9]+\.[0-9]+$/ && $4 ~ /^[A-Z]+$/ { print $3 "\t" $4 }' "$TMP/mvt.kd" | sort -s -k1,1 >"$MVT"
check moved_in_first_is_cgrp t_eq "$(awk -F'\t' '$2 != "RET" { print $2; exit }' "$MVT")" CGRP
check moved_in_one_ret_before t_num "$(awk -F'\t' '$2 == "CGRP" { exit } { n++ } END { print n + 0 }' "$MVT")" -le 1
check late_subgroup_made t_num "$(qn "$TMP/g.norm" '$4 == "CGRP" && $5 ~ /^group made: "\/'"$TOP"'\/svc\/late"/')" -eq 1
check late_subgroup_calls t_num "$(calls "$TMP/g.norm" "$L1" 5105)" -ge 5
FK=$(role "$TMP/forker.pout" pid)
check forked_child_traced t_num "$(qn "$TMP/g.norm" '$4 == "CGRP" && $5 ~ /^forked in "\/'"$TOP"'\/svc"/')" -ge 1
check forked_child_calls t_num "$(qn "$TMP/g.norm" '$4 == "CALL" && $5 ~ /^getpriority\(PRIO_PROCESS,(5106|0x13f2)\)$/')" -eq 5
check forked_child_exec t_num "$(qn "$TMP/g.norm" '$4 == "NAMI" && $5 ~ /att_tick"$/')" -ge 1
check moved_out_said t_num "$(qn "$TMP/g.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^moved out to "\/'"$TOP"'\/out": no longer traced/' p="$M2")" -eq 1
# none of M2's calls after its LEFT record, in time
kd m2t "$TMP/g.ktr" -T -p "$M2"
check moved_out_no_calls_after t_eq "$(awk '$3 ~ /^[0-9]+\.[0-9]+$/ && $4 ~ /^[A-Z]+$/ { print $3, $4, $5, $6 }' "$TMP/m2t.kd" | sort -s -k1,1 |
	awk '$2 == "CGRP" && $3 $4 == "movedout" { left = 1; next } left && $2 == "CALL" { n++ } END { print n + 0 }')" 0
check file_ended t_eq "$(ktr_summary clear)" ""
check end_record_cleared t_grep $'^ktraceb\tEND\ttrace ended: cleared by pid [0-9]+ \\(uid 0\\); [0-9]+ records, 0 lost$' \
	<(tail -n 1 "$TMP/g.norm" | cut -f3-)

# --- by name, made again, -c of the file ------------------------------------------------
NAME=ktrsvc-$$
mkdir "$G/$NAME"
ktr byname -f "$TMP/n.ktr" -G "$NAME"
check byname_exit_0 t_krc 0 byname
rmdir "$G/$NAME"
mkdir "$G/$NAME"
inbg again "$G/$NAME" "$ATT_TICK" 30 0 5107
A1=$(wait_role "$TMP/again.pout" pid)
sleep 0.5
ktr byname_clear -c -f "$TMP/n.ktr"
check byname_clear_exit_0 t_krc 0 byname_clear
check byname_clear_stops stable "$TMP/n.ktr"
kd n "$TMP/n.ktr"
check remade_removed_said t_num "$(qn "$TMP/n.norm" '$4 == "CGRP" && $5 ~ /^group removed: "\/'"$TOP\/$NAME"'"/')" -eq 1
check remade_made_said t_num "$(qn "$TMP/n.norm" '$4 == "CGRP" && $5 ~ /^group made: "\/'"$TOP\/$NAME"'"/')" -eq 1
check remade_group_traced t_num "$(calls "$TMP/n.norm" "$A1" 5107)" -ge 3
tkill "$A1" 2>/dev/null

# --- a pid namespace of its own, and a container's name from its path ----------------
BOX=$G/libpod-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope
mkdir "$BOX"
ktr ns -f "$TMP/ns.ktr" -G "$BOX"
check ns_exit_0 t_krc 0 ns
if command -v unshare >/dev/null; then
	inbg nsbox "$BOX" unshare --pid --fork --mount-proc sh -c \
		'"$0" 20 10 5108; exec "$0" 20 10 5109' "$ATT_TICK"
	# both att_ticks done ("ticks 10" each), however slow the machine (emulated: 1.5 s
	# was not always enough)
	for ((i = 0; i < 300; i++)); do
		[ "$(grep -c '^ticks ' "$TMP/nsbox.pout" 2>/dev/null)" -ge 2 ] && break
		sleep 0.1
	done
	ktr ns_clear -c -G "$BOX"
	kd ns "$TMP/ns.ktr"
	kd nsN "$TMP/ns.ktr" -N
	check ns_container_named t_num "$(qn "$TMP/ns.norm" '$4 == "CGRP" && $5 ~ /container podman 0123456789ab/')" -ge 1
	check ns_ids_said t_num "$(qn "$TMP/ns.norm" '$4 == "CGRP" && $5 ~ /pid 1 tid 1 in pid namespace [0-9]+$/')" -ge 1
	check ns_kdump_N_pid_1 t_num "$(qn "$TMP/nsN.norm" '$1 == 1 && $2 == 1 && $4 == "CALL" && $5 ~ /^getpriority\(PRIO_PROCESS,(5109|0x13f5)\)$/')" -eq 10
	check ns_host_ids_by_default t_eq "$(qn "$TMP/ns.norm" '$1 == 1 && $4 == "CALL"')" 0
else
	skip ns_ids "no unshare"
fi

# --- every facility: a selection, -k, -e, the flight recorder ------------------------------
inbg fac "$G/svc" "$ATT_TICK" 20 0 5110
F1=$(wait_role "$TMP/fac.pout" pid)
ktr sel -f "$TMP/sel.ktr" -k -e trace=getpriority -e signal:signal_generate -G "$G/svc"
check sel_exit_0 t_krc 0 sel
sleep 0.5
tkill -USR2 "$F1" 2>/dev/null # a signal_generate in the group; att_tick dies of it
sleep 0.3
ktr sel_clear -c -G "$G/svc"
kd sel "$TMP/sel.ktr"
check sel_only_getpriority t_eq "$(q "$TMP/sel.norm" '$4 == "CALL" { print $5 }' | sed 's/(.*//' | sort -u)" getpriority
check sel_stacks t_num "$(qn "$TMP/sel.norm" '$4 == "STACK"')" -ge 3
check sel_tracepoint t_num "$(qn "$TMP/sel.norm" '$4 == "TRACE" && $5 ~ /signal_generate/')" -ge 1

CR=$PROGS/crasher
ktr rec -R 256k -f "$TMP/rec.ktr" -G "$G/svc"
check rec_exit_0 t_krc 0 rec
inbg crash "$G/svc" "$CR" segv 200
sleep 1
check rec_written_at_crash t_num "$(fsize "$TMP/rec.ktr")" -gt 0
kd rec "$TMP/rec.ktr"
CP=$(role "$TMP/crash.pout" pid)
check rec_ring_of_crash t_num "$(qn "$TMP/rec.norm" '$4 == "RING"')" -ge 1
check rec_crasher_calls t_num "$(qn "$TMP/rec.norm" '$1 == p && $4 == "RET" && $5 ~ /^getppid/' p="$CP")" -ge 100
check rec_crasher_cgrp t_num "$(qn "$TMP/rec.norm" '$1 == p && $4 == "CGRP"' p="$CP")" -ge 1
# the recorder goes on for the group: a second crash, a second dump
inbg crash2 "$G/svc" "$CR" abort 50
sleep 1
kd rec2 "$TMP/rec.ktr"
check rec_second_dump t_num "$(qn "$TMP/rec2.norm" '$4 == "RING" && $5 ~ /^recovered/')" -ge 2
ktr rec_clear -c -G "$G/svc"

# --- a user: refused groups, his delegated group, others' processes left out --------------
if ! user_setup; then
	skip user "$USER_WHY"
	e2e_done
fi
trap cg_cleanup EXIT
uktr u_root -f "$UDIR/r.ktr" -G "$G/svc"
check user_root_group_refused t_krc 1 u_root
check user_root_group_message t_grep "not your group \(its directory is uid 0's\)" "$TMP/u_root.err"
mkdir "$G/nobodys"
chown nobody "$G/nobodys"
uktr u_other -f "$UDIR/o.ktr" -G "$G/nobodys"
check user_other_group_refused t_krc 1 u_other
check user_other_group_message t_grep "not your group \(its directory is uid $(id -u nobody)'s\)" "$TMP/u_other.err"
check user_refused_no_file t_eq "$(ls "$UDIR")" ""
mkdir "$G/deleg"
chown "$KUID:$KGID" "$G/deleg" "$G/deleg/cgroup.procs"
# root moves them in: a user writes only to cgroup.procs under a common ancestor of his
ubg uown "$UBIN/att_tick" 30 0 5111
U1=$(wait_role "$TMP/uown.pout" pid)
echo "$U1" >"$G/deleg/cgroup.procs"
inbg uroot "$G/deleg" "$ATT_TICK" 30 0 5112
R1=$(wait_role "$TMP/uroot.pout" pid)
uktr u_set -f "$UDIR/d.ktr" -G "$G/deleg"
check user_delegated_exit_0 t_krc 0 u_set
check user_delegated_says_left_out t_grep "processes not traced: 1 another user's" "$TMP/u_set.err"
# a set-uid process of his, moved in later: left out
ubg usuid "$UBIN/suidsleep" 30
for ((i = 0; i < 100; i++)); do
	[ "$(readlink "/proc/$BGPID/exe" 2>/dev/null)" = "$UBIN/suidsleep" ] && break
	sleep 0.05
done
echo "$BGPID" >"$G/deleg/cgroup.procs"
# a process of his ids with every capability, but in a user namespace root
# made (not his own, as a rootless container's): not his to trace, moved in
# later (BPF's rule) nor by -p (the daemon's)
N1=
if "$PROGS/userns_other" "$KUID" "$KGID" true 2>"$TMP/uns_try.err"; then
	bg uns "$PROGS/userns_other" "$KUID" "$KGID" "$UBIN/att_tick" 30 0 5114
	N1=$(wait_role "$TMP/uns.pout" pid)
	E2E_PIDS="$E2E_PIDS ${N1:-}"
	check userns_other_ids t_grep "^Uid:[[:space:]]+$KUID[[:space:]]+$KUID[[:space:]]+$KUID[[:space:]]" \
		"/proc/${N1:-none}/status"
	check userns_other_has_caps t_grep '^CapPrm:[[:space:]]*0*[1-9a-f]' "/proc/${N1:-none}/status"
	echo "${N1:-none}" >"$G/deleg/cgroup.procs"
	uktr u_uns -f "$UDIR/n.ktr" -p "${N1:-none}"
	check userns_other_p_refused t_krc 1 u_uns
	check userns_other_p_said t_grep 'process has capabilities \(only root may trace it\)' "$TMP/u_uns.err"
else
	skip userns_other "no user namespace here: $(head -n 1 "$TMP/uns_try.err")"
fi
# a process of his, not dumpable when moved in (a container runtime's, setting
# up): left out, then traced from its exec, which makes it dumpable again
cp "$PROGS/nodump_exec" "$UBIN/"
mkfifo "$UDIR/nd.go"
chown "$KUID" "$UDIR/nd.go"
ubg nodump "$UBIN/nodump_exec" "$UDIR/nd.go" "$UBIN/att_tick" 30 0 5115
ND=$(wait_role "$TMP/nodump.pout" pid)
echo "${ND:-none}" >"$G/deleg/cgroup.procs"
sleep 0.3
kd nd0 "$UDIR/d.ktr"
check nodump_left_out t_no_pid "$TMP/nd0.norm" "${ND:-none}"
timeout 10 sh -c 'echo go >"$1"' sh "$UDIR/nd.go"
nd_calls() {
	kd nd "$UDIR/d.ktr"
	[ "$(calls "$TMP/nd.norm" "$1" 5115)" -ge 3 ]
}
check nodump_traced_from_exec wait_until 20 nd_calls "${ND:-none}"
check nodump_exec_said t_eq "$(qn "$TMP/nd.norm" '$1 == p && $4 == "CGRP" && $5 ~ r' p="${ND:-none}" \
	r="^traced from its exec in \"/$TOP/deleg\"")" 1
kd ndj "$UDIR/d.ktr" -J
check nodump_exec_json t_num "$(grep -c "\"type\":\"CGRP\",.*\"pid\":${ND:-none},.*\"what\":\"exec\"" "$TMP/ndj.kd")" -eq 1
sleep 0.8
uktr u_clear -c -G "$G/deleg"
check user_clear_exit_0 t_krc 0 u_clear
kd d "$UDIR/d.ktr"
check user_own_traced t_num "$(calls "$TMP/d.norm" "$U1" 5111)" -ge 5
check user_root_process_not_traced t_no_pid "$TMP/d.norm" "$R1"
[ -z "$N1" ] || check userns_other_not_traced t_no_pid "$TMP/d.norm" "$N1"
check user_skipped_counted t_num "$(qn "$TMP/d.norm" '$4 == "CGRP" && $5 ~ r' \
	r="processes not traced: 1 another user.s, $([ -n "$N1" ] && echo 3 || echo 2) set-id or privileged")" -ge 1

# --- a user takes no process from root's group (ktrcanset: root set it) ----------------
# Root traces a group delegated to the user, with the user's process P in it (a shell
# that forks att_tick after att_tick).  The user makes a sub-group, traces it into a
# file of his and moves P there: P stays in root's trace, its children too, and the
# user's group counts them left out ("traced by root").
# until_calls NAME FILE AWK-CONDITION N: kdump FILE as NAME until N norm lines match
# (20 s at most); the count in UNTIL
until_calls()
{
	local i
	for ((i = 0; i < 100; i++)); do
		kd "$1" "$2"
		UNTIL=$(qn "$TMP/$1.norm" "$3")
		[ "$UNTIL" -ge "$4" ] && return 0
		sleep 0.2
	done
	return 1
}
mkdir "$G/udel"
chown "$KUID:$KGID" "$G/udel" "$G/udel/cgroup.procs"
ubg ptake sh -c 'echo "pid $$"; while :; do "$0" 20 3 5113 >/dev/null; done' "$UBIN/att_tick"
P=$(wait_role "$TMP/ptake.pout" pid)
echo "$P" >"$G/udel/cgroup.procs"
ktr take_root -f "$TMP/take.ktr" -G "$G/udel"
check take_root_exit_0 t_krc 0 take_root
as_user mkdir "$G/udel/s"
uktr take_user -f "$UDIR/take.ktr" -G "$G/udel/s"
check take_user_exit_0 t_krc 0 take_user
as_user sh -c 'echo "$0" >"$1"' "$P" "$G/udel/s/cgroup.procs"
check take_user_moved_it t_eq "$(grep '^0::' "/proc/$P/cgroup")" "0::/$TOP/udel/s"
# root's file: P moved, within root's trace; then its children's calls, 10 of them
until_calls take "$TMP/take.ktr" '$4 == "CGRP" && $5 ~ /^moved into "\/'"$TOP"'\/udel\/s"/ { m = 1 } m && $4 == "CALL" && $5 ~ /^getpriority\(PRIO_PROCESS,(5113|0x13f9)\)$/' 10
check take_root_keeps_calls t_num "$UNTIL" -ge 10
check take_root_moved_said t_num "$(qn "$TMP/take.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^moved into "\/'"$TOP"'\/udel\/s"/' p="$P")" -eq 1
check take_root_not_left t_num "$(qn "$TMP/take.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^moved out/' p="$P")" -eq 0
check take_root_children_forked t_num "$(qn "$TMP/take.norm" '$4 == "CGRP" && $5 ~ /^forked in "\/'"$TOP"'\/udel/')" -ge 1
# the user's group started again on P where it is: P is root's still (the daemon's check)
uktr take_user_again -f "$UDIR/take2.ktr" -G "$G/udel/s"
check take_user_again_exit_0 t_krc 0 take_user_again
# (other counts may come first: a child of P's loop that is exiting then has
# no memory left, and counts as privileged)
check take_user_again_left_out t_grep "processes not traced: ([^,]+, )*[0-9]+ traced by root" \
	"$TMP/take_user_again.err"
ktr take_root_clear -c -G "$G/udel"
uktr take_user_clear -c -G "$G/udel/s"
check take_user_clear_exit_0 t_krc 0 take_user_clear
kd take_user "$UDIR/take.ktr"
check take_user_no_p t_num "$(qn "$TMP/take_user.norm" '$1 == p' p="$P")" -eq 0
check take_user_no_children t_num "$(qn "$TMP/take_user.norm" '$4 == "CALL" && $5 ~ /^getpriority\(PRIO_PROCESS,(5113|0x13f9)\)$/')" -eq 0
check take_user_counted_root t_num "$(qn "$TMP/take_user.norm" '$4 == "CGRP" && $5 ~ /processes not traced: ([^,]+, )*[0-9]+ traced by root/')" -ge 1
kd take_user2 "$UDIR/take2.ktr"
check take_user_again_no_p t_num "$(qn "$TMP/take_user2.norm" '$1 == p' p="$P")" -eq 0
tkill -KILL "$P" 2>/dev/null

# --- a user's group root traces again into a file of root's is root's (ktrcanset) ----------
# The user neither clears it nor takes it back into a file of his.
as_user mkdir "$G/udel/own"
uktr own_user -f "$UDIR/own.ktr" -G "$G/udel/own"
check own_user_exit_0 t_krc 0 own_user
ktr own_root -f "$TMP/own.ktr" -G "$G/udel/own"
check own_root_exit_0 t_krc 0 own_root
uktr own_user_clear -c -G "$G/udel/own"
check own_user_clear_refused t_krc 1 own_user_clear
check own_user_clear_says_root t_grep "^ktraceb: -G /$TOP/udel/own: tracing on it was set by root\$" "$TMP/own_user_clear.err"
uktr own_user_back -f "$UDIR/own2.ktr" -G "$G/udel/own"
check own_user_back_refused t_krc 1 own_user_back
check own_user_back_says_root t_grep "^ktraceb: -G /$TOP/udel/own: tracing on it was set by root\$" "$TMP/own_user_back.err"
uktr own_user_C -C
# root's trace goes on after the user's -C: a process started in the group is traced
inbg own_tick "$G/udel/own" "$ATT_TICK" 20 0 5114
until_calls own "$TMP/own.ktr" '$4 == "CALL" && $5 ~ /^getpriority\(PRIO_PROCESS,(5114|0x13fa)\)$/' 3
check own_root_goes_on t_num "$UNTIL" -ge 3
tkill "$BGPID" 2>/dev/null
ktr own_root_clear -c -G "$G/udel/own"

# --- a user's share of the groups: a quarter of the 255 slots (63) --------------------------
# The user makes 64 sub-groups of his delegated group and traces each (-a -G, one file):
# the 64th is refused in one line, and root's -G is served after.
as_user sh -c 'for i in $(seq 1 64); do mkdir "$0/q$i" || exit 1; done' "$G/udel"
NQ=0
for ((i = 1; i <= 64; i++)); do
	uktr share_q -a -f "$UDIR/q.ktr" -G "$G/udel/q$i"
	[ "$KRC" -ne 0 ] && break
	NQ=$i
done
check share_user_has_63 t_num "$NQ" -eq 63
check share_64th_refused t_krc 1 share_q
check share_64th_one_line t_oneline share_q
check share_64th_says_why t_grep "^ktraceb: -G /$TOP/udel/q64: too many traced cgroups for uid $KUID \(a user may have 63 at once\)\$" "$TMP/share_q.err"
mkdir "$G/rootq"
ktr share_root -f "$TMP/rootq.ktr" -G "$G/rootq"
check share_root_served t_krc 0 share_root
ktr share_root_clear -c -G "$G/rootq"
uktr share_clear -c -f "$UDIR/q.ktr"
check share_clear_exit_0 t_krc 0 share_clear
# the slots are free again: the 64th now traced
uktr share_again -f "$UDIR/q2.ktr" -G "$G/udel/q64"
check share_freed_again t_krc 0 share_again
uktr share_again_clear -c -G "$G/udel/q64"
e2e_done
