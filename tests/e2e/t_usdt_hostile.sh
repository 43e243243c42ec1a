#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# USDT against a hostile local user, through root's daemon (issue 22):
#  1 the daemon never writes into a process's memory: semaphores are the
#    kernel's to raise (uprobes with their reference counter), so nothing
#    taken from a /proc/PID/maps that a set-id exec made stale can land in
#    the new image
#  2 an ELF file made to stall a note reader (65,534 program headers,
#    40,000 notes) costs the daemon neither its time (another trace is
#    served meanwhile) nor memory or a descriptor after its process ended
#  3 a process nobody traces pays nothing, not even a trap, for the probes
#    somebody else traces in a copy of the same program
#  4 the USDT patterns of a request (-e usdt:) as a hostile client sends
#    them: too long, not NUL-padded, malformed, too many, without 'u', in
#    a request that takes none: refused with a one-line reason, nothing
#    armed; a process moved to a file with other patterns arms those
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_usdt
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
for p in uev_sdt uev_loop map_exec elf_bomb ktr_hostile; do
	if [ ! -x "$PROGS/$p" ]; then
		fail build "$PROGS/$p not built (make O=$O test)"
		e2e_done
	fi
	cp "$PROGS/$p" "$UBIN/"
done
STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)
usdt_hostile_cleanup()
{
	[ -n "$STATS_WAS" ] && sysctl -q -w kernel.bpf_stats_enabled="$STATS_WAS"
	user_cleanup
}
trap 'usdt_hostile_cleanup' EXIT

# show FILE...: the files' last lines, under a failed check (what CI keeps)
show()
{
	local f
	for f in "$@"; do
		[ -s "$f" ] && tail -n 8 "$f" | sed "s|^|    ${f##*/}: |" >&2
	done
}

# now_ms: a clock for the checks that the daemon did not stall
now_ms()
{
	echo $(($(date +%s%N) / 1000000))
}

# root's daemon, kept up by a trace of a sleeper for the whole script
bg keep sleep 600
ktr keep -t c -f "$TMP/keep.ktr" -p "$BGPID"
# what a traced /bin/true takes on this machine now, the daemon up: a stall
# is measured beyond it (an emulated guest on a busy host takes seconds for
# what takes milliseconds here; a stalled daemon takes far longer still)
T0=$(now_ms)
ktr base -t c -f "$TMP/base.ktr" /bin/true
BASE_MS=$(($(now_ms) - T0))
check base_traced t_krc 0 base
D=$(daemon_pid)
if [ "$KRC" -ne 0 ] || [ -z "$D" ]; then
	fail daemon_up "root's daemon did not start (ktraceb exit $KRC)"
	e2e_done
fi

# --- 1: no write into a process's memory -------------------------------------------
if command -v strace >/dev/null; then
	strace -f -qq -e trace=open,openat -o "$TMP/strace.out" -p "$D" 2>/dev/null &
	STRACE=$!
	E2E_PIDS="$E2E_PIDS $STRACE"
	for _ in $(seq 50); do [ -s "$TMP/strace.out" ] || grep -q TracerPid:.*[1-9] \
		"/proc/$D/status" && break; sleep 0.1; done
	plain mem -t u -e usdt:uevtest -f "$UDIR/mem.ktr" "$UBIN/uev_sdt" 3
	sleep 0.3
	tkill "$STRACE" 2>/dev/null
	wait "$STRACE" 2>/dev/null
	check mem_trace_exit_0 t_krc 0 mem
	# the semaphores were raised (by the kernel) while traced...
	RAISED=$(grep -c '^sem [0-9]* 1$' "$TMP/mem.out")
	check mem_sem_raised t_eq "$RAISED" 3
	[ "$RAISED" = 3 ] || show "$TMP/mem.out" "$TMP/mem.err" "/run/ktraceb/ktraceb-$BUILD_ID.log"
	# ...the daemon was watched looking at the process...
	check mem_daemon_watched t_grep '/proc/[0-9]+/maps' "$TMP/strace.out"
	# ...and neither it nor a scan it started opened any process's memory to write
	check mem_never_written t_nogrep '/proc/[0-9]+/mem".*O_(RDWR|WRONLY)' "$TMP/strace.out"
else
	skip mem "strace not installed"
fi

# --- 2: an ELF file made to stall the note reader ------------------------------------
"$UBIN/elf_bomb" "$UBIN/bomb.so" 65534 40000
chmod 644 "$UBIN/bomb.so"
sleep 0.2 # the daemon's tick lets the first section's files go
FD0=$(ls "/proc/$D/fd" | wc -l)
RSS0=$(awk '/^VmRSS:/ { print $2 }' "/proc/$D/status")
T0=$(now_ms)
ubg bomb "$UBIN/plain" -t u -f "$UDIR/bomb.ktr" "$UBIN/map_exec" "$UBIN/bomb.so" 1000
BOMB=$BGPID
sleep 0.3
T1=$(now_ms)
ktr other -t c -f "$TMP/other.ktr" /bin/true
T2=$(now_ms)
check bomb_others_served t_krc 0 other
check bomb_others_not_stalled t_num $((T2 - T1)) -lt $((3000 + 4 * BASE_MS))
wait_exit "$BOMB" 60
T3=$(now_ms)
check bomb_trace_exit_0 t_eq "$WRC" 0
check bomb_program_ran t_grep '^mapped$' "$TMP/bomb.pout"
# held while its file was scanned: the scan is bounded, not the file's product of headers and notes
check bomb_not_stalled t_num $((T3 - T0)) -lt $((5000 + 4 * BASE_MS))
sleep 0.5 # the daemon's tick forgets the process
check bomb_no_descriptor_kept t_num "$(ls "/proc/$D/fd" | wc -l)" -le "$FD0"
check bomb_no_memory_kept t_num $(($(awk '/^VmRSS:/ { print $2 }' "/proc/$D/status") - RSS0)) -lt 8192

# --- 3: an untraced process pays nothing for someone else's probes -------------------
# usdt_runs: "ID COUNT": this build's USDT program (the daemon's, or the one
# kept pinned for the next daemon when none runs) and how often it ran
# (kernel.bpf_stats_enabled)
usdt_runs()
{
	local id f
	if ! id=$(daemon_prog ktr_usdt_record); then
		for f in /sys/fs/bpf/ktraceb/"$BUILD_ID"/cache-*/prog-ktr_usdt_record; do
			[ -e "$f" ] && id=$(bpftool prog show pinned "$f" -j 2>/dev/null | jq -r '.id')
		done
	fi
	[ -n "$id" ] || return 0
	echo "$id $(bpftool prog show id "$id" -j 2>/dev/null | jq -r '.run_cnt // 0')"
}
if sysctl -q -w kernel.bpf_stats_enabled=1 2>/dev/null && command -v jq >/dev/null; then
	read -r ID0 R0 <<<"$(usdt_runs)"
	bg twin "$UBIN/uev_loop" 3000 # nobody traces it
	TWIN=$BGPID
	wait_line "$TMP/twin.pout" '^pid ' 10
	plain loop -t u -e usdt:uevloop -f "$UDIR/loop.ktr" "$UBIN/uev_loop" 1000
	read -r ID1 R1 <<<"$(usdt_runs)"
	# a program loaded since (a fresh daemon's) has run only since
	[ "${ID0:-}" = "${ID1:-}" ] || R0=0
	wait_exit "$TWIN" 30
	HITS=$(awk '$1 == "hits" { print $2 }' "$TMP/loop.out")
	TWIN_HITS=$(awk '$1 == "hits" { print $2 }' "$TMP/twin.pout")
	RUNS=$((${R1:-0} - ${R0:-0}))
	check untrap_traced_exit_0 t_krc 0 loop
	check untrap_twin_fired t_num "${TWIN_HITS:-0}" -gt 100000
	# the traced copy's probes ran the program once each...
	check untrap_traced_probes_ran t_num "$RUNS" -ge "${HITS:-1}"
	# ...and the untraced copy's, firing all the while, not once
	check untrap_twin_never_trapped t_num "$RUNS" -le $((${HITS:-0} + 1000))
else
	skip untrap "kernel.bpf_stats_enabled or jq missing"
fi

# --- 4: USDT patterns as a hostile client sends them ---------------------------------
ROOT_SOCK=/run/ktraceb/ktraceb-$BUILD_ID.sock
DEF=0x301be # KTR_DEF_POINTS ('u' among them)
ubg pat "$UBIN/uev_sdt" 3000 20
PAT=$BGPID
wait_line "$TMP/pat.pout" '^pid ' 10
# pat P PATTERNS FACS OP REGEX: one request (as the test user) with those patterns
pat()
{
	local fd=none
	[ "$4" = 1 ] && fd=new:$UDIR/$1.ktr
	KTR_HOSTILE_USDT=$2 timeout -k 5 60 setpriv --reuid="$KUID" --regid="$KGID" \
		--init-groups -- "$UBIN/ktr_hostile" "$ROOT_SOCK" op "$4" "$3" 0 "$PAT" "$fd" \
		>"$TMP/$1.h" 2>"$TMP/$1.herr" </dev/null
	check "pat_${1}" t_grep "$5" "$TMP/$1.h"
}
pat long long "$DEF" 1 'error=22 .*USDT patterns not NUL-terminated'
pat unpadded unpadded "$DEF" 1 'error=22 .*USDT patterns not NUL-padded'
pat three 'a:b:c' "$DEF" 1 "error=22 .*too many ':'"
pat bare 'python' "$DEF" 1 'error=22 .*a probe pattern is PROVIDER:NAME'
pat slash 'py/thon:x' "$DEF" 1 'error=22 .*letters, digits and _'
pat space2 'a:b  c:d' "$DEF" 1 'error=22 .*an empty one between'
pat newline $'a:b\nc' "$DEF" 1 'error=22 .*letters, digits and _'
pat many "$(printf 'p:%d ' $(seq 17) | sed 's/ $//')" "$DEF" 1 'error=22 .*too many USDT patterns'
pat nofac 'uevtest:hit' 0x2 1 'error=22 .*without the user facility'
pat clear 'uevtest:hit' "$DEF" 2 'error=22 .*only a SET takes'
check pat_nothing_traced t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/pat.pout")" 0
# a well-formed glob that names none of its probes: traced, nothing armed, the
# daemon not held up (a glob's match costs at most the product of the lengths)
N0=$(wc -l <"$TMP/pat.pout")
T0=$(now_ms)
pat glob "uevtest:$(printf '*h%.0s' $(seq 29))x" "$DEF" 1 'error=0 count=1'
sleep 0.5
ktr other2 -t c -f "$TMP/other2.ktr" /bin/true
check pat_glob_others_served t_krc 0 other2
check pat_glob_not_stalled t_num $(($(now_ms) - T0)) -lt $((3000 + 4 * BASE_MS))
tail -n +"$N0" "$TMP/pat.pout" | grep '^sem ' >"$TMP/pat.glob.sem"
check pat_glob_ran t_num "$(wc -l <"$TMP/pat.glob.sem")" -gt 5
check pat_glob_armed_nothing t_eq "$(grep -c ' 1$' "$TMP/pat.glob.sem")" 0
# the same process moved to a file whose pattern names one: that one is armed
pat good 'uevtest:hit' "$DEF" 1 'error=0 count=1'
if wait_line "$TMP/pat.pout" '^sem [0-9]+ 1$' 20; then
	pass pat_good_armed
else
	fail pat_good_armed "no semaphore raised in 20 s"
	show "$TMP/pat.pout" "$TMP/good.h" "$TMP/good.herr" "/run/ktraceb/ktraceb-$BUILD_ID.log"
fi
tkill "$PAT" 2>/dev/null
wait_exit "$PAT" 10
# the file read once it has its END: a busy daemon may not have written the last records yet
wait_kd good "$UDIR/good.ktr" 1 '$4 == "END"'
check pat_good_only_it t_eq "$(q "$TMP/good.norm" '$4 == "USER"' | cut -f5 | sed 's/(.*//' |
	sort -u)" "uevtest:hit"
e2e_done
