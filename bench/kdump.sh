#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump's speed on existing trace files: for each file, its text, JSON lines
# (-J) and timeline (-P) with every data byte shown (-m 0), the median wall
# time of BENCH_RUNS runs, the bytes written, and MB/s in (the trace) and out
# (the output), MB being 10^6 bytes.  bench/run.sh runs it on the tar and find
# traces it records; it also runs alone, on any trace, and needs no root.
# Not a test: it asserts nothing.
#
#   O=build bench/kdump.sh TRACE...       BENCH_RUNS (3)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KDUMP=$O/kdump
RUNS=${BENCH_RUNS:-3}

if [ $# -eq 0 ]; then
	echo "usage: bench/kdump.sh trace..." >&2
	exit 1
fi
if [ ! -x "$KDUMP" ]; then
	echo "bench: $KDUMP is not built; run make" >&2
	exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-kdbench.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# median of the numbers on stdin
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# seconds OPT FILE: wall time of one kdump run, its output in $TMP/out
seconds()
{
	local t0 t1
	t0=$(date +%s%N)
	"$KDUMP" ${1:+"$1"} -m 0 -f "$2" >"$TMP/out"
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

echo "kdump -m 0, median of $RUNS runs (MB = 10^6 bytes)"
printf '  %-14s %8s %-5s %8s %9s %9s %9s\n' trace "MB in" output seconds "MB out" "MB/s in" \
	"MB/s out"
for f in "$@"; do
	if [ ! -r "$f" ]; then
		echo "bench: cannot read $f" >&2
		continue
	fi
	in=$(stat -c %s "$f")
	for opt in text -J -P; do
		: >"$TMP/times"
		for ((i = 0; i < RUNS; i++)); do
			seconds "$([ "$opt" = text ] || echo "$opt")" "$f" >>"$TMP/times"
		done
		secs=$(median <"$TMP/times")
		out=$(stat -c %s "$TMP/out")
		awk -v f="$(basename "$f")" -v o="$opt" -v s="$secs" -v i="$in" -v b="$out" 'BEGIN {
			printf "  %-14s %8.1f %-5s %8.3f %9.1f %9.1f %9.1f\n", f, i / 1e6, o, s, b / 1e6,
				(s > 0 ? i / 1e6 / s : 0), (s > 0 ? b / 1e6 / s : 0) }'
	done
done
