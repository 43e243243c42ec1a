#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# One user's trace file stalled for 60 s (issue 31): a write of his holds
# the file's inode lock, its source a mapping of a FUSE file whose server
# does not answer, while his traced command makes records in bursts.  How
# long root's, another user's and the same user's other traces of 20000
# getppid calls take before and during the stall (normal: tens of ms; a
# daemon that waits for the stuck file: its clients time out after 10 s),
# whether they lose anything, and what the stalled trace counts lost when it
# is let go.  This is tests/e2e/t_stall.sh with the stall held 60 s
# (BENCH_STALL_SECONDS); as root, with FUSE.
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
out=$(KTR_STALL_SECONDS=${BENCH_STALL_SECONDS:-60} KTR_KEEP=1 O=$O tests/e2e/t_stall.sh 2>&1)
echo "$out" | grep -E '^INFO:'
dir=$(echo "$out" | sed -n 's/^e2e\/stall: kept //p')
if [ -n "$dir" ]; then
	for p in root0 root1 other1 user1 stuck; do
		printf '%-7s %s\n' "$p" "$(grep -h 'records written' "$dir/$p.err" 2>/dev/null | tail -n 1)"
	done
	rm -rf "$dir"
fi
echo "$out" | grep -E '^(FAIL|SKIP)' || echo "every check of t_stall passed"
