#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Runs in tests/deb/containers.sh's guest (Debian 12 with podman and
# docker.io, booted with systemd: cgroup v2) as the service
# ktr-cttest.service.  For each runtime: an image imported from a tarball
# (busybox, no registry), a container made from it but not started, traced
# by name with a flight recorder (-R) before it starts, started: its first
# process and the entrypoint's execve are in the trace, its HTTP server on its
# own loopback answers (busybox httpd, asked through the runtime's exec), a
# process of it killed by SIGSEGV writes the recording, -c clears it by
# name.  Then an ordinary user's podman (guest_rootless.sh), and
# "vmtest: exit N" and the guest's end.
exec >/dev/console 2>&1
. /usr/local/lib/ktr-debtest/lib.sh
set -u

T=/root/ktr
mkdir -p $T
echo "vmtest: kernel $(uname -r), $(podman --version), $(docker --version | cut -d, -f1)"

# The runtimes' storage in memory, as plain copies (vfs): the guest's root
# is an overlay already, and the kernel refuses the runtimes' overlay
# checks there and on a tmpfs ("unable to create kernel-style whiteout");
# the image is small.
for d in /var/lib/containers /var/lib/docker; do
	mkdir -p $d && mount -t tmpfs -o size=768m tmpfs $d
done
mkdir -p /etc/containers /etc/docker
printf '[storage]\ndriver = "vfs"\nrunroot = "%s"\ngraphroot = "%s"\n' \
	/run/containers/storage /var/lib/containers/storage >/etc/containers/storage.conf
# docker without its bridge and NAT: the containers here have no network
# but their loopback, and the guest's root has no kernel modules to load
echo '{ "storage-driver": "vfs", "iptables": false, "bridge": "none" }' >/etc/docker/daemon.json

# The image: busybox, its applets, a page to serve.
mkdir -p $T/img/bin $T/img/www $T/img/tmp
cp /bin/busybox $T/img/bin/
ln -s busybox $T/img/bin/sh
echo ktraceb-page >$T/img/www/index.html
tar -C $T/img -cf $T/img.tar .

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS of
# the clock (a runtime's exec alone takes seconds under emulation)
wait_for()
{
	local end=$((SECONDS + $1))
	until "${@:2}"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}
served()
{
	timeout 60 $RT exec $NAME /bin/busybox wget -q -O - http://127.0.0.1:8080/index.html \
		2>/dev/null | grep -q ktraceb-page
}
dumped()
{
	[ -s $T/$RT.ktr ] && kdump -f $T/$RT.ktr >$T/$RT.out 2>$T/$RT.kderr &&
		grep -q 'PSIG  SIGSEGV' $T/$RT.out
}
# the first process moved into the container's group, as kdump names it
# in $OUT (the runtime's kdump output)
first_pid()
{
	awk '/CGRP  (moved into|forked in) "\/.*'"$ID"'/ { split($1, p, ":"); print p[1]; exit }' \
		"$OUT"
}
# the entrypoint's execve, by the first process or one it forked (the trace
# holds nothing else): crun execs it in the first process, runc's first
# process (runc init) forks twice and the last child execs it
entrypoint_exec()
{
	local p
	for p in $(grep -E '^ *[0-9]+:[0-9]+ .*NAMI  "/bin/busybox"' "$OUT" |
		awk '{ split($1, p, ":"); print p[1] }' | sort -u); do
		grep -Eq "^ *$p:[0-9]+ .*RET   execve 0" "$OUT" && return 0
	done
	return 1
}
# what the runtime said and says of its container, and the processes in
# its group with what they wait in, when it does not serve
diagnose()
{
	local g p
	{
		cat $T/$RT.run $T/$RT.create
		timeout 60 $RT ps -a
		timeout 60 $RT logs $NAME
		g=$(find /sys/fs/cgroup -type d -name "*$ID*" | head -n 1)
		echo "group ${g:-none}"
		for p in $(cat "$g/cgroup.procs" 2>/dev/null); do
			echo "$p $(cat /proc/"$p"/wchan) $(tr '\0' ' ' </proc/"$p"/cmdline)"
		done
		[ $RT = docker ] && journalctl -b -o cat -u docker.service -u containerd.service |
			grep -v 'Error setting up exec' | tail -n 20
	} 2>&1 | sed "s/^/vmtest: $RT: /"
}

runtime()
{
	RT=$1
	NAME=web-$RT
	OUT=$T/$RT.out
	local start=$SECONDS
	$RT import $T/img.tar ktr-img >$T/$RT.import 2>&1
	check "$RT: the image imported from a tarball" eval "$RT image exists ktr-img 2>/dev/null ||
		$RT image inspect ktr-img >/dev/null 2>&1"
	check "$RT: runs a container untraced" eval "timeout 180 $RT run --rm --network none \
		ktr-img /bin/busybox echo ran >$T/$RT.run 2>&1 && grep -q ran $T/$RT.run"
	$RT create --name $NAME --network none ktr-img \
		/bin/busybox httpd -f -p 127.0.0.1:8080 -h /www >$T/$RT.create 2>&1
	ID=$($RT inspect --format '{{.Id}}' $NAME)
	check "$RT: traced by name before it starts (-G $RT:$NAME, -R)" eval \
		"ktraceb -R 16m -f $T/$RT.ktr -G $RT:$NAME 2>$T/$RT.err &&
		grep -q 'not running: its group .*$ID.* is traced from when it starts' $T/$RT.err"
	sed 's/^/vmtest: /' $T/$RT.err
	check "$RT: its container starts traced" eval \
		"timeout 180 $RT start $NAME >/dev/null 2>>$T/$RT.create"
	check "$RT: its HTTP server answers on its loopback" wait_for 120 served || diagnose
	timeout 60 $RT exec $NAME /bin/sh -c '/bin/busybox sleep 1000 & /bin/busybox kill -SEGV $!; wait' \
		>/dev/null 2>&1
	check "$RT: a process killed by SIGSEGV writes the recording" wait_for 60 dumped
	check "$RT: the trace begins with the container's first process, in its group" \
		eval '[ -n "$(first_pid)" ]'
	check "$RT: the entrypoint's execve is in it" entrypoint_exec
	check "$RT: kdump names the container: its runtime, name and id" \
		grep -q "CGRP  container $RT $NAME $ID\$" $T/$RT.out
	check "$RT: cleared by name (-c -G $RT:$NAME)" \
		eval "ktraceb -c -G $RT:$NAME 2>>$T/$RT.err"
	grep -m 3 CGRP $T/$RT.out | sed 's/^/vmtest: /'
	echo "vmtest: $RT: $((SECONDS - start)) s"
	timeout 120 $RT rm -f $NAME >/dev/null 2>&1
}

runtime podman
wait_for 180 eval 'systemctl start docker 2>/dev/null && docker info >/dev/null 2>&1'
check "docker: its daemon runs" eval 'docker info >/dev/null 2>&1'
docker info >/dev/null 2>&1 ||
	journalctl -b -o cat -u docker.service | tail -n 20 | sed 's/^/vmtest: docker: /'
runtime docker
# an ordinary user's podman (tests/deb/guest_rootless.sh)
. /usr/local/lib/ktr-debtest/guest_rootless.sh
rootless

B=/usr/local/lib/ktr-debtest
if [ -x $B/container.sh ]; then
	for rt in podman docker; do
		BENCH_REQ=500 KTRACEB=/usr/local/bin/ktraceb HTTP_LOAD=$B/http_load \
			timeout 900 $B/container.sh $rt 2>&1 |
			sed 's/^/vmtest: bench: /'
	done
fi
if [ "$nfail" -ne 0 ]; then
	for f in $T/*.err $T/*.create $T/*.import $T/*.kderr; do
		sed "s|^|vmtest: $(basename "$f"): |" "$f"
	done
	for f in $T/*.out; do
		head -n 40 "$f" | sed "s|^|vmtest: $(basename "$f"): |"
	done
fi
echo "vmtest: exit $([ "$nfail" -eq 0 ] && echo 0 || echo 1)"
sync
echo o >/proc/sysrq-trigger
