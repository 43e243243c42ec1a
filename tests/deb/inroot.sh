# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# tests/deb/run.sh's tests, sourced by it in the mount namespace it made:
# the fresh root $ROOT is mounted, the packages installed, used, upgraded
# and purged there.  Every step is a PASS: or FAIL: line.
# shellcheck shell=bash

ROOT=$(realpath "$ROOT")
ARCH=$(dpkg --print-architecture)
mount -t proc proc "$ROOT/proc" || die "cannot mount /proc"
mount -t sysfs sysfs "$ROOT/sys" || die "cannot mount /sys"
# a bpffs instance of the root's own: no other ktraceb's pins are seen there
mount -t bpf bpf "$ROOT/sys/fs/bpf" || die "cannot mount bpffs"
mount -t tracefs tracefs "$ROOT/sys/kernel/tracing" 2>/dev/null
mount --rbind /dev "$ROOT/dev" || die "cannot bind /dev"
mount -t tmpfs tmpfs "$ROOT/run" || die "cannot mount /run"

# in the root, as root
in_root()
{
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
# in the root, in a network namespace of its own: a user's daemon's
# abstract socket meets no other ktraceb's on this machine
in_root_nonet()
{
	unshare --net chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 "$@"
}
as_user()
{
	unshare --net chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/$USER_NAME \
		LANG=C.UTF-8 setpriv --reuid=$USER_NAME --regid=$USER_NAME --init-groups "$@"
}
# Recommends are left out: what they bring (python3's ca-certificates) is
# not ours, and autoremove would leave some of it
apt_in_root()
{
	in_root apt-get -q -y -o Dpkg::Use-Pty=0 --no-install-recommends "$@" >>"$CACHE/apt.log" 2>&1
}
# the same in a network namespace of its own, for what needs no download:
# the maintainer scripts then see only this root's daemons' sockets in
# /proc/net/unix, not those of a build with the same id on this machine
apt_in_root_nonet()
{
	in_root_nonet DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 \
		--no-install-recommends "$@" \
		>>"$CACHE/apt.log" 2>&1
}
# the ktraceb daemons whose root is this one (pid uid per line)
root_daemons()
{
	local p
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = ktracebd ] || continue
		[ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] || continue
		echo "${p#/proc/} $(stat -c %u "$p")"
	done
}
# a daemon exits a second after its last trace
no_daemon()
{
	for _ in $(seq 50); do
		[ -z "$(root_daemons)" ] && return 0
		sleep 0.2
	done
	return 1
}
# FILE's kdump shows the traced command's exec and its exit
traced()
{
	in_root kdump -f "$1" >"$CACHE/kdump.out" 2>&1 &&
		grep -q 'RET   execve 0' "$CACHE/kdump.out" && grep -q 'EXIT  exited 0' "$CACHE/kdump.out"
}
snapshot()
{
	find "$ROOT" -xdev -mindepth 1 \( -path "$ROOT/var/lib/dpkg" -o -path "$ROOT/var/lib/apt" \
		-o -path "$ROOT/var/cache" -o -path "$ROOT/var/log" -o -path "$ROOT/debs" \
		-o -path "$ROOT/tmp" \) -prune -o -printf '%P\n' | sort
}

: >"$CACHE/apt.log"
apt_in_root update || die "apt-get update in the root failed: $CACHE/apt.log"
in_root useradd -m -s /bin/sh $USER_NAME || die "useradd failed"
snapshot >"$CACHE/before.list"

# --- the reader alone -------------------------------------------------------------
check "ktraceb-kdump $OLDVER installs alone" apt_in_root install /debs/old/ktraceb-kdump_"$OLDVER"_$ARCH.deb
check "ktraceb-kdump brings none of the tracer's libraries (libbpf1)" \
	eval "! in_root dpkg-query -W -f='\${Status}' libbpf1 2>/dev/null | grep -q 'ok installed'"
check "kdump alone reads a trace made elsewhere (OpenBSD's)" \
	eval "in_root kdump -f /debs/bsd.ktrace.out >'$CACHE/kdump.out' && grep -q 'OpenBSD trace' '$CACHE/kdump.out'"

# --- the tracer, an older build ----------------------------------------------------
check "ktraceb and ktraceb-dev $OLDVER install" \
	apt_in_root install /debs/old/ktraceb_"$OLDVER"_$ARCH.deb /debs/old/ktraceb-dev_"$OLDVER"_all.deb
check "the socket unit is enabled (sockets.target wants it)" \
	test -L "$ROOT/etc/systemd/system/sockets.target.wants/ktracebd.socket"
check "ktraceb-dev: <ktraceb/utrace.h> and the <sys/sdt.h> it includes" \
	test -f "$ROOT/usr/include/ktraceb/utrace.h" -a -f "$ROOT/usr/include/x86_64-linux-gnu/sys/sdt.h" -o \
	-f "$ROOT/usr/include/ktraceb/utrace.h" -a -f "$ROOT/usr/include/sys/sdt.h"
check "root: ktraceb -f t.out /bin/true && kdump -f t.out ($OLDVER)" \
	eval "in_root_nonet ktraceb -f /root/t.out /bin/true 2>>'$CACHE/ktraceb.err' && traced /root/t.out"

# A trace that the old build's daemon writes while the package is upgraded.
in_root_nonet ktraceb -i -f /root/across.out sh -c 'sleep 3; cat /etc/hostname' \
	>/dev/null 2>>"$CACHE/ktraceb.err" &
across=$!
sleep 0.5

# --- the upgrade -------------------------------------------------------------------
check "upgrade to $VERSION (ktraceb, ktraceb-kdump, ktraceb-dev)" \
	apt_in_root install /debs/new/ktraceb_"$VERSION"_$ARCH.deb /debs/new/ktraceb-kdump_"$VERSION"_$ARCH.deb \
	/debs/new/ktraceb-dev_"$VERSION"_all.deb
check "ktraceb $VERSION is installed" \
	eval "[ \"\$(in_root dpkg-query -W -f='\${Version}' ktraceb)\" = '$VERSION' ]"
check "the trace the old build's daemon writes goes on through the upgrade" \
	eval "wait $across && traced /root/across.out && grep -q 'NAMI  \"/etc/hostname\"' '$CACHE/kdump.out'"
check "root: ktraceb -f t.out /bin/true && kdump -f t.out ($VERSION)" \
	eval "in_root_nonet ktraceb -f /root/t.out /bin/true 2>>'$CACHE/ktraceb.err' && traced /root/t.out"
check "the new build's daemon listens on its own socket (ktraceb-$NEW_ID.sock)" \
	test -S "$ROOT/run/ktraceb/ktraceb-$NEW_ID.sock"

# --- users ---------------------------------------------------------------------------
check "no daemon runs a second after the last trace" no_daemon
check "by default ktraceb has no file capabilities" \
	eval "[ -z \"\$(in_root getcap /usr/bin/ktraceb)\" ]"
as_user ktraceb -f /home/$USER_NAME/t.out /bin/true >/dev/null 2>"$CACHE/user.err"
rc=$?
check "a user, no root daemon, no capabilities: refused, and told why (exit $rc)" \
	eval "[ $rc -ne 0 ] && grep -q 'CAP_BPF' '$CACHE/user.err'"
in_root_nonet ktraceb -f /root/keep.out sleep 3 2>>"$CACHE/ktraceb.err" &
keep=$!
sleep 0.5
check "a user traces their own command through root's daemon" \
	eval "as_user ktraceb -f /home/$USER_NAME/t.out /bin/true 2>>'$CACHE/ktraceb.err' &&
		traced /home/$USER_NAME/t.out"
wait $keep

echo "ktraceb ktraceb/setcap boolean true" | in_root debconf-set-selections
in_root dpkg-reconfigure ktraceb >>"$CACHE/apt.log" 2>&1
check "debconf ktraceb/setcap true: ktraceb gets cap_bpf,cap_perfmon=ep" \
	eval "in_root getcap /usr/bin/ktraceb | grep -q 'cap_perfmon,cap_bpf=ep\|cap_bpf,cap_perfmon=ep'"
check "no daemon runs a second after the last trace" no_daemon
check "a user with the capabilities: ktraceb -f t.out /bin/true && kdump -f t.out" \
	eval "as_user ktraceb -f /home/$USER_NAME/t.out /bin/true 2>>'$CACHE/ktraceb.err' &&
		traced /home/$USER_NAME/t.out"
check "... served by a daemon of the user's own" \
	eval "root_daemons | grep -q \" \$(in_root id -u $USER_NAME)\$\""
check "reinstalling (an upgrade's new binary) keeps the capabilities" \
	eval "apt_in_root install --reinstall /debs/new/ktraceb_${VERSION}_$ARCH.deb &&
		in_root getcap /usr/bin/ktraceb | grep -q cap_bpf"

# --- the units --------------------------------------------------------------------------
	check "systemd-analyze verify ktracebd.socket ktracebd@$NEW_ID.service (Debian 12's systemd)" \
		eval "in_root systemd-analyze verify --man=no ktracebd.socket \
			ktracebd@$NEW_ID.service >'$CACHE/verify.out' 2>&1 && ! grep -q . '$CACHE/verify.out'"
	check "the socket unit names the packaged binary's socket" \
		grep -q "^ListenSequentialPacket=/run/ktraceb/ktraceb-$NEW_ID.sock\$" \
		"$ROOT/lib/systemd/system/ktracebd.socket"

# --- purge ---------------------------------------------------------------------------------
no_daemon
rm -f "$ROOT"/root/*.out "$ROOT"/home/$USER_NAME/*.out
check "purge ktraceb ktraceb-kdump ktraceb-dev, and what they pulled in" \
	eval "apt_in_root_nonet purge ktraceb ktraceb-kdump ktraceb-dev &&
		apt_in_root_nonet autoremove --purge"
snapshot >"$CACHE/after.list"
diff "$CACHE/before.list" "$CACHE/after.list" >"$CACHE/left.diff"
check "nothing is left in the root (files as before the install)" eval "! grep -q . '$CACHE/left.diff'"
check "nothing is left in /run (no /run/ktraceb)" test ! -e "$ROOT/run/ktraceb"
# (a new bpffs has the kernel's own maps.debug and progs.debug)
check "nothing is left in bpffs (no /sys/fs/bpf/ktraceb)" test ! -e "$ROOT/sys/fs/bpf/ktraceb" ||
	find "$ROOT/sys/fs/bpf" | sed 's/^/deb-test: left: /' >&2
check "nothing is left in debconf's database" \
	eval "! grep -rq ktraceb '$ROOT/var/cache/debconf/config.dat' '$ROOT/var/cache/debconf/templates.dat'"
check "no daemon is left" eval "[ -z \"\$(root_daemons)\" ]"
[ -s "$CACHE/left.diff" ] && sed 's/^/deb-test: left: /' "$CACHE/left.diff" >&2

umount -R "$ROOT/dev" "$ROOT/run" "$ROOT/sys/kernel/tracing" "$ROOT/sys/fs/bpf" "$ROOT/sys" \
	"$ROOT/proc" 2>/dev/null
[ "${KTR_KEEP:-}" = 1 ] || rm -rf "$ROOT"
summary
