#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb -G on a real container: systemd-nspawn (Debian's systemd-container)
# runs a Debian root built with debootstrap by make test-fixtures
# (tests/fixtures.sh, outside this script's time limit; once, kept in
# $KTR_CONTAINER_ROOT, default /var/cache/ktraceb-test/bookworm; the test is
# skipped, with the reason, if it is not there).  Without systemd as
# PID 1 nspawn cannot ask machined for a scope, so it runs in a group the
# test makes and names as machined would (machine-NAME.scope), which the
# trace follows: the runtime itself, the sub-groups it makes (payload,
# supervisor), and every process of the container, its pid 1 included, with
# the ids its pid namespace gives them (kdump -N) and the container's name.
. "$(dirname "$0")/lib.sh"
need_tracer

ROOT=${KTR_CONTAINER_ROOT:-/var/cache/ktraceb-test/bookworm}
if ! command -v systemd-nspawn >/dev/null; then
	skip all "no systemd-nspawn (systemd-container: scripts/install-deps.sh)"
	e2e_done
fi
if [ ! -x "$ROOT/bin/sh" ]; then
	why=$(head -n 1 "$ROOT.why" 2>/dev/null)
	skip all "no container root at $ROOT (make test-fixtures builds it${why:+; it said: $why})"
	e2e_done
fi
CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
MOUNTED=
# a machine with no cgroup file system at all (a test VM's bare init): cgroup2 where
# nspawn looks for the host's
if [ -z "$CGM" ] && ! mountpoint -q /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup; then
	CGM=/sys/fs/cgroup
	MOUNTED=$CGM
fi
if [ -z "$CGM" ]; then
	skip all "no cgroup2 hierarchy mounted (systemd-nspawn needs the host's)"
	e2e_done
fi
BOX=ktrbox$$
G=$CGM/ktr-e2e-$$/machine-$BOX.scope
mkdir -p "$G" || {
	fail setup "cannot make $G"
	e2e_done
}
ct_cleanup()
{
	local d p
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	sleep 0.5
	for d in $(find "$CGM/ktr-e2e-$$" -depth -type d 2>/dev/null); do
		# the group's own processes (the container's, which left the test's
		# session): signalled by the pids the test's own group lists
		while read -r p; do
			[ "${p:-0}" -gt 1 ] && kill -KILL "$p" 2>/dev/null
		done <"$d/cgroup.procs"
	done
	sleep 0.3
	for d in $(find "$CGM/ktr-e2e-$$" -depth -type d 2>/dev/null); do
		rmdir "$d" 2>/dev/null
	done
	[ -n "$MOUNTED" ] && umount "$MOUNTED"
	e2e_cleanup
}
trap ct_cleanup EXIT

ktr set -t cn -f "$TMP/c.ktr" -G "$G"
check set_exit_0 t_krc 0 set
# the runtime moves itself into the group, then starts the container
timeout 120 sh -c 'echo $$ >"$0/cgroup.procs" && exec systemd-nspawn -q --register=no \
	--keep-unit -D "$1" /bin/sh -c "cat /etc/debian_version; exec sleep 0.3"' "$G" "$ROOT" \
	>"$TMP/nspawn.out" 2>"$TMP/nspawn.err"
NRC=$?
check nspawn_ran t_eq "$NRC $(head -c 2 "$TMP/nspawn.out")" "0 12"
sleep 0.3
ktr clear -c -G "$G"
check clear_exit_0 t_krc 0 clear
kd c "$TMP/c.ktr"
kd cN "$TMP/c.ktr" -N
check kdump_clean t_kdump_ok c
check runtime_moved_in t_num "$(qn "$TMP/c.norm" '$4 == "CGRP" && $5 ~ /^moved into ".*machine-'"$BOX"'\.scope", container machine '"$BOX"'$/')" -ge 1
check runtime_execs_nspawn t_num "$(qn "$TMP/c.norm" '$4 == "NAMI" && $5 ~ /systemd-nspawn"$/')" -ge 1
check runtime_subgroups_made t_num "$(qn "$TMP/c.norm" '$4 == "CGRP" && $5 ~ /^group made: ".*machine-'"$BOX"'\.scope\/(payload|supervisor)"/')" -ge 1
check container_file_read t_num "$(qn "$TMP/c.norm" '$4 == "NAMI" && $5 == "\"/etc/debian_version\""')" -ge 1
CAT=$(q "$TMP/c.norm" '$4 == "NAMI" && $5 == "\"/etc/debian_version\"" { print $1; exit }')
check container_process_in_pidns t_num "$(qn "$TMP/c.norm" '$1 == p && $4 == "CGRP" && $5 ~ /, pid [0-9]+ tid [0-9]+ in pid namespace [0-9]+$/' p="$CAT")" -eq 1
check container_pid1_said t_num "$(qn "$TMP/c.norm" '$4 == "CGRP" && $5 ~ /pid 1 tid 1 in pid namespace/')" -ge 1
check kdump_N_container_pid1 t_num "$(qn "$TMP/cN.norm" '$1 == 1 && $4 == "NAMI" && $5 ~ /sleep"$/')" -ge 1
check kdump_N_cat_not_host t_ne "$(q "$TMP/cN.norm" '$4 == "NAMI" && $5 == "\"/etc/debian_version\"" { print $1; exit }')" "$CAT"
e2e_done
