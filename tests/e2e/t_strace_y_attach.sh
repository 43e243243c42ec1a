#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump -y of a process attached with -p, whose descriptors were opened
# before its trace began: tests/progs/fd_attach (a file, a pipe, a TCP
# connection over 127.0.0.1, a UNIX socket pair) is traced by ktraceb -p and
# by strace -yy -p at once; then it reads or writes each descriptor.  The
# daemon's FD records (one per descriptor) name them: kdump -y's are what
# /proc/PID/fd said to the program itself, and kdump -yy's decoration of
# each call equals strace -yy's, but for a UNIX socket pair's peer, which
# /proc does not say (kdump(1) -y).  -J has the records' members; a trace
# without FD records (an older daemon's) leaves those descriptors numbers.
# Then the same program in a cgroup traced with -G: its FD records name its
# descriptors as /proc/PID/fd did.
. "$(dirname "$0")/lib.sh"
need_tracer
if ! command -v strace >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip all "strace or python3 is not installed (scripts/install-deps.sh)"
	exit 0
fi

# start NAME [PREFIX...]: PREFIX fd_attach DIR PORT in the background until
# it says "ready" in $TMP/NAME.out (PID, empty if it never did); another
# port when one is taken
start()
{
	local name=$1 i j
	shift
	PID=
	for ((i = 0; i < 10; i++)); do
		rm -rf "$TMP/$name.d" && mkdir -p "$TMP/$name.d"
		"$@" "$PROGS/fd_attach" "$TMP/$name.d" $((20000 + RANDOM % 30000)) \
			>"$TMP/$name.out" 2>"$TMP/$name.err" &
		FA=$!
		for ((j = 0; j < 200; j++)); do
			grep -q '^ready$' "$TMP/$name.out" && break
			alive "$FA" || break
			sleep 0.05
		done
		if grep -q '^ready$' "$TMP/$name.out"; then
			PID=$(sed -n 's/^pid //p' "$TMP/$name.out")
			return
		fi
		wait "$FA"
		[ $? -ne 3 ] && return
	done
}

# ended KTR: the daemon's END record is in the trace (its process has ended)
ended()
{
	local j
	for ((j = 0; j < 200; j++)); do
		kd end "$1"
		grep -q '	END	' "$TMP/end.norm" && return
		sleep 0.05
	done
}

start fa
check program_ready t_ne "${PID:-0}" 0
if [ -z "$PID" ]; then
	exit 0
fi

ktr p -f "$TMP/a.ktr" -p "$PID"
check ktraceb_p_ran t_krc 0 p
timeout -k 5 "$KTR_TIMEOUT" strace -yy -p "$PID" -o "$TMP/s.strace" 2>"$TMP/s.err" &
ST=$!
for ((j = 0; j < 200; j++)); do
	grep -q 'attached' "$TMP/s.err" && break
	alive "$ST" || break
	sleep 0.05
done
check strace_attached t_grep attached "$TMP/s.err"
tkill -USR1 "$PID"
wait "$PID"
check program_ran t_eq $? 0
wait "$ST"
ended "$TMP/a.ktr"

kd yy "$TMP/a.ktr" -yy
check kdump_yy_clean t_kdump_ok yy
kd y "$TMP/a.ktr" -y
check kdump_y_clean t_kdump_ok y
check fd_records t_num "$(awk -F'\t' '$1 == p && $4 == "FD"' p="$PID" "$TMP/y.norm" | wc -l)" \
	-ge 8
check fd_record_file t_grep "	FD	[0-9]+<$TMP/fa.d/data> O_CLOEXEC$" "$TMP/y.norm"

# decos FILE: "call fd<text>" of each read, write and getsockname, from
# strace's (s) or kdump's (k) text
decos()
{
	python3 - "$1" "$2" "$PID" <<'EOF'
import re, sys
DECO = re.compile(r'^(\w+)\((\d+)<((?:[^<>]|(?<=-)>)*)>')
for line in open(sys.argv[2], errors='replace'):
    if sys.argv[1] == 'k':
        f = line.rstrip('\n').split('\t')
        if len(f) < 5 or f[0] != sys.argv[3] or f[3] != 'CALL':
            continue
        body = f[4]
    else:
        body = line
    m = DECO.match(body)
    if m and m.group(1) in ('read', 'write', 'getsockname'):
        text = m.group(3)
        if sys.argv[1] == 's':  # /proc does not say a socket pair's peer
            text = re.sub(r'^(UNIX-\w+:\[\d+)->\d+\]$', r'\1]', text)
        print('%s %s<%s>' % (m.group(1), m.group(2), text))
EOF
}
decos s "$TMP/s.strace" >"$TMP/s.decos"
decos k "$TMP/yy.norm" >"$TMP/k.decos"
check eight_calls t_num "$(wc -l <"$TMP/s.decos")" -eq 8
check yy_equals_strace diff -u "$TMP/s.decos" "$TMP/k.decos"

# -y: each descriptor as /proc/self/fd named it to the program
# proc_decos NAME: "fd<link>" of each descriptor the program said
proc_decos()
{
	sed -n 's/^fd \([0-9]*\) \(.*\)$/\1<\2>/p' "$TMP/$1.out" | sort -u
}
proc_decos fa >"$TMP/proc.decos"
decos k "$TMP/y.norm" | cut -d' ' -f2 | sort -u >"$TMP/ky.decos"
check y_equals_proc diff -u "$TMP/proc.decos" "$TMP/ky.decos"

kd j "$TMP/a.ktr" -J
check json_clean t_kdump_ok j
check json_fd t_grep "\"type\":\"FD\".*\"kind\":\"path\",\"cloexec\":true,\"fd_path\":\"$TMP/fa.d/data\"" \
	"$TMP/j.kd"
check json_socket t_grep '"kind":"socket","cloexec":false,"fd_path":"TCP:\[127\.0\.0\.1:[0-9]+->127\.0\.0\.1:[0-9]+\]","inode":[0-9]+' \
	"$TMP/j.kd"

# an older trace, without FD records: nothing breaks, the descriptors are numbers
python3 - "$TMP/a.ktr" "$TMP/old.ktr" <<'EOF'
import struct, sys
data, out, off = open(sys.argv[1], 'rb').read(), bytearray(), 0
while off + 64 <= len(data):
    n, t = struct.unpack_from('<ih', data, off)
    if t != 19:
        out += data[off:off + 64 + n]
    off += 64 + n
open(sys.argv[2], 'wb').write(out)
EOF
kd old "$TMP/old.ktr" -yy
check old_kdump_clean t_kdump_ok old
check old_no_fd t_nogrep '	FD	' "$TMP/old.norm"
check old_numbers_alone t_eq "$(decos k "$TMP/old.norm" | wc -l)" 0
check old_calls_there t_num "$(grep -Ec '	CALL	(read|write)\([0-9]+,' "$TMP/old.norm")" -eq 7

# -G: a member of the group when its trace begins has its FD records too
CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
GRP=ktr-e2e-fd-$$
if [ -z "$CGM" ] || ! mkdir "$CGM/$GRP" 2>/dev/null; then
	skip group "no cgroup2 where a group can be made"
	exit 0
fi
start ga sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGM/$GRP"
check group_program_ready t_ne "${PID:-0}" 0
if [ -n "$PID" ]; then
	ktr g -f "$TMP/g.ktr" -G "/$GRP"
	check group_ktraceb_ran t_krc 0 g
	tkill -USR1 "$PID"
	for ((j = 0; j < 200; j++)); do
		alive "$PID" || break
		sleep 0.05
	done
	ktr gc -c -G "/$GRP"
	kd gy "$TMP/g.ktr" -y
	check group_kdump_clean t_kdump_ok gy
	check group_fd_records t_num \
		"$(awk -F'\t' '$1 == p && $4 == "FD"' p="$PID" "$TMP/gy.norm" | wc -l)" -ge 8
	proc_decos ga >"$TMP/gproc.decos"
	decos k "$TMP/gy.norm" | cut -d' ' -f2 | sort -u >"$TMP/gky.decos"
	check group_y_equals_proc diff -u "$TMP/gproc.decos" "$TMP/gky.decos"
fi
if [ -n "$PID" ] && alive "$PID"; then
	tkill "$PID"
	wait "$PID"
fi
rmdir "$CGM/$GRP"
