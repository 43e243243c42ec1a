#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Compressed traces (ktraceb -z) against uncompressed ones, on tar of
# /usr/include into a file and find over /usr: for each, the untraced run
# time, then with `ktraceb -f F` and `ktraceb -z -f F` (the daemon kept up
# by a trace of an idle process): median seconds of BENCH_RUNS runs, the
# slowdown, records written and lost, the file's size, the ratio to the
# uncompressed file, and the seconds kdump takes to print it.  bench/run.sh
# runs it last; it also runs alone.  Not a test: it asserts nothing.
# Needs root.
#
#   O=build bench/compress.sh       BENCH_RUNS (3)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
RUNS=${BENCH_RUNS:-3}

for b in "$KTRACEB" "$KDUMP"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	fi
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-zbench.XXXXXX") || exit 1
KEEPER=
trap '[ -n "$KEEPER" ] && kill "$KEEPER" 2>/dev/null; rm -rf "$TMP"' EXIT

# seconds CMD...: wall time of one run, stdout and stderr to $TMP/out, $TMP/err
seconds()
{
	local t0 t1
	t0=$(date +%s%N)
	"$@" >"$TMP/out" 2>"$TMP/err"
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# the daemon stays up between runs: what is measured is the trace, not a start
sleep 3600 &
KEEPER=$!
"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null

ROWS=$TMP/rows
: >"$ROWS"
# zbench NAME CMD...: untraced, ktraceb, ktraceb -z
zbench()
{
	local name=$1 mode i f secs base recs lostn bytes plain_bytes=0 kd
	shift
	for mode in none plain z; do
		f=$TMP/trace.$mode
		: >"$TMP/times"
		for ((i = 0; i < RUNS; i++)); do
			rm -f "$f" "$TMP/out.tar"
			case $mode in
			none) seconds "$@" >>"$TMP/times" ;;
			plain) seconds "$KTRACEB" -f "$f" "$@" >>"$TMP/times" ;;
			z) seconds "$KTRACEB" -z -f "$f" "$@" >>"$TMP/times" ;;
			esac
		done
		secs=$(median <"$TMP/times")
		[ "$mode" = none ] && base=$secs
		recs=- lostn=- bytes=- kd=-
		if [ "$mode" != none ]; then
			read -r recs lostn <<<"$(sed -n \
				's/^ktraceb: \([0-9]*\) records written to .*, \([0-9]*\) lost$/\1 \2/p' \
				"$TMP/err")"
			bytes=$(stat -c %s "$f")
			[ "$mode" = plain ] && plain_bytes=$bytes
			kd=$(seconds "$KDUMP" -f "$f")
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$secs" "$base" \
			"${recs:--}" "${lostn:--}" "$bytes" "$plain_bytes" "$kd" >>"$ROWS"
		echo "bench: $name $mode ${secs}s" >&2
	done
}

zbench "tar /usr/include" tar cf "$TMP/out.tar" /usr/include
zbench "find /usr" find /usr -name '*.h'

echo "compressed traces (-z, zlib level $(sed -n 's/^#define KTR_WRITER_GZIP_LEVEL[^0-9]*\([0-9]*\).*/\1/p' \
	src/ktraceb/daemon/files/ktr_writer.h)): median of $RUNS runs, a running daemon"
printf '  %-17s %-8s %8s %9s %9s %6s %11s %7s %9s\n' workload trace seconds slowdown records \
	lost bytes ratio "kdump s"
awk -F'\t' '{
	ratio = ($2 == "z" && $7 > 0) ? sprintf("%.1fx", $8 / $7) : "-"
	slow = ($4 > 0) ? sprintf("%.2fx", $3 / $4) : "-"
	printf "  %-17s %-8s %8.3f %9s %9s %6s %11s %7s %9s\n", $1, \
		($2 == "none" ? "untraced" : $2 == "z" ? "-z" : "plain"), $3, slow, $5, $6, $7, ratio, $9
}' "$ROWS"
echo
