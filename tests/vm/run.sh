#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The kernel matrix: boots a Debian kernel package under qemu (software
# emulation, no KVM needed) with this machine's root shared read-only into
# the guest under a tmpfs overlay, runs the end-to-end tests there against
# that kernel, and prints the test runner's lines and summary.
#
#   O=build tests/vm/run.sh KERNEL [PATTERN ...]
#   O=build tests/vm/run.sh KERNEL -c COMMAND    (its output, for a look by hand)
#   tests/vm/run.sh --arch arm64 KERNEL [SECTION ... | -c COMMAND]
#
# KERNEL: 6.1 (Debian 12's default kernel), 6.12 (bookworm's 6.12), 5.10
# (Debian 11's default kernel, from bullseye: the oldest the README names),
# a package name (linux-image-6.1.0-56-amd64) or a .deb file.  PATTERNs select
# tests as tests/run.sh does (default: $KTR_VM_TESTS).  The package and the
# initramfs are kept in $KTR_VM_CACHE (default $O/vm).  Needs qemu-system-x86
# and busybox-static (scripts/install-deps.sh --vm).
#
# --arch arm64 (or KTR_VM_ARCH=arm64) boots Debian's arm64 kernel under
# qemu-system-aarch64 instead and runs the cross-built tracer there (O
# defaults to build-arm64: make ARCH=arm64).  This machine's root is shared
# the same way (its arm64 libraries are there through multiarch), but its
# shell and tools are x86_64: the guest brings an arm64 static busybox
# (downloaded, not installed) and runs tests/vm/arm64-smoke.sh with it, not
# tests/run.sh; SECTIONs select its parts.  Needs qemu-system-arm.
#
# KTR_VM_ROOT=DIR shares DIR as the guest's root instead of this machine's,
# and KTR_VM_INIT=COMMAND is what the guest runs there instead of guest.sh
# (tests/deb/vm.sh: a Debian 12 root with the packages, COMMAND its systemd);
# its console must end with "vmtest: exit N" too.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
ARCH=${KTR_VM_ARCH:-x86}
if [ "${1:-}" = --arch ] && [ $# -ge 2 ]; then
	ARCH=$2
	shift 2
fi
case $ARCH in
x86 | x86_64 | amd64) ARCH=x86 ;;
arm64 | aarch64) ARCH=arm64 ;;
*)
	echo "vmtest: unknown arch '$ARCH': x86 or arm64" >&2
	echo "0 passed, 1 failed"
	exit 1
	;;
esac
if [ $ARCH = arm64 ]; then
	O=${O:-build-arm64}
else
	O=${O:-build}
fi
case $O in
/*) ;;
*) O=$REPO/$O ;;
esac
CACHE=${KTR_VM_CACHE:-$O/vm}
# Per test script, under emulation (ten times or more slower than here).
TIMEOUT=${KTR_VM_TIMEOUT:-900}
MEM=${KTR_VM_MEM:-3G}
CPUS=${KTR_VM_CPUS:-2}
# The tests that load and run every program and facility: syscalls and
# their arguments (sys_enter/sys_exit), paths and I/O data, structures,
# fork/exec/exit and inheritance, signals, context switches, USDT and
# spans, kernel tracepoints and system-wide mode, the flight recorder, the
# stages (records gathered per CPU, kept CALLs), attaching to running
# processes, syscall selections and user stacks (walked, and unwound from
# their copies), the programs kept between daemons, and traced cgroups
# (-G: about 2 minutes under emulation).
DEFAULT_TESTS="t_syscalls t_stage t_genio t_struct t_fork t_inherit t_psig t_csw t_user t_usdt_hostile t_usdt_reuse t_tracepoints t_syswide t_flight t_attach t_kernel t_select t_stack t_unwind t_progcache t_cgroup"
read -r -a DEFAULT <<<"${KTR_VM_TESTS:-$DEFAULT_TESTS}"

die()
{
	echo "vmtest: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

[ $# -ge 1 ] || die "usage: tests/vm/run.sh [--arch x86|arm64] KERNEL [PATTERN ...]"
KERNEL=$1
shift
[ $# -gt 0 ] || [ $ARCH = arm64 ] || set -- "${DEFAULT[@]}"
SHOW='^(PASS|FAIL|SKIP|vmtest): '
[ "${1:-}" = -c ] && SHOW=.
[ "$(id -u)" -eq 0 ] || die "needs root (the guest shares this machine's root)"
QEMU=qemu-system-x86_64
[ $ARCH = arm64 ] && QEMU=qemu-system-aarch64
for t in $QEMU busybox dpkg-deb objcopy; do
	command -v "$t" >/dev/null || die "$t missing: scripts/install-deps.sh --vm"
done
if [ $ARCH = arm64 ]; then
	. "$REPO/tests/vm/arm64.sh"
	arm64_check_build
else
	[ -x "$O/ktraceb" ] || die "$O/ktraceb not built: make test first"
fi

# --- the kernel package ---------------------------------------------------
# 6.1 and 6.12 name what Debian 12 installs: the meta package's dependency.
# 5.10 names what Debian 11 installs, asked of bullseye's package lists
# through an apt configuration of our own in the cache (the system's
# sources and lists are left alone).
APT=()
bullseye_apt()
{
	local arch=amd64 key=/usr/share/keyrings/debian-archive-keyring.gpg dir
	[ $ARCH = arm64 ] && arch=arm64
	dir=$CACHE/apt-bullseye-$arch
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	cat >"$dir/sources.list" <<-EOF
		deb [signed-by=$key] http://deb.debian.org/debian bullseye main
		deb [signed-by=$key] http://deb.debian.org/debian-security bullseye-security main
	EOF
	APT=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
		-o APT::Architecture=$arch -o APT::Architectures::=$arch)
	# read again once a day (the security suite replaces its kernels);
	# lists of an earlier day do if the archive cannot be reached
	if [ -z "$(find "$dir/lists" -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
		apt-get "${APT[@]}" -q update >&2 ||
			[ -n "$(find "$dir/lists" -name '*_Packages*' 2>/dev/null)" ] ||
			die "cannot read bullseye's package lists"
	fi
}
case $KERNEL in
*.deb) deb=$(realpath "$KERNEL") ;;
*)
	# the packages of another architecture than dpkg's are asked for as pkg:arch
	flavour=amd64 pkgarch=
	[ $ARCH = arm64 ] && flavour=arm64 pkgarch=:arm64
	case $KERNEL in
	6.1) meta=linux-image-$flavour ;;
	6.12) meta=linux-image-6.12-$flavour ;;
	5.10) meta=linux-image-$flavour pkgarch= && bullseye_apt ;;
	linux-image-*) meta= ;;
	*) die "unknown kernel '$KERNEL': 6.1, 6.12, 5.10, a linux-image-* package or a .deb" ;;
	esac
	pkg=$KERNEL
	if [ -n "$meta" ]; then
		pkg=$({ apt-cache "${APT[@]}" depends "$meta$pkgarch" 2>/dev/null || true; } |
			awk '/Depends: linux-image-/ { sub(/:.*/, "", $2); print $2; exit }')
		[ -n "$pkg" ] || die "apt-cache knows no $meta$pkgarch (apt-get update?)"
	fi
	mkdir -p "$CACHE/debs"
	deb=$(ls "$CACHE/debs/${pkg}"_*.deb "$CACHE/debs/${pkg}"-unsigned_*.deb 2>/dev/null |
		head -n 1 || true)
	if [ -z "$deb" ]; then
		echo "vmtest: downloading $pkg$pkgarch" >&2
		# the same kernel unsigned, where the archive lacks the signed one (bullseye's arm64)
		(cd "$CACHE/debs" && { apt-get "${APT[@]}" download -q "$pkg$pkgarch" ||
			apt-get "${APT[@]}" download -q "$pkg-unsigned$pkgarch"; } >&2 2>/dev/null) ||
			die "cannot download $pkg$pkgarch"
		deb=$(ls "$CACHE/debs/${pkg}"_*.deb "$CACHE/debs/${pkg}"-unsigned_*.deb 2>/dev/null |
			head -n 1 || true)
		[ -n "$deb" ] || die "cannot download $pkg$pkgarch"
	fi
	;;
esac
kdir=$CACHE/$(basename "$deb" .deb)
if [ ! -f "$kdir/.extracted" ]; then
	rm -rf "$kdir"
	mkdir -p "$kdir/pkg"
	dpkg-deb -x "$deb" "$kdir/pkg"
	touch "$kdir/.extracted"
fi
vmlinuz=$(ls "$kdir"/pkg/boot/vmlinuz-* | head -n 1)
modroot=$(ls -d "$kdir"/pkg/lib/modules/* | head -n 1)

# --- the initramfs: busybox, the modules the root needs, init ---------------
# A module's dependencies come from its .modinfo section (no depmod needed).
declare -A modpath seen
while IFS= read -r f; do
	n=$(basename "$f")
	n=${n%%.ko*}
	modpath[${n//-/_}]=$f
done < <(find "$modroot/kernel" -name '*.ko*')
order=()
modtmp=$(mktemp)
add_module()
{
	local n=${1//-/_} f deps d
	[ -n "${seen[$n]:-}" ] && return 0
	seen[$n]=1
	f=${modpath[$n]:-}
	[ -n "$f" ] || return 0 # built in
	case $f in
	*.xz) xz -dc "$f" >"$modtmp.ko" ;;
	*) cp "$f" "$modtmp.ko" ;;
	esac
	# elf64-little: this machine's objcopy reads an arm64 module too
	objcopy -I elf64-little -O binary -j .modinfo "$modtmp.ko" "$modtmp.info"
	deps=$(tr '\0' '\n' <"$modtmp.info" | sed -n 's/^depends=//p' | tr ',' ' ')
	for d in $deps; do
		add_module "$d"
	done
	order+=("$f")
}
for m in virtio_pci 9pnet_virtio 9p overlay; do
	add_module "$m"
done
rm -f "$modtmp" "$modtmp.ko" "$modtmp.info"

initrd=$kdir/initrd.img
BUSYBOX=$(command -v busybox)
[ $ARCH = arm64 ] && arm64_busybox # sets BUSYBOX
stamp=$({ cat "$REPO/tests/vm/init" "$REPO/tests/vm/run.sh" "$BUSYBOX"; printf '%s\n' "${order[@]}"; } |
	sha1sum | cut -c1-12)
if [ ! -f "$initrd" ] || [ "$(cat "$kdir/.initrd-stamp" 2>/dev/null)" != "$stamp" ]; then
	root=$kdir/initrd
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,mod}
	cp "$BUSYBOX" "$root/bin/busybox"
	cp "$REPO/tests/vm/init" "$root/init"
	: >"$root/modules.order"
	for f in "${order[@]}"; do
		case $f in
		*.xz) xz -dc "$f" >"$root/mod/$(basename "$f" .xz)" ;;
		*) cp "$f" "$root/mod/" ;;
		esac
		basename "${f%.xz}" >>"$root/modules.order"
	done
	(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$initrd.tmp")
	mv "$initrd.tmp" "$initrd"
	echo "$stamp" >"$kdir/.initrd-stamp"
fi

# --- boot ----------------------------------------------------------------------
# The guest's command goes in as a file appended to the initramfs (cpio
# archives concatenate), so nothing needs quoting on the kernel's command line.
cmdroot=$(mktemp -d)
trap 'rm -rf "$cmdroot"' EXIT
# the guest's whole console, the tests' diagnostics included, for a look after
log=$CACHE/console-$(basename "$kdir").log
if [ $ARCH = arm64 ]; then
	arm64_guest_cmd "$@" >"$cmdroot/guest.cmd"
	: >"$cmdroot/guest.busybox"
else
	printf '%q ' "$REPO/tests/vm/guest.sh" "$REPO" "$O" "$TIMEOUT" "$@" >"$cmdroot/guest.cmd"
fi
[ -n "${KTR_VM_INIT:-}" ] && printf '%s' "$KTR_VM_INIT" >"$cmdroot/guest.cmd"
echo >>"$cmdroot/guest.cmd"
(cd "$cmdroot" && ls guest.* | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$cmdroot/cmd.img")
cat "$initrd" "$cmdroot/cmd.img" >"$cmdroot/initrd.img"

MACHINE=(-machine q35 -cpu max)
CONSOLE=ttyS0
[ $ARCH = arm64 ] && arm64_machine
# One host thread for all the guest's CPUs (thread=single): with a thread
# each, a guest CPU could run code that another had just patched (a static
# key, as attaching the first program to a tracepoint turns on) from its
# stale translation, and 6.12 died of the int3 left there ("Oops: int3" in
# syscall_trace_enter) and 6.1 locked up; the guest's CPUs still interleave.
echo "vmtest: booting $(basename "$vmlinuz") under qemu (no KVM: emulated)" >&2
start=$(date +%s)
set +e
timeout -k 10 "${KTR_VM_WALL:-2400}" $QEMU \
	"${MACHINE[@]}" -smp "$CPUS" -m "$MEM" -accel tcg,thread=single \
	-nographic -no-reboot -nodefaults -serial stdio \
	-kernel "$vmlinuz" -initrd "$cmdroot/initrd.img" \
	-append "console=$CONSOLE panic=-1 quiet loglevel=${KTR_VM_LOGLEVEL:-3} rdinit=/init" \
	-virtfs local,path="${KTR_VM_ROOT:-/}",mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	</dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$log" | grep --line-buffered -E "$SHOW"
set -e
echo "vmtest: $(basename "$vmlinuz"): $(($(date +%s) - start)) s; its console: $log" >&2

# --- the summary ---------------------------------------------------------------
npass=$(grep -c '^PASS: ' "$log" || true)
nfail=$(grep -c '^FAIL: ' "$log" || true)
nskip=$(grep -c '^SKIP: ' "$log" || true)
if ! grep -q '^vmtest: exit ' "$log"; then
	echo "vmtest: the guest did not finish; its last lines:" >&2
	tail -n 30 "$log" >&2
	nfail=$((nfail + 1))
elif ! grep -q '^vmtest: exit 0' "$log" && [ "$nfail" -eq 0 ]; then
	nfail=1 # it failed before any test did
fi
summary="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
echo "$summary"
[ "$nfail" -eq 0 ]
