#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump -Y: tests/progs/fac_count makes N getppid calls, K failing openat
# calls and M close calls of which half fail.  The summary's rows must count
# exactly those calls and errors (plus the program's start-up calls, counted
# from the plain kdump listing), every row must agree with the CALL and RET
# records, the total must add up, and rows are sorted by time.  With -i the
# summary covers every process of the trace.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer

# row FILE NAME COLUMN: calls or errors (0 if blank) of syscall NAME in kdump -Y output
row()
{
	awk -v n="$2" -v c="$3" '
	$NF == n && $1 ~ /^[0-9.]+$/ {
		# "% seconds usecs p99 max calls [errors] name"
		if (c == "calls") print $6
		else print (NF == 8 ? $7 : 0)
		found = 1
	}
	END { if (!found) print "none" }' "$1"
}

# summary_checks P: the -Y output of run P against its plain listing
summary_checks()
{
	local p=$1 y=$TMP/$1.y n=$TMP/$1.norm name bad=0 c e
	"$KDUMP" -Y -f "$TMP/$p.ktr" >"$y" 2>"$TMP/$p.yerr"
	check "${p}_Y_exit_0" t_eq "$?" 0
	check "${p}_Y_no_stderr" t_eq "$(cat "$TMP/$p.yerr")" ""
	check "${p}_Y_header" t_match "$(head -n 1 "$y")" \
		'^% time +seconds +usecs/call +usecs/p99 +usecs/max +calls +errors +syscall$'
	check "${p}_Y_total_line" t_match "$(tail -n 1 "$y")" '^100\.00? +[0-9.]+ +[0-9]+ +0 +0 +[0-9]+ +([0-9]+ +)?total$'
	# every row: calls = CALL records, errors = failed RET records
	for name in $(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF }' "$y"); do
		c=$(qn "$n" '$4 == "CALL" && ($5 == nm || index($5, nm "(") == 1)' nm="$name")
		e=$(qn "$n" '$4 == "RET" && index($5, nm " -1 errno ") == 1' nm="$name")
		if [ "$(row "$y" "$name" calls)" != "$c" ] || [ "$(row "$y" "$name" errors)" != "$e" ]; then
			echo "    $name: -Y says $(row "$y" "$name" calls) calls, $(row "$y" "$name" errors) errors; records: $c CALL, $e failed RET" >&2
			bad=$((bad + 1))
		fi
	done
	check "${p}_Y_rows_match_records" t_eq "$bad" 0
	check "${p}_Y_total_calls" t_eq "$(awk '$NF == "total" { print $6 }' "$y")" "$(qn "$n" '$4 == "CALL"')"
	check "${p}_Y_total_errors" t_eq "$(awk '$NF == "total" { print (NF == 8 ? $7 : 0) }' "$y")" \
		"$(qn "$n" '$4 == "RET" && $5 ~ / -1 errno /')"
	check "${p}_Y_sum_calls" t_eq "$(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { s += $6 } END { print s }' "$y")" \
		"$(awk '$NF == "total" { print $6 }' "$y")"
	check "${p}_Y_sorted_by_time" t_eq "$(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" {
		if (NR > 3 && $2 + 0 > prev + 0) bad++; prev = $2 } END { print bad + 0 }' "$y")" 0
	check "${p}_Y_percent_sum" t_num "$(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { s += $1 }
		END { printf "%d", s + 0.5 }' "$y")" -ge 99
}

# --- one process ---------------------------------------------------------------
NG=$((1000 + RANDOM % 1000))
NK=$((20 + RANDOM % 50))
NM=$((10 + RANDOM % 10 * 2))
ktr a -f "$TMP/a.ktr" "$PROGS/fac_count" "$NG" "$NK" "$NM"
kd a "$TMP/a.ktr"
check a_exit_0 t_krc 0 a
check a_no_loss t_grep ', 0 lost$' "$TMP/a.err"
check a_program_getppid t_eq "$(awk '$1 == "getppid" { print $2 }' "$TMP/a.out")" "$NG"
check a_program_openat_failed t_eq "$(awk '$1 == "openat" { print $4 }' "$TMP/a.out")" "$NK"
summary_checks a
Y=$TMP/a.y
check a_getppid_calls t_eq "$(row "$Y" getppid calls)" "$NG"
check a_getppid_no_errors t_eq "$(row "$Y" getppid errors)" 0
# openat: K failures on our path, plus whatever start-up did
others=$(q "$TMP/a.norm" '$4 == "CALL" || $4 == "NAMI" || $4 == "RET"' | awk -F'\t' '
	$4 == "CALL" { c = ($5 ~ /^openat\(/); ours = 0 }
	c && $4 == "NAMI" && $5 == "\"/nonexistent/fac_count\"" { ours = 1 }
	c && $4 == "RET" { if (ours) o++; else { n++; if ($5 ~ / -1 errno /) e++ } }
	END { print o + 0, n + 0, e + 0 }')
read -r ours ncalls nerr <<<"$others"
check a_openat_ours t_eq "$ours" "$NK"
check a_openat_calls t_eq "$(row "$Y" openat calls)" "$((NK + ncalls))"
check a_openat_errors t_eq "$(row "$Y" openat errors)" "$((NK + nerr))"
check a_close_errors t_eq "$(row "$Y" close errors)" "$((NM / 2))"
check a_close_calls_at_least t_num "$(row "$Y" close calls)" -ge "$NM"
check a_exit_group_counted t_eq "$(row "$Y" exit_group calls)" 1

# -Y with -p: only that process; an unknown pid gives an empty table
PID=$(q "$TMP/a.norm" '$4 == "RET" && $5 == "execve 0"' | head -n 1 | cut -f1)
"$KDUMP" -Y -p "${PID:-0}" -f "$TMP/a.ktr" >"$TMP/ap.y" 2>&1
check a_Y_p_same t_eq "$(row "$TMP/ap.y" getppid calls)" "$NG"
"$KDUMP" -Y -p 1 -f "$TMP/a.ktr" >"$TMP/a1.y" 2>&1
check a_Y_p_other_no_getppid t_eq "$(row "$TMP/a1.y" getppid calls)" none

# --- two processes under -i: the table is for the whole trace -------------------
ktr i -i -f "$TMP/i.ktr" /bin/sh -c "$PROGS/fac_count 300 4 0 && $PROGS/fac_count 500 6 2"
kd i "$TMP/i.ktr"
check i_exit_0 t_krc 0 i
summary_checks i
shg=$(qn "$TMP/i.norm" '$3 != "fac_count" && $4 == "CALL" && $5 == "getppid"')
check i_getppid_calls t_eq "$(row "$TMP/i.y" getppid calls)" "$((800 + shg))"
check i_getppid_per_process t_eq "$(q "$TMP/i.norm" '$3 == "fac_count" && $4 == "CALL" && $5 == "getppid"' |
	cut -f1 | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" "300 500 "

e2e_done
