# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Rootless podman in tests/deb/containers.sh's guest, sourced by
# tests/deb/guest_containers.sh (its check and wait_for, its image
# $T/img.tar).  An ordinary user, with subordinate ids and a systemd user
# manager (loginctl enable-linger: the cgroup v2 tree below user@UID.service
# is delegated to him), runs podman himself: his container is traced by
# name (-G podman:NAME) before it starts, by his own ktraceb, served by
# root's daemon (kept up meanwhile by a trace of root's: under emulation,
# ktracebd.socket's daemon did not answer a first request within the
# client's 10 s), and cleared by name.  Another ordinary user is refused
# that container's group, by name, by path and to clear: one line of
# error, a non-zero exit.
# shellcheck shell=bash

RL_USER=ktrtest
RL_OTHER=ktrother

# as_user USER COMMAND...: COMMAND as USER in his home, with his systemd
# user manager's runtime folder and bus (podman's systemd cgroup manager),
# for 5 minutes at most
as_user()
{
	local u=$1 uid
	uid=$(id -u "$u")
	shift
	(cd "/home/$u" && timeout 300 runuser -u "$u" -- env HOME="/home/$u" USER="$u" LOGNAME="$u" \
		XDG_RUNTIME_DIR="/run/user/$uid" \
		DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@")
}

# one_line_refusal FILE RC: a non-zero exit that said one line of error
one_line_refusal()
{
	[ "$2" -ne 0 ] && [ "$(wc -l <"$1")" -eq 1 ]
}

rootless()
{
	local start=$SECONDS u uid rc cg keep
	NAME=web-rootless
	OUT=$T/rootless.out
	for u in $RL_USER $RL_OTHER; do
		id "$u" >/dev/null 2>&1 || useradd -m -s /bin/sh "$u"
	done
	uid=$(id -u $RL_USER)
	# the ids his user namespace maps, for newuidmap and newgidmap
	grep -q "^$RL_USER:" /etc/subuid || echo "$RL_USER:200000:65536" >>/etc/subuid
	grep -q "^$RL_USER:" /etc/subgid || echo "$RL_USER:200000:65536" >>/etc/subgid
	echo "vmtest: rootless: $(ls -l /usr/bin/newuidmap | cut -d' ' -f1) newuidmap," \
		"subuid $(grep "^$RL_USER:" /etc/subuid)"
	loginctl enable-linger $RL_USER
	check "rootless: $RL_USER's systemd user manager runs (enable-linger)" \
		wait_for 120 test -S "/run/user/$uid/bus"
	mkdir -p /home/$RL_USER/.config/containers
	printf '[storage]\ndriver = "vfs"\n' >/home/$RL_USER/.config/containers/storage.conf
	cp $T/img.tar /home/$RL_USER/img.tar
	chown -R $RL_USER: /home/$RL_USER

	# root's daemon, which serves every user, up while root traces a sleep
	sleep 1200 &
	keep=$!
	ktraceb -f $T/keep.ktr -p $keep 2>$T/keep.err
	check "rootless: root's daemon runs" eval 'grep -qx ktracebd /proc/[0-9]*/comm'

	as_user $RL_USER podman import img.tar ktr-img >$T/rootless.import 2>&1
	check "rootless: $RL_USER imports the image" \
		as_user $RL_USER podman image exists ktr-img
	as_user $RL_USER podman create --name $NAME --network none ktr-img \
		/bin/busybox httpd -f -p 127.0.0.1:8080 -h /www >$T/rootless.create 2>&1
	ID=$(as_user $RL_USER podman inspect --format '{{.Id}}' $NAME)
	check "rootless: $RL_USER traces his container by name before it starts" eval \
		"as_user $RL_USER ktraceb -f rootless.ktr -G podman:$NAME 2>$T/rootless.err &&
		grep -q 'not running: its group .*$ID.* is traced from when it starts' $T/rootless.err"
	sed 's/^/vmtest: rootless: /' $T/rootless.err
	as_user $RL_USER podman start $NAME >/dev/null 2>>$T/rootless.create
	check "rootless: its HTTP server answers on its loopback" wait_for 120 eval \
		"as_user $RL_USER podman exec $NAME /bin/busybox wget -q -O - \
		http://127.0.0.1:8080/index.html 2>/dev/null | grep -q ktraceb-page"
	# the group traced: the container's scope (crun runs it in a group
	# below, "container")
	cg=$(sed -n 's/.*not running: its group \(.*\) is traced from when it starts$/\1/p' \
		$T/rootless.err)
	echo "vmtest: rootless: its group $cg," \
		"$(cut -d: -f3 "/proc/$(as_user $RL_USER podman inspect --format '{{.State.Pid}}' $NAME)/cgroup")"
	check "rootless: its group is below $RL_USER's user@$uid.service" \
		eval "[[ '$cg' == /user.slice/user-$uid.slice/user@$uid.service/* ]]"

	as_user $RL_OTHER ktraceb -f other.ktr -G "$cg" 2>$T/other-path.err
	rc=$?
	sed 's/^/vmtest: rootless: other, by path: /' $T/other-path.err
	check "rootless: $RL_OTHER is refused its group by path (one line, exit $rc)" \
		one_line_refusal $T/other-path.err $rc
	as_user $RL_OTHER ktraceb -f other.ktr -G podman:$NAME 2>$T/other-name.err
	rc=$?
	sed 's/^/vmtest: rootless: other, by name: /' $T/other-name.err
	check "rootless: $RL_OTHER is refused it by name (one line, exit $rc)" \
		one_line_refusal $T/other-name.err $rc
	as_user $RL_OTHER ktraceb -c -G "$cg" 2>$T/other-clear.err
	rc=$?
	sed 's/^/vmtest: rootless: other, clear: /' $T/other-clear.err
	check "rootless: $RL_OTHER cannot clear it (one line, exit $rc)" \
		one_line_refusal $T/other-clear.err $rc

	check "rootless: $RL_USER clears it by name" \
		eval "as_user $RL_USER ktraceb -c -G podman:$NAME 2>>$T/rootless.err"
	as_user $RL_USER podman rm -f $NAME >/dev/null 2>&1
	cp /home/$RL_USER/rootless.ktr $T/rootless.ktr 2>/dev/null
	kdump -f $T/rootless.ktr >$OUT 2>$T/rootless.kderr
	# What the user's trace holds: the container's first process from its
	# exec of the entrypoint (it enters the group not dumpable, crun setting
	# up, and is counted "set-id or privileged" then; the exec makes it
	# dumpable and the group takes it), what "podman exec" starts there the
	# same way, and the processes forked there (httpd's child per
	# connection).  kdump says how many were left out when they came in.
	check "rootless: its first process is traced from its exec of the entrypoint" \
		grep -q 'CGRP  traced from its exec in "/' $OUT
	check "rootless: httpd's children are in the trace, forked in its group" \
		grep -q "CGRP  forked in \"/.*$ID" $OUT
	check "rootless: a request they served is in it" grep -q 'GET /index.html' $OUT
	check "rootless: kdump says the processes left out" \
		grep -Eq 'processes not traced: [0-9]+ set-id or privileged' $OUT
	check "rootless: kdump names the container: its runtime, name and id" \
		grep -q "CGRP  container podman $NAME $ID\$" $OUT
	check "rootless: the trace file is $RL_USER's" \
		eval "[ \"\$(stat -c %U /home/$RL_USER/rootless.ktr)\" = $RL_USER ]"
	grep -m 3 CGRP $OUT | sed 's/^/vmtest: rootless: /'
	kill $keep
	[ "$nfail" -eq 0 ] || tail -n 20 /run/ktraceb/*.log $T/rootless.kderr $T/keep.err 2>&1 |
		sed 's/^/vmtest: rootless: /'
	echo "vmtest: rootless: $((SECONDS - start)) s"
}
