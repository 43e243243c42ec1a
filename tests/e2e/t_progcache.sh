#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The programs root's daemons keep pinned between them (ktr_progcache.h):
#  - the first daemon pins its verified programs and their maps; the next
#    one runs those very programs (the same ids: nothing verified again)
#    and records what a fresh load records
#  - while no daemon runs, nothing is attached and the holders of the ring
#    buffer and the scratch area are empty
#  - a daemon killed -9 mid-trace leaves nothing for the next one, which
#    loads afresh: no entry, kernel event, selection or loss in the maps, no
#    record of its ring
#  - what does not look as this build's object would (a map of another
#    shape, a map where a program belongs, another configuration's
#    directory, a refusal of a program every trace needs) is not used, and
#    the trace still works; a refusal of an optional program is said again
#  - KTRACEB_REFUSE_PROG and a user's own daemon neither use nor write it
#  - the USDT program, loaded when first needed, joins the cache then
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
own_bpffs "$@" # the pins it looks at: no other build's daemon touches them
need_tracer
command -v bpftool >/dev/null || {
	skip all "no bpftool"
	exit 0
}
DET=$PROGS/fac_det
SDT=$PROGS/uev_sdt
BDIR=/sys/fs/bpf/ktraceb/$BUILD_ID
KTR_EXE=$(readlink -f "$KTRACEB")

# cdir: this build's cache directory, if there is one
cdir() { find "$BDIR" -mindepth 1 -maxdepth 1 -type d -name 'cache-*' 2>/dev/null | head -n 1; }
# pinned: "name id" of each program the cache holds, sorted
pinned()
{
	local f d
	d=$(cdir)
	[ -n "$d" ] || return 0
	for f in "$d"/prog-*; do
		[ -e "$f" ] || continue
		printf '%s %s\n' "${f##*/prog-}" \
			"$(bpftool prog show pinned "$f" 2>/dev/null | awk -F: 'NR == 1 { print $1 }')"
	done | sort
}
# held PID: the ids of the programs process PID holds, sorted
held() { awk '$1 == "prog_id:" { print $2 }' /proc/"$1"/fdinfo/* 2>/dev/null | sort -un; }
# root_daemons: this build's root daemons still alive (the socket goes before the end)
root_daemons()
{
	local c p
	# one grep over every process's name (a cat each takes seconds on a busy machine)
	for c in $(grep -lx ktracebd /proc/[0-9]*/comm 2>/dev/null); do
		p=${c%/comm}
		[ "$(readlink "$p/exe" 2>/dev/null)" = "$KTR_EXE" ] && echo "${p#/proc/}"
	done
}
# no_daemon: until this build's daemons have ended (20 s at most)
no_daemon()
{
	local i
	daemon_gone 20
	for ((i = 0; i < 200; i++)); do
		[ -z "$(root_daemons)" ] && return 0
		sleep 0.1
	done
	echo "    this build's daemon is still there: $(root_daemons)" >&2
	return 1
}
# links_to IDS...: how many bpf links run one of those programs
links_to()
{
	bpftool link show 2>/dev/null | awk -v ids=" $* " '
		{ for (i = 1; i < NF; i++) if ($i == "prog" && index(ids, " " $(i + 1) " ")) n++ }
		END { print n + 0 }'
}
# holder_empty MAP: the holder pinned as MAP has no entry (its ring or scratch went)
holder_empty() { ! bpftool map lookup pinned "$(cdir)/$1" key 0 0 0 0 >/dev/null 2>&1; }
# det P: fac_det traced into $TMP/P.ktr, without address randomization, so that
# two runs record the same bytes; its records normalized into $TMP/P.det
det()
{
	rm -rf "$TMP/w" && mkdir "$TMP/w"
	ktr "$1" -f "$TMP/$1.ktr" setarch -R "$DET" "$TMP/w"
	kd "$1" "$TMP/$1.ktr"
	# fac_det's own records; what differs from run to run (pids, inodes, times) masked
	awk -F'\t' '$3 == "fac_det" { print $4 "\t" $5 }' "$TMP/$1.norm" |
		sed -E 's/ino=[0-9]+/ino=N/g; s/([amc]time)=[0-9.]+/\1=T/g;
			s/^(RET[[:space:]]+(set_tid_address|getpid|getppid|gettid)) .*/\1 PID/' >"$TMP/$1.det"
}
# keeper P: a process traced with -t c from now on, which keeps the daemon up
keeper()
{
	sleep 120 &
	KEEP=$!
	E2E_PIDS="${E2E_PIDS:-} $KEEP"
	ktr "$1" -t c -p "$KEEP" -f "$TMP/$1.ktr"
}
same_set() { t_eq "$(echo $1)" "$(echo $2)" "${3:-}"; }

# --- the first daemon since boot: loads, verifies and pins ---------------------------
no_daemon
rm -rf "$BDIR"/cache-*
det fresh
check fresh_trace_ok t_krc 0 fresh
check fresh_has_records t_num "$(wc -l <"$TMP/fresh.det")" -gt 50
no_daemon
C=$(cdir)
check fresh_cache_made t_match "${C##*/}" '^cache-[0-9a-f]{16}$'
check fresh_cache_programs t_eq "$(pinned | awk '{ print $1 }' | tr '\n' ' ')" \
	"ktr_csw_switch ktr_proc_exec ktr_proc_exit ktr_proc_fork ktr_psig_deliver ktr_psig_generate ktr_stage_flush ktr_syscall_enter ktr_syscall_exit ktr_tp_record "
check fresh_cache_maps t_num "$(find "$C" -name 'map-*' | wc -l)" -ge 15
P1=$(pinned)
IDS=$(echo "$P1" | awk '{ print $2 }')

# --- nothing runs, nothing big is held, while no daemon does --------------------------
check idle_nothing_attached t_eq "$(links_to $IDS)" 0
check idle_no_ring_held holder_empty map-rb_holder
check idle_no_scratch_held holder_empty map-scratch_holder

# --- the next daemon runs the same programs, and records the same ---------------------
det kept
check kept_trace_ok t_krc 0 kept
check kept_records_as_fresh t_eq "$(diff "$TMP/fresh.det" "$TMP/kept.det" | head -n 5)" ""
check kept_pins_unchanged t_eq "$(pinned)" "$P1"
keeper k1
D=$(daemon_pid)
HELD=$(held "${D:-0}")
check kept_daemon_runs_them same_set "$(echo "$HELD" | grep -xF -f <(echo "$IDS") | sort -n)" \
	"$(echo "$IDS" | sort -n)" "the pinned programs the daemon holds"
check kept_nothing_verified_again t_eq "$(echo "$HELD" | grep -cvxF -f <(echo "$IDS"))" 0
check kept_attached_while_tracing t_num "$(links_to $IDS)" -ge 6
tkill "$KEEP"
wait "$KEEP" 2>/dev/null
no_daemon
check kept_idle_nothing_attached t_eq "$(links_to $IDS)" 0
check kept_idle_no_ring_held holder_empty map-rb_holder

# --- a daemon killed -9 mid-trace leaves nothing behind -------------------------------
# mapn MAP: how many entries the cache's MAP holds (non-zero ones, for an array)
mapn()
{
	bpftool -j map dump pinned "$(cdir)/$1" 2>/dev/null |
		jq '[.[] | select([.value[] | select(. != "0x00")] | length > 0)] | length'
}
# a busy process traced with everything a daemon leaves in the maps: its entry, a
# kernel event, a syscall selection, and losses (a 4 KiB ring, never drained in time)
"$PROGS/getppid_loop" 100000000 >/dev/null &
BUSY=$!
E2E_PIDS="${E2E_PIDS:-} $BUSY"
ktr busy -b 4k -t c -e sched:sched_process_exec -e trace=getppid,exit_group -p "$BUSY" \
	-f "$TMP/busy.ktr"
check k9_busy_traced t_krc 0 busy
sleep 0.5
kill_daemons
no_daemon
check k9_left_entries t_num "$(mapn map-procs)" -gt 0
check k9_left_event t_num "$(mapn map-tp_wanted)" -gt 0
check k9_left_selection t_num "$(mapn map-selects)" -gt 0
LEFT_LOST=$(mapn map-lost) # none if the daemon kept up even with 4 KiB (a slow machine)
# the next daemon, from the cache: none of it, while it traces and in its file
keeper after1
check k9_next_traces t_krc 0 after1
# procs_held: the keys of the cache's procs map; procs_named: each as "pid(comm)",
# what a failure shows of whose they were
procs_held() { bpftool -j map dump pinned "$(cdir)/map-procs" | jq -c '[.[].formatted.key]'; }
procs_named()
{
	local pid
	for pid in $(procs_held | tr -d '[]' | tr , ' '); do
		printf '%s(%s) ' "$pid" "$(cat /proc/"$pid"/comm 2>/dev/null)"
	done
}
check k9_no_entry_left t_eq "$(procs_held)" "[$KEEP]" "held: $(procs_named)"
check k9_no_event_left t_eq "$(mapn map-tp_wanted) $(mapn map-tp_events)" "0 0"
check k9_no_selection_left t_eq "$(mapn map-selects)" 0
if [ "$LEFT_LOST" -gt 0 ]; then
	check k9_no_loss_left t_eq "$(mapn map-lost)" 0
else
	skip k9_no_loss_left "the dead daemon lost nothing"
fi
ktr after -t c -f "$TMP/after.ktr" /bin/true
tkill "$BUSY" "$KEEP"
wait "$BUSY" "$KEEP" 2>/dev/null
kd after "$TMP/after.ktr"
# a daemon that did not end leaves its programs to be loaded afresh (what it
# left is not looked through: on 6.1 each look into an array of maps waits
# for an RCU grace period), as many as before
check k9_next_remade t_eq "$(pinned | awk '{ print $1 }')" "$(echo "$P1" | awk '{ print $1 }')"
check k9_next_new_ids t_eq "$(pinned | grep -cxF -f <(echo "$P1"))" 0
check k9_next_has_its_own t_num "$(qn "$TMP/after.norm" '$3 == "true" && $4 == "CALL"')" -gt 5
check k9_no_dead_ring_record t_eq "$(qn "$TMP/after.norm" '$1 == pid || $5 ~ /getppid/' pid="$BUSY")" 0
check k9_no_loss t_eq "$(qn "$TMP/after.norm" '$4 == "LOST"') $(ktr_summary after | cut -d' ' -f2)" "0 0"
no_daemon

# --- what does not look as ours is not used, and the trace still works -----------------
# stray P DESCRIPTION: the next trace loads afresh (new programs), works, and keeps a good cache
stray()
{
	local before
	before=$(pinned | awk '{ print $2 }')
	ktr "$1" -t c -f "$TMP/$1.ktr" /bin/true
	check "$1_trace_ok" t_krc 0 "$1"
	kd "$1" "$TMP/$1.ktr"
	check "$1_recorded" t_num "$(qn "$TMP/$1.norm" '$3 == "true" && $4 == "CALL"')" -gt 5
	no_daemon
	check "$1_not_used" t_eq "$(pinned | awk '{ print $2 }' | grep -cxF -f <(echo "$before"))" 0
	check "$1_cache_remade" t_eq "$(pinned | wc -l)" 10
	check "$1_one_cache" t_eq "$(find "$BDIR" -mindepth 1 -maxdepth 1 -type d | wc -l)" 1
}
C=$(cdir)
rm -f "$C/map-lost"
bpftool map create "$C/map-lost" type array key 4 value 4 entries 16384 name lost
stray wrongmap
C=$(cdir)
rm -f "$C/prog-ktr_proc_exit"
bpftool map create "$C/prog-ktr_proc_exit" type array key 4 value 8 entries 1 name ktr_proc_exit
stray notprog
C=$(cdir)
mv "$C" "$BDIR/cache-0123456789abcdef" # another configuration's
stray otherconf
check otherconf_removed t_eq "$(find "$BDIR" -name 'cache-0123456789abcdef' | wc -l)" 0

# --- a program the kernel refused stays refused, with its reason; one a trace needs cannot be
# progidx NAME: the program's index in the object (the key of the cache's refusals)
progidx() { sed -n 's/.*s->progs\[\([0-9]*\)\]\.name = "'"$1"'";/\1/p' "$O/ktraceb.skel.h"; }
# refuse NAME REASON: the cache says the kernel refused NAME, for REASON, and has no such program
refuse()
{
	local i=$(progidx "$1") k v
	k=$(printf '%02x 00 00 00' "$i")
	v=$(printf '%s' "$2" | od -An -tx1 -v | tr -s ' \n' ' ')
	v="$v $(yes 00 | head -n $((320 - ${#2})) | tr '\n' ' ')"
	bpftool map update pinned "$(cdir)/refused" key hex $k value hex $v &&
		rm -f "$(cdir)/prog-$1"
}
P4=$(pinned)
refuse ktr_csw_switch "a reason of the test's"
ktr csw -t cw -f "$TMP/csw.ktr" /bin/true
check refused_kept_trace_ok t_krc 0 csw
check refused_kept_said t_grep \
	'^ktraceb: -t w: context switches are not recorded on this kernel: a reason of the test.s$' "$TMP/csw.err"
kd csw "$TMP/csw.ktr"
check refused_kept_rest_recorded t_num "$(qn "$TMP/csw.norm" '$4 == "CALL"')" -gt 5
no_daemon
check refused_kept_cache_used t_eq "$(pinned)" "$(echo "$P4" | grep -v '^ktr_csw_switch ')"
refuse ktr_syscall_exit "not a program a trace can do without"
stray refusedneeded
check refusedneeded_csw_back t_num "$(pinned | grep -c '^ktr_csw_switch ')" -eq 1

# --- KTRACEB_REFUSE_PROG: the tests' refused programs never meet the cache -------------
P2=$(pinned)
sleep 60 &
KEEP=$!
E2E_PIDS="${E2E_PIDS:-} $KEEP"
KTRACEB_REFUSE_PROG=ktr_csw_switch ktr refuse -t c -p "$KEEP" -f "$TMP/refuse.ktr"
check refuse_trace_ok t_krc 0 refuse
D=$(daemon_pid)
check refuse_cache_not_read t_eq "$(held "${D:-0}" | grep -cxF -f <(echo "$P2" | awk '{ print $2 }'))" 0
tkill "$KEEP"
wait "$KEEP" 2>/dev/null
no_daemon
check refuse_cache_not_written t_eq "$(pinned)" "$P2"

# --- the USDT program joins the cache when first loaded -------------------------------
if [ -x "$SDT" ]; then
	ktr usdt1 -t cu -e usdt:uevtest -f "$TMP/usdt1.ktr" "$SDT" 2
	kd usdt1 "$TMP/usdt1.ktr"
	if grep -q 'USDT probes are not recorded' "$TMP/usdt1.err"; then
		skip usdt "$(head -n 1 "$TMP/usdt1.err")"
	else
		check usdt_recorded t_num "$(qn "$TMP/usdt1.norm" '$4 == "USER"')" -gt 0
		no_daemon
		U=$(pinned | awk '$1 == "ktr_usdt_record" { print $2 }')
		check usdt_added t_match "${U:-none}" '^[0-9]+$'
		ktr usdt2 -t cu -e usdt:uevtest -f "$TMP/usdt2.ktr" "$SDT" 2
		kd usdt2 "$TMP/usdt2.ktr"
		check usdt_kept_recorded t_eq "$(qn "$TMP/usdt2.norm" '$4 == "USER"')" \
			"$(qn "$TMP/usdt1.norm" '$4 == "USER"')"
		no_daemon
		check usdt_kept_same t_eq "$(pinned | awk '$1 == "ktr_usdt_record" { print $2 }')" "$U"
	fi
fi

# --- a user's own daemon: neither reads nor writes it ---------------------------------
P3=$(pinned)
if user_setup && wait_no_daemon 15; then
	ubg usleep "$PROGS/fac_sleep" 600 100
	UP=$BGPID
	sleep 0.2
	uktr user -t c -p "$UP" -f "$UDIR/user.ktr"
	check user_trace_ok t_krc 0 user
	UD=$(pgrep -u "$KUID" -x ktracebd | head -n 1)
	check user_daemon_own_programs t_eq "$(held "${UD:-0}" |
		grep -cxF -f <(echo "$P3" | awk '{ print $2 }'))" 0
	tkill "$UP"
	wait_no_daemon 15
	check user_cache_untouched t_eq "$(pinned)" "$P3"
else
	skip user "${USER_WHY:-a daemon stays up}"
fi
e2e_done
