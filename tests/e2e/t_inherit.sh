#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# -d and -i on a running process tree (tests/progs/att_tree: parent, child,
# grandchild; on SIGUSR1 the parent forks latechild, which forks
# lategrandchild).  BSD: -p traces the parent only; -d also its current
# descendants; -i also what is forked later, at any depth; -d -i both.  The
# pids in the trace are compared with the ones the tree printed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

# tree NAME: start a tree, set P C G
tree()
{
	bg "$1" "$ATT_TREE" 60
	TREEPID=$BGPID
	P=$(wait_role "$TMP/$1.pout" parent)
	C=$(wait_role "$TMP/$1.pout" child)
	G=$(wait_role "$TMP/$1.pout" grandchild)
}

# late NAME: make the parent fork latechild and lategrandchild; set LC LG
late()
{
	tkill -USR1 "$P"
	LC=$(wait_role "$TMP/$1.pout" latechild)
	LG=$(wait_role "$TMP/$1.pout" lategrandchild)
}

# run_case NAME FLAGS...: trace the tree's parent with FLAGS, then fork the
# late pair, let everyone tick for half a second
run_case()
{
	local name=$1
	shift
	tree "$name"
	ktr "$name" "$@" -f "$TMP/$name.ktr" -p "$P"
	check "${name}_exit_0" t_krc 0 "$name"
	check "${name}_silent" t_silent "$name"
	sleep 0.2
	late "$name"
	check "${name}_tree_complete" t_num "$((P && C && G && LC && LG))" -ne 0
	sleep 0.5
}

# finish NAME EXPECTED-PIDS...: clear the file, compare the pids in it
finish()
{
	local name=$1
	shift
	ktr "${name}_c" -c -f "$TMP/$name.ktr"
	check "${name}_cleared" stable "$TMP/$name.ktr"
	kd "$name" "$TMP/$name.ktr"
	check "${name}_kdump_clean" t_kdump_ok "$name"
	check "${name}_pids" t_eq "$(pids_of "$TMP/$name.norm")" "$(sorted "$@")" \
		"P=$P C=$C G=$G LC=$LC LG=$LG"
	tkill -KILL "$TREEPID" 2>/dev/null
}

# first NAME PID: the first record of PID as "TAG body"
first()
{
	q "$TMP/$1.norm" '$1 == p' p="$2" | head -n 1 | cut -f4,5 | tr '\t' ' '
}

# t_midrun TAGBODY: a first record that is there and is not a fork return
t_midrun()
{
	[ -n "$1" ] || { echo "    no record" >&2; return 1; }
	t_match "$1" '^RET (clone|clone3|fork) 0$' 2>/dev/null || return 0
	echo "    first record '$1' is a fork return" >&2
	return 1
}

run_case plain
finish plain "$P"

run_case d -d
finish d "$P" "$C" "$G"
# the descendants were attached mid-run: no fork return opens their trace
check d_child_attached_midrun t_midrun "$(first d "$C")"

run_case i -i
# -c -p of the parent alone leaves the children it passed tracing on to
ktr i_cp -c -p "$P"
check i_clear_parent_exit_0 t_krc 0 i_cp
check i_children_still_traced grows "$TMP/i.ktr"
finish i "$P" "$LC" "$LG"
check i_latechild_first_ret_fork t_match "$(first i "$LC")" '^RET (clone|clone3|fork) 0$'
check i_lategrandchild_first_ret_fork t_match "$(first i "$LG")" '^RET (clone|clone3|fork) 0$'
check i_parent_fork_returns_latechild t_num "$(qn "$TMP/i.norm" '$1 == p && $4 == "RET" &&
	$5 ~ r' p="$P" r="^(clone|clone3|fork) $(retrx "$LC")\$")" -eq 1

run_case di -d -i
# -c -d -p: the parent and all its descendants
ktr di_c -c -d -p "$P"
check di_clear_descend_exit_0 t_krc 0 di_c
check di_clear_descend_stops stable "$TMP/di.ktr"
finish di "$P" "$C" "$G" "$LC" "$LG"
check di_latechild_first_ret_fork t_match "$(first di "$LC")" '^RET (clone|clone3|fork) 0$'

e2e_done
