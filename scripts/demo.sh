#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# make demo: trace a small command with ktraceb and show it with kdump.
#   O=build scripts/demo.sh [command [args ...]]     (default: cat /etc/hostname)
# Needs root (or CAP_BPF + CAP_PERFMON) for ktraceb.

cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
for b in "$KTRACEB" "$KDUMP"; do
	if [ ! -x "$b" ]; then
		echo "demo: $b is not built; run make first" >&2
		exit 1
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	echo "demo: ktraceb needs root (or CAP_BPF and CAP_PERFMON); try: sudo make demo" >&2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-demo.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
[ $# -gt 0 ] || set -- cat /etc/hostname

echo "\$ ktraceb -f $dir/ktrace.out $*"
"$KTRACEB" -f "$dir/ktrace.out" "$@"
rc=$?
echo
echo "\$ kdump -f $dir/ktrace.out"
"$KDUMP" -f "$dir/ktrace.out" || exit 1
exit "$rc"
