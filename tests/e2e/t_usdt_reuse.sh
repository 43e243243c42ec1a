#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A file found without USDT probes is not scanned again (usdt_quiet, kept
# for the build's next daemons too), but only while it is that file: a
# file rewritten in place, or a new file given the inode number of one
# that is gone (ext4 hands a freed number out again at once), has its
# probes armed, whether the program is traced from its exec (BPF checks
# the file's ctime) or attached to with -p (the daemon checks it): its
# semaphore raised, and its probe's USER records in the trace file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_usdt
for p in uev_sdt getppid_loop; do
	if [ ! -x "$PROGS/$p" ]; then
		fail build "$PROGS/$p not built (make O=$O test)"
		e2e_done
	fi
done
D=$TMP/files
mkdir -p "$D"

# root's daemon, kept up by a trace of a sleeper for the whole script
bg keep sleep 600
ktr keep -t c -f "$TMP/keep.ktr" -p "$BGPID"

# quiet NAME: a program without probes at $D/NAME, traced with -t u: its
# scan finds none, and its inode is marked as having none
quiet()
{
	cp "$PROGS/getppid_loop" "$D/$1"
	ktr "q_$1" -t u -f "$TMP/q_$1.ktr" "$D/$1" 10
	check "${1}_quiet_traced" t_krc 0 "q_$1"
}

# rewrite NAME: uev_sdt written over $D/NAME, in place (the same inode)
rewrite()
{
	local ino
	ino=$(stat -c %i "$D/$1")
	cp "$PROGS/uev_sdt" "$D/$1" # cp truncates and writes an existing file
	[ "$(stat -c %i "$D/$1")" = "$ino" ]
}

# reuse NAME: $D/NAME removed, then uev_sdt copied until a copy has its
# inode number (false if the filesystem gave none of 40 copies that number)
reuse()
{
	local ino i
	ino=$(stat -c %i "$D/$1")
	rm -f "$D/$1"
	for i in $(seq 40); do
		cp "$PROGS/uev_sdt" "$D/$1.new"
		if [ "$(stat -c %i "$D/$1.new")" = "$ino" ]; then
			mv "$D/$1.new" "$D/$1"
			return 0
		fi
		mv "$D/$1.new" "$D/$1.spare$i" # kept: its number is not the one freed
	done
	return 1
}

# from_exec NAME: $D/NAME traced from its exec: every semaphore read raised
from_exec()
{
	ktr "x_$1" -t u -e usdt:uevtest -f "$TMP/x_$1.ktr" "$D/$1" 3
	check "${1}_exec_traced" t_krc 0 "x_$1"
	check "${1}_exec_armed" t_eq "$(grep -c '^sem [0-9]* 1$' "$TMP/x_$1.out")" 3
	# ...and the guarded probe recorded at each of its 3 hits
	kd "x_$1" "$TMP/x_$1.ktr"
	check "${1}_exec_recorded" t_eq "$(qn "$TMP/x_$1.norm" '$4 == "USER" && $5 ~ /^uevtest:hit/')" 3
}

# attached NAME: $D/NAME started untraced, then attached to with -p: its
# semaphore raised after the attach
attached()
{
	local pid
	bg "a_$1" "$D/$1" 3000 20
	pid=$BGPID
	wait_line "$TMP/a_$1.pout" '^pid ' 10
	ktr "a_$1" -t u -e usdt:uevtest -f "$TMP/a_$1.ktr" -p "$pid"
	check "${1}_attach_traced" t_krc 0 "a_$1"
	if wait_line "$TMP/a_$1.pout" '^sem [0-9]+ 1$' 20; then
		pass "${1}_attach_armed"
	else
		fail "${1}_attach_armed" "no semaphore raised in 20 s after the attach"
	fi
	tkill "$pid" 2>/dev/null
	wait_exit "$pid" 10
	# the trace read once it has its END: the guarded probe recorded after the attach
	wait_kd "a_$1" "$TMP/a_$1.ktr" 1 '$4 == "END"'
	check "${1}_attach_recorded" t_num "$(qn "$TMP/a_$1.norm" '$4 == "USER" && $5 ~ /^uevtest:hit/')" -ge 1
}

quiet rw_exec
if rewrite rw_exec; then
	from_exec rw_exec
else
	fail rw_exec_rewritten "cp gave $D/rw_exec another inode"
fi
quiet rw_attach
if rewrite rw_attach; then
	attached rw_attach
else
	fail rw_attach_rewritten "cp gave $D/rw_attach another inode"
fi
quiet re_exec
if reuse re_exec; then
	from_exec re_exec
	quiet re_attach
	if reuse re_attach; then
		attached re_attach
	else
		skip re_attach "no inode number given twice"
	fi
else
	skip reuse "$(stat -f -c %T "$D"): no inode number given twice in 40 files"
fi
e2e_done
