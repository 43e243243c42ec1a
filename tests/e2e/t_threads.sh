#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/progs/threads: without -i a command's threads are traced.  Every
# thread's tid must show up as pid:tid with its own openat (ENOENT, its own
# path) and getpriority, and the main thread's clone must return that tid.
. "$(dirname "$0")/lib.sh"
need_tracer

NT=6
F=$TMP/t.ktr
ktr t -f "$F" "$PROGS/threads" "$NT"
OUT=$TMP/t.out
N=$TMP/t.norm
check ktraceb_exit_0 t_krc 0 t
check summary_no_loss t_grep "^ktraceb: [0-9]+ records written to $F, 0 lost\$" "$TMP/t.err"
check file_walks_to_eof walk t "$F"
kd t "$F"
check kdump_clean t_kdump_ok t

PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
check main_tid_is_pid t_eq "$(awk '$1 == "pid" { print $4 }' "$OUT")" "${PID:-none}"
PID=${PID:-0}
check records_all_from_pid t_eq "$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f1 | sort -u)" "$PID"
ntid=$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f2 | sort -u | wc -l)
check distinct_tids t_num "$ntid" -eq $((NT + 1)) "main thread + $NT"
check threaded_flag_set t_num "$(walkval t threaded)" -gt 0 "records with KTRH_THREADED"

i=0
while read -r _ idx _ tid _ oret _ oerr; do
	check "thread${idx}_tid_differs" t_num "$tid" -ne "$PID"
	a=$(around "$N" "$tid" "/nonexistent/ktraceb-thread-$idx")
	check "thread${idx}_openat" t_match "$(sed -n 1p <<<"$a")" '^CALL openat\(AT_FDCWD,'
	check "thread${idx}_enoent" t_match "$(sed -n 2p <<<"$a") $oret $oerr" \
		'^RET openat -1 errno 2( .*)? -1 2$'
	check "thread${idx}_getpriority" t_eq "$(qn "$N" '$1 == pid && $2 == tid && $4 == "CALL" &&
		$5 ~ /^getpriority\((PRIO_PROCESS|0|0x0),(100[0-9]|0x3e[89a-f]|0x3f[0-9a-f])\)$/' \
		pid="$PID" tid="$tid")" 1
	# no other thread made this thread's call
	check "thread${idx}_path_only_in_own_tid" t_eq \
		"$(q "$N" '$4 == "NAMI" && $5 == p' p="\"/nonexistent/ktraceb-thread-$idx\"" |
			cut -f2 | sort -u)" "$tid"
	check "thread${idx}_created_by_main" t_grep \
		$'^'"$PID"$'\t'"$PID"$'\t[^\t]*\tRET\tclone3? '"$(retrx "$tid")\$" "$N"
	i=$((i + 1))
done < <(grep '^thread ' "$OUT")
check all_threads_reported t_eq "$i" "$NT"

e2e_done
