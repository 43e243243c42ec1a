#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Runs in tests/deb/vm.sh's guest, a Debian 12 root with the packages
# installed, booted with systemd, as the service ktr-debtest.service: the
# socket-activated daemon (ktracebd.socket, ktracebd@<build>.service) used
# for real, each hardening setting read back from the running daemon, every
# facility traced through it, then "vmtest: exit N" and the guest's end.
exec >/dev/console 2>&1
. /usr/local/lib/ktr-debtest/lib.sh
set -u

ID=$(sed -n 's|^ListenSequentialPacket=/run/ktraceb/ktraceb-\(.*\)\.sock$|\1|p' \
	/lib/systemd/system/ktracebd.socket)
SVC=ktracebd@$ID.service
SOCK=/run/ktraceb/ktraceb-$ID.sock
USER_NAME=ktrtest
T=/root/ktr
mkdir -p $T
echo "vmtest: kernel $(uname -r), $(systemctl --version | head -n 1), build $ID"

as_user()
{
	setpriv --reuid=$USER_NAME --regid=$USER_NAME --init-groups "$@"
}
active()
{
	[ "$(systemctl is-active "$1")" = active ]
}
# the daemon exits a second after its last trace (slower under emulation)
idle()
{
	for _ in $(seq 100); do
		active "$SVC" || return 0
		sleep 0.2
	done
	return 1
}
traced()
{
	kdump -f "$1" >$T/kdump.out 2>&1 && grep -q 'RET   execve 0' $T/kdump.out &&
		grep -q 'EXIT  exited 0' $T/kdump.out
}
daemon_pid()
{
	systemctl show -p MainPID --value "$SVC"
}
field()
{
	sed -n "s/^$1:[[:space:]]*//p" $T/status
}
# The mount PATH is on as the daemon sees it (the last, longest mount point
# of its mountinfo that holds PATH): "ro|rw FSTYPE"
mnt()
{
	awk -v p="$1" '{
		mp = $5
		if (mp == p || mp == "/" || index(p, mp "/") == 1)
			if (length(mp) >= best) { best = length(mp); split($6, o, ","); fs = $(NF - 2); opt = o[1] }
	} END { print opt, fs }' $T/mountinfo
}
mnt_opt()
{
	mnt "$1" | cut -d' ' -f1
}
# a filtered system call kills the daemon (SIGSYS) in this test, not EPERM:
# none goes unseen
mkdir -p /run/systemd/system/ktracebd@.service.d
printf '[Service]\nSystemCallErrorNumber=\n' >/run/systemd/system/ktracebd@.service.d/test.conf
systemctl daemon-reload

# --- the socket ------------------------------------------------------------------------
check "ktracebd.socket is enabled and listening" \
	eval "[ \"\$(systemctl is-enabled ktracebd.socket)\" = enabled ] && active ktracebd.socket"
check "its socket is $SOCK, root's, mode 0666" \
	eval "[ \"\$(stat -c '%A %U' $SOCK)\" = 'srw-rw-rw- root' ]"
check "no daemon runs before the first request" eval "! active $SVC"

# --- socket activation -----------------------------------------------------------------
check "root: ktraceb -f t.out /bin/true && kdump -f t.out" \
	eval "ktraceb -f $T/t.out /bin/true 2>>$T/err && traced $T/t.out"
ktraceb -f $T/long.out sleep 10 2>>$T/err &
long=$!
sleep 1
pid=$(daemon_pid)
check "the daemon is $SVC, started by the socket (pid $pid)" \
	eval "[ \"$pid\" -gt 0 ] && [ \"\$(cat /proc/$pid/comm)\" = ktracebd ]"
# what the checks below read, taken while it runs (emulation is slow)
for f in status mountinfo limits; do cp /proc/"$pid"/$f $T/$f; done
for n in net ipc uts; do readlink /proc/"$pid"/ns/$n >$T/ns.$n; done
touch /tmp/ktr-seen /var/tmp/ktr-seen
find /proc/"$pid"/root/dev -type b >$T/blockdevs 2>&1
test -e /proc/$pid/root/tmp/ktr-seen && test -e /proc/$pid/root/var/tmp/ktr-seen &&
	test -d /proc/$pid/root/home/$USER_NAME && echo yes >$T/sees-users
# (an empty file of systemd's on tmpfs over each, not proc's)
[ "$(stat -f -c %T /proc/"$pid"/root/proc/kallsyms /proc/"$pid"/root/proc/kcore | sort -u)" = tmpfs ] &&
	echo yes >$T/no-kallsyms

# --- the hardening, read back from the running daemon ------------------------------------
# CAP_DAC_OVERRIDE 1, DAC_READ_SEARCH 2, KILL 5, SETGID 6, SETUID 7, SYS_PTRACE 19,
# SYS_ADMIN 21, PERFMON 38, BPF 39
want=$(printf '%016x' $(((1 << 1) | (1 << 2) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 19) |
	(1 << 21) | (1 << 38) | (1 << 39))))
check "CapabilityBoundingSet held (CapBnd $(field CapBnd))" \
	eval "[ \"$(field CapBnd)\" = $want ]"
check "NoNewPrivileges held" eval "[ \"$(field NoNewPrivs)\" = 1 ]"
check "SystemCallFilter and the other seccomp settings held ($(field Seccomp_filters) filters)" \
	eval "[ \"$(field Seccomp)\" = 2 ]"
check "UMask held (0077)" eval "[ \"$(field Umask)\" = 0077 ]"
check "LimitMEMLOCK held (unlimited)" grep -q '^Max locked memory *unlimited' $T/limits
check "PrivateNetwork held (a network namespace of its own)" \
	eval "[ \"\$(cat $T/ns.net)\" != \"\$(readlink /proc/1/ns/net)\" ]"
check "PrivateIPC held" eval "[ \"\$(cat $T/ns.ipc)\" != \"\$(readlink /proc/1/ns/ipc)\" ]"
check "ProtectHostname held" eval "[ \"\$(cat $T/ns.uts)\" != \"\$(readlink /proc/1/ns/uts)\" ]"
check "ProtectSystem=full held (/usr, /etc read-only)" \
	eval "[ \"\$(mnt_opt /usr)\" = ro ] && [ \"\$(mnt_opt /etc)\" = ro ]"
check "the kernel's tunables read-only (/sys, /proc/sys), bpffs writable (ReadWritePaths)" \
	eval "[ \"\$(mnt_opt /sys)\" = ro ] && [ \"\$(mnt_opt /proc/sys)\" = ro ] &&
		[ \"\$(mnt_opt /sys/fs/bpf)\" = rw ]"
check "ProtectControlGroups held (/sys/fs/cgroup read-only)" \
	eval "[ \"\$(mnt_opt /sys/fs/cgroup)\" = ro ]"
check "PrivateDevices held (/dev a tmpfs of its own, no block device)" \
	eval "[ \"\$(mnt /dev | cut -d' ' -f2)\" = tmpfs ] && [ ! -s $T/blockdevs ]"
check "/proc/kallsyms and /proc/kcore inaccessible" \
	test -e $T/no-kallsyms
check "/tmp, /var/tmp and /home are the users' (no PrivateTmp, no ProtectHome)" \
	test -e $T/sees-users
check "a trace under the hardened daemon ends whole" \
	eval "wait $long && traced $T/long.out"

# --- every facility, through it ------------------------------------------------------------
check "-i: the command's children, their paths (NAMI)" \
	eval "ktraceb -i -f $T/i.out sh -c 'cat /etc/hostname >/dev/null' 2>>$T/err &&
		kdump -f $T/i.out | grep -q 'NAMI  \"/etc/hostname\"'"
sleep 2 &
sl=$!
ktraceb -f $T/p.out -p $sl 2>>$T/err
wait $sl
for _ in $(seq 50); do grep -q 'EXIT' <(kdump -f $T/p.out 2>/dev/null) && break; sleep 0.2; done
check "-p: a running process, to its exit (the daemon finishes the file)" \
	eval "kdump -f $T/p.out | grep -q 'EXIT  exited 0'"
check "-t u: USDT probes (perf-event uprobes before 6.10: CAP_SYS_ADMIN)" \
	eval "ktraceb -t cu -e usdt:uevtest -f $T/u.out /usr/local/bin/uev_sdt 2 >/dev/null 2>>$T/err &&
		kdump -t u -f $T/u.out | grep -q 'uevtest:hit'"
check "-e sched:sched_process_exec: kernel tracepoints (tracefs read-only)" \
	eval "ktraceb -i -e sched:sched_process_exec -f $T/e.out sh -c /bin/true 2>>$T/err &&
		kdump -t k -f $T/e.out | grep -q 'TRACE  sched:sched_process_exec'"
check "a user traces their own command into /tmp through root's daemon" \
	eval "as_user ktraceb -f /tmp/u.out /bin/true 2>>$T/err && traced /tmp/u.out"
check "a user may not trace root's process (refused, and told why)" \
	eval "! as_user ktraceb -f /tmp/u1.out -p 1 2>$T/uerr && grep -q 'pid 1' $T/uerr"

# A recording (-R) outlives its daemon killed with -9: pinned in bpffs, and
# taken over by the next one, which reopens the file by path as its owner.
sleep 60 &
rec=$!
ktraceb -R 1m -p $rec -f /var/tmp/fl.ktr 2>>$T/err
sleep 0.5
systemctl kill -s KILL "$SVC"
idle
check "-R: a recording outlives the daemon killed -9, the next takes it over (-D)" \
	eval "ktraceb -D -f /var/tmp/fl.ktr 2>>$T/err && kdump -f /var/tmp/fl.ktr | grep -q RING"
ktraceb -c -p $rec 2>>$T/err
kill $rec

# Why PrivateTmp stays off: with it, a recording in /tmp cannot be taken over.
printf '[Service]\nPrivateTmp=yes\n' >/run/systemd/system/ktracebd@.service.d/privatetmp.conf
systemctl daemon-reload
idle
sleep 60 &
rec=$!
ktraceb -R 1m -p $rec -f /tmp/fl2.ktr 2>>$T/err
sleep 0.5
systemctl kill -s KILL "$SVC"
idle
ktraceb -D -f /tmp/fl2.ktr >$T/ptmp.out 2>&1
check "PrivateTmp=yes would lose a /tmp recording at a takeover (why the unit has none)" \
	eval "! kdump -f /tmp/fl2.ktr 2>/dev/null | grep -q RING &&
		journalctl -b -o cat | grep -q 'fl2.ktr.*dropped\|dropped: its file cannot be opened'"
journalctl -b -o cat | grep -m 2 'dropped\|cannot be opened' | sed 's/^/vmtest: with PrivateTmp: /'
ktraceb -c -p $rec 2>/dev/null
kill $rec
rm -f /run/systemd/system/ktracebd@.service.d/privatetmp.conf
systemctl daemon-reload

# --- a service by its unit name (ktraceb -G): systemd-run's, restarted while traced ---------
systemd-run --unit=ktr-svc --service-type=simple /bin/sh -c \
	'while :; do cat /etc/hostname >/dev/null; sleep 0.2; done' >/dev/null 2>>$T/err
sleep 0.5
ktraceb -t cn -f $T/svc.ktr -G ktr-svc.service 2>>$T/err
sleep 1
systemctl restart ktr-svc
sleep 1
ktraceb -c -G ktr-svc.service 2>>$T/err
systemctl stop ktr-svc
sleep 1.5
kdump -f $T/svc.ktr >$T/svc.out 2>>$T/err
svc_traced()
{
	grep -q 'CGRP  in "/system.slice/ktr-svc.service" when the trace began' $T/svc.out &&
		grep -q 'NAMI  "/etc/hostname"' $T/svc.out
}
# after the group is made again, a process enters it (systemd's new one) and reads the file
svc_restarted()
{
	awk '/CGRP  group made: "\/system.slice\/ktr-svc.service"/ { made = 1 }
		made && /CGRP  (moved into|forked in) "\/system.slice\/ktr-svc.service"/ { in_again = 1 }
		in_again && /NAMI  "\/etc\/hostname"/ { ok = 1 }
		END { exit !ok }' $T/svc.out
}
check "-G ktr-svc.service: systemd-run's service traced, found by its unit's name" svc_traced
check "-G: the service restarted is traced again (its group made again, its new process)" \
	svc_restarted
grep -m 4 CGRP $T/svc.out | sed 's/^/vmtest: /'

# --- the end ---------------------------------------------------------------------------------
check "the daemon exits when idle; the socket stays" eval "idle && active ktracebd.socket"
check "no system call was refused by the filter (no SIGSYS)" \
	eval "! journalctl -b -o cat | grep -q 'status=31/SYS'"
check "the next request starts it again" \
	eval "ktraceb -f $T/t2.out /bin/true 2>>$T/err && traced $T/t2.out"
systemd-analyze security --no-pager "$SVC" 2>/dev/null | tail -n 1 | sed 's/^/vmtest: /'
if [ "$nfail" -ne 0 ]; then
	sed 's/^/vmtest: err: /' $T/err
	journalctl -b -o cat -u 'ktracebd@*' | sed 's/^/vmtest: journal: /'
	grep -E ' / | /usr | /etc | /sys| /dev | /proc/sys ' $T/mountinfo 2>/dev/null |
		sed 's/^/vmtest: mountinfo: /'
fi
echo "vmtest: exit $([ "$nfail" -eq 0 ] && echo 0 || echo 1)"
sync
echo o >/proc/sysrq-trigger
