#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/progs/syscalls under ktraceb (default facilities): the trace must hold
# every call the program reports on its stdout, with decoded arguments, the
# paths whole (300 and ~4000 bytes), return values and errno, all under the
# program's own pid:tid.
. "$(dirname "$0")/lib.sh"
need_tracer

mkdir -p "$TMP/work"
F=$TMP/s.ktr
ktr s -f "$F" "$PROGS/syscalls" "$TMP/work"
OUT=$TMP/s.out
N=$TMP/s.norm

check ktraceb_exit_0 t_krc 0 s
check command_stdout_passes_through t_grep '^hello from syscalls$' "$OUT"
check summary_line t_grep "^ktraceb: [0-9]+ records written to $F, 0 lost\$" "$TMP/s.err"
check file_mode_0600 t_eq "$(stat -c %a "$F" 2>&1)" 600
check file_walks_to_eof walk s "$F"
read -r nrec nlost _ <<<"$(ktr_summary s)"
check summary_counts_records t_eq "${nrec:-none}" "$(walkval s records)" "stderr vs records in file"
check one_fileinfo t_eq "$(walkval s 'type 24')" 1

kd s "$F"
check kdump_clean t_kdump_ok s
check kdump_info_line_first t_eq "$(head -n 1 "$N" | cut -f4)" INFO

PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
PPID_SEEN=$(awk '$1 == "getppid" { print $3 }' "$OUT")
check prog_reported_pid t_match "${PID:-none}" '^[0-9]+$'
PID=${PID:-0}

# The first three records of the command: its execve, from ktraceb's child
# (with ARGS and ENVS between NAMI and RET when they are recorded).
first3=$(q "$N" '$1 == pid && $4 != "ARGS" && $4 != "ENVS"' pid="$PID" | head -n 3 | cut -f4,5 |
	tr '\t' ' ')
check starts_with_call_execve t_match "$(sed -n 1p <<<"$first3")" '^CALL execve\('
check execve_nami_is_program t_eq "$(sed -n 2p <<<"$first3")" "NAMI \"$PROGS/syscalls\""
check execve_returns_0 t_eq "$(sed -n 3p <<<"$first3")" "RET execve 0"
if grep -q $'\tARGS\t' "$N"; then
	check execve_args t_eq "$(q "$N" '$4 == "ARGS"' | cut -f5)" \
		"\"$PROGS/syscalls\", \"$TMP/work\""
fi
check comm_after_exec t_eq "$(q "$N" '$1 == pid && $4 != "INFO"' pid="$PID" | sed -n '3,$p' |
	cut -f3 | sort -u)" syscalls

# Without -i only this process, and it has a single thread.
check only_command_pid t_eq "$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f1 | sort -u)" "$PID"
check tid_is_pid t_eq "$(q "$N" '$4 ~ /^(CALL|RET|NAMI)$/' | cut -f2 | sort -u)" "$PID"
# Every call returns except exit_group.
ncall=$(qn "$N" '$4 == "CALL"')
nret=$(qn "$N" '$4 == "RET"')
check every_call_returns t_num "$ncall" -eq $((nret + 1)) "CALL vs RET + exit_group"
check last_call_exit_group t_match "$(q "$N" '$4 == "CALL"' | tail -n 1 | cut -f5)" \
	'^exit_group\((0|0x0)\)$'
check exit_record t_eq "$(q "$N" '$4 == "EXIT" && $1 == pid' pid="$PID" | cut -f5)" "exited 0"

# openat of a missing file: AT_FDCWD, O_ flags, ENOENT
a=$(around "$N" "$PID" /nonexistent/ktraceb-missing)
check openat_args_decoded t_match "$(sed -n 1p <<<"$a")" \
	'^CALL openat\(AT_FDCWD,0x[0-9a-f]+,O_RDONLY\|O_CLOEXEC(,.*)?\)$'
check openat_enoent t_match "$(sed -n 2p <<<"$a")" '^RET openat -1 errno 2( |$)'
check errno_text t_match "$(sed -n 2p <<<"$a")" 'No such file or directory'

# close(-1): EBADF
check close_call t_eq "$(qn "$N" '$4 == "CALL" && $5 ~ /^close\((-1|0xffffffff|0xffffffffffffffff|4294967295)\)$/')" 1
check close_ebadf t_grep $'\tRET\tclose -1 errno 9( |$)' "$N"

# getppid: no arguments, no parentheses; the value the program saw
check getppid_once t_eq "$(qn "$N" '$4 == "CALL" && $5 == "getppid"')" 1
check getppid_value t_grep $'\tRET\tgetppid '"$(retrx "${PPID_SEEN:-0}")\$" "$N"

# write(1, "hello from syscalls\n", 20) and its return
check write_call t_grep $'\tCALL\twrite\\((1|0x1),0x[0-9a-f]+,(20|0x14)\\)$' "$N"
check write_ret t_grep $'\tRET\twrite '"$(retrx 20)\$" "$N"

# read of 39 bytes from the file it created
rfd=$(awk '$1 == "read" { print $3 }' "$OUT")
check read_call t_grep $'\tCALL\tread\\(('"${rfd:-x}|$(hexof "${rfd:-0}")"'),0x[0-9a-f]+,(100|0x64)\)$' "$N"
check read_ret t_grep $'\tRET\tread '"$(retrx 39)\$" "$N"

# mmap: decoded prot/flags, the address returned
maddr=$(awk '$1 == "mmap" { print $3 }' "$OUT")
check mmap_call_decoded t_grep $'\tCALL\tmmap\\((0|0x0|NULL),(8192|0x2000),PROT_READ\\|PROT_WRITE,MAP_PRIVATE\\|MAP_ANONYMOUS,' "$N"
check mmap_ret_address t_grep $'\tRET\tmmap ([0-9]+/)?'"${maddr:-none}\$" "$N"

# kill(getpid(), 0)
check kill_call t_grep $'\tCALL\tkill\\(('"$PID|$(hexof "$PID")"'),(0|0x0|SIG0)\)$' "$N"
check kill_ret t_grep $'\tRET\tkill 0$' "$N"

# a failing lookup of a 300-byte path: NAMI carries it whole
p300=$(awk '$1 == "missing300" { print $2 }' "$OUT")
check path300_length t_eq "${#p300}" 300
a=$(around "$N" "$PID" "$p300")
check path300_nami_whole t_match "$(sed -n 1p <<<"$a")" '^CALL openat\(AT_FDCWD,'
check path300_enoent t_match "$(sed -n 2p <<<"$a")" '^RET openat -1 errno 2( |$)'

# a successful open of a ~4000-byte path
plong=$(awk '$1 == "longpath" { print $3 }' "$OUT")
fdlong=$(awk '$1 == "longpath" { print $5 }' "$OUT")
check longpath_length t_num "${#plong}" -gt 3900
a=$(around "$N" "$PID" "$plong")
check longpath_nami_whole t_match "$(sed -n 1p <<<"$a")" \
	'^CALL openat\(AT_FDCWD,0x[0-9a-f]+,.*O_CREAT.*'
check longpath_open_fd t_eq "$(sed -n 2p <<<"$a")" "RET openat ${fdlong:-none}"

# directory and file operations with the legacy path syscalls
W=$TMP/work
a=$(around "$N" "$PID" "$W/sub")
check mkdir_call t_match "$(sed -n 1p <<<"$a")" '^CALL mkdir\(0x[0-9a-f]+,(0700|0x1c0|448)'
check mkdir_ret t_eq "$(sed -n 2p <<<"$a")" "RET mkdir 0"
a=$(around "$N" "$PID" "$W/sub/a")
check create_flags t_match "$(sed -n 1p <<<"$a")" \
	'^CALL openat\(AT_FDCWD,0x[0-9a-f]+,O_RDWR\|O_CREAT\|O_TRUNC,'
check create_ret t_eq "$(sed -n 2p <<<"$a")" "RET openat $(awk '$1 == "create" { print $4 }' "$OUT")"
check rename_two_paths t_eq "$(q "$N" '$4 == "CALL" && $5 ~ /^rename\(/ { c = 1; next }
	c && $4 == "NAMI" { print $5 } $4 == "RET" { c = 0 }' | tr '\n' ' ')" "\"$W/sub/a\" \"$W/sub/b\" "
check rename_ret t_grep $'\tRET\trename 0$' "$N"
check unlink_enoent t_grep $'\tRET\tunlink -1 errno 2( |$)' "$N"
check unlink_ret t_grep $'\tRET\tunlink 0$' "$N"
check rmdir_ret t_grep $'\tRET\trmdir 0$' "$N"
check unlink_nami_count t_eq "$(qn "$N" '$4 == "NAMI" && $5 == p' p="\"$W/sub/b\"")" 2

# -t c: calls only; -t n: paths only
rm -rf "$TMP/work"/*
ktr c -t c -f "$TMP/c.ktr" "$PROGS/syscalls" "$TMP/work"
kd c "$TMP/c.ktr"
check trstr_c_exit_0 t_krc 0 c
check trstr_c_no_nami t_eq "$(qn "$TMP/c.norm" '$4 == "NAMI"')" 0
check trstr_c_has_calls t_eq "$(qn "$TMP/c.norm" '$4 == "CALL"')" "$ncall"
rm -rf "$TMP/work"/*
ktr n -t n -f "$TMP/n.ktr" "$PROGS/syscalls" "$TMP/work"
kd n "$TMP/n.ktr"
check trstr_n_exit_0 t_krc 0 n
check trstr_n_no_calls t_eq "$(qn "$TMP/n.norm" '$4 == "CALL" || $4 == "RET"')" 0
check trstr_n_has_paths t_grep $'\tNAMI\t"/nonexistent/ktraceb-missing"$' "$TMP/n.norm"

e2e_done
