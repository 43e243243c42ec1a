#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ARGS and ENVS of big execs: tests/progs/fac_exec execs itself with 2000
# arguments of 100 bytes (quotes, backslashes, tabs, newlines and UTF-8 among
# them) and a 64 KiB environment variable, and the new image writes the
# vectors it received to files.  The ARGS/ENVS records kdump prints (several
# consecutive records of one exec joined) must give back exactly those
# vectors, every argument whole and in order; so must the raw records in
# the file.  The same for ktraceb's own exec of a command with 2000 arguments,
# and for a vector that fits in one record.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer
if [ ! -x "$PROGS/fac_records" ]; then
	fail build "$PROGS/fac_records not built (make O=$O test)"
	exit 1
fi

# same NAME KDVEC FILE: a vector from kdump or the raw records equals FILE
same()
{
	printf '%s\n' "$2" >"$TMP/$1.got"
	hexfile "$3" >"$TMP/$1.want"
	check "$1" t_samefile "$TMP/$1.got" "$TMP/$1.want" "$1: vector (hex digits)"
}

# --- fac_exec execs itself with 2000 x 100-byte arguments and 64 KiB env --------
E=$TMP/e
ktr e -f "$TMP/e.ktr" "$PROGS/fac_exec" exec "$E" 2000 100 65536
kd e "$TMP/e.ktr"
N=$TMP/e.norm
PID=$(awk '$1 == "exec" { print $3 }' "$TMP/e.out")
PID=${PID:-none}
check e_exit_0 t_krc 0 e
check e_kdump_clean t_kdump_ok e
check e_same_process t_eq "$(awk '$1 == "child" { print $3 }' "$TMP/e.out")" "$PID"
check e_child_argc t_eq "$(awk '$1 == "child" { print $5 }' "$TMP/e.out")" 2003
check e_no_loss t_grep ', 0 lost$' "$TMP/e.err"
check e_two_execs t_eq "$(qn "$N" '$1 == p && $4 == "RET" && $5 == "execve 0"' p="$PID")" 2
vecs "$TMP/e.kd" "$PID" ARGS >"$TMP/e.args"
vecs "$TMP/e.kd" "$PID" ENVS >"$TMP/e.envs"
check e_two_args_runs t_lines 2 "$TMP/e.args"
check e_two_envs_runs t_lines 2 "$TMP/e.envs"
# the first exec: the command line ktraceb ran
printf '%s\0' "$PROGS/fac_exec" exec "$E" 2000 100 65536 >"$TMP/e.cmd"
same e_first_args "$(sed -n 1p "$TMP/e.args")" "$TMP/e.cmd"
# the big one, as kdump shows it
a=$(sed -n 2p "$TMP/e.args")
check e_args_count t_eq "$(nstrings "$a")" 2003 "arguments in the joined ARGS records"
same e_args_whole "$a" "$E.argv"
same e_envs_whole "$(sed -n 2p "$TMP/e.envs")" "$E.envp"
check e_big_env_var t_eq "$(grep -o 'FAC_BIG=[a-z]*' "$TMP/e.kd" | awk '{ print length($0) }' |
	sort -n | tail -n 1)" $((65536 + 8))
check e_args_last_arg_shown t_grep '"01999-.*"$' "$TMP/e.kd"
# ... and as the tracer wrote it
rawvecs "$TMP/e.ktr" 16 "$PID" >"$TMP/e.rargs"
rawvecs "$TMP/e.ktr" 17 "$PID" >"$TMP/e.renvs"
same e_raw_args "$(sed -n 2p "$TMP/e.rargs")" "$E.argv"
same e_raw_envs "$(sed -n 2p "$TMP/e.renvs")" "$E.envp"
# the execve itself: CALL, NAMI, the vectors, RET, under the new comm
check e_exec_sequence t_eq "$(q "$N" '$1 == p && $4 != "-"' p="$PID" | awk -F'\t' '
	$4 == "CALL" && $5 ~ /^execve\(/ { n++ } n == 2 && !done { print $4; if ($4 == "RET") done = 1 }' |
	uniq | tr '\n' ' ')" "CALL NAMI ARGS ENVS RET "
check e_exec_nami t_eq "$(q "$N" '$1 == p && $4 == "NAMI"' p="$PID" | grep -c '"/proc/self/exe"$')" 1

# --- ktraceb runs a command with 2000 arguments -----------------------------------
args=()
letters=({A..Z})
for ((i = 0; i < 2000; i++)); do
	printf -v fill '%*s' 80 ''
	printf -v a '%05d-"q" b\\s %dx%s' "$i" "$i" "${fill// /${letters[i % 26]}}"
	args+=("$a")
done
C=$TMP/c
ktr c -f "$TMP/c.ktr" "$PROGS/fac_exec" child "$C" "${args[@]}"
kd c "$TMP/c.ktr"
PID=$(awk '$1 == "child" { print $3 }' "$TMP/c.out")
PID=${PID:-none}
check c_exit_0 t_krc 0 c
check c_kdump_clean t_kdump_ok c
check c_child_argc t_eq "$(awk '$1 == "child" { print $5 }' "$TMP/c.out")" 2003
printf '%s\0' "$PROGS/fac_exec" child "$C" "${args[@]}" >"$TMP/c.cmd"
check c_child_got_them t_eq "$(hexfile "$TMP/c.cmd")" "$(hexfile "$C.argv")"
vecs "$TMP/c.kd" "$PID" ARGS >"$TMP/c.args"
check c_one_args_run t_lines 1 "$TMP/c.args"
check c_args_count t_eq "$(nstrings "$(cat "$TMP/c.args")")" 2003
same c_args_whole "$(cat "$TMP/c.args")" "$C.argv"
vecs "$TMP/c.kd" "$PID" ENVS >"$TMP/c.envs"
same c_envs_whole "$(cat "$TMP/c.envs")" "$C.envp"
same c_raw_args "$(rawvecs "$TMP/c.ktr" 16 "$PID")" "$C.argv"

# --- a vector that fits in one record: 500 x 100 bytes ------------------------------
S=$TMP/s
ktr s -f "$TMP/s.ktr" "$PROGS/fac_exec" exec "$S" 500 100 1000
kd s "$TMP/s.ktr"
PID=$(awk '$1 == "exec" { print $3 }' "$TMP/s.out")
PID=${PID:-none}
check s_exit_0 t_krc 0 s
vecs "$TMP/s.kd" "$PID" ARGS >"$TMP/s.args"
vecs "$TMP/s.kd" "$PID" ENVS >"$TMP/s.envs"
check s_one_args_record t_eq "$(q "$TMP/s.norm" '$1 == p && $4 == "ARGS"' p="$PID" | wc -l | tr -d ' ')" 2
check s_args_count t_eq "$(nstrings "$(sed -n 2p "$TMP/s.args")")" 503
same s_args_whole "$(sed -n 2p "$TMP/s.args")" "$S.argv"
same s_envs_whole "$(sed -n 2p "$TMP/s.envs")" "$S.envp"

# --- -t n: no ARGS/ENVS (they come with c) --------------------------------------
ktr n -t n -f "$TMP/n.ktr" "$PROGS/fac_exec" exec "$TMP/n" 10 10 10
kd n "$TMP/n.ktr"
check n_exit_0 t_krc 0 n
check n_no_vectors t_eq "$(qn "$TMP/n.norm" '$4 == "ARGS" || $4 == "ENVS"')" 0
check n_exec_nami t_eq "$(qn "$TMP/n.norm" '$4 == "NAMI" && $5 == "\"/proc/self/exe\""')" 1

e2e_done
