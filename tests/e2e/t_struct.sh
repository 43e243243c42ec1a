#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# STRU: tests/progs/fac_stat makes a file of a pid-dependent size and owner,
# mode 0640, two links and a set mtime, a symbolic link to it, and looks at
# them (and at its directory and /dev/null) with stat, lstat, fstat,
# newfstatat and statx.  Each call must be followed by a STRU struct stat (or
# statx) record whose fields are the ones the program printed from its own
# result.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
. "$(dirname "$0")/lib_json.sh"
need_tracer

mkdir -p "$TMP/w"
W=$TMP/w
ktr s -f "$TMP/s.ktr" "$PROGS/fac_stat" "$W"
kd s "$TMP/s.ktr"
OUT=$TMP/s.out
PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
PID=${PID:-none}
strus "$TMP/s.norm" "$PID" >"$TMP/s.stru"
check exit_0 t_krc 0 s
check kdump_clean t_kdump_ok s
check program_ran t_eq "$(grep -c ' failed$' "$OUT")" 0

# rdev_ok VALUE MAJ MIN: kdump shows a device number as glibc's makedev()
# value or as MAJ:MIN
rdev_ok()
{
	local n=$((($3 & 0xff) | (($2 & 0xfff) << 8) | (($3 & ~0xff) << 12) | (($2 & ~0xfff) << 32)))
	[ "$1" = "$n" ] || [ "$1" = "$2:$3" ] && return 0
	echo "    rdev '$1', expected $n or $2:$3" >&2
	return 1
}

# stat_fields KEY CALL PATH: the STRU of CALL on PATH against report line KEY
stat_fields()
{
	local key=$1 call=$2 path=$3 body v rdev
	body=$(awk -F'\t' -v c="$call" -v p="$path" '$1 == c && $2 == p { print $3 }' "$TMP/s.stru")
	check "${key}_one_stru" t_eq "$(printf '%s' "$body" | grep -c '^struct stat')" 1
	body=$(printf '%s\n' "$body" | head -n 1)
	for f in ino size nlink uid gid blksize blocks mtime; do
		v=$(progkv "$OUT" "$key" "$f")
		check "${key}_$f" t_eq "$(field "$body" "$f")" "${v:-none}" "$call $path"
	done
	v=$(progkv "$OUT" "$key" mode)
	check "${key}_mode" t_eq "$(field "$body" mode)" "$(modestr "${v:-0}")" "$call $path, mode ${v:-none}"
	rdev=$(progkv "$OUT" "$key" rdev)
	check "${key}_rdev" rdev_ok "$(field "$body" rdev)" "${rdev%%:*}" "${rdev##*:}"
}

stat_fields stat stat "$W/f"
stat_fields lstat lstat "$W/ln"
stat_fields fstat fstat -
stat_fields newfstatat newfstatat "$W/f2"
stat_fields dir stat "$W"
stat_fields devnull stat /dev/null

# kdump -J: the same structures from the decoder's fields, no text; the
# checker's STRU rules (tests/lib/json_check.py)
kj sj "$TMP/s.ktr"
check json_lines_parse lines_ok sj
check json_stru_no_text t_eq "$(sel sj 'r["type"] == "STRU" and "text" in r' | wc -l)" 0
check json_stat_ino t_eq "$(sel sj '(r["type"] == "STRU" and r["pid"] == '"$PID"' and r["struct"] == "stat"
	and str(r["fields"]["ino"]) == "'"$(progkv "$OUT" stat ino)"'")' 'r["fields"]["size"]' | head -n 1)" \
	"$(progkv "$OUT" stat size)"

# the values the program set: 0640, two links, its mtime
check set_mode_0640 t_eq "$(progkv "$OUT" stat mode)" 100640
check set_nlink_2 t_eq "$(progkv "$OUT" stat nlink)" 2
check lstat_is_link t_eq "$(progkv "$OUT" lstat size)" "$((${#W} + 2))" "symlink size = length of $W/f"
check devnull_char t_eq "$(progkv "$OUT" devnull rdev)" 1:3

# statx
body=$(awk -F'\t' -v p="$W/f" '$1 == "statx" && $2 == p { print $3 }' "$TMP/s.stru")
check statx_one_stru t_eq "$(printf '%s' "$body" | grep -c '^struct statx')" 1
for f in ino size nlink uid gid blksize blocks mtime; do
	v=$(progkv "$OUT" statx "$f")
	check "statx_$f" t_eq "$(field "$body" "$f")" "${v:-none}"
done
v=$(progkv "$OUT" statx mode)
check statx_mode t_eq "$(field "$body" mode)" "$(modestr "${v:-0}")"
m=$(progkv "$OUT" statx mask)
check statx_mask_basic t_match "$(field "$body" mask)" \
	"$([ $((${m:-0} & 0x7ff)) -eq $((0x7ff)) ] && echo '(^|\|)STATX_BASIC_STATS(\||$)' || echo '^$')"
check statx_call_decoded t_grep $'\tCALL\tstatx\\(AT_FDCWD,0x[0-9a-f]+,0,STATX_BASIC_STATS,0x[0-9a-f]+\\)$' \
	"$TMP/s.norm"

# a STRU sits between the CALL and the RET of its syscall
check stru_inside_call t_eq "$(q "$TMP/s.norm" '$1 == p && $4 ~ /^(CALL|RET|STRU|NAMI|GIO)$/' p="$PID" |
	awk -F'\t' '$4 == "CALL" { inc = 1 } $4 == "RET" { inc = 0 } $4 == "STRU" && !inc { bad++ }
	END { print bad + 0 }')" 0
# a failing stat has no STRU (nothing was filled in)
check missing_failed t_eq "$(awk '$1 == "missing" { print $3 }' "$OUT")" -1
check missing_no_stru t_eq "$(awk -F'\t' -v p="$W/missing" '$2 == p' "$TMP/s.stru" | wc -l | tr -d ' ')" 0
a=$(around "$TMP/s.norm" "$PID" "$W/missing")
check missing_enoent t_match "$(sed -n 2p <<<"$a")" '^RET stat -1 errno 2( |$)'

# -t n: paths only, no STRU; -t c: STRU without NAMI
rm -rf "${W:?}"/*
ktr n -t n -f "$TMP/n.ktr" "$PROGS/fac_stat" "$W"
kd n "$TMP/n.ktr"
check trstr_n_exit_0 t_krc 0 n
check trstr_n_no_stru t_eq "$(qn "$TMP/n.norm" '$4 == "STRU"')" 0
rm -rf "${W:?}"/*
ktr c -t c -f "$TMP/c.ktr" "$PROGS/fac_stat" "$W"
kd c "$TMP/c.ktr"
check trstr_c_exit_0 t_krc 0 c
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/c.out")
check trstr_c_fstat_stru t_eq "$(strus "$TMP/c.norm" "${PID:-none}" | awk -F'\t' '$1 == "fstat" { print $3 }' |
	while read -r b; do field "$b" ino; done)" "$(progkv "$TMP/c.out" fstat ino)"

e2e_done
