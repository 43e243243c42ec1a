#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump reads untrusted files: truncated, with bogus lengths, short payloads,
# unknown types, random bytes.  It must print the records it could read, then
# at most a one-line "kdump: ..." error, exit below 128 (no crash) and never
# hang; the same of gzip-compressed files (ktraceb -z).  Needs no privileges.
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
	timeout -k 2 60 "$KDUMP" -f "$TMP/flip.ktr" >/dev/null 2>"$TMP/flip.err" </dev/null
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

# --- compressed files (ktraceb -z): gzip of the good file, cut, corrupt, flipped ---
gzip -n -c "$G" >"$TMP/good.gz"
kd gz "$TMP/good.gz"
check gzip_clean t_kdump_ok gz
check gzip_same_text cmp -s "$TMP/gz.kd" "$TMP/good.kd"
timeout 60 "$KDUMP" -f - <"$TMP/good.gz" >"$TMP/gzstdin.kd" 2>"$TMP/gzstdin.kderr"
check gzip_stdin_same cmp -s "$TMP/gzstdin.kd" "$TMP/good.kd"
cat "$TMP/good.gz" "$TMP/good.gz" >"$TMP/two.gz"
kd gz2 "$TMP/two.gz"
check gzip_two_members_clean t_kdump_ok gz2
check gzip_two_members_twice t_eq "$(qn "$TMP/gz2.norm" '$4 != "-"')" $((2 * ngood))
gzsize=$(stat -c %s "$TMP/good.gz")
for cut in 2 11 $((gzsize / 2)) $((gzsize - 1)); do
	head -c "$cut" "$TMP/good.gz" >"$TMP/gzcut$cut.gz"
	rejected "gzip_cut_$cut" "$TMP/gzcut$cut.gz"
	check "gzip_cut_${cut}_too_short" t_grep '^kdump: data too short$' "$TMP/gzip_cut_$cut.kderr"
done
check gzip_cut_last_byte_prints_all t_eq "$(qn "$TMP/gzip_cut_$((gzsize - 1)).norm" '$4 != "-"')" \
	"$ngood"
{ cat "$TMP/good.gz"; printf 'not gzip'; } >"$TMP/gztrail.gz"
rejected gzip_trailing "$TMP/gztrail.gz"
check gzip_trailing_says t_grep 'corrupt compressed data: incorrect header check$' \
	"$TMP/gzip_trailing.kderr"
check gzip_trailing_prints_all t_eq "$(qn "$TMP/gzip_trailing.norm" '$4 != "-"')" "$ngood"
head -c 4096 /dev/urandom | gzip -n -c >"$TMP/gzrandom.gz"
rejected gzip_of_random "$TMP/gzrandom.gz"
bad=
for seed in $(seq 1 100); do
	cp "$TMP/good.gz" "$TMP/gzflip.gz"
	off=$((10 + (seed * 7919) % (gzsize - 10)))
	printf "\\x$(printf %02x $(((seed * 37) % 256)))" |
		dd of="$TMP/gzflip.gz" bs=1 seek="$off" conv=notrunc 2>/dev/null
	timeout -k 2 60 "$KDUMP" -f "$TMP/gzflip.gz" >/dev/null 2>"$TMP/gzflip.err" </dev/null
	rc=$?
	if [ "$rc" -ge 124 ] || [ "$(wc -l <"$TMP/gzflip.err")" -gt 1 ]; then
		bad="$bad seed $seed: exit $rc;"
	fi
done
if [ -z "$bad" ]; then
	pass gzip_flipped_bytes_100
else
	fail gzip_flipped_bytes_100 "$bad"
fi

e2e_done
