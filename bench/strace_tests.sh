#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump's decoding against strace's, on strace's own test programs (issue
# 36's acceptance): each program runs once under `strace -f` and once under
# `ktraceb -i`, and the two are compared call by call.  Nothing is fetched
# here: give it a strace source tree whose tests are built; without one it
# says so and exits 0 (CI has none).
#
#   O=build bench/strace_tests.sh STRACE_SRC [REGEX]
#
# STRACE_SRC: a strace checkout, configured and its test programs built:
#   ./bootstrap && ./configure --enable-mpers=no && make -C tests -k \
#     $(make -C tests -s -f Makefile -f <(printf 'p:\n\t@echo $(check_PROGRAMS)\n') p)
# (bootstrap needs autoconf and automake).  REGEX picks programs by name
# (default: all).  It prints, for the programs that ran:
#   ioctl   calls strace names (its op a name, not _IOC() or a number),
#           those kdump names the same (one of strace's names, one of its),
#           the distinct names of both, and calls kdump names where strace
#           prints _IOC(): a name strace does not know is no wrong name,
#           but one it denies would be;
#   names   calls whose syscall name differs (the multiset of each
#           program's names), e.g. int 0x80 read from the wrong table;
#   prctl   prctl and arch_prctl calls whose option kdump names otherwise
#           than strace (paired in order).
# The per-program lists are left in $OUT (default $TMPDIR/strace_tests).
set -u
SRC=${1:-}
REGEX=${2:-.}
O=${O:-build}
KTRACEB=${KTRACEB:-$O/ktraceb}
KDUMP=${KDUMP:-$O/kdump}
OUT=${OUT:-${TMPDIR:-/tmp}/strace_tests}
TIMEOUT=${TIMEOUT:-20}

if [ -z "$SRC" ] || [ ! -d "$SRC/tests" ]; then
	echo "strace_tests: no strace source tree given (STRACE_SRC): skipped"
	exit 0
fi
if ! ls "$SRC/tests"/*.o >/dev/null 2>&1; then
	echo "strace_tests: $SRC/tests has no programs built: skipped (see the header of $0)"
	exit 0
fi
command -v strace >/dev/null || { echo "strace_tests: no strace: skipped"; exit 0; }
[ -x "$KTRACEB" ] && [ -x "$KDUMP" ] || { echo "strace_tests: build ktraceb first (make O=$O)" >&2; exit 1; }
KTRACEB=$(readlink -f "$KTRACEB")
KDUMP=$(readlink -f "$KDUMP")
mkdir -p "$OUT"

# strace's ioctl ops and prctl options, one a line, in order, per program
strace_ops()
{
	sed -E 's/^[0-9]+ +//; s/^\[pid +[0-9]+\] //' "$1" | awk '
	/^ioctl\(/ {
		s = $0; sub(/^ioctl\([^,]*, /, "", s)
		if (match(s, /^[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?( or [A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?)*/))
			print "ioctl " substr(s, 1, RLENGTH)
		else { sub(/,.*|\).*/, "", s); print "ioctl " s }
	}
	/^(prctl|arch_prctl)\(/ {
		s = $0; n = s; sub(/\(.*/, "", n); sub(/^[a-z_]+\(/, "", s); sub(/[,)].*/, "", s)
		sub(/ \/\*.*/, "", s); print n " " s
	}'
}

kdump_ops()
{
	awk -F'\t' '$4 == "CALL" {
		s = $5
		if (s ~ /^ioctl\(/) {
			sub(/^ioctl\([^,]*,/, "", s)
			if (match(s, /^_IOC\([^)]*\)/)) print "ioctl " substr(s, 1, RLENGTH)
			else { m = s; sub(/,0x[0-9a-f]+\)$|,[0-9-]+\)$|\)$/, "", m); print "ioctl " m }
		} else if (s ~ /^(prctl|arch_prctl)\(/) {
			n = s; sub(/\(.*/, "", n); sub(/^[a-z_]+\(/, "", s); sub(/[,)].*/, "", s)
			print n " " s
		}
	}' "$1"
}

names_strace()
{
	sed -E 's/^[0-9]+ +//' "$1" | grep -E '^[a-z_0-9]+\(' | sed -E 's/\(.*//' | sort
}

names_kdump()
{
	awk -F'\t' '$4 == "CALL" { s = $5; sub(/\(.*/, "", s); print s }' "$1" | sort
}

# run_one P: P under strace -f, then under ktraceb -i, each in an empty directory
run_one()
{
	local p=$1 w
	w=$(mktemp -d "$OUT/w.XXXXXX")
	(cd "$w" && timeout -k 2 "$TIMEOUT" strace -f -qq -o "$OUT/$p.strace" "$SRC/tests/$p" \
		>/dev/null 2>&1 </dev/null)
	rm -rf "$w"
	w=$(mktemp -d "$OUT/w.XXXXXX")
	(cd "$w" && timeout -k 2 "$TIMEOUT" "$KTRACEB" -i -f "$OUT/$p.ktr" "$SRC/tests/$p" \
		>/dev/null 2>&1 </dev/null)
	rm -rf "$w"
}

# decode_one P: its kdump text as tab-separated fields, and the lists compared
decode_one()
{
	local p=$1
	# (a comm may be empty or hold spaces: the tag is what ends it)
	"$KDUMP" -f "$OUT/$p.ktr" 2>/dev/null | sed -nE \
		's/^ *([0-9]+):([0-9]+) (.*) (CALL|RET |NAMI|GIO |PSIG|STRU|ARGS|ENVS|EXIT)  (.*)$/\1\t\2\t\3\t\4\t\5/p' |
		sed 's/\tRET \t/\tRET\t/; s/\tGIO \t/\tGIO\t/' >"$OUT/$p.kd"
	strace_ops "$OUT/$p.strace" >"$OUT/$p.sops"
	kdump_ops "$OUT/$p.kd" >"$OUT/$p.kops"
	names_strace "$OUT/$p.strace" >"$OUT/$p.snames"
	names_kdump "$OUT/$p.kd" >"$OUT/$p.knames"
}

progs=$(cd "$SRC/tests" && for f in *; do
	case $f in *.*) continue ;; esac
	[ -f "$f" ] && [ -x "$f" ] && echo "$f"
done | grep -E "$REGEX")
n=0
for p in $progs; do
	if [ -n "${REUSE:-}" ] && [ -s "$OUT/$p.ktr" ]; then # REUSE=1: the last run's traces
		:
	else
		run_one "$p"
	fi
	[ -s "$OUT/$p.strace" ] && [ -s "$OUT/$p.ktr" ] || continue
	decode_one "$p"
	n=$((n + 1))
done

# The per-program lists, paired in order, counted together.
for p in $progs; do
	[ -f "$OUT/$p.sops" ] || continue
	paste -d'\t' <(grep '^ioctl ' "$OUT/$p.sops" | cut -c7-) <(grep '^ioctl ' "$OUT/$p.kops" | cut -c7-) |
		sed "s|^|$p\t|"
done >"$OUT/ioctl.pairs"
for p in $progs; do
	[ -f "$OUT/$p.sops" ] || continue
	paste -d'\t' <(grep -E '^(arch_)?prctl ' "$OUT/$p.sops") <(grep -E '^(arch_)?prctl ' "$OUT/$p.kops") |
		sed "s|^|$p\t|"
done >"$OUT/prctl.pairs"

awk -F'\t' '
function names(s, a,   n, i, t) {
	n = split(s, t, / or /)
	for (i = 1; i <= n; i++) { sub(/\(.*/, "", t[i]); a[t[i]] = 1 }
	return n
}
$2 != "" && $2 !~ /^(_IOC\(|0x|[0-9])/ {
	named++
	split("", sa); split("", ka)
	names($2, sa)
	for (x in sa) sdistinct[x] = 1
	if ($3 != "" && $3 !~ /^(_IOC\(|0x|[0-9])/) {
		names($3, ka)
		hit = 0
		for (x in sa) if (x in ka) hit = 1
		if (hit) { same++; for (x in sa) if (x in ka) kdistinct[x] = 1 }
		else other++
	}
}
$2 ~ /^_IOC\(/ && $3 != "" && $3 !~ /^(_IOC\(|0x|[0-9])/ { extra++ }
END {
	nd = 0; for (x in sdistinct) nd++
	kd = 0; for (x in kdistinct) kd++
	printf "ioctl: strace names %d calls (%d distinct names); kdump names %d of them the same (%.1f%%, %d distinct names), %d otherwise; %d calls strace shows as _IOC() kdump names\n",
		named, nd, same, named ? 100 * same / named : 0, kd, other, extra
}' "$OUT/ioctl.pairs"
awk -F'\t' '$2 != "" && $3 != "" { n++; split($2, a, " "); split($3, b, " ")
	if (a[2] ~ /^(0x|[0-9])/) { if (b[2] !~ /^(0x|[0-9])/) more++ }
	else if (a[2] != b[2]) { bad++; if (bad <= 20) print "  " $0 > "/dev/stderr" } }
	END { printf "prctl, arch_prctl: %d calls paired, %d named otherwise, %d named where strace prints a number\n", n, bad, more }' \
	"$OUT/prctl.pairs"
diffs=0
for p in $progs; do
	[ -f "$OUT/$p.snames" ] || continue
	# the sets: a loop of a fixed time makes more calls under one tracer
	d=$(diff <(uniq "$OUT/$p.snames") <(uniq "$OUT/$p.knames") | grep '^[<>]' | tr '\n' ' ')
	if [ -n "$d" ]; then
		diffs=$((diffs + 1))
		echo "$p $d"
	fi
done >"$OUT/names.diff"
echo "names: $n programs compared, $diffs with a syscall name in one trace only ($OUT/names.diff)"
