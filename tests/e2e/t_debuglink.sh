#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump treats a trace as hostile when it looks for objects and debug files
# (issue 31, item 4).  A user traces his program with -k and hands the trace
# to root; the library in its stacks (tests/progs/libstackhost.so, stripped
# of its DWARF) carries a .gnu_debuglink of his choosing:
#  - "../../(...)/TMP/x/fifo", a FIFO nobody writes: libdwfl's standard
#    search opens /usr/lib/debug/<dir>/../../(...) with a blocking open and
#    hangs for good
#  - "../../(...)/etc/ktraceb-shadow-PID", a root-only file (here a debug
#    file for the library, its CRC in the link, so that taking it would
#    show: lines appear in the frames)
# and then a FIFO where the library's debug file by build id would be, in
# /usr/lib/debug itself.  kdump runs under timeout: it must end, follow
# none of these, name the frames from the library's own symbols, and say
# in one line each what it skipped.  Each check fails if its rule is
# removed (the standard search: a hang, or the shadow file's lines).
. "$(dirname "$0")/lib.sh"
need_tracer
HOST=$PROGS/stack_host
LIB=$PROGS/libstackhost.so
for p in "$HOST" "$LIB"; do
	if [ ! -x "$p" ] && [ ! -f "$p" ]; then
		fail build "$p not built (make O=$O test)"
		exit 1
	fi
done
for t in objcopy strip readelf; do
	if ! command -v $t >/dev/null; then
		skip all "no $t"
		exit 0
	fi
done
TARGET=$TMP/target.conf
echo target >"$TARGET"
SHADOW=/etc/ktraceb-shadow-$$
# where "../" out of /usr/lib/debug leads: the root, or (where /usr's ".." is
# not the root, as in some containers) a directory of /usr/lib made for this
UP=$(printf '../%.0s' $(seq 16))
if [ -d "/usr/lib/debug/$UP${TMP#/}" ] && [ -d "/usr/lib/debug/$UP${SHADOW%/*}" ]; then
	ESCAPE=$TMP/x
	ESCAPE_LINK=$UP${TMP#/}/x
	SHADOW_LINK=$UP${SHADOW#/}
	MADE=
else
	ESCAPE=/usr/lib/ktraceb-escape-$$
	MADE=$ESCAPE
	ESCAPE_LINK=../ktraceb-escape-$$
	SHADOW=$ESCAPE/shadow
	SHADOW_LINK=$ESCAPE_LINK/shadow
fi
KDT=${KDT:-20} # seconds kdump may take: it reads a few small files

# debuglink LIB NAME [FILE]: LIB's .gnu_debuglink made to name NAME, with the
# CRC of FILE (what NAME leads to: the standard search would take it)
debuglink()
{
	python3 - "$2" "${3:-}" >"$TMP/link.bin" <<'EOF'
import struct, sys, zlib
path, target = sys.argv[1], sys.argv[2]
crc = zlib.crc32(open(target, "rb").read()) if target else 1
name = path.encode() + b"\0"
name += b"\0" * (-len(name) % 4)
sys.stdout.buffer.write(name + struct.pack("<I", crc))
EOF
	objcopy --remove-section .gnu_debuglink --add-section .gnu_debuglink="$TMP/link.bin" \
		--set-section-flags .gnu_debuglink=readonly "$1"
}

# hostile P LINK [FILE]: a copy of the library, stripped, linking to LINK
# (which leads to FILE); traced; kdump'ed
hostile()
{
	local p=$1
	mkdir -p "$TMP/$p"
	cp "$LIB" "$TMP/$p/libstackhost.so"
	strip --strip-debug "$TMP/$p/libstackhost.so"
	debuglink "$TMP/$p/libstackhost.so" "$2" "${3:-}"
	ktr "$p" -k -e trace=openat -f "$TMP/$p.ktr" "$HOST" "$TMP/$p/libstackhost.so" "$TARGET"
	check "${p}_runs" t_krc 0 "$p"
	timeout -k 2 "$KDT" "$KDUMP" -f "$TMP/$p.ktr" >"$TMP/$p.kd" 2>"$TMP/$p.kderr" </dev/null
	KDRC=$?
	check "${p}_kdump_ends" t_eq "$KDRC" 0 "124: kdump hung"
	check "${p}_frame_named" t_grep "^ +#1 +host_open\+0x[0-9a-f]+ \($TMP/$p/libstackhost\.so\)( at .*)?\$" \
		"$TMP/$p.kd"
}

BID=$(readelf -n "$LIB" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
if [ -z "$BID" ]; then
	skip all "libstackhost.so has no build id"
	exit 0
fi
DEBUG_FILE=/usr/lib/debug/.build-id/${BID:0:2}/${BID:2}.debug
if [ -e "$DEBUG_FILE" ] || [ -e "$SHADOW" ]; then
	skip all "$DEBUG_FILE or $SHADOW is there already"
	exit 0
fi
trap 'rm -rf "$SHADOW" "$DEBUG_FILE" ${MADE:+"$MADE"}; e2e_cleanup' EXIT

# --- a debug link up and out, to a FIFO ----------------------------------------------
mkdir -p "$ESCAPE"
mkfifo "$ESCAPE/fifo"
hostile fifo "$ESCAPE_LINK/fifo"
check fifo_skip_said t_grep "^kdump: skipped the debug link \.\./.*/fifo of $TMP/fifo/libstackhost\.so: not a plain file name inside /usr/lib/debug\$" \
	"$TMP/fifo.kderr"
check fifo_said_once t_eq "$(grep -c '/fifo of' "$TMP/fifo.kderr")" 1

# --- a debug link to a root-only file outside /usr/lib/debug -------------------------
objcopy --only-keep-debug "$LIB" "$SHADOW"
chmod 600 "$SHADOW"
hostile shadow "$SHADOW_LINK" "$SHADOW"
check shadow_not_read t_nogrep 'host_open\+0x[0-9a-f]+ .* at .*libstackhost\.c' "$TMP/shadow.kd"
check shadow_skip_said t_grep "^kdump: skipped the debug link \.\./.*/${SHADOW##*/} of .*: not a plain file name inside /usr/lib/debug\$" \
	"$TMP/shadow.kderr"
rm -f "$SHADOW"

# --- the standard directory itself: its debug file by build id a FIFO ----------------
mkdir -p "$(dirname "$DEBUG_FILE")"
mkfifo "$DEBUG_FILE"
hostile bidfifo libstackhost.debug
check bidfifo_skip_said t_grep "^kdump: skipped $DEBUG_FILE: a FIFO, not a regular file\$" \
	"$TMP/bidfifo.kderr"
rm -f "$DEBUG_FILE"

# --- and the same file a debug file: found, its lines shown (the rules let it in) ------
objcopy --only-keep-debug "$LIB" "$DEBUG_FILE"
hostile bidfile libstackhost.debug
check bidfile_lines t_grep '^ +#1 +host_open\+0x[0-9a-f]+ .* at .*libstackhost\.c:[0-9]+$' "$TMP/bidfile.kd"
check bidfile_nothing_skipped t_nogrep skipped "$TMP/bidfile.kderr"
rm -f "$DEBUG_FILE"

# --- the object's own path: the kernel's files, a FIFO, a link to /proc/kmsg --------
# The trace's KTR_OBJECT records of the library rewritten to name them:
# kdump opens none of them for reading (a read of /proc/kmsg takes the
# kernel's log from its reader), says so in one line each, and still shows
# the frames.  strace, where there is one, sees no open of them but O_PATH.
# object_path IN OUT PATH: IN with the library's KTR_OBJECT path made PATH;
# how many records it changed
object_path()
{
	python3 - "$@" <<'EOF'
import struct, sys
src, dst, new = sys.argv[1], sys.argv[2], sys.argv[3].encode()
data, out, off, n = open(src, "rb").read(), bytearray(), 0, 0
while off + 64 <= len(data):
    ln, typ = struct.unpack_from("<ih", data, off)
    body = data[off + 64:off + 64 + ln]
    if typ == 21:  # KTR_OBJECT: 24 bytes, 32 a load, the path
        head = 24 + 32 * body[21]
        if body[head:].rstrip(b"\0").endswith(b"/libstackhost.so"):
            body, n = body[:head] + new + b"\0", n + 1
    hdr = bytearray(data[off:off + 64])
    struct.pack_into("<i", hdr, 0, len(body))
    out += hdr + body
    off += 64 + ln
open(dst, "wb").write(out)
print(n)
EOF
}

mkdir -p "$TMP/obj"
cp "$LIB" "$TMP/obj/libstackhost.so"
ktr obj -k -e trace=openat -f "$TMP/obj.ktr" "$HOST" "$TMP/obj/libstackhost.so" "$TARGET"
check obj_runs t_krc 0 obj
mkfifo "$TMP/obj/fifo"
ln -s /proc/kmsg "$TMP/obj/kmsg-link"
STRACE=$(command -v strace)
KERNEL_WHY="a file of the kernel's \\(/proc, /sys, /dev\\), not an object's"
i=0
for path in /proc/kmsg /proc/self/mem /sys/kernel/notes /dev/zero "$TMP/obj/fifo" \
	"$TMP/obj/kmsg-link"; do
	i=$((i + 1))
	p=obj$i
	check "${p}_rewritten" t_num "$(object_path "$TMP/obj.ktr" "$TMP/$p.ktr" "$path")" -gt 0
	timeout -k 2 "$KDT" ${STRACE:+"$STRACE" -f -qq -y -e trace=open,openat,openat2 \
		-o "$TMP/$p.strace"} "$KDUMP" -f "$TMP/$p.ktr" >"$TMP/$p.kd" 2>"$TMP/$p.kderr" \
		</dev/null
	KDRC=$?
	check "${p}_kdump_ends" t_eq "$KDRC" 0 "124: kdump hung on $path"
	why=$KERNEL_WHY
	[ "$path" = "$TMP/obj/fifo" ] && why='a FIFO, not a regular file'
	check "${p}_skip_said" t_grep "^kdump: skipped $path: $why\$" "$TMP/$p.kderr"
	check "${p}_frames_shown" t_grep '^ +#1 +' "$TMP/$p.kd"
	# an open that is not O_PATH, of the path or of /proc/self/fd/N, giving a kernel file
	[ -n "$STRACE" ] && check "${p}_not_opened" t_nogrep \
		"open[a-z0-9]*\\(.*\"($path|/proc/self/fd/[0-9]+)\", ([^P]|P[^A])*\\) = [0-9]+<(/proc/|/sys/|/dev/|$TMP/obj/fifo)" \
		"$TMP/$p.strace"
done
[ -n "$STRACE" ] || skip obj_not_opened "no strace: only kdump's word that it skipped them"

rm -rf ${MADE:+"$MADE"}
trap 'e2e_cleanup' EXIT
e2e_done
