#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/progs/forkexec (parent -> child -> grandchild that execs
# getppid_loop 3): without -i only the parent is traced; with -i the child and
# the grandchild are too, the grandchild's execve included.
. "$(dirname "$0")/lib.sh"
need_tracer

LOOP=$PROGS/getppid_loop

# the pids a run's stdout reports: "parent P", "child C", "grandchild G"
pids()
{
	P=$(awk '$1 == "parent" { print $2 }' "$1")
	C=$(awk '$1 == "child" { print $2 }' "$1")
	G=$(awk '$1 == "grandchild" { print $2 }' "$1")
	P=${P:-0} C=${C:-0} G=${G:-0}
}

# --- without -i ---
ktr n -f "$TMP/n.ktr" "$PROGS/forkexec" "$LOOP" 3
N=$TMP/n.norm
kd n "$TMP/n.ktr"
pids "$TMP/n.out"
check noinherit_exit_0 t_krc 0 n
check noinherit_tree_ran t_grep '^child_status 5$' "$TMP/n.out"
check noinherit_walks walk n "$TMP/n.ktr"
check noinherit_kdump_clean t_kdump_ok n
check noinherit_only_parent t_eq "$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f1 | sort -u)" "$P"
check noinherit_fork_returns_child t_grep $'\tRET\t(clone|clone3|fork|vfork) '"$(retrx "$C")\$" "$N"
check noinherit_parent_waits t_grep $'\tRET\twait4 '"$(retrx "$C")\$" "$N"
check noinherit_no_loop_exec t_nogrep $'\tNAMI\t"'"$LOOP"'"$' "$N"
check noinherit_no_getppid t_eq "$(qn "$N" '$5 == "getppid"')" 0
check noinherit_exit_parent t_eq "$(q "$N" '$4 == "EXIT"' | cut -f1,5 | tr '\t' ' ')" "$P exited 0"

# --- with -i ---
ktr i -i -f "$TMP/i.ktr" "$PROGS/forkexec" "$LOOP" 3
N=$TMP/i.norm
kd i "$TMP/i.ktr"
pids "$TMP/i.out"
check inherit_exit_0 t_krc 0 i
check inherit_walks walk i "$TMP/i.ktr"
check inherit_kdump_clean t_kdump_ok i
check inherit_summary_no_loss t_grep "^ktraceb: [0-9]+ records written to $TMP/i.ktr, 0 lost\$" \
	"$TMP/i.err"
check inherit_three_pids t_eq "$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f1 | sort -n -u |
	tr '\n' ' ')" "$(printf '%s\n' "$P" "$C" "$G" | sort -n | tr '\n' ' ')"
check inherit_parent_fork t_grep $'^'"$P"$'\t'"$P"$'\t[^\t]*\tRET\t(clone|clone3|fork) '"$(retrx "$C")\$" "$N"
check inherit_child_fork t_grep $'^'"$C"$'\t'"$C"$'\t[^\t]*\tRET\t(clone|clone3|fork) '"$(retrx "$G")\$" "$N"
# each process's first record after the fork: the child side of clone returns 0
check inherit_child_ret_0 t_match "$(q "$N" '$1 == c' c="$C" | head -n 1 | cut -f4,5)" \
	$'^RET\t(clone|clone3|fork) 0$'
check inherit_child_getpriority t_eq "$(qn "$N" '$1 == c && $4 == "CALL" &&
	$5 ~ /^getpriority\((PRIO_PROCESS|0|0x0),(4242|0x1092)\)$/' c="$C")" 1
a=$(around "$N" "$G" "$LOOP")
check inherit_grandchild_execve t_match "$(sed -n 1p <<<"$a")" '^CALL execve\('
check inherit_grandchild_execve_ret t_eq "$(sed -n 2p <<<"$a")" "RET execve 0"
check inherit_grandchild_comm t_eq "$(q "$N" '$1 == g && $4 == "CALL" && $5 == "getppid"' g="$G" |
	cut -f3 | sort -u)" getppid_loop
check inherit_grandchild_getppid t_eq "$(qn "$N" '$1 == g && $4 == "CALL" && $5 == "getppid"' \
	g="$G")" 3
check inherit_grandchild_getppid_ret t_eq "$(qn "$N" '$1 == g && $4 == "RET" && $5 ~ r' g="$G" \
	r="^getppid $(retrx "$C")\$")" 3
check inherit_exit_records t_eq "$(q "$N" '$4 == "EXIT"' | cut -f1,5 | sort | tr '\t\n' ' ;')" \
	"$(printf '%s exited 0\n%s exited 5\n%s exited 0\n' "$P" "$C" "$G" | sort | tr '\n' ';')"

e2e_done
