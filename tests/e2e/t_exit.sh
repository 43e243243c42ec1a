#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb exits with the command's status (128 + signal when it was killed),
# and the trace ends with an EXIT record that says how.
. "$(dirname "$0")/lib.sh"
need_tracer

# run_status NAME WANT_RC WANT_EXIT_BODY ARGS...: exitcode ARGS under ktraceb
run_status()
{
	local name=$1 rc=$2 body=$3 pid
	shift 3
	ktr "$name" -f "$TMP/$name.ktr" "$PROGS/exitcode" "$@"
	check "${name}_ktraceb_exit_$rc" t_krc "$rc" "$name"
	check "${name}_summary_line" t_grep "^ktraceb: [0-9]+ records written to $TMP/$name.ktr, 0 lost\$" \
		"$TMP/$name.err"
	check "${name}_walks" walk "$name" "$TMP/$name.ktr"
	kd "$name" "$TMP/$name.ktr"
	check "${name}_kdump_clean" t_kdump_ok "$name"
	pid=$(awk '$1 == "pid" { print $2 }' "$TMP/$name.out")
	check "${name}_exit_record" t_eq "$(q "$TMP/$name.norm" '$4 == "EXIT"' | cut -f1,5 |
		tr '\t' ' ')" "${pid:-none} $body"
	# the process's EXIT, then the trace's END
	check "${name}_exit_is_last" t_eq "$(tail -n 2 "$TMP/$name.norm" | cut -f4 | tr '\n' ' ')" "EXIT END "
	check "${name}_end_says_exited" t_match "$(tail -n 1 "$TMP/$name.norm" | cut -f5)" \
		'^trace ended: every traced process exited; [0-9]+ records, 0 lost$'
	# the END's count is what ktraceb said it wrote (the END's own included)
	check "${name}_end_count_is_said" t_eq "$(tail -n 1 "$TMP/$name.norm" |
		sed 's/.*; \([0-9]*\) records.*/\1/')" "$(ktr_summary "$name" | cut -d' ' -f1)"
}

run_status zero 0 "exited 0" 0
run_status three 3 "exited 3" 3
run_status max 255 "exited 255" 255
run_status kill 137 "killed by SIGKILL" -s 9
run_status usr1 138 "killed by SIGUSR1" -s 10
run_status term 143 "killed by SIGTERM" -s 15
check exit_group_decoded t_grep $'\tCALL\texit_group\\((3|0x3)\\)$' "$TMP/three.norm"
check kill_call_decoded t_grep $'\tCALL\tkill\\([0-9x]+,(SIGKILL|9|0x9)\\)$' "$TMP/kill.norm"

# a command that cannot be executed: a non-zero status and an error naming it
ktr noexec -f "$TMP/noexec.ktr" "$TMP/does-not-exist"
check missing_command_fails t_num "$KRC" -ne 0
check missing_command_names_it t_grep "does-not-exist" "$TMP/noexec.err"

e2e_done
