# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What tests/vm/run.sh --arch arm64 does differently (run.sh sources this
# file): the tracer and the programs it traces are the cross-built ones in
# $O (make ARCH=arm64), the initramfs's busybox is Debian's arm64 static one
# (downloaded and extracted, never installed), the machine is qemu's virt,
# and the guest runs tests/vm/arm64-guest.sh with that busybox.

# What the smoke test runs, relative to $O.
ARM64_BINS="ktraceb kdump tests/progs/forkexec tests/progs/fac_sig tests/progs/tp_events
tests/progs/uev_sdt"

# elf_machine FILE: its ELF e_machine (183 EM_AARCH64, 62 EM_X86_64)
elf_machine()
{
	od -An -j18 -N2 -tu2 "$1" 2>/dev/null | tr -d ' '
}

arm64_check_build()
{
	local b missing=
	for b in $ARM64_BINS; do
		[ -x "$O/$b" ] && [ "$(elf_machine "$O/$b")" = 183 ] || missing="$missing $O/$b"
	done
	[ -z "$missing" ] || die "not built for arm64:$missing
vmtest: make ARCH=arm64 O=$O all $(printf "$O/%s " $ARM64_BINS | sed "s|$O/ktraceb $O/kdump ||")"
	for b in /lib/ld-linux-aarch64.so.1 /usr/lib/aarch64-linux-gnu/libbpf.so.1; do
		[ -e "$b" ] || die "$b missing: the guest runs this machine's arm64 libraries (scripts/install-deps.sh --cross)"
	done
}

# Sets BUSYBOX to busybox-static:arm64's busybox, downloaded once into $CACHE
# (the binary alone: the package's *.d directories would be make's -include).
arm64_busybox()
{
	local bin=$CACHE/busybox-arm64 deb
	if [ ! -x "$bin" ]; then
		mkdir -p "$CACHE/debs"
		deb=$(ls "$CACHE"/debs/busybox-static_*_arm64.deb 2>/dev/null | head -n 1 || true)
		if [ -z "$deb" ]; then
			echo "vmtest: downloading busybox-static:arm64" >&2
			(cd "$CACHE/debs" && apt-get download -q busybox-static:arm64 >&2 2>/dev/null) ||
				die "cannot download busybox-static:arm64 (dpkg --add-architecture arm64, apt-get update)"
			deb=$(ls "$CACHE"/debs/busybox-static_*_arm64.deb | head -n 1)
		fi
		rm -rf "$bin.tmp"
		mkdir "$bin.tmp"
		dpkg-deb -x "$deb" "$bin.tmp"
		mv "$bin.tmp/bin/busybox" "$bin"
		rm -rf "$bin.tmp"
	fi
	BUSYBOX=$bin
	[ "$(elf_machine "$BUSYBOX")" = 183 ] || die "$BUSYBOX is not an arm64 program"
}

# Sets MACHINE and CONSOLE: qemu's virt board, its PL011 serial port.
# pauth-impdef: qemu's own pointer authentication hash instead of the
# architected QARMA5, which is slow under emulation (qemu's arm cpu-features
# documentation); the kernel and glibc use pointer authentication either way.
# shellcheck disable=SC2034,SC2054 # run.sh's; a comma in a qemu option
arm64_machine()
{
	MACHINE=(-machine virt -cpu max,pauth-impdef=on)
	CONSOLE=ttyAMA0
}

# The guest's command, run by init's busybox in the new root.
arm64_guest_cmd()
{
	printf '%q ' /ktr-vm/busybox sh "$REPO/tests/vm/arm64-guest.sh" "$REPO" "$O" "$TIMEOUT" "$@"
}
