#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/progs/decodings under ktraceb: the calls issue 36 found decoded
# wrongly or not at all, each made by a real program, decoded as strace
# decodes them: int 0x80 from the i386 table, prctl and arch_prctl codes,
# modes and ids as the kernel sees them, an execveat's return, an execve
# by a thread other than the leader paired with its CALL, empty and cut
# paths, ioctl requests, SysV IPC commands, a socket option outside
# SOL_SOCKET, getrandom's flags, and only the arguments a call takes.
. "$(dirname "$0")/lib.sh"
need_tracer

# int 0x80 from a 64-bit process: some machines kill it with SIGSEGV even
# untraced (a kernel with IA32_EMULATION=y under a hypervisor that does not
# deliver it, or ia32_emulation=0).  Asked first, untraced, in a child of its
# own: where it dies, the program leaves it out and its checks are skipped.
INT80=1
# (its status from a subshell of its own, whose "Segmentation fault" note goes nowhere)
IRC=$("$PROGS/decodings" int80 >"$TMP/int80.out" 2>&1; echo $?) 2>/dev/null
if [ "$IRC" -gt 128 ]; then
	INT80=
	INT80_WHY="int 0x80 from a 64-bit process dies of SIG$(kill -l "$IRC") here, untraced"
	export KTR_NO_INT80=1
elif [ "$IRC" -ne 0 ]; then
	fail int80_probe "decodings int80 exited $IRC: $(head -n 1 "$TMP/int80.out")"
fi

W=$TMP/work
mkdir -p "$W"
F=$TMP/d.ktr
ktr d -f "$F" "$PROGS/decodings" "$W/sub"
unset KTR_NO_INT80
check ktraceb_exit_0 t_krc 0 d
kd d "$F"
check kdump_clean t_kdump_ok d
N=$TMP/d.norm
OUT=$TMP/d.out
PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
TID=$(awk '$1 == "thread" { print $2 }' "$OUT")
check prog_reported_pid t_match "${PID:-none}" '^[0-9]+$'
check prog_reported_thread t_match "${TID:-none}" '^[0-9]+$'
check prog_ran_to_the_end t_eq "$(awk '$1 == "done" { print $2 }' "$OUT")" "${PID:-none}"

# body P CALL|RET|NAMI: the bodies of P's (a tid's) records of that kind
body() { q "$N" '$2 == t && $4 == k' t="$1" k="$2" | cut -f5; }
# after NAME: the record after the CALL of NAME (its RET or its NAMI)
after()
{
	q "$N" '$2 == t { if (hit) { print $4 " " $5; exit } if ($4 == "CALL" && index($5, s) == 1) hit = 1 }' \
		t="$PID" s="$1"
}

# 1. int 0x80 in a 64-bit program: the i386 table
if [ -n "$INT80" ]; then
	check int80_call_getgid32 t_grep $'\tCALL\tgetgid32$' "$N"
	check int80_ret_getgid32 t_grep $'\tRET\tgetgid32 '"$(awk '$1 == "getgid32" { print $2 }' "$OUT")"'$' "$N"
	check int80_no_tkill t_nogrep $'\tCALL\ttkill' "$N"
else
	skip int80 "$INT80_WHY"
fi
# 2, 3. prctl by the kernel's numbers; arch_prctl's 0x1026 is no code
check prctl_71 t_grep $'\tCALL\tprctl\\(PR_RISCV_SET_ICACHE_FLUSH_CTX,0,0\\)$' "$N"
check prctl_74 t_grep $'\tCALL\tprctl\\(PR_GET_SHADOW_STACK_STATUS,0,0,0,0\\)$' "$N"
check prctl_auxv t_grep $'\tCALL\tprctl\\(PR_GET_AUXV,0x[0-9a-f]+,0x8,0,0\\)$' "$N"
check arch_prctl_not_tilecfg t_grep $'\tCALL\tarch_prctl\\(0x1026,0\\)$' "$N"
# 6. what the kernel sees of a mode and a uid
check mkdir_mode_16_bits t_grep $'\tCALL\tmkdir\\(0x[0-9a-f]+,0755\\)$' "$N"
check umask_0 t_grep $'\tCALL\tumask\\(0\\)$' "$N"
check chown_uid_unsigned t_grep $'\tCALL\tchown\\(0x[0-9a-f]+,4294901760,4294901760\\)$' "$N"
# flags, commands, options
check getrandom_flags t_grep $'\tCALL\tgetrandom\\(0x[0-9a-f]+,0x4,GRND_NONBLOCK\\)$' "$N"
check semget_flags t_grep $'\tCALL\tsemget\\(IPC_PRIVATE,1,IPC_CREAT\\|0600\\)$' "$N"
check semctl_ipc_stat t_grep $'\tCALL\tsemctl\\([0-9]+,0,IPC_STAT,0x[0-9a-f]+\\)$' "$N"
check semctl_ipc_rmid t_grep $'\tCALL\tsemctl\\([0-9]+,0,IPC_RMID,0\\)$' "$N"
check sockopt_sol_ip t_grep $'\tCALL\tsetsockopt\\([0-9]+,SOL_IP,IP_TTL,0x[0-9a-f]+,0x4\\)$' "$N"
check ioctl_btrfs t_grep $'\tCALL\tioctl\\(3,BTRFS_IOC_FS_INFO,0x[0-9a-f]+\\)$' "$N"
check ioctl_by_its_parts t_grep $'\tCALL\tioctl\\(3,_IOC\\(_IOC_READ, 0x94, 0x1e, 0x400\\),0x[0-9a-f]+\\)$' "$N"
check ioctl_tcgets t_grep $'\tCALL\tioctl\\(3,TCGETS,0x[0-9a-f]+\\)$' "$N"
# item 7 of issue 35: openat without O_CREAT shows no mode
check openat_three_arguments t_grep $'\tCALL\topenat\\(AT_FDCWD,0x[0-9a-f]+,O_RDONLY\\)$' "$N"
check no_unused_argument t_nogrep '<unused>' "$N"
# empty and cut paths
check chdir_empty_path t_eq "$(after 'chdir(')" 'NAMI ""'
check fstatat_empty_path t_grep $'\tNAMI\t""$' "$N"
long=$(q "$N" '$4 == "NAMI" && $5 ~ /^"\/aaaa/' | cut -f5)
check long_path_marked_cut t_match "$long" '^"/a+"\.\.\.$'
check long_path_4096_bytes t_eq "$(($(printf '%s' "$long" | wc -c) - 5))" 4096
# 4. execveat returns as execveat
check execveat_call t_grep $'\tCALL\texecveat\\(AT_FDCWD,0x[0-9a-f]+,0x[0-9a-f]+,0,0\\)$' "$N"
check execveat_ret t_eq "$(q "$N" '$4 == "RET" && $5 ~ /^exec/' | cut -f5 | sed -n 2p)" "execveat 0"
# 5. an execve by a thread: its NAMI and RET on its own tid, then the leader's id
TID=${TID:-0}
check thread_execve_call t_eq "$(body "$TID" CALL | grep -c '^execve(')" 1
check thread_execve_nami t_eq "$(q "$N" '$2 == t && $4 == "NAMI"' t="$TID" | tail -n 1 | cut -f5)" \
	"\"$PROGS/decodings\""
check thread_execve_ret t_eq "$(body "$TID" RET | tail -n 1)" "execve 0 <pid changed to $PID>"
check after_exec_on_pid t_eq "$(q "$N" '$2 == t && $4 == "RET" && $5 ~ /^execve/ { seen = 1; next }
	seen && $2 == p { print $4; exit }' t="$TID" p="$PID")" CALL
json=$("$KDUMP" -J -f "$F")
check json_nami_names_execve t_eq "$(jq -r --argjson t "$TID" \
	'select(.type == "NAMI" and .tid == $t) | .syscall' <<<"$json" | tail -n 1)" execve
check json_new_tid t_eq "$(jq -r --argjson t "$TID" \
	'select(.type == "RET" and .tid == $t and .syscall == "execve") | .new_tid' <<<"$json")" "$PID"
check json_cut t_eq "$(jq -r 'select(.type == "NAMI" and .cut == true) | .path | length' <<<"$json")" 4096
e2e_done
