#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/loaded.sh [PATTERN...]: tests/run.sh for each PATTERN (all of the
# tests when none is given) beside two busy loops per CPU at nice 0, as a
# machine busy with other work is: what waits for its condition passes, what
# slept a fixed time or measured time does not.  The loops are this
# script's children and end with it.  The last line is the sum of the runs'
# summaries ("N passed, N failed[, N skipped]"); the status is 1 if any
# failed.  Environment: as tests/run.sh's (O, KTR_TEST_TIMEOUT, ...);
# KTR_LOAD_PER_CPU (default 2).

cd "$(dirname "$0")/.." || exit 1
per=${KTR_LOAD_PER_CPU:-2}
n=$(($(nproc) * per))
loops=
stop()
{
	[ -n "$loops" ] && kill $loops 2>/dev/null
	loops=
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
i=0
while [ "$i" -lt "$n" ]; do
	sh -c 'while :; do :; done' &
	loops="$loops $!"
	i=$((i + 1))
done
echo "loaded: $n busy loops beside the tests" >&2

sum=$(mktemp) || exit 1
rc=0
[ $# -gt 0 ] || set -- ""
for pattern in "$@"; do
	out=$(mktemp) || exit 1
	sh tests/run.sh "$pattern" | tee "$out"
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1 >>"$sum"
	grep -qE '^[0-9]+ passed, 0 failed' "$out" || rc=1
	rm -f "$out"
done
stop
awk '{ p += $1; f += $3; for (i = 1; i < NF; i++) if ($(i + 1) ~ /^skipped/) s += $i }
	END { printf "%d passed, %d failed", p, f; if (s) printf ", %d skipped", s; print "" }' "$sum"
rm -f "$sum"
exit "$rc"
