#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump reads untrusted files: truncated, with bogus lengths, short payloads,
# unknown types, random bytes.  It must print the records it could read, then
# at most a one-line "kdump: ..." error, exit below 128 (no crash) and never
# hang.  Needs no privileges.
. "$(dirname "$0")/lib.sh"
need_kdump

G=$TMP/good.ktr
"$PROGS/ktrgen" good "$G"
kd good "$G"
check good_file_clean t_kdump_ok good
ngood=$(qn "$TMP/good.norm" '$4 != "-"')

# survives NAME FILE: no crash, no hang, at most one line of error
survives()
{
	kd "$1" "$2"
	check "${1}_terminates" t_num "$KDRC" -ne 124 "timed out"
	check "${1}_no_crash" t_num "$KDRC" -lt 128 "exit status"
	check "${1}_short_error" t_num "$(wc -l <"$TMP/$1.kderr")" -le 1 "stderr lines"
}

# rejected NAME FILE: survives, and says so: non-zero and "kdump: ..."
rejected()
{
	survives "$@"
	check "${1}_fails" t_num "$KDRC" -ne 0
	check "${1}_one_line_error" t_lines 1 "$TMP/$1.kderr"
	check "${1}_error_prefix" t_grep '^kdump: ' "$TMP/$1.kderr"
}

size=$(stat -c %s "$G")
# the last record is an EXIT: 64 + 8 bytes
head -c $((size - 4)) "$G" >"$TMP/cut_payload.ktr"
rejected cut_payload "$TMP/cut_payload.ktr"
check cut_payload_prints_the_rest t_eq "$(qn "$TMP/cut_payload.norm" '$4 != "-"')" $((ngood - 1))

head -c $((size - 72 + 30)) "$G" >"$TMP/cut_header.ktr"
rejected cut_header "$TMP/cut_header.ktr"
check cut_header_prints_the_rest t_eq "$(qn "$TMP/cut_header.norm" '$4 != "-"')" $((ngood - 1))

"$PROGS/ktrgen" neglen "$TMP/neglen.ktr"
rejected negative_length "$TMP/neglen.ktr"
check negative_length_prints_the_rest t_eq "$(qn "$TMP/negative_length.norm" '$4 != "-"')" "$ngood"

"$PROGS/ktrgen" hugelen "$TMP/hugelen.ktr"
rejected huge_length "$TMP/hugelen.ktr"
check huge_length_prints_the_rest t_eq "$(qn "$TMP/huge_length.norm" '$4 != "-"')" "$ngood"

"$PROGS/ktrgen" badnarg "$TMP/badnarg.ktr"
survives bad_narg "$TMP/badnarg.ktr"
check bad_narg_reads_on t_grep 'EXIT  killed by SIGKILL$' "$TMP/bad_narg.kd"

"$PROGS/ktrgen" short "$TMP/short.ktr"
survives short_payloads "$TMP/short.ktr"
check short_payloads_read_on t_grep 'EXIT  killed by SIGKILL$' "$TMP/short_payloads.kd"

"$PROGS/ktrgen" badtype "$TMP/badtype.ktr"
survives bad_types "$TMP/badtype.ktr"
check bad_types_read_on t_eq "$(grep -c 'EXIT  killed by SIGKILL$' "$TMP/bad_types.kd")" 2

for seed in 1 2 3; do
	"$PROGS/ktrgen" garbage "$TMP/garbage$seed.ktr" "$seed"
	survives "garbage$seed" "$TMP/garbage$seed.ktr"
done

# 200 copies of the good file with random bytes changed: one check for all
bad=
for seed in $(seq 1 200); do
	"$PROGS/ktrgen" flip "$TMP/flip.ktr" "$seed"
	timeout -k 2 10 "$KDUMP" -f "$TMP/flip.ktr" >/dev/null 2>"$TMP/flip.err" </dev/null
	rc=$?
	if [ "$rc" -ge 124 ] || [ "$(wc -l <"$TMP/flip.err")" -gt 1 ]; then
		bad="$bad seed $seed: exit $rc;"
		cp "$TMP/flip.ktr" "$TMP/flip-$seed.ktr"
	fi
done
if [ -z "$bad" ]; then
	pass flipped_bytes_200
else
	fail flipped_bytes_200 "$bad" "(ktrgen flip FILE SEED makes the file again)"
fi

e2e_done
