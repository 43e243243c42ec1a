#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A traced process that execs a set-id program stops being traced, unless
# root set the tracing (BSD kern_exec.c): the user's trace of a shell that
# execs a set-uid sleep ends at that execve, with nothing from the set-uid
# image; root's trace of the same exec goes on into it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi

# The shell execs the set-uid program itself: one pid from start to end.
SCRIPT='exec "$0" 0.3'

# --- the user's own tracing stops at the set-id exec ---
uktr user -f "$UDIR/user.ktr" /bin/sh -c "$SCRIPT" "$UBIN/suidsleep"
check user_exit_0 t_krc 0 user
kd user "$UDIR/user.ktr"
check user_kdump_ok t_kdump_ok user
check user_shell_traced t_num "$(q "$TMP/user.norm" '$4 == "CALL" && $3 == "sh"' | wc -l)" -ge 5
check user_exec_called t_num "$(q "$TMP/user.norm" '$4 == "CALL" && $5 ~ /^execve\(/' | wc -l)" -ge 1
check user_no_exec_return \
	t_eq "$(q "$TMP/user.norm" '$4 == "RET" && $5 == "execve 0"' | wc -l | tr -d ' ')" 1
check user_nothing_from_setuid_image \
	t_eq "$(q "$TMP/user.norm" '$3 == "suidsleep"' | wc -l | tr -d ' ')" 0
check user_no_sleep t_nogrep 'clock_nanosleep' "$TMP/user.kd"
check user_last_call_is_exec \
	t_match "$(q "$TMP/user.norm" '$4 == "CALL"' | tail -n 1 | cut -f5)" '^execve\('

# --- root's tracing goes on: KTRFAC_ROOT survives the set-id exec ---
ktr root -f "$TMP/root.ktr" /bin/sh -c \
	"exec setpriv --reuid=$KUID --regid=$KGID --init-groups -- \"\$0\" 0.3" "$UBIN/suidsleep"
check root_exit_0 t_krc 0 root
kd root "$TMP/root.ktr"
check root_kdump_ok t_kdump_ok root
check root_setuid_image_traced \
	t_num "$(q "$TMP/root.norm" '$3 == "suidsleep"' | wc -l)" -ge 5
check root_sleep_traced t_grep 'suidsleep +CALL  clock_nanosleep' "$TMP/root.kd"
check root_exit_record t_grep 'suidsleep +EXIT  exited 0' "$TMP/root.kd"

e2e_done
