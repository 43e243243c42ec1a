#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A container's HTTP server (issue 43): busybox httpd in a podman or docker
# container with no network but its own loopback, loaded by bench/http_load
# run in the container's network namespace (nsenter: outside its cgroup,
# so the load itself is never traced).  Requests per second untraced,
# under ktraceb -G RUNTIME:NAME with the default facilities, under -G -t c,
# and under strace -f -p on its main process (httpd, which forks a child
# per connection).  As root, with the runtime, busybox (static) and strace
# installed; make bench builds http_load.  Not a test: it asserts nothing.
#
#   O=build bench/container.sh [podman|docker]
#
# BENCH_REQ requests (default 2000) over BENCH_THREADS connections at a
# time (default 4), the median of BENCH_RUNS runs (default 3).  make
# container-vmtest KTR_CT_BENCH=1 runs it in its guest, for both runtimes.

set -u
cd "$(dirname "$0")/.." 2>/dev/null || true
O=${O:-build}
RT=${1:-podman}
KTRACEB=${KTRACEB:-$O/ktraceb}
LOAD=${HTTP_LOAD:-$O/bench/http_load}
REQ=${BENCH_REQ:-2000}
THREADS=${BENCH_THREADS:-4}
RUNS=${BENCH_RUNS:-3}
NAME=ktr-bench-web
for b in "$KTRACEB" "$LOAD"; do
	[ -x "$b" ] || {
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	}
done
command -v "$RT" >/dev/null || {
	echo "bench: no $RT" >&2
	exit 1
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-ctbench.XXXXXX") || exit 1
cleanup()
{
	"$KTRACEB" -c -G "$RT:$NAME" 2>/dev/null
	"$RT" rm -f "$NAME" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

# the image: busybox and a page, imported from a tarball
mkdir -p "$TMP/img/bin" "$TMP/img/www"
cp "$(command -v busybox)" "$TMP/img/bin/" || exit 1
head -c 4096 /dev/zero | tr '\0' x >"$TMP/img/www/index.html"
tar -C "$TMP/img" -cf "$TMP/img.tar" .
"$RT" import "$TMP/img.tar" ktr-bench-img >/dev/null || exit 1
"$RT" rm -f "$NAME" >/dev/null 2>&1
"$RT" run -d --name "$NAME" --network none ktr-bench-img \
	/bin/busybox httpd -f -p 127.0.0.1:8080 -h /www >/dev/null || exit 1
PID=$("$RT" inspect --format '{{.State.Pid}}' "$NAME")

# rps: the median requests per second of RUNS loads
rps()
{
	local i
	for ((i = 0; i < RUNS; i++)); do
		nsenter -t "$PID" -n "$LOAD" 8080 "$REQ" "$THREADS" /index.html |
			sed -n 's/.* rps \([0-9.]*\).*/\1/p'
	done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}
row()
{
	printf '%-38s %10s\n' "$1" "$2"
}

echo "$RT $("$RT" --version | head -n 1 | sed 's/.*version //'), kernel $(uname -r)," \
	"$REQ requests, $THREADS at a time, median of $RUNS"
rps >/dev/null # warm
row "untraced" "$(rps)"
"$KTRACEB" -f "$TMP/g.ktr" -G "$RT:$NAME" 2>/dev/null
row "ktraceb -G $RT:$NAME" "$(rps)"
"$KTRACEB" -c -G "$RT:$NAME" 2>/dev/null
"$KTRACEB" -t c -f "$TMP/c.ktr" -G "$RT:$NAME" 2>/dev/null
row "ktraceb -t c -G $RT:$NAME" "$(rps)"
"$KTRACEB" -c -G "$RT:$NAME" 2>/dev/null
if command -v strace >/dev/null; then
	strace -f -qq -o /dev/null -p "$PID" &
	st=$!
	sleep 1
	row "strace -f -p (httpd)" "$(rps)"
	kill -INT "$st"
	wait "$st" 2>/dev/null
else
	row "strace -f -p (httpd)" "no strace"
fi
