#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump on a synthetic trace (tests/progs/ktrgen good, written from ktr.h
# alone): the exact lines of the kdump contract, and the options that filter
# and format.  Then kdump on the real BSD trace files in shared/fixtures/bsd:
# it must finish quickly and not crash.  Needs no privileges.
. "$(dirname "$0")/lib.sh"
need_kdump

G=$TMP/good.ktr
"$PROGS/ktrgen" good "$G"
kd g "$G"
check exit_0 t_kdump_ok g
check info_line_first t_eq "$(head -n 1 "$TMP/g.norm" | cut -f4)" INFO

# expect LINE: that exact line is in the output
expect()
{
	grep -Fxq -- "$1" "$TMP/g.kd" && return 0
	echo "    missing line: '$1'" >&2
	return 1
}
check call_openat expect ' 1234:1234  cat      CALL  openat(AT_FDCWD,0x7ffc1234,O_RDONLY|O_CLOEXEC)'
check nami expect ' 1234:1234  cat      NAMI  "/etc/passwd"'
check ret_fd expect ' 1234:1234  cat      RET   openat 3'
check ret_errno expect ' 1234:1234  cat      RET   openat -1 errno 2 No such file or directory (ENOENT)'
check call_no_args expect ' 4321:4321  sh       CALL  getppid'
check ret_hex_suffix expect ' 4321:4321  sh       RET   getppid 1234/0x4d2'
check ret_small expect ' 1234:1234  cat      RET   getppid 1'
check ret_ebadf expect ' 1234:1234  cat      RET   close -1 errno 9 Bad file descriptor (EBADF)'
check lost_line t_grep '^ 1234:1234  cat      LOST  5 records lost \(5 in all\)$' "$TMP/g.kd"
check exit_status t_grep '^ 1234:1234  cat      EXIT  exited 3$' "$TMP/g.kd"
check exit_signal t_grep '^ 4321:4321  sh       EXIT  killed by SIGKILL$' "$TMP/g.kd"
check record_order t_eq "$(q "$TMP/g.norm" '$4 != "INFO"' | cut -f4 | tr '\n' ' ')" \
	"CALL NAMI RET CALL NAMI RET CALL RET CALL RET LOST CALL RET EXIT EXIT "

# stdin
"$KDUMP" -f - <"$G" >"$TMP/stdin.kd" 2>&1
check stdin_same_output cmp -s "$TMP/stdin.kd" "$TMP/g.kd"

# -p: one process
kd p "$G" -p 4321
check pid_filter_clean t_kdump_ok p
check pid_filter_keeps t_eq "$(qn "$TMP/p.norm" '$1 == 4321')" 3
check pid_filter_drops t_eq "$(qn "$TMP/p.norm" '$1 == 1234 && $4 != "LOST"')" 0

# -t: record types
kd tn "$G" -t n
check trstr_n_only_nami t_eq "$(q "$TMP/tn.norm" '$4 == "CALL" || $4 == "RET"' | wc -l)" 0
check trstr_n_nami t_eq "$(qn "$TMP/tn.norm" '$4 == "NAMI"')" 2
kd tc "$G" -t c
check trstr_c_calls t_eq "$(qn "$TMP/tc.norm" '$4 == "CALL"')" 5
check trstr_c_no_nami t_eq "$(qn "$TMP/tc.norm" '$4 == "NAMI"')" 0
kd tbad "$G" -t q
check trstr_bad_fails t_num "$KDRC" -ne 0
check trstr_bad_not_crash t_num "$KDRC" -lt 128

# -n: no symbolic decoding, names of calls stay
kd n "$G" -n
check raw_clean t_kdump_ok n
check raw_no_flags t_nogrep 'AT_FDCWD|O_RDONLY|O_CLOEXEC' "$TMP/n.kd"
check raw_keeps_names t_eq "$(qn "$TMP/n.norm" '$4 == "CALL" && $5 ~ /^openat\(/')" 2

# -T: absolute timestamps after the command name (us or ns)
kd ts "$G" -T
check abs_time t_grep '^ 1234:1234  cat      1700000000\.000002(000)? NAMI  "/etc/passwd"$' "$TMP/ts.kd"

# bad usage
kd opt "$G" -Q
check bad_option_fails t_num "$KDRC" -ne 0
check bad_option_usage t_grep '^usage: kdump ' "$TMP/opt.kderr"
# -h: the usage and the options on stdout, exit 0
"$KDUMP" -h >"$TMP/help.out" 2>"$TMP/help.err"
check help_exit_0 t_eq "$?" 0
check help_usage_stdout t_grep '^usage: kdump \[-[a-zA-Z]*h' "$TMP/help.out"
# the letters from the table ktraceb -t reads (src/common/trstr.c), one a line
check help_says_k t_grep '^ +k  kernel events \(ktraceb -e\)$' "$TMP/help.out"
check help_every_letter t_eq "$(grep -cE '^ {16}[cnisuwk+]  ' "$TMP/help.out")" 8
check help_nothing_on_stderr t_lines 0 "$TMP/help.err"
# options that cannot go together: named in one line, exit 1
for pair in "Y l" "l Y" "Y G" "J P" "J Y" "P l" "G J"; do
	set -- $pair
	"$KDUMP" "-$1" "-$2" -f "$G" >"$TMP/pair.out" 2>"$TMP/pair.err"
	rc=$?
	check "conflict_${1}_${2}_exit_1" t_eq "$rc" 1
	check "conflict_${1}_${2}_one_line" t_lines 1 "$TMP/pair.err"
	check "conflict_${1}_${2}_named" t_grep "^kdump: -[$1$2] cannot be used with -[$1$2]\$" \
		"$TMP/pair.err"
	check "conflict_${1}_${2}_no_output" t_lines 0 "$TMP/pair.out"
done
"$KDUMP" "$G" >"$TMP/operand.out" 2>"$TMP/operand.err"
check operand_exit_1 t_eq "$?" 1
check operand_says_f t_eq "$(cat "$TMP/operand.err")" \
	"kdump: $G: unexpected argument (the trace file is read with -f)"
kd missing "$TMP/does-not-exist"
check missing_file_fails t_num "$KDRC" -ne 0
check missing_file_one_line t_lines 1 "$TMP/missing.kderr"
check missing_file_names_it t_grep "^kdump: .*does-not-exist" "$TMP/missing.kderr"

# an empty file is an empty trace
: >"$TMP/empty.ktr"
kd empty "$TMP/empty.ktr"
check empty_file_not_crash t_num "$KDRC" -lt 128
check empty_file_no_records t_eq "$(qn "$TMP/empty.norm" '$4 ~ /^(CALL|RET|NAMI)$/')" 0

# the BSD fixtures: other layouts, other byte orders; never a crash or a hang
# A trace made on arm64: its INFO record picks the arm64 table.
"$PROGS/ktrgen" arm64 "$TMP/arm64.ktr"
kd a "$TMP/arm64.ktr"
check arm64_exit_0 t_kdump_ok a
check arm64_info t_grep 'INFO  ktraceb format [0-9]+, aarch64, kernel 6.18.0-synthetic$' "$TMP/a.kd"
check arm64_openat t_grep 'CALL  openat\(AT_FDCWD,0x7ffc1234,O_RDONLY' "$TMP/a.kd"
check arm64_openat_ret t_grep 'RET   openat 3$' "$TMP/a.kd"
check arm64_listmount t_grep 'RET   listmount -1 errno 22 ' "$TMP/a.kd"
check arm64_exit_group t_grep 'CALL  exit_group\(0\)$' "$TMP/a.kd"
check arm64_not_x86_names t_nogrep 'CALL  (dup2|\[56\]|clone)' "$TMP/a.kd"
# and the next file is x86_64 again (the machine is per file)
kd g2 "$G"
check x86_after_arm64 t_grep 'CALL  openat\(AT_FDCWD' "$TMP/g2.kd"

FIX=${KTR_FIXTURES:-$REPO/tests/fixtures/bsd}
nfix=0
for f in "$FIX"/*.ktrace.out; do
	[ -f "$f" ] || continue
	nfix=$((nfix + 1))
	b=$(basename "$f" .ktrace.out)
	timeout -k 2 60 "$KDUMP" -f "$f" >"$TMP/fix.out" 2>"$TMP/fix.err" </dev/null
	rc=$?
	check "fixture_${b}_terminates" t_num "$rc" -ne 124 "timed out"
	check "fixture_${b}_no_crash" t_num "$rc" -lt 128 "exit status"
	check "fixture_${b}_short_error" t_num "$(wc -l <"$TMP/fix.err")" -le 1 "stderr lines"
done
[ "$nfix" -eq 0 ] && skip fixtures "no BSD fixtures in $FIX"

e2e_done
