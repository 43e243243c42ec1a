#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump -y, -yy and -D against strace -y, -yy and -T.  tests/progs/fd_table
# (files opened, dup'ed every way, made close-on-exec, closed; a pipe, a UNIX
# socket pair, TCP and UDP over 127.0.0.1, an eventfd and a memfd; a child
# that inherits them and execs) runs once under `strace -f -yy` (and -y) and
# once under ktraceb -i.  Call by call, in each process, every descriptor
# kdump decorates must be decorated as strace decorates it, and every one
# strace decorates kdump must too, but for what the process had before its
# trace (descriptors 0 to 2, AT_FDCWD before the first chdir).  What the
# trace cannot say is compared as documented (kdump(1) -y): inode numbers
# (strace's pipe:[12345]) against kdump's own numbers (pipe:[#1]), one to
# one, and so the ports the kernel picked; symbolic links in kdump's paths
# resolved here; memfd names; and strace's own cache of a socket's addresses, which keeps a socket bound
# before it connects without its peer.  Then the durations (-D, -J, -Y): the 50 ms sleep takes 50 ms or more, and
# the calls come in the order of their lengths: 50 ms > 5 ms > getppid.
. "$(dirname "$0")/lib.sh"
need_tracer
if ! command -v strace >/dev/null 2>&1; then
	skip all "strace is not installed (scripts/install-deps.sh)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip all "python3 is not installed (scripts/install-deps.sh)"
	exit 0
fi

# run NAME CMD...: CMD DIR PORT with a fresh DIR and a free PORT (fd_table
# exits 3 when a port is taken: then another); status in RC
run()
{
	local name=$1 port i
	shift
	for ((i = 0; i < 10; i++)); do
		port=$((20000 + RANDOM % 30000))
		rm -rf "$TMP/$name.dir"
		mkdir -p "$TMP/$name.dir"
		"$@" "$TMP/$name.dir" "$port"
		RC=$?
		echo "$port" >"$TMP/$name.port"
		[ "$1" = ktr ] && RC=$KRC
		[ "$RC" -ne 3 ] && return
	done
}

FDT=$PROGS/fd_table
run strace timeout -k 5 "$KTR_TIMEOUT" strace -f -qq -yy -o "$TMP/yy.strace" "$FDT"
check strace_ran t_eq "$RC" 0
run y1 timeout -k 5 "$KTR_TIMEOUT" strace -f -qq -y -o "$TMP/y.strace" "$FDT"
check strace_y_ran t_eq "$RC" 0
run ktr ktr t -i -f "$TMP/t.ktr" "$FDT"
check ktraceb_ran t_krc 0 t
check no_loss t_grep ', 0 lost$' "$TMP/t.err"
kd yy "$TMP/t.ktr" -yy -s
check kdump_yy_clean t_kdump_ok yy
kd y "$TMP/t.ktr" -y -s
check kdump_y_clean t_kdump_ok y

# compare STRACE SRUN KDUMP KRUN: what differs, one line each, then "compared N"
# (SRUN and KRUN: the runs, whose directory and ports differ)
compare()
{
	python3 - "$@" <<'EOF'
import os, re, sys

# a descriptor as strace -y shows it: "3</etc/hostname>", "AT_FDCWD</tmp>",
# "5<TCP:[1.2.3.4:5->6.7.8.9:10]>" (a ">" after "-" is inside), "(deleted)" after
DECO = re.compile(r'(AT_FDCWD|-?\d+)<((?:[^<>]|(?<=-)>)*)>(\(deleted\))?')

def same_run(line, run):
    """the run's directory and ports (PORT to PORT + 3) as words"""
    base = int(open(run + '.port').read())
    line = line.replace(run + '.dir', 'DIR')
    return re.sub(r':(\d+)\b', lambda m: ':PORT+%d' % (int(m.group(1)) - base)
                  if 0 <= int(m.group(1)) - base < 4 else m.group(0), line)

def strace_calls(path, run):
    """per pid, in order: (name, [(fd, text)]) of each call"""
    procs, order, pending = {}, [], {}
    for line in open(path, errors='replace'):
        line = same_run(line, run)
        pid, _, rest = line.rstrip('\n').partition(' ')
        rest = rest.lstrip()
        if rest.startswith(('---', '+++')):
            continue
        if pid not in procs:
            procs[pid] = []
            order.append(pid)
        m = re.match(r'<\.\.\. (\w+) resumed>(.*)', rest)
        if m:
            name, text = m.group(1), pending.pop(pid, '') + m.group(2)
        else:
            name = re.match(r'(\w+)\(', rest).group(1)
            if rest.endswith('<unfinished ...>'):
                pending[pid] = rest
                continue
            text = rest
        procs[pid].append((name, [(d[0], d[1] + d[2]) for d in DECO.findall(text)]))
    return [procs[p] for p in order]

def kdump_calls(path, run):
    """the same from kdump's text: CALL, STRU and RET lines of each call"""
    procs, order = {}, []
    for line in open(path, errors='replace'):
        line = same_run(line, run)
        f = line.split(None, 3)
        if len(f) < 4 or ':' not in f[0] or f[2] not in ('CALL', 'RET', 'STRU'):
            continue
        pid, tag, body = f[0].split(':')[0], f[2], f[3].rstrip('\n')
        if tag == 'RET':  # "fcntl 25/0x19<...>": the value once
            body = re.sub(r'^(\S+ -?\d+)/0x[0-9a-f]+', r'\1', body)
        if pid not in procs:
            procs[pid] = []
            order.append(pid)
        calls = procs[pid]
        decos = [(d[0], d[1] + d[2]) for d in DECO.findall(body)]
        if tag == 'CALL':
            calls.append([re.match(r'(\w+)', body).group(1), decos, True])
        elif calls and calls[-1][2]:
            calls[-1][1].extend(decos)
            if tag == 'RET':
                calls[-1][2] = False
    return [[(c[0], c[1]) for c in procs[p]] for p in order]

ids = {}, {}  # strace's inode numbers <-> kdump's
ports = {}, {}  # the ports the kernel picked in strace's run <-> in ktraceb's

def ephemeral(s, k, why):
    """a socket's ports other than PORT..PORT+3, paired one to one"""
    sp, kp = re.findall(r':(\d+)\b', s), re.findall(r':(\d+)\b', k)
    if not re.match(r'(TCP|UDP)', s) or len(sp) != len(kp):
        return s, k
    for a, b in zip(sp, kp):
        if ports[0].setdefault(a, b) != b or ports[1].setdefault(b, a) != a:
            why.append('port %s and %s do not pair up one to one' % (a, b))
    return re.sub(r':\d+\b', ':EPH', s), re.sub(r':\d+\b', ':EPH', k)

def same(s, k, why):
    """strace's text s and kdump's k name the same thing"""
    s = re.sub(r'^/memfd:.*\(deleted\)$', '/memfd:?(deleted)', s)
    if k.startswith('/'):  # symbolic links: the trace does not hold them
        tail = '(deleted)' if k.endswith('(deleted)') else ''
        p = k[:len(k) - len(tail)]
        k = (os.path.realpath(p) if os.path.exists(p) else p) + tail
    s, k = ephemeral(s, k, why)
    sn, kn = re.findall(r'\d+', s), re.findall(r'#(\d+)', k)
    if kn and re.sub(r'\d+', 'N', s) == re.sub(r'#\d+', 'N', k):
        for a, b in zip(sn, kn):
            if ids[0].setdefault(a, b) != b or ids[1].setdefault(b, a) != a:
                why.append('inode %s and #%s do not pair up one to one' % (a, b))
                return False
        return True
    # strace keeps a socket's addresses from the first time it found them
    # (socketutils.c's cache): a socket bound before it connects stays
    # without its peer there, where the trace has it
    return s == k or (s.endswith(']') and s == re.sub(r'->[^\]]*\]$', ']', k))

st, kd = strace_calls(sys.argv[1], sys.argv[2]), kdump_calls(sys.argv[3], sys.argv[4])
bad, n = [], 0
if len(st) != len(kd):
    bad.append('%d processes in strace, %d in kdump' % (len(st), len(kd)))
for p, (sc, kc) in enumerate(zip(st, kd)):
    # kdump's calls of a process begin at its first CALL: a fork's child's
    # first RET has none; strace's first is the same call
    if len(sc) != len(kc) or [c[0] for c in sc] != [c[0] for c in kc]:
        bad.append('process %d: the calls differ: strace %d, kdump %d' % (p, len(sc), len(kc)))
        continue
    for i, ((name, sd), (_, kdd)) in enumerate(zip(sc, kc)):
        why, j = [], 0
        for fd, text in sd:
            n += 1
            if j < len(kdd) and kdd[j][0] == fd:
                if not same(text, kdd[j][1], why):
                    why.append('%s<%s> is %s<%s>' % (fd, text, fd, kdd[j][1]))
                j += 1
            elif fd not in ('0', '1', '2', 'AT_FDCWD') or (fd == 'AT_FDCWD' and
                                                      any(c[0] == 'chdir' for c in sc[:i])):
                why.append('%s<%s> is a number alone' % (fd, text))
        why += ['%s<%s> is not in strace' % d for d in kdd[j:]]
        if why:
            bad.append('process %d call %d %s: %s' % (p, i, name, '; '.join(why)))
for b in bad:
    print(b)
print('compared', n)
EOF
}

# t_same STRACE SDIR KDUMP WHAT: every descriptor alike, and at least 60 compared
t_same()
{
	local out n
	out=$(compare "$1" "$2" "$3" "$TMP/ktr")
	n=$(printf '%s\n' "$out" | sed -n 's/^compared //p')
	if [ "$(printf '%s\n' "$out" | grep -vc '^compared ')" -eq 0 ] && [ "${n:-0}" -ge 60 ]; then
		return 0
	fi
	echo "    $4: $n descriptors compared; what differs:" >&2
	printf '%s\n' "$out" | grep -v '^compared ' | head -n 20 | sed 's/^/      /' >&2
	return 1
}

check yy_as_strace t_same "$TMP/yy.strace" "$TMP/strace" "$TMP/yy.kd" "-yy"
check y_as_strace t_same "$TMP/y.strace" "$TMP/y1" "$TMP/y.kd" "-y"
# what the comparison stands on: the kinds of descriptor it met
for what in '</memfd:\?>\(deleted\)' '<pipe:\[#[0-9]+\]>' '<UNIX-STREAM:\[#[0-9]+->#[0-9]+\]>' \
	'<TCP:\[127\.0\.0\.1:[0-9]+->127\.0\.0\.1:[0-9]+\]>' '<UDP:\[127\.0\.0\.1:[0-9]+\]>' \
	'<anon_inode:\[eventfd\]>' 'AT_FDCWD</' 'fcntl 20(/0x14)?</'; do
	check "yy_has_$(echo "$what" | tr -cd 'a-zA-Z_')" t_grep "$what" "$TMP/yy.kd"
done
# the child's exec left only what was not close-on-exec
P=$(q "$TMP/yy.norm" '$4 == "RET" && $5 ~ /^execve 0/' | sed -n 2p | cut -f1)
check exec_kept t_eq "$(q "$TMP/yy.norm" '$1 == p && $4 == "CALL" && $5 ~ /^write\(/' p="${P:-none}" |
	tail -n 4 | cut -f5 | sed 's/,.*//' | tr '\n' ' ')" "write(40<$TMP/ktr.dir/a.txt> write(25<$TMP/ktr.dir/sub/c.txt> write(3 write(41 "

# -J: fd_path on the arguments and returns that are descriptors
kd j "$TMP/t.ktr" -J -yy
check json_clean t_kdump_ok j
check json_fd_path_ret t_eq "$(python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "RET" and r.get("syscall") == "dup3" and r.get("fd_path", "").endswith("/a.txt"):
        n += 1
print(n)' "$TMP/j.kd")" 1
check json_fd_path_arg t_num "$(grep -c '"name":"fd","value":"[0-9]*","raw":"0x[0-9a-f]*","fd_path":"TCP:\[127' "$TMP/j.kd")" -ge 4

# --- durations ---------------------------------------------------------------
kd d "$TMP/t.ktr" -D
check D_clean t_kdump_ok d
PM=$(q "$TMP/d.norm" '$4 == "RET" && $5 ~ /^execve 0/' | head -n 1 | cut -f1)
# the main process's last calls: the two sleeps and getppid, their times in us
times=$(q "$TMP/d.norm" '$1 == p && $4 == "RET" && $5 ~ /^(clock_nanosleep|nanosleep|getppid) /' \
	p="${PM:-none}" | cut -f5 | sed -n 's/^\([a-z_]*\) .* <\([0-9]*\)\.\([0-9]*\)>$/\1 \2\3/p' | tail -n 3)
read -r n50 t50 n5 t5 ng tg <<<"$(echo $times)"
check D_three_calls t_eq "$n50 $n5 $ng" "clock_nanosleep clock_nanosleep getppid"
check D_50ms_at_least t_num "$((10#${t50:-0}))" -ge 50000 "us of the 50 ms sleep"
check D_5ms_at_least t_num "$((10#${t5:-0}))" -ge 5000 "us of the 5 ms sleep"
check D_order_50_5 t_num "$((10#${t50:-0}))" -gt "$((10#${t5:-0}))"
check D_order_5_getppid t_num "$((10#${t5:-0}))" -gt "$((10#${tg:-0}))"
# but a fork child's first return, which has no CALL
check D_every_ret_timed t_eq "$(qn "$TMP/d.norm" '$4 == "RET" && $5 !~ / <[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]>$/ &&
	$5 !~ /^(clone|clone3|fork|vfork) 0$/')" 0
check J_duration_50ms t_eq "$(python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) for r in [json.loads(l)]
          if r.get("syscall") == "clock_nanosleep" and r.get("duration_ns", 0) >= 50000000))' "$TMP/j.kd")" 1
kd Y "$TMP/t.ktr" -Y
check Y_clean t_kdump_ok Y
check Y_max_50ms t_num "$(awk '$NF == "clock_nanosleep" { print $5 }' "$TMP/Y.kd")" -ge 50000 \
	"usecs/max of clock_nanosleep"
check Y_p99_le_max t_num "$(awk '$NF == "clock_nanosleep" { print $4 }' "$TMP/Y.kd")" -le \
	"$(awk '$NF == "clock_nanosleep" { print $5 }' "$TMP/Y.kd")"
# -Y -yy: a row by file or socket, the calls on each counted
kd Yy "$TMP/t.ktr" -Y -yy
check Yy_clean t_kdump_ok Yy
check Yy_header t_grep '^ +count +seconds +usecs/avg +usecs/max +errors file or socket \(-y\)$' \
	"$TMP/Yy.kd"
# fd 20 (F_DUPFD of sub/c.txt) had a write; c.txt's own: a write, two fcntl, a close
check Yy_c_txt t_num "$(awk '$NF ~ /\/ktr\.dir\/sub\/c\.txt$/ && NF >= 5 { print $1 }' "$TMP/Yy.kd")" -ge 5
check Yy_pipe t_eq "$(awk '$NF == "pipe:[#1]" { print $1 }' "$TMP/Yy.kd")" 4

e2e_done
