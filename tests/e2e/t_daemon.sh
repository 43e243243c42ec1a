#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The daemon as a process beside its clients: it shows in ps as ktracebd with
# its own arguments (root's and a user's); -b grows its ring while it runs
# (a burst the small ring loses is kept whole, a user's ask is capped, a
# request refused grows nothing, and a trace running through the swap keeps
# every record, each thread's in order); and when it is killed under a
# foreground trace, ktraceb says so once, waits for its command (with -i its
# descendants too) and exits with its status, or 74 if the command
# succeeded: `ktraceb job; next` runs next after job.  A daemon that goes with a request unread (idle, as a ktraceb
# connects) leaves it to the next.  A trace file that fills up likewise
# leaves ktraceb waiting.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

# wait_file FILE SECONDS: 0 once FILE exists
wait_file()
{
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "    $1 did not appear in $2 s" >&2
	return 1
}

# ring_now P: the running daemon's rings' size in bytes (each), as a -b 4k trace is told
ring_now()
{
	ktr "$1" -b 4k -f "$TMP/$1.ktr" true
	sed -n "s/^ktraceb: -b ignored: the running daemon's ring buffers are bigger, \([0-9]*\) bytes each\$/\1/p" \
		"$TMP/$1.err"
}

# --- ps: the daemon is ktracebd, with its own arguments ---
kill_daemons
daemon_gone 10
bg keep "$ATT_TICK" 20 30000
K=$(wait_role "$TMP/keep.pout" pid)
ktr keep -b 16k -f "$TMP/keep.ktr" -p "$K"
check ps_keep_exit_0 t_krc 0 keep
D=$(daemon_pid)
check ps_daemon_found t_match "${D:-none}" '^[0-9]+$'
check ps_args t_eq "$(ps -o args= -p "${D:-0}")" "ktracebd -b 16k"
check ps_comm t_eq "$(cat "/proc/${D:-0}/comm" 2>&1)" ktracebd
check ps_same_binary t_eq "$(readlink "/proc/${D:-0}/exe")" "$(readlink -f "$KTRACEB")"

# --- -v: which build of the BPF programs the running daemon has; the INFO record agrees ---
ktr verbose -v -t c -f "$TMP/v.ktr" true
check v_exit_0 t_krc 0 verbose
VBUILD=$(sed -n 's/^ktraceb: BPF programs: the build //p' "$TMP/verbose.err")
check v_says_the_build t_match "${VBUILD:-none}" '^for (Linux 5\.12 and later|kernels before 5\.12 \(.*\))$'
kd v "$TMP/v.ktr"
case $VBUILD in
"for kernels before"*) vold=1 ;;
*) vold=0 ;;
esac
check v_info_agrees t_eq "$(q "$TMP/v.norm" '$4 == "INFO" && $5 ~ /^ktraceb format / && $5 ~ /, BPF programs for kernels before 5\.12$/' |
	wc -l | tr -d ' ')" "$vold"
ktr quiet -t c -f "$TMP/q.ktr" true
check no_v_no_build t_nogrep 'BPF programs' "$TMP/quiet.err"

# --- -b grows the running daemon's ring: a burst the 16k ring loses is kept ---
# (the 32m ring holds all 200,000 calls, even when a busy machine gives the
# daemon no time to drain during the burst)
CALLS=${KTR_DAEMON_CALLS:-200000}
ktr small -b 16k -f "$TMP/small.ktr" "$PROGS/getppid_loop" "$CALLS"
read -r _ lost_small _ <<<"$(ktr_summary small)"
ktr big -b 32m -f "$TMP/big.ktr" "$PROGS/getppid_loop" "$CALLS"
read -r _ lost_big _ <<<"$(ktr_summary big)"
check grow_same_daemon t_eq "$(daemon_pid)" "$D"
check grow_exit_0 t_krc 0 big
check grow_said_nothing t_nogrep '-b |ring' "$TMP/big.err"
check grow_none_lost t_eq "${lost_big:-none}" 0
kd big "$TMP/big.ktr"
check grow_all_calls t_eq "$(qn "$TMP/big.norm" '$4 == "CALL" && $5 == "getppid"')" "$CALLS"
check grow_all_returns t_eq "$(qn "$TMP/big.norm" '$4 == "RET" && $5 ~ /^getppid /')" "$CALLS"
if [ "${lost_small:-0}" -gt 0 ]; then
	check grow_fewer_lost t_num "${lost_big:-1}" -lt "$lost_small" "lost with -b 32m / 16k"
else
	skip grow_fewer_lost "the 16k ring lost nothing of $CALLS calls here"
fi
check grow_kept t_eq "$(ring_now r32)" $((32 << 20))

# --- a user's -b in root's daemon: capped at the user's share, 64m in all ---
if user_setup; then
	# a refused request changes nothing shared: pid 1 is not the user's
	uktr urefused -b 64m -p 1 -f "$UDIR/urefused.ktr"
	check user_refused_refused t_grep '^ktraceb: pid 1: not your process$' "$TMP/urefused.err"
	check user_refused_ring_kept t_eq "$(ring_now r32b)" $((32 << 20))
	uktr ucap -b 256m -f "$UDIR/ucap.ktr" "$UBIN/att_tick" 1 1
	check user_cap_exit_0 t_krc 0 ucap
	# a user's share is of all the rings: 64m divided by them (32m each on
	# 2 CPUs), or what they have now (32m, above) if that is more
	rings=$(daemon_rings)
	each=$((64 / rings))
	[ "$each" -lt 32 ] && each=32
	[ "$rings" = 1 ] && said="its ring grows to 64m at most" ||
		said="its rings grow to ${each}m each at most"
	check user_cap_said t_grep \
		"^ktraceb: -b 256m: more than a user's share of root's daemon; $said\$" "$TMP/ucap.err"
	# a trace as short as the swap under it: its last records are in its file
	kd ucap "$UDIR/ucap.ktr"
	check user_cap_trace_whole t_eq "$(q "$TMP/ucap.norm" '$4 == "EXIT"' | cut -f5)" "exited 0"
	check user_cap_ring t_eq "$(ring_now r64)" $((each << 20))
else
	skip user_cap "$USER_WHY"
fi

# --- a trace running through the swap: every record, each thread's in order ---
rm -f "$TMP/swap.pid"
ktr_bg swap -f "$TMP/swap.ktr" "$PROGS/getppid_loop" 400000 "$TMP/swap.pid"
SWAP=$KTRPID
wait_file "$TMP/swap.pid" 60
ktr grow2 -b 128m -f "$TMP/grow2.ktr" true
check swap_grow_exit_0 t_krc 0 grow2
wait_exit "$SWAP" 120
KRC=$WRC
check swap_exit_0 t_krc 0 swap
check swap_ring_grown t_eq "$(ring_now r128)" $((128 << 20))
check swap_walks walk swap "$TMP/swap.ktr"
check swap_none_lost t_eq "$(walkval swap lost_total)" 0
check swap_in_order t_eq "$(walkval swap backwards)" 0
kd swap "$TMP/swap.ktr"
check swap_all_calls t_eq "$(qn "$TMP/swap.norm" '$4 == "CALL" && $5 == "getppid"')" 400000
check swap_all_returns t_eq "$(qn "$TMP/swap.norm" '$4 == "RET" && $5 ~ /^getppid /')" 400000
check swap_alternate t_eq "$(q "$TMP/swap.norm" '$4 == "CALL" || $4 == "RET"' | cut -f4 |
	uniq -c | awk '$1 > 1' | wc -l)" 0
ktr keepc -c -p "$K"
tkill -KILL "$K"

# --- a user's own daemon is ktracebd too, run again with its capabilities ---
if [ -n "$USER_OK" ] && daemon_gone 15; then
	ubg uown "$UBIN/ktraceb" -f "$UDIR/uown.ktr" "$UBIN/att_tick" 20 3000
	wait_file "$UDIR/uown.ktr" 60
	wait_size "$UDIR/uown.ktr" 0
	UD=$(sock_pid "@ktraceb-$BUILD_ID.$KUID")
	check user_ps_args t_eq "$(ps -o user=,args= -p "${UD:-0}" | tr -s ' ')" \
		"$KUSER ktracebd -b 16m"
	check user_ps_caps t_match "$(grep '^CapEff:' "/proc/${UD:-0}/status" 2>&1)" \
		'^CapEff:[[:space:]]+0*c000000000$'
	tkill -KILL "$BGPID"
	kill_daemons
elif [ -n "$USER_OK" ]; then
	skip user_ps "root's daemon stays up"
fi

# --- the daemon killed under a foreground -i command ---
cat >"$TMP/job.sh" <<'EOF'
# job.sh DIR STATUS: says it started, waits for DIR/go, leaves a child that
# waits for DIR/go2, and ends with STATUS
d=$1
echo $$ >"$d/started.tmp" && mv "$d/started.tmp" "$d/started"
while [ ! -e "$d/go" ]; do sleep 0.05; done
(while [ ! -e "$d/go2" ]; do sleep 0.05; done; echo child >>"$d/order") &
echo job >>"$d/order"
exit "$2"
EOF

# killed NAME STATUS [ktraceb options]: job.sh under ktraceb, its daemon
# killed once the job runs; ktraceb's status goes into NAME/order after it
killed()
{
	local d=$TMP/$1 st=$2
	shift 2
	mkdir -p "$d"
	("$KTRACEB" "$@" -f "$d/k.ktr" sh "$TMP/job.sh" "$d" "$st" 2>"$d/err" </dev/null
	echo "after $?" >>"$d/order") &
	KILLED_BG=$!
	E2E_PIDS="${E2E_PIDS:-} $KILLED_BG"
	wait_file "$d/started" 60
	kill_daemons
	touch "$d/go"
}

killed ki 3 -i
wait_line "$TMP/ki/order" '^job$' 60
sleep 1 # ample time for a ktraceb that did not wait to have written its status
check killed_waits_for_descendants t_nogrep '^after' "$TMP/ki/order"
touch "$TMP/ki/go2"
wait_line "$TMP/ki/order" '^after' 60
check killed_order_and_status t_eq "$(tr '\n' ' ' <"$TMP/ki/order")" "job child after 3 "
check killed_said_once t_lines 1 "$TMP/ki/err"
check killed_line t_grep "^ktraceb: the ktraceb daemon ended \(.+\): the trace in $TMP/ki/k.ktr ends here, incomplete; waiting for sh \(pid $(cat "$TMP/ki/started")\) and its descendants\$" \
	"$TMP/ki/err"
kd ki "$TMP/ki/k.ktr"
check killed_trace_kept t_num "$(qn "$TMP/ki.norm" '$4 == "CALL" && $5 ~ /^execve/')" -ge 1

# the command succeeds: 74, the trace being incomplete; without -i, the job alone
mkdir -p "$TMP/k0"
touch "$TMP/k0/go2"
killed k0 0
wait_line "$TMP/k0/order" '^after' 60
check killed_ok_status_74 t_eq "$(grep -v child "$TMP/k0/order" | tr '\n' ' ')" "job after 74 "
check killed_ok_said_once t_lines 1 "$TMP/k0/err"

# with a daemon that lives: job && next, next after job, on job's status
mkdir -p "$TMP/k1"
touch "$TMP/k1/go" "$TMP/k1/go2"
"$KTRACEB" -f "$TMP/k1/k.ktr" sh "$TMP/job.sh" "$TMP/k1" 0 2>"$TMP/k1/err" </dev/null &&
	echo next >>"$TMP/k1/order"
check live_job_then_next t_eq "$(grep -v child "$TMP/k1/order" | tr '\n' ' ')" "job next "

# SIGINT while it waits without a daemon: it stops waiting (128 + SIGINT)
mkdir -p "$TMP/kint"
ktr_bg kint -f "$TMP/kint.ktr" sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1"; exec sleep 600' \
	sh "$TMP/kint/started"
wait_file "$TMP/kint/started" 60
kill_daemons
wait_line "$TMP/kint.err" 'daemon ended' 30
tkill -INT "$KTRPID"
wait_exit "$KTRPID" 20
check killed_sigint_status t_eq "$WRC" 130
tkill -KILL "$(cat "$TMP/kint/started")" 2>/dev/null

# -F: said once, and ktraceb returns (1); the process lives on untraced
bg fk "$ATT_TICK" 20 0
FK=$(wait_role "$TMP/fk.pout" pid)
ktr_bg fkill -F -f "$TMP/fkill.ktr" -p "$FK"
wait_size "$TMP/fkill.ktr" 2000
kill_daemons
wait_exit "$KTRPID" 30
check F_killed_status t_eq "$WRC" 1
check F_killed_said_once t_lines 1 "$TMP/fkill.err"
check F_killed_line t_grep "^ktraceb: the ktraceb daemon ended \(.+\): the trace in $TMP/fkill.ktr ends here, incomplete\$" \
	"$TMP/fkill.err"
check F_killed_target_alive tkill -0 "$FK"
tkill -KILL "$FK"

# --- a daemon that goes with a request unread: the request goes to the next ---
# As when the daemon leaves, idle, just as a ktraceb connects: the stopped
# daemon takes the connection into its backlog unaccepted, and ends so.
# The daemon is found and stopped while a trace keeps it (idle, it may
# leave within a second, less than a busy machine takes between two
# commands), then that trace's process is killed: the daemon would be idle.
bg upk "$ATT_TICK" 20 0
UPK=$(wait_role "$TMP/upk.pout" pid)
ktr up -f "$TMP/up.ktr" -p "$UPK"
D=$(daemon_pid)
tkill -STOP "$D"
tkill -KILL "$UPK"
# a busy machine may take a moment to run the daemon into its stop
stopped_state() { [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" = T ]; }
wait_until 10 stopped_state "${D:-x}" 2>/dev/null
check late_old_daemon_stopped t_match "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/${D:-x}/stat" 2>&1)" '^T$'
ktr_bg late -f "$TMP/late.ktr" "$PROGS/getppid_loop" 5
# the request sent, ktraceb waits in recvmsg (x86_64 47, aarch64 212) for the answer
for _ in $(seq 200); do
	grep -Eq '^(47|212) ' "/proc/$KTRPID/syscall" 2>/dev/null && break
	sleep 0.05
done
tkill -TERM "$D"
tkill -CONT "$D"
wait_exit "$KTRPID" 60
check late_exit_0 t_eq "$WRC" 0
check late_nothing_said t_nogrep 'ktraceb daemon|reset|refused' "$TMP/late.err"
check late_next_daemon t_match "$(daemon_pid)" "^[0-9]+\$"
check late_not_the_old_one t_eq "$([ "$(daemon_pid)" = "$D" ] && echo old || echo new)" new
kd late "$TMP/late.ktr"
check late_traced t_eq "$(qn "$TMP/late.norm" '$4 == "CALL" && $5 == "getppid"')" 5

# --- a trace file that fills up: ktraceb says so and waits for the command ---
FULL=$TMP/full
mkdir "$FULL"
if mount -t tmpfs -o size=256k none "$FULL" 2>"$TMP/mount.err"; then
	trap 'umount -l "$FULL" 2>/dev/null; user_cleanup' EXIT
	ktr_bg full -i -f "$FULL/t.ktr" sh -c \
		'"$1" 200000 >/dev/null; while [ ! -e "$2" ]; do sleep 0.05; done; echo end' \
		sh "$PROGS/getppid_loop" "$TMP/full.go"
	wait_line "$TMP/full.err" '^ktraceb: waiting for sh' 60
	check full_waits tkill -0 "$KTRPID"
	check full_said_why t_grep "^ktraceb: $FULL/t.ktr: No space left on device; tracing stopped" \
		"$TMP/full.err"
	touch "$TMP/full.go"
	wait_exit "$KTRPID" 60
	check full_status_74 t_eq "$WRC" 74
	check full_command_ended t_grep '^end$' "$TMP/full.out"
	umount -l "$FULL"
else
	skip full "cannot mount a tmpfs: $(head -n 1 "$TMP/mount.err")"
fi

e2e_done
