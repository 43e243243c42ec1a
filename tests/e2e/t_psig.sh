#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# PSIG: tests/progs/fac_sig catches SIGUSR1 (kill), SIGUSR2 (tgkill), SIGHUP
# and a real-time signal (sigqueue) while SIGWINCH is blocked; each must give
# one PSIG record with the handler address, the blocked mask and the si_code
# the program itself saw.  An ignored signal that is discarded at once leaves
# no record; one that was blocked is delivered as SIG_IGN.  A fatal SIGTERM
# gives PSIG SIGTERM SIG_DFL and EXIT "killed by SIGTERM".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer

# si_code number -> name as kdump prints it
code_name()
{
	case $1 in
	0) echo SI_USER ;;
	128) echo SI_KERNEL ;;
	-1) echo SI_QUEUE ;;
	-2) echo SI_TIMER ;;
	-6) echo SI_TKILL ;;
	*) echo "code$1" ;;
	esac
}

# signal number -> the names kdump may use for it
sig_rx()
{
	if [ "$1" -ge 32 ]; then
		echo "(SIGRTMIN[+]$(($1 - 32))|SIG$1|SIGRT_$(($1 - 32)))" # [+]: mawk and gawk alike
	else
		echo "SIG$(kill -l "$1")"
	fi
}

# --- caught -------------------------------------------------------------------
ktr c -f "$TMP/c.ktr" "$PROGS/fac_sig" caught
kd c "$TMP/c.ktr"
N=$TMP/c.norm
OUT=$TMP/c.out
PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
PID=${PID:-none}
MASK=$(awk '$1 == "mask" { print $2 }' "$OUT")
RT=$(awk '$1 == "rt" { print $2 }' "$OUT")
check c_exit_0 t_krc 0 c
check c_kdump_clean t_kdump_ok c
check c_four_psig t_eq "$(qn "$N" '$4 == "PSIG"')" 4
check c_psig_own_thread t_eq "$(q "$N" '$4 == "PSIG"' | cut -f1,2 | sort -u | tr '\t' :)" "$PID:$PID"
check c_mask_reported t_match "${MASK:-none}" '^0x[0-9a-f]+$'
for sig in 10 12 1 ${RT:-37}; do
	name=$(sig_rx "$sig")
	h=$(awk -v s="$sig" '$1 == "handler" && $2 == s { print $3 }' "$OUT")
	code=$(awk -v s="$sig" '$1 == "code" && $2 == s { print $3 }' "$OUT")
	cn=$(code_name "${code:-x}")
	check "c_${sig}_psig" t_eq "$(qn "$N" '$4 == "PSIG" && $5 ~ r' \
		r="^$name caught handler=${h:-none} mask=${MASK:-none} code=$cn\$")" 1
done
# the expected codes, as the handlers saw them
check c_kill_si_user t_eq "$(awk '$1 == "code" && $2 == 10 { print $3 }' "$OUT")" 0
check c_tgkill_si_tkill t_eq "$(awk '$1 == "code" && $2 == 12 { print $3 }' "$OUT")" -6
check c_sigqueue_si_queue t_eq "$(awk '$1 == "code" && $2 == 1 { print $3 }' "$OUT")" -1
# order: the sending syscall returns, the signal is delivered, the handler
# returns through rt_sigreturn
seq=$(q "$N" '$1 == pid && $4 ~ /^(CALL|RET|PSIG)$/' pid="$PID" | cut -f4,5 |
	awk -F'\t' '{ sub(/[ (].*/, "", $2); print $1 " " $2 }' |
	awk '/^PSIG/ { print prev; print; getline; print; exit } { prev = $0 }')
check c_psig_after_ret_kill t_eq "$(sed -n 1p <<<"$seq")" "RET kill"
check c_handler_returns t_eq "$(sed -n 3p <<<"$seq")" "CALL rt_sigreturn"
# every CALL rt_sigreturn is followed by a RET of rt_sigreturn in that thread
after=$(q "$N" '$1 == pid && $4 ~ /^(CALL|RET)$/' pid="$PID" |
	awk -F'\t' 'c { print $4 " " $5; c = 0 } $4 == "CALL" && $5 == "rt_sigreturn" { c = 1 }')
check c_rt_sigreturn_count t_eq "$(wc -l <<<"$after" | tr -d ' ')" 4
check c_rt_sigreturn_ret_named t_eq "$(sort -u <<<"$after" | sed 's/ .*//' | tr '\n' ' ')" "RET " \
	"the records after CALL rt_sigreturn: $(sort -u <<<"$after" | tr '\n' ';')"
check c_rt_sigreturn_ret_name t_eq "$(sort -u <<<"$after" | awk '{ print $2 }' | tr '\n' ' ')" \
	"rt_sigreturn "
check c_sigaction_handler_stru t_num "$(qn "$N" '$4 == "STRU" && $5 ~ r' \
	r="^struct sigaction [{] handler=$(awk '$1 == "handler" && $2 == 10 { print $3 }' "$OUT"),")" \
	-ge 2 "SIGUSR1 and SIGHUP"

# without s: no PSIG; with s alone: only PSIG
ktr cc -t c -f "$TMP/cc.ktr" "$PROGS/fac_sig" caught
kd cc "$TMP/cc.ktr"
check trstr_c_exit_0 t_krc 0 cc
check trstr_c_no_psig t_eq "$(qn "$TMP/cc.norm" '$4 == "PSIG"')" 0
check trstr_c_has_kill t_eq "$(qn "$TMP/cc.norm" '$4 == "CALL" && $5 ~ /^kill\(/')" 1
ktr cs -t s -f "$TMP/cs.ktr" "$PROGS/fac_sig" caught
kd cs "$TMP/cs.ktr"
check trstr_s_exit_0 t_krc 0 cs
check trstr_s_four_psig t_eq "$(qn "$TMP/cs.norm" '$4 == "PSIG"')" 4
check trstr_s_no_calls t_eq "$(qn "$TMP/cs.norm" '$4 ~ /^(CALL|RET|NAMI|GIO)$/')" 0

# --- ignored ------------------------------------------------------------------
ktr i -f "$TMP/i.ktr" "$PROGS/fac_sig" ignored
kd i "$TMP/i.ktr"
N=$TMP/i.norm
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/i.out")
check i_exit_0 t_krc 0 i
check i_survived t_grep '^survived$' "$TMP/i.out"
check i_kill_sigint_traced t_eq "$(qn "$N" '$4 == "CALL" && $5 ~ /^kill\([0-9]+,SIGINT\)$/')" 1
check i_discarded_no_psig t_eq "$(qn "$N" '$4 == "PSIG" && $5 ~ /^SIGINT /')" 0
check i_blocked_delivered_ign t_eq "$(q "$N" '$4 == "PSIG"' | cut -f5)" "SIGQUIT SIG_IGN code=SI_USER"
check i_delivered_at_unblock t_match "$(q "$N" '$1 == pid && $4 ~ /^(CALL|RET|PSIG)$/' pid="$PID" |
	awk -F'\t' '$4 == "PSIG" { print prev; exit } { prev = $4 " " $5 }')" '^RET rt_sigprocmask 0$'

# --- fatal --------------------------------------------------------------------
ktr f -f "$TMP/f.ktr" "$PROGS/fac_sig" fatal
kd f "$TMP/f.ktr"
N=$TMP/f.norm
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/f.out")
check f_exit_143 t_krc 143 f
check f_kdump_clean t_kdump_ok f
check f_one_psig t_eq "$(qn "$N" '$4 == "PSIG"')" 1
check f_psig_sigterm_dfl t_match "$(q "$N" '$4 == "PSIG"' | cut -f1,2,5 | tr '\t' ' ')" \
	"^$PID $PID SIGTERM SIG_DFL( |\$)"
check f_psig_code_si_user t_match "$(q "$N" '$4 == "PSIG"' | cut -f5)" ' code=SI_USER$'
check f_exit_killed t_eq "$(q "$N" '$4 == "EXIT"' | cut -f1,5 | tr '\t' ' ')" "$PID killed by SIGTERM"
check f_order t_eq "$(q "$N" '$1 == pid' pid="$PID" | tail -n 3 | cut -f4 | tr '\n' ' ')" \
	"RET PSIG EXIT "
check f_no_calls_after t_eq "$(q "$N" '$1 == pid' pid="$PID" | tail -n 3 | head -n 1 | cut -f5)" \
	"kill 0"

# --- stopped ------------------------------------------------------------------
# ktraceb's command is stopped by ktraceb itself while its probes are armed
# (at its exec and at its libraries' mappings): those stops are no PSIG, a
# SIGSTOP the program is sent is one.  The helper continues it until it ends.
ktr st -f "$TMP/st.ktr" /bin/sh -c \
	'(while sleep 0.2 && kill -CONT $$ 2>/dev/null; do :; done) & kill -STOP $$; echo resumed'
kd st "$TMP/st.ktr"
N=$TMP/st.norm
check st_exit_0 t_krc 0 st
check st_resumed t_grep '^resumed$' "$TMP/st.out"
check st_one_stop t_eq "$(q "$N" '$4 == "PSIG" && $5 ~ /^SIGSTOP /' | cut -f5)" \
	"SIGSTOP SIG_DFL code=SI_USER"
check st_stop_after_kill t_eq "$(q "$N" '$4 ~ /^(RET|PSIG)$/' | cut -f4,5 | tr '\t' ' ' |
	awk '/^PSIG SIGSTOP/ { print prev; exit } { prev = $0 }')" "RET kill 0"

e2e_done
