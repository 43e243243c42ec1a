#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# make bench (last): the cost of tracing a live service with -p (issue 35).
# Two services on loopback, each started afresh for every run:
#   python   Debian's /usr/bin/python3 -m http.server (python3.11 carries USDT
#            probes: python:function__entry/return, python:line, gc, import,
#            audit), serving a 1 KiB file
#   c        bench/http_srv: 8 threads accepting on one socket, each request
#            an accept, recv, open, fstat, read, close, send and close
# A load client (bench/http_load, THREADS threads, one HTTP/1.0 connection
# per request) sends a fixed number of requests to each, untraced and with
# a tracer attached to the running server:
#   ktraceb -p           the defaults (cnisu: 'u' arms the ktraceb
#                        provider's probes alone)
#   ktraceb -t c -p      system calls only
#   ktraceb -e usdt:* -p every USDT probe of every file the server maps
#                        armed (what the defaults did before issue 35)
#   strace -f -p         to a file
#   perf trace -p        to a file (when perf trace works here)
# The table: requests per second (median of BENCH_RUNS runs), against the
# untraced run, and for the median run the records written (ktraceb: the
# trace file's, by tests/progs/ktrwalk; strace, perf: lines), the USER
# records among them, the trace's bytes and the records lost.
# Not a test: it asserts nothing.  Installs nothing: uses what
# scripts/install-deps.sh installs (python3, strace, linux-perf).  Root.
#
#   O=build bench/service.sh    BENCH_SERVICE_REQS (python requests, 2000),
#                               BENCH_SERVICE_C_REQS (C server requests,
#                               50000), BENCH_SERVICE_THREADS (client
#                               threads, 4), BENCH_RUNS (3),
#                               BENCH_SERVICES ("python c")

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
WALK=$O/tests/progs/ktrwalk
SRV=$O/bench/http_srv
LOAD=$O/bench/http_load
PY=/usr/bin/python3
PY_REQS=${BENCH_SERVICE_REQS:-2000}
C_REQS=${BENCH_SERVICE_C_REQS:-50000}
THREADS=${BENCH_SERVICE_THREADS:-4}
RUNS=${BENCH_RUNS:-3}
SERVICES=${BENCH_SERVICES:-python c}

for b in "$KTRACEB" "$WALK" "$SRV" "$LOAD"; do
	if [ ! -x "$b" ]; then
		echo "bench/service.sh: $b is not built; run make bench" >&2
		exit 1
	fi
done
if [ ! -x "$PY" ]; then
	echo "bench/service.sh: no $PY (scripts/install-deps.sh installs python3): python skipped" >&2
	SERVICES=${SERVICES//python/}
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-service.XXXXXX") || exit 1
SPID=
KEEPER=
cleanup()
{
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null
	if [ -n "$KEEPER" ]; then
		"$KTRACEB" -c -p "$KEEPER" 2>/dev/null
		kill "$KEEPER" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

tracers="none ktraceb ktraceb_c ktraceb_all"
command -v strace >/dev/null && tracers="$tracers strace"
if command -v perf >/dev/null && perf trace -o "$TMP/p" -- true >/dev/null 2>&1; then
	tracers="$tracers perf"
else
	echo "bench/service.sh: perf trace does not work here; skipped" >&2
fi
mkdir -p "$TMP/www"
head -c 768 /dev/urandom | base64 -w 64 >"$TMP/www/f.txt"

# the daemon kept up (a trace of an idle process), as where ktraceb is in use
sleep 3600 &
KEEPER=$!
"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null

# start_server KIND: SPID and PORT of a fresh server, answering
start_server()
{
	local out=$TMP/server.out i
	: >"$out"
	case $1 in
	python)
		(cd "$TMP/www" && exec "$PY" -m http.server 0 --bind 127.0.0.1) >"$out" 2>&1 &
		SPID=$!
		;;
	c)
		"$SRV" 0 8 "$TMP/www/f.txt" >"$out" 2>&1 &
		SPID=$!
		;;
	esac
	PORT=
	for ((i = 0; i < 100; i++)); do
		PORT=$(sed -n 's/^port \([0-9]*\) .*/\1/p; s/^Serving HTTP on .* port \([0-9]*\) .*/\1/p' \
			"$out" | head -n 1)
		[ -n "$PORT" ] && break
		sleep 0.05
	done
	# a few requests first: the server's code and files warm, untraced or not
	"$LOAD" "$PORT" 20 1 /f.txt >/dev/null
}

stop_server()
{
	kill "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	SPID=
}

# attach TRACER FILE: TRACER attached to the server; TPID its process (strace, perf)
attach()
{
	local i
	TPID=
	case $1 in
	ktraceb) "$KTRACEB" -f "$2" -p "$SPID" 2>"$TMP/attach.err" ;;
	ktraceb_c) "$KTRACEB" -t c -f "$2" -p "$SPID" 2>"$TMP/attach.err" ;;
	ktraceb_all) "$KTRACEB" -e 'usdt:*' -f "$2" -p "$SPID" 2>"$TMP/attach.err" ;;
	strace)
		strace -f -qq -o "$2" -p "$SPID" 2>"$TMP/attach.err" &
		TPID=$!
		for ((i = 0; i < 100; i++)); do
			grep -q 'TracerPid:[[:space:]]*[1-9]' "/proc/$SPID/status" && break
			sleep 0.05
		done
		;;
	perf)
		perf trace -o "$2" -p "$SPID" 2>"$TMP/attach.err" &
		TPID=$!
		sleep 1.5 # perf says nothing when it is attached
		;;
	esac
	sleep 0.3 # ktraceb -p returns once set; the daemon reads the files' probes meanwhile
}

# detach TRACER FILE: the tracer off, its file complete
detach()
{
	local size=-1 i
	case $1 in
	ktraceb*)
		"$KTRACEB" -c -p "$SPID" 2>/dev/null
		for ((i = 0; i < 100; i++)); do # the daemon writes what the ring still holds
			[ "$(stat -c %s "$2" 2>/dev/null)" = "$size" ] && break
			size=$(stat -c %s "$2" 2>/dev/null)
			sleep 0.2
		done
		;;
	strace | perf)
		kill -INT "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		;;
	esac
}

# counts TRACER FILE: "records user bytes lost"
counts()
{
	local bytes
	bytes=$(stat -c %s "$2" 2>/dev/null || echo 0)
	case $1 in
	none) echo "- - - -" ;;
	ktraceb*)
		"$WALK" "$2" 2>/dev/null | awk -v b="$bytes" '
			$1 == "records" { r = $2 } $1 == "type" && $2 == 7 { u = $3 }
			$1 == "lost_sum" { l = $2 }
			END { printf "%d %d %.0f %d\n", r, u, b, l }'
		;;
	strace) echo "$(wc -l <"$2") - $bytes 0" ;;
	perf) echo "$(grep -c . "$2") - $bytes $(grep -o 'LOST [0-9]*' "$2" |
		awk '{ s += $2 } END { print s + 0 }')" ;;
	esac
}

label()
{
	case $1 in
	none) echo "untraced" ;;
	ktraceb) echo "ktraceb -p (defaults)" ;;
	ktraceb_c) echo "ktraceb -t c -p" ;;
	ktraceb_all) echo "ktraceb -e 'usdt:*' -p" ;;
	strace) echo "strace -f -p" ;;
	perf) echo "perf trace -p" ;;
	esac
}

# one SERVICE TRACER REQS: "rps records user bytes lost" of one run
one()
{
	local f=$TMP/trace.$2 rps
	rm -f "$f"
	start_server "$1"
	attach "$2" "$f"
	rps=$("$LOAD" "$PORT" "$3" "$THREADS" /f.txt | awk '{ print $8 }')
	detach "$2" "$f"
	stop_server
	echo "$rps $(counts "$2" "$f")"
}

echo "Live services under -p (bench/service.sh): $THREADS client threads, $RUNS runs, median"
printf '%-8s %-26s %9s %9s %10s %10s %9s %8s\n' service tracer 'req/s' slowdown records USER MB lost
for svc in $SERVICES; do
	reqs=$PY_REQS
	[ "$svc" = c ] && reqs=$C_REQS
	base=
	for t in $tracers; do
		: >"$TMP/rows"
		for ((r = 0; r < RUNS; r++)); do
			one "$svc" "$t" "$reqs" >>"$TMP/rows"
		done
		# the median run by req/s
		read -r rps rec user bytes lost <<<"$(sort -n "$TMP/rows" | sed -n "$(((RUNS + 1) / 2))p")"
		[ "$t" = none ] && base=$rps
		awk -v s="$svc" -v t="$(label "$t")" -v rps="$rps" -v base="$base" -v rec="$rec" \
			-v user="$user" -v bytes="$bytes" -v lost="$lost" 'BEGIN {
			slow = (rps > 0 && base > 0) ? sprintf("%.2fx", base / rps) : "-"
			mb = bytes ~ /^[0-9]+$/ ? sprintf("%.1f", bytes / 1048576) : "-"
			printf "%-8s %-26s %9.0f %9s %10s %10s %9s %8s\n", s, t, rps, slow, rec, user, mb, lost
		}'
	done
done
echo "($PY_REQS requests to python, $C_REQS to c, each run; records: the trace file's," \
	"strace's and perf's lines)"
